/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The headless driver behind the screen tests: instead of a terminal, the
 * main loop reads its keys from a script, one line at a time as it asks:
 *
 *   key NAME...        keys by name ("j", "Enter", "C-X")
 *   type TEXT          each character of TEXT as a key
 *   dump NAME          the screen model as text, to DUMP_DIR/NAME.txt
 *   resize COLS ROWS   a new screen size
 *   # a comment
 */
#ifndef DC_SCRIPT_H
#define DC_SCRIPT_H

#include "tui/tui.h"

/* The script at path, its dumps going to dump_dir (NULL: the current
 * directory; both must outlive it); NULL with errno if it cannot be
 * opened. */
dc_script_t *dc_script_open(const char *path, const char *dump_dir);
void dc_script_free(dc_script_t *s);
/* The next key of t's script: DC_KEY_RESIZE after a resize, DC_KEY_EOF at
 * its end or at a bad line (which is reported, and t->quit set to 2). */
int dc_script_key(dc_tui_t *t);

#endif
