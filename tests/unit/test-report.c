// SPDX-License-Identifier: GPL-3.0-or-later
/* The summary report's model: periods, boundaries, the delta, the chart. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/case/outcome.h"
#include "core/export/report.h"

/* 2026-11-21 00:00:00 UTC and 2026-11-20 12:00 UTC */
#define NOV21 1795219200LL
#define NOW (NOV21 - 12 * 3600)

static void
test_period_parse(void **state)
{
	dc_period_t p;
	dc_error_t err = { 0 };
	char *l;

	assert_int_equal(dc_period_parse(NULL, NOW, &p, &err), DC_OK);
	assert_int_equal(p.to, NOV21);
	assert_int_equal(p.from, NOV21 - 7 * DC_DAY);
	l = dc_period_label(&p);
	assert_string_equal(l, "2026-11-14 through 2026-11-20");
	g_free(l);
	assert_int_equal(dc_period_parse("quarter", NOW, &p, &err), DC_OK);
	assert_int_equal(p.to - p.from, 91 * DC_DAY);
	assert_int_equal(dc_period_parse("2026-11-01..2026-11-01", NOW, &p,
					 &err), DC_OK);
	assert_int_equal(p.to - p.from, DC_DAY);
	assert_int_equal(dc_period_parse("2026-11-02..2026-11-01", NOW, &p,
					 &err), DC_E_USAGE);
	assert_int_equal(dc_period_parse("2026-13-01..2026-11-01", NOW, &p,
					 &err), DC_E_USAGE);
	assert_int_equal(dc_period_parse("month", NOW, &p, &err), DC_E_USAGE);
	assert_int_equal(dc_period_parse("2026-11-01", NOW, &p, &err),
			 DC_E_USAGE);
}

static void
test_now_override(void **state)
{
	assert_int_equal(dc_clock_parse("2026-11-21"), NOV21);
	assert_int_equal(dc_clock_parse("12345"), 12345);
	assert_int_equal(dc_clock_parse("2026-11-21T00:00:10Z"), NOV21 + 10);
	assert_int_equal(dc_clock_parse("not a time"), -1);
	assert_int_equal(dc_clock_parse(NULL), -1);
	/* Read once: a change after the first call is not seen. */
	setenv("DECORUM_NOW", "12345", 1);
	assert_int_equal(dc_now(), 12345);
	setenv("DECORUM_NOW", "2026-11-21", 1);
	assert_int_equal(dc_now(), 12345);
	unsetenv("DECORUM_NOW");
}

static dc_store_t *
fixture(char **dir)
{
	dc_store_t *s = NULL;
	dc_error_t err = { 0 };
	char *path;
	/* reported_at at the edges of the week [NOV21 - 7d, NOV21) */
	static const struct {
		const char *kind;
		int64_t at;
	} cases[] = {
		{ "escalation", NOV21 - 7 * DC_DAY },     /* first second: in */
		{ "escalation", NOV21 - 1 },              /* last second: in */
		{ "escalation", NOV21 },                  /* after: out */
		{ "admonition", NOV21 - 7 * DC_DAY - 1 }, /* previous week */
		{ "tab", NOV21 - 2 * DC_DAY },            /* TAB, apart */
		{ "escalation", NOV21 - 40 * DC_DAY },    /* open > 30 days */
	};
	guint i;

	*dir = g_dir_make_tmp("dc-report-XXXXXX", NULL);
	path = g_build_filename(*dir, "s.db", NULL);
	assert_int_equal(dc_store_open(path, &s, &err), DC_OK);
	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		int64_t id;

		assert_int_equal(dc_store_case_insert(s, cases[i].kind, "new",
						      cases[i].at, cases[i].at,
						      "secret subject", &id,
						      &err),
				 DC_OK);
	}
	g_free(path);
	return s;
}

static void
cleanup(dc_store_t *s, char *dir)
{
	char *cmd = g_strdup_printf("rm -rf '%s'", dir);

	dc_store_close(s);
	assert_int_equal(system(cmd), 0);
	g_free(cmd);
	g_free(dir);
}

static void
test_boundaries_and_delta(void **state)
{
	dc_error_t err = { 0 };
	dc_report_t *r = NULL;
	dc_period_t p;
	char *dir;
	dc_store_t *s = fixture(&dir);

	assert_int_equal(dc_period_parse("week", NOW, &p, &err), DC_OK);
	assert_int_equal(dc_report_build(s, NULL, &p, NOW, 1, NULL, &r, &err),
			 DC_OK);
	assert_int_equal(r->received, 2);
	assert_int_equal(r->tab, 1);
	assert_int_equal(r->prev_received, 1);
	assert_int_equal(r->by_kind[DC_KIND_ESCALATION], 2);
	assert_int_equal(r->prev_by_kind[DC_KIND_ADMONITION], 1);
	assert_int_equal(r->cases->len, 3);
	assert_int_equal(r->tab_pending->len, 1);
	assert_int_equal(r->long_open->len, 1);
	/* The last week of the chart is the period's week. */
	assert_int_equal(r->weeks[DC_REPORT_WEEKS - 1], 2);
	assert_int_equal(r->weeks[DC_REPORT_WEEKS - 2], 1);
	dc_report_free(r);
	cleanup(s, dir);
}

static void
test_report_never_shows_subjects(void **state)
{
	const dc_emit_ops_t *const *f;
	dc_error_t err = { 0 };
	dc_report_t *r = NULL;
	dc_period_t p;
	char *dir;
	dc_store_t *s = fixture(&dir);

	assert_int_equal(dc_period_parse("quarter", NOW, &p, &err), DC_OK);
	assert_int_equal(dc_report_build(s, NULL, &p, NOW, 1, NULL, &r, &err),
			 DC_OK);
	for (f = dc_emit_formats; *f; f++) {
		dc_emit_t *e = dc_emit_new(*f);
		char *text;

		dc_report_emit(r, e);
		text = dc_emit_finish(e);
		assert_non_null(strstr(text, "2026-08-22"));
		assert_null(strstr(text, "secret"));
		g_free(text);
	}
	dc_report_free(r);
	cleanup(s, dir);
}

static int64_t
open_case(dc_store_t *s, const char *thread, dc_kind_t kind, int64_t at)
{
	char *mid = g_strdup_printf("%s.report@example.org", thread);
	const char *ids[] = { mid, NULL };
	dc_tag_request_t req = {
		.thread_id = thread, .message_ids = ids, .kind = kind, .actor = "m@example.org",
		.subject = "secret subject", .reported_at = at, .now = at,
	};
	dc_error_t err = { 0 };
	int64_t id = 0;
	int created = 0;

	if (dc_case_tag(s, &req, &id, &created, &err) != DC_OK)
		fail_msg("tag: %s", err.msg);
	g_free(mid);
	return id;
}

static int64_t
count_of(GPtrArray *counts, const char *key)
{
	guint i;

	for (i = 0; i < counts->len; i++) {
		const dc_report_count_t *c = counts->pdata[i];

		if (!strcmp(c->key, key))
			return c->n;
	}
	return 0;
}

/*
 * A report replays only the cases with an outcome or a vote and takes
 * the others' kind and state from the cases table: both kinds of case,
 * a withdrawn one and an old open one come out as a full replay has them.
 */
static void
test_replayed_and_cached_cases(void **state)
{
	dc_outcome_t o = { .kind = DC_OUTCOME_ADMONITION };
	dc_error_t err = { 0 };
	dc_report_t *r = NULL;
	dc_store_t *s = NULL;
	dc_period_t p;
	char *dir = g_dir_make_tmp("dc-report-XXXXXX", NULL);
	char *path = g_build_filename(dir, "s.db", NULL);
	int64_t a, b, c, d;
	guint i;

	assert_int_equal(dc_store_open(path, &s, &err), DC_OK);
	a = open_case(s, "00000000000000a1", DC_KIND_ESCALATION,
		      NOV21 - 3 * DC_DAY);
	b = open_case(s, "00000000000000b2", DC_KIND_ADMONITION,
		      NOV21 - 2 * DC_DAY);
	c = open_case(s, "00000000000000c3", DC_KIND_ESCALATION,
		      NOV21 - 2 * DC_DAY);
	d = open_case(s, "00000000000000d4", DC_KIND_ESCALATION,
		      NOV21 - 200 * DC_DAY);
	assert_int_equal(dc_case_set_state(s, a, "investigating", NULL,
					   "m@example.org", NOW - 60, &err),
			 DC_OK);
	assert_int_equal(dc_case_outcome(s, a, &o, "m@example.org", NOW - 50,
					 &err),
			 DC_OK);
	assert_int_equal(dc_case_set_state(s, b, "acknowledged", NULL,
					   "m@example.org", NOW - 40, &err),
			 DC_OK);
	assert_int_equal(dc_case_undo(s, c, "m@example.org", NOW - 30, &err),
			 DC_OK);

	assert_int_equal(dc_period_parse("week", NOW, &p, &err), DC_OK);
	assert_int_equal(dc_report_build(s, NULL, &p, NOW, 1, NULL, &r, &err),
			 DC_OK);
	assert_int_equal(r->received, 2); /* a and b; c was withdrawn */
	assert_int_equal(r->by_kind[DC_KIND_ESCALATION], 1);
	assert_int_equal(r->by_kind[DC_KIND_ADMONITION], 1);
	assert_int_equal(count_of(r->by_state, "investigating"), 1);
	assert_int_equal(count_of(r->by_state, "acknowledged"), 1);
	assert_int_equal(count_of(r->by_state, "withdrawn"), 0);
	assert_int_equal(count_of(r->by_outcome, "admonition"), 1);
	assert_int_equal(count_of(r->by_outcome, "none recorded"), 1);
	assert_int_equal(r->cases->len, 2);
	for (i = 0; i < r->cases->len; i++) {
		const dc_report_case_t *rc = r->cases->pdata[i];

		assert_true(rc->id == a || rc->id == b);
		assert_string_equal(rc->thread_id, rc->id == a ?
							   "00000000000000a1" :
							   "00000000000000b2");
		if (rc->id == a)
			assert_string_equal(rc->outcome, "admonition");
		else
			assert_null(rc->outcome);
	}
	/* d: reported long before the period, still open. */
	assert_int_equal(r->long_open->len, 1);
	assert_int_equal(((dc_report_case_t *)r->long_open->pdata[0])->id, d);
	dc_report_free(r);
	dc_store_close(s);
	g_free(path);
	path = g_strdup_printf("rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
	g_free(path);
	g_free(dir);
}

/*
 * The text every front end gets: without the mail index a report that
 * mentions cases cannot be checked for their people and is refused, with
 * no text at all; asked to include identities, or with no case to
 * mention, it is given.
 */
static void
test_report_text_fails_closed(void **state)
{
	dc_error_t err = { 0 };
	dc_period_t p;
	char *dir, *text = (char *)"unset";
	dc_store_t *s = fixture(&dir);

	assert_int_equal(dc_period_parse("week", NOW, &p, &err), DC_OK);
	assert_int_equal(dc_report_text(s, NULL, &p, NOW, NULL, 0, &text,
					&err),
			 DC_E_DENIED);
	assert_null(text);
	assert_non_null(strstr(err.msg, "without the mail index"));
	assert_int_equal(dc_report_text(s, NULL, &p, NOW, &dc_emit_json, 1,
					&text, &err),
			 DC_OK);
	assert_non_null(text);
	assert_int_equal(text[0], '{');
	g_free(text);
	/* Open cases are listed whatever the period: still refused. */
	assert_int_equal(dc_period_parse("2020-01-01..2020-01-07", NOW, &p,
					 &err), DC_OK);
	text = NULL;
	assert_int_equal(dc_report_text(s, NULL, &p, NOW, NULL, 0, &text,
					&err),
			 DC_E_DENIED);
	assert_null(text);
	cleanup(s, dir);

	/* A store with no case: nothing to check, and the text is given. */
	dir = g_dir_make_tmp("dc-report-XXXXXX", NULL);
	{
		char *path = g_build_filename(dir, "s.db", NULL);

		assert_int_equal(dc_store_open(path, &s, &err), DC_OK);
		g_free(path);
	}
	assert_int_equal(dc_report_text(s, NULL, &p, NOW, NULL, 0, &text,
					&err),
			 DC_OK);
	assert_non_null(strstr(text, "2020-01-01"));
	g_free(text);
	cleanup(s, dir);
}

static dc_report_incident_t *
incident(int64_t id, dc_kind_t kind, const char *category, int reports,
	 dc_outcome_kind_t outcome)
{
	dc_report_incident_t *i = g_new0(dc_report_incident_t, 1);

	i->case_id = id;
	i->kind = kind;
	i->category = category ? g_strdup(category) : NULL;
	i->reports = reports;
	i->has_outcome = 1;
	i->outcome = outcome;
	return i;
}

/* The published form from a model built by hand: incidents counted
 * once, admonitions left out or counted apart, categories in the
 * configured order with an unknown one after them and the uncategorised
 * last, and never a case number; dc_report_publish_check() refuses the
 * uncategorised one, naming its case for the committee. */
static void
test_publish_text(void **state)
{
	dc_period_t p = { 1790000000 - 1790000000 % DC_DAY,
			  1790000000 - 1790000000 % DC_DAY + 7 * DC_DAY };
	char *cats[] = { "alpha", "beta", NULL };
	dc_publish_opts_t o = { .to = "list@example.org",
				.contact = "c@example.org",
				.categories = cats };
	dc_report_t *r = NULL;
	char *text, *a, *b, *old, *none;
	dc_error_t err = { 0 };

	(void)state;
	assert_int_equal(dc_report_build(NULL, NULL, &p, NOW, 1, NULL, &r,
					 NULL),
			 DC_OK);
	g_ptr_array_add(r->incidents, incident(4711, DC_KIND_ESCALATION,
					       "beta", 3, DC_OUTCOME_APOLOGY));
	g_ptr_array_add(r->incidents, incident(4712, DC_KIND_ESCALATION,
					       "gamma", 1, DC_OUTCOME_COACHING));
	g_ptr_array_add(r->incidents, incident(4713, DC_KIND_ADMONITION,
					       "alpha", 1, DC_OUTCOME_ADMONITION));
	g_ptr_array_add(r->incidents, incident(4714, DC_KIND_ESCALATION,
					       NULL, 1, DC_OUTCOME_NO_ACTION));
	g_ptr_array_add(r->incidents, incident(4715, DC_KIND_ESCALATION,
					       "ALPHA", 1, DC_OUTCOME_NO_ACTION));
	text = dc_report_publish_text(r, &o);
	assert_non_null(strstr(text, "\nReports received: 4\n"));
	assert_non_null(strstr(text, "To: list@example.org\n"));
	assert_non_null(strstr(text, "Three reports of one incident: public "
				     "apology."));
	assert_null(strstr(text, "admonition"));
	assert_null(strstr(text, "471"));
	a = strstr(text, "\nAlpha:\n");
	b = strstr(text, "\nBeta:\n");
	old = strstr(text, "\nGamma:\n");
	none = strstr(text, "\nOther reports:\n");
	assert_true(a && b && old && none);
	assert_true(a < b && b < old && old < none);
	assert_non_null(strstr(text, "The TAB overturned no decision"));
	assert_non_null(strstr(text, "reached at c@example.org."));
	assert_null(strstr(text, "ategoris"));
	assert_int_equal(dc_report_publish_check(r, &err), DC_E_DENIED);
	assert_non_null(strstr(err.msg, "case 4714 has no category"));
	assert_non_null(strstr(err.msg, "decorum case category 4714 TEXT"));
	assert_null(strstr(err.msg, "4711"));
	g_free(text);
	o.with_admonitions = 1;
	text = dc_report_publish_text(r, &o);
	assert_non_null(strstr(text, "\nReports received: 4\n"));
	assert_non_null(strstr(text, "maintainers (not reports to the "
				     "committee): 1\n"));
	g_free(text);
	/* Given a category, it passes; admonitions never need one. */
	((dc_report_incident_t *)r->incidents->pdata[3])->category =
		g_strdup("beta");
	g_clear_pointer(&((dc_report_incident_t *)r->incidents->pdata[2])
				  ->category,
			g_free);
	assert_int_equal(dc_report_publish_check(r, &err), DC_OK);
	dc_report_free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_period_parse),
		cmocka_unit_test(test_now_override),
		cmocka_unit_test(test_boundaries_and_delta),
		cmocka_unit_test(test_report_never_shows_subjects),
		cmocka_unit_test(test_replayed_and_cached_cases),
		cmocka_unit_test(test_report_text_fails_closed),
		cmocka_unit_test(test_publish_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
