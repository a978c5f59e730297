// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * decorum sync [REMOTE]: pull the others' envelopes, check and apply
 * them, push this member's (core/sync/sync.h).  The ssh key that signs
 * and decrypts is [sync] key in the configuration, else ~/.ssh/id_ed25519.
 */
#include <getopt.h>

#include "core/base/clock.h"
#include "core/base/config.h"
#include "core/sync/sync.h"
#include "tui/cli.h"

static char *
key_path(void)
{
	char *v = dc_config_value(NULL, "sync", "key");

	if (v && v[0] == '~' && v[1] == '/') {
		char *r = g_build_filename(g_get_home_dir(), v + 2, NULL);

		g_free(v);
		return r;
	}
	return v ? v
		 : g_build_filename(g_get_home_dir(), ".ssh", "id_ed25519",
				    NULL);
}

static int
run(dc_cli_t *cli, int argc, char **argv)
{
	dc_sync_result_t r = { 0 };
	dc_error_t err = { 0 };
	dc_store_t *s = NULL;
	char *key = NULL;
	dc_status_t st;
	int c;

	while ((c = getopt_long(argc, argv, "", NULL, NULL)) != -1)
		return dc_cli_usage(cli, &cmd_sync, "bad option");
	if (argc - optind > 1)
		return dc_cli_usage(cli, &cmd_sync, "one REMOTE at most");
	if (dc_cli_store(cli, DC_OPEN_WRITE, &s, &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	key = key_path();
	{
		dc_sync_opts_t o = {
			.remote = optind < argc ? argv[optind] : NULL,
			.key_path = key,
			.now = dc_now(),
		};

		st = dc_sync(s, &o, &r, &err);
	}
	g_free(key);
	if (st == DC_OK)
		fprintf(cli->out,
			"synced: %d taken, %d sealed (no key to them), %d "
			"pushed\n",
			r.imported, r.sealed, r.exported);
	if (st == DC_OK)
		dc_cli_flush_mirror(cli, s);
	dc_close_store(s);
	return st == DC_OK ? DC_EXIT_OK : dc_cli_fail(cli, &err);
}

const dc_cmd_t cmd_sync = {
	.name = "sync",
	.args = "[REMOTE]",
	.summary = "share the case history with the committee through git",
	.run = run,
};
