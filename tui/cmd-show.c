// SPDX-License-Identifier: GPL-3.0-or-later
/* decorum show THREAD-ID [--json]: every message of a thread, decoded. */
#include <getopt.h>
#include <string.h>

#include "core/export/describe.h"
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
		dc_sp_t *sp = dc_cli_sprinter(cli);

		dc_describe_thread(sp, t);
		dc_cli_sprint(cli, sp);
	} else {
		for (i = 0; i < t->messages->len; i++)
			text_message(cli, t->messages->pdata[i], i + 1,
				     t->messages->len);
	}
	dc_thread_free(t);
	dc_mail_close(mail);
	return DC_EXIT_OK;
}
