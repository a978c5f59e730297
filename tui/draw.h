/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The draw layer.  Views put strings on the screen only through
 * dc_draw_text(), which sanitizes them (core/base/sanitize.h), cuts them by
 * display width and marks what the sanitizer replaced; and only this layer
 * talks to curses (dc_term_*), copying the screen model to the terminal.
 */
#ifndef DC_DRAW_H
#define DC_DRAW_H

#include "tui/screen.h"

/*
 * Draw utf8 (raw: it is sanitized here) at y, x in at most width columns,
 * with an ellipsis when cut.  Returns the columns used.
 */
int dc_draw_text(dc_screen_t *s, int y, int x, int width, const char *utf8,
		 dc_role_t role);
int dc_draw_printf(dc_screen_t *s, int y, int x, int width, dc_role_t role,
		   const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Blank width cells from y, x in a role. */
void dc_draw_fill(dc_screen_t *s, int y, int x, int width, dc_role_t role);
/* Mark width cells as the selected line. */
void dc_draw_select(dc_screen_t *s, int y, int x, int width);

/* ---- the terminal ------------------------------------------------------ */

/* Apply a [colors] value ("red", "white blue bold", ...) to a role; 0 with
 * the reason in *why (g_free) when the value is bad.  Before dc_term_open. */
int dc_term_set_color(dc_role_t role, const char *spec, char **why);
/* Start curses; colours unless NO_COLOR is set or the terminal has none. */
int dc_term_open(void);
void dc_term_close(void);
void dc_term_size(int *rows, int *cols);
/* Copy the screen to the terminal; the cursor at cy, cx (hidden if cy < 0).
 * force repaints everything (Ctrl-L). */
void dc_term_flush(const dc_screen_t *s, int cy, int cx, int force);
/* The next key (tui/actions.h codes), DC_KEY_TIMEOUT after timeout_ms. */
int dc_term_getkey(int timeout_ms);
/* Give the terminal back, stop (SIGTSTP), and take it again on return. */
void dc_term_suspend(void);
/* Leave curses to run a program in the terminal, then come back. */
void dc_term_leave(void);
void dc_term_enter(void);

#endif
