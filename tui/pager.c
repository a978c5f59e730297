// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The scrolling shared by the pagers (tui/pager.h).
 */
#include "tui/pager.h"

int
dc_pager_scroll(dc_pager_t *p, dc_view_t *v, dc_action_t a)
{
	/* The top moves like a cursor over the tops that leave no empty
	 * rows below the text: the last one shows its last line at the
	 * bottom (none when the text fits, and the top stays 0). */
	return dc_tui_move(v, a, &p->top, p->nlines - v->page + 1);
}

void
dc_pager_position(const dc_pager_t *p, GString *out)
{
	g_string_append_printf(out, "%d/%d", p->nlines ? p->top + 1 : 0,
			       p->nlines);
}
