// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The mail layer against a notmuch database built here from messages
 * written by the test: lazy search, thread order, RFC 2047 headers, bodies
 * decoded from base64 and quoted-printable and converted to UTF-8,
 * attachments, and files that vanished or never were mail.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <notmuch.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "core/mail/mail.h"
#include "core/mail/message.h"

struct fixture {
	char *dir;
	dc_mail_t *mail;
};

static const struct {
	const char *name;
	const char *text;
} messages[] = {
	{ "root",
	  "From: =?UTF-8?B?SmnFmcOtIE5vdsOhaw==?= <jiri@example.org>\n"
	  "To: list@example.org\n"
	  "Subject: =?UTF-8?Q?[PATCH]_mm:_fix_=C5=BE_leak?=\n"
	  "Date: Tue, 03 Nov 2026 10:00:00 +0000\n"
	  "Message-ID: <root@example.org>\n"
	  "MIME-Version: 1.0\n"
	  "Content-Type: text/plain; charset=utf-8\n"
	  "Content-Transfer-Encoding: base64\n\n"
	  "SGVsbG8gWm/DqyEK\n" },
	{ "reply-b",
	  "From: Zoe <zoe@example.org>\n"
	  "Subject: Re: [PATCH] mm: fix leak\n"
	  "Date: Tue, 03 Nov 2026 12:00:00 +0000\n"
	  "Message-ID: <reply-b@example.org>\n"
	  "In-Reply-To: <root@example.org>\n"
	  "References: <root@example.org>\n"
	  "MIME-Version: 1.0\n"
	  "Content-Type: text/plain; charset=iso-8859-2\n"
	  "Content-Transfer-Encoding: quoted-printable\n\n"
	  "=A3ukasz wrote a long=\n line.\n" },
	{ "reply-a",
	  "From: Sam <sam@example.org>\n"
	  "Subject: Re: [PATCH] mm: fix leak\n"
	  "Date: Tue, 03 Nov 2026 11:00:00 +0000\n"
	  "Message-ID: <reply-a@example.org>\n"
	  "In-Reply-To: <root@example.org>\n"
	  "References: <root@example.org>\n"
	  "MIME-Version: 1.0\n"
	  "Content-Type: multipart/mixed; boundary=XX\n\n"
	  "--XX\n"
	  "Content-Type: text/plain\n\n"
	  "see the log\n"
	  "--XX\n"
	  "Content-Type: text/x-log; name=\"oops.log\"\n"
	  "Content-Disposition: attachment; filename=\"oops.log\"\n"
	  "Content-Transfer-Encoding: base64\n\n"
	  "MDEyMzQ1Njc4OQ==\n"
	  "--XX--\n" },
	{ "nested",
	  "From: Sam <sam@example.org>\n"
	  "Subject: Re: [PATCH] mm: fix leak\n"
	  "Date: Tue, 03 Nov 2026 11:30:00 +0000\n"
	  "Message-ID: <nested@example.org>\n"
	  "In-Reply-To: <reply-a@example.org>\n"
	  "References: <root@example.org> <reply-a@example.org>\n\n"
	  "nested reply\n" },
	{ "other",
	  "From: Ana <ana@example.org>\n"
	  "Subject: unrelated\n"
	  "Date: Mon, 02 Nov 2026 09:00:00 +0000\n"
	  "Message-ID: <other@example.org>\n\n"
	  "x\n" },
};

static int
setup(void **state)
{
	struct fixture *f = g_new0(struct fixture, 1);
	dc_mail_opts_t o = { 0 };
	notmuch_database_t *db = NULL;
	dc_error_t err = { 0 };
	char *msg = NULL;
	size_t i;

	f->dir = g_dir_make_tmp("decorum-mail-XXXXXX", NULL);
	assert_non_null(f->dir);
	assert_int_equal(notmuch_database_create_with_config(
				 f->dir, "", NULL, &db, &msg),
			 NOTMUCH_STATUS_SUCCESS);
	for (i = 0; i < G_N_ELEMENTS(messages); i++) {
		char *p = g_build_filename(f->dir, messages[i].name, NULL);

		assert_true(g_file_set_contents(p, messages[i].text, -1, NULL));
		assert_int_equal(notmuch_database_index_file(db, p, NULL, NULL),
				 NOTMUCH_STATUS_SUCCESS);
		g_free(p);
	}
	notmuch_database_destroy(db);
	o.db_path = f->dir;
	assert_int_equal(dc_mail_open(&o, &f->mail, &err), DC_OK);
	*state = f;
	return 0;
}

static void
rm_rf(const char *dir)
{
	char *argv[] = { "rm", "-rf", (char *)dir, NULL };

	g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
		     NULL, NULL, NULL);
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	dc_mail_close(f->mail);
	rm_rf(f->dir);
	g_free(f->dir);
	g_free(f);
	return 0;
}

static char *
thread_of(struct fixture *f, const char *query)
{
	dc_thread_summary_t ts = { 0 };
	dc_thread_iter_t *it = NULL;
	char *id;

	assert_int_equal(dc_mail_search(f->mail, query, DC_SORT_NEWEST_FIRST,
					&it, NULL),
			 DC_OK);
	assert_true(dc_thread_iter_next(it, &ts));
	id = g_strdup(ts.thread_id);
	dc_thread_summary_clear(&ts);
	dc_thread_iter_free(it);
	return id;
}

static void
test_search_lazy_newest_first(void **state)
{
	struct fixture *f = *state;
	dc_thread_summary_t ts = { 0 };
	dc_thread_iter_t *it = NULL;

	assert_int_equal(dc_mail_search(f->mail, "*", DC_SORT_NEWEST_FIRST,
					&it, NULL),
			 DC_OK);
	assert_true(dc_thread_iter_next(it, &ts));
	assert_int_equal(ts.total, 4);
	/* notmuch names a thread after its newest message (without "Re: ") when sorting
	 * newest first; the RFC 2047 author name arrives decoded. */
	assert_string_equal(ts.subject, "[PATCH] mm: fix leak");
	assert_non_null(strstr(ts.authors, "Jiří Novák"));
	assert_true(dc_thread_iter_next(it, &ts));
	assert_string_equal(ts.subject, "unrelated");
	assert_false(dc_thread_iter_next(it, &ts));
	assert_false(dc_thread_iter_next(it, &ts));
	dc_thread_iter_free(it);
}

static void
test_search_bad_query(void **state)
{
	struct fixture *f = *state;
	dc_thread_iter_t *it = NULL;
	dc_error_t err = { 0 };
	dc_status_t st;

	st = dc_mail_search(f->mail, "from:(", DC_SORT_NEWEST_FIRST, &it,
			    &err);
	/* Xapian may accept odd queries; a refusal must say so cleanly. */
	if (st != DC_OK)
		assert_true(err.msg[0] != '\0');
	dc_thread_iter_free(it);
}

/* Count the threads of a query; -1 when it is refused. */
static int
threads_of(struct fixture *f, const char *query, dc_error_t *err)
{
	dc_thread_summary_t ts = { 0 };
	dc_thread_iter_t *it = NULL;
	int n = 0;

	if (dc_mail_search(f->mail, query, DC_SORT_NEWEST_FIRST, &it, err) !=
	    DC_OK)
		return -1;
	while (dc_thread_iter_next(it, &ts))
		n++;
	dc_thread_summary_clear(&ts);
	dc_thread_iter_free(it);
	return n;
}

/*
 * libxapian 1.4 crashes the process when a field processor rejects the
 * value of a term signed + or - at the start of a query or a group
 * (notmuch count '-subject:/(a/' segfaults).  decorum refuses those
 * queries with notmuch's message instead, and signed terms still work.
 */
static void
test_search_signed_terms(void **state)
{
	const char *bad[] = {
		"-subject:/(a/", "+subject:/(a/", "-date:x", "-from:/x",
		"(-thread:{x)", "tag:inbox (-subject:/[/)", " -is:/x",
		"-thread:{subject:/x}", "-mid:\"/(a/\"", "thread:{-date:x}",
		"--date:x", "a (+-subject:/[/)", "\x17\x17-date:x",
		"\xc2\xa0-date:x", "subject:\xff", "thread:\"\"",
		"(thread:\"\")", "a thread:\"", NULL,
	};
	struct fixture *f = *state;
	char *signs = g_strnfill(20000, '-');
	char *dashes = g_strconcat(signs, "date:x", NULL);
	guint i;

	/* Signs in a row, many: one pass over them, not one per sign. */
	bad[G_N_ELEMENTS(bad) - 1] = dashes;
	g_free(signs);
	for (i = 0; i < G_N_ELEMENTS(bad); i++) {
		dc_error_t err = { 0 };

		assert_int_equal(threads_of(f, bad[i], &err), -1);
		assert_true(err.msg[0] != '\0');
	}
	assert_int_equal(threads_of(f, "*", NULL), 2);
	assert_int_equal(threads_of(f, "-subject:unrelated", NULL), 1);
	assert_int_equal(threads_of(f, "+subject:unrelated", NULL), 1);
	assert_int_equal(threads_of(f, "(-subject:/unrel/)", NULL), 1);
	assert_int_equal(threads_of(f, "subject:\"-x\" OR subject:leak", NULL),
			 1);
	/* A + or - inside a value is not a sign. */
	assert_int_equal(threads_of(f, "subject:/[+-]?leak/", NULL), 1);
	assert_int_equal(threads_of(f, "leak -subject:/-zzz/", NULL), 1);
	assert_int_equal(threads_of(f, "thread:{-subject:unrelated}", NULL), 1);
	g_free(dashes);
}

static void
test_thread_order_and_depth(void **state)
{
	struct fixture *f = *state;
	static const char *ids[] = { "root@example.org", "reply-a@example.org",
				     "nested@example.org",
				     "reply-b@example.org" };
	static const int depth[] = { 0, 1, 2, 1 };
	char *tid = thread_of(f, "id:root@example.org");
	dc_thread_t *t = NULL;
	guint i;

	assert_int_equal(dc_mail_thread(f->mail, tid, 1, &t, NULL), DC_OK);
	assert_int_equal(t->messages->len, 4);
	for (i = 0; i < 4; i++) {
		dc_message_t *m = t->messages->pdata[i];

		assert_string_equal(m->message_id, ids[i]);
		assert_int_equal(m->depth, depth[i]);
	}
	dc_thread_free(t);
	g_free(tid);
}

/* A thread opened from a search knows which of its messages matched. */
static void
test_thread_matching(void **state)
{
	struct fixture *f = *state;
	char *tid = thread_of(f, "id:root@example.org");
	dc_thread_t *t = NULL;

	assert_int_equal(dc_mail_thread_matching(f->mail, tid,
						 "id:nested@example.org", 0,
						 &t, NULL),
			 DC_OK);
	assert_int_equal(t->messages->len, 4);
	assert_int_equal(dc_thread_first_match(t), 2);
	assert_false(((dc_message_t *)t->messages->pdata[0])->flags &
		     DC_MSG_MATCHED);
	dc_thread_free(t);
	/* A query that matches nothing in it any more: the whole thread. */
	assert_int_equal(dc_mail_thread_matching(f->mail, tid,
						 "id:other@example.org", 0,
						 &t, NULL),
			 DC_OK);
	assert_int_equal(t->messages->len, 4);
	assert_int_equal(dc_thread_first_match(t), 0);
	dc_thread_free(t);
	assert_int_equal(dc_mail_thread_matching(f->mail, tid, "from:sam", 0,
						 &t, NULL),
			 DC_OK);
	assert_int_equal(dc_thread_first_match(t), 1); /* reply-a */
	dc_thread_free(t);
	g_free(tid);
}

static dc_message_t *
message_by_id(dc_thread_t *t, const char *id)
{
	guint i;

	for (i = 0; i < t->messages->len; i++) {
		dc_message_t *m = t->messages->pdata[i];

		if (!strcmp(m->message_id, id))
			return m;
	}
	fail_msg("no message %s", id);
	return NULL;
}

static void
test_decoding(void **state)
{
	struct fixture *f = *state;
	char *tid = thread_of(f, "id:root@example.org");
	char *prefixed = g_strconcat("thread:", tid, NULL);
	dc_thread_t *t = NULL;
	dc_message_t *m;
	dc_attachment_t *a;

	assert_int_equal(dc_mail_thread(f->mail, prefixed, 1, &t, NULL),
			 DC_OK);
	m = message_by_id(t, "root@example.org");
	assert_string_equal(m->from, "Jiří Novák <jiri@example.org>");
	assert_string_equal(m->subject, "[PATCH] mm: fix ž leak");
	assert_string_equal(m->body, "Hello Zoë!\n");
	m = message_by_id(t, "reply-b@example.org");
	assert_string_equal(m->body, "Łukasz wrote a long line.\n");
	assert_string_equal(m->in_reply_to, "<root@example.org>");
	m = message_by_id(t, "reply-a@example.org");
	assert_string_equal(m->body, "see the log\n");
	assert_int_equal(m->attachments->len, 1);
	a = m->attachments->pdata[0];
	assert_string_equal(a->filename, "oops.log");
	assert_string_equal(a->content_type, "text/x-log");
	assert_int_equal(a->size, 10);
	dc_thread_free(t);
	g_free(prefixed);
	g_free(tid);
}

static void
test_missing_file_is_flagged(void **state)
{
	struct fixture *f = *state;
	char *tid = thread_of(f, "id:other@example.org");
	char *p = g_build_filename(f->dir, "other", NULL);
	dc_thread_t *t = NULL;
	dc_message_t *m;

	g_unlink(p);
	assert_int_equal(dc_mail_thread(f->mail, tid, 1, &t, NULL), DC_OK);
	m = t->messages->pdata[0];
	assert_true(m->flags & DC_MSG_UNREADABLE);
	assert_non_null(strstr(m->body, "cannot read"));
	/* The index still knows who wrote it. */
	assert_string_equal(m->from, "Ana <ana@example.org>");
	dc_thread_free(t);
	g_free(p);
	g_free(tid);
}

/* Binary junk and a MIME tree nested far too deep: parsed without a
 * crash, with the problem visible in the body and the flags. */
static void
test_junk_and_deep_nesting(void **state)
{
	char *dir = g_dir_make_tmp("decorum-mail-XXXXXX", NULL);
	char *p = g_build_filename(dir, "junk", NULL);
	GString *deep = g_string_new("From: a@example.org\nSubject: deep\n"
				     "MIME-Version: 1.0\n");
	dc_message_t *m;
	int i;

	(void)state;
	assert_true(g_file_set_contents(p, "\xff\xfe\x00\x01junk", 8, NULL));
	m = g_new0(dc_message_t, 1);
	dc_message_parse_file(m, p);
	assert_non_null(m->body);
	dc_message_free(m);

	for (i = 0; i < 100; i++)
		g_string_append_printf(deep,
				       "Content-Type: multipart/mixed; "
				       "boundary=b%d\n\n--b%d\n",
				       i, i);
	g_string_append(deep, "Content-Type: text/plain\n\ninnermost\n");
	assert_true(g_file_set_contents(p, deep->str, -1, NULL));
	m = g_new0(dc_message_t, 1);
	dc_message_parse_file(m, p);
	assert_true(m->flags & DC_MSG_MALFORMED);
	assert_non_null(strstr(m->body, "MIME nesting deeper than"));
	dc_message_free(m);
	g_string_free(deep, TRUE);
	g_unlink(p);
	g_rmdir(dir);
	g_free(p);
	g_free(dir);
}

/* Header bytes that are not UTF-8 show as U+FFFD, not as Latin-1
 * mojibake; encoded words and valid UTF-8 around them still decode. */
/* text/html is shown as text: alone, or when an alternative has no
 * text/plain; through the filter when one is given. */
static void
test_html_parts(void **state)
{
	static const char only[] =
		"From: a@example.org\nSubject: h\nMIME-Version: 1.0\n"
		"Content-Type: text/html; charset=ISO-8859-1\n\n"
		"<p>caf\xe9 &amp; <b>tea</b></p><script>x()</script>\n";
	static const char alt_html[] =
		"From: a@example.org\nSubject: h\nMIME-Version: 1.0\n"
		"Content-Type: multipart/alternative; boundary=B\n\n"
		"--B\nContent-Type: image/png\n\nxx\n"
		"--B\nContent-Type: text/html\n\n<div>from html</div>\n"
		"--B--\n";
	static const char alt_both[] =
		"From: a@example.org\nSubject: h\nMIME-Version: 1.0\n"
		"Content-Type: multipart/alternative; boundary=B\n\n"
		"--B\nContent-Type: text/html\n\n<div>from html</div>\n"
		"--B\nContent-Type: text/plain\n\nfrom plain\n"
		"--B--\n";
	dc_message_t *m;

	(void)state;
	m = g_new0(dc_message_t, 1);
	dc_message_parse_bytes(m, only, sizeof(only) - 1);
	assert_string_equal(m->body, "caf\xc3\xa9 & tea\n");
	assert_true(m->flags & DC_MSG_HTML);
	assert_int_equal(m->attachments->len, 0);
	dc_message_free(m);

	m = g_new0(dc_message_t, 1);
	dc_message_parse_bytes(m, alt_html, sizeof(alt_html) - 1);
	assert_string_equal(m->body, "from html\n");
	dc_message_free(m);

	m = g_new0(dc_message_t, 1);
	dc_message_parse_bytes(m, alt_both, sizeof(alt_both) - 1);
	assert_string_equal(m->body, "from plain\n");
	assert_false(m->flags & DC_MSG_HTML);
	dc_message_free(m);

	/* Through a filter, given the part in UTF-8. */
	m = g_new0(dc_message_t, 1);
	dc_message_parse_bytes_html(m, only, sizeof(only) - 1,
				    "sh -c 'echo filtered; sed s/caf/CAF/'");
	assert_non_null(strstr(m->body, "filtered\n<p>CAF\xc3\xa9 &amp;"));
	dc_message_free(m);

	/* A filter that fails: the built-in converter, and why. */
	m = g_new0(dc_message_t, 1);
	dc_message_parse_bytes_html(m, only, sizeof(only) - 1, "false");
	assert_non_null(strstr(m->body, "exited with status 1"));
	assert_non_null(strstr(m->body, "caf\xc3\xa9 & tea\n"));
	dc_message_free(m);
}

static void
test_invalid_header_bytes(void **state)
{
	static const char raw[] =
	    "From: B\xe9la Byte <bb@example.org>\n"
	    "To: =?UTF-8?Q?Zo=C3=AB?= <z@example.org>\n"
	    "Cc: Fine \xc3\x89mile <e@example.org>\n"
	    "Subject: caf\xc3\xa9 \xff\xfe and\n =?UTF-8?Q?caf=C3=A9?=\n"
	    "Message-ID: <bytes@example.org>\n\nbody\n";
	dc_message_t *m = g_new0(dc_message_t, 1);

	(void)state;
	dc_message_parse_bytes(m, raw, sizeof(raw) - 1);
	assert_string_equal(m->subject,
			    "caf\xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd and caf\xc3\xa9");
	assert_non_null(strstr(m->from, "B\xef\xbf\xbdla Byte"));
	assert_null(strstr(m->from, "\xc3\xa9"));
	assert_non_null(strstr(m->to, "Zo\xc3\xab"));
	assert_non_null(strstr(m->cc, "\xc3\x89mile"));
	dc_message_free(m);
}

static void
test_thread_ids(void **state)
{
	struct fixture *f = *state;
	dc_thread_t *t = NULL;
	dc_error_t err = { 0 };

	assert_int_equal(dc_mail_thread(f->mail, "ffffffffffffff00", 1, &t,
					&err),
			 DC_E_NOT_FOUND);
	assert_null(t);
	assert_int_equal(dc_mail_thread(f->mail, "x'; rm -rf /", 1, &t, &err),
			 DC_E_USAGE);
	assert_int_equal(dc_mail_thread(f->mail, "", 1, &t, &err),
			 DC_E_USAGE);
	assert_string_equal(dc_thread_id_bare("thread:00ab"), "00ab");
}

static void
test_lore_url(void **state)
{
	char *u = dc_lore_url("a/b c@example.org");

	(void)state;
	assert_string_equal(u, "https://lore.kernel.org/r/a%2Fb%20c@example.org");
	g_free(u);
}

static void
test_open_failures(void **state)
{
	dc_mail_opts_t o = { .db_path = "/nonexistent/decorum" };
	dc_mail_t *m = NULL;
	dc_error_t err = { 0 };

	(void)state;
	assert_int_not_equal(dc_mail_open(&o, &m, &err), DC_OK);
	assert_null(m);
	assert_true(err.msg[0] != '\0');
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_search_lazy_newest_first,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_search_bad_query, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_search_signed_terms, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_thread_matching, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_thread_order_and_depth,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_decoding, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_file_is_flagged,
						setup, teardown),
		cmocka_unit_test(test_junk_and_deep_nesting),
		cmocka_unit_test(test_invalid_header_bytes),
		cmocka_unit_test(test_html_parts),
		cmocka_unit_test_setup_teardown(test_thread_ids, setup,
						teardown),
		cmocka_unit_test(test_lore_url),
		cmocka_unit_test(test_open_failures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
