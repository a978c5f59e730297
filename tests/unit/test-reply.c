// SPDX-License-Identifier: GPL-3.0-or-later
/* Acknowledgement templates: {case} and {subject} filled, braces kept,
 * a misspelt placeholder or {case} without a case refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "core/mail/reply.h"

static void
test_fill(void **state)
{
	dc_error_t err = { 0 };
	char *out = NULL;

	(void)state;
	assert_int_equal(dc_reply_fill("Case {case}: {subject}.", 12,
				       "a review", &out, &err),
			 DC_OK);
	assert_string_equal(out, "Case 12: a review.");
	g_free(out);
	assert_int_equal(dc_reply_fill("{{case}} and }} {", 3, NULL, &out,
				       &err),
			 DC_OK);
	assert_string_equal(out, "{case} and } {");
	g_free(out);
	assert_int_equal(dc_reply_fill("", 0, NULL, &out, &err), DC_OK);
	assert_string_equal(out, "");
	g_free(out);
}

static void
test_refused(void **state)
{
	dc_error_t err = { 0 };
	char *out = NULL;

	(void)state;
	assert_int_equal(dc_reply_fill("Dear {nmae}", 1, "s", &out, &err),
			 DC_E_USAGE);
	assert_null(out);
	assert_non_null(strstr(err.msg, "{nmae}"));
	assert_int_equal(dc_reply_fill("Case {case}", 0, "s", &out, &err),
			 DC_E_INVALID);
	assert_null(out);
	assert_non_null(strstr(err.msg, "no case"));
}

static void
test_no_sendmail(void **state)
{
	dc_config_t *c = dc_config_load("/nonexistent/decorum-config");
	dc_reply_sent_t r = { 0 };
	dc_error_t err = { 0 };

	(void)state;
	assert_int_equal(dc_reply_can_send(c, &err), DC_E_USAGE);
	assert_non_null(strstr(err.msg, "[mail] sendmail"));
	assert_int_equal(dc_reply_send(c, NULL, "To: a@example.org\n\nhi\n",
				       0, &r, &err),
			 DC_E_USAGE);
	assert_null(r.message_id);
	dc_config_free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fill),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_no_sendmail),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
