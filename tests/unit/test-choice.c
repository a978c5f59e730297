// SPDX-License-Identifier: GPL-3.0-or-later
/* A word chosen from a fixed list: exact names, unique prefixes, and the
 * names a prefix leaves open (what the TUI's prompts complete with Tab). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "core/base/choice.h"

static const char *const states[] = {
	"new", "acknowledged", "investigating", "decided", "closed", NULL,
};
static const char *const outcomes[] = {
	"no-action", "admonition", "coaching", "amend", "apology", "measure",
	"tab-referral",
};
/* A name that is the prefix of another is still chosen by itself. */
static const char *const nested[] = { "tab", "tab-referral", NULL };

static void
test_resolve(void **state)
{
	(void)state;
	assert_int_equal(dc_choice_resolve(states, -1, "investigating"), 2);
	assert_int_equal(dc_choice_resolve(states, -1, "inv"), 2);
	assert_int_equal(dc_choice_resolve(states, -1, "i"), 2);
	assert_int_equal(dc_choice_resolve(states, -1, "c"), 4);
	assert_int_equal(dc_choice_resolve(states, -1, "x"), -1);
	assert_int_equal(dc_choice_resolve(states, -1, ""), -1);
	assert_int_equal(dc_choice_resolve(states, -1, NULL), -1);
	/* A prefix is not a suffix or a middle. */
	assert_int_equal(dc_choice_resolve(states, -1, "gating"), -1);
	/* Longer than every name. */
	assert_int_equal(dc_choice_resolve(states, -1, "newer"), -1);
	assert_int_equal(dc_choice_resolve(outcomes, 7, "a"), -2);
	assert_int_equal(dc_choice_resolve(outcomes, 7, "ad"), 1);
	assert_int_equal(dc_choice_resolve(outcomes, 7, "ap"), 4);
	assert_int_equal(dc_choice_resolve(outcomes, 7, "t"), 6);
	assert_int_equal(dc_choice_resolve(nested, -1, "tab"), 0);
	assert_int_equal(dc_choice_resolve(nested, -1, "ta"), -2);
	assert_int_equal(dc_choice_resolve(nested, -1, "tab-"), 1);
}

static void
test_matches(void **state)
{
	GPtrArray *m;

	(void)state;
	m = dc_choice_matches(outcomes, 7, "a");
	assert_int_equal(m->len, 3);
	assert_string_equal(m->pdata[0], "admonition");
	assert_string_equal(m->pdata[1], "amend");
	assert_string_equal(m->pdata[2], "apology");
	g_ptr_array_unref(m);
	m = dc_choice_matches(states, -1, "");
	assert_int_equal(m->len, 5);
	g_ptr_array_unref(m);
	m = dc_choice_matches(states, -1, "zz");
	assert_int_equal(m->len, 0);
	g_ptr_array_unref(m);
}

static void
test_parse_and_list(void **state)
{
	dc_error_t err = { 0 };
	char *l;
	int i = -1;

	(void)state;
	/* What the command line takes stays exact: scripts keep meaning
	 * what they say when a name is added. */
	assert_int_equal(dc_choice_parse(states, -1, "state", "inv", &i, &err),
			 DC_E_USAGE);
	assert_non_null(strstr(err.msg, "unknown state 'inv' (new, "
					"acknowledged, investigating, decided "
					"or closed)"));
	dc_error_clear(&err);
	assert_int_equal(dc_choice_parse(states, -1, "state", "closed", &i,
					 NULL),
			 DC_OK);
	assert_int_equal(i, 4);
	l = dc_choice_list(nested, -1);
	assert_string_equal(l, "tab or tab-referral");
	g_free(l);
	l = dc_choice_list(states, 1);
	assert_string_equal(l, "new");
	g_free(l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_matches),
		cmocka_unit_test(test_parse_and_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
