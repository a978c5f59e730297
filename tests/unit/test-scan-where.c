// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Where the identity scan says a hit is (core/privacy/privacy.c): the line
 * of the file as written for what the file shows (even encoded: base64,
 * quoted-printable, entities), and the message, the part and the line of
 * its decoded text for what only the decoded mail shows.  Each probe
 * below names the reporter once, at a line known by construction.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <gmime/gmime.h>
#include <string.h>

#include "core/privacy/privacy.h"

static dc_identity_set_t *
reporter(void)
{
	dc_identity_set_t *set = dc_identity_set_new();

	dc_identity_set_case(set, 7);
	dc_identity_add(set, "Reporter A", "Quentin Reporterson",
			"q.reporterson@example.net");
	return set;
}

/* The 1-based line of the first occurrence of mark in data. */
static guint
line_with(const char *data, const char *mark)
{
	const char *p = strstr(data, mark), *q;
	guint line = 1;

	assert_non_null(p);
	for (q = data; q < p; q++)
		line += *q == '\n';
	return line;
}

static void
assert_where(const char *data, const char *want_where, guint want_line)
{
	dc_identity_set_t *set = reporter();
	dc_identity_hit_t hit;
	char *why, *want;

	memset(&hit, 0, sizeof(hit));
	assert_true(dc_identity_scan(set, data, strlen(data), &hit));
	if (strcmp(hit.where, want_where))
		fail_msg("where: got \"%s\", want \"%s\"", hit.where,
			 want_where);
	assert_int_equal(hit.line, want_line);
	why = dc_identity_hit_describe(set, "thread.mbox", &hit);
	want = g_strdup_printf("case 7, thread.mbox%s%s: ",
			       g_str_has_prefix(want_where, "line ") ? " " :
								      ", ",
			       want_where);
	if (!g_str_has_prefix(why, want))
		fail_msg("describe: \"%s\"", why);
	assert_null(strstr(why, "Quentin"));
	assert_null(strstr(why, "eporterson"));
	g_free(want);
	g_free(why);
	dc_identity_set_free(set);
}

#define HEAD(id)                                                       \
	"From: Carol Committee <carol@example.org>\n"                  \
	"To: conduct@kernel.org\n"                                     \
	"Subject: about the review\n"                                  \
	"Message-ID: <" id "@example.org>\n"                           \
	"Date: Tue, 01 Dec 2026 10:00:00 +0000\n"                      \
	"MIME-Version: 1.0\n"

/* What the file shows, encoded or not: its line as written. */
static void
test_lines_as_written(void **state)
{
	static const char plain[] =
		HEAD("p1") "Content-Type: text/plain\n\nline one\nline two\n"
		"we spoke to Quentin yesterday\nline four\n";
	/* "hello there\nQuentin Reporterson came\n" in base64: the
	 * whole name's base64 begins on the second line. */
	static const char b64[] =
		HEAD("b1") "Content-Type: text/plain\n"
		"Content-Transfer-Encoding: base64\n\n"
		"aGVsbG8gdGhlcmUK\n"
		"UXVlbnRpbiBSZXBv\n"
		"cnRlcnNvbiBjYW1l\n"
		"Cg==\n";
	static const char qp[] =
		HEAD("q1") "Content-Type: text/plain\n"
		"Content-Transfer-Encoding: quoted-printable\n\n"
		"first line\nas Quentin Repor=\nterson said\n";
	static const char ent[] =
		HEAD("e1") "Content-Type: text/plain\n\none\ntwo\n"
		"&#81;&#117;entin was there\n";
	char want[32];

	(void)state;
	g_snprintf(want, sizeof(want), "line %u",
		   line_with(plain, "we spoke"));
	assert_where(plain, want, line_with(plain, "we spoke"));
	g_snprintf(want, sizeof(want), "line %u", line_with(b64, "UXVl"));
	assert_where(b64, want, line_with(b64, "UXVl"));
	/* A name over a soft break: the line where it begins. */
	g_snprintf(want, sizeof(want), "line %u", line_with(qp, "as Quen"));
	assert_where(qp, want, line_with(qp, "as Quen"));
	g_snprintf(want, sizeof(want), "line %u", line_with(ent, "&#81;"));
	assert_where(ent, want, line_with(ent, "&#81;"));
}

/* What only the decoded mail shows: the message, the part, the line of
 * the decoded text. */
static void
test_decoded_parts(void **state)
{
	/* An HTML part whose tags split the name: as text (as decorum
	 * shows it), paragraphs are apart by a blank line, so line 5. */
	static const char html[] =
		HEAD("h1") "Content-Type: multipart/alternative; boundary=b\n\n"
		"--b\nContent-Type: text/plain\n\nnothing here\n"
		"--b\nContent-Type: text/html\n\n"
		"<p>first</p>\n<p>second</p>\n<p>Quen<b></b>tin wrote</p>\n"
		"--b--\n";
	/* "hello there\nQuentin came\n" */
	static const char word64[] =
		HEAD("w1") "Content-Type: text/plain\n"
		"Content-Transfer-Encoding: base64\n\n"
		"aGVsbG8gdGhlcmUK\nUXVlbnRpbiBjYW1lCg==\n";
	/* UTF-16 in base64: "a\nb\nQuentin\n" as UTF-16LE. */
	static const char utf16[] =
		HEAD("u1") "Content-Type: multipart/mixed; boundary=b\n\n"
		"--b\nContent-Type: text/plain\n\nhello\n"
		"--b\nContent-Type: text/plain; charset=utf-16le\n"
		"Content-Transfer-Encoding: base64\n\n"
		"YQAKAGIACgBRAHUAZQBuAHQAaQBuAAoA\n--b--\n";
	/* A subject in two encoded words that split the name. */
	static const char subject[] =
		"From: Carol Committee <carol@example.org>\n"
		"To: conduct@kernel.org\n"
		"Subject: =?utf-8?q?about_Quen?= =?utf-8?q?tin?=\n"
		"Message-ID: <s1@example.org>\n\nbody\n";
	/* RFC 2231 continuations split the file name. */
	static const char fname[] =
		HEAD("f1") "Content-Type: multipart/mixed; boundary=b\n\n"
		"--b\nContent-Type: text/plain\n\nsee the file\n"
		"--b\nContent-Type: text/plain\n"
		"Content-Disposition: attachment; filename*0=\"Quen\";\n"
		" filename*1=\"tin.txt\"\n\nfine\n--b--\n";
	static const char binary[] =
		HEAD("o1") "Content-Type: multipart/mixed; boundary=b\n\n"
		"--b\nContent-Type: text/plain\n\nsee the file\n"
		"--b\nContent-Type: application/octet-stream\n"
		"Content-Transfer-Encoding: base64\n\nAAECAwQF\n--b--\n";

	(void)state;
	/* One word of the name in base64: only the decoded part shows it
	 * (the whole name is also sought in base64, see above). */
	assert_where(word64, "part 1 (text/plain), line 2", 1);
	assert_where(html, "part 2 (text/html) as text, line 5", 1);
	assert_where(utf16, "part 2 (text/plain), line 3", 1);
	assert_where(subject, "header Subject", 1);
	assert_where(fname, "part 2 (text/plain), file name", 1);
	assert_where(binary, "part 2 (application/octet-stream)", 1);
}

/* In an mbox, the message by its number and the line of its "From "
 * separator; nested parts as IMAP sections. */
static void
test_mbox_messages(void **state)
{
	static const char mbox[] =
		"From carol@example.org Tue Dec  1 10:00:00 2026\n"
		HEAD("m1") "Content-Type: text/plain\n\nnothing\n\n"
		"From carol@example.org Tue Dec  1 11:00:00 2026\n"
		HEAD("m2") "Content-Type: text/plain\n\nstill nothing\n\n"
		"From carol@example.org Tue Dec  1 12:00:00 2026\n"
		HEAD("m3") "Content-Type: multipart/mixed; boundary=o\n\n"
		"--o\nContent-Type: text/plain\n\nsee below\n"
		"--o\nContent-Type: multipart/alternative; boundary=i\n\n"
		"--i\nContent-Type: text/plain\n\nplain\n"
		"--i\nContent-Type: text/html\n\n"
		"<div>one</div><div>Quen<i></i>tin</div>\n"
		"--i--\n--o--\n";
	char want[96];
	guint at = line_with(mbox, "From carol@example.org Tue Dec  1 12");

	(void)state;
	g_snprintf(want, sizeof(want),
		   "message 3 (line %u), part 2.2 (text/html) as text, line 2",
		   at);
	assert_where(mbox, want, at);
}

/* An identity glued into a Message-ID: the refusal says whose and where,
 * in words a committee member can act on, never the identity. */
static void
test_glued_token(void **state)
{
	static const char mail[] =
		HEAD("g1") "In-Reply-To: <CAQreporterson+abc@mail.gmail.com>\n"
		"Content-Type: text/plain\n\nthanks\n";
	dc_identity_set_t *set = reporter();
	dc_identity_hit_t hit;
	char *why;

	(void)state;
	memset(&hit, 0, sizeof(hit));
	assert_true(dc_identity_scan(set, mail, strlen(mail), &hit));
	assert_int_equal(hit.line, line_with(mail, "In-Reply-To"));
	why = dc_identity_hit_describe(set, "thread.mbox", &hit);
	if (!strstr(why, "Reporter A's identity (inside a Message-ID or "
			 "address)"))
		fail_msg("describe: \"%s\"", why);
	assert_null(strstr(why, "eporterson"));
	g_free(why);
	dc_identity_set_free(set);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_as_written),
		cmocka_unit_test(test_decoded_parts),
		cmocka_unit_test(test_mbox_messages),
		cmocka_unit_test(test_glued_token),
	};

	g_mime_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
