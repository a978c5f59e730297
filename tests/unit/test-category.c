// SPDX-License-Identifier: GPL-3.0-or-later
/* Categories: the default list, a configured one, and matching. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "core/case/category.h"

static void
test_default_list(void **state)
{
	char **l = dc_category_split(NULL), **e = dc_category_split(" ; \n");

	(void)state;
	assert_int_equal(g_strv_length(l), 3);
	assert_string_equal(l[0], "development-process related");
	assert_string_equal(l[1], "scope and enforcement related");
	assert_string_equal(l[2], "unacceptable behaviour or comments");
	/* Only blanks: the defaults, not an empty list. */
	assert_int_equal(g_strv_length(e), 3);
	g_strfreev(l);
	g_strfreev(e);
}

static void
test_configured_list(void **state)
{
	char **l = dc_category_split(" harassment ;review tone\nscope;;");

	(void)state;
	assert_int_equal(g_strv_length(l), 3);
	assert_string_equal(l[0], "harassment");
	assert_string_equal(l[1], "review tone");
	assert_string_equal(l[2], "scope");
	g_strfreev(l);
}

static void
test_match(void **state)
{
	char **l = dc_category_split("review tone; review process; scope");
	dc_error_t err = { 0 };

	(void)state;
	assert_string_equal(dc_category_match(l, "  Review Tone ", NULL),
			    "review tone");
	assert_string_equal(dc_category_match(l, "sc", NULL), "scope");
	/* "scope" is both whole and a prefix of nothing else. */
	assert_string_equal(dc_category_match(l, "scope", NULL), "scope");
	assert_null(dc_category_match(l, "review", &err));
	assert_int_equal(err.status, DC_E_USAGE);
	assert_non_null(strstr(err.msg, "ambiguous"));
	assert_non_null(strstr(err.msg, "\"review process\""));
	assert_null(dc_category_match(l, "", &err));
	assert_null(dc_category_match(l, "tone", &err));
	assert_non_null(strstr(err.msg, "unknown category 'tone'"));
	g_strfreev(l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_list),
		cmocka_unit_test(test_configured_list),
		cmocka_unit_test(test_match),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
