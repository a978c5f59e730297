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

/* The reply goes out from the acting identity, with the user's name. */
static void
test_from(void **state)
{
	const char *d = "From: Test User <test@example.org>\nTo: r@example.net\n"
			"Subject: Re: x\n\nFrom: a body line\n";
	const char *folded = "To: r@example.net\nFrom: Test User\n"
			     " <test@example.org>\nSubject: s\n\nbody\n";
	char *out;

	(void)state;
	out = dc_reply_from(d, "conduct@example.org");
	assert_string_equal(out, "From: Test User <conduct@example.org>\n"
				 "To: r@example.net\nSubject: Re: x\n\n"
				 "From: a body line\n");
	g_free(out);
	out = dc_reply_from(d, "Zoë Ødegaard <zoe@example.org>");
	assert_non_null(strstr(out, "From: Zoë Ødegaard <zoe@example.org>\n"));
	g_free(out);
	out = dc_reply_from(folded, "c@example.org");
	assert_string_equal(out, "To: r@example.net\nFrom: Test User "
				 "<c@example.org>\nSubject: s\n\nbody\n");
	g_free(out);
	/* No From in the draft: one is added, without a name. */
	out = dc_reply_from("To: r@example.net\n\nbody\n", "c@example.org");
	assert_string_equal(out, "From: c@example.org\nTo: r@example.net\n"
				 "\nbody\n");
	g_free(out);
	/* A login name is no address: the draft keeps its From. */
	out = dc_reply_from(d, "root");
	assert_string_equal(out, d);
	g_free(out);
	out = dc_reply_from(d, NULL);
	assert_string_equal(out, d);
	g_free(out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fill),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_no_sendmail),
		cmocka_unit_test(test_from),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
