/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * TAB decisions.  Every vote is on a stated question:
 *
 *   overturn  Linux 6.1, Documentation/process/code-of-conduct-
 *             interpretation.rst, section "Enforcement": "A decision by
 *             the Code of Conduct Committee can be overturned by the TAB
 *             by a two-thirds vote."  Result: overturned or upheld.
 *   approve   later upstream releases of the same document: the TAB
 *             approves the remedial measures the committee recommends,
 *             by a vote of two thirds of its members voting.  Result:
 *             approved or rejected.
 *
 * Votes recorded before votes named their question are kept and read as
 * votes on overturn (what the report made of them), marked as such.
 *
 * Which two thirds is a rule the user chooses:
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
	DC_QUESTION_LEGACY,   /* recorded without a question: read as overturn */
	DC_QUESTION_OVERTURN,
	DC_QUESTION_APPROVE,
	DC_QUESTION_COUNT,
} dc_question_t;

typedef enum {
	DC_RESULT_PENDING,    /* votes still to come could change it */
	DC_RESULT_OVERTURNED, /* overturn carried */
	DC_RESULT_UPHELD,     /* overturn not carried: the decision stands */
	DC_RESULT_APPROVED,   /* approve carried */
	DC_RESULT_REJECTED,   /* approve not carried */
} dc_result_t;

typedef enum {
	DC_RULE_VOTES_CAST,
	DC_RULE_MEMBERS,
} dc_vote_rule_t;

typedef struct dc_vote {
	char *member;
	dc_vote_choice_t choice;
	dc_question_t question;
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
	/* Set by dc_case_tally_on() and dc_tally_settle(). */
	dc_question_t question;
	int outstanding;    /* TAB members who have not voted (0: unknown) */
	dc_result_t result;
} dc_tally_t;

const char *dc_vote_choice_name(dc_vote_choice_t c);
/* "for", "against", "abstain", "recused" (NULL-terminated), for prompts. */
const char *const *dc_vote_choice_names(void);
dc_status_t dc_vote_choice_parse(const char *s, dc_vote_choice_t *out,
				 dc_error_t *err);
const char *dc_vote_rule_name(dc_vote_rule_t r);
dc_status_t dc_vote_rule_parse(const char *s, dc_vote_rule_t *out,
			       dc_error_t *err);

/* "overturn", "approve" ("overturn" for legacy votes). */
const char *dc_question_name(dc_question_t q);
/* Accepts "overturn" and "approve" only; DC_E_USAGE with both otherwise. */
dc_status_t dc_question_parse(const char *s, dc_question_t *out,
			      dc_error_t *err);
/* "overturn", "approve" (NULL-terminated), for prompts. */
const char *const *dc_question_names(void);
/* Both questions, what each decides and where it comes from, one line:
 * what a front end says when asking which (or when none was given). */
const char *dc_question_help(void);
/* The question as put to the TAB, one sentence. */
const char *dc_question_text(dc_question_t q);
/* Where the question and its two thirds come from, one line. */
const char *dc_question_source(dc_question_t q);
/* What the rule takes two thirds of, for people. */
const char *dc_vote_rule_text(dc_vote_rule_t r);
/* "pending", "overturned", "upheld", "approved", "rejected". */
const char *dc_result_name(dc_result_t r);

/*
 * The result of question q from the tally t (its counts and rule) with
 * members the TAB's size (0: unknown, the votes recorded are taken as
 * all there are).  Settled when the votes of the members who have not
 * voted could not change it either way: carried (overturned, approved)
 * if it carries even were they all against, not carried (upheld,
 * rejected) if it fails even were they all for, pending otherwise.
 * Once every member has voted, a motion short of two thirds, a tie or
 * nothing but abstentions and recusals included, is not carried.
 * Sets t->question, t->outstanding and t->result.
 */
void dc_tally_settle(dc_question_t q, int members, dc_tally_t *t);

/*
 * The arithmetic alone.  members is the TAB's size (recused members
 * included); when 0 under the members rule, the members who voted in any
 * way are taken as the TAB.
 */
void dc_tally_compute(int n_for, int n_against, int n_abstain, int n_recused,
		      int members, dc_vote_rule_t rule, dc_tally_t *out);
/* The tally and result of a case's current votes on question q (legacy
 * votes count as votes on overturn). */
void dc_case_tally_on(const dc_case_t *c, dc_question_t q, int members,
		      dc_vote_rule_t rule, dc_tally_t *out);
/* The same for overturn, the question of 6.1. */
void dc_case_tally(const dc_case_t *c, int members, dc_vote_rule_t rule,
		   dc_tally_t *out);
/* 1 when the case has a vote on q (legacy votes are on overturn). */
int dc_case_has_question(const dc_case_t *c, dc_question_t q);

/*
 * Record member's vote on question q (overturn or approve) of the case;
 * a later vote of the same member on the same question replaces the
 * earlier one.  When TAB members are registered, member must be one of
 * them and active now; a member recused from the case can only vote
 * "recused".  A question needs something to decide: overturn a
 * committee decision (an outcome), approve a remedial measure
 * (DC_E_INVALID otherwise).
 */
dc_status_t dc_case_vote(dc_store_t *s, int64_t case_id, dc_question_t q,
			 const char *member, dc_vote_choice_t choice,
			 const char *actor, int64_t now, dc_error_t *err);

#endif
