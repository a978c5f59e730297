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

#include "core/report.h"

#define LONG_OPEN_DAYS 30

/* ---- time and periods ------------------------------------------------- */

static int
parse_day(const char *s, size_t len, int64_t *out)
{
	char buf[11];
	GDateTime *d;
	int y, m, day;

	if (len != 10)
		return 0;
	memcpy(buf, s, 10);
	buf[10] = 0;
	if (sscanf(buf, "%4d-%2d-%2d", &y, &m, &day) != 3 || buf[4] != '-' ||
	    buf[7] != '-')
		return 0;
	d = g_date_time_new_utc(y, m, day, 0, 0, 0);
	if (!d)
		return 0;
	*out = g_date_time_to_unix(d);
	g_date_time_unref(d);
	return 1;
}

int64_t
dc_now(void)
{
	const char *v = getenv("DECORUM_NOW");
	int64_t t;

	if (v && *v) {
		guint64 secs;

		/* Up to the end of year 9999, as far as dates go: the day
		 * arithmetic of periods must not overflow. */
		if (g_ascii_string_to_unsigned(v, 10, 0, DC_NOW_MAX, &secs,
					       NULL))
			return (int64_t)secs;
		if (parse_day(v, strlen(v), &t))
			return t;
		GDateTime *d = g_date_time_new_from_iso8601(v, NULL);

		if (d) {
			t = g_date_time_to_unix(d);
			g_date_time_unref(d);
			return t;
		}
	}
	return (int64_t)time(NULL);
}

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
	if (!dots || !parse_day(spec, dots - spec, &out->from) ||
	    !parse_day(dots + 2, strlen(dots + 2), &out->to))
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
	GDateTime *d = g_date_time_new_from_unix_utc(t);
	char *s = d ? g_date_time_format(d, "%Y-%m-%d") : g_strdup("?");

	if (d)
		g_date_time_unref(d);
	return s;
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

/* ---- ADAPTER (issue 5): state and outcome ------------------------------ */

/* Until core/case.h says which states are final, these two are. */
static int
state_is_open(const char *state)
{
	return strcmp(state, "closed") && strcmp(state, "withdrawn");
}

/* The case's outcome; NULL while the store records none. */
static char *
case_outcome(const dc_case_t *c)
{
	return NULL;
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

void
dc_report_free(dc_report_t *r)
{
	if (!r)
		return;
	g_ptr_array_unref(r->by_state);
	g_ptr_array_unref(r->by_outcome);
	g_ptr_array_unref(r->cases);
	g_ptr_array_unref(r->tab_pending);
	g_ptr_array_unref(r->long_open);
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
people_of(dc_store_t *s, dc_mail_t *mail, GPtrArray *cases,
	  dc_identity_set_t *people, GHashTable *done)
{
	guint i;

	for (i = 0; i < cases->len; i++) {
		const dc_report_case_t *rc = cases->pdata[i];

		if (g_hash_table_contains(done, &rc->id))
			continue;
		g_hash_table_add(done, g_memdup2(&rc->id, sizeof(rc->id)));
		/* A thread gone from the index has nobody left to show. */
		dc_case_people(s, mail, rc->id, people, NULL, NULL);
	}
}

static int
thread_is_public(const dc_thread_t *t)
{
	guint i;
	int pub = 0;

	for (i = 0; i < t->messages->len && !pub; i++) {
		const dc_message_t *m = t->messages->pdata[i];
		char *all = g_strjoin(",", m->to ? m->to : "",
				      m->cc ? m->cc : "", NULL);
		char **parts = g_strsplit_set(all, ",<> ", -1);
		guint j;

		for (j = 0; parts[j] && !pub; j++)
			pub = dc_address_is_public_list(parts[j]);
		g_strfreev(parts);
		g_free(all);
	}
	return pub;
}

static void
link_cases(dc_mail_t *mail, GPtrArray *cases, int anonymise,
	   dc_identity_set_t *people)
{
	guint i;

	for (i = 0; i < cases->len; i++) {
		dc_report_case_t *rc = cases->pdata[i];
		dc_thread_t *t = NULL;
		const dc_message_t *root;

		if (!rc->thread_id ||
		    dc_mail_thread(mail, rc->thread_id, 1, &t, NULL) != DC_OK)
			continue;
		root = t->messages->len ? t->messages->pdata[0] : NULL;
		if (root && thread_is_public(t)) {
			if (anonymise && people &&
			    dc_identity_scan(people, root->message_id,
					     strlen(root->message_id), NULL))
				rc->link_withheld = 1;
			else
				rc->lore = dc_lore_url(root->message_id);
		}
		dc_thread_free(t);
	}
}

dc_status_t
dc_report_build(dc_store_t *s, dc_mail_t *mail, const dc_period_t *period,
		int64_t now, int anonymise, dc_identity_set_t *people,
		dc_report_t **out, dc_error_t *err)
{
	GPtrArray *cases = NULL;
	dc_report_t *r;
	dc_status_t st;
	guint i;
	int w;

	*out = NULL;
	st = s ? dc_case_list(s, &cases, err) : DC_OK;
	if (st != DC_OK)
		return st;
	r = g_new0(dc_report_t, 1);
	r->period = *period;
	r->previous.to = period->from;
	r->previous.from = period->from - (period->to - period->from);
	r->now = now;
	r->by_state = g_ptr_array_new_with_free_func(count_free);
	r->by_outcome = g_ptr_array_new_with_free_func(count_free);
	r->cases = g_ptr_array_new_with_free_func(rcase_free);
	r->tab_pending = g_ptr_array_new_with_free_func(rcase_free);
	r->long_open = g_ptr_array_new_with_free_func(rcase_free);
	for (w = 0; w < DC_REPORT_WEEKS; w++)
		r->week_start[w] =
			period->to - (int64_t)(DC_REPORT_WEEKS - w) * 7 * DC_DAY;
	for (i = 0; cases && i < cases->len; i++) {
		const dc_case_t *c = cases->pdata[i];

		if (strcmp(c->state, "withdrawn"))
			tally(r, c);
	}
	g_ptr_array_sort(r->by_state, count_cmp);
	g_ptr_array_sort(r->by_outcome, count_cmp);
	if (cases)
		g_ptr_array_unref(cases);
	if (mail && people) {
		GHashTable *done = g_hash_table_new_full(g_int64_hash,
							 g_int64_equal, g_free,
							 NULL);

		people_of(s, mail, r->cases, people, done);
		people_of(s, mail, r->tab_pending, people, done);
		people_of(s, mail, r->long_open, people, done);
		g_hash_table_unref(done);
	}
	if (mail)
		link_cases(mail, r->cases, anonymise, people);
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
	dc_emit_count_t rows[2 + DC_KIND_COUNT] = { 0 };
	char *intro;
	int k;

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
	dc_emit_counts(e, "summary", NULL, rows, 2);
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

void
dc_report_emit(const dc_report_t *r, dc_emit_t *e)
{
	char *label = dc_period_label(&r->period);
	char *title = g_strdup_printf("Code of Conduct report, %s", label);

	dc_emit_begin(e, "summary", title);
	emit_summary(r, e, label);
	dc_emit_section(e, "cases", "Cases received in the period");
	emit_cases(e, "cases", NULL, r->cases, r->now, 0);
	dc_emit_section(e, "measures", "Remedial measures");
	/* ADAPTER (issue 5): measures in force and expiring. */
	dc_emit_paragraph(e, "note",
			  r->have_measures ? "" :
			  "Remedial measures are not recorded in this "
			  "store; none can be listed as in force or "
			  "expiring.");
	dc_emit_section(e, "overridden", "Committee decisions overridden");
	/* ADAPTER (issue 5): overridden decisions with their votes. */
	dc_emit_paragraph(e, "note",
			  r->have_votes ? "" :
			  "Votes are not recorded in this store; no "
			  "overridden decision can be listed.");
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
