// SPDX-License-Identifier: GPL-3.0-or-later
/* decorum cases [--all] [--json]: the cases the viewer may see; --all
 * adds withdrawn ones. */
#include <getopt.h>

#include "core/case/case.h"
#include "core/base/json.h"
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
json_time(dc_json_t *j, const char *key, int64_t t)
{
	char *s = dc_cli_iso8601(t);

	dc_json_key(j, key);
	dc_json_string(j, s);
	g_free(s);
}

static void
json_case(dc_json_t *j, const dc_case_t *c)
{
	char *s;
	guint i;

	dc_json_begin_object(j);
	dc_json_key(j, "id");
	dc_json_int(j, c->id);
	dc_json_key(j, "kind");
	dc_json_string(j, dc_kind_name(c->kind));
	dc_json_key(j, "state");
	dc_json_string(j, c->state);
	json_time(j, "created", c->created_at);
	json_time(j, "updated", c->updated_at);
	json_time(j, "reported", c->reported_at);
	dc_json_key(j, "subject");
	dc_json_string(j, s = dc_sanitize_line(c->subject));
	g_free(s);
	dc_json_key(j, "threads");
	dc_json_begin_array(j);
	for (i = 0; i < c->threads->len; i++)
		dc_json_string(j, c->threads->pdata[i]);
	dc_json_end_array(j);
	dc_json_key(j, "notes");
	dc_json_begin_array(j);
	for (i = 0; i < c->notes->len; i++) {
		const dc_note_t *n = c->notes->pdata[i];

		dc_json_begin_object(j);
		json_time(j, "at", n->at);
		dc_json_key(j, "by");
		dc_json_string(j, s = dc_sanitize_line(n->actor));
		g_free(s);
		dc_json_key(j, "text");
		dc_json_string(j, s = dc_sanitize(n->text, -1, DC_SAN_TEXT,
						  NULL));
		g_free(s);
		dc_json_end_object(j);
	}
	dc_json_end_array(j);
	dc_json_end_object(j);
}

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
		dc_json_t *j = dc_json_new(1);
		char *text;

		dc_json_begin_array(j);
		for (i = 0; i < cases->len; i++)
			json_case(j, cases->pdata[i]);
		dc_json_end_array(j);
		text = dc_json_finish(j);
		fputs(text, cli->out);
		g_free(text);
	} else {
		for (i = 0; i < cases->len; i++)
			text_case(cli, cases->pdata[i]);
	}
	g_ptr_array_unref(cases);
	dc_close_store(store);
	return DC_EXIT_OK;
}
