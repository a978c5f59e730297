// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The case panel, beside or under the list and the thread: the case of the
 * current thread with its kind, state, outcome, the people involved, the
 * timeline of events with their notes, and how many messages came after
 * the case was opened.
 */
#include <string.h>

#include "core/case.h"
#include "core/event.h"
#include "tui/draw.h"
#include "tui/tui.h"

struct panel {
	char *thread_id; /* what the cache below is about */
	unsigned gen;
	dc_case_t *c;
	GPtrArray *events; /* dc_store_event_t * */
	int messages, since;
	char *error;
};

static void
panel_clear(struct panel *p)
{
	g_clear_pointer(&p->thread_id, g_free);
	g_clear_pointer(&p->error, g_free);
	dc_case_free(p->c);
	p->c = NULL;
	if (p->events)
		g_ptr_array_unref(p->events);
	p->events = NULL;
	p->messages = p->since = 0;
}

static void
panel_load(struct panel *p, dc_tui_t *t, const char *thread_id)
{
	dc_error_t err = { 0 };
	dc_thread_t *th = NULL;
	guint i;

	if (p->thread_id && !strcmp(p->thread_id, thread_id) &&
	    p->gen == t->generation)
		return;
	panel_clear(p);
	p->thread_id = g_strdup(thread_id);
	p->gen = t->generation;
	if (!t->store)
		return;
	if (dc_case_for_thread(t->store, thread_id, &p->c, &err) != DC_OK) {
		p->error = g_strdup(err.msg);
		return;
	}
	if (!p->c)
		return;
	if (dc_store_event_list(t->store, p->c->id, &p->events, &err) !=
	    DC_OK)
		p->error = g_strdup(err.msg);
	if (dc_mail_thread(t->mail, thread_id, 0, &th, NULL) == DC_OK) {
		p->messages = th->messages->len;
		for (i = 0; i < th->messages->len; i++) {
			const dc_message_t *m = th->messages->pdata[i];

			p->since += m->date > p->c->created_at;
		}
		dc_thread_free(th);
	}
}

static dc_role_t
kind_role(dc_kind_t k)
{
	return k == DC_KIND_ADMONITION ? DC_ROLE_ADMONITION :
	       k == DC_KIND_ESCALATION ? DC_ROLE_ESCALATION :
					 DC_ROLE_TAB;
}

static char *
when(int64_t t)
{
	GDateTime *d = g_date_time_new_from_unix_local(t);
	char *s = d ? g_date_time_format(d, "%Y-%m-%d %H:%M") : g_strdup("?");

	if (d)
		g_date_time_unref(d);
	return s;
}

/* The newest "outcome" any event recorded, if the workflow sets one. */
static char *
outcome(struct panel *p)
{
	char *o = NULL;
	guint i;

	for (i = 0; p->events && i < p->events->len; i++) {
		char *s = dc_event_data_string(p->events->pdata[i], "outcome");

		if (s) {
			g_free(o);
			o = s;
		}
	}
	return o;
}

static char *
people(struct panel *p)
{
	GString *s = g_string_new(NULL);
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	guint i;

	for (i = 0; p->events && i < p->events->len; i++) {
		const dc_store_event_t *ev = p->events->pdata[i];

		if (!ev->actor || g_hash_table_contains(seen, ev->actor))
			continue;
		g_hash_table_add(seen, ev->actor);
		g_string_append_printf(s, "%s%s", s->len ? ", " : "",
				       ev->actor);
	}
	g_hash_table_destroy(seen);
	return g_string_free(s, FALSE);
}

static char *
event_line(const dc_store_event_t *ev)
{
	char *at = when(ev->at), *kind = dc_event_data_string(ev, "kind");
	char *note = dc_event_data_string(ev, "note");
	char *s = g_strdup_printf("%s %s%s%s (%s)%s%s", at, ev->type,
				  kind ? " " : "", kind ? kind : "",
				  ev->actor ? ev->actor : "?",
				  note ? ": " : "", note ? note : "");

	g_free(at);
	g_free(kind);
	g_free(note);
	return s;
}

static void
panel_draw(dc_view_t *v, dc_tui_t *t, dc_rect_t r)
{
	struct panel *p = v->priv;
	dc_view_t *top = t->views->pdata[t->views->len - 1];
	dc_screen_t *s = t->scr;
	dc_thread_ref_t ref;
	int x = r.x, w = r.w, y = r.y, end = r.y + r.h, i, first;
	char *o, *who, *at;

	if (!top->ops->current || !top->ops->current(top, t, &ref))
		return;
	panel_load(p, t, ref.thread_id);
	if (r.x > 0) {
		for (i = 0; i < r.h; i++)
			dc_draw_text(s, r.y + i, r.x, 1, "│", DC_ROLE_GROUP);
		x += 2;
		w -= 2;
	}
	dc_draw_fill(s, y, x, w, DC_ROLE_STATUS);
	if (!p->c) {
		char *keys[3] = { dc_keymap_keys(ACT_ADMONITION),
				  dc_keymap_keys(ACT_ESCALATION),
				  dc_keymap_keys(ACT_TAB) };

		dc_draw_text(s, y++, x, w, "No case for this thread",
			     DC_ROLE_STATUS);
		if (p->error)
			dc_draw_text(s, y, x, w, p->error, DC_ROLE_ERROR);
		else
			dc_draw_printf(s, y, x, w, DC_ROLE_NORMAL,
				       "%s admonition  %s escalation  %s TAB "
				       "consultation",
				       keys[0], keys[1], keys[2]);
		for (i = 0; i < 3; i++)
			g_free(keys[i]);
		return;
	}
	x += dc_draw_printf(s, y, x, w, DC_ROLE_STATUS, "Case #%" G_GINT64_FORMAT
			    " ", (gint64)p->c->id);
	w = r.x + r.w - x;
	x += dc_draw_text(s, y, x, w, dc_kind_label(p->c->kind),
			  kind_role(p->c->kind));
	w = r.x + r.w - x;
	dc_draw_printf(s, y++, x, w, DC_ROLE_STATUS, "  state: %s",
		       p->c->state);
	x = r.x + (r.x > 0 ? 2 : 0);
	w = r.x + r.w - x;
	o = outcome(p);
	at = when(p->c->created_at);
	if (y < end)
		dc_draw_printf(s, y++, x, w, DC_ROLE_NORMAL,
			       "Outcome: %s   Opened: %s", o ? o : "none yet",
			       at);
	g_free(o);
	g_free(at);
	who = people(p);
	if (y < end)
		dc_draw_printf(s, y++, x, w, DC_ROLE_NORMAL, "People: %s",
			       who);
	g_free(who);
	if (y < end)
		dc_draw_printf(s, y++, x, w,
			       p->since ? DC_ROLE_PENDING : DC_ROLE_NORMAL,
			       "New since opened: %d of %d messages", p->since,
			       p->messages);
	if (p->error && y < end)
		dc_draw_text(s, y++, x, w, p->error, DC_ROLE_ERROR);
	/* The timeline, newest last; the oldest give way when space is
	 * short. */
	if (!p->events || y >= end)
		return;
	first = (int)p->events->len - (end - y);
	if (first < 0)
		first = 0;
	for (i = first; i < (int)p->events->len && y < end; i++) {
		char *line = event_line(p->events->pdata[i]);

		dc_draw_text(s, y++, x, w, line, DC_ROLE_NORMAL);
		g_free(line);
	}
}

int
dc_view_case_lines(dc_view_t *v, dc_tui_t *t, const char *thread_id)
{
	struct panel *p = v->priv;

	panel_load(p, t, thread_id);
	if (!p->c)
		return 2;
	return 5 + (p->error ? 1 : 0) + (p->events ? (int)p->events->len : 0);
}

static int
panel_request(dc_view_t *v, dc_tui_t *t, dc_action_t a, const char *arg)
{
	return 0;
}

static void
panel_title(dc_view_t *v, dc_tui_t *t, GString *out)
{
	g_string_append(out, "Case");
}

static void
panel_done(dc_view_t *v)
{
	struct panel *p = v->priv;

	panel_clear(p);
	g_free(p);
}

static const dc_view_ops_t case_ops = {
	.name = "case",
	.title = panel_title,
	.draw = panel_draw,
	.request = panel_request,
	.done = panel_done,
};

dc_view_t *
dc_view_case_new(dc_tui_t *t)
{
	dc_view_t *v = g_new0(dc_view_t, 1);

	v->ops = &case_ops;
	v->priv = g_new0(struct panel, 1);
	return v;
}
