// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * decorum tag THREAD-ID admonition|escalation|tab [--note TEXT]
 *             [--reopen | --new]:
 * open a case for a thread, or add to its open case.  A thread whose
 * case is closed is refused unless --reopen (that case) or --new (a new
 * case beside it) says which.
 */
#include <getopt.h>

#include "core/case/action.h"
#include "core/base/clock.h"
#include "core/base/sanitize.h"
#include "tui/cli.h"

static int run(dc_cli_t *cli, int argc, char **argv);

const dc_cmd_t cmd_tag = {
	.name = "tag",
	.args = "THREAD-ID admonition|escalation|tab [--note TEXT] "
		"[--reopen|--new]",
	.summary = "open or update the case for a thread",
	.run = run,
};

static int
tag_thread(dc_cli_t *cli, dc_mail_t *mail, const char *thread_id,
	   dc_kind_t kind, const char *note, dc_closed_t closed)
{
	dc_tag_result_t res = { 0 };
	dc_error_t err = { 0 };
	dc_store_t *store = NULL;
	dc_status_t st;

	st = dc_cli_store(cli, DC_OPEN_WRITE, &store, &err);
	if (st == DC_OK)
		st = dc_action_tag_closed(store, mail, thread_id, kind, note,
					  closed, dc_cli_actor(cli, mail),
					  dc_now(), &res, &err);
	if (st == DC_E_INVALID && res.closed_case) {
		fprintf(cli->err,
			"decorum: %s; say which: --reopen (case %" G_GINT64_FORMAT
			") or --new\n",
			err.msg, (gint64)res.closed_case);
		dc_tag_result_clear(&res);
		dc_close_store(store);
		return DC_EXIT_DATA;
	}
	if (st == DC_OK && res.reopened)
		fprintf(cli->out, "case %" G_GINT64_FORMAT ": reopened\n",
			(gint64)res.case_id);
	if (st == DC_OK)
		fprintf(cli->out, "case %" G_GINT64_FORMAT ": %s %s thread:%s\n",
			(gint64)res.case_id, res.created ? "opened" : "updated",
			dc_kind_name(kind), res.thread_id);
	/* The case is saved; the notmuch tags follow when notmuch lets us. */
	if (st == DC_OK)
		dc_cli_flush_mirror(cli, store);
	dc_tag_result_clear(&res);
	dc_close_store(store);
	return st == DC_OK ? DC_EXIT_OK : dc_cli_fail(cli, &err);
}

static int
run(dc_cli_t *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "note", required_argument, NULL, 'n' },
		{ "reopen", no_argument, NULL, 'r' },
		{ "new", no_argument, NULL, 'N' },
		{ NULL, 0, NULL, 0 },
	};
	dc_closed_t closed = DC_CLOSED_ASK;
	const char *note = NULL;
	dc_error_t err = { 0 };
	dc_mail_t *mail = NULL;
	dc_kind_t kind;
	int c, rc;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'n') {
			note = optarg;
			continue;
		}
		if (c != 'r' && c != 'N')
			return dc_cli_usage(cli, &cmd_tag, "bad option");
		if (closed != DC_CLOSED_ASK)
			return dc_cli_usage(cli, &cmd_tag,
					    "--reopen or --new, not both");
		closed = c == 'r' ? DC_CLOSED_REOPEN : DC_CLOSED_NEW;
	}
	if (argc - optind != 2)
		return dc_cli_usage(cli, &cmd_tag,
				    "need a THREAD-ID and a kind");
	if (dc_kind_parse(argv[optind + 1], &kind, &err) != DC_OK)
		return dc_cli_usage(cli, &cmd_tag, "%s", err.msg);
	if (dc_cli_open_mail(cli, NULL, 0, &mail, &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	rc = tag_thread(cli, mail, argv[optind], kind, note, closed);
	dc_mail_close(mail);
	return rc;
}
