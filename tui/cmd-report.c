// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * decorum report [--period week|quarter|FROM..TO] [--format FORMAT]
 *                [-o FILE] [--include-identities]
 * The summary report.  Anonymised unless told otherwise: before anything
 * is written, the output is scanned for every person of every case it
 * mentions, and a hit refuses the report (exit status 4).
 */
#include <getopt.h>
#include <string.h>

#include "core/emit.h"
#include "core/privacy.h"
#include "core/report.h"
#include "core/safefile.h"
#include "tui/cli.h"

static int run(dc_cli_t *cli, int argc, char **argv);

const dc_cmd_t cmd_report = {
	.name = "report",
	.args = "[--period week|quarter|FROM..TO] [--format text|md|json|csv] "
		"[-o FILE] [--include-identities]",
	.summary = "write the summary report for a period",
	.run = run,
};

typedef struct report_args {
	const char *period;
	const char *format;
	const char *output;
	int include_identities;
} report_args_t;

static int
parse(dc_cli_t *cli, int argc, char **argv, report_args_t *a)
{
	static const struct option opts[] = {
		{ "period", required_argument, NULL, 'p' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "include-identities", no_argument, NULL, 'I' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			a->period = optarg;
			break;
		case 'f':
			a->format = optarg;
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'I':
			a->include_identities = 1;
			break;
		default:
			return dc_cli_usage(cli, &cmd_report, "bad option");
		}
	}
	if (optind != argc)
		return dc_cli_usage(cli, &cmd_report, "no arguments expected");
	return DC_EXIT_OK;
}

/* The report's cases, or none: without the mail index their people are
 * unknown, and an anonymised report must not guess. */
static int
mentions_cases(const dc_report_t *r)
{
	return r->cases->len || r->tab_pending->len || r->long_open->len;
}

static int
refuse(dc_cli_t *cli, dc_identity_set_t *people, const dc_identity_hit_t *h)
{
	/* Name the kind of hit, not the person: this may go to a log. */
	char *why = dc_identity_hit_describe(people, "the report", h);

	fprintf(cli->err, "decorum report: refused, nothing was written: %s\n",
		why);
	g_free(why);
	return DC_EXIT_DENIED;
}

static int
write_out(dc_cli_t *cli, const report_args_t *a, const char *text)
{
	dc_error_t err = { 0 };

	if (!a->output || !strcmp(a->output, "-")) {
		fputs(text, cli->out);
		return DC_EXIT_OK;
	}
	if (dc_file_create(a->output, text, strlen(text), &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	fprintf(cli->err, "decorum report: wrote %s\n", a->output);
	return DC_EXIT_OK;
}

static int
run(dc_cli_t *cli, int argc, char **argv)
{
	report_args_t a = { .format = "text" };
	dc_identity_set_t *people = dc_identity_set_new();
	const dc_emit_ops_t *fmt = NULL;
	dc_identity_hit_t hit;
	dc_error_t err = { 0 };
	dc_store_t *store = NULL;
	dc_mail_t *mail = NULL;
	dc_report_t *r = NULL;
	dc_period_t period;
	int64_t now = dc_now();
	int rc;
	char *text = NULL;
	dc_emit_t *e;

	rc = parse(cli, argc, argv, &a);
	if (rc != DC_EXIT_OK)
		goto out;
	if (dc_emit_find(a.format, &fmt, &err) != DC_OK ||
	    dc_period_parse(a.period, now, &period, &err) != DC_OK) {
		rc = dc_cli_usage(cli, &cmd_report, "%s", err.msg);
		goto out;
	}
	if (dc_cli_open_store_existing(cli, &store, &err) != DC_OK) {
		rc = dc_cli_fail(cli, &err);
		goto out;
	}
	if (store && dc_cli_open_mail(cli, 0, &mail, &err) != DC_OK)
		mail = NULL;
	if (dc_report_build(store, mail, &period, now, !a.include_identities,
			    people, &r, &err) != DC_OK) {
		rc = dc_cli_fail(cli, &err);
		goto out;
	}
	if (!mail && mentions_cases(r) && !a.include_identities) {
		fprintf(cli->err, "decorum report: refused: without the mail "
			"index (%s) the report cannot be checked for the "
			"names of the people in its cases\n", err.msg);
		rc = DC_EXIT_DENIED;
		goto out;
	}
	e = dc_emit_new(fmt);
	dc_report_emit(r, e);
	text = dc_emit_finish(e);
	if (!a.include_identities &&
	    dc_identity_scan(people, text, strlen(text), &hit))
		rc = refuse(cli, people, &hit);
	else
		rc = write_out(cli, &a, text);
out:
	g_free(text);
	dc_report_free(r);
	dc_identity_set_free(people);
	dc_mail_close(mail);
	dc_store_close(store);
	return rc;
}
