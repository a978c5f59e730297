// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * decorum doc KIND [--html DIR] [--json]: the section of the kernel
 * documentation that governs a kind of case (core/docs/doclink.h), its
 * docs.kernel.org address and the built HTML page when there is one.
 * decorum doc --list: the links.  decorum doc --check DIR: every link
 * resolves to an anchor in the HTML under DIR (exit 1 naming the first
 * that does not).
 */
#include <getopt.h>

#include "core/docs/doclink.h"
#include "core/export/describe.h"
#include "tui/cli.h"

static int run(dc_cli_t *cli, int argc, char **argv);

const dc_cmd_t cmd_doc = {
	.name = "doc",
	.args = "KIND [--html DIR] [--json] | --list [--json] | --check DIR",
	.summary = "show the kernel documentation governing a kind of case",
	.run = run,
};

static int
list(dc_cli_t *cli, int json)
{
	int i, n;
	const dc_doclink_t *l = dc_doclinks(&n);
	dc_sp_t *sp;

	if (!json) {
		for (i = 0; i < n; i++)
			fprintf(cli->out, "%-15s %s\n%-15s %s\n", l[i].name,
				l[i].title, "", l[i].url);
		return DC_EXIT_OK;
	}
	sp = dc_cli_sprinter(cli);
	dc_sp_list(sp);
	for (i = 0; i < n; i++)
		dc_describe_doclink(sp, &l[i]);
	dc_sp_end(sp);
	dc_cli_sprint(cli, sp);
	return DC_EXIT_OK;
}

static int
check(dc_cli_t *cli, const char *dir)
{
	dc_error_t err = { 0 };
	int n, ok;

	dc_doclinks(&n);
	if (dc_doc_check(dir, &ok, &err) != DC_OK) {
		fprintf(cli->err, "decorum doc: link does not resolve: %s\n",
			err.msg);
		return DC_EXIT_NOT_FOUND;
	}
	fprintf(cli->out, "ok: %d links resolve in %s\n", ok, dir);
	return DC_EXIT_OK;
}

static void
show_json(dc_cli_t *cli, const dc_doclink_t *l, const dc_doc_section_t *s,
	  const char *html)
{
	dc_sp_t *sp = dc_cli_sprinter(cli);

	dc_describe_doc_section(sp, l, s, html);
	dc_cli_sprint(cli, sp);
}

static int
show(dc_cli_t *cli, const char *name, const char *html_dir, int json)
{
	const dc_doclink_t *l = dc_doclink_find(name);
	dc_doc_section_t s = { 0 };
	dc_error_t err = { 0 };
	char *dir, *html = NULL;
	int i, n;

	if (!l) {
		fprintf(cli->err, "decorum doc: no documentation named '%s'; "
				  "one of:",
			name);
		l = dc_doclinks(&n);
		for (i = 0; i < n; i++)
			fprintf(cli->err, " %s", l[i].name);
		fprintf(cli->err, "\nusage: decorum doc %s\n", cmd_doc.args);
		return DC_EXIT_USAGE;
	}
	/* Only the guide ships its source; for the others the link is all
	 * decorum has. */
	if (dc_doc_section_load(l, &s, &err) != DC_OK && l->installed)
		return dc_cli_fail(cli, &err);
	if ((dir = dc_doc_html_dir(html_dir)))
		html = dc_doc_html_file(l, dir);
	g_free(dir);
	if (json) {
		show_json(cli, l, &s, html);
	} else {
		fprintf(cli->out, "%s\n\n", s.title ? s.title : l->title);
		if (s.text)
			fprintf(cli->out, "%s\n", s.text);
		fprintf(cli->out, "Online: %s\n", l->url);
		if (html)
			fprintf(cli->out, "Local:  %s#%s\n", html, l->anchor);
	}
	g_free(html);
	dc_doc_section_clear(&s);
	return DC_EXIT_OK;
}

static int
run(dc_cli_t *cli, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "list", no_argument, NULL, 'l' },
		{ "check", required_argument, NULL, 'c' },
		{ "html", required_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *check_dir = NULL, *html = NULL;
	int c, json = 0, do_list = 0;

	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		if (c == 'j')
			json = 1;
		else if (c == 'l')
			do_list = 1;
		else if (c == 'c')
			check_dir = optarg;
		else if (c == 'h')
			html = optarg;
		else
			return dc_cli_usage(cli, &cmd_doc, "bad option");
	}
	if (check_dir) {
		if (optind != argc || do_list)
			return dc_cli_usage(cli, &cmd_doc,
					    "--check takes only a directory");
		return check(cli, check_dir);
	}
	if (do_list) {
		if (optind != argc)
			return dc_cli_usage(cli, &cmd_doc,
					    "--list takes no kind");
		return list(cli, json);
	}
	if (optind + 1 != argc)
		return dc_cli_usage(cli, &cmd_doc, "which kind?");
	return show(cli, argv[optind], html, json);
}
