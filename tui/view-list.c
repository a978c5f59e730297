// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The thread list.  Rows are read from the notmuch iterator only as the
 * screen needs them: the first screen costs the same on a huge index as on
 * a small one, nothing is counted, and G reads to the end.
 */
#include <string.h>

#include "core/case/case.h"
#include "core/base/sanitize.h"
#include "tui/draw.h"
#include "tui/tui.h"

struct row {
	dc_thread_summary_t ts;
	unsigned gen; /* generation the badge was read at; 0: never */
	int has_case;
	dc_kind_t kind;
	char *state;
	int64_t case_id;
};

struct list {
	char *query;
	dc_thread_iter_t *it;
	int at_end;
	GPtrArray *rows; /* struct row * */
	int cursor, top;
	int restart; /* notmuch was reopened: read again */
	char *error;
};

static void
row_free(gpointer p)
{
	struct row *r = p;

	dc_thread_summary_clear(&r->ts);
	g_free(r->state);
	g_free(r);
}

static void
list_reset(struct list *l)
{
	if (l->it)
		dc_thread_iter_free(l->it);
	l->it = NULL;
	l->at_end = 0;
	g_ptr_array_set_size(l->rows, 0);
	g_clear_pointer(&l->error, g_free);
}

static void
list_start(struct list *l, dc_tui_t *t)
{
	dc_error_t err = { 0 };

	list_reset(l);
	l->restart = 0;
	if (dc_mail_search(t->mail, l->query, DC_SORT_NEWEST_FIRST, &l->it,
			   &err) != DC_OK) {
		l->error = g_strdup(err.msg);
		l->at_end = 1;
	}
}

/* Read rows until there are n of them (or the results end). */
static void
list_fill(struct list *l, dc_tui_t *t, int n)
{
	while ((int)l->rows->len < n && !l->at_end) {
		struct row *r = g_new0(struct row, 1);

		if (!l->it || !dc_thread_iter_next(l->it, &r->ts)) {
			row_free(r);
			l->at_end = 1;
			break;
		}
		g_ptr_array_add(l->rows, r);
	}
}

static void
row_badge(struct row *r, dc_tui_t *t)
{
	dc_case_t *c = NULL;

	if (r->gen == t->generation)
		return;
	r->gen = t->generation;
	r->has_case = 0;
	g_clear_pointer(&r->state, g_free);
	if (!t->store ||
	    dc_case_for_thread(t->store, r->ts.thread_id, &c, NULL) != DC_OK ||
	    !c)
		return;
	r->has_case = 1;
	r->kind = c->kind;
	r->state = g_strdup(c->state);
	r->case_id = c->id;
	dc_case_free(c);
}

static dc_role_t
kind_role(dc_kind_t k)
{
	return k == DC_KIND_ADMONITION ? DC_ROLE_ADMONITION :
	       k == DC_KIND_ESCALATION ? DC_ROLE_ESCALATION :
					 DC_ROLE_TAB;
}

static const char *
kind_short(dc_kind_t k)
{
	return k == DC_KIND_ADMONITION ? "ADM" :
	       k == DC_KIND_ESCALATION ? "ESC" :
					 "TAB";
}

/* Three letters for a state, to keep the badge narrow. */
static const char *
state_short(const char *state, char buf[static 4])
{
	static const char *const known[][2] = {
		{ "acknowledged", "ack" }, { "investigating", "inv" },
		{ "decided", "dec" },	   { "closed", "cls" },
		{ "withdrawn", "wdr" },
	};
	guint i;

	for (i = 0; i < G_N_ELEMENTS(known); i++)
		if (!strcmp(state, known[i][0]))
			return known[i][1];
	g_strlcpy(buf, state, 4);
	return buf;
}

static void
draw_row(dc_tui_t *t, struct row *r, int y, dc_rect_t a, int count_w,
	 int selected)
{
	dc_screen_t *s = t->scr;
	const dc_thread_summary_t *ts = &r->ts;
	int x = a.x, end = a.x + a.w, wide = a.w >= 64;
	char date[32], buf[64];
	GString *tags = g_string_new(NULL);
	struct tm tm;
	guint i;

	row_badge(r, t);
	if (!localtime_r(&ts->newest, &tm) ||
	    !strftime(date, sizeof(date), wide ? "%Y-%m-%d" : "%m-%d", &tm))
		strcpy(date, "?");
	x += dc_draw_text(s, y, x, end - x, date, DC_ROLE_DATE) + 1;
	if (r->has_case) {
		char st[4];

		snprintf(buf, sizeof(buf), "%s %s", kind_short(r->kind),
			 state_short(r->state ? r->state : "", st));
		dc_draw_text(s, y, x, wide ? 7 : 3, buf, kind_role(r->kind));
	}
	x += (wide ? 7 : 3) + 1;
	if (a.w >= 56) {
		snprintf(buf, sizeof(buf), "%d/%d", ts->matched, ts->total);
		dc_draw_text(s, y, x, count_w, buf, DC_ROLE_NORMAL);
		x += count_w + 1;
	}
	if (a.w >= 48) {
		int aw = a.w >= 100 ? 24 : a.w >= 64 ? 16 : 10;

		char *au = g_strconcat(ts->authors ? ts->authors : "",
				       ts->partial ? "…" : "", NULL);

		dc_draw_text(s, y, x, aw, au, DC_ROLE_AUTHOR);
		g_free(au);
		x += aw + 1;
	}
	for (i = 0; i < ts->tags->len; i++)
		g_string_append_printf(tags, "%s%s", i ? " " : "(",
				       (char *)ts->tags->pdata[i]);
	if (ts->partial)
		g_string_append(tags, tags->len ? " …" : "(…");
	if (tags->len)
		g_string_append_c(tags, ')');
	if (x < end) {
		int used = dc_draw_text(s, y, x, end - x, ts->subject,
					DC_ROLE_SUBJECT);

		x += used + 1;
		if (tags->len && a.w >= 64 && x < end)
			dc_draw_text(s, y, x, end - x, tags->str,
				     DC_ROLE_TAGS);
	}
	if (selected)
		dc_draw_select(s, y, a.x, a.w);
	g_string_free(tags, TRUE);
}

/* The count column is as wide as the widest "matched/total" on the
 * screen (5 at least, as "12/40"): a count is never cut. */
static int
count_width(struct list *l, int h)
{
	char buf[32];
	int i, w = 5;

	for (i = 0; i < h && l->top + i < (int)l->rows->len; i++) {
		const struct row *r = l->rows->pdata[l->top + i];
		int n = snprintf(buf, sizeof(buf), "%d/%d", r->ts.matched,
				 r->ts.total);

		w = MAX(w, n);
	}
	return w;
}

static void
list_draw(dc_view_t *v, dc_tui_t *t, dc_rect_t a)
{
	struct list *l = v->priv;
	int i, count_w;

	if (l->restart) {
		/* notmuch was reopened: read again as far as the screen
		 * needs, keeping the cursor's place. */
		list_start(l, t);
		list_fill(l, t, l->cursor + 1);
	}
	list_fill(l, t, l->top + a.h + 1);
	dc_tui_show_cursor(&l->cursor, &l->top, l->rows->len, a.h);
	list_fill(l, t, l->top + a.h + 1);
	if (l->error) {
		dc_draw_text(t->scr, a.y, a.x, a.w, l->error, DC_ROLE_ERROR);
		return;
	}
	if (!l->rows->len) {
		dc_draw_text(t->scr, a.y, a.x, a.w,
			     "No thread matches; / opens another query.",
			     DC_ROLE_NORMAL);
		return;
	}
	count_w = count_width(l, a.h);
	for (i = 0; i < a.h && l->top + i < (int)l->rows->len; i++)
		draw_row(t, l->rows->pdata[l->top + i], a.y + i, a, count_w,
			 l->top + i == l->cursor);
}

/* n / N: the next thread without a case, reading on as needed. */
static void
next_untracked(struct list *l, dc_tui_t *t, int dir)
{
	int i;

	for (i = l->cursor + dir; i >= 0; i += dir) {
		struct row *r;

		list_fill(l, t, i + 1);
		if (i >= (int)l->rows->len)
			break;
		r = l->rows->pdata[i];
		row_badge(r, t);
		if (!r->has_case) {
			l->cursor = i;
			return;
		}
	}
	dc_tui_message(t, "No %s thread without a case",
		       dir > 0 ? "later" : "earlier");
}

static int
list_request(dc_view_t *v, dc_tui_t *t, dc_action_t a, const char *arg)
{
	struct list *l = v->priv;
	int page = v->page > 1 ? v->page : 1;

	switch (a) {
	case ACT_MOVE_DOWN:
	case ACT_PAGE_DOWN:
		list_fill(l, t, l->cursor + page + 2);
		break;
	case ACT_LAST:
		list_fill(l, t, G_MAXINT);
		break;
	case ACT_NEXT:
		next_untracked(l, t, 1);
		return 1;
	case ACT_PREVIOUS:
		next_untracked(l, t, -1);
		return 1;
	case ACT_ENTER:
		if (l->cursor < (int)l->rows->len) {
			struct row *r = l->rows->pdata[l->cursor];

			/* At the first message the query matched. */
			dc_tui_push(t, dc_view_thread_new_at(t, r->ts.thread_id,
							     l->query));
		}
		return 1;
	case ACT_REFRESH:
		if (arg && !strcmp(arg, "drop")) {
			list_reset(l);
			l->restart = 1;
			return 1;
		}
		return 0;
	default:
		break;
	}
	return dc_tui_move_view(v, a, &l->cursor, &l->top, l->rows->len);
}

static int
list_current(dc_view_t *v, dc_tui_t *t, dc_thread_ref_t *ref)
{
	struct list *l = v->priv;
	struct row *r;

	if (l->cursor >= (int)l->rows->len)
		return 0;
	r = l->rows->pdata[l->cursor];
	ref->thread_id = r->ts.thread_id;
	ref->subject = r->ts.subject;
	ref->oldest = r->ts.oldest;
	return 1;
}

static void
list_title(dc_view_t *v, dc_tui_t *t, GString *out)
{
	struct list *l = v->priv;

	g_string_append_printf(out, "Threads matching %s", l->query);
}

const char *
dc_view_list_get_query(dc_view_t *v)
{
	return ((struct list *)v->priv)->query;
}

static void
list_position(dc_view_t *v, GString *out)
{
	struct list *l = v->priv;

	if (!l->rows->len)
		g_string_append(out, l->at_end ? "0/0" : "");
	else
		g_string_append_printf(out, "%d/%u%s", l->cursor + 1,
				       l->rows->len, l->at_end ? "" : "+");
}

static void
list_done(dc_view_t *v)
{
	struct list *l = v->priv;

	list_reset(l);
	g_ptr_array_unref(l->rows);
	g_free(l->query);
	g_free(l);
}

static const dc_action_t list_actions[] = {
	DC_MOVE_ACTIONS, ACT_NEXT, ACT_PREVIOUS, ACT_ENTER, ACT_REFRESH,
	ACT_NONE,
};

static const dc_view_ops_t list_ops = {
	.name = "list",
	.title = list_title,
	.draw = list_draw,
	.request = list_request,
	.current = list_current,
	.position = list_position,
	.done = list_done,
	.actions = list_actions,
};

int
dc_view_is_list(const dc_view_t *v)
{
	return v && v->ops == &list_ops;
}

/* id:X or mid:X alone (one term, maybe quoted). */
static int
names_one_message(const char *q)
{
	size_t n;

	while (*q == ' ')
		q++;
	if (!strncmp(q, "id:", 3))
		q += 3;
	else if (!strncmp(q, "mid:", 4))
		q += 4;
	else
		return 0;
	if (*q == '"') {
		const char *end = strrchr(q + 1, '"');

		return end && end > q + 1 && !end[1 + strspn(end + 1, " ")];
	}
	n = strcspn(q, " ");
	return n > 0 && !q[n + strspn(q + n, " ")];
}

dc_view_t *
dc_view_list_new(dc_tui_t *t, const char *query)
{
	struct list *l = g_new0(struct list, 1);

	l->rows = g_ptr_array_new_with_free_func(row_free);
	l->query = g_strdup(query);
	list_start(l, t);
	return dc_view_new(&list_ops, l);
}

/* The list v was just pushed for query. */
void
dc_view_list_searched(dc_view_t *v, dc_tui_t *t)
{
	struct list *l = v->priv;

	/* A search for one message (id:MSGID) is a request to read it: its
	 * thread opens at it, and q comes back to this list. */
	if (names_one_message(l->query)) {
		list_fill(l, t, 2);
		if (l->rows->len == 1)
			list_request(v, t, ACT_ENTER, NULL);
	}
}
