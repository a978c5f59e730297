// SPDX-License-Identifier: GPL-3.0-or-later
/* decorum list [QUERY] [--limit N] [--json]: threads matching a query. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "core/case/action.h"
#include "core/case/case.h"
#include "core/export/describe.h"
#include "core/base/sanitize.h"
#include "tui/cli.h"

static int run(dc_cli_t *cli, int argc, char **argv);

const dc_cmd_t cmd_list = {
	.name = "list",
	.args = "[QUERY] [--limit N] [--oldest-first] [--json]",
	.summary = "list the threads matching a notmuch query",
	.run = run,
};

struct list_opts {
	long limit; /* -1: all */
	int json;
	dc_sort_t sort;
	char *query;
};

static void
print_text(dc_cli_t *cli, const dc_thread_summary_t *ts, const dc_case_t *c)
{
	char *authors = dc_sanitize_line(ts->authors);
	char *subject = dc_sanitize_line(ts->subject);
	char date[32];
	guint i;

	dc_cli_date(ts->newest, date);
	/* A large thread's row names its first authors only (core/mail/mail.c). */
	fprintf(cli->out, "thread:%s  %s [%d/%d] %s%s; %s (", ts->thread_id,
		date, ts->matched, ts->total, authors,
		ts->partial ? "…" : "", subject);
	for (i = 0; i < ts->tags->len; i++) {
		char *tag = dc_sanitize_line(ts->tags->pdata[i]);

		fprintf(cli->out, "%s%s", i ? " " : "", tag);
		g_free(tag);
	}
	if (ts->partial)
		fputs(ts->tags->len ? " …" : "…", cli->out);
	fputc(')', cli->out);
	if (c)
		fprintf(cli->out, " [case %" G_GINT64_FORMAT ": %s, %s]",
			(gint64)c->id, dc_kind_name(c->kind), c->state);
	fputc('\n', cli->out);
	g_free(authors);
	g_free(subject);
}

static int
parse(dc_cli_t *cli, int argc, char **argv, struct list_opts *o)
{
	static const struct option opts[] = {
		{ "limit", required_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'j' },
		{ "oldest-first", no_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	o->limit = -1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			o->limit = strtol(optarg, &end, 10);
			if (*end || o->limit < 0)
				return dc_cli_usage(cli, &cmd_list,
						    "--limit needs a number "
						    "(got '%s')",
						    optarg);
			break;
		case 'j':
			o->json = 1;
			break;
		case 'o':
			o->sort = DC_SORT_OLDEST_FIRST;
			break;
		default:
			return dc_cli_usage(cli, &cmd_list, "bad option");
		}
	}
	o->query = g_strjoinv(" ", argv + optind);
	return DC_EXIT_OK;
}

static int
list_threads(dc_cli_t *cli, dc_mail_t *mail, dc_store_t *store,
	     const struct list_opts *o)
{
	dc_thread_summary_t ts = { 0 };
	dc_thread_iter_t *it = NULL;
	dc_sp_t *j = o->json ? dc_cli_sprinter(cli) : NULL;
	dc_error_t err = { 0 };
	long n = 0;

	if (dc_mail_search(mail, o->query, o->sort, &it, &err) != DC_OK) {
		if (j)
			g_free(dc_sp_finish(j));
		return dc_cli_fail(cli, &err);
	}
	/* A command that records nothing keeps its view of the cache to
	 * itself (core/mail/anchor.h). */
	if (store && dc_action_sync(store, mail, 0, NULL, 0, &err) != DC_OK) {
		fprintf(cli->err, "decorum: %s\n", err.msg);
		dc_error_clear(&err);
	}
	if (j)
		dc_sp_list(j);
	while ((o->limit < 0 || n < o->limit) && dc_thread_iter_next(it, &ts)) {
		dc_case_t *c = NULL;

		if (store)
			dc_case_for_thread(store, ts.thread_id, &c, NULL);
		if (j)
			dc_describe_thread_row(j, &ts, c);
		else
			print_text(cli, &ts, c);
		dc_case_free(c);
		n++;
	}
	dc_thread_summary_clear(&ts);
	dc_thread_iter_free(it);
	if (j) {
		dc_sp_end(j);
		dc_cli_sprint(cli, j);
	}
	return DC_EXIT_OK;
}

static int
run(dc_cli_t *cli, int argc, char **argv)
{
	struct list_opts o = { 0 };
	dc_error_t err = { 0 };
	dc_mail_t *mail = NULL;
	dc_store_t *store = NULL;
	int rc;

	rc = parse(cli, argc, argv, &o);
	if (rc != DC_EXIT_OK)
		return rc;
	/* Badges are a bonus: listing works without a readable store, but
	 * not with a file that is no store at all (a wrong --store).  The
	 * store comes first, so that its queued tags reach notmuch before
	 * the list is read. */
	if (dc_cli_store(cli, DC_OPEN_READ, &store, &err) != DC_OK) {
		if (err.status == DC_E_DATA) {
			g_free(o.query);
			return dc_cli_fail(cli, &err);
		}
		fprintf(cli->err, "decorum: warning: %s\n", err.msg);
		dc_error_clear(&err);
	}
	if (dc_cli_open_mail(cli, store, 0, &mail, &err) != DC_OK) {
		dc_close_store(store);
		g_free(o.query);
		return dc_cli_fail(cli, &err);
	}
	rc = list_threads(cli, mail, store, &o);
	dc_close_store(store);
	dc_mail_close(mail);
	g_free(o.query);
	return rc;
}
