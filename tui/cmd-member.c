// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * decorum member add|leave|list|whoami: committee, TAB and maintainer
 * membership with the dates that bound what each member may see.
 */
#include <getopt.h>
#include <string.h>

#include "core/base/clock.h"
#include "core/case/access.h"
#include "core/export/describe.h"
#include "core/case/release.h"
#include "core/base/sanitize.h"
#include "tui/cli.h"

static int run(dc_cli_t *cli, int argc, char **argv);

const dc_cmd_t cmd_member = {
	.name = "member",
	.args = "add ADDRESS [--name N] [--role committee|tab|maintainer] "
		"[--joined DATE] [--key SSH-PUBKEY] | leave ADDRESS [--left DATE] | list | "
		"whoami [--json]",
	.summary = "committee and TAB membership and access windows",
	.run = run,
};

static int64_t
now(void)
{
	return dc_now();
}

static int
list(dc_cli_t *cli, dc_store_t *s, int json)
{
	GPtrArray *all = NULL;
	dc_error_t err = { 0 };
	guint i;

	if (dc_member_list(s, &all, &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	if (json) {
		dc_sp_t *sp = dc_cli_sprinter(cli);

		dc_sp_list(sp);
		for (i = 0; i < all->len; i++)
			dc_describe_member(sp, all->pdata[i]);
		dc_sp_end(sp);
		dc_cli_sprint(cli, sp);
	} else {
		for (i = 0; i < all->len; i++) {
			const dc_store_member_t *m = all->pdata[i];
			char a[32], b[32], *n = dc_sanitize_line(m->name),
					   *ad = dc_sanitize_line(m->address);

			dc_cli_date(m->joined, a);
			if (m->left)
				dc_cli_date(m->left, b);
			else
				g_strlcpy(b, "-", sizeof(b));
			fprintf(cli->out, "%-32s %-10s %s .. %s  %s\n", ad,
				m->role, a, b, n);
			g_free(n);
			g_free(ad);
		}
	}
	g_ptr_array_unref(all);
	return DC_EXIT_OK;
}

static int
whoami(dc_cli_t *cli, dc_store_t *s, int json)
{
	const char *who = dc_cli_identity(cli);
	dc_access_t *a = NULL;
	dc_error_t err = { 0 };
	const char *why = "no store yet: every case (there are none)";

	if (s && dc_access_load(s, &a, &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	if (a)
		why = dc_access_describe(a);
	if (json) {
		dc_sp_t *sp = dc_cli_sprinter(cli);

		dc_describe_identity(sp, who, why);
		dc_cli_sprint(cli, sp);
	} else {
		fprintf(cli->out, "%s\n%s\n", who ? who : "(unidentified)",
			why);
	}
	dc_access_free(a);
	return DC_EXIT_OK;
}

static int
parse_date(dc_cli_t *cli, const char *s, int64_t *t)
{
	dc_error_t err = { 0 };
	dc_release_t r;

	if (dc_when_parse(s, t, &r, &err) != DC_OK)
		return dc_cli_usage(cli, &cmd_member, "%s", err.msg);
	return 0;
}

static int
run(dc_cli_t *cli, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "name", required_argument, NULL, 'n' },
		{ "role", required_argument, NULL, 'r' },
		{ "joined", required_argument, NULL, 'J' },
		{ "left", required_argument, NULL, 'L' },
		{ "key", required_argument, NULL, 'k' },
		{ NULL, 0, NULL, 0 },
	};
	const char *name = NULL, *role = NULL, *joined = NULL, *left = NULL;
	const char *key = NULL;
	dc_error_t err = { 0 };
	dc_store_t *s = NULL;
	int64_t tj = 0, tl = 0;
	int c, json = 0, rc, nargs;
	const char *sub;
	char **args;
	dc_status_t st;

	if (argc < 2)
		return dc_cli_usage(cli, &cmd_member, "which subcommand?");
	sub = argv[1];
	argc--;
	argv++;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'j': json = 1; break;
		case 'n': name = optarg; break;
		case 'r': role = optarg; break;
		case 'J': joined = optarg; break;
		case 'L': left = optarg; break;
		case 'k': key = optarg; break;
		default:
			return dc_cli_usage(cli, &cmd_member, "bad option");
		}
	}
	nargs = argc - optind;
	args = argv + optind;
	if (!strcmp(sub, "list") || !strcmp(sub, "whoami")) {
		if (nargs)
			return dc_cli_usage(cli, &cmd_member,
					    "no arguments expected");
		if (dc_cli_store(cli, DC_OPEN_READ, &s, &err) != DC_OK)
			return dc_cli_fail(cli, &err);
		rc = !strcmp(sub, "list") ? list(cli, s, json)
					  : whoami(cli, s, json);
		dc_close_store(s);
		return rc;
	}
	if (strcmp(sub, "add") && strcmp(sub, "leave"))
		return dc_cli_usage(cli, &cmd_member,
				    "unknown subcommand '%s'", sub);
	if (nargs != 1)
		return dc_cli_usage(cli, &cmd_member, "need one ADDRESS");
	if (joined && (rc = parse_date(cli, joined, &tj)))
		return rc;
	if (left && (rc = parse_date(cli, left, &tl)))
		return rc;
	if (role && dc_member_role_check(role, &err) != DC_OK)
		return dc_cli_usage(cli, &cmd_member, "%s", err.msg);
	if (dc_cli_store(cli, DC_OPEN_WRITE, &s, &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	if (!strcmp(sub, "add"))
		st = dc_member_add_key(s, args[0], name, role, tj, key,
				       dc_cli_actor(cli, NULL), now(), &err);
	else
		st = dc_member_leave(s, args[0], left ? tl : now(),
				     dc_cli_actor(cli, NULL), now(), &err);
	if (st == DC_OK && json) {
		dc_sp_t *sp = dc_cli_sprinter(cli);

		dc_describe_member_change(sp, args[0], sub);
		dc_cli_sprint(cli, sp);
	} else if (st == DC_OK)
		fprintf(cli->out, "member %s: %s\n", args[0],
			!strcmp(sub, "add") ? "recorded" : "left");
	dc_close_store(s);
	return st == DC_OK ? DC_EXIT_OK : dc_cli_fail(cli, &err);
}
