// SPDX-License-Identifier: GPL-3.0-or-later
/* The structured printer: nesting, the one rule for times, the sanitizer
 * and the filter on every string of mail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "core/base/sprinter.h"

static void
test_nesting(void **state)
{
	dc_sp_t *sp = dc_sp_json_new(0);
	char *out;

	dc_sp_map(sp);
	dc_sp_key(sp, "a");
	dc_sp_list(sp);
	dc_sp_int(sp, 1);
	dc_sp_map(sp);
	dc_sp_kbool(sp, "b", 1);
	dc_sp_end(sp);
	dc_sp_null(sp);
	dc_sp_end(sp);
	dc_sp_kid(sp, "none", 0);
	dc_sp_kid(sp, "some", 7);
	dc_sp_end(sp);
	dc_sp_end(sp); /* one end too many writes nothing */
	out = dc_sp_finish(sp);
	assert_string_equal(out, "{\"a\":[1,{\"b\":true},null],"
				 "\"none\":null,\"some\":7}");
	g_free(out);
}

static void
test_times(void **state)
{
	dc_sp_t *sp = dc_sp_json_new(0);
	char *out;

	dc_sp_list(sp);
	dc_sp_time(sp, 0); /* unknown: null, never 1970 */
	dc_sp_time(sp, 1764000000);
	dc_sp_time(sp, INT64_MAX); /* out of range: null */
	dc_sp_end(sp);
	out = dc_sp_finish(sp);
	assert_string_equal(out, "[null,\"2025-11-24T16:00:00Z\",null]");
	g_free(out);
	assert_null(dc_iso8601(0));
}

static char *
upper(const char *s, void *data)
{
	(*(int *)data)++;
	return g_ascii_strup(s, -1);
}

static void
test_mail_strings(void **state)
{
	dc_sp_t *sp = dc_sp_json_new(0);
	GPtrArray *tags = g_ptr_array_new();
	int calls = 0;
	char *out;

	g_ptr_array_add(tags, "a\033[2Jb");
	dc_sp_set_filter(sp, upper, &calls);
	dc_sp_map(sp);
	dc_sp_kmail(sp, "line", "x\ny\033]0;t\007");
	dc_sp_kmail_text(sp, "text", "one\ntwo");
	dc_sp_kmail(sp, "none", NULL);
	dc_sp_kstring(sp, "own", "kept as is");
	dc_sp_kmail_list(sp, "tags", tags);
	dc_sp_end(sp);
	out = dc_sp_finish(sp);
	/* No escape reaches the output; the filter sees every mail string
	 * after the sanitizer, and none of the program's own. */
	assert_null(strchr(out, '\033'));
	assert_null(strchr(out, '\007'));
	assert_non_null(strstr(out, "\"text\":\"ONE\\nTWO\""));
	assert_non_null(strstr(out, "\"none\":null"));
	assert_non_null(strstr(out, "\"own\":\"kept as is\""));
	assert_int_equal(calls, 3);
	g_free(out);
	g_ptr_array_unref(tags);
}

static void
test_pretty(void **state)
{
	dc_sp_t *sp = dc_sp_json_new(1);
	char *out;

	dc_sp_map(sp);
	dc_sp_kint(sp, "n", 1);
	dc_sp_end(sp);
	out = dc_sp_finish(sp);
	assert_string_equal(out, "{\n  \"n\": 1\n}\n");
	g_free(out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_mail_strings),
		cmocka_unit_test(test_pretty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
