// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The help screen, generated from the action table (tui/actions.def) and
 * the key map in force, followed by any problem found in the
 * configuration file.
 */
#include <string.h>

#include "core/base/sanitize.h"
#include "tui/draw.h"
#include "tui/pager.h"
#include "tui/tui.h"

static void
help_title(dc_view_t *v, dc_tui_t *t, GString *out)
{
	g_string_append(out, "Help: keys and actions (q closes)");
}

static void
help_draw(dc_view_t *v, dc_tui_t *t, dc_rect_t a)
{
	dc_pager_t *h = v->priv;
	GPtrArray *warn = dc_config_warnings(t->cfg);
	int n, i, y = 0, kw = a.w >= 60 ? 16 : 10, nw = a.w >= 60 ? 15 : 0;
	const dc_help_row_t *rows = dc_help_rows(&n);
	const char *path = dc_config_path(t->cfg);
	/* ~ for the home directory: shorter, and the same in every test. */
	int home = g_str_has_prefix(path, g_get_home_dir()) &&
		   path[strlen(g_get_home_dir())] == '/';
	guint w;

	h->nlines = 0;
#define EMIT(code)                                                       \
	do {                                                             \
		if (h->nlines >= h->top && y < a.h) {                    \
			code;                                            \
			y++;                                             \
		}                                                        \
		h->nlines++;                                             \
	} while (0)
	for (i = 0; i < n; i++) {
		const dc_help_row_t *r = &rows[i];

		if (r->act == ACT_NONE) {
			if (i)
				EMIT((void)0);
			EMIT(dc_draw_text(t->scr, a.y + y, a.x, a.w, r->text,
					  DC_ROLE_GROUP));
			continue;
		}
		char *keys = dc_keymap_keys(r->act);

		EMIT({
			dc_draw_text(t->scr, a.y + y, a.x + 1, kw - 2,
				     *keys ? keys : "(none)", DC_ROLE_HEADER);
			if (nw)
				dc_draw_text(t->scr, a.y + y, a.x + kw, nw - 1,
					     dc_action_name(r->act),
					     DC_ROLE_TAGS);
			dc_draw_text(t->scr, a.y + y, a.x + kw + nw,
				     a.w - kw - nw, r->text, DC_ROLE_NORMAL);
		});
		g_free(keys);
	}
	EMIT((void)0);
	EMIT(dc_draw_text(t->scr, a.y + y, a.x, a.w,
			  "Prompts: Enter accepts, Esc cancels, C-X edits a "
			  "note in $EDITOR.",
			  DC_ROLE_NORMAL));
	EMIT(dc_draw_printf(t->scr, a.y + y, a.x, a.w, DC_ROLE_NORMAL,
			    "Keys and colours: %s%s", home ? "~" : "",
			    path + (home ? strlen(g_get_home_dir()) : 0)));
	for (w = 0; w < warn->len; w++)
		EMIT(dc_draw_text(t->scr, a.y + y, a.x, a.w, warn->pdata[w],
				  DC_ROLE_ERROR));
#undef EMIT
}

static int
help_request(dc_view_t *v, dc_tui_t *t, dc_action_t a, const char *arg)
{
	return dc_pager_scroll(v->priv, v, a) || a == ACT_HELP;
}

static void
help_position(dc_view_t *v, GString *out)
{
	dc_pager_position(v->priv, out);
}

static void
help_done(dc_view_t *v)
{
	g_free(v->priv);
}

static const dc_action_t help_actions[] = {
	DC_MOVE_ACTIONS, ACT_HELP, ACT_NONE,
};

static const dc_view_ops_t help_ops = {
	.name = "help",
	.title = help_title,
	.draw = help_draw,
	.request = help_request,
	.position = help_position,
	.done = help_done,
	.actions = help_actions,
};

dc_view_t *
dc_view_help_new(dc_tui_t *t)
{
	return dc_view_new(&help_ops, g_new0(dc_pager_t, 1));
}
