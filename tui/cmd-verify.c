// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * decorum verify [--head HASH] [--json]: check the hash chain, its head
 * and the case cache (core/case/verify.h).  Exit 3 naming the first bad event.
 */
#include <getopt.h>

#include "core/export/describe.h"
#include "core/case/verify.h"
#include "tui/cli.h"

static int
run(dc_cli_t *cli, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "head", required_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *head = NULL;
	dc_error_t err = { 0 };
	dc_store_t *s = NULL;
	dc_verify_t v = { 0 };
	dc_status_t st = DC_OK;
	int c, json = 0;

	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		if (c == 'j')
			json = 1;
		else if (c == 'h')
			head = optarg;
		else
			return dc_cli_usage(cli, &cmd_verify, "bad option");
	}
	if (optind != argc)
		return dc_cli_usage(cli, &cmd_verify, "no arguments expected");
	if (head && dc_verify_head_check(head, &err) != DC_OK)
		return dc_cli_usage(cli, &cmd_verify, "%s", err.msg);
	if (dc_cli_store(cli, DC_OPEN_READ, &s, &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	if (s)
		st = dc_verify_store(s, head, &v, &err);
	dc_close_store(s);
	if (json) {
		dc_sp_t *sp = dc_cli_sprinter(cli);

		dc_describe_verify(sp, st == DC_OK, &v, err.msg);
		dc_cli_sprint(cli, sp);
	} else if (st == DC_OK) {
		fprintf(cli->out, "ok: %" G_GINT64_FORMAT " events, head %s\n",
			(gint64)v.events, *v.head ? v.head : "(empty log)");
	}
	if (st != DC_OK)
		return dc_cli_fail(cli, &err);
	return DC_EXIT_OK;
}

const dc_cmd_t cmd_verify = {
	.name = "verify",
	.args = "[--head HASH] [--json]",
	.summary = "check that the case history is intact",
	.run = run,
};
