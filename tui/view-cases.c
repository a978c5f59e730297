// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The cases view (the desk): every case the acting member may see, open
 * and closed, one row each, the last active first.  The list comes from
 * core (dc_case_list_filtered(): the access rules and the filter words
 * are the ones of decorum cases), and a row shows what decorum cases
 * shows of a case, never more about its people.  d asks for a filter
 * ("open escalation 30d"); Enter opens the thread of the case's report,
 * found by its Message-ID, with the case panel.
 */
#include <string.h>

#include "core/base/sanitize.h"
#include "core/case/filter.h"
#include "core/mail/anchor.h"
#include "tui/draw.h"
#include "tui/tui.h"

struct desk {
	dc_case_filter_t filter;
	GPtrArray *cases; /* dc_case_t *, as core ordered them */
	unsigned generation; /* the TUI's, when loaded; 0: never */
	int64_t cursor_case; /* the case under the cursor, kept over loads */
	int cursor, top;
	char *error;
};

static void
desk_load(struct desk *d, dc_tui_t *t)
{
	dc_error_t err = { 0 };
	GPtrArray *cases = NULL;
	guint i;

	d->generation = t->generation;
	g_clear_pointer(&d->error, g_free);
	if (d->cursor < (int)d->cases->len)
		d->cursor_case = ((dc_case_t *)d->cases->pdata[d->cursor])->id;
	g_ptr_array_set_size(d->cases, 0);
	/* No store yet: no case yet, nothing to say but that. */
	if (!t->store)
		return;
	if (dc_case_list_filtered(t->store, &d->filter, 0,
				  DC_CASES_BY_ACTIVITY, dc_tui_now(t), &cases,
				  &err) != DC_OK) {
		d->error = g_strdup_printf("Cases: %s", err.msg);
		dc_error_clear(&err);
		return;
	}
	/* The elements move over to the view's array. */
	g_ptr_array_set_free_func(cases, NULL);
	for (i = 0; i < cases->len; i++) {
		dc_case_t *c = cases->pdata[i];

		if (c->id == d->cursor_case)
			d->cursor = (int)i;
		g_ptr_array_add(d->cases, c);
	}
	g_ptr_array_unref(cases);
}

static void
desk_fresh(struct desk *d, dc_tui_t *t)
{
	if (d->generation != t->generation)
		desk_load(d, t);
}

static const char *
kind_short(dc_kind_t k)
{
	return k == DC_KIND_ADMONITION ? "ADM" :
	       k == DC_KIND_ESCALATION ? "ESC" :
					 "TAB";
}

static dc_role_t
kind_role(dc_kind_t k)
{
	return k == DC_KIND_ADMONITION ? DC_ROLE_ADMONITION :
	       k == DC_KIND_ESCALATION ? DC_ROLE_ESCALATION :
					 DC_ROLE_TAB;
}

static void
day(int64_t when, char out[static 16])
{
	time_t tt = (time_t)when;
	struct tm tm;

	if (!localtime_r(&tt, &tm) || !strftime(out, 16, "%Y-%m-%d", &tm))
		strcpy(out, "?");
}

/* The columns: number, kind, state, opened and last active (the
 * opening date only when there is room), then subject and category. */
struct cols {
	int kind_w, opened;
};

static struct cols
columns(int w)
{
	return (struct cols){ .kind_w = w >= 100 ? 10 : 3,
			      .opened = w >= 72 };
}

static void
draw_header(dc_tui_t *t, int y, dc_rect_t a, struct cols c)
{
	dc_screen_t *s = t->scr;
	int x = a.x, end = a.x + a.w;

	dc_draw_fill(s, y, a.x, a.w, DC_ROLE_GROUP);
	dc_draw_text(s, y, x, 5, "Case", DC_ROLE_GROUP);
	x += 6;
	dc_draw_text(s, y, x, c.kind_w, "Kind", DC_ROLE_GROUP);
	x += c.kind_w + 1;
	dc_draw_text(s, y, x, 13, "State", DC_ROLE_GROUP);
	x += 14;
	if (c.opened) {
		dc_draw_text(s, y, x, 10, "Opened", DC_ROLE_GROUP);
		x += 11;
	}
	dc_draw_text(s, y, x, 10, "Active", DC_ROLE_GROUP);
	x += 11;
	if (x < end)
		dc_draw_text(s, y, x, end - x, "Subject (category)",
			     DC_ROLE_GROUP);
}

static void
draw_row(dc_tui_t *t, const dc_case_t *c, int y, dc_rect_t a, struct cols k,
	 int selected)
{
	dc_screen_t *s = t->scr;
	int x = a.x, end = a.x + a.w, sw;
	char buf[32], *cat, *mark;

	snprintf(buf, sizeof(buf), "#%" G_GINT64_FORMAT, (gint64)c->id);
	dc_draw_text(s, y, x, 5, buf, DC_ROLE_NORMAL);
	x += 6;
	dc_draw_text(s, y, x, k.kind_w,
		     k.kind_w > 3 ? dc_kind_name(c->kind) : kind_short(c->kind),
		     kind_role(c->kind));
	x += k.kind_w + 1;
	dc_draw_text(s, y, x, 13, c->state, DC_ROLE_NORMAL);
	x += 14;
	if (k.opened) {
		day(c->created_at, buf);
		dc_draw_text(s, y, x, 10, buf, DC_ROLE_DATE);
		x += 11;
	}
	day(c->updated_at, buf);
	dc_draw_text(s, y, x, 10, buf, DC_ROLE_DATE);
	x += 11;
	/* The subject comes from mail: dc_draw_text sanitizes it.  A
	 * category keeps up to half the room beside a long subject; the
	 * mark of a case that none of this member's mail holds (one that
	 * another member's brought, decorum sync) keeps its own. */
	cat = c->category ? g_strdup_printf("(%s)", c->category) : NULL;
	mark = dc_case_mail_absent(c)
		       ? g_strdup_printf("(%s)", dc_case_mail_absent(c))
		       : NULL;
	sw = end - x;
	if (mark && sw >= 24)
		sw -= dc_display_width(mark) + 1;
	if (cat && sw >= 24)
		sw -= MIN(dc_display_width(cat), sw / 2) + 1;
	if (sw > 0)
		x += dc_draw_text(s, y, x, sw, c->subject ? c->subject : "",
				  DC_ROLE_SUBJECT) +
		     1;
	if (cat && x < end)
		x += dc_draw_text(s, y, x, end - x, cat, DC_ROLE_TAGS) + 1;
	if (mark && x < end)
		dc_draw_text(s, y, x, end - x, mark, DC_ROLE_PENDING);
	g_free(cat);
	g_free(mark);
	if (selected)
		dc_draw_select(s, y, a.x, a.w);
}

static void
desk_draw(dc_view_t *v, dc_tui_t *t, dc_rect_t a)
{
	struct desk *d = v->priv;
	struct cols k = columns(a.w);
	char *f;
	int i;

	desk_fresh(d, t);
	if (d->error) {
		dc_draw_text(t->scr, a.y, a.x, a.w, d->error, DC_ROLE_ERROR);
		return;
	}
	if (!d->cases->len) {
		f = dc_case_filter_describe(&d->filter);
		if (*f)
			dc_draw_printf(t->scr, a.y, a.x, a.w, DC_ROLE_NORMAL,
				       "No case you may see passes the filter "
				       "'%s'; d changes it.",
				       f);
		else
			dc_draw_text(t->scr, a.y, a.x, a.w,
				     "No case you may see yet: a, e or t on a "
				     "thread opens one.",
				     DC_ROLE_NORMAL);
		g_free(f);
		return;
	}
	draw_header(t, a.y, a, k);
	a.y++;
	a.h--;
	v->page = a.h;
	dc_tui_show_cursor(&d->cursor, &d->top, d->cases->len, a.h);
	for (i = 0; i < a.h && d->top + i < (int)d->cases->len; i++)
		draw_row(t, d->cases->pdata[d->top + i], a.y + i, a, k,
			 d->top + i == d->cursor);
}

/* d in the desk, or :cases WORDS: a new filter (the prompt starts from
 * the one in force; Tab completes each word). */
static int
check_filter(dc_tui_t *t, GString *text, void *data, char **why)
{
	dc_case_filter_t f;
	dc_error_t err = { 0 };

	if (dc_case_filter_parse(&f, text->str, &err) == DC_OK)
		return 1;
	*why = g_strdup(err.msg);
	dc_error_clear(&err);
	return 0;
}

static void
desk_filter(struct desk *d, dc_tui_t *t, const char *arg)
{
	dc_error_t err = { 0 };
	char *now = dc_case_filter_describe(&d->filter), *text = NULL;
	dc_prompt_opts_t o = { .word_choices = dc_case_filter_words(),
			       .check = check_filter };
	dc_case_filter_t f;

	if (arg) {
		text = g_strdup(arg);
	} else {
		char *initial = g_strconcat(now, *now ? " " : "", NULL);

		o.initial = initial;
		if (!dc_prompt_ex(t,
				  "Filter (open closed STATE KIND 30d, all): ",
				  &o, &text))
			text = NULL;
		g_free(initial);
	}
	g_free(now);
	if (!text)
		return;
	if (dc_case_filter_parse(&f, text, &err) != DC_OK) {
		dc_tui_error(t, "%s", err.msg);
		dc_error_clear(&err);
	} else {
		/* A new list: the cursor on its first row. */
		d->filter = f;
		d->cursor = d->top = 0;
		d->cursor_case = 0;
		g_ptr_array_set_size(d->cases, 0);
		desk_load(d, t);
	}
	g_free(text);
}

/* The report of c, by Message-ID: the mail marked as the report, else
 * the first it covers. */
static const char *
report_id(const dc_case_t *c)
{
	guint i;

	for (i = 0; c->mail && i < c->mail->len; i++) {
		const dc_store_mail_t *m = c->mail->pdata[i];

		if (!g_strcmp0(m->role, "report"))
			return m->message_id;
	}
	return c->mail && c->mail->len ?
		       ((dc_store_mail_t *)c->mail->pdata[0])->message_id :
		       NULL;
}

/* Enter: the thread the case's report is in now (asked of notmuch, not
 * of a thread id kept from before), at the report, with the panel. */
static void
desk_open(struct desk *d, dc_tui_t *t)
{
	dc_error_t err = { 0 };
	const dc_case_t *c;
	dc_case_t *shown = NULL;
	const char *mid;
	char *thread = NULL, *q;

	if (d->cursor >= (int)d->cases->len)
		return;
	c = d->cases->pdata[d->cursor];
	mid = report_id(c);
	if (!mid) {
		dc_tui_error(t, "Case #%" G_GINT64_FORMAT " covers no mail",
			     (gint64)c->id);
		return;
	}
	if (dc_anchor_find(dc_mail_notmuch(t->mail), mid, &thread, &err) !=
	    DC_OK) {
		dc_tui_error(t, "Case #%" G_GINT64_FORMAT ": %s", (gint64)c->id,
			     err.msg);
		dc_error_clear(&err);
		return;
	}
	if (!thread) {
		dc_tui_error(t, "The report of case #%" G_GINT64_FORMAT
				", <%s>, is %s",
			     (gint64)c->id, mid, DC_MAIL_ABSENT);
		return;
	}
	q = dc_mail_id_query(mid);
	t->show_panel = 1;
	dc_tui_push(t, dc_view_thread_new_at(t, thread, q));
	/* The panel shows the thread's case: its open one when there is
	 * one, which may be another than the row's (a closed case whose
	 * thread was tagged anew). */
	if (t->store && dc_case_for_thread(t->store, thread, &shown, NULL) ==
				DC_OK &&
	    shown && shown->id != c->id)
		dc_tui_message(t,
			       "The panel shows case #%" G_GINT64_FORMAT
			       ", this thread's %s case; case #%"
			       G_GINT64_FORMAT " is %s",
			       (gint64)shown->id, shown->state, (gint64)c->id,
			       c->state);
	dc_case_free(shown);
	g_free(q);
	g_free(thread);
}

static int
desk_request(dc_view_t *v, dc_tui_t *t, dc_action_t a, const char *arg)
{
	struct desk *d = v->priv;

	desk_fresh(d, t);
	switch (a) {
	case ACT_CASES: desk_filter(d, t, arg); return 1;
	case ACT_ENTER: desk_open(d, t); return 1;
	case ACT_NEXT:
	case ACT_PREVIOUS: return 0;
	default: break;
	}
	return dc_tui_move_view(v, a, &d->cursor, &d->top, d->cases->len);
}

static void
desk_title(dc_view_t *v, dc_tui_t *t, GString *out)
{
	struct desk *d = v->priv;
	char *f = dc_case_filter_describe(&d->filter);

	g_string_append_printf(out, "Cases you may see (%s%s)  d: filter  "
				    "Enter: open  q: back",
			       *f ? "filter: " : "no filter", f);
	g_free(f);
}

static void
desk_position(dc_view_t *v, GString *out)
{
	struct desk *d = v->priv;

	if (!d->cases->len)
		g_string_append(out, "0/0");
	else
		g_string_append_printf(out, "%d/%u", d->cursor + 1,
				       d->cases->len);
}

static void
desk_done(dc_view_t *v)
{
	struct desk *d = v->priv;

	g_ptr_array_unref(d->cases);
	g_free(d->error);
	g_free(d);
}

static void
case_free_cb(gpointer p)
{
	dc_case_free(p);
}

static const dc_action_t desk_actions[] = {
	DC_MOVE_ACTIONS, ACT_CASES, ACT_ENTER, ACT_NONE,
};

static const dc_view_ops_t desk_ops = {
	.name = "cases",
	.title = desk_title,
	.draw = desk_draw,
	.request = desk_request,
	.position = desk_position,
	.done = desk_done,
	.actions = desk_actions,
};

int
dc_view_is_cases(const dc_view_t *v)
{
	return v && v->ops == &desk_ops;
}

dc_view_t *
dc_view_cases_new(dc_tui_t *t, const char *filter)
{
	struct desk *d = g_new0(struct desk, 1);

	d->cases = g_ptr_array_new_with_free_func(case_free_cb);
	if (filter)
		desk_filter(d, t, filter);
	if (!d->generation)
		desk_load(d, t);
	return dc_view_new(&desk_ops, d);
}
