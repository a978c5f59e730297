// SPDX-License-Identifier: GPL-3.0-or-later
/* The two-thirds arithmetic: ties, abstentions, recusals, both rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "core/case/outcome.h"
#include "core/case/vote.h"

static void
test_two_thirds_exact(void **state)
{
	dc_tally_t t;

	(void)state;
	dc_tally_compute(2, 1, 0, 0, 0, DC_RULE_VOTES_CAST, &t);
	assert_true(t.decided);
	assert_true(t.passed); /* 2 of 3 is two thirds */
	dc_tally_compute(3, 2, 0, 0, 0, DC_RULE_VOTES_CAST, &t);
	assert_false(t.passed); /* 3 of 5 is not */
	dc_tally_compute(6, 3, 0, 0, 0, DC_RULE_VOTES_CAST, &t);
	assert_true(t.passed);
}

static void
test_tie(void **state)
{
	dc_tally_t t;

	(void)state;
	dc_tally_compute(2, 2, 1, 0, 0, DC_RULE_VOTES_CAST, &t);
	assert_true(t.decided);
	assert_true(t.tie);
	assert_false(t.passed);
}

static void
test_all_abstain(void **state)
{
	dc_tally_t t;

	(void)state;
	dc_tally_compute(0, 0, 5, 0, 5, DC_RULE_VOTES_CAST, &t);
	assert_false(t.decided);
	assert_false(t.passed);
	assert_int_equal(t.denominator, 0);
	assert_non_null(strstr(t.why, "no decision"));
	dc_tally_compute(0, 0, 0, 0, 0, DC_RULE_VOTES_CAST, &t);
	assert_false(t.decided);
}

static void
test_recused_excluded(void **state)
{
	dc_tally_t t;

	(void)state;
	/* 10 members, 4 recused: two thirds of 6 is 4. */
	dc_tally_compute(4, 1, 1, 4, 10, DC_RULE_MEMBERS, &t);
	assert_int_equal(t.denominator, 6);
	assert_true(t.passed);
	dc_tally_compute(3, 1, 2, 4, 10, DC_RULE_MEMBERS, &t);
	assert_false(t.passed);
	/* Everyone recused: nothing to decide. */
	dc_tally_compute(0, 0, 0, 5, 5, DC_RULE_MEMBERS, &t);
	assert_false(t.decided);
}

static void
test_members_rule_counts_abstention_against(void **state)
{
	dc_tally_t t;

	(void)state;
	/* 4 for, 0 against, 2 abstain, TAB of 10 (4 not voting). */
	dc_tally_compute(4, 0, 2, 0, 10, DC_RULE_MEMBERS, &t);
	assert_false(t.passed);
	dc_tally_compute(4, 0, 2, 0, 10, DC_RULE_VOTES_CAST, &t);
	assert_true(t.passed);
	/* Unknown TAB size: those who took part. */
	dc_tally_compute(2, 0, 1, 0, 0, DC_RULE_MEMBERS, &t);
	assert_int_equal(t.members, 3);
	assert_true(t.passed);
}

static void
test_parse(void **state)
{
	dc_vote_choice_t c;
	dc_vote_rule_t r;

	(void)state;
	assert_int_equal(dc_vote_choice_parse("recused", &c, NULL), DC_OK);
	assert_int_equal(c, DC_VOTE_RECUSED);
	assert_int_equal(dc_vote_choice_parse("yes", &c, NULL), DC_E_USAGE);
	assert_int_equal(dc_vote_rule_parse("members", &r, NULL), DC_OK);
	assert_int_equal(dc_vote_rule_parse("half", &r, NULL), DC_E_USAGE);
}

/* The result of a question: t from the counts, settled against a TAB
 * of members (0: unknown). */
static dc_result_t
result(dc_question_t q, int f, int a, int ab, int rec, int members,
       dc_vote_rule_t rule)
{
	dc_tally_t t;

	dc_tally_compute(f, a, ab, rec, members, rule, &t);
	dc_tally_settle(q, members, &t);
	return t.result;
}

static void
test_result_two_of_three(void **state)
{
	(void)state;
	/* 2 of 3 members voting is two thirds: carried. */
	assert_int_equal(result(DC_QUESTION_APPROVE, 2, 1, 0, 0, 3,
				DC_RULE_VOTES_CAST),
			 DC_RESULT_APPROVED);
	assert_int_equal(result(DC_QUESTION_OVERTURN, 2, 1, 0, 0, 3,
				DC_RULE_VOTES_CAST),
			 DC_RESULT_OVERTURNED);
	/* 1 of 3 is not: rejected, and the decision stands (upheld). */
	assert_int_equal(result(DC_QUESTION_APPROVE, 1, 2, 0, 0, 3,
				DC_RULE_VOTES_CAST),
			 DC_RESULT_REJECTED);
	assert_int_equal(result(DC_QUESTION_OVERTURN, 1, 2, 0, 0, 3,
				DC_RULE_VOTES_CAST),
			 DC_RESULT_UPHELD);
	/* Legacy votes are read as votes on overturn. */
	assert_int_equal(result(DC_QUESTION_LEGACY, 2, 1, 0, 0, 3,
				DC_RULE_VOTES_CAST),
			 DC_RESULT_OVERTURNED);
}

static void
test_result_four_of_six(void **state)
{
	(void)state;
	/* 4 of 6 is exactly two thirds (3 * 4 == 2 * 6): carried. */
	assert_int_equal(result(DC_QUESTION_APPROVE, 4, 2, 0, 0, 6,
				DC_RULE_VOTES_CAST),
			 DC_RESULT_APPROVED);
	/* 3 of 6 (a tie) is not. */
	assert_int_equal(result(DC_QUESTION_APPROVE, 3, 3, 0, 0, 6,
				DC_RULE_VOTES_CAST),
			 DC_RESULT_REJECTED);
	/* 4 for and 2 yet to vote: even two against leave two thirds. */
	assert_int_equal(result(DC_QUESTION_APPROVE, 4, 0, 0, 0, 6,
				DC_RULE_VOTES_CAST),
			 DC_RESULT_APPROVED);
	/* 3 for, 1 against, 2 to come: 5 of 6 or 3 of 6, not settled. */
	assert_int_equal(result(DC_QUESTION_APPROVE, 3, 1, 0, 0, 6,
				DC_RULE_VOTES_CAST),
			 DC_RESULT_PENDING);
	/* 1 for, 3 against, 2 to come: 3 of 6 at best, settled. */
	assert_int_equal(result(DC_QUESTION_OVERTURN, 1, 3, 0, 0, 6,
				DC_RULE_VOTES_CAST),
			 DC_RESULT_UPHELD);
}

static void
test_result_abstentions(void **state)
{
	(void)state;
	/* Members voting: abstentions are left out of the two thirds. */
	assert_int_equal(result(DC_QUESTION_APPROVE, 2, 1, 3, 0, 6,
				DC_RULE_VOTES_CAST),
			 DC_RESULT_APPROVED);
	/* Under the members rule an abstention counts against. */
	assert_int_equal(result(DC_QUESTION_APPROVE, 2, 1, 3, 0, 6,
				DC_RULE_MEMBERS),
			 DC_RESULT_REJECTED);
	/* Everyone abstained: no two thirds in favour, not carried. */
	assert_int_equal(result(DC_QUESTION_APPROVE, 0, 0, 5, 0, 5,
				DC_RULE_VOTES_CAST),
			 DC_RESULT_REJECTED);
	/* Two abstained, three to come: could still go either way. */
	assert_int_equal(result(DC_QUESTION_OVERTURN, 0, 0, 2, 0, 5,
				DC_RULE_VOTES_CAST),
			 DC_RESULT_PENDING);
}

static void
test_result_recusals(void **state)
{
	(void)state;
	/* 7 members, 1 recused: 4 of the 6 voting is two thirds. */
	assert_int_equal(result(DC_QUESTION_OVERTURN, 4, 2, 0, 1, 7,
				DC_RULE_VOTES_CAST),
			 DC_RESULT_OVERTURNED);
	assert_int_equal(result(DC_QUESTION_OVERTURN, 4, 2, 0, 1, 7,
				DC_RULE_MEMBERS),
			 DC_RESULT_OVERTURNED);
	/* 3 for, 2 against, 1 recused, 1 to come: 4 of 6 or 3 of 6. */
	assert_int_equal(result(DC_QUESTION_APPROVE, 3, 2, 0, 1, 7,
				DC_RULE_VOTES_CAST),
			 DC_RESULT_PENDING);
	/* Everyone recused: nothing carried. */
	assert_int_equal(result(DC_QUESTION_APPROVE, 0, 0, 0, 3, 3,
				DC_RULE_VOTES_CAST),
			 DC_RESULT_REJECTED);
}

static void
test_result_no_votes_unknown_size(void **state)
{
	(void)state;
	assert_int_equal(result(DC_QUESTION_APPROVE, 0, 0, 0, 0, 5,
				DC_RULE_VOTES_CAST),
			 DC_RESULT_PENDING);
	assert_int_equal(result(DC_QUESTION_OVERTURN, 0, 0, 0, 0, 0,
				DC_RULE_VOTES_CAST),
			 DC_RESULT_PENDING);
	/* Unknown TAB size: the votes recorded are all there are. */
	assert_int_equal(result(DC_QUESTION_APPROVE, 2, 1, 0, 0, 0,
				DC_RULE_VOTES_CAST),
			 DC_RESULT_APPROVED);
}

static void
test_question_parse(void **state)
{
	dc_question_t q;
	dc_error_t err = { 0 };

	(void)state;
	assert_int_equal(dc_question_parse("approve", &q, NULL), DC_OK);
	assert_int_equal(q, DC_QUESTION_APPROVE);
	assert_int_equal(dc_question_parse("overturn", &q, NULL), DC_OK);
	assert_int_equal(q, DC_QUESTION_OVERTURN);
	assert_int_equal(dc_question_parse("legacy", &q, &err), DC_E_USAGE);
	assert_non_null(strstr(err.msg, "overturn"));
	assert_non_null(strstr(err.msg, "approve"));
	assert_string_equal(dc_question_name(DC_QUESTION_LEGACY), "overturn");
	assert_non_null(strstr(dc_question_source(DC_QUESTION_OVERTURN),
			       "\"Enforcement\""));
	assert_non_null(strstr(dc_question_source(DC_QUESTION_LEGACY),
			       "read as votes to overturn"));
}

/* A vote event as the store holds it. */
static dc_store_event_t *
vote_event(int64_t id, const char *member, const char *choice,
	   const char *question)
{
	dc_store_event_t *e = g_new0(dc_store_event_t, 1);

	e->id = id;
	e->case_id = 1;
	e->at = 1000 + id;
	e->actor = g_strdup("tab@example.org");
	e->type = g_strdup(id == 1 ? "open" : "vote");
	e->data = id == 1 ? g_strdup("{'kind': <'escalation'>}")
		: question
			? g_strdup_printf("{'member': <'%s'>, 'vote': <'%s'>, "
					  "'question': <'%s'>}",
					  member, choice, question)
			: g_strdup_printf("{'member': <'%s'>, 'vote': <'%s'>}",
					  member, choice);
	return e;
}

static void
test_replay_questions(void **state)
{
	GPtrArray *evs = g_ptr_array_new_with_free_func(
		(GDestroyNotify)dc_store_event_free);
	dc_store_case_t sc = { .id = 1, .kind = "escalation", .state = "new" };
	dc_case_t *c;
	dc_tally_t t;

	(void)state;
	g_ptr_array_add(evs, vote_event(1, NULL, NULL, NULL));
	/* An old vote without a question, then the same member on both. */
	g_ptr_array_add(evs, vote_event(2, "a@example.org", "for", NULL));
	g_ptr_array_add(evs, vote_event(3, "b@example.org", "for",
					"approve"));
	g_ptr_array_add(evs, vote_event(4, "b@example.org", "against",
					"overturn"));
	g_ptr_array_add(evs, vote_event(5, "c@example.org", "for",
					"approve"));
	g_ptr_array_add(evs, vote_event(6, "c@example.org", "against",
					"approve"));
	sc.threads = g_ptr_array_new();
	sc.mail = g_ptr_array_new();
	c = dc_case_from_store(&sc);
	g_ptr_array_unref(sc.threads);
	g_ptr_array_unref(sc.mail);
	dc_case_replay(c, evs);
	/* b's vote on overturn does not replace the one on approve; c's
	 * second vote on approve replaces the first. */
	assert_int_equal(c->votes->len, 4);
	assert_int_equal(((dc_vote_t *)c->votes->pdata[0])->question,
			 DC_QUESTION_LEGACY);
	dc_case_tally_on(c, DC_QUESTION_OVERTURN, 3, DC_RULE_VOTES_CAST, &t);
	assert_int_equal(t.n_for, 1);     /* a, legacy */
	assert_int_equal(t.n_against, 1); /* b */
	assert_int_equal(t.outstanding, 1);
	assert_int_equal(t.result, DC_RESULT_PENDING);
	dc_case_tally_on(c, DC_QUESTION_APPROVE, 3, DC_RULE_VOTES_CAST, &t);
	assert_int_equal(t.n_for, 1);
	assert_int_equal(t.n_against, 1);
	assert_int_equal(t.result, DC_RESULT_PENDING);
	assert_true(dc_case_has_question(c, DC_QUESTION_APPROVE));
	assert_non_null(strstr(((dc_history_t *)c->history->pdata[1])->summary,
			       "no question named"));
	dc_case_free(c);
	g_ptr_array_unref(evs);
}

/* The word lists the prompts complete from are the lists core parses. */
static void
test_word_lists(void **state)
{
	const char *const *q = dc_question_names();
	const char *const *v = dc_vote_choice_names();
	const char *const *r = dc_participant_roles();
	dc_question_t qq;
	dc_vote_choice_t vv;
	int i;

	(void)state;
	for (i = 0; q[i]; i++)
		assert_int_equal(dc_question_parse(q[i], &qq, NULL), DC_OK);
	assert_int_equal(i, 2);
	for (i = 0; v[i]; i++) {
		assert_int_equal(dc_vote_choice_parse(v[i], &vv, NULL), DC_OK);
		assert_int_equal(vv, i);
	}
	assert_int_equal(i, DC_VOTE_COUNT);
	for (i = 0; r[i]; i++)
		assert_int_equal(dc_participant_role_check(r[i], NULL), DC_OK);
	assert_int_equal(i, 4);
	assert_non_null(strstr(dc_question_help(), "overturn"));
	assert_non_null(strstr(dc_question_help(), "approve"));
}

/* An edit keeps what it does not give while the rung stays; another
 * rung drops a measure's fields, and public goes with an admonition. */
static void
test_outcome_edited(void **state)
{
	dc_outcome_t cur = { .kind = DC_OUTCOME_MEASURE,
			     .what = "patches not accepted",
			     .scope = "sched",
			     .from = 100,
			     .until = 200,
			     .until_release = "v7.30",
			     .note = "old note" };
	dc_outcome_t chg = { .kind = DC_OUTCOME_COUNT, .scope = "mm" };
	dc_outcome_t out;

	(void)state;
	dc_outcome_edited(&cur, &chg, &out);
	assert_int_equal(out.kind, DC_OUTCOME_MEASURE);
	assert_string_equal(out.scope, "mm");
	assert_string_equal(out.what, "patches not accepted");
	assert_int_equal(out.from, 100);
	assert_int_equal(out.until, 200);
	assert_string_equal(out.until_release, "v7.30");
	assert_string_equal(out.note, "old note");

	chg = (dc_outcome_t){ .kind = DC_OUTCOME_MEASURE, .until = 300 };
	dc_outcome_edited(&cur, &chg, &out);
	assert_int_equal(out.until, 300);
	assert_null(out.until_release); /* a date now, not the release */

	chg = (dc_outcome_t){ .kind = DC_OUTCOME_COACHING, .public_ = 1,
			      .note = "new" };
	dc_outcome_edited(&cur, &chg, &out);
	assert_int_equal(out.kind, DC_OUTCOME_COACHING);
	assert_null(out.what);
	assert_null(out.scope);
	assert_int_equal(out.until, 0);
	assert_false(out.public_);
	assert_string_equal(out.note, "new");

	cur = (dc_outcome_t){ .kind = DC_OUTCOME_ADMONITION, .public_ = 1 };
	chg = (dc_outcome_t){ .kind = DC_OUTCOME_COUNT };
	dc_outcome_edited(&cur, &chg, &out);
	assert_true(out.public_);
	chg.kind = DC_OUTCOME_MEASURE;
	dc_outcome_edited(&cur, &chg, &out);
	assert_false(out.public_);
	assert_null(out.what); /* a new measure has only what is given */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_thirds_exact),
		cmocka_unit_test(test_tie),
		cmocka_unit_test(test_all_abstain),
		cmocka_unit_test(test_recused_excluded),
		cmocka_unit_test(test_members_rule_counts_abstention_against),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_result_two_of_three),
		cmocka_unit_test(test_result_four_of_six),
		cmocka_unit_test(test_result_abstentions),
		cmocka_unit_test(test_result_recusals),
		cmocka_unit_test(test_result_no_votes_unknown_size),
		cmocka_unit_test(test_question_parse),
		cmocka_unit_test(test_replay_questions),
		cmocka_unit_test(test_word_lists),
		cmocka_unit_test(test_outcome_edited),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
