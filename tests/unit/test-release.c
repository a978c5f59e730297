// SPDX-License-Identifier: GPL-3.0-or-later
/* Kernel release cycles and measure expiry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "core/case/outcome.h"
#include "core/case/release.h"

#define DAY 86400

static void
test_known_and_estimated(void **state)
{
	dc_release_t r, r2;
	int64_t t, t2;
	int est;

	(void)state;
	assert_int_equal(dc_release_parse("v6.4", &r, NULL), DC_OK);
	assert_int_equal(dc_release_date(r, &t, &est, NULL), DC_OK);
	assert_false(est);
	assert_int_equal(t, 1687651200); /* 2023-06-25 */
	assert_int_equal(dc_release_parse("6.13", &r2, NULL), DC_OK);
	assert_int_equal(dc_release_date(r2, &t2, &est, NULL), DC_OK);
	assert_true(est);
	assert_int_equal(t2 - 1731801600, 63 * DAY); /* 6.12 + 63 days */
	/* 6.19 is followed by 7.0. */
	dc_release_parse("v7.0", &r, NULL);
	dc_release_date(r, &t, &est, NULL);
	dc_release_parse("v6.19", &r2, NULL);
	dc_release_date(r2, &t2, &est, NULL);
	assert_int_equal(t - t2, 63 * DAY);
	assert_int_equal(dc_release_parse("six", &r, NULL), DC_E_USAGE);
	dc_release_parse("v3.2", &r, NULL);
	assert_int_equal(dc_release_date(r, &t, &est, NULL), DC_E_NOT_FOUND);
}

static void
test_after_and_at(void **state)
{
	char buf[16];
	dc_release_t r;

	(void)state;
	/* 2023-07-01: 6.4 is out, 6.5 is next. */
	dc_release_format(dc_release_at(1688169600), buf);
	assert_string_equal(buf, "v6.4");
	dc_release_format(dc_release_after(1688169600, 1), buf);
	assert_string_equal(buf, "v6.5");
	dc_release_format(dc_release_after(1688169600, 3), buf);
	assert_string_equal(buf, "v6.7");
	r = dc_release_after(1731801600 + 1, 1);
	dc_release_format(r, buf);
	assert_string_equal(buf, "v6.13");
}

static void
test_when(void **state)
{
	dc_release_t r;
	int64_t t;

	(void)state;
	assert_int_equal(dc_when_parse("2023-06-25", &t, &r, NULL), DC_OK);
	assert_int_equal(t, 1687651200);
	assert_int_equal(r.major, 0);
	assert_int_equal(dc_when_parse("v6.4", &t, &r, NULL), DC_OK);
	assert_int_equal(t, 1687651200);
	assert_int_equal(r.minor, 4);
	assert_int_equal(dc_when_parse("2023-02-30", &t, &r, NULL),
			 DC_E_USAGE);
}

/* The end of a measure as the TUI's "Until" prompt takes it. */
static void
test_until(void **state)
{
	dc_error_t err = { 0 };
	dc_release_t r, want;
	int64_t t, t2, from = 1796284800; /* 2026-12-03 */
	int est;

	(void)state;
	want = dc_release_after(from, 2);
	assert_int_equal(dc_release_date(want, &t2, &est, NULL), DC_OK);
	assert_int_equal(dc_until_parse("2 cycles", from, &t, &r, NULL), DC_OK);
	assert_int_equal(dc_release_cmp(r, want), 0);
	assert_int_equal(t, t2);
	assert_int_equal(dc_until_parse("2", from, &t, &r, NULL), DC_OK);
	assert_int_equal(dc_release_cmp(r, want), 0);
	assert_int_equal(dc_until_parse(" 2  cycles", from, &t, &r, NULL),
			 DC_OK);
	assert_int_equal(dc_release_cmp(r, want), 0);
	assert_int_equal(dc_until_parse("1 cycle", from, &t, &r, NULL), DC_OK);
	assert_int_equal(dc_release_cmp(r, dc_release_after(from, 1)), 0);
	assert_int_equal(dc_until_parse("v6.16", from, &t, &r, NULL), DC_OK);
	assert_int_equal(r.major, 6);
	assert_int_equal(r.minor, 16);
	assert_int_equal(dc_until_parse("2027-06-01", from, &t, &r, NULL),
			 DC_OK);
	assert_int_equal(r.major, 0);
	assert_int_equal(t, 1811808000);
	assert_int_equal(dc_until_parse("2 weeks", from, &t, &r, &err),
			 DC_E_USAGE);
	assert_non_null(strstr(err.msg, "'2 weeks' is not a date "
					"(YYYY-MM-DD), a kernel release "
					"(v7.2) or a number of release "
					"cycles"));
	assert_int_equal(dc_until_parse("0 cycles", from, &t, &r, NULL),
			 DC_E_USAGE);
	assert_int_equal(dc_until_parse("cycles", from, &t, &r, NULL),
			 DC_E_USAGE);
	assert_int_equal(dc_until_parse("", from, &t, &r, NULL), DC_E_USAGE);
	assert_int_equal(dc_until_parse(NULL, from, &t, &r, NULL), DC_E_USAGE);
	/* Older than the table: said so, not "not a release". */
	assert_int_equal(dc_until_parse("v3.2", from, &t, &r, &err),
			 DC_E_NOT_FOUND);
}

static dc_outcome_t *
measure(int64_t until, const char *rel)
{
	dc_outcome_t *o = g_new0(dc_outcome_t, 1);

	o->kind = DC_OUTCOME_MEASURE;
	o->until = until;
	o->until_release = g_strdup(rel);
	return o;
}

static void
outcome_free_cb(gpointer p)
{
	dc_outcome_free(p);
}

static void
test_expiry(void **state)
{
	dc_case_t c = { .id = 7, .state = (char *)"decided" };
	GPtrArray *cases = g_ptr_array_new(), *hits = NULL;
	dc_release_t r;
	int64_t now = 1687651200 - 20 * DAY; /* 20 days before v6.4 */

	(void)state;
	c.outcomes = g_ptr_array_new_with_free_func(outcome_free_cb);
	g_ptr_array_add(c.outcomes, measure(1687651200, "v6.4"));
	g_ptr_array_add(c.outcomes, measure(now + 200 * DAY, NULL));
	g_ptr_array_add(cases, &c);
	dc_outcome_expiring(cases, now, 30, NULL, &hits);
	assert_int_equal(hits->len, 1);
	g_ptr_array_unref(hits);
	dc_outcome_expiring(cases, now, 10, NULL, &hits);
	assert_int_equal(hits->len, 0);
	g_ptr_array_unref(hits);
	/* By release: ends at or before v6.5 (v6.4, and the dated one is
	 * after 6.5's date). */
	dc_release_parse("v6.5", &r, NULL);
	dc_outcome_expiring(cases, now, -1, &r, &hits);
	assert_int_equal(hits->len, 1);
	g_ptr_array_unref(hits);
	dc_release_parse("v6.8", &r, NULL);
	dc_outcome_expiring(cases, now, -1, &r, &hits);
	assert_int_equal(hits->len, 2);
	g_ptr_array_unref(hits);
	/* A closed case needs no reminder. */
	c.state = (char *)"closed";
	dc_outcome_expiring(cases, now, 1000, NULL, &hits);
	assert_int_equal(hits->len, 0);
	g_ptr_array_unref(hits);
	g_ptr_array_unref(c.outcomes);
	g_ptr_array_unref(cases);
}

static void
test_ladder(void **state)
{
	dc_outcome_kind_t k;

	(void)state;
	assert_true(DC_OUTCOME_NO_ACTION < DC_OUTCOME_COACHING);
	assert_true(DC_OUTCOME_APOLOGY < DC_OUTCOME_MEASURE);
	assert_true(DC_OUTCOME_MEASURE < DC_OUTCOME_TAB);
	assert_int_equal(dc_outcome_parse("tab-referral", &k, NULL), DC_OK);
	assert_int_equal(k, DC_OUTCOME_TAB);
	assert_int_equal(dc_outcome_parse("ban", &k, NULL), DC_E_USAGE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_and_estimated),
		cmocka_unit_test(test_after_and_at),
		cmocka_unit_test(test_when),
		cmocka_unit_test(test_until),
		cmocka_unit_test(test_expiry),
		cmocka_unit_test(test_ladder),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
