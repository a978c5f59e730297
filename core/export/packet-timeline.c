// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The packet's timeline: every event of the case with its values
 * ("state: new → investigating", "outcome: measure (net, until v6.16)"),
 * numbered within the case so that an undo can say which event it
 * undoes and an undone event which undo took it back.  With --final the
 * undone events and their undoing are left out: what stands.
 *
 * Notes are the handlers' words and can describe a reporter in ways no
 * scan recognises ("the maintainer's colleague at ..."): in a redacted
 * packet a note shows only that it was added.
 */
#include <string.h>

#include "core/case/event.h"
#include "core/case/outcome.h"
#include "core/case/vote.h"
#include "core/export/describe.h"
#include "core/export/packet-build.h"
#include "core/privacy/redact.h"
#include "core/base/sanitize.h"

/* A Message-ID as the packet may show it: the redaction's stand-in
 * when it names a reporter. */
static char *
msgid(dc_packet_build_t *p, const char *id)
{
	char *r, *c;

	if (!id)
		return g_strdup("?");
	r = p->o->redact ? dc_redact_msgid(id, p->reporters) : g_strdup(id);
	c = dc_sanitize_line(r);
	g_free(r);
	return c;
}

static void
outcome_values(dc_packet_build_t *p, GString *s, GVariant *v)
{
	char *kind = dc_payload_str(v, "outcome"), *what = dc_payload_str(v, "what");
	char *scope = dc_payload_str(v, "scope"), *rel = dc_payload_str(v, "until_release");
	char *until = dc_packet_day(dc_payload_int(v, "until"));
	char *from = dc_packet_day(dc_payload_int(v, "from"));
	char *k = dc_packet_clean(p, kind ? kind : "?");
	char *w = dc_packet_clean(p, what), *sc = dc_packet_clean(p, scope);
	char *r = dc_packet_clean(p, rel);
	GPtrArray *in = g_ptr_array_new_with_free_func(g_free);
	guint i;

	g_string_append_printf(s, "outcome: %s", k);
	if (sc)
		g_ptr_array_add(in, g_strdup(sc));
	if (from)
		g_ptr_array_add(in, g_strdup_printf("from %s", from));
	if (r || until)
		g_ptr_array_add(in, g_strdup_printf("until %s", r ? r : until));
	if (dc_payload_bool(v, "public"))
		g_ptr_array_add(in, g_strdup("public"));
	for (i = 0; i < in->len; i++)
		g_string_append_printf(s, "%s%s", i ? ", " : " (",
				       (char *)in->pdata[i]);
	if (in->len)
		g_string_append_c(s, ')');
	if (w)
		g_string_append_printf(s, ": %s", w);
	g_ptr_array_unref(in);
	g_free(kind);
	g_free(what);
	g_free(scope);
	g_free(rel);
	g_free(until);
	g_free(from);
	g_free(k);
	g_free(w);
	g_free(sc);
	g_free(r);
}

/* "added reporter Name <address>": redacted when asked. */
static void
participant_values(dc_packet_build_t *p, GString *s, GVariant *v)
{
	char *role = dc_payload_str(v, "role"), *addr = dc_payload_str(v, "address");
	char *name = dc_payload_str(v, "name");
	char *r = dc_packet_clean(p, role ? role : "?");
	char *a = dc_packet_clean(p, addr ? addr : "?");
	char *n = dc_packet_clean(p, name);

	g_string_append_printf(s, "participant: %s %s %s%s%s%s",
			       dc_payload_bool(v, "remove") ? "removed" : "added", r,
			       n ? n : "", n ? " <" : "", a, n ? ">" : "");
	g_free(role);
	g_free(addr);
	g_free(name);
	g_free(r);
	g_free(a);
	g_free(n);
}

/* label, then the payload's ka and kb ("?" when absent) between sep,
 * each through the packet's redaction. */
static void
two_values(dc_packet_build_t *p, GString *s, GVariant *v, const char *label,
	   const char *ka, const char *sep, const char *kb)
{
	char *a = dc_payload_str(v, ka), *b = dc_payload_str(v, kb);
	char *ca = dc_packet_clean(p, a ? a : "?");
	char *cb = dc_packet_clean(p, b ? b : "?");

	g_string_append_printf(s, "%s%s%s%s", label, ca, sep, cb);
	g_free(a);
	g_free(b);
	g_free(ca);
	g_free(cb);
}

/* The values of one event, for people. */
static void
event_values(dc_packet_build_t *p, GString *s, const dc_history_t *h,
	     GVariant *v, GHashTable *seq)
{
	const char *t = h->type;
	char *a = NULL, *b = NULL, *ca = NULL, *cb = NULL;

	if (!strcmp(t, "open") || !strcmp(t, "tag")) {
		a = dc_payload_str(v, "kind");
		b = dc_payload_str(v, "report");
		ca = dc_packet_clean(p, a ? a : "?");
		g_string_append_printf(s, "%s %s", !strcmp(t, "open") ?
				       "opened as" : "tagged", ca);
		if (b) {
			cb = msgid(p, b);
			g_string_append_printf(s, ", report <%s>", cb);
		}
	} else if (!strcmp(t, "state")) {
		two_values(p, s, v, "state: ", "from", " \u2192 ", "to");
	} else if (!strcmp(t, "convert")) {
		two_values(p, s, v, "converted: ", "from_kind", " \u2192 ",
			   "kind");
	} else if (!strcmp(t, "outcome")) {
		outcome_values(p, s, v);
	} else if (!strcmp(t, "vote")) {
		/* TAB members vote in their own name; the redaction still
		 * applies, should a reporter sit on the TAB. */
		two_values(p, s, v, "vote: ", "member", " ", "vote");
	} else if (!strcmp(t, "participant")) {
		participant_values(p, s, v);
	} else if (!strcmp(t, "alias")) {
		/* Whose form, never the form. */
		a = dc_payload_str(v, "address");
		ca = dc_packet_clean(p, a ? a : "?");
		g_string_append_printf(s, "alias: %s a form of the name of %s",
				       dc_payload_bool(v, "remove") ? "removed" : "added",
				       ca);
	} else if (!strcmp(t, "conflict") || !strcmp(t, "recuse")) {
		a = dc_payload_str(v, "address");
		ca = dc_packet_clean(p, a ? a : "?");
		g_string_append_printf(s, "%s: %s", t, ca);
	} else if (!strcmp(t, "category")) {
		a = dc_payload_str(v, "category");
		ca = dc_packet_clean(p, a ? a : "?");
		g_string_append_printf(s, "category: %s", ca);
	} else if (!strcmp(t, "note")) {
		g_string_append(s, "note added");
	} else if (!strcmp(t, "reply")) {
		/* Which mail, through the Message-ID redaction: never its
		 * text. */
		a = dc_payload_str(v, "in_reply_to");
		b = dc_payload_str(v, "message");
		ca = msgid(p, a);
		cb = msgid(p, b);
		g_string_append_printf(s, "reply: replied to <%s> as <%s>", ca,
				       cb);
	} else if (!strcmp(t, "undo")) {
		gint64 id = dc_payload_int(v, "undoes");
		guint n = GPOINTER_TO_UINT(g_hash_table_lookup(seq, &id));

		a = dc_payload_str(v, "type");
		ca = dc_packet_clean(p, a ? a : "?");
		if (n)
			g_string_append_printf(s, "undo: undoing #%u (%s)", n,
					       ca);
		else
			g_string_append_printf(s, "undo: undoing event %"
					       G_GINT64_FORMAT " (%s)", id, ca);
	} else {
		/* anchor, erasure and what comes later: the history's own
		 * line. */
		ca = dc_packet_clean(p, h->summary);
		g_string_append_printf(s, "%s: %s", t, ca ? ca : "");
	}
	g_free(a);
	g_free(b);
	g_free(ca);
	g_free(cb);
}

/* A note on any event: its text, or only that it was there. */
static void
event_note(dc_packet_build_t *p, GString *s, const dc_history_t *h,
	   GVariant *v)
{
	char *note = dc_payload_str(v, "note"), *c;

	if (!note)
		return;
	if (p->o->redact) {
		if (strcmp(h->type, "note"))
			g_string_append(s, " (with a note, left out: the "
					   "packet is redacted)");
	} else {
		c = dc_sanitize_line(note);
		g_string_append_printf(s, "%s%s", strcmp(h->type, "note") ?
				       "; note: " : ": ", c);
		g_free(c);
	}
	g_free(note);
}

int
dc_packet_shows_event(const dc_packet_build_t *p, const dc_history_t *h)
{
	return !p->o->final || (!h->undone_by && strcmp(h->type, "undo"));
}

static void
timeline_text(dc_packet_build_t *p, GString *txt, GHashTable *byid,
	      GHashTable *seq)
{
	const GPtrArray *hs = p->c->history;
	guint i;

	g_string_append_printf(txt, "Timeline of case %" G_GINT64_FORMAT
			       "%s\n\n", (gint64)p->c->id,
			       p->o->final ? " (final: undone events and "
					     "their undoing left out)" :
					     " (every event; undone ones "
					     "are marked)");
	for (i = 0; i < hs->len; i++) {
		const dc_history_t *h = hs->pdata[i];
		const dc_store_event_t *ev = g_hash_table_lookup(byid, &h->id);
		GVariant *v = ev ? dc_event_data(ev) : NULL;
		char *at = dc_packet_iso(h->at);
		char *actor = dc_packet_clean(p, h->actor);
		GString *line = g_string_new(NULL);

		if (!dc_packet_shows_event(p, h)) {
			g_free(at);
			g_free(actor);
			g_string_free(line, TRUE);
			continue;
		}
		if (v) {
			event_values(p, line, h, v, seq);
			event_note(p, line, h, v);
		} else {
			char *sum = dc_packet_clean(p, h->summary);

			g_string_append_printf(line, "%s: %s", h->type, sum);
			g_free(sum);
		}
		if (h->undone_by) {
			guint n = GPOINTER_TO_UINT(
				g_hash_table_lookup(seq, &h->undone_by));

			g_string_append_printf(line, "  [UNDONE by #%u]", n);
		}
		g_string_append_printf(txt, "#%-3u %s  %s  %s\n", i + 1, at,
				       actor ? actor : "?", line->str);
		g_string_free(line, TRUE);
		g_free(at);
		g_free(actor);
		if (v)
			g_variant_unref(v);
	}
}

static char *
redact_filter(const char *s, void *data)
{
	dc_packet_build_t *p = data;

	return dc_redact_text(s, p->reporters);
}

dc_status_t
dc_packet_add_timeline(dc_packet_build_t *p, dc_store_t *s, dc_error_t *err)
{
	GString *txt = dc_packet_add_file(p, "timeline.txt");
	GString *js = dc_packet_add_file(p, "timeline.json");
	GHashTable *byid = g_hash_table_new(g_int64_hash, g_int64_equal);
	GHashTable *seq = g_hash_table_new(g_int64_hash, g_int64_equal);
	GPtrArray *evs = NULL;
	dc_sp_t *sp;
	dc_status_t st;
	guint i;
	char *out;

	st = dc_store_event_list(s, p->c->id, &evs, err);
	if (st != DC_OK)
		goto out;
	for (i = 0; i < evs->len; i++) {
		dc_store_event_t *ev = evs->pdata[i];

		g_hash_table_insert(byid, &ev->id, ev);
	}
	for (i = 0; i < p->c->history->len; i++) {
		dc_history_t *h = p->c->history->pdata[i];

		g_hash_table_insert(seq, &h->id, GUINT_TO_POINTER(i + 1));
	}
	timeline_text(p, txt, byid, seq);
	/* The events as case show --json has them, through the redaction
	 * (its summaries hold no note). */
	sp = dc_sp_json_new(1);
	if (p->o->redact)
		dc_sp_set_filter(sp, redact_filter, p);
	dc_sp_list(sp);
	for (i = 0; i < p->c->history->len; i++)
		if (dc_packet_shows_event(p, p->c->history->pdata[i]))
			dc_describe_event(sp, p->c->history->pdata[i]);
	dc_sp_end(sp);
	out = dc_sp_finish(sp);
	g_string_append(js, out);
	g_free(out);
out:
	g_hash_table_destroy(byid);
	g_hash_table_destroy(seq);
	if (evs)
		g_ptr_array_unref(evs);
	return st;
}
