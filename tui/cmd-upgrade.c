// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * decorum upgrade: bring a store written by an older decorum up to date
 * (core/case/open.h, core/case/action.h).  Commands that only read refuse an older
 * store and name this one; commands that record upgrade it themselves.
 */
#include "core/case/action.h"
#include "core/base/clock.h"
#include "tui/cli.h"

static int run(dc_cli_t *cli, int argc, char **argv);

const dc_cmd_t cmd_upgrade = {
	.name = "upgrade",
	.args = "",
	.summary = "bring a store written by an older decorum up to date",
	.run = run,
};

/* Before notmuch is asked: the schema is done even if notmuch fails. */
static void
say_schema(dc_cli_t *cli, dc_store_t *s)
{
	dc_open_info_t o;

	dc_open_info(s, &o);
	if (!o.migrated_from)
		fprintf(cli->out, "%s: schema %d, up to date\n", o.path,
			o.schema);
	else
		fprintf(cli->out,
			"%s: schema %d upgraded to %d; the file as it was is "
			"%s.schema%d\n",
			o.path, o.migrated_from, o.schema, o.path,
			o.migrated_from);
}

static void
say_anchors(dc_cli_t *cli, const dc_upgrade_result_t *r)
{
	if (r->anchored)
		fprintf(cli->out,
			"%d thread%s of older cases now named by Message-ID "
			"(\"anchored\" in case show)\n",
			r->anchored, r->anchored == 1 ? "" : "s");
	if (r->unresolved)
		fprintf(cli->out,
			"%d thread%s of older cases left as they were: this "
			"notmuch index has no such thread, or another thread "
			"has its number now (or the store was busy); decorum "
			"upgrade with the index they were opened on resolves "
			"them\n",
			r->unresolved, r->unresolved == 1 ? "" : "s");
}

static int
run(dc_cli_t *cli, int argc, char **argv)
{
	dc_upgrade_result_t r = { 0 };
	dc_error_t err = { 0 };
	dc_store_t *s = NULL;
	dc_mail_t *mail = NULL;
	dc_status_t st;

	if (argc > 1)
		return dc_cli_usage(cli, &cmd_upgrade, "no arguments expected");
	if (dc_cli_store(cli, DC_OPEN_UPGRADE, &s, &err) != DC_OK)
		return dc_cli_fail(cli, &err);
	if (!s) {
		fprintf(cli->err, "decorum: there is no case store to "
				  "upgrade\n");
		return DC_EXIT_NOT_FOUND;
	}
	say_schema(cli, s);
	/* The schema is done; older cases' threads need notmuch. */
	st = dc_cli_open_mail(cli, s, 0, &mail, &err);
	if (st == DC_OK)
		st = dc_action_upgrade(s, mail, dc_cli_actor(cli, mail),
				       dc_now(), &r, &err);
	if (st == DC_OK)
		say_anchors(cli, &r);
	dc_mail_close(mail);
	dc_close_store(s);
	return st == DC_OK ? DC_EXIT_OK : dc_cli_fail(cli, &err);
}
