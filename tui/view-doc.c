// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The governing documentation of a case's kind, as a pager: the section
 * of the maintainer guide our kernel series adds (core/docs/doclink.h), wrapped
 * to the screen, with its docs.kernel.org address and the built HTML page
 * when there is one.  On a thread without a case it shows the guide's
 * introduction, which says how to choose between the three kinds.
 */
#include <string.h>

#include "core/docs/doclink.h"
#include "core/base/sanitize.h"
#include "tui/draw.h"
#include "tui/pager.h"
#include "tui/tui.h"

typedef struct doc_line {
	dc_role_t role;
	char *text;
} doc_line_t;

struct doc {
	const dc_doclink_t *link;
	char *title;
	GPtrArray *src; /* doc_line_t *, unwrapped */
	dc_pager_t pager; /* over the wrapped lines */
};

static void
doc_line_free(gpointer p)
{
	doc_line_t *l = p;

	g_free(l->text);
	g_free(l);
}

static void
add(struct doc *d, dc_role_t role, const char *text)
{
	doc_line_t *l = g_new0(doc_line_t, 1);

	l->role = role;
	l->text = g_strdup(text);
	g_ptr_array_add(d->src, l);
}

/* A title's underline, as core/docs/doclink.c keeps it. */
static int
underline(const char *s)
{
	size_t n = strlen(s);

	return n >= 2 && strchr("=-~^\"'`:.*+#_<>", s[0]) &&
	       strspn(s, (char[]){ s[0], 0 }) == n;
}

/* One line per paragraph or list item, for wrapping to the screen: the
 * source's line breaks fall wherever they fell in 80 columns, and
 * stripped markup left them ragged.  Titles, their underlines and
 * indented (literal) blocks stay as they are. */
static void
reflow(struct doc *d, char **lines)
{
	GString *para = NULL;
	char **p;

	for (p = lines; *p; p++) {
		const char *l = *p, *t = l + strspn(l, " ");
		int item = !strncmp(t, "- ", 2) || !strncmp(t, "* ", 2);
		int join = para && *t && !item && !underline(t) &&
			   !(p[1] && underline(p[1])) &&
			   (size_t)(t - l) <= strspn(para->str, " ") + 2;

		if (join) {
			g_string_append_printf(para, " %s", t);
			continue;
		}
		if (para) {
			add(d, DC_ROLE_NORMAL, para->str);
			g_string_free(para, TRUE);
			para = NULL;
		}
		if (!*t || underline(t) || (p[1] && underline(p[1])) ||
		    (t - l > 0 && !item)) {
			if (*t || p[1])
				add(d, DC_ROLE_NORMAL, l);
			continue;
		}
		para = g_string_new(l);
	}
	if (para) {
		add(d, DC_ROLE_NORMAL, para->str);
		g_string_free(para, TRUE);
	}
}

static void
doc_title(dc_view_t *v, dc_tui_t *t, GString *out)
{
	struct doc *d = v->priv;

	g_string_append_printf(out, "Documentation: %s (q closes)", d->title);
}

/* Draw line l wrapped at w columns from wrapped row `row` on (rows above
 * top or below the view are skipped), breaking between words where it
 * can; a list item's continuation rows line up with its text.  Returns
 * the next row. */
static int
wrap(const doc_line_t *l, int w, dc_tui_t *t, int y0, dc_rect_t a, int top,
     int row)
{
	char *san = dc_sanitize_line(l->text);
	const char *q = san;
	int ind = 0;

	while (q[ind] == ' ')
		ind++;
	if (!strncmp(q + ind, "- ", 2))
		ind += 2;
	if (ind > w / 2)
		ind = 0;
	do {
		int off = q == san ? 0 : ind;
		size_t n = dc_prefix_for_width(q, w - off), sp;

		if (!n && *q)
			n = g_utf8_next_char(q) - q;
		for (sp = n; q[n] && sp > 0 && q[sp - 1] != ' '; sp--)
			;
		if (q[n] && sp > 0)
			n = sp;
		if (row >= top && row - top < a.h) {
			char *piece = g_strndup(q, n);

			dc_draw_text(t->scr, y0 + row - top, a.x + off, w - off,
				     piece, l->role);
			g_free(piece);
		}
		row++;
		q += n;
		while (*q == ' ')
			q++;
	} while (*q);
	g_free(san);
	return row;
}

static void
doc_draw(dc_view_t *v, dc_tui_t *t, dc_rect_t a)
{
	struct doc *d = v->priv;
	int row = 0, w = a.w > 2 ? a.w - 1 : a.w;
	guint i;

	for (i = 0; i < d->src->len; i++)
		row = wrap(d->src->pdata[i], w, t, a.y, a, d->pager.top, row);
	d->pager.nlines = row;
}

static int
doc_request(dc_view_t *v, dc_tui_t *t, dc_action_t a, const char *arg)
{
	struct doc *d = v->priv;

	return dc_pager_scroll(&d->pager, v, a) || a == ACT_DOC;
}

static void
doc_position(dc_view_t *v, GString *out)
{
	struct doc *d = v->priv;

	dc_pager_position(&d->pager, out);
}

static void
doc_done(dc_view_t *v)
{
	struct doc *d = v->priv;

	g_free(d->title);
	g_ptr_array_unref(d->src);
	g_free(d);
}

static const dc_action_t doc_actions[] = {
	DC_MOVE_ACTIONS, ACT_DOC, ACT_NONE,
};

static const dc_view_ops_t doc_ops = {
	.name = "doc",
	.title = doc_title,
	.draw = doc_draw,
	.request = doc_request,
	.position = doc_position,
	.done = doc_done,
	.actions = doc_actions,
};

dc_view_t *
dc_view_doc_new(dc_tui_t *t, const dc_doclink_t *l)
{
	struct doc *d = g_new0(struct doc, 1);
	dc_doc_section_t s = { 0 };
	dc_error_t err = { 0 };
	char *dir, *html = NULL, **lines;

	d->link = l;
	d->src = g_ptr_array_new_with_free_func(doc_line_free);
	if (dc_doc_section_load(l, &s, &err) == DC_OK) {
		d->title = g_strdup(s.title);
		add(d, DC_ROLE_GROUP, s.title);
		add(d, DC_ROLE_NORMAL, "");
		lines = g_strsplit(s.text, "\n", -1);
		reflow(d, lines);
		g_strfreev(lines);
	} else {
		d->title = g_strdup(l->title);
		add(d, DC_ROLE_GROUP, l->title);
		add(d, DC_ROLE_NORMAL, "");
		add(d, DC_ROLE_ERROR, err.msg);
	}
	dc_doc_section_clear(&s);
	add(d, DC_ROLE_NORMAL, "");
	{
		char *u = g_strdup_printf("Online: %s", l->url);

		add(d, DC_ROLE_HEADER, u);
		g_free(u);
	}
	if ((dir = dc_doc_html_dir(NULL)))
		html = dc_doc_html_file(l, dir);
	if (html) {
		char *u = g_strdup_printf("Local:  %s#%s", html, l->anchor);

		add(d, DC_ROLE_HEADER, u);
		g_free(u);
	}
	g_free(html);
	g_free(dir);
	return dc_view_new(&doc_ops, d);
}

void
dc_view_doc_show(dc_tui_t *t)
{
	const dc_doclink_t *l = dc_doclink_find("guide");
	dc_error_t err = { 0 };
	dc_thread_ref_t ref;
	dc_case_t *c = NULL;

	if (dc_tui_current(t, &ref) && t->store &&
	    dc_case_for_thread(t->store, ref.thread_id, &c, &err) == DC_OK &&
	    c) {
		l = dc_doclink_for_kind(c->kind);
		dc_case_free(c);
	}
	dc_tui_push(t, dc_view_doc_new(t, l));
}
