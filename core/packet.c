// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The TAB escalation packet (see packet.h).  Everything is built in
 * memory, written into a 0700 directory beside the target, scanned when
 * redacted, synced and renamed into place: the TAB never gets half a
 * packet, and a failed check leaves nothing behind.
 */
#include <string.h>

#include "core/case.h"
#include "core/event.h"
#include "core/json.h"
#include "core/packet.h"
#include "core/sanitize.h"
#include "core/privacy.h"
#include "core/redact.h"
#include "core/safefile.h"

#define TAB_LIST "tech-board@lists.linux-foundation.org"

typedef struct packet {
	const dc_packet_opts_t *o;
	dc_case_t *c;
	GPtrArray *names; /* file names, in write order */
	GPtrArray *datas; /* GString * */
	GString *links;
	unsigned messages;
	dc_identity_set_t *reporters;
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

static int
message_is_public(const dc_message_t *m)
{
	char *all = g_strjoin(",", m->to ? m->to : "", m->cc ? m->cc : "",
			      NULL);
	char **parts = g_strsplit_set(all, ",<> \t\n", -1);
	int pub = 0;
	guint i;

	for (i = 0; parts[i] && !pub; i++)
		pub = dc_address_is_public_list(parts[i]);
	g_strfreev(parts);
	g_free(all);
	return pub;
}

static dc_status_t
add_thread(packet_t *p, dc_mail_t *mail, const char *tid, GString *mbox,
	   unsigned total, dc_error_t *err)
{
	dc_thread_t *t = NULL;
	dc_status_t st;
	guint i;

	st = dc_mail_thread(mail, tid, 1, &t, err);
	for (i = 0; st == DC_OK && i < t->messages->len; i++) {
		const dc_message_t *m = t->messages->pdata[i];
		GError *ge = NULL;
		char *data = NULL, *red = NULL;
		gsize len = 0;

		if (!g_file_get_contents(m->filename, &data, &len, &ge)) {
			st = dc_fail(err, DC_E_IO, "reading message %s: %s",
				     m->message_id, ge->message);
			g_error_free(ge);
			break;
		}
		if (p->o->redact) {
			st = dc_redact_message(data, len, p->reporters, &red,
					       &len, err);
			g_free(data);
			data = red;
			if (st != DC_OK)
				break;
		}
		dc_mboxrd_append(mbox, data, len);
		g_free(data);
		if (message_is_public(m)) {
			char *url = dc_lore_url(m->message_id);

			g_string_append_printf(p->links, "%s\n", url);
			g_free(url);
		}
		p->messages++;
		if (p->o->progress)
			p->o->progress(p->o->ctx, p->messages, total);
	}
	dc_thread_free(t);
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

/* The timeline: every event of the case, in order.  Notes are the
 * handlers' words; with redaction they pass through it too. */
static dc_status_t
add_timeline(packet_t *p, dc_store_t *s, dc_error_t *err)
{
	GString *txt = add_file(p, "timeline.txt");
	GString *js = add_file(p, "timeline.json");
	dc_json_t *j = dc_json_new(1);
	GPtrArray *evs = NULL;
	dc_status_t st;
	guint i;
	char *out;

	st = dc_store_event_list(s, p->c->id, &evs, err);
	if (st != DC_OK) {
		g_free(dc_json_finish(j));
		return st;
	}
	dc_json_begin_array(j);
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
		dc_json_begin_object(j);
		dc_json_key(j, "at");
		dc_json_string(j, at);
		dc_json_key(j, "type");
		dc_json_string(j, ev->type);
		dc_json_key(j, "actor");
		dc_json_string(j, actor);
		dc_json_key(j, "kind");
		dc_json_string(j, kind);
		dc_json_key(j, "note");
		dc_json_string(j, note);
		dc_json_end_object(j);
		g_free(at);
		g_free(actor);
		g_free(note);
		g_free(kind);
	}
	dc_json_end_array(j);
	out = dc_json_finish(j);
	g_string_append(js, out);
	g_free(out);
	g_ptr_array_unref(evs);
	return DC_OK;
}

/* ADAPTER (issue 5): decisions (outcomes, votes) and conflicts (recusals)
 * are not in the store yet; say so rather than leave the files out. */
static void
add_decisions(packet_t *p)
{
	g_string_append(add_file(p, "decisions.txt"),
			"No decisions are recorded for this case.\n");
	g_string_append(add_file(p, "decisions.json"),
			"{\n  \"outcomes\": [],\n  \"votes\": [],\n"
			"  \"recorded\": false\n}\n");
	g_string_append(add_file(p, "conflicts.txt"),
			"No conflicts of interest are recorded for this "
			"case.\n");
}

static void
add_cover(packet_t *p)
{
	GString *s = add_file(p, "cover.eml");
	GDateTime *d = g_date_time_new_from_unix_utc(p->o->now);
	char *date = g_date_time_format(d, "%a, %d %b %Y %H:%M:%S +0000");
	char *reported = iso(p->c->reported_at), *opened = iso(p->c->created_at);

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
		"  Messages:  %u (thread.mbox, mboxrd%s)\n\n"
		"The timeline is in timeline.txt, decisions so far in\n"
		"decisions.txt, lore links in links.txt, conflicts of interest\n"
		"in conflicts.txt; MANIFEST.sha256 checks them all\n"
		"(sha256sum -c MANIFEST.sha256).\n\n"
		"Decision requested: %s\n",
		(gint64)p->c->id, dc_kind_label(p->c->kind), p->c->state,
		reported, opened, p->c->threads->len, p->messages,
		p->o->redact ? ", reporters redacted" : "",
		p->c->kind == DC_KIND_TAB ?
			"your advice on this case." :
			"approval or rejection of the measures the\n"
			"Code of Conduct Committee recommends.");
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

static dc_status_t
build(packet_t *p, dc_store_t *s, dc_mail_t *mail, dc_error_t *err)
{
	GString *mbox;
	dc_status_t st = DC_OK;
	guint i;

	if (p->o->redact) {
		st = dc_case_people(s, mail, p->c->id, NULL, p->reporters, err);
		if (st == DC_OK && !dc_identity_count(p->reporters))
			st = dc_fail(err, DC_E_DATA,
				     "case %" G_GINT64_FORMAT ": no reporter "
				     "found to redact", (gint64)p->c->id);
		if (st != DC_OK)
			return st;
	}
	mbox = add_file(p, "thread.mbox");
	for (i = 0; st == DC_OK && i < p->c->threads->len; i++)
		st = add_thread(p, mail, p->c->threads->pdata[i], mbox, 0, err);
	if (st != DC_OK)
		return st;
	g_string_append(add_file(p, "links.txt"), p->links->str);
	st = add_timeline(p, s, err);
	if (st != DC_OK)
		return st;
	add_decisions(p);
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

		if (dc_identity_scan(p->reporters, d->str, d->len, &hit))
			return dc_fail(err, DC_E_DENIED,
				       "redaction check failed: %s shows %s "
				       "(%s); no packet was written",
				       (char *)p->names->pdata[i],
				       dc_identity_get(p->reporters,
						       hit.identity)->label,
				       hit.form);
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

	st = dc_case_get(s, o->case_id, &p.c, err);
	if (st != DC_OK)
		return st;
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
	g_string_free(p.links, TRUE);
	g_ptr_array_unref(p.names);
	g_ptr_array_unref(p.datas);
	dc_case_free(p.c);
	return st;
}
