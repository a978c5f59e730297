// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Redaction (core/privacy/redact.c): every form of a reporter in text and in a
 * message, and the compiled plan it keeps per identity set never being
 * used for another set or for an older state of the same set.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <gmime/gmime.h>
#include <string.h>

#include "core/privacy/privacy.h"
#include "core/privacy/redact.h"

static void
assert_redacts(const dc_identity_set_t *set, const char *in,
	       const char *want)
{
	char *out = dc_redact_text(in, set);

	assert_string_equal(out, want);
	g_free(out);
}

static void
test_text_forms(void **state)
{
	dc_identity_set_t *set = dc_identity_set_new();

	(void)state;
	dc_identity_add(set, "Reporter A", "Alice Quux", "Alice.Quux@example.org");
	assert_redacts(set, "mail ALICE.QUUX@Example.ORG now",
		       "mail reporter-a@redacted.invalid now");
	assert_redacts(set, "Signed-off-by: Alice Quux",
		       "Signed-off-by: Reporter A");
	/* Name words and local part as whole words only, any case. */
	assert_redacts(set, "quux said, alice.quux agreed; Quuxes differ",
		       "Reporter A said, reporter-a agreed; Quuxes differ");
	assert_redacts(set, "Hi alice,", "Hi Reporter A,");
	/* Nobody named: unchanged, invalid UTF-8 made valid. */
	assert_redacts(set, "nothing here", "nothing here");
	assert_redacts(set, "bad \xff byte", "bad \xef\xbf\xbd byte");
	/* What is left of a name is one label, not fragments. */
	dc_identity_add(set, "Reporter A", "Hamid Al-Rashid",
			"alice.quux@example.org");
	assert_redacts(set, "From Hamid Al-Rashid (Hamid bin Rashid)",
		       "From Reporter A");
	assert_redacts(set, "Hi Hamid, and Alice Quux",
		       "Hi Reporter A, and Reporter A");
	assert_redacts(set, "Rashid's dad", "Reporter A's dad");
	/* A personal domain goes; a big provider's stays. */
	dc_identity_add(set, "Reporter C", NULL, "zed@n01se.net");
	assert_redacts(set, "zed at n01se.net, list.n01se.net and gmail.com",
		       "reporter-c at redacted.invalid, list.redacted.invalid "
		       "and gmail.com");
	assert_true(dc_domain_is_personal("n01se.net"));
	assert_false(dc_domain_is_personal("gmail.com"));
	assert_false(dc_domain_is_personal("mail.gmail.com"));
	assert_false(dc_domain_is_personal("kernel.org"));
	assert_false(dc_domain_is_personal("example.org"));
	/* Needles shorter than three characters are left alone. */
	dc_identity_add(set, "Reporter B", "Bo", "bo@example.net");
	assert_redacts(set, "Bo wrote to bo@example.net",
		       "Bo wrote to reporter-b@redacted.invalid");
	dc_identity_set_free(set);
}

static void
test_plan_follows_the_set(void **state)
{
	dc_identity_set_t *a = dc_identity_set_new();
	dc_identity_set_t *b = dc_identity_set_new();
	int i;

	(void)state;
	dc_identity_add(a, "Reporter A", "Alice Quux", "alice@example.org");
	dc_identity_add(b, "Reporter A", "Carol Zed", "carol@example.com");
	/* Alternating sets never take one's plan for the other's. */
	for (i = 0; i < 3; i++) {
		assert_redacts(a, "Alice Quux and Carol Zed",
			       "Reporter A and Carol Zed");
		assert_redacts(b, "Alice Quux and Carol Zed",
			       "Alice Quux and Reporter A");
	}
	/* A person added after a redaction is redacted from then on. */
	assert_redacts(a, "ping dora@example.net", "ping dora@example.net");
	dc_identity_add(a, "Reporter B", NULL, "dora@example.net");
	assert_redacts(a, "ping dora@example.net",
		       "ping reporter-b@redacted.invalid");
	/* And a name added to a known address. */
	dc_identity_add(a, "Reporter B", "Dora Vex", "dora@example.net");
	assert_redacts(a, "thanks, Dora Vex", "thanks, Reporter B");
	dc_identity_set_free(a);
	dc_identity_set_free(b);
	/* A new set, perhaps at a freed one's address, starts empty. */
	a = dc_identity_set_new();
	assert_redacts(a, "Alice Quux, dora@example.net",
		       "Alice Quux, dora@example.net");
	dc_identity_set_free(a);
}

static void
test_message(void **state)
{
	static const char msg[] =
		"Received: from mail.example.org by mx.example.com\n"
		"From: Alice Quux <alice@example.org>\n"
		"To: Carol Zed <carol@example.com>\n"
		"Subject: =?utf-8?q?About_Alice_Quux?=\n"
		"Message-ID: <1@example.org>\n"
		"Content-Type: text/plain; charset=utf-8\n"
		"Content-Transfer-Encoding: base64\n"
		"\n"
		/* "Alice Quux <alice@example.org> wrote:\n" */
		"QWxpY2UgUXV1eCA8YWxpY2VAZXhhbXBsZS5vcmc+IHdyb3RlOgo=\n";
	dc_identity_set_t *set = dc_identity_set_new();
	dc_error_t err = { 0 };
	char *out = NULL, *body;
	size_t len = 0;
	GMimeMessage *m;
	GMimeParser *p;
	GMimeStream *s;
	GMimeObject *part;

	(void)state;
	dc_identity_add(set, "Reporter A", "Alice Quux", "alice@example.org");
	assert_int_equal(dc_redact_message(msg, sizeof(msg) - 1, set, &out,
					   &len, &err),
			 DC_OK);
	assert_int_equal(strlen(out), len);
	assert_null(strstr(out, "Received:"));
	assert_null(strstr(out, "alice@"));
	assert_null(strstr(out, "Alice"));
	s = g_mime_stream_mem_new_with_buffer(out, len);
	p = g_mime_parser_new_with_stream(s);
	m = g_mime_parser_construct_message(p, NULL);
	assert_non_null(m);
	assert_string_equal(g_mime_message_get_subject(m), "About Reporter A");
	body = internet_address_list_to_string(g_mime_message_get_from(m),
					       NULL, FALSE);
	assert_string_equal(body,
			    "Reporter A <reporter-a@redacted.invalid>");
	g_free(body);
	part = g_mime_message_get_mime_part(m);
	assert_int_equal(g_mime_part_get_content_encoding(GMIME_PART(part)),
			 GMIME_CONTENT_ENCODING_BASE64);
	body = g_mime_text_part_get_text(GMIME_TEXT_PART(part));
	assert_string_equal(body,
			    "Reporter A <reporter-a@redacted.invalid> wrote:\n");
	g_free(body);
	g_object_unref(m);
	g_object_unref(p);
	g_object_unref(s);
	g_free(out);
	dc_identity_set_free(set);
}

/* Identities glued into Message-IDs and lore links: rewritten the same
 * way everywhere in one packet (threading holds), found by the scan. */
static void
test_message_ids(void **state)
{
	dc_identity_set_t *set = dc_identity_set_new();
	dc_identity_set_t *other = dc_identity_set_new();
	static const char msg[] =
		"From: Carol <carol@example.org>\r\n"
		"To: conduct@kernel.org\r\n"
		"Subject: Re: report\r\n"
		"Message-ID: <reply1@example.org>\r\n"
		"In-Reply-To: <msg.qreporterson@example.net>\r\n"
		"References: <first@example.org> <msg.qreporterson@example.net>\r\n"
		"\r\n"
		"See https://lore.kernel.org/all/CAQreporterson+abc@mail.gmail.com/\r\n";
	dc_identity_hit_t hit;
	char *a, *b, *c, *out = NULL;
	size_t len;

	(void)state;
	dc_identity_add(set, "Reporter A", "Quentin Reporterson",
			"quentin@quentin-reporterson.net");
	dc_identity_add(set, "Reporter B", NULL, "eve@example.com");
	dc_identity_add(other, "Reporter A", "Quentin Reporterson",
			"quentin@quentin-reporterson.net");
	assert_true(dc_identity_in_token(set, "msg.qreporterson@example.net"));
	assert_true(dc_identity_in_token(set, "CAQreporterson+abc@mail.gmail.com"));
	assert_true(dc_identity_in_token(set, "quentinreporterson.1@example.com"));
	assert_true(dc_identity_in_token(set, "x.1@quentin-reporterson.net"));
	assert_false(dc_identity_in_token(set, "20261009.1-1-carol@example.org"));
	/* Short local parts do not count inside other words. */
	assert_false(dc_identity_in_token(set, "steve@example.org"));

	a = dc_redact_msgid("msg.qreporterson@example.net", set);
	b = dc_redact_msgid("msg.qreporterson@example.net", set);
	c = dc_redact_msgid("msg.qreporterson@example.net", other);
	assert_string_equal(a, b);
	assert_string_not_equal(a, c); /* keyed per set: not guessable */
	assert_non_null(strstr(a, "@redacted.invalid"));
	g_free(b);
	g_free(c);
	b = dc_redact_msgid("reply1@example.org", set);
	assert_string_equal(b, "reply1@example.org");
	g_free(b);

	assert_true(dc_identity_scan(set, msg, strlen(msg), &hit));
	assert_int_equal(dc_redact_message(msg, strlen(msg), set, &out, &len,
					   NULL),
			 DC_OK);
	assert_null(strstr(out, "reporterson"));
	assert_non_null(strstr(out, "<reply1@example.org>"));
	assert_non_null(strstr(out, "<first@example.org>"));
	b = g_strdup_printf("In-Reply-To: <%s>", a);
	assert_non_null(strstr(out, b)); /* the same stand-in in each */
	g_free(b);
	/* References too (GMime may fold it onto two lines). */
	b = strstr(out, "References:");
	assert_non_null(b);
	assert_non_null(strstr(b, a));
	assert_false(dc_identity_scan(set, out, strlen(out), &hit));
	g_free(out);
	g_free(a);
	dc_identity_set_free(other);
	dc_identity_set_free(set);
}

/* Decoded before matching, handles, the committee's addresses, the
 * refusal's words, and a stub for what cannot be read. */
static void
test_decoded_and_stubbed(void **state)
{
	dc_identity_set_t *set = dc_identity_set_new();
	static const char msg[] =
		"From: Quentin Reporterson <q.reporterson@example.net>\n"
		"To: conduct@kernel.org\n"
		"Subject: report\n"
		"Message-ID: <t1@example.org>\n"
		"MIME-Version: 1.0\n"
		"Content-Type: multipart/mixed; boundary=b\n\n"
		"--b\nContent-Type: text/html\n\n<p>&#81;uentin</p>\n"
		"--b\nContent-Type: application/octet-stream\n"
		"Content-Transfer-Encoding: base64\n\nUXVlbnRpbg==\n--b--\n";
	dc_identity_hit_t hit;
	char *out = NULL, *why;
	size_t len = 0;

	(void)state;
	dc_identity_set_case(set, 7);
	dc_identity_add(set, "Reporter A", "Quentin Reporterson",
			"q.reporterson@example.net");
	assert_redacts(set, "mailto:%71%2E%72%65%70%6F%72%74%65%72%73%6F%6E"
			    "%40example.net", "mailto:reporter-a@redacted.invalid");
	assert_redacts(set, "Quen\u200btin", "Reporter A");
	assert_redacts(set, "github.com/qreporterson/x",
		       "github.com/reporter-a/x");
	assert_int_equal(dc_redact_message(msg, strlen(msg), set, &out, &len,
					   NULL),
			 DC_OK);
	assert_null(strstr(out, "UXVlbnRpbg"));
	assert_non_null(strstr(out, "type: application/octet-stream"));
	assert_non_null(strstr(out, "SHA-256: "));
	assert_false(dc_identity_scan(set, out, len, &hit));
	g_free(out);
	/* The unredacted mail: its binary part is unreadable, a hit. */
	assert_true(dc_identity_scan(set, msg, strlen(msg), &hit));
	why = dc_identity_hit_describe(set, "thread.mbox", &hit);
	assert_non_null(strstr(why, "case 7, thread.mbox line "));
	assert_null(strstr(why, "Quentin"));
	assert_null(strstr(why, "\n"));
	g_free(why);
	/* A committee address is not looked inside. */
	dc_identity_add(set, "Reporter B", "Eve Example", "eve@example.org");
	dc_identity_set_ignore(set, "carol@example.org");
	assert_false(dc_identity_scan(set, "by carol@example.org", 20, &hit));
	assert_true(dc_identity_scan(set, "by Eve Example", 14, &hit));
	dc_identity_set_free(set);
}

static int
scan_hits(dc_identity_set_t *set, const char *text)
{
	dc_identity_hit_t hit;

	return dc_identity_scan(set, text, strlen(text), &hit);
}

/* Every form on word boundaries: an alias inside a longer word, or a
 * local part inside one, names nobody. */
static void
test_whole_words(void **state)
{
	dc_identity_set_t *set = dc_identity_set_new();

	(void)state;
	dc_identity_add(set, "Reporter A", "Quentin Reporterson",
			"q.reporterson@example.net");
	dc_identity_add(set, "Reporter A", "Quen", "q.reporterson@example.net");
	dc_identity_add(set, "Reporter B", "Eve Example", "eve@example.org");
	assert_false(scan_hits(set, "a frequent problem, every time"));
	assert_false(scan_hits(set, "mail to steve@kernel.org"));
	assert_redacts(set, "a frequent problem, every time",
		       "a frequent problem, every time");
	assert_true(scan_hits(set, "Hi Quen,"));
	assert_true(scan_hits(set, "thanks, quen."));
	assert_true(scan_hits(set, "ask eve@example.org"));
	assert_true(scan_hits(set, "Reporterson\u2019s patch"));
	assert_redacts(set, "Hi Quen, frequently", "Hi Reporter A, frequently");
	dc_identity_set_free(set);
}

/* "Will Mark": the lowercase words "will" and "mark" in a sentence are
 * kept; the name and each part with a capital are still redacted and
 * found, and the address and its local part always. */
static void
test_common_word_names(void **state)
{
	dc_identity_set_t *set = dc_identity_set_new();

	(void)state;
	assert_true(dc_word_is_common("Will"));
	assert_false(dc_word_is_common("Reporterson"));
	assert_true(dc_form_is_common("Will Mark"));
	assert_false(dc_form_is_common("Will Reporterson"));
	dc_identity_add(set, "Reporter A", "Will Mark", "wmark@example.net");
	assert_redacts(set, "I will mark the thread.", "I will mark the thread.");
	assert_redacts(set, "Will Mark said so.", "Reporter A said so.");
	assert_redacts(set, "WILL MARK said so.", "Reporter A said so.");
	assert_redacts(set, "Thanks, Will", "Thanks, Reporter A");
	assert_redacts(set, "ask Mark.", "ask Reporter A.");
	assert_redacts(set, "mail wmark", "mail reporter-a");
	assert_false(scan_hits(set, "I will mark the thread."));
	assert_true(scan_hits(set, "Will Mark said so."));
	assert_true(scan_hits(set, "ask Mark."));
	assert_true(scan_hits(set, "ask &#77;ark."));
	assert_true(scan_hits(set, "see wmark@example.net"));
	assert_true(scan_hits(set, "see wmark"));
	dc_identity_set_free(set);
	/* A name with a part that is not a common word: that part in any
	 * case, and the whole name in any case. */
	set = dc_identity_set_new();
	dc_identity_add(set, "Reporter A", "Will Reporterson",
			"wr@example.net");
	assert_redacts(set, "will reporterson wrote", "Reporter A wrote");
	assert_redacts(set, "I will ask reporterson", "I will ask Reporter A");
	assert_true(scan_hits(set, "will reporterson"));
	dc_identity_set_free(set);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_forms),
		cmocka_unit_test(test_plan_follows_the_set),
		cmocka_unit_test(test_message),
		cmocka_unit_test(test_message_ids),
		cmocka_unit_test(test_decoded_and_stubbed),
		cmocka_unit_test(test_whole_words),
		cmocka_unit_test(test_common_word_names),
	};

	g_mime_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
