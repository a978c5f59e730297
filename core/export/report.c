// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The summary report: model (dc_report_build) and its walk through an
 * emitter (dc_report_emit).  Anonymised by construction: the model holds
 * case numbers, kinds, states, outcomes and dates, never subjects, notes
 * or names; lore links are the one way a person could show, and those the
 * caller's identity scan checks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/case/action.h"
#include "core/case/access.h"
#include "core/mail/anchor.h"
#include "core/base/clock.h"
#include "core/base/config.h"
#include "core/case/outcome.h"
#include "core/case/people.h"
#include "core/export/report.h"
#include "core/base/sanitize.h"
#include "core/case/vote.h"

#define LONG_OPEN_DAYS 30

/* ---- time and periods ------------------------------------------------- */

static int64_t
midnight_after(int64_t t)
{
	int64_t day = t / DC_DAY - (t % DC_DAY < 0);

	return (day + 1) * DC_DAY;
}

dc_status_t
dc_period_parse(const char *spec, int64_t now, dc_period_t *out,
		dc_error_t *err)
{
	const char *dots;

	if (!spec || !strcmp(spec, "week")) {
		out->to = midnight_after(now);
		out->from = out->to - 7 * DC_DAY;
		return DC_OK;
	}
	if (!strcmp(spec, "quarter")) {
		out->to = midnight_after(now);
		out->from = out->to - DC_REPORT_WEEKS * 7 * DC_DAY;
		return DC_OK;
	}
	dots = strstr(spec, "..");
	if (!dots || !dc_parse_day(spec, dots - spec, &out->from) ||
	    !dc_parse_day(dots + 2, strlen(dots + 2), &out->to))
		return dc_fail(err, DC_E_USAGE,
			       "bad period '%s' (week, quarter or "
			       "YYYY-MM-DD..YYYY-MM-DD)",
			       spec);
	out->to += DC_DAY;
	if (out->from >= out->to)
		return dc_fail(err, DC_E_USAGE,
			       "bad period '%s': it ends before it starts",
			       spec);
	return DC_OK;
}

static char *
day_string(int64_t t)
{
	GDate d;

	/* Days since 0001-01-01 (day 1); GDateTime's formatter was a
	 * tenth of a long report's time. */
	if (t < -62135596800 || t > DC_NOW_MAX)
		return g_strdup("?");
	g_date_clear(&d, 1);
	g_date_set_julian(&d, (guint32)((t + 62135596800) / DC_DAY) + 1);
	return g_strdup_printf("%04d-%02d-%02d", g_date_get_year(&d),
			       g_date_get_month(&d), g_date_get_day(&d));
}

char *
dc_period_label(const dc_period_t *p)
{
	char *a = day_string(p->from), *b = day_string(p->to - DC_DAY);
	char *s = g_strdup_printf("%s through %s", a, b);

	g_free(a);
	g_free(b);
	return s;
}

/* ---- state and outcome ------------------------------------------------ */

static int
state_is_open(const char *state)
{
	return strcmp(state, "closed") && strcmp(state, "withdrawn");
}

/* The case's strongest outcome (core/case/outcome.h), or NULL. */
static char *
case_outcome(const dc_case_t *c)
{
	const dc_outcome_t *o = dc_case_top_outcome(c);

	return o ? g_strdup(dc_outcome_name(o->kind)) : NULL;
}

/* ---- building ---------------------------------------------------------- */

static void
rcase_free(gpointer p)
{
	dc_report_case_t *rc = p;

	g_free(rc->state);
	g_free(rc->outcome);
	g_free(rc->thread_id);
	g_free(rc->lore);
	g_free(rc);
}

static void
count_free(gpointer p)
{
	dc_report_count_t *c = p;

	g_free(c->key);
	g_free(c);
}

static void
measure_free(gpointer p)
{
	dc_report_measure_t *m = p;

	g_free(m->what);
	g_free(m->scope);
	g_free(m->until_release);
	g_free(m);
}

static void
vote_free(gpointer p)
{
	dc_report_vote_t *v = p;

	g_free(v->member);
	g_free(v->name);
	g_free(v);
}

static void
incident_free(gpointer p)
{
	dc_report_incident_t *i = p;

	g_free(i->category);
	g_free(i->what);
	g_free(i->scope);
	g_free(i->until_release);
	g_free(i);
}

static void
decision_free(gpointer p)
{
	dc_report_decision_t *d = p;

	g_free(d->category);
	if (d->votes)
		g_ptr_array_unref(d->votes);
	g_free(d);
}

static void
override_free(gpointer p)
{
	dc_report_override_t *o = p;

	g_free(o->decision);
	g_ptr_array_unref(o->votes);
	g_free(o);
}

void
dc_report_free(dc_report_t *r)
{
	if (!r)
		return;
	g_ptr_array_unref(r->measures);
	g_ptr_array_unref(r->overridden);
	g_ptr_array_unref(r->by_state);
	g_ptr_array_unref(r->by_outcome);
	g_ptr_array_unref(r->cases);
	g_ptr_array_unref(r->tab_pending);
	g_ptr_array_unref(r->long_open);
	g_ptr_array_unref(r->incidents);
	g_ptr_array_unref(r->decisions);
	g_free(r);
}

static void
count_add(GPtrArray *a, const char *key)
{
	dc_report_count_t *c;
	guint i;

	for (i = 0; i < a->len; i++) {
		c = a->pdata[i];
		if (!strcmp(c->key, key)) {
			c->n++;
			return;
		}
	}
	c = g_new0(dc_report_count_t, 1);
	c->key = g_strdup(key);
	c->n = 1;
	g_ptr_array_add(a, c);
}

static gint
count_cmp(gconstpointer a, gconstpointer b)
{
	const dc_report_count_t *x = *(dc_report_count_t *const *)a;
	const dc_report_count_t *y = *(dc_report_count_t *const *)b;

	return strcmp(x->key, y->key);
}

static dc_report_case_t *
rcase_new(const dc_case_t *c)
{
	dc_report_case_t *rc = g_new0(dc_report_case_t, 1);

	rc->id = c->id;
	rc->kind = c->kind;
	rc->state = g_strdup(c->state);
	rc->outcome = case_outcome(c);
	rc->reported_at = c->reported_at;
	rc->thread_id = c->threads->len ? g_strdup(c->threads->pdata[0]) :
					  NULL;
	return rc;
}

static int
in_period(const dc_period_t *p, int64_t t)
{
	return t >= p->from && t < p->to;
}

static void
tally(dc_report_t *r, const dc_case_t *c)
{
	int is_tab = c->kind == DC_KIND_TAB;
	char *outcome;
	int w;

	if (in_period(&r->period, c->reported_at)) {
		if (is_tab)
			r->tab++;
		else
			r->received++;
		r->by_kind[c->kind]++;
		count_add(r->by_state, c->state);
		outcome = case_outcome(c);
		count_add(r->by_outcome, outcome ? outcome : "none recorded");
		g_free(outcome);
		g_ptr_array_add(r->cases, rcase_new(c));
	}
	if (in_period(&r->previous, c->reported_at)) {
		if (is_tab)
			r->prev_tab++;
		else
			r->prev_received++;
		r->prev_by_kind[c->kind]++;
	}
	if (is_tab && state_is_open(c->state))
		g_ptr_array_add(r->tab_pending, rcase_new(c));
	if (state_is_open(c->state) &&
	    r->now - c->reported_at > LONG_OPEN_DAYS * DC_DAY)
		g_ptr_array_add(r->long_open, rcase_new(c));
	for (w = 0; w < DC_REPORT_WEEKS && !is_tab; w++)
		if (c->reported_at >= r->week_start[w] &&
		    c->reported_at < r->week_start[w] + 7 * DC_DAY)
			r->weeks[w]++;
}

static void
add_measures(dc_report_t *r, const dc_case_t *c)
{
	guint i;

	for (i = 0; i < c->outcomes->len; i++) {
		const dc_outcome_t *o = c->outcomes->pdata[i];
		dc_report_measure_t *m;

		if (o->kind != DC_OUTCOME_MEASURE || o->until <= r->now ||
		    (o->from && o->from > r->now))
			continue;
		m = g_new0(dc_report_measure_t, 1);
		m->case_id = c->id;
		m->what = g_strdup(o->what);
		m->scope = g_strdup(o->scope);
		m->from = o->from;
		m->until = o->until;
		m->until_release = g_strdup(o->until_release);
		m->expiring = o->until - r->now <= LONG_OPEN_DAYS * DC_DAY;
		g_ptr_array_add(r->measures, m);
	}
}

static void
add_override(dc_report_t *r, const dc_case_t *c, int members,
	     dc_vote_rule_t rule)
{
	const dc_outcome_t *top = dc_case_top_outcome(c);
	dc_report_override_t *o;
	dc_tally_t t;
	int64_t last = 0;
	guint i;

	if (!dc_case_has_question(c, DC_QUESTION_OVERTURN))
		return;
	dc_case_tally_on(c, DC_QUESTION_OVERTURN, members, rule, &t);
	for (i = 0; i < c->votes->len; i++)
		if (((const dc_vote_t *)c->votes->pdata[i])->question !=
		    DC_QUESTION_APPROVE)
			last = MAX(last, ((const dc_vote_t *)
						  c->votes->pdata[i])->at);
	if (t.result != DC_RESULT_OVERTURNED || !in_period(&r->period, last))
		return;
	o = g_new0(dc_report_override_t, 1);
	o->case_id = c->id;
	o->decision = top ? g_strdup(dc_outcome_label(top->kind)) : NULL;
	o->decided_at = last;
	o->n_for = t.n_for;
	o->n_against = t.n_against;
	o->n_abstain = t.n_abstain;
	o->n_recused = t.n_recused;
	o->denominator = t.denominator;
	o->rule = dc_vote_rule_name(t.rule);
	o->votes = g_ptr_array_new_with_free_func(vote_free);
	for (i = 0; i < c->votes->len; i++) {
		const dc_vote_t *v = c->votes->pdata[i];
		dc_report_vote_t *rv;

		if (v->question == DC_QUESTION_APPROVE)
			continue;
		rv = g_new0(dc_report_vote_t, 1);
		rv->member = dc_sanitize_line(v->member);
		rv->choice = dc_vote_choice_name(v->choice);
		rv->at = v->at;
		g_ptr_array_add(o->votes, rv);
	}
	g_ptr_array_add(r->overridden, o);
}

static int
thread_is_public(const dc_thread_t *t)
{
	guint i;
	int pub = 0;

	for (i = 0; i < t->messages->len && !pub; i++)
		pub = dc_message_is_public(t->messages->pdata[i]);
	return pub;
}

/* The message id a lore link would show: the root's, when the thread
 * went to a public list; NULL otherwise (g_free). */
static char *
public_root(const dc_thread_t *t)
{
	const dc_message_t *root = t->messages->len ? t->messages->pdata[0] :
						      NULL;

	return root && root->message_id && thread_is_public(t) ?
		       g_strdup(root->message_id) :
		       NULL;
}

/*
 * The lore link of a case received in the period.  Called after every
 * person is known, so that a message id naming one is withheld.  roots
 * holds what the people pass already read of the case's first thread.
 */
static void
link_case(dc_mail_t *mail, GHashTable *roots, dc_report_case_t *rc,
	  int anonymise, dc_identity_set_t *people)
{
	dc_thread_t *t = NULL;
	char *id = NULL;
	gpointer known;

	if (!rc->thread_id)
		return;
	if (g_hash_table_lookup_extended(roots, &rc->id, NULL, &known)) {
		id = g_strdup(known);
	} else {
		if (dc_mail_thread(mail, rc->thread_id, 1, &t, NULL) != DC_OK)
			return;
		id = public_root(t);
		dc_thread_free(t);
	}
	if (id && anonymise && people &&
	    dc_identity_scan(people, id, strlen(id), NULL))
		rc->link_withheld = 1;
	else if (id)
		rc->lore = dc_lore_url(id);
	g_free(id);
}

/* Does the report show anything of c beyond numbers and states? */
static int
shows_case(const dc_report_t *r, const dc_case_t *c)
{
	const dc_report_case_t *last_case =
		r->cases->len ? r->cases->pdata[r->cases->len - 1] : NULL;
	const dc_report_measure_t *m =
		r->measures->len ? r->measures->pdata[r->measures->len - 1]
				 : NULL;
	const dc_report_override_t *o =
		r->overridden->len ?
			r->overridden->pdata[r->overridden->len - 1] : NULL;

	return (last_case && last_case->id == c->id) ||
	       (m && m->case_id == c->id) || (o && o->case_id == c->id);
}

/* The committee's own addresses are not sought in the report: its
 * members' votes are shown by design. */
static void
ignore_committee(dc_identity_set_t *people, GHashTable *members)
{
	GHashTableIter it;
	gpointer k;

	dc_identity_set_ignore(people, "conduct@kernel.org");
	g_hash_table_iter_init(&it, members);
	while (g_hash_table_iter_next(&it, &k, NULL))
		dc_identity_set_ignore(people, k);
}

typedef struct builder {
	dc_store_t *s;
	dc_mail_t *mail;
	dc_access_t *access;
	GHashTable *members; /* registered addresses: not participants */
	GHashTable *names;   /* lower-case address -> registered name */
	int tab_members;
	dc_vote_rule_t rule;
	dc_identity_set_t *people;
	GHashTable *roots; /* case id -> public root message id or NULL */
} builder_t;

static int
count_reports(const dc_case_t *c)
{
	int n = 0;
	guint i;

	for (i = 0; c->mail && i < c->mail->len; i++)
		n += !g_strcmp0(((dc_store_mail_t *)c->mail->pdata[i])->role,
				"report");
	return MAX(n, 1);
}

static void
add_incident(dc_report_t *r, builder_t *b, const dc_case_t *c)
{
	const dc_outcome_t *o = dc_case_top_outcome(c);
	dc_report_incident_t *i;
	dc_tally_t t;

	if (c->kind == DC_KIND_TAB || !in_period(&r->period, c->reported_at))
		return;
	i = g_new0(dc_report_incident_t, 1);
	i->case_id = c->id;
	i->kind = c->kind;
	i->category = g_strdup(c->category);
	i->reports = count_reports(c);
	i->open = strcmp(c->state, "closed") != 0;
	i->reported_at = c->reported_at;
	if (o) {
		i->has_outcome = 1;
		i->outcome = o->kind;
		i->public_ = o->public_;
		i->what = g_strdup(o->what);
		i->scope = g_strdup(o->scope);
		i->from = o->from;
		i->until = o->until;
		i->until_release = g_strdup(o->until_release);
	}
	i->approve_asked = dc_case_has_question(c, DC_QUESTION_APPROVE);
	i->overturn_asked = dc_case_has_question(c, DC_QUESTION_OVERTURN);
	dc_case_tally_on(c, DC_QUESTION_APPROVE, b->tab_members, b->rule, &t);
	i->approve = t.result;
	dc_case_tally_on(c, DC_QUESTION_OVERTURN, b->tab_members, b->rule,
			 &t);
	i->overturn = t.result;
	g_ptr_array_add(r->incidents, i);
}

static void
add_decision(dc_report_t *r, builder_t *b, const dc_case_t *c,
	     dc_question_t q)
{
	const dc_outcome_t *o = dc_case_top_outcome(c);
	dc_report_decision_t *d;
	int64_t last = 0;
	dc_tally_t t;
	guint i;

	if (!dc_case_has_question(c, q))
		return;
	dc_case_tally_on(c, q, b->tab_members, b->rule, &t);
	for (i = 0; i < c->votes->len; i++) {
		const dc_vote_t *v = c->votes->pdata[i];

		if ((v->question == DC_QUESTION_APPROVE) ==
		    (q == DC_QUESTION_APPROVE))
			last = MAX(last, v->at);
	}
	if (t.result == DC_RESULT_PENDING || !in_period(&r->period, last))
		return;
	d = g_new0(dc_report_decision_t, 1);
	d->case_id = c->id;
	d->question = q;
	d->result = t.result;
	d->category = g_strdup(c->category);
	d->has_outcome = o != NULL;
	d->outcome = o ? o->kind : DC_OUTCOME_NO_ACTION;
	d->n_for = t.n_for;
	d->n_against = t.n_against;
	d->n_abstain = t.n_abstain;
	d->n_recused = t.n_recused;
	d->rule = t.rule;
	d->decided_at = last;
	if (t.result == DC_RESULT_OVERTURNED) {
		d->votes = g_ptr_array_new_with_free_func(vote_free);
		for (i = 0; i < c->votes->len; i++) {
			const dc_vote_t *v = c->votes->pdata[i];
			dc_report_vote_t *rv;
			char *key;

			if (v->question == DC_QUESTION_APPROVE)
				continue;
			rv = g_new0(dc_report_vote_t, 1);
			rv->member = dc_sanitize_line(v->member);
			key = g_ascii_strdown(v->member, -1);
			if (b->names && g_hash_table_lookup(b->names, key))
				rv->name = dc_sanitize_line(
					g_hash_table_lookup(b->names, key));
			g_free(key);
			rv->choice = dc_vote_choice_name(v->choice);
			rv->at = v->at;
			g_ptr_array_add(d->votes, rv);
		}
	}
	g_ptr_array_add(r->decisions, d);
}

static void
case_done(dc_report_t *r, builder_t *b, dc_case_t *c)
{
	if (!c->withdrawn && dc_access_allows(b->access, c)) {
		add_incident(r, b, c);
		if (c->kind != DC_KIND_TAB) {
			add_decision(r, b, c, DC_QUESTION_APPROVE);
			add_decision(r, b, c, DC_QUESTION_OVERTURN);
		}
		tally(r, c);
		add_measures(r, c);
		add_override(r, c, b->tab_members, b->rule);
		if (b->mail && b->people && shows_case(r, c)) {
			int64_t *key = g_new(int64_t, 1);
			dc_thread_t *t = NULL;

			/* No thread back: the first could not be read, and
			 * gives no link either. */
			dc_identity_set_case(b->people, c->id);
			dc_case_people(b->mail, c, b->members, b->people, NULL,
				       NULL, &t, NULL);
			*key = c->id;
			g_hash_table_replace(b->roots, key,
					     t ? public_root(t) : NULL);
			dc_thread_free(t);
		}
	}
	dc_case_free(c);
}

static int
is_full(GArray *full, guint *next, int64_t id)
{
	while (*next < full->len && g_array_index(full, int64_t, *next) < id)
		(*next)++;
	return *next < full->len && g_array_index(full, int64_t, *next) == id;
}

/*
 * A case with an outcome or a vote is replayed from all its events.  Of
 * any other case the report needs its kind and state, which come from
 * the cases table (a cache that "decorum verify" checks against the
 * replay), and who may see it and who is in it, replayed from the
 * opening, participant, conflict, recusal, undo and erasure events only
 * (dc_store_report_load()): replaying every event of every open case
 * was most of the time of a report.
 */
static gint
event_cmp(gconstpointer a, gconstpointer b)
{
	const dc_store_event_t *x = *(dc_store_event_t *const *)a;
	const dc_store_event_t *y = *(dc_store_event_t *const *)b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static dc_status_t
load(dc_report_t *r, builder_t *b, dc_error_t *err)
{
	GPtrArray *scs = NULL, *evs = NULL, **slices;
	int64_t from = MIN(r->previous.from, r->week_start[0]);
	GHashTable *index;
	GArray *full = NULL;
	guint i, f = 0;
	dc_status_t st;

	st = dc_store_report_load(b->s, from, r->period.to, &scs, &full, &evs,
				  err);
	if (st != DC_OK)
		return st;
	/* Sort events to cases, each case's in the order of the log. */
	index = g_hash_table_new(g_int64_hash, g_int64_equal);
	slices = g_new0(GPtrArray *, scs->len);
	for (i = 0; i < scs->len; i++) {
		dc_store_case_t *sc = scs->pdata[i];

		g_hash_table_insert(index, &sc->id, GUINT_TO_POINTER(i + 1));
		slices[i] = g_ptr_array_new();
	}
	for (i = 0; i < evs->len; i++) {
		dc_store_event_t *ev = evs->pdata[i];
		guint k = GPOINTER_TO_UINT(
			g_hash_table_lookup(index, &ev->case_id));

		if (k)
			g_ptr_array_add(slices[k - 1], ev);
	}
	for (i = 0; i < scs->len; i++) {
		const dc_store_case_t *sc = scs->pdata[i];
		dc_case_t *c = dc_case_from_store(sc);

		if (slices[i]->len > 1)
			g_ptr_array_sort(slices[i], event_cmp);
		dc_case_replay(c, slices[i]);
		if (!is_full(full, &f, sc->id)) {
			dc_kind_parse(sc->kind, &c->kind, NULL);
			g_free(c->state);
			c->state = g_strdup(sc->state);
			c->withdrawn |= !strcmp(c->state, "withdrawn");
		}
		case_done(r, b, c);
		g_ptr_array_unref(slices[i]);
	}
	g_free(slices);
	g_hash_table_destroy(index);
	g_ptr_array_unref(scs);
	g_ptr_array_unref(evs);
	g_array_unref(full);
	return DC_OK;
}

static dc_report_t *
report_new(const dc_period_t *period, int64_t now)
{
	dc_report_t *r = g_new0(dc_report_t, 1);
	int w;

	r->period = *period;
	r->previous.to = period->from;
	r->previous.from = period->from - (period->to - period->from);
	r->now = now;
	r->by_state = g_ptr_array_new_with_free_func(count_free);
	r->by_outcome = g_ptr_array_new_with_free_func(count_free);
	r->cases = g_ptr_array_new_with_free_func(rcase_free);
	r->tab_pending = g_ptr_array_new_with_free_func(rcase_free);
	r->long_open = g_ptr_array_new_with_free_func(rcase_free);
	r->measures = g_ptr_array_new_with_free_func(measure_free);
	r->overridden = g_ptr_array_new_with_free_func(override_free);
	r->incidents = g_ptr_array_new_with_free_func(incident_free);
	r->decisions = g_ptr_array_new_with_free_func(decision_free);
	for (w = 0; w < DC_REPORT_WEEKS; w++)
		r->week_start[w] =
			period->to - (int64_t)(DC_REPORT_WEEKS - w) * 7 * DC_DAY;
	return r;
}

static dc_vote_rule_t
configured_rule(void)
{
	char *name = dc_config_value(NULL, "tab", "overturn_rule");
	dc_vote_rule_t rule = DC_RULE_VOTES_CAST;

	if (name)
		dc_vote_rule_parse(name, &rule, NULL);
	g_free(name);
	return rule;
}

/* The registered names of members, by lower-case address. */
static dc_status_t
member_names(dc_store_t *s, GHashTable **out, dc_error_t *err)
{
	GPtrArray *ms = NULL;
	dc_status_t st = dc_member_list(s, &ms, err);
	guint i;

	*out = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	for (i = 0; st == DC_OK && i < ms->len; i++) {
		const dc_store_member_t *m = ms->pdata[i];

		if (m->name && *m->name)
			g_hash_table_replace(*out,
					     g_ascii_strdown(m->address, -1),
					     g_strdup(m->name));
	}
	if (ms)
		g_ptr_array_unref(ms);
	return st;
}

dc_status_t
dc_report_build(dc_store_t *s, dc_mail_t *mail, const dc_period_t *period,
		int64_t now, int anonymise, dc_identity_set_t *people,
		dc_report_t **out, dc_error_t *err)
{
	builder_t b = { .s = s, .mail = mail, .people = people };
	dc_report_t *r = report_new(period, now);
	dc_status_t st = DC_OK;
	guint i;

	*out = NULL;
	b.roots = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
					g_free);
	/* The threads of cases, as this notmuch database numbers them. */
	if (s && mail)
		st = dc_action_sync(s, mail, 1, NULL, dc_now(), err);
	if (s && st == DC_OK) {
		b.rule = configured_rule();
		st = dc_access_load(s, &b.access, err);
		if (st == DC_OK)
			st = dc_member_addresses(s, &b.members, err);
		if (st == DC_OK && people)
			ignore_committee(people, b.members);
		if (st == DC_OK)
			st = dc_member_count_active(s, "tab", now,
						    &b.tab_members, err);
		if (st == DC_OK)
			st = member_names(s, &b.names, err);
		if (st == DC_OK)
			st = load(r, &b, err);
	}
	dc_access_free(b.access);
	if (b.members)
		g_hash_table_unref(b.members);
	if (b.names)
		g_hash_table_unref(b.names);
	if (st != DC_OK) {
		g_hash_table_destroy(b.roots);
		dc_report_free(r);
		return st;
	}
	g_ptr_array_sort(r->by_state, count_cmp);
	g_ptr_array_sort(r->by_outcome, count_cmp);
	for (i = 0; mail && i < r->cases->len; i++)
		link_case(mail, b.roots, r->cases->pdata[i], anonymise,
			  people);
	g_hash_table_destroy(b.roots);
	*out = r;
	return DC_OK;
}

/* ---- emitting ------------------------------------------------------- */

static const char *const kind_plural[DC_KIND_COUNT] = {
	[DC_KIND_ADMONITION] = "Admonitions",
	[DC_KIND_ESCALATION] = "Escalations",
	[DC_KIND_TAB] = "TAB consultations",
};

static void
emit_counts(dc_emit_t *e, const char *id, const char *title, GPtrArray *a)
{
	dc_emit_count_t *rows = g_new0(dc_emit_count_t, a->len + 1);
	guint i;

	for (i = 0; i < a->len; i++) {
		const dc_report_count_t *c = a->pdata[i];

		rows[i].key = c->key;
		rows[i].label = c->key;
		rows[i].value = c->n;
	}
	if (!a->len) {
		rows[0].key = "none";
		rows[0].label = "(no cases)";
		i = 1;
	}
	dc_emit_counts(e, id, title, rows, i);
	g_free(rows);
}

enum { COL_CASE, COL_KIND, COL_REPORTED, COL_STATE, COL_OUTCOME, COL_LINK,
       NCOLS };

static const dc_emit_column_t case_cols[NCOLS] = {
	{ "case", "Case", 1 },
	{ "kind", "Kind", 0 },
	{ "reported", "Reported", 0 },
	{ "state", "State", 0 },
	{ "outcome", "Outcome", 0 },
	{ "link", "Public thread", 0 },
};

/* Rows of a case table; the strings live in keep until it is freed. */
static GPtrArray *
case_rows(GPtrArray *cases, GPtrArray *keep, int64_t now, int days)
{
	GPtrArray *rows = g_ptr_array_new_with_free_func(g_free);
	guint i;

	for (i = 0; i < cases->len; i++) {
		const dc_report_case_t *rc = cases->pdata[i];
		const char **row = g_new0(const char *, NCOLS);
		char *s;

		g_ptr_array_add(keep, s = g_strdup_printf(
			"%" G_GINT64_FORMAT, (gint64)rc->id));
		row[COL_CASE] = s;
		row[COL_KIND] = dc_kind_label(rc->kind);
		g_ptr_array_add(keep, s = day_string(rc->reported_at));
		row[COL_REPORTED] = s;
		row[COL_STATE] = rc->state;
		if (days) {
			g_ptr_array_add(keep, s = g_strdup_printf(
				"%" G_GINT64_FORMAT,
				(gint64)((now - rc->reported_at) / DC_DAY)));
			row[COL_OUTCOME] = s;
		} else {
			row[COL_OUTCOME] = rc->outcome;
		}
		row[COL_LINK] = rc->lore ? rc->lore :
				rc->link_withheld ? "(withheld: names a person)" :
						    NULL;
		g_ptr_array_add(rows, row);
	}
	return rows;
}

static void
emit_cases(dc_emit_t *e, const char *id, const char *title,
	   GPtrArray *cases, int64_t now, int days)
{
	GPtrArray *keep = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *rows = case_rows(cases, keep, now, days);
	dc_emit_column_t cols[NCOLS];

	memcpy(cols, case_cols, sizeof(cols));
	if (days) {
		cols[COL_OUTCOME].id = "days_open";
		cols[COL_OUTCOME].label = "Days open";
		cols[COL_OUTCOME].numeric = 1;
	}
	dc_emit_table(e, id, title, cols, NCOLS, rows);
	g_ptr_array_unref(rows);
	g_ptr_array_unref(keep);
}

static void
emit_measures(const dc_report_t *r, dc_emit_t *e)
{
	static const dc_emit_column_t cols[] = {
		{ "case", "Case", 1 },     { "measure", "Measure", 0 },
		{ "scope", "Scope", 0 },   { "from", "From", 0 },
		{ "until", "Until", 0 },   { "release", "Release", 0 },
		{ "expiring", "Ends within 30 days", 0 },
	};
	GPtrArray *keep = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *rows = g_ptr_array_new_with_free_func(g_free);
	int64_t expiring = 0;
	guint i;
	char *s;

	for (i = 0; i < r->measures->len; i++) {
		const dc_report_measure_t *m = r->measures->pdata[i];
		const char **row = g_new0(const char *, G_N_ELEMENTS(cols));

		g_ptr_array_add(keep, s = g_strdup_printf(
			"%" G_GINT64_FORMAT, (gint64)m->case_id));
		row[0] = s;
		g_ptr_array_add(keep, s = m->what ? dc_sanitize_line(m->what)
						  : NULL);
		row[1] = s;
		g_ptr_array_add(keep, s = m->scope ? dc_sanitize_line(m->scope)
						   : NULL);
		row[2] = s;
		g_ptr_array_add(keep, s = m->from ? day_string(m->from) : NULL);
		row[3] = s;
		g_ptr_array_add(keep, s = day_string(m->until));
		row[4] = s;
		g_ptr_array_add(keep, s = m->until_release ?
			dc_sanitize_line(m->until_release) : NULL);
		row[5] = s;
		row[6] = m->expiring ? "yes" : "no";
		expiring += m->expiring;
		g_ptr_array_add(rows, row);
	}
	{
		dc_emit_count_t c[2] = {
			{ "in_force", "Measures in force", r->measures->len,
			  NULL },
			{ "expiring", "Ending within 30 days", expiring, NULL },
		};

		dc_emit_counts(e, "measure_counts", NULL, c, 2);
	}
	dc_emit_table(e, "measures", NULL, cols, G_N_ELEMENTS(cols), rows);
	g_ptr_array_unref(rows);
	g_ptr_array_unref(keep);
}

/* Identifiable by design: the interpretation document asks for the
 * voting details of every overridden decision. */
static void
emit_overridden(const dc_report_t *r, dc_emit_t *e)
{
	static const dc_emit_column_t cols[] = {
		{ "case", "Case", 1 },        { "decision", "Decision", 0 },
		{ "decided", "Overridden", 0 }, { "for", "For", 1 },
		{ "against", "Against", 1 },  { "abstain", "Abstain", 1 },
		{ "recused", "Recused", 1 },  { "rule", "Two thirds of", 0 },
	};
	static const dc_emit_column_t vcols[] = {
		{ "case", "Case", 1 }, { "member", "TAB member", 0 },
		{ "vote", "Vote", 0 }, { "at", "Date", 0 },
	};
	GPtrArray *keep = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *rows = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *vrows = g_ptr_array_new_with_free_func(g_free);
	guint i, k;
	char *s;

	dc_emit_paragraph(e, "note",
			  "The TAB overturned these decisions of the Code of "
			  "Conduct Committee; as the kernel's interpretation "
			  "document requires, every vote is listed.");
	for (i = 0; i < r->overridden->len; i++) {
		const dc_report_override_t *o = r->overridden->pdata[i];
		const char **row = g_new0(const char *, G_N_ELEMENTS(cols));
		const char *id;

		g_ptr_array_add(keep, s = g_strdup_printf(
			"%" G_GINT64_FORMAT, (gint64)o->case_id));
		row[0] = id = s;
		row[1] = o->decision;
		g_ptr_array_add(keep, s = day_string(o->decided_at));
		row[2] = s;
		g_ptr_array_add(keep, s = g_strdup_printf("%d", o->n_for));
		row[3] = s;
		g_ptr_array_add(keep, s = g_strdup_printf("%d", o->n_against));
		row[4] = s;
		g_ptr_array_add(keep, s = g_strdup_printf("%d", o->n_abstain));
		row[5] = s;
		g_ptr_array_add(keep, s = g_strdup_printf("%d", o->n_recused));
		row[6] = s;
		g_ptr_array_add(keep, s = g_strdup_printf(
			"%d (%s)", o->denominator, o->rule));
		row[7] = s;
		g_ptr_array_add(rows, row);
		for (k = 0; k < o->votes->len; k++) {
			const dc_report_vote_t *v = o->votes->pdata[k];
			const char **vr = g_new0(const char *,
						 G_N_ELEMENTS(vcols));

			vr[0] = id;
			vr[1] = v->member;
			vr[2] = v->choice;
			g_ptr_array_add(keep, s = day_string(v->at));
			vr[3] = s;
			g_ptr_array_add(vrows, vr);
		}
	}
	dc_emit_table(e, "decisions", NULL, cols, G_N_ELEMENTS(cols), rows);
	dc_emit_table(e, "votes", "Votes", vcols, G_N_ELEMENTS(vcols), vrows);
	g_ptr_array_unref(vrows);
	g_ptr_array_unref(rows);
	g_ptr_array_unref(keep);
}

static char *
delta(int64_t now_n, int64_t before)
{
	return g_strdup_printf("%" G_GINT64_FORMAT " (previous period %"
			       G_GINT64_FORMAT ", %+" G_GINT64_FORMAT ")",
			       (gint64)now_n, (gint64)before,
			       (gint64)(now_n - before));
}

static void
emit_change(const dc_report_t *r, dc_emit_t *e)
{
	dc_emit_count_t rows[1 + DC_KIND_COUNT] = { 0 };
	char *texts[1 + DC_KIND_COUNT];
	int k;

	rows[0].key = "received";
	rows[0].label = "Reports received";
	rows[0].text = texts[0] = delta(r->received, r->prev_received);
	for (k = 0; k < DC_KIND_COUNT; k++) {
		rows[k + 1].key = dc_kind_name(k);
		rows[k + 1].label = kind_plural[k];
		rows[k + 1].text = texts[k + 1] =
			delta(r->by_kind[k], r->prev_by_kind[k]);
	}
	dc_emit_counts(e, "change", NULL, rows, 1 + DC_KIND_COUNT);
	for (k = 0; k < 1 + DC_KIND_COUNT; k++)
		g_free(texts[k]);
}

static void
emit_chart(const dc_report_t *r, dc_emit_t *e)
{
	char *labels[DC_REPORT_WEEKS];
	int w;

	for (w = 0; w < DC_REPORT_WEEKS; w++)
		labels[w] = day_string(r->week_start[w]);
	dc_emit_chart(e, "weekly", "Reports per week (week starting)",
		      (const char *const *)labels, r->weeks, DC_REPORT_WEEKS);
	for (w = 0; w < DC_REPORT_WEEKS; w++)
		g_free(labels[w]);
}

static void
emit_summary(const dc_report_t *r, dc_emit_t *e, const char *label)
{
	dc_emit_count_t rows[3 + DC_KIND_COUNT] = { 0 };
	int64_t incidents = 0;
	char *intro;
	guint i;

	intro = g_strdup_printf("In the period of %s (UTC), the following "
				"reports were received.",
				label);
	dc_emit_paragraph(e, "intro", intro);
	g_free(intro);
	rows[0] = (dc_emit_count_t){ "received", "Reports received",
				     r->received, NULL };
	rows[1] = (dc_emit_count_t){ "tab_consultations",
				     "TAB consultations (not reports)", r->tab,
				     NULL };
	for (i = 0; i < r->incidents->len; i++)
		incidents += ((const dc_report_incident_t *)
				      r->incidents->pdata[i])->kind !=
			     DC_KIND_ADMONITION;
	rows[2] = (dc_emit_count_t){ "incidents",
				     "Incidents reported to the committee",
				     incidents, NULL };
	dc_emit_counts(e, "summary", NULL, rows, 3);
}

/* The statistics, for the appendix. */
static void
emit_statistics(const dc_report_t *r, dc_emit_t *e)
{
	dc_emit_count_t rows[DC_KIND_COUNT] = { 0 };
	int k;

	dc_emit_section(e, "kinds", "Cases by kind");
	for (k = 0; k < DC_KIND_COUNT; k++)
		rows[k] = (dc_emit_count_t){ dc_kind_name(k), kind_plural[k],
					     r->by_kind[k], NULL };
	dc_emit_counts(e, "by_kind", NULL, rows, DC_KIND_COUNT);
	dc_emit_section(e, "states", "Cases by state");
	emit_counts(e, "by_state", NULL, r->by_state);
	dc_emit_section(e, "outcomes", "Cases by outcome");
	emit_counts(e, "by_outcome", NULL, r->by_outcome);
}

/* The reports by category, one row per incident, as the published form
 * groups them (decorum report --publish), with their case numbers: this
 * form is the committee's own. */
static void
emit_incidents(const dc_report_t *r, dc_emit_t *e)
{
	static const dc_emit_column_t cols[] = {
		{ "case", "Case", 1 },         { "kind", "Kind", 0 },
		{ "category", "Category", 0 }, { "reports", "Reports", 1 },
		{ "action", "What was done", 0 },
	};
	GPtrArray *keep = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *rows = g_ptr_array_new_with_free_func(g_free);
	guint i;
	char *s;

	for (i = 0; i < r->incidents->len; i++) {
		const dc_report_incident_t *x = r->incidents->pdata[i];
		const char **row = g_new0(const char *, G_N_ELEMENTS(cols));

		g_ptr_array_add(keep, s = g_strdup_printf(
			"%" G_GINT64_FORMAT, (gint64)x->case_id));
		row[0] = s;
		row[1] = dc_kind_label(x->kind);
		g_ptr_array_add(keep, s = x->category ?
			dc_sanitize_line(x->category) : NULL);
		row[2] = s;
		g_ptr_array_add(keep, s = g_strdup_printf("%d", x->reports));
		row[3] = s;
		g_ptr_array_add(keep, s = dc_report_incident_action(x));
		row[4] = s;
		g_ptr_array_add(rows, row);
	}
	dc_emit_table(e, "incidents", NULL, cols, G_N_ELEMENTS(cols), rows);
	g_ptr_array_unref(rows);
	g_ptr_array_unref(keep);
}

/* The TAB's decisions settled in the period, on either question. */
static void
emit_decisions(const dc_report_t *r, dc_emit_t *e)
{
	static const dc_emit_column_t cols[] = {
		{ "case", "Case", 1 },      { "question", "Question", 0 },
		{ "result", "Result", 0 },  { "for", "For", 1 },
		{ "against", "Against", 1 }, { "abstain", "Abstain", 1 },
		{ "recused", "Recused", 1 }, { "decided", "Decided", 0 },
	};
	GPtrArray *keep = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *rows = g_ptr_array_new_with_free_func(g_free);
	guint i;
	char *s;

	for (i = 0; i < r->decisions->len; i++) {
		const dc_report_decision_t *d = r->decisions->pdata[i];
		const char **row = g_new0(const char *, G_N_ELEMENTS(cols));

		g_ptr_array_add(keep, s = g_strdup_printf(
			"%" G_GINT64_FORMAT, (gint64)d->case_id));
		row[0] = s;
		row[1] = dc_question_name(d->question);
		row[2] = dc_result_name(d->result);
		g_ptr_array_add(keep, s = g_strdup_printf("%d", d->n_for));
		row[3] = s;
		g_ptr_array_add(keep, s = g_strdup_printf("%d", d->n_against));
		row[4] = s;
		g_ptr_array_add(keep, s = g_strdup_printf("%d", d->n_abstain));
		row[5] = s;
		g_ptr_array_add(keep, s = g_strdup_printf("%d", d->n_recused));
		row[6] = s;
		g_ptr_array_add(keep, s = day_string(d->decided_at));
		row[7] = s;
		g_ptr_array_add(rows, row);
	}
	dc_emit_table(e, "tab_decisions", NULL, cols, G_N_ELEMENTS(cols),
		      rows);
	g_ptr_array_unref(rows);
	g_ptr_array_unref(keep);
}

void
dc_report_emit(const dc_report_t *r, dc_emit_t *e)
{
	char *label = dc_period_label(&r->period);
	char *title = g_strdup_printf("Code of Conduct report, %s", label);

	dc_emit_begin(e, "summary", title);
	emit_summary(r, e, label);
	dc_emit_section(e, "reports", "Reports by category");
	emit_incidents(r, e);
	dc_emit_section(e, "decisions", "Decisions of the TAB");
	emit_decisions(r, e);
	dc_emit_section(e, "appendix", "Appendix: statistics");
	dc_emit_paragraph(e, "note",
			  "For the committee's own use: counts by kind, "
			  "state and outcome, the cases, measures, pending "
			  "items and the trend.  decorum report --publish "
			  "writes the form for publication.");
	emit_statistics(r, e);
	dc_emit_section(e, "cases", "Cases received in the period");
	emit_cases(e, "cases", NULL, r->cases, r->now, 0);
	dc_emit_section(e, "measures", "Remedial measures in force");
	emit_measures(r, e);
	dc_emit_section(e, "overridden", "Committee decisions overridden");
	emit_overridden(r, e);
	dc_emit_section(e, "tab_pending", "TAB consultations pending");
	emit_cases(e, "cases", NULL, r->tab_pending, r->now, 1);
	dc_emit_section(e, "long_open", "Cases open longer than 30 days");
	emit_cases(e, "cases", NULL, r->long_open, r->now, 1);
	dc_emit_section(e, "change", "Change against the previous period");
	{
		char *prev = dc_period_label(&r->previous);
		char *p = g_strdup_printf("Previous period: %s.", prev);

		dc_emit_paragraph(e, "previous", p);
		g_free(p);
		g_free(prev);
	}
	emit_change(r, e);
	dc_emit_section(e, "trend", "Reports per week, last quarter");
	emit_chart(r, e);
	dc_emit_end(e);
	g_free(title);
	g_free(label);
}

/* The report's cases, or none: without the mail index their people are
 * unknown, and an anonymised report must not guess. */
static int
mentions_cases(const dc_report_t *r)
{
	return r->cases->len || r->tab_pending->len || r->long_open->len;
}

/* How a built report becomes text: the emitter of a format, or the
 * published form. */
typedef struct render {
	const dc_emit_ops_t *fmt;
	const dc_publish_opts_t *publish;
} render_t;

static char *
render(const dc_report_t *r, const render_t *how)
{
	dc_emit_t *e;

	if (how->publish)
		return dc_report_publish_text(r, how->publish);
	e = dc_emit_new(how->fmt ? how->fmt : &dc_emit_text);
	dc_report_emit(r, e);
	return dc_emit_finish(e);
}

/* Build, render and, unless include_identities, scan: the one way a
 * report's text leaves core. */
static dc_status_t
report_out(dc_store_t *s, dc_mail_t *mail, const dc_period_t *period,
	   int64_t now, const render_t *how, int include_identities,
	   char **out, dc_error_t *err)
{
	dc_identity_set_t *people = dc_identity_set_new();
	dc_identity_hit_t hit;
	dc_report_t *r = NULL;
	dc_status_t st;
	char *text;

	*out = NULL;
	/* The people are gathered only for the scan. */
	st = dc_report_build(s, mail, period, now, !include_identities,
			     include_identities ? NULL : people, &r, err);
	if (st != DC_OK)
		goto out;
	if (!mail && !include_identities && mentions_cases(r)) {
		st = dc_fail(err, DC_E_DENIED,
			     "without the mail index the report cannot be "
			     "checked for the names of the people in its "
			     "cases");
		goto out;
	}
	if (how->publish && (st = dc_report_publish_check(r, err)) != DC_OK)
		goto out;
	text = render(r, how);
	if (!include_identities &&
	    dc_identity_scan(people, text, strlen(text), &hit)) {
		/* Name the kind of hit, not the person: this may be read
		 * over a shoulder or land in a log. */
		char *why = dc_identity_hit_describe(
			people, how->publish ? "published report" : "report",
			&hit);

		st = dc_fail(err, DC_E_DENIED, "%s", why);
		g_free(why);
		g_free(text);
		goto out;
	}
	*out = text;
out:
	dc_report_free(r);
	dc_identity_set_free(people);
	return st;
}

dc_status_t
dc_report_text(dc_store_t *s, dc_mail_t *mail, const dc_period_t *period,
	       int64_t now, const dc_emit_ops_t *fmt, int include_identities,
	       char **out, dc_error_t *err)
{
	render_t how = { .fmt = fmt };

	return report_out(s, mail, period, now, &how, include_identities, out,
			  err);
}

dc_status_t
dc_report_publish(dc_store_t *s, dc_mail_t *mail, const dc_period_t *period,
		  int64_t now, const dc_publish_opts_t *o, char **out,
		  dc_error_t *err)
{
	render_t how = { .publish = o };

	return report_out(s, mail, period, now, &how, o->include_identities,
			  out, err);
}
