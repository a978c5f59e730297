// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * decorum packet CASE [-o DIR] [--redact] [--final] [--to ADDRESS]
 * [--reply-by DATE]: the TAB escalation packet; decorum packet --verify
 * DIR checks one against its manifest.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/clock.h"
#include "core/export/packet.h"
#include "core/export/report.h"
#include "tui/cli.h"

static int run(dc_cli_t *cli, int argc, char **argv);

const dc_cmd_t cmd_packet = {
	.name = "packet",
	.args = "CASE [-o DIR] [--redact] [--final] [--to ADDRESS] "
		"[--reply-by YYYY-MM-DD] | --verify DIR",
	.summary = "write the TAB escalation packet of a case",
	.run = run,
};

static void
progress(void *ctx, unsigned done, unsigned total)
{
	dc_cli_t *cli = ctx;

	if (isatty(fileno(cli->err)))
		fprintf(cli->err, "\rdecorum packet: %u messages", done);
}

static void
names(dc_cli_t *cli, const char *what, const GPtrArray *a)
{
	guint i;

	for (i = 0; a && i < a->len; i++)
		fprintf(cli->out, "%s: %s\n", what, (char *)a->pdata[i]);
}

/* packet --verify DIR: each file that does not match, or how many do. */
static int
verify(dc_cli_t *cli, const char *dir)
{
	dc_packet_check_t c = { 0 };
	dc_error_t err = { 0 };
	int rc = DC_EXIT_OK;

	if (dc_packet_verify(dir, &c, &err) != DC_OK) {
		names(cli, "missing", c.missing);
		names(cli, "changed", c.changed);
		names(cli, "extra", c.extra);
		rc = dc_cli_fail(cli, &err);
	} else {
		fprintf(cli->out, "%u file%s verified\n", c.verified,
			c.verified == 1 ? "" : "s");
	}
	dc_packet_check_clear(&c);
	return rc;
}

static int
run(dc_cli_t *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "redact", no_argument, NULL, 'r' },
		{ "to", required_argument, NULL, 't' },
		{ "final", no_argument, NULL, 'f' },
		{ "reply-by", required_argument, NULL, 'b' },
		{ "verify", required_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	dc_packet_opts_t o = { .now = dc_now(), .progress = progress,
			       .ctx = cli };
	dc_error_t err = { 0 };
	dc_store_t *store = NULL;
	dc_mail_t *mail = NULL;
	const char *check = NULL;
	GDateTime *day;
	char *dir = NULL, *by;
	unsigned n = 0;
	int c, rc = DC_EXIT_OK;

	while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o.dir = optarg;
			break;
		case 'r':
			o.redact = 1;
			break;
		case 't':
			o.to = optarg;
			break;
		case 'f':
			o.final = 1;
			break;
		case 'b':
			if (!dc_parse_day(optarg, strlen(optarg), &o.reply_by))
				return dc_cli_usage(cli, &cmd_packet,
						    "--reply-by takes a date, "
						    "YYYY-MM-DD");
			break;
		case 'v':
			check = optarg;
			break;
		default:
			return dc_cli_usage(cli, &cmd_packet, "bad option");
		}
	}
	if (check && argc - optind == 0)
		return verify(cli, check);
	if (check)
		return dc_cli_usage(cli, &cmd_packet, "--verify takes a "
				    "directory, not a CASE");
	if (argc - optind != 1)
		return dc_cli_usage(cli, &cmd_packet, "need one CASE number");
	if (!dc_cli_case_number(argv[optind], &o.case_id))
		return dc_cli_usage(cli, &cmd_packet, "'%s' is not a case "
				    "number", argv[optind]);
	if (!o.dir)
		o.dir = dir = g_strdup_printf("case-%" G_GINT64_FORMAT
					      "-packet", (gint64)o.case_id);
	if (dc_cli_store(cli, DC_OPEN_UPGRADE, &store, &err) != DC_OK ||
	    dc_cli_open_mail(cli, store, 0, &mail, &err) != DC_OK) {
		rc = dc_cli_fail(cli, &err);
		goto out;
	}
	if (!store) {
		fprintf(cli->err, "decorum: no case store yet\n");
		rc = DC_EXIT_NOT_FOUND;
		goto out;
	}
	o.actor = dc_cli_actor(cli, mail);
	if (dc_packet_write(store, mail, &o, &n, &err) != DC_OK) {
		if (isatty(fileno(cli->err)))
			fputc('\n', cli->err);
		rc = dc_cli_fail(cli, &err);
		goto out;
	}
	if (isatty(fileno(cli->err)))
		fputc('\n', cli->err);
	day = g_date_time_new_from_unix_utc(dc_packet_reply_by(&o));
	by = g_date_time_format(day, "%Y-%m-%d");
	fprintf(cli->out, "case %" G_GINT64_FORMAT ": packet written to %s "
		"(%u messages%s%s), reply by %s\n", (gint64)o.case_id, o.dir,
		n, o.redact ? ", reporters redacted" : "",
		o.final ? ", final" : "", by);
	g_free(by);
	g_date_time_unref(day);
out:
	dc_mail_close(mail);
	dc_close_store(store);
	g_free(dir);
	return rc;
}
