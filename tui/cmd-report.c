// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * decorum report [--period week|quarter|FROM..TO] [--format FORMAT]
 *                [-o FILE] [--include-identities]
 * decorum report --publish [PERIOD] [--committee-only|--with-admonitions]
 *                [-o FILE] [--include-identities]
 * The summary report.  Anonymised unless told otherwise: before anything
 * is written, the output is scanned for every person of every case it
 * mentions, and a hit refuses the report (exit status 4).
 */
#include <getopt.h>
#include <string.h>

#include "core/export/emit.h"
#include "core/privacy/privacy.h"
#include "core/export/report.h"
#include "core/base/safefile.h"
#include "tui/cli.h"

static int run(dc_cli_t *cli, int argc, char **argv);

const dc_cmd_t cmd_report = {
	.name = "report",
	.args = "[--period week|quarter|FROM..TO] [--format text|md|json|csv] "
		"[-o FILE] [--include-identities] | --publish [PERIOD] "
		"[--committee-only|--with-admonitions]",
	.summary = "write the summary report for a period",
	.run = run,
};

typedef struct report_args {
	const char *period;
	const char *format;
	const char *output;
	int include_identities;
	int publish;
	int with_admonitions;
	int format_given;
} report_args_t;

static int
parse(dc_cli_t *cli, int argc, char **argv, report_args_t *a)
{
	static const struct option opts[] = {
		{ "period", required_argument, NULL, 'p' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "include-identities", no_argument, NULL, 'I' },
		{ "publish", no_argument, NULL, 'P' },
		{ "committee-only", no_argument, NULL, 'c' },
		{ "with-admonitions", no_argument, NULL, 'a' },
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
			a->format_given = 1;
			break;
		case 'P':
			a->publish = 1;
			break;
		case 'c':
			a->with_admonitions = 0;
			break;
		case 'a':
			a->with_admonitions = 1;
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
	/* The published form takes its period as an argument too. */
	if (a->publish && optind + 1 == argc && !a->period)
		a->period = argv[optind++];
	if (optind != argc)
		return dc_cli_usage(cli, &cmd_report, "no arguments expected");
	if (a->publish && a->format_given)
		return dc_cli_usage(cli, &cmd_report,
				    "--publish writes a plain-text mail; "
				    "--format is for the statistics");
	if (!a->publish && a->with_admonitions)
		return dc_cli_usage(cli, &cmd_report,
				    "--with-admonitions goes with --publish");
	return DC_EXIT_OK;
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
	const dc_emit_ops_t *fmt = NULL;
	dc_error_t err = { 0 }, mail_err = { 0 };
	dc_store_t *store = NULL;
	dc_mail_t *mail = NULL;
	dc_period_t period;
	int64_t now = dc_now();
	dc_status_t st;
	int rc;
	char *text = NULL;

	rc = parse(cli, argc, argv, &a);
	if (rc != DC_EXIT_OK)
		goto out;
	if (dc_emit_find(a.format, &fmt, &err) != DC_OK ||
	    dc_period_parse(a.period, now, &period, &err) != DC_OK) {
		rc = dc_cli_usage(cli, &cmd_report, "%s", err.msg);
		goto out;
	}
	if (dc_cli_store(cli, DC_OPEN_UPGRADE, &store, &err) != DC_OK) {
		rc = dc_cli_fail(cli, &err);
		goto out;
	}
	if (store && dc_cli_open_mail(cli, store, 0, &mail, &mail_err) != DC_OK)
		mail = NULL;
	if (a.publish) {
		dc_publish_opts_t po = {
			.with_admonitions = a.with_admonitions,
			.include_identities = a.include_identities,
		};

		st = dc_report_publish(store, mail, &period, now, &po, &text,
				       &err);
	} else {
		st = dc_report_text(store, mail, &period, now, fmt,
				    a.include_identities, &text, &err);
	}
	switch (st) {
	case DC_OK:
		rc = write_out(cli, &a, text);
		break;
	case DC_E_DENIED:
		fprintf(cli->err, "decorum report: refused, nothing was "
			"written: %s\n", err.msg);
		if (!mail && mail_err.msg[0])
			fprintf(cli->err, "decorum report: the mail index: "
				"%s\n", mail_err.msg);
		rc = DC_EXIT_DENIED;
		break;
	default:
		rc = dc_cli_fail(cli, &err);
	}
out:
	g_free(text);
	dc_mail_close(mail);
	dc_close_store(store);
	return rc;
}
