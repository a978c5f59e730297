// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The case filter of decorum cases and the cases view: its words, what
 * passes it, and the list by last activity on a real store.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ftw.h>
#include <stdio.h>
#include <string.h>

#include "core/case/case.h"
#include "core/case/filter.h"

#define T0 1700000000 /* 2023-11-14 */
#define DAY 86400

static char *
describe(const char *words)
{
	dc_case_filter_t f = { 0 };
	dc_error_t err = { 0 };

	if (dc_case_filter_parse(&f, words, &err) != DC_OK)
		fail_msg("parse '%s': %s", words, err.msg);
	return dc_case_filter_describe(&f);
}

static void
test_words(void **state)
{
	char *d;

	(void)state;
	/* Prefixes are taken; the words come back whole, in one order. */
	d = describe("esc  op 30d");
	assert_string_equal(d, "open escalation 30d");
	g_free(d);
	d = describe("closed inv tab adm 7");
	assert_string_equal(d, "investigating closed admonition tab 7d");
	g_free(d);
	/* "all" clears what came before it; nothing is no filter. */
	d = describe("open tab all");
	assert_string_equal(d, "");
	g_free(d);
	d = describe("");
	assert_string_equal(d, "");
	g_free(d);
	/* open and closed together: every state, said as both. */
	d = describe("closed open");
	assert_string_equal(d, "open closed");
	g_free(d);
}

static void
test_bad_words(void **state)
{
	dc_case_filter_t f = { .kinds = 1 };
	dc_error_t err = { 0 };

	(void)state;
	assert_int_equal(dc_case_filter_parse(&f, "open bogus", &err),
			 DC_E_USAGE);
	assert_non_null(strstr(err.msg, "unknown filter 'bogus'"));
	/* A failed parse leaves the filter as it was. */
	assert_int_equal(f.kinds, 1);
	assert_int_equal(f.states, 0);
	dc_error_clear(&err);
	assert_int_equal(dc_case_filter_parse(&f, "a", &err), DC_E_USAGE);
	assert_non_null(strstr(err.msg, "could be"));
	assert_non_null(strstr(err.msg, "admonition"));
	dc_error_clear(&err);
	assert_int_equal(dc_case_filter_parse(&f, "0d", &err), DC_E_USAGE);
	dc_error_clear(&err);
	assert_int_equal(dc_case_filter_parse(&f, "30x", &err), DC_E_USAGE);
	dc_error_clear(&err);
}

static void
test_match(void **state)
{
	dc_case_t c = { .id = 1, .kind = DC_KIND_TAB, .state = "decided",
			.created_at = T0 - 10 * DAY };
	dc_case_filter_t f = { 0 };
	const int64_t now = T0;

	(void)state;
	assert_true(dc_case_filter_match(&f, &c, now));
	assert_true(dc_case_filter_match(NULL, &c, now));
	dc_case_filter_parse(&f, "open", NULL);
	assert_true(dc_case_filter_match(&f, &c, now));
	dc_case_filter_parse(&f, "closed", NULL);
	assert_false(dc_case_filter_match(&f, &c, now));
	dc_case_filter_parse(&f, "escalation admonition", NULL);
	assert_false(dc_case_filter_match(&f, &c, now));
	dc_case_filter_parse(&f, "escalation tab", NULL);
	assert_true(dc_case_filter_match(&f, &c, now));
	dc_case_filter_parse(&f, "10d", NULL);
	assert_true(dc_case_filter_match(&f, &c, now));
	dc_case_filter_parse(&f, "9d", NULL);
	assert_false(dc_case_filter_match(&f, &c, now));
	/* A withdrawn case passes no state word. */
	c.state = "withdrawn";
	dc_case_filter_parse(&f, "open closed", NULL);
	assert_false(dc_case_filter_match(&f, &c, now));
	dc_case_filter_parse(&f, "", NULL);
	assert_true(dc_case_filter_match(&f, &c, now));
}

static int
rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static int64_t
tag(dc_store_t *s, const char *thread, dc_kind_t kind, int64_t now)
{
	char *mid = g_strdup_printf("%s.report@example.org", thread);
	const char *ids[] = { mid, NULL };
	dc_tag_request_t req = {
		.thread_id = thread, .message_ids = ids, .kind = kind,
		.actor = "maint@example.org", .subject = "s",
		.reported_at = now - DAY, .now = now,
	};
	dc_error_t err = { 0 };
	int64_t id = 0;
	int created;

	if (dc_case_tag(s, &req, &id, &created, &err) != DC_OK)
		fail_msg("tag: %s", err.msg);
	g_free(mid);
	return id;
}

static char *
ids(dc_store_t *s, const char *words, int order)
{
	dc_case_filter_t f = { 0 };
	GPtrArray *a = NULL;
	GString *r = g_string_new(NULL);
	guint i;

	assert_int_equal(dc_case_filter_parse(&f, words, NULL), DC_OK);
	assert_int_equal(dc_case_list_filtered(s, &f, 0, order, T0 + 30 * DAY,
					       &a, NULL),
			 DC_OK);
	for (i = 0; i < a->len; i++)
		g_string_append_printf(r, "%s%" G_GINT64_FORMAT, i ? " " : "",
				       (gint64)((dc_case_t *)a->pdata[i])->id);
	g_ptr_array_unref(a);
	return g_string_free(r, FALSE);
}

static void
test_list(void **state)
{
	char *dir = g_dir_make_tmp("test-filter-XXXXXX", NULL);
	char *path = g_build_filename(dir, "decorum.db", NULL), *r;
	dc_error_t err = { 0 };
	dc_store_t *s = NULL;

	(void)state;
	if (dc_store_open(path, &s, &err) != DC_OK)
		fail_msg("open: %s", err.msg);
	/* Opened on days 0, 10 and 20; case 1 is the last active, closed on
	 * day 25; case 2 has a note on day 22. */
	tag(s, "t1", DC_KIND_ESCALATION, T0);
	tag(s, "t2", DC_KIND_TAB, T0 + 10 * DAY);
	tag(s, "t3", DC_KIND_ADMONITION, T0 + 20 * DAY);
	assert_int_equal(dc_case_note(s, 2, "later", "maint@example.org",
				      T0 + 22 * DAY, NULL),
			 DC_OK);
	assert_int_equal(dc_case_set_state(s, 1, "closed", NULL,
					   "maint@example.org", T0 + 25 * DAY,
					   NULL),
			 DC_OK);

	r = ids(s, "", DC_CASES_BY_NUMBER);
	assert_string_equal(r, "1 2 3");
	g_free(r);
	r = ids(s, "", DC_CASES_BY_ACTIVITY);
	assert_string_equal(r, "1 2 3");
	g_free(r);
	r = ids(s, "open", DC_CASES_BY_ACTIVITY);
	assert_string_equal(r, "2 3");
	g_free(r);
	/* Now (day 30): opened within 15 days is case 3 alone. */
	r = ids(s, "15d", DC_CASES_BY_ACTIVITY);
	assert_string_equal(r, "3");
	g_free(r);
	r = ids(s, "tab closed", DC_CASES_BY_ACTIVITY);
	assert_string_equal(r, "");
	g_free(r);
	/* A note on case 3 after everything makes it the last active. */
	assert_int_equal(dc_case_note(s, 3, "latest", "maint@example.org",
				      T0 + 28 * DAY, NULL),
			 DC_OK);
	r = ids(s, "", DC_CASES_BY_ACTIVITY);
	assert_string_equal(r, "3 1 2");
	g_free(r);
	dc_store_close(s);
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	g_free(path);
	g_free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_bad_words),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
