// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The committee's work on the case of the current thread: its people and
 * their roles (W adds one, Y takes one off), conflicts of interest (I) and recusals (U), TAB votes
 * on a stated question (v), the forms of a person's name the redaction
 * looks for (L), and editing the newest outcome (O).  Each is one call
 * into core, the same as the "decorum case" command makes; this file asks
 * for what is missing and says what happened.  From the ":" command line
 * the words of the answers may follow the action's name
 * (":vote overturn for", ":participant witness ADDRESS NAME").
 */
#include <string.h>

#include "core/case/access.h"
#include "core/case/case.h"
#include "core/case/outcome.h"
#include "core/case/vote.h"
#include "tui/tui.h"

/* The next word of *rest (g_free), or NULL; *rest moves past it. */
static char *
word(const char **rest)
{
	const char *p = *rest, *e;

	if (!p)
		return NULL;
	while (*p == ' ')
		p++;
	if (!*p) {
		*rest = p;
		return NULL;
	}
	for (e = p; *e && *e != ' '; e++)
		;
	*rest = e;
	return g_strndup(p, e - p);
}

/* What is left of *rest, trimmed (g_free), or NULL when nothing is. */
static char *
rest_of(const char *rest)
{
	char *s;

	if (!rest)
		return NULL;
	s = g_strstrip(g_strdup(rest));
	if (!*s) {
		g_free(s);
		return NULL;
	}
	return s;
}

/*
 * The answer: given (from the command line, checked against the
 * choices as typing it would be) or asked; 0 when cancelled or refused
 * (said).  initial is what the prompt starts with.
 */
static int
answer_about(dc_tui_t *t, const char *given, const char *label,
	     const char *const *choices, const char *initial, int editor,
	     const char *about, char **out)
{
	dc_prompt_opts_t o = { .choices = choices, .initial = initial,
			       .editor = editor, .about = about };

	*out = NULL;
	if (dc_ask(t, given, label, &o, out)) {
		g_strstrip(*out);
		return 1;
	}
	if (!given)
		dc_tui_message(t, "Cancelled: nothing was changed");
	return 0;
}

static int
answer(dc_tui_t *t, const char *given, const char *label,
       const char *const *choices, const char *initial, int editor,
       char **out)
{
	return answer_about(t, given, label, choices, initial, editor, NULL,
			    out);
}

static void
said(dc_tui_t *t, int64_t id, dc_status_t st, const dc_error_t *err,
     const char *what)
{
	if (st != DC_OK) {
		dc_tui_error(t, "Case #%" G_GINT64_FORMAT ": not changed: %s",
			     (gint64)id, err->msg);
		return;
	}
	dc_tui_case_changed(t, id);
	dc_tui_message(t, "Case #%" G_GINT64_FORMAT ": %s", (gint64)id, what);
}

/* ---- people --------------------------------------------------------- */

/* W: a participant with a role. */
static void
act_participant(dc_tui_t *t, const dc_case_t *c, const char *arg)
{
	const char *rest = arg;
	char *role = NULL, *addr = NULL, *name = NULL, *w, *label, *what;
	dc_error_t err = { 0 };
	dc_status_t st;

	w = word(&rest);
	label = g_strdup_printf("Case #%" G_GINT64_FORMAT ", participant's "
				"role (reporter, respondent, witness, "
				"handler; Esc: cancel): ",
				(gint64)c->id);
	if (!answer(t, w, label, dc_participant_roles(), NULL, 0, &role) ||
	    !*role)
		goto out;
	g_free(w);
	w = word(&rest);
	g_free(label);
	label = g_strdup_printf("The %s's mail address: ", role);
	if (!answer(t, w, label, NULL, NULL, 0, &addr) || !*addr)
		goto out;
	g_free(label);
	label = g_strdup_printf("The %s's name (Enter: none): ", role);
	if (arg)
		name = rest_of(rest);
	else if (!answer(t, NULL, label, NULL, NULL, 0, &name))
		goto out;
	st = dc_case_participant(t->store, c->id, role, addr,
				 name && *name ? name : NULL, 0, t->actor,
				 dc_tui_now(t), &err);
	what = g_strdup_printf("%s added as %s", addr, role);
	said(t, c->id, st, &err, what);
	g_free(what);
out:
	g_free(w);
	g_free(label);
	g_free(role);
	g_free(addr);
	g_free(name);
}

/* The people of c, each address once, NULL-terminated; with role, the
 * roles address holds instead. */
static GPtrArray *
people_or_roles(const dc_case_t *c, const char *address)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
	guint i, j;

	for (i = 0; i < c->participants->len; i++) {
		const dc_participant_t *p = c->participants->pdata[i];
		const char *s = address ? p->role : p->address;

		if (address && g_ascii_strcasecmp(p->address, address))
			continue;
		for (j = 0; j < a->len; j++)
			if (!g_ascii_strcasecmp(a->pdata[j], s))
				break;
		if (j == a->len)
			g_ptr_array_add(a, g_strdup(s));
	}
	g_ptr_array_add(a, NULL);
	return a;
}

/* Y: a participant taken off the case, as "case participant --remove"
 * does (u puts them back). */
static void
act_participant_remove(dc_tui_t *t, const dc_case_t *c, const char *arg)
{
	GPtrArray *people = people_or_roles(c, NULL), *roles = NULL;
	const char *rest = arg;
	char *addr = NULL, *role = NULL, *w, *label, *what;
	dc_error_t err = { 0 };
	dc_status_t st;

	w = word(&rest);
	label = g_strdup_printf("Case #%" G_GINT64_FORMAT ", take whom off "
				"the case (Tab: its people; Esc: cancel): ",
				(gint64)c->id);
	if (people->len == 1) {
		dc_tui_error(t, "Case #%" G_GINT64_FORMAT " has no people "
				"to take off (W adds one)",
			     (gint64)c->id);
		goto out;
	}
	if (!answer(t, w, label, (const char *const *)people->pdata, NULL, 0,
		    &addr) ||
	    !*addr)
		goto out;
	roles = people_or_roles(c, addr);
	g_free(w);
	w = word(&rest);
	g_free(label);
	label = g_strdup_printf("%s has %u roles on the case: which (Tab "
				"completes; Esc: cancel): ",
				addr, roles->len - 1);
	if (roles->len > 2 || w) {
		if (!answer(t, w, label, (const char *const *)roles->pdata,
			    NULL, 0, &role) ||
		    !*role)
			goto out;
	} else if (roles->len == 2) {
		role = g_strdup(roles->pdata[0]);
	}
	st = dc_case_participant(t->store, c->id, role, addr, NULL, 1,
				 t->actor, dc_tui_now(t), &err);
	what = g_strdup_printf("%s is no longer %s (u restores)", addr,
			       role ? role : "one of its people");
	said(t, c->id, st, &err, what);
	g_free(what);
out:
	g_ptr_array_unref(people);
	if (roles)
		g_ptr_array_unref(roles);
	g_free(w);
	g_free(label);
	g_free(addr);
	g_free(role);
}

/* L: another form of a person's name, for the scan and the redaction. */
static void
act_alias(dc_tui_t *t, const dc_case_t *c, const char *arg)
{
	const char *rest = arg;
	char *who = NULL, *text = NULL, *w, *what;
	dc_error_t err = { 0 };
	dc_status_t st;

	w = word(&rest);
	/* A role held by one participant, or an address: core says. */
	if (!answer(t, w,
		    "Whose name (an address, or a role such as respondent; "
		    "Esc: cancel): ",
		    NULL, NULL, 0, &who) ||
	    !*who)
		goto out;
	if (arg)
		text = rest_of(rest);
	else if (!answer(t, NULL,
			 "Another form of the name, to be redacted (Esc: "
			 "cancel): ",
			 NULL, NULL, 0, &text))
		goto out;
	if (!text || !*text) {
		dc_tui_message(t, "No name form given: nothing was changed");
		goto out;
	}
	st = dc_case_alias(t->store, c->id, who, text, 0, t->actor,
			   dc_tui_now(t), &err);
	what = g_strdup_printf("a form of %s's name added (the panel lists "
			       "it under Name forms)",
			       who);
	said(t, c->id, st, &err, what);
	g_free(what);
out:
	g_free(w);
	g_free(who);
	g_free(text);
}

/* I and U: a conflict of interest, or a recusal. */
static void
act_conflict(dc_tui_t *t, const dc_case_t *c, const char *arg, int recuse)
{
	const char *rest = arg;
	char *addr = NULL, *note = NULL, *w, *label, *q;
	dc_error_t err = { 0 };
	dc_status_t st;
	int self;

	w = word(&rest);
	label = g_strdup_printf("Case #%" G_GINT64_FORMAT ", %s of whom "
				"(Enter: you, Esc: cancel): ",
				(gint64)c->id,
				recuse ? "recusal" : "conflict of interest");
	if (!answer(t, w, label, NULL, t->actor, 0, &addr) || !*addr)
		goto out;
	if (arg)
		note = rest_of(rest);
	else if (!answer(t, NULL, "Why (Enter: no note, Esc: cancel): ",
			 NULL, NULL, 0, &note))
		goto out;
	self = t->actor && !g_ascii_strcasecmp(t->actor, addr);
	if (recuse && self) {
		q = g_strdup_printf("Recuse yourself from case #%"
				    G_GINT64_FORMAT "? A recused member "
				    "no longer sees it (y/n) ",
				    (gint64)c->id);
		if (dc_ask_yes_no(t, q, 0) != 1) {
			dc_tui_message(t, "Not recused: nothing was changed");
			g_free(q);
			goto out;
		}
		g_free(q);
	}
	st = dc_case_conflict(t->store, c->id, addr,
			      note && *note ? note : NULL, recuse, t->actor,
			      dc_tui_now(t), &err);
	if (recuse && self && st == DC_OK) {
		/* Whether the case is hidden now is for core's access rules
		 * to say (a maintainer still sees the cases they opened). */
		dc_case_t *still = NULL;

		dc_case_get(t->store, c->id, &still, NULL);
		q = g_strdup(still ? "you are recused (you still see the case: "
				     "decorum member whoami says why)"
				   : "you are recused: the case is hidden "
				     "from you now");
		dc_case_free(still);
	} else {
		q = g_strdup_printf("%s %s", addr,
				    recuse ? "is recused"
					   : "has a conflict of interest");
	}
	said(t, c->id, st, &err, q);
	g_free(q);
out:
	g_free(w);
	g_free(label);
	g_free(addr);
	g_free(note);
}

/* ---- votes ---------------------------------------------------------- */

/* The active TAB members' addresses for Tab, NULL-terminated (NULL when
 * none is registered: then core takes any address). */
static GPtrArray *
tab_members(dc_tui_t *t)
{
	GPtrArray *all = NULL, *a;
	int64_t now = dc_tui_now(t);
	guint i;

	if (dc_member_list(t->store, &all, NULL) != DC_OK)
		return NULL;
	a = g_ptr_array_new_with_free_func(g_free);
	for (i = 0; i < all->len; i++) {
		const dc_store_member_t *m = all->pdata[i];

		if (!g_strcmp0(m->role, "tab") && m->joined <= now &&
		    (!m->left || m->left > now))
			g_ptr_array_add(a, g_strdup(m->address));
	}
	g_ptr_array_unref(all);
	if (!a->len) {
		g_ptr_array_unref(a);
		return NULL;
	}
	g_ptr_array_add(a, NULL);
	return a;
}

static int
listed(GPtrArray *a, const char *s)
{
	guint i;

	for (i = 0; a && s && i + 1 < a->len; i++)
		if (!g_ascii_strcasecmp(a->pdata[i], s))
			return 1;
	return 0;
}

/* v: a TAB member's vote on a stated question. */
static void
act_vote(dc_tui_t *t, const dc_case_t *c, const char *arg)
{
	GPtrArray *members = tab_members(t);
	const char *rest = arg;
	char *qn = NULL, *ch = NULL, *member = NULL, *w = NULL, *label = NULL;
	char *what;
	dc_vote_choice_t choice;
	dc_error_t err = { 0 };
	dc_question_t q;
	dc_status_t st;

	w = word(&rest);
	label = g_strdup_printf("Case #%" G_GINT64_FORMAT ", vote on which "
				"question (overturn, approve; Esc: cancel): ",
				(gint64)c->id);
	if (!answer_about(t, w, label, dc_question_names(), NULL, 0,
			  dc_question_help(), &qn) ||
	    !*qn)
		goto out;
	if (dc_question_parse(qn, &q, &err) != DC_OK) {
		dc_tui_error(t, "%s", err.msg);
		goto out;
	}
	g_free(w);
	w = word(&rest);
	g_free(label);
	label = g_strdup_printf("%s Vote (for, against, abstain, recused; "
				"Esc: cancel): ",
				dc_question_text(q));
	if (!answer(t, w, label, dc_vote_choice_names(), NULL, 0, &ch) ||
	    !*ch)
		goto out;
	if (dc_vote_choice_parse(ch, &choice, &err) != DC_OK) {
		dc_tui_error(t, "%s", err.msg);
		goto out;
	}
	g_free(w);
	w = word(&rest);
	g_free(label);
	label = g_strdup_printf("Whose vote \"%s\" (%sEsc: cancel): ", ch,
				members ? "Tab: the TAB's members; " : "");
	if (arg && !w)
		member = g_strdup(t->actor ? t->actor : "");
	else if (!answer(t, w, label,
			 members ? (const char *const *)members->pdata : NULL,
			 !members || listed(members, t->actor) ? t->actor
								 : NULL,
			 0, &member))
		goto out;
	st = dc_case_vote(t->store, c->id, q, member, choice, t->actor,
			  dc_tui_now(t), &err);
	what = g_strdup_printf("%s votes %s on %s (the panel shows the tally)",
			       member, ch, dc_question_name(q));
	said(t, c->id, st, &err, what);
	g_free(what);
out:
	if (members)
		g_ptr_array_unref(members);
	g_free(w);
	g_free(label);
	g_free(qn);
	g_free(ch);
	g_free(member);
}

/* ---- editing the outcome ---------------------------------------------- */

/* t as YYYY-MM-DD ("" for 0; g_free), a measure's end offered again. */
static char *
ymd(int64_t t)
{
	GDateTime *d = t ? g_date_time_new_from_unix_utc(t) : NULL;
	char *s = d ? g_date_time_format(d, "%Y-%m-%d") : g_strdup("");

	if (d)
		g_date_time_unref(d);
	return s;
}

/*
 * A measure's what, where and until, each prompt starting with the
 * measure recorded (when it is one); 0 when cancelled.  *what and
 * *scope (g_free) hold what chg points to.
 */
static int
ask_measure(dc_tui_t *t, const dc_outcome_t *cur, dc_outcome_t *chg,
	    dc_until_answer_t *u, char **what, char **scope)
{
	int same = cur->kind == DC_OUTCOME_MEASURE;
	char *end = !same ? g_strdup("")
		    : cur->until_release ? g_strdup(cur->until_release)
					 : ymd(cur->until);
	dc_prompt_opts_t ou = { .check = dc_prompt_check_until, .data = u,
				.initial = end };
	char *until = NULL;
	int ok;

	ok = answer(t, NULL, "Measure (e.g. patches not accepted): ", NULL,
		    same ? cur->what : NULL, 0, what) &&
	     answer(t, NULL, "In (subsystem or list; Enter: everywhere): ",
		    NULL, same ? cur->scope : NULL, 0, scope);
	if (ok && !dc_prompt_ex(t,
				"Until (YYYY-MM-DD, a release like v7.2, or "
				"N cycles): ",
				&ou, &until)) {
		dc_tui_message(t, "Cancelled: nothing was changed");
		ok = 0;
	}
	if (ok) {
		chg->what = **what ? *what : NULL;
		chg->scope = *scope;
		chg->until = u->until;
		chg->until_release = u->release;
	}
	g_free(until);
	g_free(end);
	return ok;
}

/*
 * O: the newest outcome, changed as an outcome-edit event (the history
 * keeps both; u restores the old).  Each prompt starts with what is
 * recorded; from the command line, ":outcome-edit RUNG [public]" asks
 * only what that rung needs and the note.
 */
static void
act_outcome_edit(dc_tui_t *t, const dc_case_t *c, const char *arg)
{
	const dc_outcome_t *cur = dc_case_outcome_find(c, 0);
	const char *names[DC_OUTCOME_COUNT + 1] = { NULL };
	dc_outcome_t chg = { .kind = DC_OUTCOME_COUNT };
	dc_until_answer_t u = { dc_tui_now(t), 0, NULL };
	char *kind = NULL, *what = NULL, *scope = NULL, *note = NULL;
	char **words = NULL, *init = NULL, *msg;
	dc_outcome_kind_t now_kind = DC_OUTCOME_COUNT;
	dc_error_t err = { 0 };
	dc_prompt_opts_t ok = { 0 };
	dc_status_t st;
	int i;

	if (!cur) {
		dc_tui_error(t, "Case #%" G_GINT64_FORMAT " has no outcome to "
				"edit (o records one)",
			     (gint64)c->id);
		return;
	}
	for (i = 0; i < DC_OUTCOME_COUNT; i++)
		names[i] = dc_outcome_name(i);
	init = g_strdup_printf("%s%s", dc_outcome_name(cur->kind),
			       cur->public_ ? " public" : "");
	ok.choices = names;
	ok.more_words = 1;
	ok.initial = init;
	if (!dc_ask(t, arg,
		    "Edit the outcome: rung (no-action, admonition [public], "
		    "coaching, amend, apology, measure, tab-referral; Esc: "
		    "cancel): ",
		    &ok, &kind)) {
		if (!arg)
			dc_tui_message(t, "Cancelled: nothing was changed");
		goto out;
	}
	g_strstrip(kind);
	if (!*kind)
		goto out;
	words = g_strsplit(kind, " ", 2);
	if (dc_outcome_parse(words[0], &chg.kind, &err) != DC_OK) {
		dc_tui_error(t, "%s", err.msg);
		goto out;
	}
	chg.public_ = words[1] && *g_strstrip(words[1]) &&
		      g_str_has_prefix("public", words[1]);
	if (chg.kind == DC_OUTCOME_MEASURE &&
	    !ask_measure(t, cur, &chg, &u, &what, &scope))
		goto out;
	if (!answer(t, NULL,
		    "Note (as recorded; C-X: editor, Esc: cancel): ", NULL,
		    cur->note, 1, &note))
		goto out;
	chg.note = note;
	st = dc_case_outcome_revise(t->store, c->id, &chg, t->actor,
				    dc_tui_now(t), &now_kind, &err);
	msg = g_strdup_printf("outcome edited: %s (u restores the old one)",
			      dc_outcome_label(now_kind));
	said(t, c->id, st, &err, msg);
	g_free(msg);
out:
	g_strfreev(words);
	g_free(init);
	g_free(kind);
	g_free(what);
	g_free(scope);
	g_free(note);
	g_free(u.release);
}

void
dc_case_committee_act(dc_tui_t *t, dc_action_t a, const char *arg)
{
	dc_case_t *c = dc_case_current(t, "No thread here");

	if (!c)
		return;
	switch (a) {
	case ACT_PARTICIPANT: act_participant(t, c, arg); break;
	case ACT_PARTICIPANT_REMOVE: act_participant_remove(t, c, arg); break;
	case ACT_ALIAS: act_alias(t, c, arg); break;
	case ACT_CONFLICT: act_conflict(t, c, arg, 0); break;
	case ACT_RECUSE: act_conflict(t, c, arg, 1); break;
	case ACT_VOTE: act_vote(t, c, arg); break;
	case ACT_OUTCOME_EDIT: act_outcome_edit(t, c, arg); break;
	default: break;
	}
	dc_case_free(c);
}
