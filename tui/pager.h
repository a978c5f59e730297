/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the pagers (help, doc, report) share: a text of nlines lines seen
 * from line top on, scrolled by the move actions, its position in the
 * status bar.  Each pager keeps one dc_pager_t and draws its own lines.
 */
#ifndef DC_PAGER_H
#define DC_PAGER_H

#include "tui/tui.h"

typedef struct dc_pager {
	int top;    /* the first line on the screen */
	int nlines; /* all the lines, at the last draw */
} dc_pager_t;

/* Scroll p, drawn in v, by a move action; 1 if a was one. */
int dc_pager_scroll(dc_pager_t *p, dc_view_t *v, dc_action_t a);
/* "12/40" for the status bar ("0/0" when there is no line). */
void dc_pager_position(const dc_pager_t *p, GString *out);

#endif
