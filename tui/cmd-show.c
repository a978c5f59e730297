// SPDX-License-Identifier: GPL-3.0-or-later
/* decorum show THREAD-ID [--json]: every message of a thread, decoded. */
#include <getopt.h>
#include <string.h>

#include "core/base/json.h"
#include "core/privacy/privacy.h"
#include "core/base/sanitize.h"
#include "tui/cli.h"

static int run(dc_cli_t *cli, int argc, char **argv);

const dc_cmd_t cmd_show = {
	.name = "show",
	.args = "THREAD-ID [--json]",
	.summary = "show the messages of a thread in thread order",
	.run = run,
};

/* Write a sanitized string member, or null for NULL. */
static void
json_member(dc_json_t *j, const char *key, const char *raw, dc_san_mode_t m)
{
	char *s;

	dc_json_key(j, key);
	if (!raw) {
		dc_json_null(j);
		return;
	}
	s = dc_sanitize(raw, -1, m, NULL);
	dc_json_string(j, s);
	g_free(s);
}

static void
json_flags(dc_json_t *j, unsigned flags)
{
	dc_json_key(j, "problems");
	dc_json_begin_array(j);
	if (flags & DC_MSG_UNREADABLE)
		dc_json_string(j, "unreadable");
	if (flags & DC_MSG_MALFORMED)
		dc_json_string(j, "malformed");
	dc_json_end_array(j);
}

static void
json_message(dc_json_t *j, const dc_message_t *m)
{
	char *s;
	guint i;

	dc_json_begin_object(j);
	json_member(j, "id", m->message_id, DC_SAN_LINE);
	dc_json_key(j, "depth");
	dc_json_int(j, m->depth);
	dc_json_key(j, "timestamp");
	dc_json_int(j, m->date);
	dc_json_key(j, "matched");
	dc_json_bool(j, !!(m->flags & DC_MSG_MATCHED));
	json_member(j, "from", m->from, DC_SAN_LINE);
	json_member(j, "to", m->to, DC_SAN_LINE);
	json_member(j, "cc", m->cc, DC_SAN_LINE);
	json_member(j, "subject", m->subject, DC_SAN_LINE);
	json_member(j, "in_reply_to", m->in_reply_to, DC_SAN_LINE);
	dc_json_key(j, "tags");
	dc_json_begin_array(j);
	for (i = 0; i < m->tags->len; i++) {
		dc_json_string(j, s = dc_sanitize_line(m->tags->pdata[i]));
		g_free(s);
	}
	dc_json_end_array(j);
	json_member(j, "filename", m->filename, DC_SAN_LINE);
	s = dc_message_lore_url(m); /* null: private mail, not on lore */
	json_member(j, "lore", s, DC_SAN_LINE);
	g_free(s);
	json_flags(j, m->flags);
	dc_json_key(j, "attachments");
	dc_json_begin_array(j);
	for (i = 0; m->attachments && i < m->attachments->len; i++) {
		const dc_attachment_t *a = m->attachments->pdata[i];

		dc_json_begin_object(j);
		json_member(j, "filename", a->filename, DC_SAN_LINE);
		json_member(j, "content_type", a->content_type, DC_SAN_LINE);
		dc_json_key(j, "size");
		dc_json_int(j, (int64_t)a->size);
		dc_json_end_object(j);
	}
	dc_json_end_array(j);
	json_member(j, "body", m->body ? m->body : "", DC_SAN_TEXT);
	dc_json_end_object(j);
}

static void
text_header(dc_cli_t *cli, const char *name, const char *raw)
{
	char *s;

	if (!raw || !*raw)
		return;
	s = dc_sanitize_line(raw);
	fprintf(cli->out, "%s: %s\n", name, s);
	g_free(s);
}

static void
text_message(dc_cli_t *cli, const dc_message_t *m, guint n, guint total)
{
	char date[32], *s;
	guint i;

	dc_cli_date(m->date, date);
	s = dc_sanitize_line(m->message_id);
	fprintf(cli->out, "%s--- message %u/%u (depth %d) id:%s\n",
		n > 1 ? "\n" : "", n, total, m->depth, s);
	g_free(s);
	text_header(cli, "From", m->from);
	text_header(cli, "To", m->to);
	text_header(cli, "Cc", m->cc);
	fprintf(cli->out, "Date: %s\n", date);
	text_header(cli, "Subject", m->subject);
	if (m->flags & (DC_MSG_MALFORMED | DC_MSG_UNREADABLE))
		fprintf(cli->out, "Problems:%s%s\n",
			m->flags & DC_MSG_UNREADABLE ? " unreadable" : "",
			m->flags & DC_MSG_MALFORMED ? " malformed" : "");
	for (i = 0; m->attachments && i < m->attachments->len; i++) {
		const dc_attachment_t *a = m->attachments->pdata[i];
		char *name = dc_sanitize_line(a->filename ? a->filename : "");
		char *type = dc_sanitize_line(a->content_type);

		fprintf(cli->out, "Attachment: %s (%s, %zu bytes)\n",
			*name ? name : "(unnamed)", type, a->size);
		g_free(name);
		g_free(type);
	}
	s = dc_sanitize(m->body ? m->body : "", -1, DC_SAN_TEXT, NULL);
	fprintf(cli->out, "\n%s", s);
	if (*s && s[strlen(s) - 1] != '\n')
		fputc('\n', cli->out);
	g_free(s);
}

static int
run(dc_cli_t *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	dc_error_t err = { 0 };
	dc_thread_t *t = NULL;
	dc_mail_t *mail = NULL;
	dc_store_t *store = NULL;
	dc_status_t st;
	int c, json = 0;
	guint i;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 'j')
			return dc_cli_usage(cli, &cmd_show, "bad option");
		json = 1;
	}
	if (argc - optind != 1)
		return dc_cli_usage(cli, &cmd_show, "need one THREAD-ID");
	/* The store only for its queued tags, which reach notmuch before
	 * the thread is read; a file that is no store is refused, as by
	 * list. */
	if (dc_cli_store(cli, DC_OPEN_READ, &store, &err) != DC_OK) {
		if (err.status == DC_E_DATA)
			return dc_cli_fail(cli, &err);
		fprintf(cli->err, "decorum: warning: %s\n", err.msg);
		dc_error_clear(&err);
	}
	st = dc_cli_open_mail(cli, store, 0, &mail, &err);
	dc_close_store(store);
	if (st != DC_OK)
		return dc_cli_fail(cli, &err);
	if (dc_mail_thread(mail, argv[optind], 1, &t, &err) != DC_OK) {
		dc_mail_close(mail);
		return dc_cli_fail(cli, &err);
	}
	if (json) {
		dc_json_t *j = dc_json_new(1);
		char *text;

		dc_json_begin_object(j);
		dc_json_key(j, "thread");
		dc_json_string(j, t->thread_id);
		json_member(j, "subject", t->subject, DC_SAN_LINE);
		dc_json_key(j, "messages");
		dc_json_begin_array(j);
		for (i = 0; i < t->messages->len; i++)
			json_message(j, t->messages->pdata[i]);
		dc_json_end_array(j);
		dc_json_end_object(j);
		text = dc_json_finish(j);
		fputs(text, cli->out);
		g_free(text);
	} else {
		for (i = 0; i < t->messages->len; i++)
			text_message(cli, t->messages->pdata[i], i + 1,
				     t->messages->len);
	}
	dc_thread_free(t);
	dc_mail_close(mail);
	return DC_EXIT_OK;
}
