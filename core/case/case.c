// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The case model.  A case's kind, state, participants, outcomes and votes
 * are derived by replaying its events (dc_case_replay); the cases table
 * keeps kind and state only as a cache, rewritten in the transaction of
 * every event, and "decorum verify" checks that the cache agrees with the
 * replay.  Undo appends a reversing event: the replay skips the event it
 * names, so the history keeps both.
 */
#include <string.h>

#include "core/base/choice.h"
#include "core/case/access.h"
#include "core/case/case.h"
#include "core/case/event.h"
#include "core/mail/mirror.h"
#include "core/case/outcome.h"
#include "core/case/vote.h"

static const char *const kind_names[DC_KIND_COUNT] = {
	[DC_KIND_ADMONITION] = "admonition",
	[DC_KIND_ESCALATION] = "escalation",
	[DC_KIND_TAB] = "tab",
};
static const char *const kind_labels[DC_KIND_COUNT] = {
	[DC_KIND_ADMONITION] = "Admonition",
	[DC_KIND_ESCALATION] = "Escalation",
	[DC_KIND_TAB] = "TAB consultation",
};

const char *
dc_kind_name(dc_kind_t k)
{
	return k < DC_KIND_COUNT ? kind_names[k] : "unknown";
}

const char *
dc_kind_label(dc_kind_t k)
{
	return k < DC_KIND_COUNT ? kind_labels[k] : "Unknown";
}

dc_status_t
dc_kind_parse(const char *s, dc_kind_t *out, dc_error_t *err)
{
	int k;
	dc_status_t st = dc_choice_parse(kind_names, DC_KIND_COUNT,
					 "case kind", s, &k, err);

	if (st == DC_OK)
		*out = k;
	return st;
}

/* ---- states ----------------------------------------------------------- */

static const char *const states[] = {
	"new", "acknowledged", "investigating", "decided", "closed", NULL,
};
/* What `case state` takes: a state, or reopen (to investigating). */
static const char *const states_or_reopen[] = {
	"new", "acknowledged", "investigating", "decided", "closed", "reopen",
	NULL,
};

/* Allowed transitions, from -> to (", " separated, in order). */
static const struct {
	const char *from;
	const char *to;
} transitions[] = {
	{ "new", "acknowledged, investigating, closed" },
	{ "acknowledged", "investigating, closed" },
	{ "investigating", "decided, closed" },
	{ "decided", "closed, investigating" },
	{ "closed", "investigating" }, /* reopen */
	{ "withdrawn", "" },
};

const char *const *
dc_case_states(void)
{
	return states;
}

const char *
dc_case_next_states(const char *from)
{
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(transitions); i++)
		if (from && !strcmp(transitions[i].from, from))
			return transitions[i].to;
	return "";
}

static int
transition_allowed(const char *from, const char *to)
{
	char **next = g_strsplit(dc_case_next_states(from), ", ", -1);
	int ok = g_strv_contains((const char *const *)next, to);

	g_strfreev(next);
	return ok;
}


/* ---- replay ----------------------------------------------------------- */

static void
note_free(gpointer p)
{
	dc_note_t *n = p;

	g_free(n->actor);
	g_free(n->text);
	g_free(n);
}

static void
participant_free(gpointer p)
{
	dc_participant_t *x = p;

	g_free(x->role);
	g_free(x->address);
	g_free(x->name);
	g_free(x);
}

static void
alias_free(gpointer p)
{
	dc_alias_t *a = p;

	g_free(a->address);
	g_free(a->text);
	g_free(a);
}

static void
conflict_free(gpointer p)
{
	dc_conflict_t *x = p;

	g_free(x->address);
	g_free(x->note);
	g_free(x);
}

static void
history_free(gpointer p)
{
	dc_history_t *h = p;

	g_free(h->actor);
	g_free(h->type);
	g_free(h->summary);
	g_free(h);
}

static void
outcome_free_cb(gpointer p)
{
	dc_outcome_free(p);
}

static void
vote_free_cb(gpointer p)
{
	dc_vote_t *v = p;

	g_free(v->member);
	g_free(v);
}

static void
clash_free(gpointer p)
{
	dc_clash_t *x = p;

	g_free(x->actor);
	g_free(x->from);
	g_free(x->to);
	g_free(x->found);
	g_free(x);
}

/* Free what a replay derives (dc_case_replay), leaving c without it. */
static void
derived_free(dc_case_t *c)
{
	g_clear_pointer(&c->notes, g_ptr_array_unref);
	g_clear_pointer(&c->participants, g_ptr_array_unref);
	g_clear_pointer(&c->conflicts, g_ptr_array_unref);
	g_clear_pointer(&c->aliases, g_ptr_array_unref);
	g_clear_pointer(&c->outcomes, g_ptr_array_unref);
	g_clear_pointer(&c->votes, g_ptr_array_unref);
	g_clear_pointer(&c->history, g_ptr_array_unref);
	g_clear_pointer(&c->clashes, g_ptr_array_unref);
	g_clear_pointer(&c->opened_by, g_free);
	g_clear_pointer(&c->category, g_free);
}

static void
derived_reset(dc_case_t *c)
{
	derived_free(c);
	c->notes = g_ptr_array_new_with_free_func(note_free);
	c->participants = g_ptr_array_new_with_free_func(participant_free);
	c->conflicts = g_ptr_array_new_with_free_func(conflict_free);
	c->aliases = g_ptr_array_new_with_free_func(alias_free);
	c->outcomes = g_ptr_array_new_with_free_func(outcome_free_cb);
	c->votes = g_ptr_array_new_with_free_func(vote_free_cb);
	c->history = g_ptr_array_new_with_free_func(history_free);
	c->clashes = g_ptr_array_new_with_free_func(clash_free);
	c->withdrawn = 0;
	c->converted = 0;
}

static void
set_kind(dc_case_t *c, GVariant *v)
{
	char *k = dc_payload_str(v, "kind");

	if (k)
		dc_kind_parse(k, &c->kind, NULL);
	g_free(k);
}

static void
apply_participant(dc_case_t *c, GVariant *v)
{
	char *role = dc_payload_str(v, "role"), *addr = dc_payload_str(v, "address");
	dc_participant_t *p;
	guint i;

	for (i = 0; role && addr && i < c->participants->len; i++) {
		p = c->participants->pdata[i];
		if (!strcmp(p->role, role) &&
		    !g_ascii_strcasecmp(p->address, addr)) {
			g_ptr_array_remove_index(c->participants, i);
			break;
		}
	}
	if (role && addr && !dc_payload_bool(v, "remove")) {
		p = g_new0(dc_participant_t, 1);
		p->role = role;
		p->address = addr;
		p->name = dc_payload_str(v, "name");
		g_ptr_array_add(c->participants, p);
		return;
	}
	g_free(role);
	g_free(addr);
}

static void
apply_alias(dc_case_t *c, GVariant *v)
{
	char *addr = dc_payload_str(v, "address"), *text = dc_payload_str(v, "text");
	dc_alias_t *a;
	guint i;

	for (i = 0; addr && text && i < c->aliases->len; i++) {
		a = c->aliases->pdata[i];
		if (!g_ascii_strcasecmp(a->address, addr) &&
		    !strcmp(a->text, text)) {
			g_ptr_array_remove_index(c->aliases, i);
			break;
		}
	}
	if (addr && text && !dc_payload_bool(v, "remove")) {
		a = g_new0(dc_alias_t, 1);
		a->address = addr;
		a->text = text;
		g_ptr_array_add(c->aliases, a);
		return;
	}
	g_free(addr);
	g_free(text);
}

static void
apply_conflict(dc_case_t *c, GVariant *v, int recused)
{
	dc_conflict_t *x = g_new0(dc_conflict_t, 1);

	x->address = dc_payload_str(v, "address");
	x->note = dc_payload_str(v, "note");
	x->recused = recused;
	if (!x->address) {
		conflict_free(x);
		return;
	}
	g_ptr_array_add(c->conflicts, x);
}

static void
apply_vote(dc_case_t *c, const dc_store_event_t *ev, GVariant *v)
{
	char *member = dc_payload_str(v, "member"), *choice = dc_payload_str(v, "vote");
	char *question = dc_payload_str(v, "question");
	dc_question_t q = DC_QUESTION_LEGACY;
	dc_vote_choice_t ch;
	dc_vote_t *vote;
	guint i;

	/* A vote before questions were named is legacy (read as overturn). */
	if (question && dc_question_parse(question, &q, NULL) != DC_OK)
		q = DC_QUESTION_LEGACY;
	g_free(question);

	if (!member || !choice ||
	    dc_vote_choice_parse(choice, &ch, NULL) != DC_OK) {
		g_free(member);
		g_free(choice);
		return;
	}
	g_free(choice);
	for (i = 0; i < c->votes->len; i++) {
		vote = c->votes->pdata[i];
		if (!g_ascii_strcasecmp(vote->member, member) &&
		    (vote->question == DC_QUESTION_APPROVE) ==
			    (q == DC_QUESTION_APPROVE)) {
			g_ptr_array_remove_index(c->votes, i);
			break;
		}
	}
	vote = g_new0(dc_vote_t, 1);
	vote->member = member;
	vote->choice = ch;
	vote->question = q;
	vote->at = ev->at;
	g_ptr_array_add(c->votes, vote);
}

/* Fill o from an outcome payload; 0 when it names no known outcome. */
static int
outcome_fill(dc_outcome_t *o, GVariant *v)
{
	char *k = dc_payload_str(v, "outcome");
	dc_outcome_kind_t kind;

	if (!k || dc_outcome_parse(k, &kind, NULL) != DC_OK) {
		g_free(k);
		return 0;
	}
	g_free(k);
	o->kind = kind;
	o->public_ = dc_payload_bool(v, "public");
	g_free(o->what);
	o->what = dc_payload_str(v, "what");
	g_free(o->scope);
	o->scope = dc_payload_str(v, "scope");
	o->from = dc_payload_int(v, "from");
	o->until = dc_payload_int(v, "until");
	g_free(o->until_release);
	o->until_release = dc_payload_str(v, "until_release");
	g_free(o->note);
	o->note = dc_payload_str(v, "note");
	return 1;
}

static void
apply_outcome(dc_case_t *c, const dc_store_event_t *ev, GVariant *v)
{
	dc_outcome_t *o = g_new0(dc_outcome_t, 1);

	if (!outcome_fill(o, v)) {
		dc_outcome_free(o);
		return;
	}
	o->event_id = ev->id;
	o->at = ev->at;
	o->actor = g_strdup(ev->actor);
	g_ptr_array_add(c->outcomes, o);
}

/* An edit changes the outcome it names in place (undone: skipped). */
static void
apply_outcome_edit(dc_case_t *c, const dc_store_event_t *ev, GVariant *v)
{
	int64_t id = dc_payload_int(v, "edits");
	GVariant *nv = v ? g_variant_lookup_value(v, "new",
						   G_VARIANT_TYPE("a{sv}"))
			 : NULL;
	guint i;

	for (i = 0; nv && i < c->outcomes->len; i++) {
		dc_outcome_t *o = c->outcomes->pdata[i];

		if (o->event_id == id && outcome_fill(o, nv))
			o->edited_at = ev->at;
	}
	if (nv)
		g_variant_unref(nv);
}

/* The keys whose values differ between two a{sv}, ", " separated. */
static char *
changed_keys(GVariant *a, GVariant *b)
{
	GString *r = g_string_new(NULL);
	GVariant *pair[2] = { a, b };
	GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, NULL);
	GVariantIter it;
	char *key;
	int i;

	for (i = 0; i < 2; i++) {
		if (!pair[i])
			continue;
		g_variant_iter_init(&it, pair[i]);
		while (g_variant_iter_next(&it, "{sv}", &key, NULL)) {
			GVariant *x = a ? g_variant_lookup_value(a, key, NULL)
					: NULL;
			GVariant *y = b ? g_variant_lookup_value(b, key, NULL)
					: NULL;
			int same = x && y && g_variant_equal(x, y);

			if (!same && !g_hash_table_contains(seen, key)) {
				g_string_append_printf(r, "%s%s",
						       r->len ? ", " : "",
						       key);
				g_hash_table_add(seen, g_strdup(key));
			}
			if (x)
				g_variant_unref(x);
			if (y)
				g_variant_unref(y);
			g_free(key);
		}
	}
	g_hash_table_destroy(seen);
	return g_string_free(r, FALSE);
}

/* One line about an event, for the history. */
static char *
summarize(const dc_store_event_t *ev, GVariant *v)
{
	const char *t = ev->type;
	char *a = NULL, *b = NULL, *r;

	if (!v)
		return g_strdup("(payload erased)");
	if (!strcmp(t, "open") || !strcmp(t, "tag")) {
		a = dc_payload_str(v, "kind");
		b = dc_payload_str(v, "report");
		if (b) {
			r = g_strdup_printf("%s %s <%s>",
					    !strcmp(t, "open") ? "opened as"
							       : "tagged",
					    a ? a : "?", b);
		} else {
			/* Before Message-IDs: the thread id of then. */
			b = dc_payload_str(v, "thread");
			r = g_strdup_printf("%s %s%s%s",
					    !strcmp(t, "open") ? "opened as"
							       : "tagged",
					    a ? a : "?", b ? " thread:" : "",
					    b ? b : "");
		}
	} else if (!strcmp(t, "anchor")) {
		GVariant *ids = g_variant_lookup_value(
		    v, "messages", G_VARIANT_TYPE("as"));

		b = dc_payload_str(v, "thread");
		r = g_strdup_printf("anchored to %zu message%s by Message-ID "
				    "(thread:%s as it was)",
				    ids ? g_variant_n_children(ids) : 0,
				    ids && g_variant_n_children(ids) == 1 ?
					    "" : "s",
				    b ? b : "?");
		if (ids)
			g_variant_unref(ids);
	} else if (!strcmp(t, "attach") || !strcmp(t, "detach")) {
		GVariant *ids = g_variant_lookup_value(
		    v, "messages", G_VARIANT_TYPE("as"));
		size_t n = ids ? g_variant_n_children(ids) : 0;

		char *role = dc_payload_str(v, "role");
		const char *as = g_strcmp0(role, "report") ?
					 "" :
					 " as another report";

		a = dc_payload_str(v, "scope");
		b = dc_payload_str(v, "message");
		if (!g_strcmp0(a, "message"))
			r = g_strdup_printf("%sed message <%s>%s", t,
					    b ? b : "?", as);
		else
			r = g_strdup_printf("%sed the thread of <%s> (%zu "
					    "message%s)%s",
					    t, b ? b : "?", n,
					    n == 1 ? "" : "s", as);
		g_free(role);
		if (ids)
			g_variant_unref(ids);
	} else if (!strcmp(t, "convert")) {
		a = dc_payload_str(v, "from_kind");
		b = dc_payload_str(v, "kind");
		r = g_strdup_printf("converted %s into a report: %s",
				    a ? a : "?", b ? b : "?");
	} else if (!strcmp(t, "state")) {
		a = dc_payload_str(v, "from");
		b = dc_payload_str(v, "to");
		r = g_strdup_printf("%s -> %s", a ? a : "?", b ? b : "?");
	} else if (!strcmp(t, "participant")) {
		a = dc_payload_str(v, "role");
		b = dc_payload_str(v, "address");
		r = g_strdup_printf("%s %s %s",
				    dc_payload_bool(v, "remove") ? "removed" : "added",
				    a ? a : "?", b ? b : "?");
	} else if (!strcmp(t, "alias")) {
		/* Whose form it is; the form itself stays out of every
		 * history, timeline and export. */
		a = dc_payload_str(v, "address");
		r = g_strdup_printf("%s a form of the name of %s",
				    dc_payload_bool(v, "remove") ? "removed"
							   : "added",
				    a ? a : "?");
	} else if (!strcmp(t, "conflict") || !strcmp(t, "recuse")) {
		a = dc_payload_str(v, "address");
		r = g_strdup_printf("%s %s", a ? a : "?",
				    !strcmp(t, "recuse") ? "recused"
							 : "declared a conflict");
	} else if (!strcmp(t, "vote")) {
		char *q = dc_payload_str(v, "question");

		a = dc_payload_str(v, "member");
		b = dc_payload_str(v, "vote");
		r = g_strdup_printf("%s voted %s %s%s", a ? a : "?",
				    b ? b : "?", q ? "on " : "",
				    q ? q : "(no question named: read as a "
					    "vote to overturn)");
		g_free(q);
	} else if (!strcmp(t, "outcome")) {
		a = dc_payload_str(v, "outcome");
		r = g_strdup_printf("outcome: %s", a ? a : "?");
	} else if (!strcmp(t, "outcome-edit")) {
		GVariant *ov = g_variant_lookup_value(v, "old",
						      G_VARIANT_TYPE("a{sv}"));
		GVariant *nv = g_variant_lookup_value(v, "new",
						      G_VARIANT_TYPE("a{sv}"));

		char *changed = changed_keys(ov, nv);

		a = ov ? dc_payload_str(ov, "outcome") : NULL;
		b = nv ? dc_payload_str(nv, "outcome") : NULL;
		if (g_strcmp0(a, b))
			r = g_strdup_printf("edited the outcome of event %"
					    G_GINT64_FORMAT ": %s -> %s",
					    (gint64)dc_payload_int(v, "edits"),
					    a ? a : "?", b ? b : "?");
		else
			r = g_strdup_printf("edited the outcome of event %"
					    G_GINT64_FORMAT " (%s): %s",
					    (gint64)dc_payload_int(v, "edits"),
					    b ? b : "?",
					    *changed ? changed : "unchanged");
		g_free(changed);
		if (ov)
			g_variant_unref(ov);
		if (nv)
			g_variant_unref(nv);
	} else if (!strcmp(t, "reply")) {
		/* Which mail, never what it said. */
		a = dc_payload_str(v, "in_reply_to");
		b = dc_payload_str(v, "message");
		if (a)
			r = g_strdup_printf("replied to <%s> as <%s>", a,
					    b ? b : "?");
		else
			r = g_strdup_printf("sent <%s>", b ? b : "?");
	} else if (!strcmp(t, "resolve")) {
		r = g_strdup("resolved the sync conflicts before this");
	} else if (!strcmp(t, "category")) {
		a = dc_payload_str(v, "category");
		r = g_strdup_printf("category: %s", a ? a : "?");
	} else if (!strcmp(t, "undo")) {
		a = dc_payload_str(v, "type");
		r = g_strdup_printf("undid event %" G_GINT64_FORMAT " (%s)",
				    (gint64)dc_payload_int(v, "undoes"),
				    a ? a : "?");
	} else if (!strcmp(t, "erasure")) {
		r = g_strdup_printf("erased the personal data of %"
				    G_GINT64_FORMAT " events",
				    (gint64)dc_payload_int(v, "count"));
	} else {
		r = g_strdup(t);
	}
	g_free(a);
	g_free(b);
	if (!ev->data) {
		char *e = g_strconcat(r, " (personal data erased)", NULL);

		g_free(r);
		r = e;
	}
	return r;
}

/*
 * An erasure (core/privacy/erase.h) sets events' data to NULL after recording
 * what the replay needs of each (kind, state, undoes, outcome, ...) in
 * an "erasure" event: id -> a{sv}.  Those records stand in for the
 * erased payloads, so that kind, state and outcome do not change.
 */
static void
collect_kept(GHashTable *kept, const dc_store_event_t *ev)
{
	GVariant *v, *evs;
	GVariantIter it;
	GVariant *rec;
	gint64 id;

	if (strcmp(ev->type, "erasure") || !(v = dc_event_data(ev)))
		return;
	evs = g_variant_lookup_value(v, "events", G_VARIANT_TYPE("a{xa{sv}}"));
	if (evs) {
		g_variant_iter_init(&it, evs);
		while (g_variant_iter_next(&it, "{x@a{sv}}", &id, &rec)) {
			gint64 *key = g_new(gint64, 1);

			*key = id;
			g_hash_table_replace(kept, key, rec);
		}
		g_variant_unref(evs);
	}
	g_variant_unref(v);
}

/* The payload, or what an erasure kept of it. */
static GVariant *
replay_data(const dc_store_event_t *ev, GHashTable *kept)
{
	GVariant *v = dc_event_data(ev);
	gint64 id = ev->id;

	if (!v && !ev->data && (v = g_hash_table_lookup(kept, &id)))
		g_variant_ref(v);
	return v;
}

static void
add_note(dc_case_t *c, const dc_store_event_t *ev, GVariant *v)
{
	char *text = dc_payload_str(v, "note");
	dc_note_t *n;

	if (!text)
		return;
	n = g_new0(dc_note_t, 1);
	n->at = ev->at;
	n->actor = g_strdup(ev->actor);
	n->text = text;
	g_ptr_array_add(c->notes, n);
}

/*
 * A state change from a shared log (ev->lamport) was checked against the
 * state its author saw, not against the merged order: 1 when the merged
 * order has the case elsewhere than where its author moved it from, or
 * the move is no longer allowed, recorded as a clash and not applied.
 * The same move made twice is no clash.
 */
static int
clashes(dc_case_t *c, const dc_store_event_t *ev, GVariant *v,
	const char *to)
{
	char *from = dc_payload_str(v, "from");
	int follows = !from || !strcmp(from, c->state);
	dc_clash_t *x;

	g_free(from);
	if (!ev->lamport || !strcmp(to, c->state) ||
	    (follows && transition_allowed(c->state, to)))
		return 0;
	x = g_new0(dc_clash_t, 1);
	x->event_id = ev->id;
	x->at = ev->at;
	x->actor = g_strdup(ev->actor);
	x->from = dc_payload_str(v, "from");
	x->to = g_strdup(to);
	x->found = g_strdup(c->state);
	g_ptr_array_add(c->clashes, x);
	return 1;
}

static void
resolve_clashes(dc_case_t *c)
{
	guint i;

	for (i = 0; i < c->clashes->len; i++)
		((dc_clash_t *)c->clashes->pdata[i])->resolved = 1;
}

static void
apply_event(dc_case_t *c, const dc_store_event_t *ev, GVariant *v)
{
	const char *t = ev->type;
	char *to;

	if (!strcmp(t, "open")) {
		set_kind(c, v);
		g_free(c->state);
		c->state = g_strdup("new");
		c->opened_by = g_strdup(ev->actor);
	} else if (!strcmp(t, "tag")) {
		set_kind(c, v);
	} else if (!strcmp(t, "convert")) {
		set_kind(c, v);
		c->converted = c->kind != DC_KIND_TAB;
	} else if (!strcmp(t, "state")) {
		to = dc_payload_str(v, "to");
		if (to && clashes(c, ev, v, to)) {
			g_free(to);
		} else if (to) {
			g_free(c->state);
			c->state = to;
		}
	} else if (!strcmp(t, "resolve")) {
		resolve_clashes(c);
	} else if (!strcmp(t, "participant")) {
		apply_participant(c, v);
	} else if (!strcmp(t, "alias")) {
		apply_alias(c, v);
	} else if (!strcmp(t, "conflict") || !strcmp(t, "recuse")) {
		apply_conflict(c, v, !strcmp(t, "recuse"));
	} else if (!strcmp(t, "vote")) {
		apply_vote(c, ev, v);
	} else if (!strcmp(t, "outcome")) {
		apply_outcome(c, ev, v);
	} else if (!strcmp(t, "outcome-edit")) {
		apply_outcome_edit(c, ev, v);
	} else if (!strcmp(t, "category")) {
		to = dc_payload_str(v, "category");
		if (to) {
			g_free(c->category);
			c->category = to;
		}
	}
	add_note(c, ev, v);
}

void
dc_case_replay(dc_case_t *c, GPtrArray *evs)
{
	GHashTable *undone =
	    g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
	GHashTable *kept = g_hash_table_new_full(
		g_int64_hash, g_int64_equal, g_free,
		(GDestroyNotify)g_variant_unref);
	guint i;

	derived_reset(c);
	g_free(c->state);
	c->state = g_strdup("new");
	for (i = 0; i < evs->len; i++)
		collect_kept(kept, evs->pdata[i]);
	/* First the undo events, so the replay knows what to skip. */
	for (i = 0; i < evs->len; i++) {
		dc_store_event_t *ev = evs->pdata[i];
		gint64 *key;
		GVariant *v;

		if (strcmp(ev->type, "undo") || !(v = replay_data(ev, kept)))
			continue;
		key = g_new(gint64, 1);
		*key = dc_payload_int(v, "undoes");
		g_hash_table_insert(undone, key, ev);
		g_variant_unref(v);
	}
	for (i = 0; i < evs->len; i++) {
		const dc_store_event_t *ev = evs->pdata[i];
		const dc_store_event_t *by;
		GVariant *v = replay_data(ev, kept);
		gint64 id = ev->id;
		dc_history_t *h = g_new0(dc_history_t, 1);

		by = g_hash_table_lookup(undone, &id);
		h->id = ev->id;
		h->at = ev->at;
		h->actor = g_strdup(ev->actor);
		h->type = g_strdup(ev->type);
		h->summary = summarize(ev, v);
		h->undone_by = by ? by->id : 0;
		g_ptr_array_add(c->history, h);
		c->updated_at = MAX(c->updated_at, ev->at);
		if (by && !strcmp(ev->type, "open")) {
			c->withdrawn = 1;
			if (!c->opened_by)
				c->opened_by = g_strdup(ev->actor);
			set_kind(c, v);
		} else if (!by && strcmp(ev->type, "undo")) {
			apply_event(c, ev, v);
		}
		if (v)
			g_variant_unref(v);
	}
	if (c->withdrawn) {
		g_free(c->state);
		c->state = g_strdup("withdrawn");
	}
	g_hash_table_destroy(undone);
	g_hash_table_destroy(kept);
}

/* ---- loading ---------------------------------------------------------- */

void
dc_case_free(dc_case_t *c)
{
	if (!c)
		return;
	derived_free(c);
	g_free(c->state);
	g_free(c->subject);
	if (c->threads)
		g_ptr_array_unref(c->threads);
	if (c->mail)
		g_ptr_array_unref(c->mail);
	g_free(c);
}

static void
case_free_cb(gpointer p)
{
	dc_case_free(p);
}

dc_case_t *
dc_case_from_store(const dc_store_case_t *sc)
{
	dc_case_t *c = g_new0(dc_case_t, 1);

	c->id = sc->id;
	if (dc_kind_parse(sc->kind, &c->kind, NULL) != DC_OK)
		c->kind = DC_KIND_ESCALATION;
	c->created_at = sc->created_at;
	c->updated_at = sc->updated_at;
	c->reported_at = sc->reported_at;
	c->subject = g_strdup(sc->subject);
	c->threads = g_ptr_array_ref(sc->threads);
	c->mail = g_ptr_array_ref(sc->mail);
	return c;
}

static dc_status_t
case_from_store(dc_store_t *s, dc_store_case_t *sc, dc_case_t **out,
		dc_error_t *err)
{
	dc_case_t *c = dc_case_from_store(sc);
	GPtrArray *evs = NULL;
	dc_status_t st;

	st = dc_store_event_list(s, c->id, &evs, err);
	if (st != DC_OK) {
		dc_case_free(c);
		return st;
	}
	dc_case_replay(c, evs);
	g_ptr_array_unref(evs);
	*out = c;
	return DC_OK;
}

/* A case without the access check: for core's own bookkeeping. */
static dc_status_t
load_case(dc_store_t *s, int64_t id, dc_case_t **out, dc_error_t *err)
{
	dc_store_case_t *sc = NULL;
	dc_status_t st;

	*out = NULL;
	st = dc_store_case_get(s, id, &sc, err);
	if (st != DC_OK)
		return st;
	st = case_from_store(s, sc, out, err);
	dc_store_case_free(sc);
	return st;
}

/* Not found, exactly as for a case that does not exist. */
static dc_status_t
hidden(int64_t id, dc_error_t *err)
{
	return dc_fail(err, DC_E_NOT_FOUND, "no case #%" G_GINT64_FORMAT,
		       (gint64)id);
}

static dc_status_t
visible(dc_store_t *s, const dc_case_t *c, dc_error_t *err)
{
	dc_access_t *a = NULL;
	dc_status_t st = dc_access_load(s, &a, err);
	int ok;

	if (st != DC_OK)
		return st;
	ok = dc_access_allows(a, c);
	dc_access_free(a);
	return ok ? DC_OK : hidden(c->id, err);
}

dc_status_t
dc_case_get(dc_store_t *s, int64_t id, dc_case_t **out, dc_error_t *err)
{
	dc_status_t st = load_case(s, id, out, err);

	if (st == DC_OK && (st = visible(s, *out, err)) != DC_OK) {
		dc_case_free(*out);
		*out = NULL;
	}
	return st;
}

static dc_status_t
list_cases(dc_store_t *s, int withdrawn, GPtrArray **out, dc_error_t *err)
{
	GPtrArray *scs = NULL, *r;
	dc_access_t *a = NULL;
	dc_status_t st;
	guint i;

	*out = NULL;
	st = dc_access_load(s, &a, err);
	if (st == DC_OK)
		st = dc_store_case_list(s, &scs, err);
	if (st != DC_OK) {
		dc_access_free(a);
		return st;
	}
	r = g_ptr_array_new_with_free_func(case_free_cb);
	for (i = 0; i < scs->len && st == DC_OK; i++) {
		dc_case_t *c = NULL;

		st = case_from_store(s, scs->pdata[i], &c, err);
		if (st != DC_OK)
			break;
		if ((c->withdrawn && !withdrawn) || !dc_access_allows(a, c))
			dc_case_free(c);
		else
			g_ptr_array_add(r, c);
	}
	g_ptr_array_unref(scs);
	dc_access_free(a);
	if (st != DC_OK) {
		g_ptr_array_unref(r);
		return st;
	}
	*out = r;
	return DC_OK;
}

dc_status_t
dc_case_list(dc_store_t *s, GPtrArray **out, dc_error_t *err)
{
	return list_cases(s, 0, out, err);
}

dc_status_t
dc_case_list_all(dc_store_t *s, GPtrArray **out, dc_error_t *err)
{
	return list_cases(s, 1, out, err);
}

dc_status_t
dc_case_for_thread(dc_store_t *s, const char *thread_id, dc_case_t **out,
		   dc_error_t *err)
{
	dc_status_t st;
	int64_t id;

	*out = NULL;
	st = dc_store_case_find_open(s, thread_id, &id, err);
	if (st == DC_OK)
		st = dc_case_get(s, id, out, err);
	if (st == DC_E_NOT_FOUND) {
		dc_error_clear(err);
		/* A closed case never vanishes from its thread. */
		return dc_case_closed_for_thread(s, thread_id, out, err);
	}
	return st;
}

dc_status_t
dc_case_count_reports(dc_store_t *s, int64_t from, int64_t to, int *count,
		      dc_error_t *err)
{
	GPtrArray *cases = NULL;
	dc_status_t st;
	guint i;

	*count = 0;
	st = dc_case_list(s, &cases, err);
	if (st != DC_OK)
		return st;
	for (i = 0; i < cases->len; i++) {
		const dc_case_t *c = cases->pdata[i];

		if (c->kind == DC_KIND_TAB || c->withdrawn)
			continue;
		if (c->reported_at < from || (to && c->reported_at >= to))
			continue;
		(*count)++;
	}
	g_ptr_array_unref(cases);
	return DC_OK;
}

/* ---- recording -------------------------------------------------------- */

/* Inside a transaction: the cache and the notmuch outbox follow the
 * events. */
dc_status_t
dc_case_refresh(dc_store_t *s, int64_t id, int64_t now, dc_error_t *err)
{
	dc_case_t *c = NULL;
	dc_status_t st = load_case(s, id, &c, err);

	if (st == DC_OK)
		st = dc_store_case_update(s, id, dc_kind_name(c->kind),
					  c->state, now, err);
	if (st == DC_OK)
		st = dc_mirror_queue_case(s, id, now, err);
	dc_case_free(c);
	return st;
}

static dc_status_t
append(dc_store_t *s, int64_t id, const char *type, GVariant *data,
       const char *actor, int64_t now, dc_error_t *err)
{
	dc_status_t st = dc_event_append(s, id, now, actor, type, data, NULL,
					 err);

	if (st == DC_OK)
		st = dc_case_refresh(s, id, now, err);
	return st;
}

/* Begin a transaction and load a case the viewer may see. */
static dc_status_t
begin_case(dc_store_t *s, int64_t id, dc_case_t **c, dc_error_t *err)
{
	dc_status_t st = dc_store_begin(s, err);

	*c = NULL;
	if (st != DC_OK)
		return st;
	st = dc_case_get(s, id, c, err);
	if (st != DC_OK)
		dc_store_rollback(s);
	return st;
}

/* Commit when st is DC_OK, else roll back; frees c. */
static dc_status_t
end_case(dc_store_t *s, dc_status_t st, dc_case_t *c, dc_error_t *err)
{
	if (st == DC_OK)
		st = dc_store_commit(s, err);
	if (st != DC_OK)
		dc_store_rollback(s);
	dc_case_free(c);
	return st;
}

static dc_status_t
refuse_withdrawn(const dc_case_t *c, dc_error_t *err)
{
	if (!c->withdrawn)
		return DC_OK;
	return dc_fail(err, DC_E_INVALID,
		       "case %" G_GINT64_FORMAT " was withdrawn (its opening "
		       "was undone); tag the thread again for a new case",
		       (gint64)c->id);
}

dc_status_t
dc_case_record(dc_store_t *s, int64_t case_id, const char *type,
	       GVariant *data, const char *actor, int64_t now,
	       dc_error_t *err)
{
	dc_case_t *c = NULL;
	dc_status_t st;

	if (data)
		g_variant_ref_sink(data);
	st = begin_case(s, case_id, &c, err);
	if (st == DC_OK) {
		st = refuse_withdrawn(c, err);
		if (st == DC_OK)
			st = append(s, case_id, type, data, actor, now, err);
		st = end_case(s, st, c, err);
	}
	if (data)
		g_variant_unref(data);
	return st;
}

static GVariant *
payload(const char *key, ...) G_GNUC_NULL_TERMINATED;

/* An a{sv} of string members: key, value, ..., NULL; NULL values are
 * left out. */
static GVariant *
payload(const char *key, ...)
{
	GVariantBuilder b;
	va_list ap;

	g_variant_builder_init(&b, G_VARIANT_TYPE("a{sv}"));
	va_start(ap, key);
	while (key) {
		const char *v = va_arg(ap, const char *);

		if (v && *v)
			g_variant_builder_add(&b, "{sv}", key,
					      g_variant_new_string(v));
		key = va_arg(ap, const char *);
	}
	va_end(ap);
	return g_variant_builder_end(&b);
}

/* ---- tagging ---------------------------------------------------------- */

static GVariant *
tag_payload(const dc_tag_request_t *req, const char *from_kind)
{
	GVariantBuilder b;
	int i;

	g_variant_builder_init(&b, G_VARIANT_TYPE("a{sv}"));
	g_variant_builder_add(&b, "{sv}", "kind",
			      g_variant_new_string(dc_kind_name(req->kind)));
	if (req->message_ids && req->message_ids[0])
		g_variant_builder_add(&b, "{sv}", "report",
				      g_variant_new_string(req->message_ids[0]));
	if (from_kind && strcmp(from_kind, dc_kind_name(req->kind)))
		g_variant_builder_add(&b, "{sv}", "from_kind",
				      g_variant_new_string(from_kind));
	if (req->note && *req->note)
		g_variant_builder_add(&b, "{sv}", "note",
				      g_variant_new_string(req->note));
	if (!from_kind && req->message_ids) {
		GVariantBuilder ids;

		g_variant_builder_init(&ids, G_VARIANT_TYPE("as"));
		for (i = 0; req->message_ids[i]; i++)
			g_variant_builder_add(&ids, "s", req->message_ids[i]);
		g_variant_builder_add(&b, "{sv}", "messages",
				      g_variant_builder_end(&ids));
	}
	return g_variant_builder_end(&b);
}

/* Inside the transaction: tag an existing case. */
static dc_status_t
tag_existing(dc_store_t *s, const dc_tag_request_t *req, int64_t id,
	     dc_error_t *err)
{
	dc_case_t *c = NULL;
	const char *type = "tag";
	dc_status_t st;

	st = load_case(s, id, &c, err);
	if (st != DC_OK)
		return st;
	if (visible(s, c, NULL) != DC_OK) {
		dc_case_free(c);
		return dc_fail(err, DC_E_DENIED,
			       "thread %s belongs to a case you may not "
			       "change",
			       req->thread_id);
	}
	/* The maintainer's explicit decision: a report from now on. */
	if (c->kind == DC_KIND_TAB && req->kind != DC_KIND_TAB)
		type = "convert";
	st = append(s, id, type, tag_payload(req, dc_kind_name(c->kind)),
		    req->actor, req->now, err);
	dc_case_free(c);
	return st;
}

/* Inside the transaction: the case covers every message of the thread
 * by Message-ID; the thread id is only their cache. */
static dc_status_t
add_thread_mail(dc_store_t *s, int64_t id, const dc_tag_request_t *req,
		dc_error_t *err)
{
	dc_status_t st = DC_OK;
	int i;

	for (i = 0; st == DC_OK && req->message_ids[i]; i++) {
		dc_store_mail_t m = {
			.case_id = id,
			.message_id = (char *)req->message_ids[i],
			.scope = "thread",
			.role = i == 0 ? "report" : NULL,
			.added_at = req->now,
			.thread_id = (char *)req->thread_id,
		};

		st = dc_store_case_add_mail(s, &m, err);
	}
	return st;
}

static dc_status_t
tag_new(dc_store_t *s, const dc_tag_request_t *req, int64_t *id,
	dc_error_t *err)
{
	dc_status_t st;

	st = dc_store_case_insert(s, dc_kind_name(req->kind), "new", req->now,
				  req->reported_at, req->subject, id, err);
	if (st == DC_OK)
		st = add_thread_mail(s, *id, req, err);
	if (st == DC_OK)
		st = append(s, *id, "open", tag_payload(req, NULL), req->actor,
			    req->now, err);
	return st;
}

dc_status_t
dc_case_tag(dc_store_t *s, const dc_tag_request_t *req, int64_t *case_id,
	    int *created, dc_error_t *err)
{
	dc_status_t st;
	int64_t id = 0;

	*created = 0;
	if (!req->message_ids || !req->message_ids[0])
		return dc_fail(err, DC_E_USAGE,
			       "a case covers mail: no Message-ID given");
	st = dc_store_begin(s, err);
	if (st != DC_OK)
		return st;
	st = dc_store_case_find_open(s, req->thread_id, &id, err);
	if (st == DC_OK) {
		st = tag_existing(s, req, id, err);
	} else if (st == DC_E_NOT_FOUND) {
		dc_error_clear(err);
		st = tag_new(s, req, &id, err);
		*created = st == DC_OK;
	}
	if (st == DC_OK)
		st = dc_store_commit(s, err);
	if (st != DC_OK) {
		dc_store_rollback(s);
		*created = 0;
		return st;
	}
	*case_id = id;
	return DC_OK;
}

/* ---- the workflow ----------------------------------------------------- */

dc_status_t
dc_case_set_state(dc_store_t *s, int64_t case_id, const char *to,
		  const char *note, const char *actor, int64_t now,
		  dc_error_t *err)
{
	dc_case_t *c = NULL;
	dc_status_t st;
	const char *next;
	int i;

	if (to && !strcmp(to, "reopen"))
		to = "investigating";
	st = dc_choice_parse(states_or_reopen, -1, "state", to, &i, err);
	if (st != DC_OK)
		return st;
	st = begin_case(s, case_id, &c, err);
	if (st != DC_OK)
		return st;
	st = refuse_withdrawn(c, err);
	if (st == DC_OK && !transition_allowed(c->state, to)) {
		next = dc_case_next_states(c->state);
		st = dc_fail(err, DC_E_INVALID,
			     "case %" G_GINT64_FORMAT " is %s; it can go to "
			     "%s, not to %s",
			     (gint64)case_id, c->state,
			     *next ? next : "no other state", to);
	}
	if (st == DC_OK)
		st = append(s, case_id, "state",
			    payload("from", c->state, "to", to, "note", note,
				    NULL),
			    actor, now, err);
	return end_case(s, st, c, err);
}

dc_status_t
dc_case_resolve(dc_store_t *s, int64_t case_id, const char *note,
		const char *actor, int64_t now, dc_error_t *err)
{
	dc_case_t *c = NULL;
	dc_status_t st = begin_case(s, case_id, &c, err);
	guint i, open = 0;

	if (st != DC_OK)
		return st;
	for (i = 0; i < c->clashes->len; i++)
		open += !((dc_clash_t *)c->clashes->pdata[i])->resolved;
	if (!open)
		st = dc_fail(err, DC_E_INVALID,
			     "case %" G_GINT64_FORMAT " has no sync conflict "
			     "to resolve",
			     (gint64)case_id);
	else
		st = append(s, case_id, "resolve",
			    payload("note", note, NULL), actor, now, err);
	return end_case(s, st, c, err);
}

dc_status_t
dc_case_note(dc_store_t *s, int64_t case_id, const char *note,
	     const char *actor, int64_t now, dc_error_t *err)
{
	if (!note || !*note)
		return dc_fail(err, DC_E_USAGE, "an empty note says nothing");
	return dc_case_record(s, case_id, "note", payload("note", note, NULL),
			      actor, now, err);
}

dc_status_t
dc_case_convert(dc_store_t *s, int64_t case_id, dc_kind_t to,
		const char *note, const char *actor, int64_t now,
		dc_error_t *err)
{
	dc_case_t *c = NULL;
	dc_status_t st;

	if (to == DC_KIND_TAB)
		return dc_fail(err, DC_E_USAGE,
			       "convert into an admonition or an escalation");
	st = begin_case(s, case_id, &c, err);
	if (st != DC_OK)
		return st;
	st = refuse_withdrawn(c, err);
	if (st == DC_OK && c->kind != DC_KIND_TAB)
		st = dc_fail(err, DC_E_INVALID,
			     "case %" G_GINT64_FORMAT " is an %s, not a TAB "
			     "consultation",
			     (gint64)case_id, dc_kind_name(c->kind));
	if (st == DC_OK)
		st = append(s, case_id, "convert",
			    payload("from_kind", "tab", "kind",
				    dc_kind_name(to), "note", note, NULL),
			    actor, now, err);
	return end_case(s, st, c, err);
}

static const char *const roles[] = {
	"reporter", "respondent", "witness", "handler", NULL,
};

const char *const *
dc_participant_roles(void)
{
	return roles;
}

dc_status_t
dc_participant_role_check(const char *role, dc_error_t *err)
{
	int i;

	return dc_choice_parse(roles, -1, "role", role, &i, err);
}

/*
 * The role address holds on c, to remove: role as given when address
 * holds it, else (role NULL) the one role address holds.
 */
static dc_status_t
held_role(const dc_case_t *c, const char *address, const char *role,
	  const char **out, dc_error_t *err)
{
	const char *found = NULL;
	int n = 0;
	guint i;

	for (i = 0; i < c->participants->len; i++) {
		const dc_participant_t *p = c->participants->pdata[i];

		if (g_ascii_strcasecmp(p->address, address) ||
		    (role && strcmp(p->role, role)))
			continue;
		found = p->role;
		n++;
	}
	*out = found;
	if (n == 1)
		return DC_OK;
	if (n)
		return dc_fail(err, DC_E_USAGE,
			       "%s is %d of the people of case %"
			       G_GINT64_FORMAT ": name the role to remove",
			       address, n, (gint64)c->id);
	return dc_fail(err, DC_E_NOT_FOUND,
		       "%s is not %s%s of case %" G_GINT64_FORMAT, address,
		       role ? "the " : "one of the people",
		       role ? role : "", (gint64)c->id);
}

dc_status_t
dc_case_participant(dc_store_t *s, int64_t case_id, const char *role,
		    const char *address, const char *name, int remove,
		    const char *actor, int64_t now, dc_error_t *err)
{
	GVariantBuilder b;
	dc_case_t *c = NULL;
	dc_status_t st = DC_OK;

	if (role || !remove)
		st = dc_participant_role_check(role, err);
	if (st != DC_OK)
		return st;
	if (!address || !*address || !strchr(address, '@'))
		return dc_fail(err, DC_E_USAGE, "'%s' is not a mail address",
			       address ? address : "");
	st = begin_case(s, case_id, &c, err);
	if (st != DC_OK)
		return st;
	st = refuse_withdrawn(c, err);
	/* A removal names someone the case has: no event says nothing. */
	if (st == DC_OK && remove)
		st = held_role(c, address, role, &role, err);
	if (st == DC_OK) {
		g_variant_builder_init(&b, G_VARIANT_TYPE("a{sv}"));
		g_variant_builder_add(&b, "{sv}", "role",
				      g_variant_new_string(role));
		g_variant_builder_add(&b, "{sv}", "address",
				      g_variant_new_string(address));
		if (name && *name && !remove)
			g_variant_builder_add(&b, "{sv}", "name",
					      g_variant_new_string(name));
		if (remove)
			g_variant_builder_add(&b, "{sv}", "remove",
					      g_variant_new_boolean(TRUE));
		st = append(s, case_id, "participant",
			    g_variant_builder_end(&b), actor, now, err);
	}
	return end_case(s, st, c, err);
}

/*
 * The address person names on c: an address as it is, or a role
 * ("reporter", ...) held by exactly one participant.
 */
static dc_status_t
person_address(const dc_case_t *c, const char *person, const char **out,
	       dc_error_t *err)
{
	const char *found = NULL;
	int n = 0;
	guint i;

	*out = NULL;
	if (person && strchr(person, '@')) {
		*out = person;
		return DC_OK;
	}
	if (dc_participant_role_check(person, err) != DC_OK)
		return dc_fail(err, DC_E_USAGE,
			       "'%s' is neither a mail address nor a role "
			       "(reporter, respondent, witness or handler)",
			       person ? person : "");
	for (i = 0; i < c->participants->len; i++) {
		const dc_participant_t *p = c->participants->pdata[i];

		if (!strcmp(p->role, person)) {
			found = p->address;
			n++;
		}
	}
	if (n == 1) {
		*out = found;
		return DC_OK;
	}
	return dc_fail(err, DC_E_USAGE,
		       n ? "case %" G_GINT64_FORMAT " has %d people as %s: "
			   "name one by address"
			 : "case %" G_GINT64_FORMAT " has %d people as %s: "
			   "add one first (case participant)",
		       (gint64)c->id, n, person);
}

dc_status_t
dc_case_alias(dc_store_t *s, int64_t case_id, const char *person,
	      const char *text, int remove, const char *actor, int64_t now,
	      dc_error_t *err)
{
	int blank = 1, bad = !text || !g_utf8_validate(text, -1, NULL);
	const char *p, *address;
	GVariantBuilder b;
	dc_case_t *c = NULL;
	dc_status_t st;

	for (p = text; !bad && *p; p = g_utf8_next_char(p)) {
		gunichar ch = g_utf8_get_char(p);

		bad = ch < 0x20 || (ch >= 0x7f && ch <= 0x9f);
		blank = blank && ch == ' ';
	}
	if (bad || blank)
		return dc_fail(err, DC_E_USAGE,
			       "a form of a name is one line of text");
	st = begin_case(s, case_id, &c, err);
	if (st != DC_OK)
		return st;
	st = refuse_withdrawn(c, err);
	if (st == DC_OK)
		st = person_address(c, person, &address, err);
	if (st == DC_OK) {
		g_variant_builder_init(&b, G_VARIANT_TYPE("a{sv}"));
		g_variant_builder_add(&b, "{sv}", "address",
				      g_variant_new_string(address));
		g_variant_builder_add(&b, "{sv}", "text",
				      g_variant_new_string(text));
		if (remove)
			g_variant_builder_add(&b, "{sv}", "remove",
					      g_variant_new_boolean(TRUE));
		st = append(s, case_id, "alias",
			    g_variant_builder_end(&b),
			    actor, now, err);
	}
	return end_case(s, st, c, err);
}

dc_status_t
dc_case_conflict(dc_store_t *s, int64_t case_id, const char *address,
		 const char *note, int recuse, const char *actor, int64_t now,
		 dc_error_t *err)
{
	if (!address || !*address || !strchr(address, '@'))
		return dc_fail(err, DC_E_USAGE, "'%s' is not a mail address",
			       address ? address : "");
	return dc_case_record(s, case_id, recuse ? "recuse" : "conflict",
			      payload("address", address, "note", note, NULL),
			      actor, now, err);
}

/* ---- the mail of a case ---------------------------------------------- */

static const dc_store_mail_t *
mail_of(const dc_case_t *c, const char *message_id)
{
	guint i;

	for (i = 0; c->mail && i < c->mail->len; i++) {
		const dc_store_mail_t *m = c->mail->pdata[i];

		if (!strcmp(m->message_id, message_id))
			return m;
	}
	return NULL;
}

static int
covers_thread(const dc_case_t *c, const char *thread_id)
{
	guint i;

	for (i = 0; thread_id && c->threads && i < c->threads->len; i++)
		if (!strcmp(c->threads->pdata[i], thread_id))
			return 1;
	return 0;
}

/* What an attach or a detach records: the anchor, its scope, the
 * thread it was in then, and every Message-ID that joined or left. */
static GVariant *
mail_payload(const char *anchor, const char *scope, const char *thread_id,
	     const char *role, GPtrArray *ids)
{
	GVariantBuilder b, l;
	guint i;

	g_variant_builder_init(&b, G_VARIANT_TYPE("a{sv}"));
	g_variant_builder_add(&b, "{sv}", "message",
			      g_variant_new_string(anchor));
	g_variant_builder_add(&b, "{sv}", "scope",
			      g_variant_new_string(scope));
	if (thread_id)
		g_variant_builder_add(&b, "{sv}", "thread",
				      g_variant_new_string(thread_id));
	if (role)
		g_variant_builder_add(&b, "{sv}", "role",
				      g_variant_new_string(role));
	g_variant_builder_init(&l, G_VARIANT_TYPE("as"));
	for (i = 0; i < ids->len; i++)
		g_variant_builder_add(&l, "s", (char *)ids->pdata[i]);
	g_variant_builder_add(&b, "{sv}", "messages",
			      g_variant_builder_end(&l));
	return g_variant_builder_end(&b);
}

/* Inside the transaction: ids join the case. */
static dc_status_t
mail_add(dc_store_t *s, int64_t id, const char *scope, const char *thread_id,
	 const char *anchor_role, const char *const *ids, guint n, int64_t now,
	 dc_error_t *err)
{
	dc_status_t st = DC_OK;
	guint i;

	for (i = 0; st == DC_OK && i < n; i++) {
		dc_store_mail_t m = {
			.case_id = id,
			.message_id = (char *)ids[i],
			.scope = (char *)scope,
			.added_at = now,
			.thread_id = (char *)thread_id,
			.role = i == 0 ? (char *)anchor_role : NULL,
		};

		st = dc_store_case_add_mail(s, &m, err);
	}
	return st;
}

/* Inside the transaction: ids leave the case, and their tags follow. */
static dc_status_t
mail_remove(dc_store_t *s, int64_t id, const char *const *ids, guint n,
	    int64_t now, dc_error_t *err)
{
	dc_status_t st = DC_OK;
	guint i;

	for (i = 0; st == DC_OK && i < n; i++) {
		st = dc_store_case_remove_mail(s, id, ids[i], err);
		if (st == DC_OK)
			st = dc_store_outbox_add(s, id, ids[i], now, err);
	}
	return st;
}

dc_status_t
dc_case_attach(dc_store_t *s, int64_t case_id, const char *scope,
	       const char *const *message_ids, const char *thread_id,
	       const char *role, const char *actor, int64_t now,
	       dc_error_t *err)
{
	GPtrArray *added;
	dc_case_t *c = NULL;
	dc_status_t st;
	int i;

	if (g_strcmp0(scope, "thread") && g_strcmp0(scope, "message"))
		return dc_fail(err, DC_E_USAGE,
			       "attach a thread or a message, not '%s'",
			       scope ? scope : "");
	if (role && strcmp(role, "report"))
		return dc_fail(err, DC_E_USAGE,
			       "attached mail is a report or nothing, not '%s'",
			       role);
	if (!message_ids || !message_ids[0] || !*message_ids[0])
		return dc_fail(err, DC_E_USAGE,
			       "attach what? no Message-ID given");
	st = begin_case(s, case_id, &c, err);
	if (st != DC_OK)
		return st;
	st = refuse_withdrawn(c, err);
	if (st == DC_OK &&
	    (mail_of(c, message_ids[0]) || covers_thread(c, thread_id)))
		st = dc_fail(err, DC_E_INVALID,
			     "case %" G_GINT64_FORMAT " already covers <%s>%s",
			     (gint64)case_id, message_ids[0],
			     covers_thread(c, thread_id) ? " and its thread"
							 : "");
	added = g_ptr_array_new();
	for (i = 0; st == DC_OK && message_ids[i]; i++)
		if (!mail_of(c, message_ids[i]))
			g_ptr_array_add(added, (char *)message_ids[i]);
	if (st == DC_OK)
		st = mail_add(s, case_id, scope, thread_id, role,
			      (const char *const *)added->pdata, added->len,
			      now, err);
	if (st == DC_OK)
		st = append(s, case_id, "attach",
			    mail_payload(message_ids[0], scope, thread_id,
					 role, added),
			    actor, now, err);
	g_ptr_array_unref(added);
	return end_case(s, st, c, err);
}

/* The rows a detach of m takes away: m alone, or for thread-scope mail
 * every thread-scope row of that thread. */
static GPtrArray *
detach_rows(const dc_case_t *c, const dc_store_mail_t *m)
{
	GPtrArray *rows = g_ptr_array_new();
	guint i;

	if (strcmp(m->scope, "thread") || !m->thread_id) {
		g_ptr_array_add(rows, (gpointer)m);
		return rows;
	}
	for (i = 0; i < c->mail->len; i++) {
		const dc_store_mail_t *x = c->mail->pdata[i];

		if (!strcmp(x->scope, "thread") &&
		    !g_strcmp0(x->thread_id, m->thread_id))
			g_ptr_array_add(rows, (gpointer)x);
	}
	return rows;
}

dc_status_t
dc_case_detach(dc_store_t *s, int64_t case_id, const char *message_id,
	       const char *actor, int64_t now, dc_error_t *err)
{
	const dc_store_mail_t *m = NULL;
	GPtrArray *rows = NULL, *ids;
	dc_case_t *c = NULL;
	dc_status_t st;
	guint i;

	if (!message_id || !*message_id)
		return dc_fail(err, DC_E_USAGE,
			       "detach what? no Message-ID given");
	st = begin_case(s, case_id, &c, err);
	if (st != DC_OK)
		return st;
	st = refuse_withdrawn(c, err);
	if (st == DC_OK && !(m = mail_of(c, message_id)))
		st = dc_fail(err, DC_E_NOT_FOUND,
			     "case %" G_GINT64_FORMAT " does not cover <%s>",
			     (gint64)case_id, message_id);
	ids = g_ptr_array_new();
	if (st == DC_OK)
		rows = detach_rows(c, m);
	for (i = 0; st == DC_OK && i < rows->len; i++) {
		const dc_store_mail_t *x = rows->pdata[i];

		/* What the case is about stays with it. */
		if (!g_strcmp0(x->role, "report"))
			st = dc_fail(err, DC_E_INVALID,
				     x == m ? "<%s> is the report of case %"
					      G_GINT64_FORMAT ": it cannot be "
					      "detached"
					    : "<%s> is in the thread of the "
					      "report of case %"
					      G_GINT64_FORMAT ": that thread "
					      "cannot be detached",
				     message_id, (gint64)case_id);
		g_ptr_array_add(ids, x->message_id);
	}
	if (st == DC_OK)
		st = mail_remove(s, case_id, (const char *const *)ids->pdata,
				 ids->len, now, err);
	if (st == DC_OK)
		st = append(s, case_id, "detach",
			    mail_payload(message_id, m->scope, m->thread_id,
					 NULL, ids),
			    actor, now, err);
	if (rows)
		g_ptr_array_unref(rows);
	g_ptr_array_unref(ids);
	return end_case(s, st, c, err);
}

/* ---- the mail of a case, after a sync --------------------------------- */

/* What the last attach, detach or undo of one in the merged order says
 * of one Message-ID. */
typedef struct mail_fate {
	int in;
	char *scope, *role;
	int64_t at;
} mail_fate_t;

static void
mail_fate_free(gpointer p)
{
	mail_fate_t *f = p;

	g_free(f->scope);
	g_free(f->role);
	g_free(f);
}

/* The Message-IDs an attach or a detach (ev's data v) names join (in) or
 * leave the case at time at. */
static void
mail_fates(GHashTable *fates, GVariant *v, int in, int keep_role,
	   int64_t at)
{
	GVariant *list = g_variant_lookup_value(v, "messages",
						G_VARIANT_TYPE("as"));
	char *anchor = dc_payload_str(v, "message");
	gsize i, n = list ? g_variant_n_children(list) : 0;

	for (i = 0; i < n; i++) {
		mail_fate_t *f = g_new0(mail_fate_t, 1);
		const char *id = NULL;

		g_variant_get_child(list, i, "&s", &id);
		f->in = in;
		f->scope = dc_payload_str(v, "scope");
		if (!f->scope)
			f->scope = g_strdup("thread");
		if (keep_role && !g_strcmp0(id, anchor))
			f->role = dc_payload_str(v, "role");
		f->at = at;
		g_hash_table_replace(fates, g_strdup(id), f);
	}
	g_free(anchor);
	if (list)
		g_variant_unref(list);
}

dc_status_t
dc_case_replay_mail(dc_store_t *s, int64_t case_id, int64_t now,
		    dc_error_t *err)
{
	GHashTable *by_id = g_hash_table_new(g_int64_hash, g_int64_equal);
	GHashTable *fates = g_hash_table_new_full(g_str_hash, g_str_equal,
						  g_free, mail_fate_free);
	GPtrArray *evs = NULL;
	dc_case_t *c = NULL;
	GHashTableIter it;
	gpointer k, p;
	dc_status_t st = dc_store_event_list(s, case_id, &evs, err);
	guint i;

	for (i = 0; st == DC_OK && i < evs->len; i++) {
		const dc_store_event_t *ev = evs->pdata[i];
		const dc_store_event_t *target = NULL;
		GVariant *v = NULL, *tv = NULL;
		gint64 undoes;

		g_hash_table_insert(by_id, (gpointer)&ev->id, (gpointer)ev);
		if (strcmp(ev->type, "attach") && strcmp(ev->type, "detach") &&
		    strcmp(ev->type, "undo"))
			continue;
		v = dc_event_data(ev);
		if (!v)
			continue;
		if (strcmp(ev->type, "undo")) {
			mail_fates(fates, v, !strcmp(ev->type, "attach"), 1,
				   ev->at);
			g_variant_unref(v);
			continue;
		}
		/* As the undo did here: an undone attach takes its mail
		 * off, an undone detach puts it back without a role. */
		undoes = dc_payload_int(v, "undoes");
		target = g_hash_table_lookup(by_id, &undoes);
		if (target && (!strcmp(target->type, "attach") ||
			       !strcmp(target->type, "detach")))
			tv = dc_event_data(target);
		if (tv) {
			mail_fates(fates, tv, !strcmp(target->type, "detach"),
				   0, ev->at);
			g_variant_unref(tv);
		}
		g_variant_unref(v);
	}
	if (st == DC_OK && g_hash_table_size(fates))
		st = load_case(s, case_id, &c, err);
	g_hash_table_iter_init(&it, fates);
	while (st == DC_OK && c && g_hash_table_iter_next(&it, &k, &p)) {
		const char *id = k;
		const mail_fate_t *f = p;
		int has = mail_of(c, id) != NULL;

		/* Its notmuch thread is this member's: the anchor cache
		 * finds it by Message-ID (core/mail/anchor.h). */
		if (f->in && !has)
			st = mail_add(s, case_id, f->scope, NULL, f->role,
				      &id, 1, f->at, err);
		else if (!f->in && has)
			st = mail_remove(s, case_id, &id, 1, now, err);
	}
	dc_case_free(c);
	g_hash_table_destroy(fates);
	g_hash_table_destroy(by_id);
	if (evs)
		g_ptr_array_unref(evs);
	return st;
}

dc_status_t
dc_case_reopen(dc_store_t *s, int64_t case_id, const char *note,
	       const char *actor, int64_t now, dc_error_t *err)
{
	dc_case_t *c = NULL;
	dc_status_t st = dc_case_get(s, case_id, &c, err);

	if (st == DC_OK && strcmp(c->state, "closed"))
		st = dc_fail(err, DC_E_INVALID,
			     "case %" G_GINT64_FORMAT " is %s, not closed",
			     (gint64)case_id, c->state);
	dc_case_free(c);
	if (st != DC_OK)
		return st;
	return dc_case_set_state(s, case_id, "reopen", note, actor, now, err);
}

dc_status_t
dc_case_closed_for_thread(dc_store_t *s, const char *thread_id,
			  dc_case_t **out, dc_error_t *err)
{
	GArray *ids = NULL;
	dc_status_t st;
	guint i;

	*out = NULL;
	st = dc_store_case_find_open(s, thread_id, NULL, err);
	if (st == DC_OK)
		return DC_OK; /* an open case takes the tag */
	if (st != DC_E_NOT_FOUND)
		return st;
	dc_error_clear(err);
	st = dc_store_thread_cases(s, thread_id, &ids, err);
	for (i = ids ? ids->len : 0; st == DC_OK && i-- > 0 && !*out;) {
		dc_case_t *c = NULL;

		if (dc_case_get(s, g_array_index(ids, int64_t, i), &c,
				NULL) != DC_OK)
			continue;
		if (!strcmp(c->state, "closed"))
			*out = c;
		else
			dc_case_free(c);
	}
	if (ids)
		g_array_unref(ids);
	return st;
}

/* Inside the undo's transaction: an attach or a detach is reversed in
 * the case's mail too, from what its event recorded. */
static dc_status_t
undo_mail(dc_store_t *s, int64_t case_id, const dc_history_t *target,
	  int64_t now, dc_error_t *err)
{
	GPtrArray *evs = NULL;
	dc_status_t st = DC_OK;
	GVariant *v = NULL, *list = NULL;
	guint i;

	if (strcmp(target->type, "attach") && strcmp(target->type, "detach"))
		return DC_OK;
	st = dc_store_event_list(s, case_id, &evs, err);
	for (i = 0; st == DC_OK && i < evs->len && !v; i++) {
		const dc_store_event_t *ev = evs->pdata[i];

		if (ev->id == target->id)
			v = dc_event_data(ev);
	}
	if (v)
		list = g_variant_lookup_value(v, "messages",
					      G_VARIANT_TYPE("as"));
	if (list) {
		gsize n = 0;
		const char **ids = g_variant_get_strv(list, &n);
		char *scope = dc_payload_str(v, "scope");
		char *thread = dc_payload_str(v, "thread");

		if (!strcmp(target->type, "attach"))
			st = mail_remove(s, case_id, ids, n, now, err);
		else
			st = mail_add(s, case_id, scope ? scope : "thread",
				      thread, NULL, ids, n, now, err);
		g_free(ids);
		g_free(scope);
		g_free(thread);
		g_variant_unref(list);
	}
	if (v)
		g_variant_unref(v);
	if (evs)
		g_ptr_array_unref(evs);
	return st;
}

/* ---- undo ------------------------------------------------------------- */

dc_status_t
dc_case_undo(dc_store_t *s, int64_t case_id, const char *actor, int64_t now,
	     dc_error_t *err)
{
	const dc_history_t *target = NULL;
	GVariantBuilder b;
	dc_case_t *c = NULL;
	dc_status_t st;
	guint i;

	st = begin_case(s, case_id, &c, err);
	if (st != DC_OK)
		return st;
	for (i = c->history->len; i-- > 0 && !target;) {
		const dc_history_t *h = c->history->pdata[i];

		/* An erasure cannot be taken back: the data is gone. */
		/* Nor can a reply: the mail is gone. */
		if (!strcmp(h->type, "undo") || !strcmp(h->type, "erasure") ||
		    !strcmp(h->type, "reply") ||
		    h->undone_by ||
		    g_strcmp0(h->actor, actor))
			continue;
		target = h;
	}
	if (!target) {
		st = dc_fail(err, DC_E_INVALID,
			     "nothing of yours is left to undo on case %"
			     G_GINT64_FORMAT,
			     (gint64)case_id);
		return end_case(s, st, c, err);
	}
	g_variant_builder_init(&b, G_VARIANT_TYPE("a{sv}"));
	g_variant_builder_add(&b, "{sv}", "undoes",
			      g_variant_new_int64(target->id));
	g_variant_builder_add(&b, "{sv}", "type",
			      g_variant_new_string(target->type));
	st = undo_mail(s, case_id, target, now, err);
	if (st == DC_OK)
		st = append(s, case_id, "undo", g_variant_builder_end(&b),
			    actor, now, err);
	else
		g_variant_unref(g_variant_ref_sink(g_variant_builder_end(&b)));
	return end_case(s, st, c, err);
}
