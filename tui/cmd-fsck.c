// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * decorum fsck [--repair [--force] [--max-changes N]] [--json]: compare
 * the case store with the notmuch tags both ways (core/mail/fsck.h).  Exit 0
 * when they agree (or were repaired), 3 when they differ, 4 when a repair
 * was refused as too large.
 */
#include <getopt.h>
#include <stdlib.h>

#include "core/mail/fsck.h"
#include "core/export/describe.h"
#include "core/base/sanitize.h"
#include "tui/cli.h"

static int run(dc_cli_t *cli, int argc, char **argv);

const dc_cmd_t cmd_fsck = {
	.name = "fsck",
	.args = "[--repair] [--force] [--max-changes N] [--json]",
	.summary = "compare case store and notmuch tags; repair on request",
	.run = run,
};

static void
print_json(dc_cli_t *cli, const dc_fsck_t *f, int repaired)
{
	dc_sp_t *sp = dc_cli_sprinter(cli);

	dc_describe_fsck(sp, f, repaired);
	dc_cli_sprint(cli, sp);
}

static void
print_text(dc_cli_t *cli, const dc_fsck_t *f, int repaired)
{
	guint i;

	for (i = 0; i < f->diffs->len; i++) {
		const dc_fsck_diff_t *d = f->diffs->pdata[i];
		char *m = dc_sanitize_line(d->message_id);

		fprintf(cli->out, "thread:%s <%s> %s%s: %s\n", d->thread_id, m,
			d->missing ? "+" : "-", d->tag,
			d->missing ? "missing in notmuch" : "not in the store");
		g_free(m);
	}
	for (i = 0; i < f->gone->len; i++) {
		const dc_fsck_gone_t *g = f->gone->pdata[i];
		char *m = dc_sanitize_line(g->message_id);

		fprintf(cli->out,
			"case %" G_GINT64_FORMAT ": <%s> is not in the notmuch "
			"index (kept, not replaced)\n",
			(gint64)g->case_id, m);
		g_free(m);
	}
	if (f->pending)
		fprintf(cli->out, "%d tag change%s queued for notmuch\n",
			f->pending, f->pending == 1 ? "" : "s");
	fprintf(cli->out, "%u difference%s in %d tracked thread%s%s\n",
		f->diffs->len, f->diffs->len == 1 ? "" : "s", f->threads,
		f->threads == 1 ? "" : "s",
		repaired && f->diffs->len ? "; repaired" : "");
}

static int
run(dc_cli_t *cli, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "repair", no_argument, NULL, 'r' },
		{ "force", no_argument, NULL, 'f' },
		{ "max-changes", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	int c, json = 0, repair = 0, force = 0, max = 0, rc;
	dc_error_t err = { 0 };
	dc_store_t *s = NULL;
	dc_fsck_t *f = NULL;
	dc_mail_opts_t mo;
	dc_status_t st;
	char *end;

	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'j': json = 1; break;
		case 'r': repair = 1; break;
		case 'f': force = 1; break;
		case 'm':
			max = (int)strtol(optarg, &end, 10);
			if (*end || max <= 0)
				return dc_cli_usage(cli, &cmd_fsck,
						    "bad --max-changes");
			break;
		default:
			return dc_cli_usage(cli, &cmd_fsck, "bad option");
		}
	}
	if (optind != argc)
		return dc_cli_usage(cli, &cmd_fsck, "no arguments expected");
	/* A check only reads; a repair may record (and so upgrade). */
	if (dc_cli_store(cli, repair ? DC_OPEN_WRITE : DC_OPEN_READ, &s,
			 &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	if (!s) {
		fprintf(cli->err, "decorum: there is no case store yet; "
				  "nothing to compare\n");
		return DC_EXIT_NOT_FOUND;
	}
	dc_cli_mail_opts(cli, &mo);
	st = dc_fsck_run(s, &mo, repair, force, max, &f, &err);
	dc_close_store(s);
	if (st == DC_OK || st == DC_E_DENIED) {
		if (json)
			print_json(cli, f, st == DC_OK && repair);
		else
			print_text(cli, f, st == DC_OK && repair);
	}
	if (st != DC_OK)
		rc = dc_cli_fail(cli, &err);
	else
		rc = f->diffs->len && !repair ? DC_EXIT_DATA : DC_EXIT_OK;
	dc_fsck_free(f);
	return rc;
}
