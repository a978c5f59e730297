// SPDX-License-Identifier: GPL-3.0-or-later
/* TAB votes and the two-thirds rule (see core/case/vote.h). */
#include <string.h>

#include "core/base/choice.h"
#include "core/case/access.h"
#include "core/case/outcome.h"
#include "core/case/vote.h"

static const char *const choices[DC_VOTE_COUNT + 1] = {
	[DC_VOTE_FOR] = "for",
	[DC_VOTE_AGAINST] = "against",
	[DC_VOTE_ABSTAIN] = "abstain",
	[DC_VOTE_RECUSED] = "recused",
	[DC_VOTE_COUNT] = NULL,
};

const char *const *
dc_vote_choice_names(void)
{
	return choices;
}

const char *
dc_vote_choice_name(dc_vote_choice_t c)
{
	return c < DC_VOTE_COUNT ? choices[c] : "unknown";
}

dc_status_t
dc_vote_choice_parse(const char *s, dc_vote_choice_t *out, dc_error_t *err)
{
	int i;
	dc_status_t st = dc_choice_parse(choices, DC_VOTE_COUNT, "vote", s,
					 &i, err);

	if (st == DC_OK)
		*out = i;
	return st;
}

static const char *const questions[] = { "overturn", "approve", NULL };

const char *
dc_question_name(dc_question_t q)
{
	return q == DC_QUESTION_APPROVE ? "approve" : "overturn";
}

dc_status_t
dc_question_parse(const char *s, dc_question_t *out, dc_error_t *err)
{
	int i;
	dc_status_t st = dc_choice_parse(questions, -1, "question", s, &i,
					 err);

	if (st == DC_OK)
		*out = i ? DC_QUESTION_APPROVE : DC_QUESTION_OVERTURN;
	return st;
}

const char *const *
dc_question_names(void)
{
	return questions;
}

const char *
dc_question_help(void)
{
	return "overturn: the TAB overturns the committee's decision "
	       "(Linux 6.1, two thirds); approve: the TAB approves the "
	       "remedial measures it recommends (later releases)";
}

const char *
dc_question_text(dc_question_t q)
{
	return q == DC_QUESTION_APPROVE
		       ? "Does the TAB approve the remedial measures the "
			 "committee recommends?"
		       : "Does the TAB overturn the committee's decision?";
}

const char *
dc_question_source(dc_question_t q)
{
	switch (q) {
	case DC_QUESTION_APPROVE:
		return "later upstream releases of Documentation/process/"
		       "code-of-conduct-interpretation.rst: the TAB approves "
		       "remedial measures by a vote of two thirds of its "
		       "members voting";
	case DC_QUESTION_LEGACY:
		return "recorded before votes named their question; read "
		       "as votes to overturn (Linux 6.1, Documentation/"
		       "process/code-of-conduct-interpretation.rst, "
		       "\"Enforcement\": a decision by the Code of Conduct "
		       "Committee can be overturned by the TAB by a "
		       "two-thirds vote)";
	default:
		return "Linux 6.1, Documentation/process/"
		       "code-of-conduct-interpretation.rst, \"Enforcement\": "
		       "a decision by the Code of Conduct Committee can be "
		       "overturned by the TAB by a two-thirds vote";
	}
}

const char *
dc_vote_rule_text(dc_vote_rule_t r)
{
	return r == DC_RULE_MEMBERS
		       ? "two thirds of the TAB's members less the recused "
			 "(abstaining or not voting counts against)"
		       : "two thirds of the members voting (for and against; "
			 "abstentions and recusals do not count)";
}

const char *
dc_result_name(dc_result_t r)
{
	static const char *const names[] = {
		[DC_RESULT_PENDING] = "pending",
		[DC_RESULT_OVERTURNED] = "overturned",
		[DC_RESULT_UPHELD] = "upheld",
		[DC_RESULT_APPROVED] = "approved",
		[DC_RESULT_REJECTED] = "rejected",
	};

	return r <= DC_RESULT_REJECTED ? names[r] : "pending";
}

const char *
dc_vote_rule_name(dc_vote_rule_t r)
{
	return r == DC_RULE_MEMBERS ? "members" : "votes-cast";
}

dc_status_t
dc_vote_rule_parse(const char *s, dc_vote_rule_t *out, dc_error_t *err)
{
	static const char *const rules[] = { "votes-cast", "members", NULL };
	int i;
	dc_status_t st = dc_choice_parse(rules, -1, "vote rule", s, &i, err);

	if (st == DC_OK)
		*out = i ? DC_RULE_MEMBERS : DC_RULE_VOTES_CAST;
	return st;
}

void
dc_tally_compute(int n_for, int n_against, int n_abstain, int n_recused,
		 int members, dc_vote_rule_t rule, dc_tally_t *t)
{
	memset(t, 0, sizeof(*t));
	t->n_for = n_for;
	t->n_against = n_against;
	t->n_abstain = n_abstain;
	t->n_recused = n_recused;
	t->rule = rule;
	if (rule == DC_RULE_MEMBERS) {
		/* Unknown size: those who took part in any way. */
		t->members = members > 0 ? members
				       : n_for + n_against + n_abstain +
						 n_recused;
		t->denominator = MAX(t->members - n_recused, 0);
	} else {
		t->members = members;
		t->denominator = n_for + n_against;
	}
	t->tie = n_for == n_against && n_for > 0;
	if (t->denominator == 0) {
		t->why = n_abstain ? "no decision: every member who voted "
				     "abstained or was recused"
				   : "no decision: no votes for or against";
		return;
	}
	t->decided = 1;
	t->passed = 3 * n_for >= 2 * t->denominator;
	if (t->passed)
		t->why = "passed: at least two thirds in favour";
	else if (t->tie)
		t->why = "not passed: a tie is not two thirds (the decision "
			 "stands)";
	else
		t->why = "not passed: fewer than two thirds in favour";
}

/* Would the motion carry with extra votes for and against added? */
static int
carries(const dc_tally_t *t, int more_for, int more_against)
{
	dc_tally_t x;

	dc_tally_compute(t->n_for + more_for, t->n_against + more_against,
			 t->n_abstain, t->n_recused, t->members, t->rule, &x);
	return x.decided && x.passed;
}

void
dc_tally_settle(dc_question_t q, int members, dc_tally_t *t)
{
	int voted = t->n_for + t->n_against + t->n_abstain + t->n_recused;
	int yes = q == DC_QUESTION_APPROVE ? DC_RESULT_APPROVED
					   : DC_RESULT_OVERTURNED;
	int no = q == DC_QUESTION_APPROVE ? DC_RESULT_REJECTED
					  : DC_RESULT_UPHELD;

	t->question = q == DC_QUESTION_LEGACY ? DC_QUESTION_OVERTURN : q;
	t->outstanding = members > voted ? members - voted : 0;
	if (!voted)
		t->result = DC_RESULT_PENDING;
	else if (carries(t, 0, t->outstanding))
		t->result = yes;
	else if (!carries(t, t->outstanding, 0))
		t->result = no;
	else
		t->result = DC_RESULT_PENDING;
	if (voted && t->result == DC_RESULT_PENDING)
		t->why = "pending: the votes of the TAB members still to vote "
			 "could change it";
}

static int
on_question(const dc_vote_t *v, dc_question_t q)
{
	dc_question_t vq = v->question == DC_QUESTION_LEGACY
				   ? DC_QUESTION_OVERTURN
				   : v->question;

	return vq == (q == DC_QUESTION_LEGACY ? DC_QUESTION_OVERTURN : q);
}

void
dc_case_tally_on(const dc_case_t *c, dc_question_t q, int members,
		 dc_vote_rule_t rule, dc_tally_t *out)
{
	int n[DC_VOTE_COUNT] = { 0 };
	guint i;

	for (i = 0; c->votes && i < c->votes->len; i++) {
		const dc_vote_t *v = c->votes->pdata[i];

		if (on_question(v, q))
			n[v->choice]++;
	}
	dc_tally_compute(n[DC_VOTE_FOR], n[DC_VOTE_AGAINST],
			 n[DC_VOTE_ABSTAIN], n[DC_VOTE_RECUSED], members, rule,
			 out);
	dc_tally_settle(q, members, out);
}

void
dc_case_tally(const dc_case_t *c, int members, dc_vote_rule_t rule,
	      dc_tally_t *out)
{
	dc_case_tally_on(c, DC_QUESTION_OVERTURN, members, rule, out);
}

int
dc_case_has_question(const dc_case_t *c, dc_question_t q)
{
	guint i;

	for (i = 0; c->votes && i < c->votes->len; i++)
		if (on_question(c->votes->pdata[i], q))
			return 1;
	return 0;
}

/* When TAB members are registered, only a current one votes. */
static dc_status_t
check_voter(dc_store_t *s, const char *member, int64_t now, dc_error_t *err)
{
	dc_store_member_t *m = NULL;
	int tab = 0;
	dc_status_t st = dc_member_count_active(s, "tab", now, &tab, err);

	if (st != DC_OK || tab == 0)
		return st;
	st = dc_store_member_get(s, member, &m, err);
	if (st == DC_E_NOT_FOUND || (st == DC_OK && strcmp(m->role, "tab")))
		st = dc_fail(err, DC_E_DENIED, "%s is not a TAB member",
			     member);
	else if (st == DC_OK &&
		 (m->joined > now || (m->left && now >= m->left)))
		st = dc_fail(err, DC_E_DENIED,
			     "%s is not a TAB member at this time", member);
	dc_store_member_free(m);
	return st;
}

static int
is_recused(const dc_case_t *c, const char *member)
{
	guint i;

	for (i = 0; i < c->conflicts->len; i++) {
		const dc_conflict_t *x = c->conflicts->pdata[i];

		if (x->recused && !g_ascii_strcasecmp(x->address, member))
			return 1;
	}
	return 0;
}

/* Something for the question to decide. */
static dc_status_t
check_question(const dc_case_t *c, dc_question_t q, dc_error_t *err)
{
	guint i;

	for (i = 0; i < c->outcomes->len; i++) {
		const dc_outcome_t *o = c->outcomes->pdata[i];

		if (q != DC_QUESTION_APPROVE || o->kind == DC_OUTCOME_MEASURE)
			return DC_OK;
	}
	return dc_fail(err, DC_E_INVALID,
		       q == DC_QUESTION_APPROVE
			       ? "case %" G_GINT64_FORMAT " has no remedial "
				 "measure for the TAB to approve"
			       : "case %" G_GINT64_FORMAT " has no committee "
				 "decision (outcome) for the TAB to overturn",
		       (gint64)c->id);
}

dc_status_t
dc_case_vote(dc_store_t *s, int64_t case_id, dc_question_t q,
	     const char *member, dc_vote_choice_t choice, const char *actor,
	     int64_t now, dc_error_t *err)
{
	dc_case_t *c = NULL;
	GVariantBuilder b;
	dc_status_t st;

	if (!member || !strchr(member, '@'))
		return dc_fail(err, DC_E_USAGE, "'%s' is not a mail address",
			       member ? member : "");
	st = check_voter(s, member, now, err);
	if (st == DC_OK)
		st = dc_case_get(s, case_id, &c, err);
	if (st != DC_OK)
		return st;
	if (choice != DC_VOTE_RECUSED && is_recused(c, member))
		st = dc_fail(err, DC_E_INVALID,
			     "%s is recused from case %" G_GINT64_FORMAT
			     " and can only vote \"recused\"",
			     member, (gint64)case_id);
	if (st == DC_OK && q != DC_QUESTION_OVERTURN &&
	    q != DC_QUESTION_APPROVE)
		st = dc_fail(err, DC_E_USAGE, "a vote needs its question: "
					      "overturn or approve");
	if (st == DC_OK)
		st = check_question(c, q, err);
	dc_case_free(c);
	if (st != DC_OK)
		return st;
	g_variant_builder_init(&b, G_VARIANT_TYPE("a{sv}"));
	g_variant_builder_add(&b, "{sv}", "member",
			      g_variant_new_string(member));
	g_variant_builder_add(&b, "{sv}", "vote",
			      g_variant_new_string(dc_vote_choice_name(choice)));
	g_variant_builder_add(&b, "{sv}", "question",
			      g_variant_new_string(dc_question_name(q)));
	return dc_case_record(s, case_id, "vote", g_variant_builder_end(&b),
			      actor, now, err);
}
