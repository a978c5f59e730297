// SPDX-License-Identifier: GPL-3.0-or-later
/* The two-thirds arithmetic: ties, abstentions, recusals, both rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
