// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The thread cache against a notmuch database that another writer keeps
 * committing to.  Xapian keeps one older revision readable: after two
 * commits by someone else a read handle's searches fail ("The revision
 * being read has been discarded").  That must never fail a tag, and a
 * message that could not be read must never be cached as gone from the
 * index (a case would lose its thread).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <glib.h>
#include <notmuch.h>
#include <stdio.h>
#include <string.h>

#include "core/case/case.h"
#include "core/mail/anchor.h"
#include "core/mail/mail.h"
#include "core/mail/message.h"

#define T0 1700000000
/* Big enough that a commit rewrites blocks an old reader still needs. */
#define MESSAGES 300
#define PER_COMMIT 50

struct fx {
	char *dir;
	dc_store_t *s;
	dc_mail_opts_t o;
	void *db; /* the read handle under test */
	int batch;
};

static void
write_mail(const char *dir, const char *name, const char *id,
	   const char *subject, notmuch_database_t *w)
{
	char *p = g_build_filename(dir, name, NULL);
	char *text = g_strdup_printf(
	    "From: Lister <lister@example.org>\n"
	    "To: list@example.org\n"
	    "Subject: %s\n"
	    "Date: Tue, 03 Nov 2026 10:00:00 +0000\n"
	    "Message-ID: <%s>\n\n"
	    "Body of %s.\n",
	    subject, id, id);

	assert_true(g_file_set_contents(p, text, -1, NULL));
	assert_int_equal(notmuch_database_index_file(w, p, NULL, NULL),
			 NOTMUCH_STATUS_SUCCESS);
	g_free(text);
	g_free(p);
}

/* Another process's "notmuch new": one commit of PER_COMMIT messages. */
static void
other_writer_commits(struct fx *f)
{
	notmuch_database_t *w = NULL;
	char *msg = NULL;
	int i;

	assert_int_equal(notmuch_database_open_with_config(
				 f->dir, NOTMUCH_DATABASE_MODE_READ_WRITE, "",
				 NULL, &w, &msg),
			 NOTMUCH_STATUS_SUCCESS);
	for (i = 0; i < PER_COMMIT; i++) {
		char name[64], id[64];

		snprintf(name, sizeof(name), "new-%d-%d", f->batch, i);
		snprintf(id, sizeof(id), "new-%d-%d@example.org", f->batch, i);
		write_mail(f->dir, name, id, "noise", w);
	}
	f->batch++;
	notmuch_database_destroy(w);
}

static int
setup(void **state)
{
	struct fx *f = g_new0(struct fx, 1);
	notmuch_database_t *w = NULL;
	dc_error_t err = { 0 };
	char *msg = NULL, *path;
	int i;

	f->dir = g_dir_make_tmp("test-anchor-XXXXXX", NULL);
	assert_non_null(f->dir);
	assert_int_equal(notmuch_database_create_with_config(f->dir, "", NULL,
							     &w, &msg),
			 NOTMUCH_STATUS_SUCCESS);
	for (i = 0; i < MESSAGES; i++) {
		char name[32], id[64], subject[32];

		snprintf(name, sizeof(name), "m%d", i);
		snprintf(id, sizeof(id), "m%d@example.org", i);
		snprintf(subject, sizeof(subject), "subject %d", i);
		write_mail(f->dir, name, id, subject, w);
	}
	notmuch_database_destroy(w);
	path = g_build_filename(f->dir, "decorum.db", NULL);
	if (dc_store_open(path, &f->s, &err) != DC_OK)
		fail_msg("store: %s", err.msg);
	g_free(path);
	f->o.db_path = f->dir;
	if (dc_notmuch_open(&f->o, 0, &f->db, &err) != DC_OK)
		fail_msg("notmuch: %s", err.msg);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *f = *state;
	char *argv[] = { "rm", "-rf", f->dir, NULL };

	dc_notmuch_close(f->db);
	dc_store_close(f->s);
	g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
		     NULL, NULL, NULL);
	g_free(f->dir);
	g_free(f);
	return 0;
}

/* A case on m7's thread, its cache brought up to date. */
static char *
open_case(struct fx *f, int64_t *id)
{
	const char *ids[] = { "m7@example.org", NULL };
	char *thread = NULL;
	dc_error_t err = { 0 };
	int created = 0;
	dc_tag_request_t req = {
		.message_ids = ids,
		.kind = DC_KIND_ESCALATION,
		.actor = "maintainer@example.org",
		.subject = "subject 7",
		.reported_at = T0,
		.now = T0,
		.note = "n",
	};

	assert_int_equal(dc_anchor_find(f->db, ids[0], &thread, &err), DC_OK);
	assert_non_null(thread);
	req.thread_id = thread;
	if (dc_case_tag(f->s, &req, id, &created, &err) != DC_OK)
		fail_msg("tag: %s", err.msg);
	if (dc_anchor_sync(f->s, f->db, 1, NULL, T0, &err) != DC_OK)
		fail_msg("first sync: %s", err.msg);
	return thread;
}

static char *
cached_thread(struct fx *f, const char *message_id)
{
	GPtrArray *mail = NULL;
	char *t = NULL;
	guint i;

	assert_int_equal(dc_store_mail_all(f->s, &mail, NULL), DC_OK);
	for (i = 0; i < mail->len; i++) {
		const dc_store_mail_t *m = mail->pdata[i];

		if (!strcmp(m->message_id, message_id))
			t = g_strdup(m->thread_id ? m->thread_id : "(none)");
	}
	g_ptr_array_unref(mail);
	return t;
}

/* The handle really goes stale here: without that the tests below
 * would pass with or without the reopen. */
static void
test_the_reader_goes_stale(void **state)
{
	struct fx *f = *state;
	notmuch_query_t *q = NULL;
	notmuch_messages_t *msgs = NULL;
	notmuch_status_t nst;

	other_writer_commits(f);
	other_writer_commits(f);
	nst = notmuch_query_create_with_syntax(
	    f->db, "lastmod:1..", NOTMUCH_QUERY_SYNTAX_XAPIAN, &q);
	assert_int_equal(nst, NOTMUCH_STATUS_SUCCESS);
	nst = notmuch_query_search_messages(q, &msgs);
	assert_int_equal(nst, NOTMUCH_STATUS_XAPIAN_EXCEPTION);
	notmuch_query_destroy(q);
}

static void
test_sync_after_other_commits(void **state)
{
	struct fx *f = *state;
	dc_error_t err = { 0 };
	int64_t id = 0;
	char *thread = open_case(f, &id), *now;

	/* The handle moves on (the TUI reopens it to redraw the list) and
	 * is overtaken again before the next tag. */
	other_writer_commits(f);
	assert_int_equal(notmuch_database_reopen(
			     f->db, NOTMUCH_DATABASE_MODE_READ_ONLY),
			 NOTMUCH_STATUS_SUCCESS);
	other_writer_commits(f);
	other_writer_commits(f);
	if (dc_anchor_sync(f->s, f->db, 1, NULL, T0 + 1, &err) != DC_OK)
		fail_msg("sync after three commits: %s", err.msg);
	now = cached_thread(f, "m7@example.org");
	assert_string_equal(now, thread);
	g_free(now);
	g_free(thread);
}

/* Another database (a rebuild) walks every message by Message-ID; one
 * that cannot be read is an error, never "not in the index". */
static void
test_find_after_other_commits(void **state)
{
	struct fx *f = *state;
	dc_error_t err = { 0 };
	char *before = NULL, *after = NULL;

	assert_int_equal(dc_anchor_find(f->db, "m9@example.org", &before, &err),
			 DC_OK);
	assert_non_null(before);
	other_writer_commits(f);
	other_writer_commits(f);
	if (dc_anchor_find(f->db, "m9@example.org", &after, &err) != DC_OK)
		fail_msg("find: %s", err.msg);
	assert_non_null(after);
	assert_string_equal(after, before);
	g_free(after);
	g_free(before);
	/* And the new mail is seen through the reopened handle. */
	assert_int_equal(
	    dc_anchor_find(f->db, "new-1-0@example.org", &after, &err), DC_OK);
	assert_non_null(after);
	g_free(after);
}

static void
test_case_state_after_other_commits(void **state)
{
	struct fx *f = *state;
	dc_anchor_state_t *a = NULL;
	dc_error_t err = { 0 };
	dc_case_t *c = NULL;
	int64_t id = 0;
	char *thread = open_case(f, &id);

	assert_int_equal(dc_case_get(f->s, id, &c, &err), DC_OK);
	other_writer_commits(f);
	other_writer_commits(f);
	if (dc_anchor_resolve(f->db, c, &a, &err) != DC_OK)
		fail_msg("resolve: %s", err.msg);
	assert_int_equal(a->missing->len, 0);
	assert_int_equal(a->threads->len, 1);
	assert_string_equal(a->threads->pdata[0], thread);
	dc_anchor_state_free(a);
	dc_case_free(c);
	g_free(thread);
}

/* A list the TUI holds while notmuch new commits underneath: its next
 * row and a thread opened after more commits are read from the newest
 * revision, not refused as "A Xapian exception occurred". */
static void
test_list_rows_after_other_commits(void **state)
{
	struct fx *f = *state;
	dc_thread_summary_t ts = { 0 };
	dc_thread_iter_t *it = NULL;
	dc_thread_t *t = NULL;
	dc_mail_t *m = NULL;
	dc_error_t err = { 0 };
	char *id;

	assert_int_equal(dc_mail_open(&f->o, &m, &err), DC_OK);
	assert_int_equal(dc_mail_search(m, "subject:\"subject 5\" or "
					   "subject:\"subject 6\"",
					DC_SORT_NEWEST_FIRST, &it, &err),
			 DC_OK);
	assert_true(dc_thread_iter_next(it, &ts));
	other_writer_commits(f);
	other_writer_commits(f);
	assert_true(dc_thread_iter_next(it, &ts));
	assert_non_null(ts.subject);
	assert_true(!strcmp(ts.subject, "subject 5") ||
		    !strcmp(ts.subject, "subject 6"));
	id = g_strdup(ts.thread_id);
	dc_thread_summary_clear(&ts);
	dc_thread_iter_free(it);
	other_writer_commits(f);
	other_writer_commits(f);
	if (dc_mail_thread(m, id, 1, &t, &err) != DC_OK)
		fail_msg("thread: %s", err.msg);
	assert_non_null(t);
	dc_thread_free(t);
	g_free(id);
	dc_mail_close(m);
}

/* Mail a case names without a thread (decorum sync takes cases from
 * another member so): nothing in notmuch changes, yet the next sync
 * finds what this index holds, and only the rest is not in your mail. */
static void
test_sync_finds_mail_never_looked_up(void **state)
{
	struct fx *f = *state;
	dc_store_mail_t m = { .scope = "message", .added_at = T0 };
	const dc_store_mail_t *x;
	dc_error_t err = { 0 };
	dc_case_t *c = NULL;
	int64_t id = 0;
	char *thread = open_case(f, &id), *t12 = NULL, *now;
	guint i;

	assert_int_equal(dc_anchor_find(f->db, "m12@example.org", &t12, &err),
			 DC_OK);
	m.case_id = id;
	m.message_id = "m12@example.org";
	assert_int_equal(dc_store_case_add_mail(f->s, &m, &err), DC_OK);
	m.message_id = "elsewhere@example.org";
	assert_int_equal(dc_store_case_add_mail(f->s, &m, &err), DC_OK);
	if (dc_anchor_sync(f->s, f->db, 1, NULL, T0 + 1, &err) != DC_OK)
		fail_msg("sync: %s", err.msg);
	now = cached_thread(f, "m12@example.org");
	assert_string_equal(now, t12);
	g_free(now);
	now = cached_thread(f, "elsewhere@example.org");
	assert_string_equal(now, "(none)");
	g_free(now);
	assert_int_equal(dc_case_get(f->s, id, &c, &err), DC_OK);
	assert_null(dc_case_mail_absent(c));
	for (i = 0; i < c->mail->len; i++) {
		x = c->mail->pdata[i];
		if (!strcmp(x->message_id, "elsewhere@example.org"))
			assert_string_equal(dc_mail_absent(x),
					    "not in your mail");
		else
			assert_null(dc_mail_absent(x));
	}
	dc_case_free(c);
	g_free(t12);
	g_free(thread);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_the_reader_goes_stale,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_sync_after_other_commits,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_find_after_other_commits,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_case_state_after_other_commits, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_list_rows_after_other_commits, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_sync_finds_mail_never_looked_up, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
