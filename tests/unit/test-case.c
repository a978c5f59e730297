// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The case model on a real store: transitions, undo, state from events,
 * TAB consultations and report counts, access windows and recusal, and
 * verify against a truncated log.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ftw.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "core/case/access.h"
#include "core/case/case.h"
#include "core/mail/mirror.h"
#include "core/case/outcome.h"
#include "core/case/verify.h"

#define T0 1700000000 /* 2023-11-14 */
#define DAY 86400

struct fx {
	char *dir, *path;
	dc_store_t *s;
};

static int
rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static int
setup(void **state)
{
	struct fx *f = g_new0(struct fx, 1);
	dc_error_t err = { 0 };

	f->dir = g_dir_make_tmp("test-case-XXXXXX", NULL);
	f->path = g_build_filename(f->dir, "decorum.db", NULL);
	if (dc_store_open(f->path, &f->s, &err) != DC_OK)
		fail_msg("open: %s", err.msg);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *f = *state;

	dc_store_close(f->s);
	nftw(f->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	g_free(f->path);
	g_free(f->dir);
	g_free(f);
	return 0;
}

static int64_t
tag(dc_store_t *s, const char *thread, dc_kind_t kind, const char *actor,
    int64_t reported)
{
	char *mid = g_strdup_printf("%s.report@example.org", thread);
	const char *ids[] = { mid, NULL };
	dc_tag_request_t req = {
		.thread_id = thread, .message_ids = ids, .kind = kind, .actor = actor,
		.subject = "s", .reported_at = reported, .now = T0,
		.note = "n",
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
state_of(dc_store_t *s, int64_t id)
{
	dc_case_t *c = NULL;
	char *r;

	assert_int_equal(dc_case_get(s, id, &c, NULL), DC_OK);
	r = g_strdup(c->state);
	dc_case_free(c);
	return r;
}

static void
test_transitions(void **state)
{
	struct fx *f = *state;
	int64_t id = tag(f->s, "aa01", DC_KIND_ESCALATION, "m@x.org", T0);
	dc_error_t err = { 0 };
	char *st;

	assert_int_equal(dc_case_set_state(f->s, id, "decided", NULL,
					   "m@x.org", T0, &err),
			 DC_E_INVALID);
	assert_non_null(strstr(err.msg, "acknowledged, investigating, closed"));
	assert_int_equal(dc_case_set_state(f->s, id, "bogus", NULL, "m@x.org",
					   T0, NULL),
			 DC_E_USAGE);
	assert_int_equal(dc_case_set_state(f->s, id, "investigating", NULL,
					   "m@x.org", T0, NULL),
			 DC_OK);
	assert_int_equal(dc_case_set_state(f->s, id, "closed", NULL,
					   "m@x.org", T0, NULL),
			 DC_OK);
	assert_int_equal(dc_case_set_state(f->s, id, "reopen", NULL,
					   "m@x.org", T0, NULL),
			 DC_OK);
	st = state_of(f->s, id);
	assert_string_equal(st, "investigating");
	g_free(st);
}

static void
test_undo(void **state)
{
	struct fx *f = *state;
	int64_t id = tag(f->s, "aa02", DC_KIND_ESCALATION, "m@x.org", T0);
	GPtrArray *cases = NULL;
	dc_case_t *c = NULL;
	char *st;

	dc_case_set_state(f->s, id, "acknowledged", NULL, "m@x.org", T0, NULL);
	/* Someone else's change is not mine to undo. */
	dc_case_note(f->s, id, "other", "o@x.org", T0, NULL);
	assert_int_equal(dc_case_undo(f->s, id, "m@x.org", T0, NULL), DC_OK);
	st = state_of(f->s, id);
	assert_string_equal(st, "new");
	g_free(st);
	assert_int_equal(dc_case_undo(f->s, id, "m@x.org", T0, NULL), DC_OK);
	assert_int_equal(dc_case_get(f->s, id, &c, NULL), DC_OK);
	assert_true(c->withdrawn);
	assert_string_equal(c->state, "withdrawn");
	dc_case_free(c);
	assert_int_equal(dc_case_undo(f->s, id, "m@x.org", T0, NULL),
			 DC_E_INVALID);
	assert_int_equal(dc_case_list(f->s, &cases, NULL), DC_OK);
	assert_int_equal(cases->len, 0);
	g_ptr_array_unref(cases);
	/* A new tag opens a new case, the only one listed. */
	assert_int_not_equal(tag(f->s, "aa02", DC_KIND_ESCALATION, "m@x.org",
				 T0),
			     id);
	assert_int_equal(dc_case_list(f->s, &cases, NULL), DC_OK);
	assert_int_equal(cases->len, 1);
	g_ptr_array_unref(cases);
}

static void
test_tab_not_counted_until_converted(void **state)
{
	struct fx *f = *state;
	int64_t tab = tag(f->s, "aa03", DC_KIND_TAB, "m@x.org", T0);
	int n = -1;

	tag(f->s, "aa04", DC_KIND_ADMONITION, "m@x.org", T0);
	assert_int_equal(dc_case_count_reports(f->s, 0, 0, &n, NULL), DC_OK);
	assert_int_equal(n, 1);
	assert_int_equal(dc_case_convert(f->s, tab, DC_KIND_ESCALATION, NULL,
					 "m@x.org", T0, NULL),
			 DC_OK);
	dc_case_count_reports(f->s, 0, 0, &n, NULL);
	assert_int_equal(n, 2);
	/* The window counts too. */
	dc_case_count_reports(f->s, T0 + 1, 0, &n, NULL);
	assert_int_equal(n, 0);
}

static void
test_access_windows(void **state)
{
	struct fx *f = *state;
	int64_t old = tag(f->s, "aa05", DC_KIND_ESCALATION, "m@x.org", T0);
	int64_t fresh =
	    tag(f->s, "aa06", DC_KIND_ESCALATION, "m@x.org", T0 + 30 * DAY);
	GPtrArray *cases = NULL;
	dc_case_t *c = NULL;
	dc_error_t err = { 0 };

	assert_int_equal(dc_member_add(f->s, "new@x.org", NULL, "committee",
				       T0 + 10 * DAY, "m@x.org", T0, NULL),
			 DC_OK);
	dc_store_set_viewer(f->s, "new@x.org");
	assert_int_equal(dc_case_list(f->s, &cases, NULL), DC_OK);
	assert_int_equal(cases->len, 1);
	assert_int_equal(((dc_case_t *)cases->pdata[0])->id, fresh);
	g_ptr_array_unref(cases);
	assert_int_equal(dc_case_get(f->s, old, &c, &err), DC_E_NOT_FOUND);
	assert_null(c);
	assert_int_equal(dc_case_for_thread(f->s, "aa05", &c, NULL), DC_OK);
	assert_null(c);
	/* Writing to a hidden case is refused too. */
	assert_int_equal(dc_case_set_state(f->s, old, "acknowledged", NULL,
					   "new@x.org", T0, NULL),
			 DC_E_NOT_FOUND);
	/* Recusal hides the other one. */
	dc_store_set_viewer(f->s, "m@x.org");
	assert_int_equal(dc_case_conflict(f->s, fresh, "new@x.org", NULL, 1,
					  "m@x.org", T0, NULL),
			 DC_OK);
	dc_store_set_viewer(f->s, "new@x.org");
	assert_int_equal(dc_case_get(f->s, fresh, &c, NULL), DC_E_NOT_FOUND);
	/* After leaving, nothing later. */
	dc_store_set_viewer(f->s, NULL);
	assert_int_equal(dc_case_list(f->s, &cases, NULL), DC_OK);
	assert_int_equal(cases->len, 0); /* unidentified */
	g_ptr_array_unref(cases);
	/* The maintainer sees what they opened. */
	dc_store_set_viewer(f->s, "m@x.org");
	assert_int_equal(dc_case_list(f->s, &cases, NULL), DC_OK);
	assert_int_equal(cases->len, 2);
	g_ptr_array_unref(cases);
}

static void
test_mirror_wanted(void **state)
{
	struct fx *f = *state;
	int64_t id = tag(f->s, "aa07", DC_KIND_TAB, "m@x.org", T0);
	GPtrArray *w = NULL;
	int pending = 0;

	assert_int_equal(dc_mirror_wanted(f->s, "aa07", &w, NULL), DC_OK);
	assert_int_equal(w->len, 4);
	assert_string_equal(w->pdata[0], "coc/case");
	assert_string_equal(w->pdata[1], "coc/case-1");
	assert_string_equal(w->pdata[2], "coc/state-new");
	assert_string_equal(w->pdata[3], "coc/tab");
	g_ptr_array_unref(w);
	assert_int_equal(dc_mirror_pending(f->s, &pending, NULL), DC_OK);
	assert_int_equal(pending, 1);
	dc_case_undo(f->s, id, "m@x.org", T0, NULL);
	dc_mirror_wanted(f->s, "aa07", &w, NULL);
	assert_int_equal(w->len, 0);
	g_ptr_array_unref(w);
}

static void
test_verify_truncation(void **state)
{
	struct fx *f = *state;
	int64_t id = tag(f->s, "aa08", DC_KIND_ESCALATION, "m@x.org", T0);
	dc_verify_t v;
	dc_error_t err = { 0 };
	sqlite3 *db;

	dc_case_set_state(f->s, id, "acknowledged", NULL, "m@x.org", T0, NULL);
	dc_case_note(f->s, id, "x", "m@x.org", T0, NULL);
	assert_int_equal(dc_verify_store(f->s, NULL, &v, &err), DC_OK);
	assert_int_equal(v.events, 3);
	assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
				      "DROP TRIGGER events_no_delete;"
				      "DELETE FROM events WHERE id = 3;",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(dc_verify_store(f->s, NULL, &v, &err), DC_E_DATA);
	assert_int_equal(v.bad_id, 3);
	assert_non_null(strstr(err.msg, "event 3: missing"));
}

static unsigned
mail_count(dc_store_t *s, int64_t id, unsigned *threads)
{
	dc_case_t *c = NULL;
	unsigned n;

	assert_int_equal(dc_case_get(s, id, &c, NULL), DC_OK);
	n = c->mail->len;
	if (threads)
		*threads = c->threads->len;
	dc_case_free(c);
	return n;
}

static void
test_attach_detach(void **state)
{
	struct fx *f = *state;
	int64_t id = tag(f->s, "bb01", DC_KIND_ESCALATION, "m@x.org", T0);
	const char *list[] = { "l1@x.org", "l2@x.org", NULL };
	const char *one[] = { "m1@x.org", NULL };
	dc_error_t err = { 0 };
	dc_case_t *c = NULL;
	unsigned threads = 0;

	assert_int_equal(dc_case_attach(f->s, id, "thread", list, "bb02", NULL,
					"m@x.org", T0, &err),
			 DC_OK);
	assert_int_equal(mail_count(f->s, id, &threads), 3);
	assert_int_equal(threads, 2);
	/* The attached thread is the case's now. */
	assert_int_equal(dc_case_for_thread(f->s, "bb02", &c, NULL), DC_OK);
	assert_non_null(c);
	assert_int_equal(c->id, id);
	assert_string_equal(((dc_history_t *)c->history->pdata[1])->type,
			    "attach");
	dc_case_free(c);
	assert_int_equal(dc_case_attach(f->s, id, "thread", list, "bb02", NULL,
					"m@x.org", T0, &err),
			 DC_E_INVALID);
	assert_non_null(strstr(err.msg, "already covers"));
	assert_int_equal(dc_case_attach(f->s, id, "everything", one, "bb03", NULL,
					"m@x.org", T0, NULL),
			 DC_E_USAGE);
	assert_int_equal(dc_case_attach(f->s, id, "message", one, "bb03", NULL,
					"m@x.org", T0, NULL),
			 DC_OK);
	assert_int_equal(mail_count(f->s, id, &threads), 4);
	assert_int_equal(threads, 2); /* a message alone is not its thread */
	/* The report stays. */
	assert_int_equal(dc_case_detach(f->s, id, "bb01.report@example.org",
					"m@x.org", T0, &err),
			 DC_E_INVALID);
	assert_non_null(strstr(err.msg, "is the report of case"));
	assert_int_equal(dc_case_detach(f->s, id, "nope@x.org", "m@x.org", T0,
					NULL),
			 DC_E_NOT_FOUND);
	/* Any message of an attached thread takes the thread away. */
	assert_int_equal(dc_case_detach(f->s, id, "l2@x.org", "m@x.org", T0,
					&err),
			 DC_OK);
	assert_int_equal(mail_count(f->s, id, &threads), 2);
	assert_int_equal(threads, 1);
	assert_int_equal(dc_case_for_thread(f->s, "bb02", &c, NULL), DC_OK);
	assert_null(c);
	/* Undo puts it back. */
	assert_int_equal(dc_case_undo(f->s, id, "m@x.org", T0, NULL), DC_OK);
	assert_int_equal(mail_count(f->s, id, &threads), 4);
	assert_int_equal(threads, 2);
	/* ... and the next undo takes the single message off again. */
	assert_int_equal(dc_case_undo(f->s, id, "m@x.org", T0, NULL), DC_OK);
	assert_int_equal(mail_count(f->s, id, NULL), 3);
	assert_int_equal(dc_case_detach(f->s, id, "m1@x.org", "m@x.org", T0,
					NULL),
			 DC_E_NOT_FOUND);
	/* Another report of the incident is a report: it is counted as
	 * one and stays like the first; mail is a report or nothing. */
	assert_int_equal(dc_case_attach(f->s, id, "message", one, "bb03",
					"witness", "m@x.org", T0, NULL),
			 DC_E_USAGE);
	assert_int_equal(dc_case_attach(f->s, id, "message", one, "bb03",
					"report", "m@x.org", T0, NULL),
			 DC_OK);
	assert_int_equal(dc_case_get(f->s, id, &c, NULL), DC_OK);
	{
		unsigned reports = 0, i;

		for (i = 0; i < c->mail->len; i++)
			reports += !g_strcmp0(
			    ((dc_store_mail_t *)c->mail->pdata[i])->role,
			    "report");
		assert_int_equal(reports, 2);
	}
	dc_case_free(c);
	c = NULL;
	assert_int_equal(dc_case_detach(f->s, id, "m1@x.org", "m@x.org", T0,
					&err),
			 DC_E_INVALID);
	assert_int_equal(dc_case_undo(f->s, id, "m@x.org", T0, NULL), DC_OK);
	assert_int_equal(mail_count(f->s, id, NULL), 3);
	/* Someone who may not see the case may not attach to it. */
	assert_int_equal(dc_member_add(f->s, "late@x.org", NULL, "committee",
				       T0 + 10 * DAY, "m@x.org", T0, NULL),
			 DC_OK);
	dc_store_set_viewer(f->s, "late@x.org");
	assert_int_equal(dc_case_attach(f->s, id, "message", one, "bb03", NULL,
					"late@x.org", T0, NULL),
			 DC_E_NOT_FOUND);
	assert_int_equal(dc_case_detach(f->s, id, "l1@x.org", "late@x.org", T0,
					NULL),
			 DC_E_NOT_FOUND);
}

static void
test_closed_case_stays(void **state)
{
	struct fx *f = *state;
	int64_t id = tag(f->s, "bb04", DC_KIND_ADMONITION, "m@x.org", T0);
	dc_error_t err = { 0 };
	dc_case_t *c = NULL;
	char *st;

	assert_int_equal(dc_case_closed_for_thread(f->s, "bb04", &c, NULL),
			 DC_OK);
	assert_null(c); /* open: nothing to ask */
	assert_int_equal(dc_case_reopen(f->s, id, NULL, "m@x.org", T0, &err),
			 DC_E_INVALID);
	assert_int_equal(dc_case_set_state(f->s, id, "closed", NULL,
					   "m@x.org", T0, NULL),
			 DC_OK);
	/* The thread still shows its case. */
	assert_int_equal(dc_case_for_thread(f->s, "bb04", &c, NULL), DC_OK);
	assert_non_null(c);
	assert_int_equal(c->id, id);
	assert_string_equal(c->state, "closed");
	dc_case_free(c);
	assert_int_equal(dc_case_closed_for_thread(f->s, "bb04", &c, NULL),
			 DC_OK);
	assert_non_null(c);
	assert_int_equal(c->id, id);
	dc_case_free(c);
	assert_int_equal(dc_case_reopen(f->s, id, "again", "m@x.org", T0,
					&err),
			 DC_OK);
	st = state_of(f->s, id);
	assert_string_equal(st, "investigating");
	g_free(st);
	assert_int_equal(dc_case_closed_for_thread(f->s, "bb04", &c, NULL),
			 DC_OK);
	assert_null(c);
}

/* Registering the first committee member must not hide the cases of
 * the maintainer who opened them. */
static void
test_maintainer_keeps_own_cases(void **state)
{
	struct fx *f = *state;
	int64_t id;
	GPtrArray *cases = NULL;
	dc_case_t *c = NULL;

	dc_store_set_viewer(f->s, "maint@x.org");
	id = tag(f->s, "bb05", DC_KIND_ESCALATION, "maint@x.org", T0);
	assert_int_equal(dc_member_add(f->s, "first@x.org", NULL, "committee",
				       0, "maint@x.org", T0 + DAY, NULL),
			 DC_OK);
	assert_int_equal(dc_case_list(f->s, &cases, NULL), DC_OK);
	assert_int_equal(cases->len, 1);
	assert_int_equal(((dc_case_t *)cases->pdata[0])->id, id);
	g_ptr_array_unref(cases);
	assert_int_equal(dc_case_for_thread(f->s, "bb05", &c, NULL), DC_OK);
	assert_non_null(c);
	dc_case_free(c);
	/* The committee member joined after the report: not theirs. */
	dc_store_set_viewer(f->s, "first@x.org");
	assert_int_equal(dc_case_list(f->s, &cases, NULL), DC_OK);
	assert_int_equal(cases->len, 0);
	g_ptr_array_unref(cases);
	/* The maintainer registered as a member later still sees it. */
	assert_int_equal(dc_member_add(f->s, "maint@x.org", NULL, "committee",
				       T0 + 2 * DAY, "first@x.org", T0 + 2 * DAY,
				       NULL),
			 DC_OK);
	dc_store_set_viewer(f->s, "maint@x.org");
	assert_int_equal(dc_case_list(f->s, &cases, NULL), DC_OK);
	assert_int_equal(cases->len, 1);
	g_ptr_array_unref(cases);
	/* ... unless recused. */
	assert_int_equal(dc_case_conflict(f->s, id, "maint@x.org", NULL, 1,
					  "maint@x.org", T0, NULL),
			 DC_OK);
	assert_int_equal(dc_case_list(f->s, &cases, NULL), DC_OK);
	assert_int_equal(cases->len, 0);
	g_ptr_array_unref(cases);
	/* Nobody unidentified changes the membership. */
	assert_int_equal(dc_member_add(f->s, "x@x.org", NULL, "tab", 0,
				       "root", T0, NULL),
			 DC_E_DENIED);
}

static void
test_outcome_edit(void **state)
{
	struct fx *f = *state;
	int64_t id = tag(f->s, "bb06", DC_KIND_ESCALATION, "m@x.org", T0);
	dc_outcome_t o = { .kind = DC_OUTCOME_COACHING, .note = "first" };
	dc_outcome_t e = { .kind = DC_OUTCOME_APOLOGY };
	const dc_outcome_t *cur;
	dc_error_t err = { 0 };
	dc_case_t *c = NULL;

	assert_int_equal(dc_case_outcome_edit(f->s, id, 0, &e, "m@x.org",
					      T0, &err),
			 DC_E_INVALID);
	assert_int_equal(dc_case_set_state(f->s, id, "investigating", NULL,
					   "m@x.org", T0, NULL),
			 DC_OK);
	assert_int_equal(dc_case_outcome(f->s, id, &o, "m@x.org", T0, NULL),
			 DC_OK);
	/* A bad edit is refused as a bad outcome would be. */
	e.public_ = 1;
	assert_int_equal(dc_case_outcome_edit(f->s, id, 0, &e, "m@x.org",
					      T0, NULL),
			 DC_E_USAGE);
	e.public_ = 0;
	assert_int_equal(dc_case_outcome_edit(f->s, id, 0, &e, "m@x.org",
					      T0 + DAY, &err),
			 DC_OK);
	assert_int_equal(dc_case_get(f->s, id, &c, NULL), DC_OK);
	assert_int_equal(c->outcomes->len, 1);
	cur = dc_case_outcome_find(c, 0);
	assert_int_equal(cur->kind, DC_OUTCOME_APOLOGY);
	assert_null(cur->note);
	assert_int_equal(cur->edited_at, T0 + DAY);
	assert_string_equal(
	    ((dc_history_t *)c->history->pdata[c->history->len - 1])->type,
	    "outcome-edit");
	assert_non_null(strstr(
	    ((dc_history_t *)c->history->pdata[c->history->len - 1])->summary,
	    "coaching -> apology"));
	dc_case_free(c);
	assert_int_equal(dc_case_outcome_edit(f->s, id, 999, &e, "m@x.org",
					      T0, NULL),
			 DC_E_INVALID);
	/* Undo restores the old value. */
	assert_int_equal(dc_case_undo(f->s, id, "m@x.org", T0, NULL), DC_OK);
	assert_int_equal(dc_case_get(f->s, id, &c, NULL), DC_OK);
	cur = dc_case_outcome_find(c, 0);
	assert_int_equal(cur->kind, DC_OUTCOME_COACHING);
	assert_string_equal(cur->note, "first");
	assert_int_equal(cur->edited_at, 0);
	dc_case_free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_transitions, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_undo, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_tab_not_counted_until_converted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_access_windows, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_mirror_wanted, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_verify_truncation, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_attach_detach, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_closed_case_stays, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_maintainer_keeps_own_cases,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_outcome_edit, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
