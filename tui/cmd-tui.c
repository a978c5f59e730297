// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * decorum tui [--cases] [QUERY]: the full-screen interface (also what
 * "decorum" with no command runs); --cases opens on the cases view.  --script drives it headless for the screen tests;
 * --dump-actions prints the action table (the KEYS section of decorum(1)
 * is generated from it).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "tui/cli.h"
#include "tui/tui.h"

static int run(dc_cli_t *cli, int argc, char **argv);

const dc_cmd_t cmd_tui = {
	.name = "tui",
	.args = "[--cases] [QUERY]",
	.summary = "the full-screen triage interface (the default)",
	.run = run,
};

static void
dump_text(dc_cli_t *cli)
{
	const dc_help_row_t *rows;
	int n, i;

	dc_keymap_init();
	rows = dc_help_rows(&n);
	for (i = 0; i < n; i++) {
		char *keys;

		if (rows[i].act == ACT_NONE) {
			fprintf(cli->out, "%s%s\n", i ? "\n" : "",
				rows[i].text);
			continue;
		}
		keys = dc_keymap_keys(rows[i].act);
		fprintf(cli->out, "  %-16s %-15s %s\n", keys,
			dc_action_name(rows[i].act), rows[i].text);
		g_free(keys);
	}
}

static int
run(dc_cli_t *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "script", required_argument, NULL, 's' },
		{ "size", required_argument, NULL, 'z' },
		{ "dump-dir", required_argument, NULL, 'd' },
		{ "dump-actions", required_argument, NULL, 'a' },
		{ "cases", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	const char *script = NULL, *dump_dir = NULL;
	int rows = 24, cols = 80, c, rc, cases = 0;
	char *query;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			script = optarg;
			break;
		case 'd':
			dump_dir = optarg;
			break;
		case 'c':
			cases = 1;
			break;
		case 'z':
			if (sscanf(optarg, "%dx%d", &cols, &rows) != 2 ||
			    cols < 1 || rows < 1 || cols > 1000 || rows > 1000)
				return dc_cli_usage(cli, &cmd_tui,
						    "--size COLSxROWS, e.g. "
						    "80x24");
			break;
		case 'a':
			if (!strcmp(optarg, "man")) {
				dc_actions_write_man(cli->out);
			} else if (!strcmp(optarg, "text")) {
				dump_text(cli);
			} else {
				return dc_cli_usage(cli, &cmd_tui,
						    "--dump-actions man|text");
			}
			return DC_EXIT_OK;
		default:
			return dc_cli_usage(cli, &cmd_tui, "bad option");
		}
	}
	query = g_strjoinv(" ", argv + optind);
	rc = dc_tui_main(cli, query, script, dump_dir, rows, cols, cases);
	g_free(query);
	return rc;
}
