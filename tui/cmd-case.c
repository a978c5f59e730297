// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * decorum case SUBCOMMAND ...: everything the TUI can do to a case.
 *
 *   show N                      the case, its history, votes, outcomes
 *   state N STATE               move it on (new, acknowledged,
 *                               investigating, decided, closed, reopen)
 *   note N TEXT                 add a note
 *   convert N KIND              a TAB consultation becomes a report
 *   undo N                      reverse your newest change
 *   participant N ROLE ADDRESS  reporter, respondent, witness, handler
 *   alias N PERSON TEXT         another form of a person's name
 *   people N                    the people and every form redaction seeks
 *   conflict|recuse N ADDRESS   declare a conflict, or recuse
 *   outcome N OUTCOME ...       record a rung of the outcome ladder
 *   outcome N --edit [OUTCOME]  change the newest outcome (outcome-edit)
 *   category N TEXT             the category of behaviour (the report's
 *                               grouping), from [report] categories
 *   vote N --on Q --member A CHOICE
 *                               a TAB member's vote on a question
 *                               (overturn, approve)
 *   tally N [--on Q]            the two-thirds count and the result
 *   expiring                    remedial measures about to end
 *   late N                      replies that came in after opening
 *   attach N THREAD|id:MSGID    another thread (or --message: one message;
 *                               --report: another report of the incident)
 *   detach N THREAD|id:MSGID    take it off again (never the report)
 *
 * Every subcommand takes --json.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "core/case/action.h"
#include "core/mail/anchor.h"
#include "core/base/clock.h"
#include "core/base/choice.h"
#include "core/base/config.h"
#include "core/case/access.h"
#include "core/case/case.h"
#include "core/case/category.h"
#include "core/export/describe.h"
#include "core/mail/mirror.h"
#include "core/case/outcome.h"
#include "core/case/people.h"
#include "core/base/sanitize.h"
#include "core/case/vote.h"
#include "tui/cli.h"

static int run(dc_cli_t *cli, int argc, char **argv);

const dc_cmd_t cmd_case = {
	.name = "case",
	.args = "show|state|note|convert|undo|participant|alias|people|"
		"conflict|recuse|outcome|outcome-edit|category|vote|tally|"
		"expiring|late|attach|detach|reply|resolve N ... "
		"[--json]",
	.summary = "follow a case: state, outcome, votes, history",
	.run = run,
};

/* Options every subcommand may get; each uses what it needs. */
typedef struct opts {
	int json;
	const char *note;
	const char *name;
	const char *member;
	const char *what;
	const char *scope;
	const char *from;
	const char *until;
	const char *rule;
	const char *on;
	const char *release;
	int cycles;
	int within;
	int remove;
	int public_;
	int message;
	int report;
	int edit;
	const char *file;     /* reply --file */
	const char *template_; /* reply --template */
	int nargs;
	char **args; /* positional arguments after the subcommand */
} opts_t;

static int64_t
now(void)
{
	return dc_now();
}

/* Who acts: as for "decorum tag", notmuch's user when nothing else says. */
static const char *
actor(dc_cli_t *cli)
{
	static char *who;
	dc_mail_t *mail = NULL;

	if (who)
		return who;
	if (!dc_cli_identity(cli))
		dc_cli_open_mail(cli, NULL, 0, &mail, NULL);
	who = g_strdup(dc_cli_actor(cli, mail));
	dc_mail_close(mail);
	return who;
}

/* Best effort: the case's mail as this notmuch has it now, without
 * writing the store (showing records nothing). */
static void
where_mail_is(dc_cli_t *cli, dc_store_t *s, dc_case_t *c)
{
	dc_mail_t *mail = NULL;

	if (dc_cli_open_mail(cli, s, 0, &mail, NULL) == DC_OK)
		dc_anchor_refresh_case(dc_mail_notmuch(mail), c);
	dc_mail_close(mail);
}

static char *
san(const char *s)
{
	return dc_sanitize_line(s ? s : "");
}

static void
tdate(int64_t t, char buf[static 32])
{
	if (t)
		dc_cli_date(t, buf);
	else
		g_strlcpy(buf, "-", 32);
}

/* ---- parsing ------------------------------------------------------------ */

static int
parse_id(dc_cli_t *cli, const char *s, int64_t *id)
{
	if (!dc_cli_case_number(s, id))
		return dc_cli_usage(cli, &cmd_case, "'%s' is not a case number",
				    s ? s : "");
	return 0;
}

static int
parse_opts(dc_cli_t *cli, int argc, char **argv, opts_t *o)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "note", required_argument, NULL, 'n' },
		{ "name", required_argument, NULL, 'N' },
		{ "member", required_argument, NULL, 'm' },
		{ "what", required_argument, NULL, 'w' },
		{ "scope", required_argument, NULL, 's' },
		{ "from", required_argument, NULL, 'f' },
		{ "until", required_argument, NULL, 'u' },
		{ "cycles", required_argument, NULL, 'c' },
		{ "rule", required_argument, NULL, 'r' },
		{ "on", required_argument, NULL, 'o' },
		{ "within", required_argument, NULL, 'W' },
		{ "release", required_argument, NULL, 'R' },
		{ "remove", no_argument, NULL, 'x' },
		{ "public", no_argument, NULL, 'p' },
		{ "message", no_argument, NULL, 'M' },
		{ "report", no_argument, NULL, 'P' },
		{ "edit", no_argument, NULL, 'E' },
		{ "file", required_argument, NULL, 'F' },
		{ "template", required_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->within = -1;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'j': o->json = 1; break;
		case 'n': o->note = optarg; break;
		case 'N': o->name = optarg; break;
		case 'm': o->member = optarg; break;
		case 'w': o->what = optarg; break;
		case 's': o->scope = optarg; break;
		case 'f': o->from = optarg; break;
		case 'u': o->until = optarg; break;
		case 'r': o->rule = optarg; break;
		case 'o': o->on = optarg; break;
		case 'R': o->release = optarg; break;
		case 'x': o->remove = 1; break;
		case 'p': o->public_ = 1; break;
		case 'M': o->message = 1; break;
		case 'P': o->report = 1; break;
		case 'E': o->edit = 1; break;
		case 'F': o->file = optarg; break;
		case 'T': o->template_ = optarg; break;
		case 'c':
		case 'W': {
			char *end;
			long v = strtol(optarg, &end, 10);

			if (*end || v < 0 || v > 100000)
				return dc_cli_usage(cli, &cmd_case,
						    "bad number '%s'", optarg);
			if (c == 'c')
				o->cycles = (int)v;
			else
				o->within = (int)v;
			break;
		}
		default:
			return dc_cli_usage(cli, &cmd_case, "bad option");
		}
	}
	o->nargs = argc - optind;
	o->args = argv + optind;
	return 0;
}

static int
need(dc_cli_t *cli, const opts_t *o, int n, const char *what)
{
	if (o->nargs != n)
		return dc_cli_usage(cli, &cmd_case, "%s", what);
	return 0;
}

/* ---- output ------------------------------------------------------------- */

static void
text_outcome(dc_cli_t *cli, const dc_outcome_t *o)
{
	char a[32], b[32], *what = san(o->what), *scope = san(o->scope);

	fprintf(cli->out, "  %s", dc_outcome_label(o->kind));
	if (o->kind == DC_OUTCOME_ADMONITION)
		fprintf(cli->out, " (%s)", o->public_ ? "on the list"
						       : "private");
	if (o->kind == DC_OUTCOME_MEASURE) {
		tdate(o->from, a);
		tdate(o->until, b);
		fprintf(cli->out, ": %s%s%s, from %s until %s%s%s%s", what,
			*scope ? " in " : "", scope, a, b,
			o->until_release ? " (" : "",
			o->until_release ? o->until_release : "",
			o->until_release ? " is released)" : "");
	}
	if (o->edited_at) {
		tdate(o->edited_at, a);
		fprintf(cli->out, " (edited %s)", a);
	}
	fputc('\n', cli->out);
	g_free(what);
	g_free(scope);
}

/* The votes on one question, its rule and its result. */
static void
text_question(dc_cli_t *cli, const dc_case_t *c, dc_question_t q,
	      const dc_tally_t *t)
{
	guint i;

	fprintf(cli->out, "question: %s %s\n", dc_question_name(q),
		dc_question_text(q));
	fprintf(cli->out, "  source: %s\n", dc_question_source(q));
	fprintf(cli->out, "  rule:   %s\n", dc_vote_rule_text(t->rule));
	for (i = 0; i < c->votes->len; i++) {
		const dc_vote_t *v = c->votes->pdata[i];
		char *m;

		if ((v->question == DC_QUESTION_APPROVE) !=
		    (q == DC_QUESTION_APPROVE))
			continue;
		m = san(v->member);
		fprintf(cli->out, "  %-8s %s%s\n",
			dc_vote_choice_name(v->choice), m,
			v->question == DC_QUESTION_LEGACY
				? " (recorded without a question: read as "
				  "a vote to overturn)"
				: "");
		g_free(m);
	}
	fprintf(cli->out,
		"  tally:  %d for, %d against, %d abstain, %d recused; two "
		"thirds of %d (%s): %s\n",
		t->n_for, t->n_against, t->n_abstain, t->n_recused,
		t->denominator, dc_vote_rule_name(t->rule), t->why);
	fprintf(cli->out, "  result: %s", dc_result_name(t->result));
	if (t->result == DC_RESULT_PENDING && t->outstanding)
		fprintf(cli->out, " (%d TAB member%s yet to vote)",
			t->outstanding, t->outstanding == 1 ? "" : "s");
	fputc('\n', cli->out);
}

static void
text_case(dc_cli_t *cli, const dc_case_t *c, const dc_tally_t *t,
	  GPtrArray *late)
{
	char d1[32], d2[32], *s;
	dc_question_t q;
	guint i;

	dc_cli_date(c->reported_at, d1);
	dc_cli_date(c->created_at, d2);
	s = san(c->subject);
	fprintf(cli->out, "case %" G_GINT64_FORMAT ": %s, %s%s\n", (gint64)c->id,
		dc_kind_label(c->kind), c->state,
		c->kind == DC_KIND_TAB ? " (advice, not a report)" : "");
	fprintf(cli->out, "subject:  %s\nreported: %s\nopened:   %s by %s\n",
		s, d1, d2, c->opened_by ? c->opened_by : "?");
	g_free(s);
	if (*dc_case_next_states(c->state))
		fprintf(cli->out, "next:     %s\n",
			dc_case_next_states(c->state));
	s = san(c->category ? c->category : "(none set)");
	fprintf(cli->out, "category: %s\n", s);
	g_free(s);
	for (i = 0; i < c->threads->len; i++)
		fprintf(cli->out, "thread:   %s\n",
			(char *)c->threads->pdata[i]);
	for (i = 0; i < c->mail->len; i++) {
		const dc_store_mail_t *m = c->mail->pdata[i];
		char *id = san(m->message_id);

		fprintf(cli->out, "message:  <%s>%s%s%s\n", id,
			m->role ? " " : "", m->role ? m->role : "",
			!g_strcmp0(m->scope, "message") ? " (this message "
							  "only)"
							: "");
		if (dc_mail_absent(m))
			fprintf(cli->out, "          (%s)\n",
				dc_mail_absent(m));
		g_free(id);
	}
	for (i = 0; i < c->participants->len; i++) {
		const dc_participant_t *p = c->participants->pdata[i];
		char *n = san(p->name), *a = san(p->address);

		fprintf(cli->out, "%-11s%s%s<%s>\n", p->role, n, *n ? " " : "",
			a);
		g_free(n);
		g_free(a);
	}
	for (i = 0; i < c->conflicts->len; i++) {
		const dc_conflict_t *x = c->conflicts->pdata[i];
		char *a = san(x->address);

		fprintf(cli->out, "%-11s%s\n",
			x->recused ? "recused" : "conflict", a);
		g_free(a);
	}
	for (i = 0; i < c->clashes->len; i++) {
		const dc_clash_t *x = c->clashes->pdata[i];
		char *a = san(x->actor);

		if (!x->resolved)
			fprintf(cli->out,
				"%-11s%s moved it %s -> %s, but the merged "
				"history has it %s (case resolve N)\n",
				"sync", a, x->from ? x->from : "?", x->to,
				x->found);
		g_free(a);
	}
	if (c->outcomes->len)
		fprintf(cli->out, "outcomes:\n");
	for (i = 0; i < c->outcomes->len; i++)
		text_outcome(cli, c->outcomes->pdata[i]);
	for (q = DC_QUESTION_OVERTURN; q < DC_QUESTION_COUNT; q++)
		if (dc_case_has_question(c, q))
			text_question(cli, c, q, &t[q]);
	for (i = 0; late && i < late->len; i++) {
		s = san(late->pdata[i]);
		fprintf(cli->out, "late:     <%s> joined after the case was "
				  "opened\n",
			s);
		g_free(s);
	}
	fprintf(cli->out, "history:\n");
	for (i = 0; i < c->history->len; i++) {
		const dc_history_t *h = c->history->pdata[i];
		char *a = san(h->actor), *sum = san(h->summary);

		dc_cli_date(h->at, d1);
		fprintf(cli->out, "  %4" G_GINT64_FORMAT " %s %s: %s%s\n",
			(gint64)h->id, d1, a, sum,
			h->undone_by ? " (undone)" : "");
		g_free(a);
		g_free(sum);
	}
	for (i = 0; i < c->notes->len; i++) {
		const dc_note_t *n = c->notes->pdata[i];

		s = san(n->text);
		dc_cli_date(n->at, d1);
		fprintf(cli->out, "note:     %s (%s, %s)\n", s, n->actor, d1);
		g_free(s);
	}
}

/* ---- helpers ------------------------------------------------------------ */

static dc_vote_rule_t
rule_of(dc_cli_t *cli, const opts_t *o, int *bad)
{
	char *conf = NULL;
	const char *name = o->rule;
	dc_vote_rule_t r = DC_RULE_VOTES_CAST;
	dc_error_t err = { 0 };

	*bad = 0;
	if (!name)
		name = conf = dc_config_value(NULL, "tab", "overturn_rule");
	if (name && dc_vote_rule_parse(name, &r, &err) != DC_OK) {
		*bad = dc_cli_usage(cli, &cmd_case, "%s", err.msg);
		r = DC_RULE_VOTES_CAST;
	}
	g_free(conf);
	return r;
}

/* t[q] for every question (t[DC_QUESTION_LEGACY] is unused). */
static void
tally_of(dc_store_t *s, const dc_case_t *c, dc_vote_rule_t rule,
	 dc_tally_t t[DC_QUESTION_COUNT])
{
	int members = 0;
	dc_question_t q;

	dc_member_count_active(s, "tab", now(), &members, NULL);
	for (q = 0; q < DC_QUESTION_COUNT; q++)
		dc_case_tally_on(c, q, members, rule, &t[q]);
}

static int
show_case(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o,
	  int with_late)
{
	GPtrArray *late = NULL;
	dc_error_t err = { 0 };
	dc_case_t *c = NULL;
	dc_tally_t t[DC_QUESTION_COUNT];
	dc_mail_opts_t mo;
	int bad;
	dc_vote_rule_t rule = rule_of(cli, o, &bad);

	if (bad)
		return bad;
	if (dc_case_get(s, id, &c, &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	where_mail_is(cli, s, c);
	tally_of(s, c, rule, t);
	dc_cli_mail_opts(cli, &mo);
	/* Best effort: without notmuch the rest of the case still shows. */
	if (with_late && dc_case_late_replies(s, &mo, id, &late, NULL) != DC_OK)
		late = NULL;
	if (o->json) {
		dc_sp_t *sp = dc_cli_sprinter(cli);

		dc_describe_case(sp, c, t, late);
		dc_cli_sprint(cli, sp);
	} else {
		text_case(cli, c, t, late);
	}
	if (late)
		g_ptr_array_unref(late);
	dc_case_free(c);
	return DC_EXIT_OK;
}

/* After a change: what the case is now, and the notmuch queue. */
static int
changed(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o,
	const char *what)
{
	int queued = dc_cli_flush_mirror(cli, s);
	dc_error_t err = { 0 };
	dc_case_t *c = NULL;

	if (dc_case_get(s, id, &c, &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	if (o->json) {
		dc_sp_t *sp = dc_cli_sprinter(cli);

		dc_describe_case_change(sp, c, what, queued);
		dc_cli_sprint(cli, sp);
	} else {
		fprintf(cli->out, "case %" G_GINT64_FORMAT ": %s (now %s, %s)\n",
			(gint64)c->id, what, dc_kind_name(c->kind), c->state);
	}
	dc_case_free(c);
	return DC_EXIT_OK;
}

/* ---- subcommands -------------------------------------------------------- */

typedef int (*sub_fn)(dc_cli_t *cli, dc_store_t *s, int64_t id,
		      const opts_t *o);

static int
sub_show(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o)
{
	if (need(cli, o, 1, "case show N"))
		return DC_EXIT_USAGE;
	return show_case(cli, s, id, o, 1);
}

static int
sub_late(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o)
{
	GPtrArray *late = NULL;
	dc_error_t err = { 0 };
	dc_case_t *c = NULL;
	dc_mail_opts_t mo;
	guint i;

	if (need(cli, o, 1, "case late N"))
		return DC_EXIT_USAGE;
	/* As every command that opens notmuch: the queued tags first. */
	dc_cli_flush_mirror(cli, s);
	dc_cli_mail_opts(cli, &mo);
	if (dc_case_get(s, id, &c, &err) != DC_OK ||
	    dc_case_late_replies(s, &mo, id, &late, &err) != DC_OK) {
		dc_case_free(c);
		return dc_cli_fail(cli, &err);
	}
	dc_case_free(c);
	if (o->json) {
		dc_sp_t *sp = dc_cli_sprinter(cli);

		dc_sp_list(sp);
		for (i = 0; i < late->len; i++)
			dc_sp_mail(sp, late->pdata[i]);
		dc_sp_end(sp);
		dc_cli_sprint(cli, sp);
	} else {
		for (i = 0; i < late->len; i++) {
			char *m = san(late->pdata[i]);

			fprintf(cli->out, "%s\n", m);
			g_free(m);
		}
	}
	g_ptr_array_unref(late);
	return DC_EXIT_OK;
}

static int
sub_state(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o)
{
	dc_error_t err = { 0 };
	char *what;
	int rc;

	if (need(cli, o, 2, "case state N STATE"))
		return DC_EXIT_USAGE;
	if (dc_case_set_state(s, id, o->args[1], o->note,
			      actor(cli), now(), &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	what = g_strdup_printf("state set to %s", o->args[1]);
	rc = changed(cli, s, id, o, what);
	g_free(what);
	return rc;
}

static int
sub_note(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o)
{
	dc_error_t err = { 0 };

	if (need(cli, o, 2, "case note N TEXT"))
		return DC_EXIT_USAGE;
	if (dc_case_note(s, id, o->args[1], actor(cli), now(),
			 &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	return changed(cli, s, id, o, "note added");
}

static int
sub_resolve(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o)
{
	dc_error_t err = { 0 };

	if (need(cli, o, 1, "case resolve N [--note TEXT]"))
		return DC_EXIT_USAGE;
	if (dc_case_resolve(s, id, o->note, actor(cli), now(), &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	return changed(cli, s, id, o, "sync conflicts resolved");
}

static int
sub_convert(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o)
{
	dc_error_t err = { 0 };
	dc_kind_t k;

	if (need(cli, o, 2, "case convert N admonition|escalation"))
		return DC_EXIT_USAGE;
	if (dc_kind_parse(o->args[1], &k, &err) != DC_OK)
		return dc_cli_usage(cli, &cmd_case, "%s", err.msg);
	if (dc_case_convert(s, id, k, o->note, actor(cli), now(),
			    &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	return changed(cli, s, id, o, "converted into a report");
}

static int
sub_undo(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o)
{
	dc_error_t err = { 0 };

	if (need(cli, o, 1, "case undo N"))
		return DC_EXIT_USAGE;
	if (dc_case_undo(s, id, actor(cli), now(), &err) !=
	    DC_OK)
		return dc_cli_fail(cli, &err);
	return changed(cli, s, id, o, "undone");
}

static int
sub_participant(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o)
{
	dc_error_t err = { 0 };

	if (need(cli, o, 3, "case participant N ROLE ADDRESS"))
		return DC_EXIT_USAGE;
	if (dc_case_participant(s, id, o->args[1], o->args[2], o->name,
				o->remove, actor(cli), now(),
				&err) != DC_OK)
		return dc_cli_fail(cli, &err);
	return changed(cli, s, id, o,
		       o->remove ? "participant removed" : "participant added");
}

static int
sub_alias(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o)
{
	dc_error_t err = { 0 };

	if (need(cli, o, 3, "case alias N PERSON TEXT"))
		return DC_EXIT_USAGE;
	if (dc_case_alias(s, id, o->args[1], o->args[2], o->remove,
			  actor(cli), now(), &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	return changed(cli, s, id, o,
		       o->remove ? "name form removed" : "name form added");
}

/* What the identity scan and the redaction will look for. */
static int
sub_people(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o)
{
	dc_identity_set_t *set = NULL;
	dc_error_t err = { 0 };
	dc_mail_t *mail = NULL;
	dc_case_t *c = NULL;
	dc_status_t st;
	int guessed = 0;
	guint i, k;

	if (need(cli, o, 1, "case people N"))
		return DC_EXIT_USAGE;
	if (dc_case_get(s, id, &c, &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	st = dc_cli_open_mail(cli, s, 0, &mail, &err);
	if (st == DC_OK) {
		dc_anchor_refresh_case(dc_mail_notmuch(mail), c);
		st = dc_case_forms(s, mail, c, &set, &guessed, &err);
	}
	dc_mail_close(mail);
	dc_case_free(c);
	if (st != DC_OK)
		return dc_cli_fail(cli, &err);
	if (o->json) {
		dc_sp_t *sp = dc_cli_sprinter(cli);

		dc_sp_list(sp);
		for (i = 0; i < dc_identity_count(set); i++)
			dc_describe_person(sp, dc_identity_get(set, i));
		dc_sp_end(sp);
		dc_cli_sprint(cli, sp);
	}
	for (i = 0; !o->json && i < dc_identity_count(set); i++) {
		const dc_identity_t *p = dc_identity_get(set, i);
		char *a = san(p->address);

		GPtrArray *forms = dc_identity_forms(p);

		fprintf(cli->out, "%s  <%s>\n", p->label, a);
		for (k = 0; k < forms->len; k++) {
			char *d = dc_form_describe(forms->pdata[k]);
			char *n = san(d);

			fprintf(cli->out, "    %s\n", n);
			g_free(n);
			g_free(d);
		}
		g_ptr_array_unref(forms);
		g_free(a);
	}
	if (!o->json && guessed)
		fprintf(cli->out, "(no reporter recorded: Reporter A is the "
				  "sender of the first message; "
				  "case participant N reporter ADDRESS "
				  "says who it is)\n");
	dc_identity_set_free(set);
	return DC_EXIT_OK;
}

static int
conflict_or_recuse(dc_cli_t *cli, dc_store_t *s, int64_t id,
		   const opts_t *o, int recuse)
{
	dc_error_t err = { 0 };

	if (need(cli, o, 2, recuse ? "case recuse N ADDRESS"
				   : "case conflict N ADDRESS"))
		return DC_EXIT_USAGE;
	if (dc_case_conflict(s, id, o->args[1], o->note, recuse,
			     actor(cli), now(), &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	/* A recused viewer no longer sees the case: say so plainly. */
	if (recuse && dc_cli_identity(cli) &&
	    !g_ascii_strcasecmp(dc_cli_identity(cli), o->args[1])) {
		dc_cli_flush_mirror(cli, s);
		fprintf(cli->out, "case %" G_GINT64_FORMAT ": you are recused\n",
			(gint64)id);
		return DC_EXIT_OK;
	}
	return changed(cli, s, id, o,
		       recuse ? "recusal recorded" : "conflict declared");
}

static int
sub_conflict(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o)
{
	return conflict_or_recuse(cli, s, id, o, 0);
}

static int
sub_recuse(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o)
{
	return conflict_or_recuse(cli, s, id, o, 1);
}

/* attach (attach != 0) or detach a thread or a message. */
static int
attach_or_detach(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o,
		 int attach)
{
	dc_error_t err = { 0 };
	dc_mail_t *mail = NULL;
	char *anchor = NULL, *what;
	dc_status_t st;
	int rc;

	if (need(cli, o, 2, attach ? "case attach N THREAD|id:MSGID "
				     "[--message] [--report]"
				   : "case detach N THREAD|id:MSGID"))
		return DC_EXIT_USAGE;
	if (!attach && (o->message || o->report))
		return dc_cli_usage(cli, &cmd_case,
				    "--message and --report go with attach");
	st = dc_cli_open_mail(cli, s, 0, &mail, &err);
	if (st == DC_OK)
		st = attach ? dc_action_attach(s, mail, id, o->args[1],
					       (o->message ? DC_ATTACH_MESSAGE
							   : 0) |
						       (o->report
								? DC_ATTACH_REPORT
								: 0),
					       actor(cli), now(),
					       &anchor, &err)
			    : dc_action_detach(s, mail, id, o->args[1],
					       actor(cli), now(), &anchor,
					       &err);
	dc_mail_close(mail);
	if (st != DC_OK)
		return dc_cli_fail(cli, &err);
	what = san(anchor);
	g_free(anchor);
	anchor = g_strdup_printf("%s <%s>", attach ? "attached" : "detached",
				 what);
	rc = changed(cli, s, id, o, anchor);
	g_free(what);
	g_free(anchor);
	return rc;
}

static int
sub_attach(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o)
{
	return attach_or_detach(cli, s, id, o, 1);
}

static int
sub_detach(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o)
{
	return attach_or_detach(cli, s, id, o, 0);
}

static int
measure_dates(dc_cli_t *cli, const opts_t *o, dc_outcome_t *out, char **rel)
{
	dc_error_t err = { 0 };
	dc_release_t r;
	char buf[16];
	int64_t start;

	*rel = NULL;
	if (o->from && dc_when_parse(o->from, &out->from, &r, &err) != DC_OK)
		return dc_cli_usage(cli, &cmd_case, "%s", err.msg);
	if (o->until && o->cycles)
		return dc_cli_usage(cli, &cmd_case,
				    "--until or --cycles, not both");
	if (o->until) {
		if (dc_when_parse(o->until, &out->until, &r, &err) != DC_OK)
			return dc_cli_usage(cli, &cmd_case, "%s", err.msg);
		if (r.major) {
			dc_release_format(r, buf);
			*rel = g_strdup(buf);
		}
	} else if (o->cycles) {
		/* N release cycles: until the N-th release after the start. */
		int est;

		start = out->from ? out->from : now();
		r = dc_release_after(start, o->cycles);
		dc_release_date(r, &out->until, &est, NULL);
		dc_release_format(r, buf);
		*rel = g_strdup(buf);
	}
	return 0;
}

/*
 * The newest outcome as the options change it: what is not given stays
 * as it was (dc_outcome_edited, core/case/outcome.h).
 */
static int
outcome_edit(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o)
{
	dc_outcome_t chg = { .kind = DC_OUTCOME_COUNT };
	dc_outcome_kind_t kind;
	dc_error_t err = { 0 };
	char *rel = NULL, *what;
	int rc;

	if (o->nargs != 1 && o->nargs != 2)
		return dc_cli_usage(cli, &cmd_case,
				    "case outcome N --edit [OUTCOME] ...");
	if (o->nargs == 2 &&
	    dc_outcome_parse(o->args[1], &chg.kind, &err) != DC_OK)
		return dc_cli_usage(cli, &cmd_case, "%s", err.msg);
	if ((rc = measure_dates(cli, o, &chg, &rel)))
		return rc;
	chg.what = (char *)o->what;
	chg.scope = (char *)o->scope;
	chg.public_ = o->public_;
	chg.until_release = rel;
	chg.note = (char *)o->note;
	if (dc_case_outcome_revise(s, id, &chg, actor(cli), now(), &kind,
				   &err) != DC_OK) {
		g_free(rel);
		return dc_cli_fail(cli, &err);
	}
	g_free(rel);
	what = g_strdup_printf("outcome edited: %s", dc_outcome_label(kind));
	rc = changed(cli, s, id, o, what);
	g_free(what);
	return rc;
}

static int
sub_outcome_edit(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o)
{
	return outcome_edit(cli, s, id, o);
}

static int
sub_outcome(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o)
{
	dc_outcome_t out = { 0 };
	dc_error_t err = { 0 };
	char *rel = NULL;
	int rc;

	if (o->edit)
		return outcome_edit(cli, s, id, o);
	if (need(cli, o, 2, "case outcome N OUTCOME"))
		return DC_EXIT_USAGE;
	if (dc_outcome_parse(o->args[1], &out.kind, &err) != DC_OK)
		return dc_cli_usage(cli, &cmd_case, "%s", err.msg);
	rc = measure_dates(cli, o, &out, &rel);
	if (rc)
		return rc;
	out.public_ = o->public_;
	out.what = (char *)o->what;
	out.scope = (char *)o->scope;
	out.until_release = rel;
	out.note = (char *)o->note;
	if (dc_case_outcome(s, id, &out, actor(cli), now(),
			    &err) != DC_OK) {
		g_free(rel);
		return dc_cli_fail(cli, &err);
	}
	g_free(rel);
	return changed(cli, s, id, o, dc_outcome_label(out.kind));
}

static int
sub_category(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o)
{
	dc_error_t err = { 0 };
	char *what;
	int rc;

	if (need(cli, o, 2, "case category N TEXT"))
		return DC_EXIT_USAGE;
	if (dc_case_category(s, id, o->args[1], actor(cli), now(), &err) !=
	    DC_OK) {
		if (err.status == DC_E_USAGE)
			return dc_cli_usage(cli, &cmd_case, "%s", err.msg);
		return dc_cli_fail(cli, &err);
	}
	{
		char **list = dc_category_list(NULL);

		const char *hit = dc_category_match(list, o->args[1], NULL);

		what = g_strdup_printf("category set to %s",
				       hit ? hit : o->args[1]);
		g_strfreev(list);
	}
	rc = changed(cli, s, id, o, what);
	g_free(what);
	return rc;
}

static int
sub_vote(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o)
{
	dc_error_t err = { 0 };
	dc_vote_choice_t ch;
	dc_question_t q;
	char *what;
	int rc;

	if (need(cli, o, 2, "case vote N --on overturn|approve --member "
			    "ADDRESS for|against|abstain|recused"))
		return DC_EXIT_USAGE;
	if (!o->on)
		return dc_cli_usage(cli, &cmd_case, "on which question (--on)? %s",
				    dc_question_help());
	if (dc_question_parse(o->on, &q, &err) != DC_OK)
		return dc_cli_usage(cli, &cmd_case, "%s", err.msg);
	if (!o->member)
		return dc_cli_usage(cli, &cmd_case, "whose vote? --member");
	if (dc_vote_choice_parse(o->args[1], &ch, &err) != DC_OK)
		return dc_cli_usage(cli, &cmd_case, "%s", err.msg);
	if (dc_case_vote(s, id, q, o->member, ch, actor(cli), now(),
			 &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	what = g_strdup_printf("vote recorded on %s", dc_question_name(q));
	rc = changed(cli, s, id, o, what);
	g_free(what);
	return rc;
}

static int
sub_tally(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o)
{
	dc_error_t err = { 0 };
	dc_case_t *c = NULL;
	dc_tally_t t[DC_QUESTION_COUNT];
	dc_question_t q = DC_QUESTION_OVERTURN;
	int bad;
	dc_vote_rule_t rule = rule_of(cli, o, &bad);

	if (bad || need(cli, o, 1, "case tally N [--on overturn|approve]"))
		return DC_EXIT_USAGE;
	if (o->on && dc_question_parse(o->on, &q, &err) != DC_OK)
		return dc_cli_usage(cli, &cmd_case, "%s", err.msg);
	if (dc_case_get(s, id, &c, &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	tally_of(s, c, rule, t);
	/* Without --on: the question the case was asked, approve if only
	 * that one was. */
	if (!o->on && !dc_case_has_question(c, DC_QUESTION_OVERTURN) &&
	    dc_case_has_question(c, DC_QUESTION_APPROVE))
		q = DC_QUESTION_APPROVE;
	dc_case_free(c);
	if (o->json) {
		dc_sp_t *sp = dc_cli_sprinter(cli);

		dc_describe_tally(sp, &t[q]);
		dc_cli_sprint(cli, sp);
	} else {
		fprintf(cli->out,
			"question: %s %s\n"
			"%d for, %d against, %d abstain, %d recused\n"
			"rule: %s = %d\n%s\nresult: %s\n",
			dc_question_name(q), dc_question_text(q),
			t[q].n_for, t[q].n_against, t[q].n_abstain,
			t[q].n_recused, dc_vote_rule_text(t[q].rule),
			t[q].denominator, t[q].why,
			dc_result_name(t[q].result));
	}
	return DC_EXIT_OK;
}

static int
expiring(dc_cli_t *cli, dc_store_t *s, const opts_t *o)
{
	dc_release_t rel = { 0 };
	GPtrArray *cases = NULL, *hits = NULL;
	dc_error_t err = { 0 };
	int days = o->within;
	guint i;

	if (o->nargs)
		return dc_cli_usage(cli, &cmd_case, "case expiring takes no "
						    "case number");
	if (o->release && dc_release_parse(o->release, &rel, &err) != DC_OK)
		return dc_cli_usage(cli, &cmd_case, "%s", err.msg);
	if (days < 0 && !o->release)
		days = 30;
	if (s && dc_case_list(s, &cases, &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	if (!cases)
		cases = g_ptr_array_new();
	dc_outcome_expiring(cases, now(), days, &rel, &hits);
	if (o->json) {
		dc_sp_t *sp = dc_cli_sprinter(cli);

		dc_sp_list(sp);
		for (i = 0; i < hits->len; i++)
			dc_describe_expiry(sp, hits->pdata[i]);
		dc_sp_end(sp);
		dc_cli_sprint(cli, sp);
	} else {
		for (i = 0; i < hits->len; i++) {
			const dc_expiry_t *e = hits->pdata[i];

			fprintf(cli->out, "case %" G_GINT64_FORMAT ": %s\n",
				(gint64)e->case_id,
				e->expired ? "measure has ended" :
					     "measure ends soon");
			text_outcome(cli, e->outcome);
		}
	}
	g_ptr_array_unref(hits);
	g_ptr_array_unref(cases);
	return DC_EXIT_OK;
}

/* The text of --file (- : standard input), or NULL with a message. */
static char *
read_text(dc_cli_t *cli, const char *file)
{
	GError *gerr = NULL;
	char *text = NULL;

	if (!strcmp(file, "-")) {
		GString *s = g_string_new(NULL);
		char buf[4096];
		size_t n;

		while ((n = fread(buf, 1, sizeof buf, stdin)) > 0)
			g_string_append_len(s, buf, n);
		return g_string_free(s, FALSE);
	}
	if (!g_file_get_contents(file, &text, NULL, &gerr)) {
		fprintf(cli->err, "decorum: %s\n", gerr->message);
		g_clear_error(&gerr);
		return NULL;
	}
	return text;
}

/* The text of template name (NULL: none) in [templates], by a unique
 * prefix as the TUI's prompt takes it: 0, or the exit code. */
static int
reply_template(dc_cli_t *cli, const dc_config_t *cfg, const char *name,
	       const char **tmpl)
{
	const char *const *names = dc_config_keys(cfg, "templates");
	int i;

	*tmpl = NULL;
	if (!name)
		return 0;
	i = dc_choice_resolve(names, -1, name);
	if (i < 0)
		return dc_cli_usage(cli, &cmd_case,
				    "%s template '%s' in [templates]",
				    i == -2 ? "more than one" : "no", name);
	*tmpl = dc_config_get(cfg, "templates", names[i]);
	return 0;
}

/* case reply N MSGID --file F [--template NAME]: the reply notmuch
 * drafts to MSGID, the template and F's text on top, sent and recorded
 * as the TUI's r does (dc_action_reply). */
static int
sub_reply(dc_cli_t *cli, dc_store_t *s, int64_t id, const opts_t *o)
{
	dc_config_t *cfg = dc_config_load(getenv("DECORUM_CONFIG"));
	dc_reply_sent_t sent = { 0 };
	dc_mail_opts_t mo;
	dc_error_t err = { 0 };
	const char *msgid, *tmpl = NULL;
	char *text = NULL, *ack = NULL, *body = NULL, *draft = NULL, *what;
	dc_case_t *c = NULL;
	dc_status_t st;
	int rc;

	if (need(cli, o, 2, "case reply N MSGID --file FILE|- "
			    "[--template NAME]")) {
		dc_config_free(cfg);
		return DC_EXIT_USAGE;
	}
	if (!o->file) {
		dc_config_free(cfg);
		return dc_cli_usage(cli, &cmd_case, "case reply N MSGID "
				    "--file FILE|- [--template NAME]");
	}
	msgid = o->args[1];
	if (!strncmp(msgid, "id:", 3))
		msgid += 3;
	if ((rc = reply_template(cli, cfg, o->template_, &tmpl))) {
		dc_config_free(cfg);
		return rc;
	}
	st = dc_reply_can_send(cfg, &err);
	if (st == DC_OK)
		st = dc_case_get(s, id, &c, &err);
	if (st == DC_OK && !(text = read_text(cli, o->file))) {
		dc_case_free(c);
		dc_config_free(cfg);
		return DC_EXIT_USAGE;
	}
	if (st == DC_OK && tmpl)
		st = dc_reply_fill(tmpl, id, c->subject, &ack, &err);
	dc_case_free(c);
	if (st == DC_OK) {
		body = ack ? g_strconcat(ack, "\n\n", text, NULL)
			   : g_strdup(text);
		dc_cli_mail_opts(cli, &mo);
		st = dc_reply_draft(&mo, msgid, body, actor(cli), &draft,
				    &err);
	}
	if (st == DC_OK)
		st = dc_action_reply(s, cfg, &mo, id, draft, actor(cli), now(),
				     &sent, &err);
	g_free(text);
	g_free(ack);
	g_free(body);
	g_free(draft);
	dc_config_free(cfg);
	if (st != DC_OK)
		return dc_cli_fail(cli, &err);
	if (sent.not_stored)
		fprintf(cli->err, "decorum: sent, but no copy was stored: %s\n",
			sent.not_stored);
	if (sent.not_recorded) {
		fprintf(cli->err, "decorum: sent, but not recorded: %s\n",
			sent.not_recorded);
		dc_reply_sent_clear(&sent);
		return DC_EXIT_DATA;
	}
	text = san(sent.in_reply_to ? sent.in_reply_to : "?");
	what = g_strdup_printf("replied to <%s> as <%s>", text,
			       sent.message_id);
	rc = changed(cli, s, id, o, what);
	g_free(what);
	g_free(text);
	dc_reply_sent_clear(&sent);
	return rc;
}

static const struct {
	const char *name;
	sub_fn fn;
	int writes;
} subs[] = {
	{ "show", sub_show, 0 },
	{ "late", sub_late, 0 },
	{ "tally", sub_tally, 0 },
	{ "state", sub_state, 1 },
	{ "note", sub_note, 1 },
	{ "resolve", sub_resolve, 1 },
	{ "convert", sub_convert, 1 },
	{ "undo", sub_undo, 1 },
	{ "participant", sub_participant, 1 },
	{ "alias", sub_alias, 1 },
	{ "people", sub_people, 0 },
	{ "conflict", sub_conflict, 1 },
	{ "recuse", sub_recuse, 1 },
	{ "outcome", sub_outcome, 1 },
	{ "outcome-edit", sub_outcome_edit, 1 },
	{ "category", sub_category, 1 },
	{ "vote", sub_vote, 1 },
	{ "attach", sub_attach, 1 },
	{ "detach", sub_detach, 1 },
	{ "reply", sub_reply, 1 },
};

static int
run(dc_cli_t *cli, int argc, char **argv)
{
	dc_error_t err = { 0 };
	dc_store_t *s = NULL;
	int64_t id = 0;
	opts_t o;
	size_t i;
	int rc;

	if (argc < 2)
		return dc_cli_usage(cli, &cmd_case, "which subcommand?");
	if (parse_opts(cli, argc - 1, argv + 1, &o))
		return DC_EXIT_USAGE;
	if (!strcmp(argv[1], "expiring")) {
		if (dc_cli_store(cli, DC_OPEN_READ, &s, &err) != DC_OK)
			return dc_cli_fail(cli, &err);
		rc = expiring(cli, s, &o);
		dc_close_store(s);
		return rc;
	}
	for (i = 0; i < G_N_ELEMENTS(subs); i++)
		if (!strcmp(argv[1], subs[i].name))
			break;
	if (i == G_N_ELEMENTS(subs))
		return dc_cli_usage(cli, &cmd_case, "unknown subcommand '%s'",
				    argv[1]);
	if (o.nargs < 1)
		return dc_cli_usage(cli, &cmd_case, "which case?");
	if ((rc = parse_id(cli, o.args[0], &id)))
		return rc;
	/* Reading must not create a store; a change may. */
	if ((subs[i].writes ? dc_cli_store(cli, DC_OPEN_WRITE, &s, &err)
			    : dc_cli_store(cli, DC_OPEN_READ, &s, &err)) !=
	    DC_OK)
		return dc_cli_fail(cli, &err);
	if (!s) {
		fprintf(cli->err, "decorum: no case #%" G_GINT64_FORMAT "\n",
			(gint64)id);
		return DC_EXIT_NOT_FOUND;
	}
	rc = subs[i].fn(cli, s, id, &o);
	dc_close_store(s);
	return rc;
}
