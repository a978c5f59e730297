// SPDX-License-Identifier: GPL-3.0-or-later
/* decorum cases [--all] [--state S] [--kind K] [--since DAYS] [--json]:
 * the cases the viewer may see, open and closed alike (a closed case
 * never vanishes); --all adds withdrawn ones, whose opening was undone.
 * The filters are the cases view's (core/case/filter.h). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "core/case/case.h"
#include "core/case/filter.h"
#include "core/base/clock.h"
#include "core/export/describe.h"
#include "core/base/sanitize.h"
#include "tui/cli.h"

static int run(dc_cli_t *cli, int argc, char **argv);

const dc_cmd_t cmd_cases = {
	.name = "cases",
	.args = "[--all] [--state S] [--kind K] [--since DAYS] [--json]",
	.summary = "list the cases in the store",
	.run = run,
};

static void
text_case(dc_cli_t *cli, const dc_case_t *c)
{
	char date[32], *subject = dc_sanitize_line(c->subject);

	dc_cli_date(c->created_at, date);
	fprintf(cli->out, "#%-4" G_GINT64_FORMAT " %-10s %-13s %s  %s\n",
		(gint64)c->id, dc_kind_name(c->kind), c->state, date, subject);
	g_free(subject);
}

/*
 * One --state or --kind word into *f: a filter word of that sort only
 * (what the cases view takes, core/case/filter.h); 0 when it is not,
 * the usage error said.
 */
static int
filter_option(dc_cli_t *cli, dc_case_filter_t *f, const char *opt,
	      const char *word)
{
	dc_error_t err = { 0 };
	dc_case_filter_t one = { 0 };
	int state = !strcmp(opt, "state");

	if (dc_case_filter_word(&one, word, &err) != DC_OK) {
		dc_cli_usage(cli, &cmd_cases, "--%s: %s", opt, err.msg);
		dc_error_clear(&err);
		return 0;
	}
	if (one.since_days || (state ? !one.states || one.kinds :
				       !one.kinds || one.states)) {
		dc_cli_usage(cli, &cmd_cases, "--%s: '%s' is not a %s (%s)",
			     opt, word, opt,
			     state ? "open, closed, new, acknowledged, "
				     "investigating or decided" :
				     "admonition, escalation or tab");
		return 0;
	}
	f->states |= one.states;
	f->kinds |= one.kinds;
	return 1;
}

static int
run(dc_cli_t *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "all", no_argument, NULL, 'a' },
		{ "state", required_argument, NULL, 's' },
		{ "kind", required_argument, NULL, 'k' },
		{ "since", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	dc_case_filter_t filter = { 0 };
	char *end;
	long days;
	dc_error_t err = { 0 };
	dc_store_t *store = NULL;
	GPtrArray *cases = NULL;
	int c, json = 0, all = 0;
	guint i;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'j')
			json = 1;
		else if (c == 'a')
			all = 1;
		else if (c == 's' || c == 'k') {
			if (!filter_option(cli, &filter,
					   c == 's' ? "state" : "kind", optarg))
				return DC_EXIT_USAGE;
		} else if (c == 'd') {
			days = strtol(optarg, &end, 10);
			if (!g_ascii_isdigit(*optarg) || *end || days < 1 ||
			    days > 100000)
				return dc_cli_usage(cli, &cmd_cases,
						    "--since DAYS: a number of "
						    "days, 1 or more");
			filter.since_days = (int)days;
		} else
			return dc_cli_usage(cli, &cmd_cases, "bad option");
	}
	if (optind != argc)
		return dc_cli_usage(cli, &cmd_cases, "no arguments expected");
	/* No store yet simply means no cases; reading creates nothing. */
	if (dc_cli_store(cli, DC_OPEN_READ, &store, &err) != DC_OK ||
	    (store && dc_case_list_filtered(store, &filter, all,
					    DC_CASES_BY_NUMBER, dc_now(),
					    &cases, &err) != DC_OK)) {
		dc_close_store(store);
		return dc_cli_fail(cli, &err);
	}
	if (!cases)
		cases = g_ptr_array_new();
	if (json) {
		dc_sp_t *sp = dc_cli_sprinter(cli);

		dc_sp_list(sp);
		for (i = 0; i < cases->len; i++)
			dc_describe_case_row(sp, cases->pdata[i]);
		dc_sp_end(sp);
		dc_cli_sprint(cli, sp);
	} else {
		for (i = 0; i < cases->len; i++)
			text_case(cli, cases->pdata[i]);
	}
	g_ptr_array_unref(cases);
	dc_close_store(store);
	return DC_EXIT_OK;
}
