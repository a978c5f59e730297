// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * decorum: triage Code of Conduct reports from a notmuch index.
 * main() parses the global options and hands over to one subcommand.
 */
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "tui/cli.h"

static void
usage(FILE *f)
{
	int i;

	fprintf(f, "usage: decorum [GLOBAL OPTIONS] COMMAND [ARGS]\n\n"
		   "Commands:\n");
	for (i = 0; dc_commands[i]; i++)
		fprintf(f, "  %-8s %-40s %s\n", dc_commands[i]->name,
			dc_commands[i]->args, dc_commands[i]->summary);
	fprintf(f,
		"\nGlobal options:\n"
		"  --config FILE   notmuch configuration file\n"
		"  --db PATH       a notmuch database without a config file\n"
		"  --profile NAME  notmuch profile (like NOTMUCH_PROFILE)\n"
		"  --store FILE    decorum's case store (default: "
		"$XDG_DATA_HOME/decorum/decorum.db)\n"
		"  --as ADDRESS    act as this identity\n"
		"  --help, --version\n\n"
		"See decorum(1) for the details, the JSON formats and the exit "
		"statuses.\n");
}

static const dc_cmd_t *
find_command(const char *name)
{
	int i;

	for (i = 0; dc_commands[i]; i++)
		if (!strcmp(dc_commands[i]->name, name))
			return dc_commands[i];
	return NULL;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "db", required_argument, NULL, 'd' },
		{ "profile", required_argument, NULL, 'p' },
		{ "store", required_argument, NULL, 's' },
		{ "as", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	dc_cli_t cli = { .out = stdout, .err = stderr };
	const dc_cmd_t *cmd;
	int c;

	setlocale(LC_ALL, "");
	/* "+": options after the subcommand belong to the subcommand. */
	while ((c = getopt_long(argc, argv, "+hV", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			cli.config_path = optarg;
			break;
		case 'd':
			cli.db_path = optarg;
			break;
		case 'p':
			cli.profile = optarg;
			break;
		case 's':
			cli.store_path = optarg;
			break;
		case 'a':
			cli.as = optarg;
			break;
		case 'h':
			usage(stdout);
			return DC_EXIT_OK;
		case 'V':
			printf("decorum %s\n", DC_VERSION);
			return DC_EXIT_OK;
		default:
			usage(stderr);
			return DC_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		/* No command: the full-screen interface. */
		static char *tui_argv[] = { "tui", NULL };

		cmd = find_command("tui");
		if (!cmd) {
			usage(stderr);
			return DC_EXIT_USAGE;
		}
		optind = 0;
		return cmd->run(&cli, 1, tui_argv);
	}
	cmd = find_command(argv[optind]);
	if (!cmd) {
		fprintf(stderr, "decorum: unknown command '%s'\n",
			argv[optind]);
		usage(stderr);
		return DC_EXIT_USAGE;
	}
	argc -= optind;
	argv += optind;
	/* Every command's own help, the same way. */
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: decorum %s %s\n%s (see decorum(1))\n", cmd->name,
		       cmd->args, cmd->summary);
		return DC_EXIT_OK;
	}
	optind = 0; /* let the subcommand run getopt afresh */
	return cmd->run(&cli, argc, argv);
}
