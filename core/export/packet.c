// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The TAB escalation packet (see packet.h).  Everything is built in
 * memory, written into a 0700 directory beside the target, scanned when
 * redacted, synced and renamed into place: the TAB never gets half a
 * packet, and a failed check leaves nothing behind.
 */
#include <string.h>

#include "core/case/access.h"
#include "core/mail/anchor.h"
#include "core/case/case.h"
#include "core/base/clock.h"
#include "core/base/config.h"
#include "core/case/event.h"
#include "core/export/describe.h"
#include "core/case/outcome.h"
#include "core/export/packet.h"
#include "core/case/people.h"
#include "core/privacy/privacy.h"
#include "core/privacy/redact.h"
#include "core/base/safefile.h"
#include "core/base/sanitize.h"
#include "core/case/vote.h"

#define TAB_LIST "tech-board@lists.linux-foundation.org"

typedef struct packet {
	const dc_packet_opts_t *o;
	dc_case_t *c;
	GPtrArray *names; /* file names, in write order */
	GPtrArray *datas; /* GString * */
	GString *links;
	unsigned messages;
	dc_anchor_state_t *mail; /* the case's mail as notmuch has it now */
	dc_identity_set_t *reporters;
	int guessed; /* no reporter recorded: the oldest sender taken */
} packet_t;

static GString *
add_file(packet_t *p, const char *name)
{
	GString *s = g_string_new(NULL);

	g_ptr_array_add(p->names, g_strdup(name));
	g_ptr_array_add(p->datas, s);
	return s;
}

void
dc_mboxrd_append(GString *mbox, const char *data, size_t len)
{
	const char *p = data, *end = data + len;

	/* lore's own form, which b4 and git am expect. */
	g_string_append(mbox, "From mboxrd@z Thu Jan  1 00:00:00 1970\n");
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *q = p;
		size_t n = nl ? (size_t)(nl - p + 1) : (size_t)(end - p);

		while (q < p + n && *q == '>')
			q++;
		if ((size_t)(p + n - q) >= 5 && !memcmp(q, "From ", 5))
			g_string_append_c(mbox, '>');
		g_string_append_len(mbox, p, n);
		p += n;
	}
	if (len && data[len - 1] != '\n')
		g_string_append_c(mbox, '\n');
	g_string_append_c(mbox, '\n');
}

static dc_status_t
add_message(packet_t *p, const dc_message_t *m, GString *mbox,
	    unsigned total, dc_error_t *err)
{
	GError *ge = NULL;
	char *data = NULL, *red = NULL;
	gsize len = 0;
	dc_status_t st;

	if (!g_file_get_contents(m->filename, &data, &len, &ge)) {
		st = dc_fail(err, DC_E_IO, "reading message %s: %s",
			     m->message_id, ge->message);
		g_error_free(ge);
		return st;
	}
	if (p->o->redact) {
		st = dc_redact_message(data, len, p->reporters, &red, &len,
				       err);
		g_free(data);
		data = red;
		if (st != DC_OK)
			return st;
	}
	dc_mboxrd_append(mbox, data, len);
	g_free(data);
	/* lore's address is the Message-ID: one that names a
	 * reporter has no link in a redacted packet (its stand-in is
	 * on no list). */
	if (dc_message_is_public(m) &&
	    !(p->o->redact &&
	      dc_identity_in_token(p->reporters, m->message_id))) {
		char *url = dc_lore_url(m->message_id);

		g_string_append_printf(p->links, "%s\n", url);
		g_free(url);
	} else if (dc_message_is_public(m)) {
		g_string_append(p->links, "(one link left out: its "
					  "Message-ID names a "
					  "reporter)\n");
	}
	p->messages++;
	if (p->o->progress)
		p->o->progress(p->o->ctx, p->messages, total);
	return DC_OK;
}

static void
thread_free_cb(gpointer t)
{
	dc_thread_free(t);
}

static gint
by_date(gconstpointer a, gconstpointer b)
{
	const dc_message_t *x = *(dc_message_t *const *)a;
	const dc_message_t *y = *(dc_message_t *const *)b;

	if (x->date != y->date)
		return x->date < y->date ? -1 : 1;
	return strcmp(x->message_id, y->message_id);
}

/*
 * Every message the case covers, once, oldest first: the messages of
 * its threads and the single messages attached to it (p->mail), each
 * taken from the thread notmuch has it in now.
 */
static dc_status_t
add_mail(packet_t *p, dc_mail_t *mail, GString *mbox, dc_error_t *err)
{
	GPtrArray *threads = g_ptr_array_new_with_free_func(thread_free_cb);
	GPtrArray *msgs = g_ptr_array_new();
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	dc_status_t st = DC_OK;
	guint i, j, n = p->mail->threads->len;

	for (i = 0; st == DC_OK && i < n + p->mail->singles->len; i++) {
		const char *single =
			i < n ? NULL : p->mail->singles->pdata[i - n];
		char *tid = single ? dc_anchor_thread_of(dc_mail_notmuch(mail),
							 single)
				   : g_strdup(p->mail->threads->pdata[i]);
		dc_thread_t *t = NULL;

		if (tid)
			st = dc_mail_thread(mail, tid, 1, &t, err);
		g_free(tid);
		if (st != DC_OK || !t)
			continue;
		g_ptr_array_add(threads, t);
		for (j = 0; j < t->messages->len; j++) {
			dc_message_t *m = t->messages->pdata[j];

			if ((single && strcmp(m->message_id, single)) ||
			    !g_hash_table_add(seen, m->message_id))
				continue;
			g_ptr_array_add(msgs, m);
		}
	}
	g_ptr_array_sort(msgs, by_date);
	for (i = 0; st == DC_OK && i < msgs->len; i++)
		st = add_message(p, msgs->pdata[i], mbox, msgs->len, err);
	g_hash_table_destroy(seen);
	g_ptr_array_unref(msgs);
	g_ptr_array_unref(threads);
	return st;
}

static char *
iso(int64_t t)
{
	GDateTime *d = g_date_time_new_from_unix_utc(t);
	char *s = d ? g_date_time_format(d, "%Y-%m-%dT%H:%M:%SZ") :
		      g_strdup("?");

	if (d)
		g_date_time_unref(d);
	return s;
}

static char *
redact_filter(const char *s, void *data)
{
	packet_t *p = data;

	return dc_redact_text(s, p->reporters);
}

/* The packet's JSON files: with --redact every string of mail or of
 * people in them passes through the redaction. */
static dc_sp_t *
packet_sprinter(packet_t *p)
{
	dc_sp_t *sp = dc_sp_json_new(1);

	if (p->o->redact)
		dc_sp_set_filter(sp, redact_filter, p);
	return sp;
}

/* The timeline: every event of the case, in order.  Notes are the
 * handlers' words; with redaction they pass through it too. */
static dc_status_t
add_timeline(packet_t *p, dc_store_t *s, dc_error_t *err)
{
	GString *txt = add_file(p, "timeline.txt");
	GString *js = add_file(p, "timeline.json");
	dc_sp_t *sp;
	GPtrArray *evs = NULL;
	dc_status_t st;
	guint i;
	char *out;

	st = dc_store_event_list(s, p->c->id, &evs, err);
	if (st != DC_OK)
		return st;
	for (i = 0; i < evs->len; i++) {
		const dc_store_event_t *ev = evs->pdata[i];
		char *at = iso(ev->at), *note = dc_event_data_string(ev, "note");
		char *kind = dc_event_data_string(ev, "kind");

		char *actor = dc_sanitize_line(ev->actor);

		if (note && p->o->redact) {
			char *r = dc_redact_text(note, p->reporters);

			g_free(note);
			note = r;
		}
		/* Notes are often pasted from the mail: no escape sequence
		 * of theirs may reach whoever reads the packet. */
		if (note) {
			char *clean = dc_sanitize_line(note);

			g_free(note);
			note = clean;
		}
		g_string_append_printf(txt, "%s  %-8s %s%s%s%s%s\n", at,
				       ev->type, actor,
				       kind ? "  kind=" : "", kind ? kind : "",
				       note ? "  note: " : "",
				       note ? note : "");
		g_free(at);
		g_free(actor);
		g_free(note);
		g_free(kind);
	}
	g_ptr_array_unref(evs);
	/* The events as case show --json has them, through the redaction. */
	sp = packet_sprinter(p);
	dc_sp_list(sp);
	for (i = 0; i < p->c->history->len; i++)
		dc_describe_event(sp, p->c->history->pdata[i]);
	dc_sp_end(sp);
	out = dc_sp_finish(sp);
	g_string_append(js, out);
	g_free(out);
	return DC_OK;
}

/* Free text of the handlers: sanitized, and redacted when asked. */
static char *
clean(packet_t *p, const char *text)
{
	char *r, *c;

	if (!text)
		return NULL;
	r = p->o->redact ? dc_redact_text(text, p->reporters) : g_strdup(text);
	c = dc_sanitize_line(r);
	g_free(r);
	return c;
}

static char *
day(int64_t t)
{
	GDateTime *d = t ? g_date_time_new_from_unix_utc(t) : NULL;
	char *s = d ? g_date_time_format(d, "%Y-%m-%d") : NULL;

	if (d)
		g_date_time_unref(d);
	return s;
}

static void
outcome_text(packet_t *p, GString *txt, const dc_outcome_t *o)
{
	char *at = iso(o->at), *actor = clean(p, o->actor);
	char *what = clean(p, o->what), *scope = clean(p, o->scope);
	char *note = clean(p, o->note), *from = day(o->from);
	char *until = day(o->until);

	g_string_append_printf(txt, "  %s  %s (%s) by %s\n", at,
			       dc_outcome_label(o->kind),
			       dc_outcome_name(o->kind), actor);
	if (what)
		g_string_append_printf(txt, "      measure: %s%s%s\n", what,
				       scope ? " in " : "", scope ? scope : "");
	if (until)
		g_string_append_printf(txt, "      from %s until %s%s%s%s\n",
				       from ? from : "now", until,
				       o->until_release ? " (" : "",
				       o->until_release ? o->until_release : "",
				       o->until_release ? ")" : "");
	if (note)
		g_string_append_printf(txt, "      note: %s\n", note);
	g_free(at);
	g_free(actor);
	g_free(what);
	g_free(scope);
	g_free(note);
	g_free(from);
	g_free(until);
}

/* Decisions so far: the outcomes, then the TAB's votes and their tally
 * (two thirds of the votes cast unless configured otherwise). */
static void
add_decisions(packet_t *p, dc_store_t *s)
{
	GString *txt = add_file(p, "decisions.txt");
	GString *js = add_file(p, "decisions.json");
	dc_sp_t *sp;
	char *rule_name = dc_config_value(NULL, "tab", "overturn_rule");
	dc_vote_rule_t rule = DC_RULE_VOTES_CAST;
	const dc_case_t *c = p->c;
	int members = 0;
	dc_tally_t t;
	guint i;
	char *out;

	if (rule_name)
		dc_vote_rule_parse(rule_name, &rule, NULL);
	g_free(rule_name);
	dc_member_count_active(s, "tab", p->o->now, &members, NULL);
	dc_case_tally(c, members, rule, &t);
	g_string_append_printf(txt, "Decisions on case %" G_GINT64_FORMAT
			       "\n\nOutcomes:\n", (gint64)c->id);
	if (!c->outcomes->len)
		g_string_append(txt, "  none recorded\n");
	for (i = 0; i < c->outcomes->len; i++)
		outcome_text(p, txt, c->outcomes->pdata[i]);
	g_string_append(txt, "\nTAB votes:\n");
	if (!c->votes->len)
		g_string_append(txt, "  none recorded\n");
	for (i = 0; i < c->votes->len; i++) {
		const dc_vote_t *v = c->votes->pdata[i];
		char *at = iso(v->at), *m = clean(p, v->member);

		g_string_append_printf(txt, "  %s  %-40s %s\n", at, m,
				       dc_vote_choice_name(v->choice));
		g_free(at);
		g_free(m);
	}
	g_string_append_printf(txt, "\nTally (two thirds of %s): for %d, "
			       "against %d, abstain %d, recused %d; %s\n",
			       dc_vote_rule_name(t.rule), t.n_for,
			       t.n_against, t.n_abstain, t.n_recused, t.why);
	sp = packet_sprinter(p);
	dc_describe_decisions(sp, c, &t);
	out = dc_sp_finish(sp);
	g_string_append(js, out);
	g_free(out);
}

static void
add_conflicts(packet_t *p)
{
	GString *txt = add_file(p, "conflicts.txt");
	guint i;

	if (!p->c->conflicts->len)
		g_string_append(txt, "No conflicts of interest are recorded "
				     "for this case.\n");
	for (i = 0; i < p->c->conflicts->len; i++) {
		const dc_conflict_t *x = p->c->conflicts->pdata[i];
		char *a = clean(p, x->address), *n = clean(p, x->note);

		g_string_append_printf(txt, "%s  %s%s%s\n", a,
				       x->recused ? "recused"
						  : "declared a conflict",
				       n ? ": " : "", n ? n : "");
		g_free(a);
		g_free(n);
	}
}

/* The timeline in a few lines and what was decided so far. */
static void
cover_summary(packet_t *p, GString *s)
{
	const dc_case_t *c = p->c;
	const dc_outcome_t *top = dc_case_top_outcome(c);
	guint i;

	g_string_append(s, "\nTimeline:\n");
	for (i = 0; i < c->history->len; i++) {
		const dc_history_t *h = c->history->pdata[i];
		char *at, *what;

		/* Types only: summaries may name people. */
		if (!strcmp(h->type, "note"))
			continue;
		at = iso(h->at);
		what = clean(p, h->type);
		g_string_append_printf(s, "  %s  %s%s\n", at, what,
				       h->undone_by ? " (undone)" : "");
		g_free(at);
		g_free(what);
	}
	g_string_append_printf(s, "\nOutcome so far: %s\n",
			       top ? dc_outcome_label(top->kind)
				   : "none recorded");
	if (c->votes->len)
		g_string_append_printf(s, "TAB votes recorded: %u (see "
				       "decisions.txt)\n", c->votes->len);
	g_string_append_printf(s, "Conflicts of interest declared: %u\n",
			       c->conflicts->len);
	if (p->o->redact && p->guessed)
		/* Plain words only: a reporter's name may be any word
		 * ("Hostile Sender"), and the final scan refuses it. */
		g_string_append(s, "\nNo reporter is recorded for this case: "
				   "the From of its oldest message was\n"
				   "taken as the reporter and redacted.\n");
}

static void
add_cover(packet_t *p)
{
	GString *s = add_file(p, "cover.eml");
	GDateTime *d = g_date_time_new_from_unix_utc(p->o->now);
	char *date = g_date_time_format(d, "%a, %d %b %Y %H:%M:%S +0000");
	char *reported = iso(p->c->reported_at), *opened = iso(p->c->created_at);
	GString *missing = g_string_new(NULL);

	/* Counted, not named: a Message-ID can name its sender. */
	if (p->mail->missing->len)
		g_string_printf(missing,
				"  Missing:   %u message%s of the case %s not "
				"in the sender's notmuch index\n",
				p->mail->missing->len,
				p->mail->missing->len == 1 ? "" : "s",
				p->mail->missing->len == 1 ? "is" : "are");

	g_string_append_printf(s,
		"From: %s\n"
		"To: %s\n"
		"Subject: [TAB] case %" G_GINT64_FORMAT ": %s, decision "
		"requested\n"
		"Date: %s\n"
		"Message-ID: <decorum-case%" G_GINT64_FORMAT "-%" G_GINT64_FORMAT
		"@decorum.invalid>\n"
		"MIME-Version: 1.0\n"
		"Content-Type: text/plain; charset=utf-8\n"
		"Content-Transfer-Encoding: 8bit\n"
		"\n",
		p->o->actor, p->o->to ? p->o->to : TAB_LIST,
		(gint64)p->c->id, dc_kind_label(p->c->kind), date,
		(gint64)p->c->id, (gint64)p->o->now);
	g_string_append_printf(s,
		"Dear members of the TAB,\n\n"
		"this is the packet for case %" G_GINT64_FORMAT ".\n\n"
		"  Kind:      %s\n"
		"  State:     %s\n"
		"  Reported:  %s\n"
		"  Opened:    %s\n"
		"  Threads:   %u\n"
		"  Messages:  %u (thread.mbox, mboxrd%s)\n"
		"%s\n"
		"The timeline is in timeline.txt, decisions so far in\n"
		"decisions.txt, lore links in links.txt, conflicts of interest\n"
		"in conflicts.txt; MANIFEST.sha256 checks them all\n"
		"(sha256sum -c MANIFEST.sha256).\n\n"
		"Decision requested: %s\n",
		(gint64)p->c->id, dc_kind_label(p->c->kind), p->c->state,
		reported, opened, p->mail->threads->len, p->messages,
		p->o->redact ? ", reporters redacted" : "", missing->str,
		p->c->kind == DC_KIND_TAB ?
			"your advice on this case." :
			"approval or rejection of the measures the\n"
			"Code of Conduct Committee recommends.");
	cover_summary(p, s);
	g_string_free(missing, TRUE);
	g_free(reported);
	g_free(opened);
	g_free(date);
	g_date_time_unref(d);
}

static void
add_manifest(packet_t *p)
{
	GString *m = g_string_new(NULL);
	guint i;

	for (i = 0; i < p->names->len; i++) {
		GString *d = p->datas->pdata[i];
		char *h = dc_sha256_hex(d->str, d->len);

		g_string_append_printf(m, "%s  %s\n", h,
				       (char *)p->names->pdata[i]);
		g_free(h);
	}
	g_ptr_array_add(p->names, g_strdup("MANIFEST.sha256"));
	g_ptr_array_add(p->datas, m);
}

/* The committee's own addresses (its members, the one acting, the
 * committee's list) are not sought by the final scan: "Eve Example" is
 * not in carol@example.org of the timeline. */
static void
ignore_committee(packet_t *p, dc_store_t *s)
{
	GHashTable *members = NULL;
	GHashTableIter it;
	gpointer k;

	dc_identity_set_ignore(p->reporters, "conduct@kernel.org");
	dc_identity_ignore_list(p->reporters, p->o->actor);
	dc_identity_ignore_list(p->reporters, p->o->to ? p->o->to : TAB_LIST);
	if (dc_member_addresses(s, &members, NULL) != DC_OK) {
		if (members)
			g_hash_table_unref(members);
		return;
	}
	g_hash_table_iter_init(&it, members);
	while (g_hash_table_iter_next(&it, &k, NULL))
		dc_identity_set_ignore(p->reporters, k);
	g_hash_table_unref(members);
}

static dc_status_t
build(packet_t *p, dc_store_t *s, dc_mail_t *mail, dc_error_t *err)
{
	GString *mbox;
	dc_status_t st = DC_OK;

	if (p->o->redact) {
		dc_identity_set_case(p->reporters, p->c->id);
		st = dc_case_people(mail, p->c, NULL, NULL, p->reporters,
				    &p->guessed, NULL, err);
		if (st == DC_OK)
			ignore_committee(p, s);
		if (st == DC_OK && !dc_identity_count(p->reporters))
			st = dc_fail(err, DC_E_DATA,
				     "case %" G_GINT64_FORMAT ": no reporter "
				     "found to redact", (gint64)p->c->id);
		if (st != DC_OK)
			return st;
	}
	mbox = add_file(p, "thread.mbox");
	st = add_mail(p, mail, mbox, err);
	if (st != DC_OK)
		return st;
	g_string_append(add_file(p, "links.txt"), p->links->str);
	st = add_timeline(p, s, err);
	if (st != DC_OK)
		return st;
	add_decisions(p, s);
	add_conflicts(p);
	add_cover(p);
	add_manifest(p);
	return DC_OK;
}

/* The last word on redaction: every file, every encoding. */
static dc_status_t
final_scan(packet_t *p, dc_error_t *err)
{
	dc_identity_hit_t hit;
	guint i;

	for (i = 0; i < p->names->len; i++) {
		GString *d = p->datas->pdata[i];

		if (dc_identity_scan(p->reporters, d->str, d->len, &hit)) {
			char *why = dc_identity_hit_describe(
				p->reporters, p->names->pdata[i], &hit);

			dc_fail(err, DC_E_DENIED,
				"redaction check failed, no packet was "
				"written: %s", why);
			g_free(why);
			return DC_E_DENIED;
		}
	}
	return DC_OK;
}

static dc_status_t
write_all(packet_t *p, dc_error_t *err)
{
	char *tmp = NULL;
	dc_status_t st;
	guint i;

	st = dc_dir_begin(p->o->dir, &tmp, err);
	for (i = 0; st == DC_OK && i < p->names->len; i++) {
		GString *d = p->datas->pdata[i];
		char *path = g_build_filename(tmp, p->names->pdata[i], NULL);

		st = dc_file_create(path, d->str, d->len, err);
		g_free(path);
	}
	if (st == DC_OK)
		st = dc_dir_commit(tmp, p->o->dir, err);
	if (st != DC_OK)
		dc_dir_abort(tmp);
	g_free(tmp);
	return st;
}

static void
gstring_free(gpointer s)
{
	g_string_free(s, TRUE);
}

dc_status_t
dc_packet_write(dc_store_t *s, dc_mail_t *mail, const dc_packet_opts_t *o,
		unsigned *messages, dc_error_t *err)
{
	packet_t p = { .o = o };
	dc_status_t st;

	st = dc_anchor_sync(s, dc_mail_notmuch(mail), 1, NULL, dc_now(), err);
	if (st == DC_OK)
		st = dc_case_get(s, o->case_id, &p.c, err);
	/* Asked of notmuch by Message-ID: never another thread's mail. */
	if (st == DC_OK)
		st = dc_anchor_resolve(dc_mail_notmuch(mail), p.c, &p.mail,
				       err);
	if (st != DC_OK) {
		dc_case_free(p.c);
		return st;
	}
	p.names = g_ptr_array_new_with_free_func(g_free);
	p.datas = g_ptr_array_new_with_free_func(gstring_free);
	p.links = g_string_new(NULL);
	p.reporters = dc_identity_set_new();
	st = build(&p, s, mail, err);
	if (st == DC_OK && o->redact)
		st = final_scan(&p, err);
	if (st == DC_OK)
		st = write_all(&p, err);
	if (messages)
		*messages = p.messages;
	dc_identity_set_free(p.reporters);
	dc_anchor_state_free(p.mail);
	g_string_free(p.links, TRUE);
	g_ptr_array_unref(p.names);
	g_ptr_array_unref(p.datas);
	dc_case_free(p.c);
	return st;
}
