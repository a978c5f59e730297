// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * decorum sync [REMOTE]: pull the others' envelopes, check and apply
 * them, push this member's (core/sync/sync.h).  The ssh key that signs
 * and decrypts is [sync] key in decorum's configuration, else
 * ~/.ssh/id_ed25519 (dc_sync_key_path).
 * On a terminal, stderr shows how it goes.
 */
#include <getopt.h>
#include <unistd.h>

#include "core/base/clock.h"
#include "core/sync/sync.h"
#include "tui/cli.h"

static void
progress(void *data, const char *phase, int done, int total)
{
	dc_cli_t *cli = data;

	if (total)
		fprintf(cli->err, "\rdecorum sync: %s %d/%d\033[K", phase, done,
			total);
	else
		fprintf(cli->err, "\rdecorum sync: %s\033[K", phase);
	fflush(cli->err);
}

static int
run(dc_cli_t *cli, int argc, char **argv)
{
	dc_sync_result_t r = { 0 };
	dc_error_t err = { 0 };
	dc_store_t *s = NULL;
	int tty = isatty(fileno(cli->err));
	char *key = NULL;
	dc_status_t st;
	int c;

	while ((c = getopt_long(argc, argv, "", NULL, NULL)) != -1)
		return dc_cli_usage(cli, &cmd_sync, "bad option");
	if (argc - optind > 1)
		return dc_cli_usage(cli, &cmd_sync, "one REMOTE at most");
	if (dc_sync_key_path(&key, &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	if (dc_cli_store(cli, DC_OPEN_WRITE, &s, &err) != DC_OK) {
		g_free(key);
		return dc_cli_fail(cli, &err);
	}
	{
		dc_sync_opts_t o = {
			.remote = optind < argc ? argv[optind] : NULL,
			.key_path = key,
			.now = dc_now(),
			.progress = tty ? progress : NULL,
			.progress_data = cli,
		};

		st = dc_sync(s, &o, &r, &err);
	}
	g_free(key);
	/* The progress line gives way to what follows. */
	if (tty)
		fprintf(cli->err, "\r\033[K");
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
