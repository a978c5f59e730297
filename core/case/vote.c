// SPDX-License-Identifier: GPL-3.0-or-later
/* TAB votes and the two-thirds rule (see core/case/vote.h). */
#include <string.h>

#include "core/base/choice.h"
#include "core/case/access.h"
#include "core/case/vote.h"

static const char *const choices[DC_VOTE_COUNT] = {
	[DC_VOTE_FOR] = "for",
	[DC_VOTE_AGAINST] = "against",
	[DC_VOTE_ABSTAIN] = "abstain",
	[DC_VOTE_RECUSED] = "recused",
};

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

void
dc_case_tally(const dc_case_t *c, int members, dc_vote_rule_t rule,
	      dc_tally_t *out)
{
	int n[DC_VOTE_COUNT] = { 0 };
	guint i;

	for (i = 0; c->votes && i < c->votes->len; i++) {
		const dc_vote_t *v = c->votes->pdata[i];

		n[v->choice]++;
	}
	dc_tally_compute(n[DC_VOTE_FOR], n[DC_VOTE_AGAINST],
			 n[DC_VOTE_ABSTAIN], n[DC_VOTE_RECUSED], members, rule,
			 out);
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

dc_status_t
dc_case_vote(dc_store_t *s, int64_t case_id, const char *member,
	     dc_vote_choice_t choice, const char *actor, int64_t now,
	     dc_error_t *err)
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
	dc_case_free(c);
	if (st != DC_OK)
		return st;
	g_variant_builder_init(&b, G_VARIANT_TYPE("a{sv}"));
	g_variant_builder_add(&b, "{sv}", "member",
			      g_variant_new_string(member));
	g_variant_builder_add(&b, "{sv}", "vote",
			      g_variant_new_string(dc_vote_choice_name(choice)));
	return dc_case_record(s, case_id, "vote", g_variant_builder_end(&b),
			      actor, now, err);
}
