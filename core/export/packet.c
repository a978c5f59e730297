// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The TAB escalation packet (see packet.h).  Everything is built in
 * memory, written into a 0700 directory beside the target, scanned when
 * redacted, synced and renamed into place: the TAB never gets half a
 * packet, and a failed check leaves nothing behind.
 */
#include <string.h>

#include "core/case/action.h"
#include "core/case/access.h"
#include "core/mail/anchor.h"
#include "core/case/case.h"
#include "core/base/clock.h"
#include "core/base/config.h"
#include "core/case/event.h"
#include "core/export/describe.h"
#include "core/case/outcome.h"
#include "core/export/packet-build.h"
#include "core/export/packet.h"
#include "core/case/people.h"
#include "core/privacy/privacy.h"
#include "core/privacy/redact.h"
#include "core/base/safefile.h"
#include "core/base/sanitize.h"
#include "core/case/vote.h"

typedef dc_packet_build_t packet_t;

GString *
dc_packet_add_file(packet_t *p, const char *name)
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
	/* What links.txt looks for citations in. */
	g_ptr_array_add(p->bodies, g_strdup(m->body ? m->body : ""));
	g_ptr_array_add(p->body_ids, g_strdup(m->message_id));
	/* lore's address is the Message-ID: one that names a
	 * reporter has no link in a redacted packet (its stand-in is
	 * on no list). */
	if (dc_message_is_public(m) &&
	    !(p->o->redact &&
	      dc_identity_in_token(p->reporters, m->message_id))) {
		char *url = dc_lore_url(m->message_id);

		g_string_append_printf(p->links, "  %s\n", url);
		g_free(url);
	} else if (dc_message_is_public(m)) {
		g_string_append(p->links, "  (one link left out: its "
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

char *
dc_packet_iso(int64_t t)
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

/* Free text of the handlers: sanitized, and redacted when asked. */
char *
dc_packet_clean(packet_t *p, const char *text)
{
	char *r, *c;

	if (!text)
		return NULL;
	r = p->o->redact ? dc_redact_text(text, p->reporters) : g_strdup(text);
	c = dc_sanitize_line(r);
	g_free(r);
	return c;
}

char *
dc_packet_day(int64_t t)
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
	char *at = dc_packet_iso(o->at);
	char *actor = dc_packet_clean(p, o->actor);
	char *what = dc_packet_clean(p, o->what);
	char *scope = dc_packet_clean(p, o->scope);
	char *note = dc_packet_clean(p, o->note);
	char *from = dc_packet_day(o->from), *until = dc_packet_day(o->until);

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

dc_vote_rule_t
dc_packet_vote_rule(void)
{
	char *name = dc_config_value(NULL, "tab", "overturn_rule");
	dc_vote_rule_t rule = DC_RULE_VOTES_CAST;

	if (name)
		dc_vote_rule_parse(name, &rule, NULL);
	g_free(name);
	return rule;
}

/* Decisions so far: the outcomes, then the TAB's votes and their tally
 * (two thirds of the votes cast unless configured otherwise). */
static void
add_decisions(packet_t *p, dc_store_t *s)
{
	GString *txt = dc_packet_add_file(p, "decisions.txt");
	GString *js = dc_packet_add_file(p, "decisions.json");
	dc_sp_t *sp;
	dc_vote_rule_t rule = dc_packet_vote_rule();
	const dc_case_t *c = p->c;
	int members = 0;
	dc_question_t q;
	dc_tally_t t;
	guint i;
	char *out;

	dc_member_count_active(s, "tab", p->o->now, &members, NULL);
	p->tab_members = members;
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
		char *at = dc_packet_iso(v->at);
		char *m = dc_packet_clean(p, v->member);

		g_string_append_printf(txt, "  %s  %-40s %-8s on %s%s\n", at,
				       m, dc_vote_choice_name(v->choice),
				       dc_question_name(v->question),
				       v->question == DC_QUESTION_LEGACY ?
					       " (recorded without a question)" :
					       "");
		g_free(at);
		g_free(m);
	}
	/* Each question voted on (overturn when none is yet), with what
	 * it asks, where the rule comes from and where it stands. */
	for (q = DC_QUESTION_OVERTURN; q < DC_QUESTION_COUNT; q++) {
		dc_tally_t qt;

		if (!dc_case_has_question(c, q) &&
		    !(q == DC_QUESTION_OVERTURN && !c->votes->len))
			continue;
		dc_case_tally_on(c, q, members, rule, &qt);
		g_string_append_printf(txt, "\nQuestion (%s): %s\n"
				       "  Rule: %s\n",
				       dc_question_name(q),
				       dc_question_text(q),
				       dc_question_source(q));
		g_string_append_printf(txt, "  Tally (two thirds of %s): for "
				       "%d, against %d, abstain %d, recused "
				       "%d; %s\n  Result: %s\n",
				       dc_vote_rule_name(qt.rule), qt.n_for,
				       qt.n_against, qt.n_abstain,
				       qt.n_recused, qt.why,
				       dc_result_name(qt.result));
	}
	sp = packet_sprinter(p);
	dc_describe_decisions(sp, c, &t);
	out = dc_sp_finish(sp);
	g_string_append(js, out);
	g_free(out);
}

static void
add_conflicts(packet_t *p)
{
	GString *txt = dc_packet_add_file(p, "conflicts.txt");
	guint i;

	if (!p->c->conflicts->len)
		g_string_append(txt, "No conflicts of interest are recorded "
				     "for this case.\n");
	for (i = 0; i < p->c->conflicts->len; i++) {
		const dc_conflict_t *x = p->c->conflicts->pdata[i];
		char *a = dc_packet_clean(p, x->address);
		char *n = dc_packet_clean(p, x->note);

		g_string_append_printf(txt, "%s  %s%s%s\n", a,
				       x->recused ? "recused"
						  : "declared a conflict",
				       n ? ": " : "", n ? n : "");
		g_free(a);
		g_free(n);
	}
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
	mbox = dc_packet_add_file(p, "thread.mbox");
	st = add_mail(p, mail, mbox, err);
	if (st != DC_OK)
		return st;
	st = dc_packet_add_links(p, mail, err);
	if (st == DC_OK)
		st = dc_packet_add_timeline(p, s, err);
	if (st != DC_OK)
		return st;
	add_decisions(p, s);
	add_conflicts(p);
	dc_packet_add_cover(p);
	dc_packet_add_manifest(p);
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
		const char *data = d->str;
		size_t len = d->len;

		/* The cover's attachments are the files scanned here. */
		if (!strcmp(p->names->pdata[i], "cover.eml") && p->cover_scan) {
			data = p->cover_scan;
			len = strlen(data);
		}
		if (dc_identity_scan(p->reporters, data, len, &hit)) {
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

	st = dc_packet_check_reply_by(o, err);
	if (st == DC_OK)
		st = dc_action_sync(s, mail, 1, NULL, dc_now(), err);
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
	p.bodies = g_ptr_array_new_with_free_func(g_free);
	p.body_ids = g_ptr_array_new_with_free_func(g_free);
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
	g_ptr_array_unref(p.bodies);
	g_ptr_array_unref(p.body_ids);
	g_free(p.cover_scan);
	g_ptr_array_unref(p.names);
	g_ptr_array_unref(p.datas);
	dc_case_free(p.c);
	return st;
}
