// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * decorum remote add NAME URL [--trust SSH-PUBKEY] | list [--json] |
 * remove NAME: the git remotes a committee shares its case history
 * through (core/sync/sync.h).
 */
#include <getopt.h>
#include <string.h>

#include "core/sync/sync.h"
#include "tui/cli.h"

static int
list(dc_cli_t *cli, dc_store_t *s, int json)
{
	GPtrArray *all = NULL;
	dc_error_t err = { 0 };
	dc_sp_t *sp;
	guint i;

	if (dc_store_remote_list(s, &all, &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	sp = dc_cli_sprinter(cli);
	if (json)
		dc_sp_list(sp);
	for (i = 0; i < all->len; i++) {
		const dc_store_remote_t *r = all->pdata[i];

		if (!json) {
			fprintf(cli->out, "%s\t%s\n", r->name, r->url);
			continue;
		}
		dc_sp_map(sp);
		dc_sp_kstring(sp, "name", r->name);
		dc_sp_kstring(sp, "url", r->url);
		dc_sp_key(sp, "last_sync");
		if (r->last_sync)
			dc_sp_time(sp, r->last_sync);
		else
			dc_sp_null(sp);
		dc_sp_end(sp);
	}
	if (json) {
		dc_sp_end(sp);
		dc_cli_sprint(cli, sp);
	} else {
		g_free(dc_sp_finish(sp));
	}
	g_ptr_array_unref(all);
	return DC_EXIT_OK;
}

static int
run(dc_cli_t *cli, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "trust", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	const char *trust = NULL, *sub;
	dc_error_t err = { 0 };
	dc_store_t *s = NULL;
	dc_status_t st;
	int c, json = 0, n, rc;

	if (argc < 2)
		return dc_cli_usage(cli, &cmd_remote, "which subcommand?");
	sub = argv[1];
	argc--;
	argv++;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		if (c == 't')
			trust = optarg;
		else if (c == 'j')
			json = 1;
		else
			return dc_cli_usage(cli, &cmd_remote, "bad option");
	}
	n = argc - optind;
	if (!(!strcmp(sub, "add") && n == 2) &&
	    !(!strcmp(sub, "remove") && n == 1) &&
	    !(!strcmp(sub, "list") && n == 0))
		return dc_cli_usage(cli, &cmd_remote,
				    "add NAME URL, remove NAME or list");
	if (dc_cli_store(cli, !strcmp(sub, "list") ? DC_OPEN_READ
						   : DC_OPEN_WRITE,
			 &s, &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	if (!strcmp(sub, "list")) {
		rc = s ? list(cli, s, json) : DC_EXIT_OK;
		dc_close_store(s);
		return rc;
	}
	if (!strcmp(sub, "add"))
		st = dc_remote_add(s, argv[optind], argv[optind + 1], trust,
				   &err);
	else
		st = dc_remote_remove(s, argv[optind], &err);
	dc_close_store(s);
	if (st == DC_E_USAGE)
		return dc_cli_usage(cli, &cmd_remote, "%s", err.msg);
	if (st != DC_OK)
		return dc_cli_fail(cli, &err);
	return DC_EXIT_OK;
}

const dc_cmd_t cmd_remote = {
	.name = "remote",
	.args = "add NAME URL [--trust SSH-PUBKEY] | remove NAME | "
		"list [--json]",
	.summary = "the git remotes the committee shares its cases through",
	.run = run,
};
