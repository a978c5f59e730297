// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The forms of a case's people (dc_case_forms) are kept between calls,
 * so that the case panel does not read a thread of a thousand messages
 * on each cursor move; they must never be stale.  After an alias or a
 * participant added by another process (the CLI while the TUI is open)
 * and after new mail in the case's thread (notmuch new), the next call
 * with the case as read from the store again gives the new form.  The
 * people and the mail are fictional.
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

#include "core/case/access.h"
#include "core/case/action.h"
#include "core/case/case.h"
#include "core/case/people.h"
#include "core/mail/anchor.h"
#include "core/mail/mail.h"

#define T0 1796000000
#define ACTOR "maintainer@example.org"

struct fx {
	char *dir;
	char *store_path;
	dc_store_t *s; /* the TUI's connection */
	dc_mail_t *mail; /* the TUI's read handle */
	dc_mail_opts_t o;
	char *thread;
	int64_t case_id;
};

/* A message into the database, as notmuch new would index it: a commit
 * of its own, by another writer. */
static void
deliver(struct fx *f, const char *name, const char *text)
{
	notmuch_database_t *w = NULL;
	char *msg = NULL;
	char *p = g_build_filename(f->dir, name, NULL);

	assert_true(g_file_set_contents(p, text, -1, NULL));
	assert_int_equal(notmuch_database_open_with_config(
				 f->dir, NOTMUCH_DATABASE_MODE_READ_WRITE, "",
				 NULL, &w, &msg),
			 NOTMUCH_STATUS_SUCCESS);
	assert_int_equal(notmuch_database_index_file(w, p, NULL, NULL),
			 NOTMUCH_STATUS_SUCCESS);
	notmuch_database_destroy(w);
	g_free(p);
}

static int
setup(void **state)
{
	struct fx *f = g_new0(struct fx, 1);
	notmuch_database_t *w = NULL;
	dc_tag_result_t res = { 0 };
	dc_error_t err = { 0 };
	char *msg = NULL;

	f->dir = g_dir_make_tmp("test-forms-XXXXXX", NULL);
	assert_non_null(f->dir);
	assert_int_equal(notmuch_database_create_with_config(f->dir, "", NULL,
							     &w, &msg),
			 NOTMUCH_STATUS_SUCCESS);
	notmuch_database_destroy(w);
	deliver(f, "m1",
		"From: Quentin Reporterson <quentin@example.org>\n"
		"To: conduct@kernel.org\n"
		"Subject: a report\n"
		"Date: Mon, 30 Nov 2026 10:00:00 +0000\n"
		"Message-ID: <forms-1@example.org>\n\n"
		"Hello,\n\nsomething happened on the list.\n");
	deliver(f, "m2",
		"From: Rhea Respondent <rhea@example.net>\n"
		"To: conduct@kernel.org\n"
		"Subject: Re: a report\n"
		"Date: Mon, 30 Nov 2026 11:00:00 +0000\n"
		"Message-ID: <forms-2@example.org>\n"
		"In-Reply-To: <forms-1@example.org>\n\n"
		"I see.\n");
	f->store_path = g_build_filename(f->dir, "decorum.db", NULL);
	if (dc_store_open(f->store_path, &f->s, &err) != DC_OK)
		fail_msg("store: %s", err.msg);
	f->o.db_path = f->dir;
	if (dc_mail_open(&f->o, &f->mail, &err) != DC_OK)
		fail_msg("notmuch: %s", err.msg);
	f->thread = dc_anchor_thread_of(dc_mail_notmuch(f->mail),
					"forms-1@example.org");
	assert_non_null(f->thread);
	if (dc_action_tag(f->s, f->mail, f->thread, DC_KIND_ESCALATION, "n",
			  ACTOR, T0, &res, &err) != DC_OK)
		fail_msg("tag: %s", err.msg);
	f->case_id = res.case_id;
	dc_tag_result_clear(&res);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *f = *state;
	char *argv[] = { "rm", "-rf", f->dir, NULL };

	dc_mail_close(f->mail);
	dc_store_close(f->s);
	g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
		     NULL, NULL, NULL);
	g_free(f->thread);
	g_free(f->store_path);
	g_free(f->dir);
	g_free(f);
	return 0;
}

/* Every form dc_case_forms gives now, for the case as the store has it
 * now: "label <address>: name (source), ...", one person a line. */
static char *
forms_now(struct fx *f)
{
	dc_identity_set_t *set = NULL;
	dc_error_t err = { 0 };
	dc_case_t *c = NULL;
	GString *out = g_string_new(NULL);
	int guessed = 0;
	guint i, k;

	if (dc_case_get(f->s, f->case_id, &c, &err) != DC_OK)
		fail_msg("case: %s", err.msg);
	if (dc_case_forms(f->s, f->mail, c, &set, &guessed, &err) != DC_OK)
		fail_msg("forms: %s", err.msg);
	g_string_append_printf(out, "guessed %d\n", guessed);
	for (i = 0; i < dc_identity_count(set); i++) {
		const dc_identity_t *id = dc_identity_get(set, i);

		g_string_append_printf(out, "%s <%s>:", id->label,
				       id->address ? id->address : "");
		for (k = 0; k < id->names->len; k++)
			g_string_append_printf(
			    out, " %s (%s)", (char *)id->names->pdata[k],
			    k < id->sources->len && id->sources->pdata[k] ?
				    (char *)id->sources->pdata[k] :
				    "-");
		g_string_append_c(out, '\n');
	}
	dc_identity_set_free(set);
	dc_case_free(c);
	return g_string_free(out, FALSE);
}

/* The CLI, while the TUI is open: its own connection to the store. */
static dc_store_t *
other_process(struct fx *f)
{
	dc_store_t *s = NULL;
	dc_error_t err = { 0 };

	if (dc_store_open(f->store_path, &s, &err) != DC_OK)
		fail_msg("second store: %s", err.msg);
	return s;
}

/* The same inputs: the mail is not read again, and the answer is the
 * one it read. */
static void
test_kept_when_nothing_changed(void **state)
{
	struct fx *f = *state;
	char *a = forms_now(f), *b;
	guint64 n = dc_case_forms_computed();

	b = forms_now(f);
	assert_int_equal(dc_case_forms_computed(), n);
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "Quentin Reporterson"));
	g_free(a);
	g_free(b);
}

static void
test_alias_from_another_process(void **state)
{
	struct fx *f = *state;
	char *before = forms_now(f), *after;
	dc_store_t *cli = other_process(f);
	dc_error_t err = { 0 };

	assert_null(strstr(before, "Quenny"));
	if (dc_case_alias(cli, f->case_id, "quentin@example.org", "Quenny", 0,
			  ACTOR, T0 + 10, &err) != DC_OK)
		fail_msg("alias: %s", err.msg);
	dc_store_close(cli);
	after = forms_now(f);
	assert_non_null(strstr(after, "Quenny (added by hand)"));
	g_free(before);
	g_free(after);
}

static void
test_participant_from_another_process(void **state)
{
	struct fx *f = *state;
	char *before = forms_now(f), *after;
	dc_store_t *cli = other_process(f);
	dc_error_t err = { 0 };

	assert_null(strstr(before, "Wes Witness"));
	if (dc_case_participant(cli, f->case_id, "witness",
				"wes.witness@example.net", "Wes Witness", 0,
				ACTOR, T0 + 10, &err) != DC_OK)
		fail_msg("participant: %s", err.msg);
	dc_store_close(cli);
	after = forms_now(f);
	assert_non_null(strstr(after, "Wes Witness (recorded)"));
	g_free(before);
	g_free(after);
}

/* A reply signed with a form of the reporter's name the thread did not
 * show before joins the thread: notmuch new commits it. */
static void
test_new_mail_in_the_thread(void **state)
{
	struct fx *f = *state;
	char *before = forms_now(f), *after;

	assert_null(strstr(before, "Quen Reporterson"));
	deliver(f, "m3",
		"From: Quentin Reporterson <quentin@example.org>\n"
		"To: conduct@kernel.org\n"
		"Subject: Re: a report\n"
		"Date: Mon, 30 Nov 2026 12:00:00 +0000\n"
		"Message-ID: <forms-3@example.org>\n"
		"In-Reply-To: <forms-2@example.org>\n\n"
		"One more thing.\n\n-- \nQuen Reporterson\n");
	after = forms_now(f);
	assert_non_null(strstr(after, "Quen Reporterson (signature)"));
	g_free(before);
	g_free(after);
}

/* A member registered since: no longer one of the case's people. */
static void
test_member_registered(void **state)
{
	struct fx *f = *state;
	dc_store_t *cli = other_process(f);
	dc_error_t err = { 0 };
	char *before, *after;

	/* Once there are members, only a member sees a case. */
	if (dc_member_add(cli, ACTOR, "Mo Maintainer", "committee", 0, ACTOR,
			  T0 + 5, &err) != DC_OK)
		fail_msg("member: %s", err.msg);
	dc_store_set_viewer(f->s, ACTOR);
	dc_store_set_viewer(cli, ACTOR);
	before = forms_now(f);
	assert_non_null(strstr(before, "participant <rhea@example.net>"));
	if (dc_member_add(cli, "rhea@example.net", "Rhea Respondent",
			  "committee", 0, ACTOR, T0 + 10, &err) != DC_OK)
		fail_msg("member: %s", err.msg);
	dc_store_close(cli);
	after = forms_now(f);
	assert_null(strstr(after, "participant <rhea@example.net>"));
	g_free(before);
	g_free(after);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_kept_when_nothing_changed,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_alias_from_another_process,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_participant_from_another_process, setup, teardown),
		cmocka_unit_test_setup_teardown(test_new_mail_in_the_thread,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_member_registered, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
