// SPDX-License-Identifier: GPL-3.0-or-later
/* decorum cases [--all] [--json]: the cases the viewer may see, open
 * and closed alike (a closed case never vanishes); --all adds withdrawn
 * ones, whose opening was undone. */
#include <getopt.h>

#include "core/case/case.h"
#include "core/export/describe.h"
#include "core/base/sanitize.h"
#include "tui/cli.h"

static int run(dc_cli_t *cli, int argc, char **argv);

const dc_cmd_t cmd_cases = {
	.name = "cases",
	.args = "[--all] [--json]",
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

static int
run(dc_cli_t *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "all", no_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
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
		else
			return dc_cli_usage(cli, &cmd_cases, "bad option");
	}
	if (optind != argc)
		return dc_cli_usage(cli, &cmd_cases, "no arguments expected");
	/* No store yet simply means no cases; reading creates nothing. */
	if (dc_cli_store(cli, DC_OPEN_READ, &store, &err) != DC_OK ||
	    (store && (all ? dc_case_list_all(store, &cases, &err)
			   : dc_case_list(store, &cases, &err)) != DC_OK)) {
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
