/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * TAB decisions.  The TAB can overturn a decision of the Code of Conduct
 * committee by a two-thirds vote (Documentation/process/
 * code-of-conduct-interpretation.rst, 6.1); later text asks for two thirds
 * of the members voting to approve remedial measures.  Which two thirds
 * is a rule the user chooses:
 *
 *   votes-cast  two thirds of the votes for and against (abstentions and
 *               recusals do not count).  The default.
 *   members     two thirds of the TAB's members, less those recused
 *               (abstaining or not voting counts against).
 *
 * Integer arithmetic: the motion passes when 3 * for >= 2 * denominator.
 * A tie never passes (the committee's decision stands).  With a
 * denominator of 0 (everyone abstained or was recused) there is no
 * decision, and the tally says so.
 */
#ifndef DC_VOTE_H
#define DC_VOTE_H

#include <stdint.h>

#include "core/case/case.h"

typedef enum {
	DC_VOTE_FOR,
	DC_VOTE_AGAINST,
	DC_VOTE_ABSTAIN,
	DC_VOTE_RECUSED,
	DC_VOTE_COUNT,
} dc_vote_choice_t;

typedef enum {
	DC_RULE_VOTES_CAST,
	DC_RULE_MEMBERS,
} dc_vote_rule_t;

typedef struct dc_vote {
	char *member;
	dc_vote_choice_t choice;
	int64_t at;
} dc_vote_t;

typedef struct dc_tally {
	int n_for, n_against, n_abstain, n_recused;
	int members;     /* TAB size used by the members rule */
	int denominator; /* what two thirds are taken of */
	dc_vote_rule_t rule;
	int decided;     /* 0: no decision can be taken from these votes */
	int passed;      /* decided and 3 * for >= 2 * denominator */
	int tie;
	const char *why; /* one line for people */
} dc_tally_t;

const char *dc_vote_choice_name(dc_vote_choice_t c);
dc_status_t dc_vote_choice_parse(const char *s, dc_vote_choice_t *out,
				 dc_error_t *err);
const char *dc_vote_rule_name(dc_vote_rule_t r);
dc_status_t dc_vote_rule_parse(const char *s, dc_vote_rule_t *out,
			       dc_error_t *err);

/*
 * The arithmetic alone.  members is the TAB's size (recused members
 * included); when 0 under the members rule, the members who voted in any
 * way are taken as the TAB.
 */
void dc_tally_compute(int n_for, int n_against, int n_abstain, int n_recused,
		      int members, dc_vote_rule_t rule, dc_tally_t *out);
/* The tally of a case's current votes. */
void dc_case_tally(const dc_case_t *c, int members, dc_vote_rule_t rule,
		   dc_tally_t *out);

/*
 * Record member's vote on the case (a later vote replaces an earlier
 * one).  When TAB members are registered, member must be one of them and
 * active now; a member recused from the case can only vote "recused".
 */
dc_status_t dc_case_vote(dc_store_t *s, int64_t case_id, const char *member,
			 dc_vote_choice_t choice, const char *actor,
			 int64_t now, dc_error_t *err);

#endif
