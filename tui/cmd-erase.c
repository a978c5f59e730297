// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * decorum erase --reporter ADDRESS | --case N [--dry-run]
 * Remove a person's data, or a case's, from the store; counts, the
 * history's shape and "decorum verify" survive (core/privacy/erase.h).
 */
#include <getopt.h>
#include <stdlib.h>

#include "core/base/history.h"
#include "core/privacy/erase.h"
#include "core/export/report.h"
#include "tui/cli.h"

/* The TUI's / queries that name the address go too
 * (core/base/history.h). */
static int
forget_queries(dc_cli_t *cli, const char *address)
{
	char *path = dc_history_path();
	dc_error_t err = { 0 };
	int n = 0, rc = DC_EXIT_OK;

	if (dc_history_forget(path, address, &n, &err) != DC_OK)
		rc = dc_cli_fail(cli, &err);
	else if (n)
		fprintf(cli->out, "erased %d %s from the search history %s\n",
			n, n == 1 ? "query" : "queries", path);
	g_free(path);
	return rc;
}

static int
run(dc_cli_t *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "reporter", required_argument, NULL, 'r' },
		{ "address", required_argument, NULL, 'r' },
		{ "case", required_argument, NULL, 'c' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	dc_erase_opts_t o = { .now = dc_now() };
	dc_erase_result_t r;
	dc_error_t err = { 0 };
	dc_store_t *store = NULL;
	dc_mail_t *mail = NULL;
	int c, rc = DC_EXIT_OK;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'r') {
			o.address = optarg;
		} else if (c == 'c') {
			if (!dc_cli_case_number(optarg, &o.case_id))
				return dc_cli_usage(cli, &cmd_erase,
						    "'%s' is not a case number",
						    optarg);
		} else if (c == 'n') {
			o.dry_run = 1;
		} else {
			return dc_cli_usage(cli, &cmd_erase, "bad option");
		}
	}
	if (optind != argc || !o.address == !o.case_id)
		return dc_cli_usage(cli, &cmd_erase,
				    "give --reporter ADDRESS or --case N");
	if (dc_cli_store(cli, DC_OPEN_UPGRADE, &store, &err) != DC_OK) {
		rc = dc_cli_fail(cli, &err);
		goto out;
	}
	if (!store) {
		fprintf(cli->err, "decorum: no case store yet\n");
		rc = DC_EXIT_NOT_FOUND;
		goto out;
	}
	if (!dc_cli_identity(cli))
		dc_cli_open_mail(cli, store, 0, &mail, NULL);
	o.actor = dc_cli_actor(cli, mail);
	if (dc_erase(store, &o, &r, &err) != DC_OK) {
		rc = dc_cli_fail(cli, &err);
		goto out;
	}
	fprintf(cli->out, "%s %" G_GINT64_FORMAT " event payloads in %"
		G_GINT64_FORMAT " cases%s\n",
		o.dry_run ? "would erase" : "erased", (gint64)r.events,
		(gint64)r.cases,
		o.dry_run ? " (dry run: nothing changed)" :
			    "; the history records the erasure");
	if (r.shared && !o.dry_run)
		fprintf(cli->out, "%" G_GINT64_FORMAT " shared %s erased whole, "
			"for every member at their next sync (decorum sync "
			"shares the erasure and deletes the %s)\n",
			(gint64)r.shared, r.shared == 1 ? "case" : "cases",
			r.shared == 1 ? "case's key" : "cases' keys");
	if (o.address && !o.dry_run)
		rc = forget_queries(cli, o.address);
out:
	dc_mail_close(mail);
	dc_close_store(store);
	return rc;
}

const dc_cmd_t cmd_erase = {
	.name = "erase",
	.args = "--reporter ADDRESS | --case N [--dry-run]",
	.summary = "erase a person's or a case's personal data",
	.run = run,
};
