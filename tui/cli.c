// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * What every subcommand shares: the command table, error reporting, and
 * opening the notmuch database and the case store per the global options.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/config.h"
#include "core/case/access.h"
#include "core/mail/html.h"
#include "core/mail/mirror.h"
#include "tui/cli.h"

const dc_cmd_t *const dc_commands[] = {
	&cmd_list,
	&cmd_show,
	&cmd_tag,
	&cmd_cases,
	&cmd_case,
	&cmd_member,
	&cmd_remote,
	&cmd_sync,
	&cmd_verify,
	&cmd_fsck,
	&cmd_doc,
	&cmd_tui,
	&cmd_report,
	&cmd_packet,
	&cmd_erase,
	&cmd_upgrade,
	NULL,
};

int
dc_cli_fail(dc_cli_t *cli, const dc_error_t *err)
{
	fprintf(cli->err, "decorum: %s\n",
		err->msg[0] ? err->msg : dc_status_name(err->status));
	return dc_status_exit_code(err->status);
}

int
dc_cli_usage(dc_cli_t *cli, const dc_cmd_t *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(cli->err, "decorum %s: ", cmd->name);
	va_start(ap, fmt);
	vfprintf(cli->err, fmt, ap);
	va_end(ap);
	fprintf(cli->err, "\nusage: decorum %s %s\n", cmd->name, cmd->args);
	return DC_EXIT_USAGE;
}

/* A flush that failed for another reason than notmuch's lock. */
static void
say_not_updated(dc_cli_t *cli, const dc_error_t *err, int queued)
{
	fprintf(cli->err,
		"decorum: the notmuch tags were not updated (%s); %d "
		"change%s queued\n",
		err->msg, queued, queued == 1 ? "" : "s");
}

/* [mime] html of decorum's configuration, as the TUI reads it. */
static const char *
cli_html_filter(void)
{
	static char *filter;
	static int read;

	if (!read) {
		char *v = dc_config_value(NULL, "mime", "html");

		filter = dc_html_filter_choose(v);
		g_free(v);
		read = 1;
	}
	return filter;
}

dc_status_t
dc_cli_open_mail(dc_cli_t *cli, dc_store_t *store, int writable,
		 dc_mail_t **out, dc_error_t *err)
{
	dc_mail_opts_t o = {
		.config_path = cli->config_path,
		.db_path = cli->db_path,
		.profile = cli->profile,
		.writable = writable,
		.html_filter = cli_html_filter(),
	};
	dc_error_t ferr = { 0 };
	dc_status_t st;
	int queued = 0;

	st = dc_mirror_open_mail(store, &o, out, &queued, &ferr, err);
	if (ferr.status != DC_OK)
		say_not_updated(cli, &ferr, queued);
	return st;
}

const char *
dc_cli_identity(dc_cli_t *cli)
{
	static char *from_config;
	static int read;
	const char *v;

	if (cli->as && *cli->as)
		return cli->as;
	v = getenv("DECORUM_AS");
	if (v && *v)
		return v;
	if (!read) {
		from_config = dc_identity_from_config(NULL);
		if (!from_config) {
			dc_mail_opts_t o;

			dc_cli_mail_opts(cli, &o);
			from_config = dc_mail_config_email(&o);
		}
		read = 1;
	}
	return from_config;
}

/* The viewer decides what core lets the store show (core/case/access.h). */
dc_status_t
dc_cli_store(dc_cli_t *cli, int how, dc_store_t **out, dc_error_t *err)
{
	return dc_open_store(cli->store_path, dc_cli_identity(cli), how, out,
			     err);
}

void
dc_cli_mail_opts(dc_cli_t *cli, dc_mail_opts_t *o)
{
	memset(o, 0, sizeof(*o));
	o->config_path = cli->config_path;
	o->db_path = cli->db_path;
	o->profile = cli->profile;
}

int
dc_cli_flush_mirror(dc_cli_t *cli, dc_store_t *s)
{
	dc_mail_opts_t o;
	dc_error_t err = { 0 };
	int pending = 0;
	dc_status_t st;

	dc_cli_mail_opts(cli, &o);
	st = dc_mirror_flush(s, &o, NULL, &err);
	if (st == DC_OK)
		return 0;
	dc_mirror_pending(s, &pending, NULL);
	if (st == DC_E_LOCKED)
		fprintf(cli->err,
			"decorum: notmuch is locked; %d tag change%s queued, "
			"applied by the next decorum command (or decorum "
			"fsck --repair)\n",
			pending, pending == 1 ? "" : "s");
	else
		say_not_updated(cli, &err, pending);
	return pending;
}

const char *
dc_cli_actor(dc_cli_t *cli, dc_mail_t *mail)
{
	const char *v;

	if (cli->as && *cli->as)
		return cli->as;
	v = dc_cli_identity(cli);
	if (v && *v)
		return v;
	v = mail ? dc_mail_user_email(mail) : NULL;
	if (v && *v)
		return v;
	v = g_get_user_name();
	return v ? v : "unknown";
}

int
dc_cli_case_number(const char *s, int64_t *out)
{
	char *end = NULL;
	long long v;

	if (s && *s == '#')
		s++;
	if (!s || !g_ascii_isdigit(*s))
		return 0;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno == ERANGE || *end || v <= 0)
		return 0;
	*out = v;
	return 1;
}

void
dc_cli_date(time_t t, char buf[static 32])
{
	struct tm tm;

	if (!localtime_r(&t, &tm) ||
	    !strftime(buf, 32, "%Y-%m-%d %H:%M", &tm))
		snprintf(buf, 32, "?");
}

dc_sp_t *
dc_cli_sprinter(dc_cli_t *cli)
{
	return dc_sp_json_new(1);
}

void
dc_cli_sprint(dc_cli_t *cli, dc_sp_t *sp)
{
	char *text = dc_sp_finish(sp);

	fputs(text, cli->out);
	g_free(text);
}
