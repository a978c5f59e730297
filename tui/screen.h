/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The screen model: a grid of cells holding what should be on the screen,
 * apart from any terminal (as tmux's grid).  Views draw into it through
 * tui/draw.h; the terminal backend copies it to curses, and the headless
 * mode used by the screen tests dumps it as text.
 */
#ifndef DC_SCREEN_H
#define DC_SCREEN_H

#include <stdint.h>

/* What a cell shows; the terminal backend maps roles to attributes. */
typedef enum {
	DC_ROLE_NORMAL,
	DC_ROLE_TITLE,
	DC_ROLE_STATUS,
	DC_ROLE_CURSOR,
	DC_ROLE_DATE,
	DC_ROLE_AUTHOR,
	DC_ROLE_SUBJECT,
	DC_ROLE_TAGS,
	DC_ROLE_ADMONITION,
	DC_ROLE_ESCALATION,
	DC_ROLE_TAB,
	DC_ROLE_HEADER,
	DC_ROLE_QUOTE,
	DC_ROLE_MARKER, /* something the sanitizer replaced */
	DC_ROLE_GROUP,  /* help group headings, panel headings */
	DC_ROLE_ERROR,
	DC_ROLE_PENDING,
	DC_ROLE_COUNT,
} dc_role_t;

/* The [colors] names of the roles, for the configuration file. */
const char *dc_role_name(dc_role_t r);
dc_role_t dc_role_by_name(const char *name); /* DC_ROLE_COUNT if none */

typedef struct dc_cell {
	char text[32]; /* one character and its combining marks; "" after a
			* wide character (the second column) */
	uint8_t width;  /* 1 or 2; 0 for the second column of a wide one */
	uint8_t role;
	uint8_t selected;
} dc_cell_t;

typedef struct dc_screen {
	int rows, cols;
	dc_cell_t *cells;
} dc_screen_t;

dc_screen_t *dc_screen_new(int rows, int cols);
void dc_screen_resize(dc_screen_t *s, int rows, int cols);
void dc_screen_free(dc_screen_t *s);
/* Blank every cell. */
void dc_screen_clear(dc_screen_t *s);
dc_cell_t *dc_screen_cell(dc_screen_t *s, int y, int x);
/* The grid as UTF-8 text, one line per row after a two-column gutter
 * ("> " on the selected line), trailing blanks cut (g_free). */
char *dc_screen_dump(const dc_screen_t *s);

#endif
