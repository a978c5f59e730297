// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * cover.eml: the message to the TAB, multipart/mixed (core/mail/compose.h):
 * the letter, then every other file of the packet attached under its own
 * name, base64 so that each attachment decodes to exactly the bytes that
 * MANIFEST.sha256 lists.  A TAB member who only has the mail has the
 * whole packet.
 *
 * The letter says what the TAB is asked to decide, under which rule (in
 * the documentation's own words, and nothing they do not say), what the
 * committee recommends, and by when a reply is needed.
 */
#include <string.h>

#include "core/case/outcome.h"
#include "core/case/vote.h"
#include "core/export/packet-build.h"
#include "core/mail/compose.h"

#define DAY (24 * 60 * 60)
#define REPLY_DAYS 14

/* What each file holds, for the letter's list of attachments. */
static const struct {
	const char *name, *type, *what;
} files[] = {
	{ "thread.mbox", "application/mbox",
	  "every message of the case's threads (mboxrd)" },
	{ "links.txt", "text/plain",
	  "lore links and Message-IDs cited, resolved" },
	{ "timeline.txt", "text/plain", "every event with its values" },
	{ "timeline.json", "application/json", "the same as JSON" },
	{ "decisions.txt", "text/plain", "outcomes, TAB votes, tally" },
	{ "decisions.json", "application/json", "the same as JSON" },
	{ "conflicts.txt", "text/plain",
	  "conflicts of interest, recusals" },
};

static guint
file_index(const char *name)
{
	guint i;

	for (i = 0; i < G_N_ELEMENTS(files); i++)
		if (!strcmp(files[i].name, name))
			return i;
	return G_N_ELEMENTS(files);
}

/* The question put to the TAB, from the case's kind and outcome. */
static const char *
question(const dc_case_t *c, const dc_outcome_t *top)
{
	if (c->kind == DC_KIND_TAB)
		return "A maintainer asks the TAB for its advice on this case.";
	if (!top)
		return "The committee has recorded no decision on this case "
		       "yet and consults\nthe TAB on it.";
	if (top->kind == DC_OUTCOME_MEASURE || top->kind == DC_OUTCOME_TAB)
		return "Will the TAB implement the remedial measure that the "
		       "committee\nrecommends below, or overturn the "
		       "committee's decision?";
	return "Does the committee's decision below stand, or does the TAB "
	       "overturn it?";
}

/*
 * The rule: Documentation/process/code-of-conduct-interpretation.rst of
 * Linux 6.1, lines 148-149, word for word (docs/kernel/CLAIMS), and what
 * later releases say as the kernel series words it.
 */
static void
rule(dc_packet_build_t *p, GString *s)
{
	dc_vote_rule_t r = dc_packet_vote_rule();

	g_string_append(s,
		"The rule that applies\n\n"
		"  Documentation/process/code-of-conduct-interpretation.rst "
		"(Linux 6.1):\n"
		"  \"A decision by the Code of Conduct Committee can be "
		"overturned by the\n"
		"  TAB by a two-thirds vote.\"\n"
		"  Later kernel releases revise this process: there, the TAB "
		"approves\n"
		"  remedial measures by a vote of two thirds of its members "
		"voting.\n\n");
	g_string_append_printf(s,
		"  decisions.txt tallies the votes recorded so far as two "
		"thirds of\n"
		"  %s (the tab.overturn_rule\n"
		"  setting: %s).\n\n",
		r == DC_RULE_MEMBERS ? "the TAB's members less those recused" :
				       "the votes cast for and against",
		dc_vote_rule_name(r));
}

static void
recommendation(dc_packet_build_t *p, GString *s, const dc_outcome_t *o)
{
	char *what, *scope, *from, *until, *rel;

	g_string_append(s, "The committee's recommendation\n\n");
	if (!o) {
		g_string_append(s, "  None recorded yet.\n\n");
		return;
	}
	what = dc_packet_clean(p, o->what);
	scope = dc_packet_clean(p, o->scope);
	rel = dc_packet_clean(p, o->until_release);
	from = dc_packet_day(o->from);
	until = dc_packet_day(o->until);
	g_string_append_printf(s, "  %s (%s)%s\n", dc_outcome_label(o->kind),
			       dc_outcome_name(o->kind),
			       o->public_ ? ", on the list" : "");
	if (what)
		g_string_append_printf(s, "  Measure:  %s\n", what);
	if (scope)
		g_string_append_printf(s, "  Scope:    %s\n", scope);
	if (until)
		g_string_append_printf(s,
				       "  Duration: from %s until %s%s%s%s\n",
				       from ? from : "now", until,
				       rel ? " (" : "", rel ? rel : "",
				       rel ? ")" : "");
	if (o->note)
		g_string_append(s, p->o->redact ?
				   "  (with a note, left out: the packet is "
				   "redacted)\n" :
				   "  With a note: see decisions.txt\n");
	g_string_append(s, "\n");
	g_free(what);
	g_free(scope);
	g_free(rel);
	g_free(from);
	g_free(until);
}

/* The timeline in a few lines and what was decided so far. */
/* The question each vote answered and where it stands, so the cover
 * alone tells the TAB what it voted on. */
static void
votes_by_question(dc_packet_build_t *p, GString *s)
{
	dc_vote_rule_t rule = dc_packet_vote_rule();
	dc_question_t q;

	for (q = DC_QUESTION_OVERTURN; q < DC_QUESTION_COUNT; q++) {
		dc_tally_t t;

		if (!dc_case_has_question(p->c, q))
			continue;
		dc_case_tally_on(p->c, q, p->tab_members, rule, &t);
		g_string_append_printf(s, "  On %s: %s\n    for %d, against "
				       "%d, abstain %d, recused %d: %s\n",
				       dc_question_name(q),
				       dc_question_text(q), t.n_for,
				       t.n_against, t.n_abstain, t.n_recused,
				       dc_result_name(t.result));
	}
}

static void
summary(dc_packet_build_t *p, GString *s)
{
	const dc_case_t *c = p->c;
	guint i;

	g_string_append(s, "\nTimeline (timeline.txt has each event's values):"
			   "\n");
	for (i = 0; i < c->history->len; i++) {
		const dc_history_t *h = c->history->pdata[i];
		char *at, *what;

		/* Types only: summaries may name people. */
		if (!strcmp(h->type, "note") || !dc_packet_shows_event(p, h))
			continue;
		at = dc_packet_iso(h->at);
		what = dc_packet_clean(p, h->type);
		g_string_append_printf(s, "  %s  %s%s\n", at, what,
				       h->undone_by ? " (undone)" : "");
		g_free(at);
		g_free(what);
	}
	if (c->votes->len)
		g_string_append_printf(s, "\nTAB votes recorded: %u (see "
				       "decisions.txt)\n", c->votes->len);
	votes_by_question(p, s);
	g_string_append_printf(s, "Conflicts of interest declared: %u\n",
			       c->conflicts->len);
	if (p->o->redact && p->guessed)
		/* Plain words only: a reporter's name may be any word
		 * ("Hostile Sender"), and the final scan refuses it. */
		g_string_append(s, "\nNo reporter is recorded for this case: "
				   "the From of each of its reports was\n"
				   "taken as a reporter and redacted.\n");
}

static void
facts(dc_packet_build_t *p, GString *s)
{
	char *reported = dc_packet_iso(p->c->reported_at);
	char *opened = dc_packet_iso(p->c->created_at);
	const dc_outcome_t *top = dc_case_top_outcome(p->c);

	g_string_append_printf(s,
		"The case\n\n"
		"  Kind:      %s\n"
		"  State:     %s\n"
		"  Reported:  %s\n"
		"  Opened:    %s\n"
		"  Threads:   %u\n"
		"  Messages:  %u (thread.mbox, mboxrd%s)\n",
		dc_kind_label(p->c->kind), p->c->state, reported, opened,
		p->mail->threads->len, p->messages,
		p->o->redact ? ", reporters redacted" : "");
	/* Counted, not named: a Message-ID can name its sender. */
	if (p->mail->missing->len)
		g_string_append_printf(s,
			"  Missing:   %u message%s of the case %s not in the "
			"sender's notmuch index\n",
			p->mail->missing->len,
			p->mail->missing->len == 1 ? "" : "s",
			p->mail->missing->len == 1 ? "is" : "are");
	g_string_append_printf(s, "\nOutcome so far: %s\n",
			       top ? dc_outcome_label(top->kind) :
				     "none recorded");
	g_free(reported);
	g_free(opened);
}

static void
attachments(dc_packet_build_t *p, GString *s)
{
	guint i;

	g_string_append(s, "\nAttached (MANIFEST.sha256, beside this message "
			   "in the packet's\ndirectory, lists the SHA-256 of "
			   "each and of this message):\n");
	for (i = 0; i < p->names->len; i++) {
		const char *name = p->names->pdata[i];
		guint k = file_index(name);

		g_string_append_printf(s, "  %-15s %s\n", name,
				       k < G_N_ELEMENTS(files) ? files[k].what :
								 "");
	}
}

static char *
letter(dc_packet_build_t *p, int64_t reply_by)
{
	GString *s = g_string_new(NULL);
	const dc_outcome_t *top = dc_case_top_outcome(p->c);
	char *by = dc_packet_day(reply_by);

	g_string_append_printf(s,
		"Dear members of the TAB,\n\n"
		"this is the packet for case %" G_GINT64_FORMAT ".\n\n"
		"The question put to the TAB\n\n  ", (gint64)p->c->id);
	for (const char *q = question(p->c, top); *q; q++) {
		g_string_append_c(s, *q);
		if (*q == '\n')
			g_string_append(s, "  ");
	}
	g_string_append(s, "\n\n");
	rule(p, s);
	recommendation(p, s, p->c->kind == DC_KIND_TAB ? NULL : top);
	g_string_append_printf(s, "Please reply by %s.\n\n", by);
	facts(p, s);
	attachments(p, s);
	summary(p, s);
	g_free(by);
	return g_string_free(s, FALSE);
}

static char *
cover_message(dc_packet_build_t *p, const char *text, int64_t reply_by,
	      int bodies)
{
	dc_attach_t *att = g_new0(dc_attach_t, p->names->len);
	char *by = dc_packet_day(reply_by), *subject, *id, *out;
	dc_compose_t c = {
		.from = p->o->actor, .to = p->o->to ? p->o->to : TAB_LIST,
		.date = p->o->now, .reply_by = reply_by, .text = text,
		.attach = att, .n_attach = p->names->len,
	};
	guint i;

	for (i = 0; i < p->names->len; i++) {
		const GString *d = p->datas->pdata[i];
		guint k = file_index(p->names->pdata[i]);

		att[i].name = p->names->pdata[i];
		att[i].type = k < G_N_ELEMENTS(files) ? files[k].type : NULL;
		att[i].data = d->str;
		att[i].len = d->len;
	}
	c.subject = subject = g_strdup_printf(
		"[TAB] case %" G_GINT64_FORMAT ": %s, decision requested by %s",
		(gint64)p->c->id, dc_kind_label(p->c->kind), by);
	c.message_id = id = g_strdup_printf(
		"decorum-case%" G_GINT64_FORMAT "-%" G_GINT64_FORMAT
		"@decorum.invalid", (gint64)p->c->id, (gint64)p->o->now);
	out = dc_compose_mixed(&c, bodies);
	g_free(subject);
	g_free(id);
	g_free(by);
	g_free(att);
	return out;
}

int64_t
dc_packet_reply_by(const dc_packet_opts_t *o)
{
	return o->reply_by ? o->reply_by : o->now + REPLY_DAYS * DAY;
}

dc_status_t
dc_packet_check_reply_by(const dc_packet_opts_t *o, dc_error_t *err)
{
	if (dc_packet_reply_by(o) / DAY < o->now / DAY)
		return dc_fail(err, DC_E_USAGE, "the reply-by date is before "
			       "the packet's date");
	return DC_OK;
}

void
dc_packet_add_cover(dc_packet_build_t *p)
{
	int64_t reply_by = dc_packet_reply_by(p->o);
	char *text, *msg;

	/* Attach first, then add: the cover attaches every file but
	 * itself (and the manifest, which lists the cover). */
	text = letter(p, reply_by);
	msg = cover_message(p, text, reply_by, 1);
	/* What the final scan reads of the cover: the attached bytes are
	 * the files it scans as such, and their base64 would only give it
	 * false alarms. */
	p->cover_scan = cover_message(p, text, reply_by, 0);
	g_string_append(dc_packet_add_file(p, "cover.eml"), msg);
	g_free(msg);
	g_free(text);
}
