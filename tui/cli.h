/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The command-line front end.  Each subcommand is one file (tui/cmd-*.c)
 * with one dc_cmd_t; tui/cli.c lists them once, and the usage text, the
 * dispatcher and the completion script come from that list.
 */
#ifndef DC_CLI_H
#define DC_CLI_H

#include <stdio.h>
#include <time.h>

#include "core/base/sprinter.h"
#include "core/mail/mail.h"
#include "core/base/status.h"
#include "core/case/open.h"

typedef struct dc_cli {
	/* Global options, given before the subcommand. */
	const char *config_path; /* --config FILE: notmuch config */
	const char *db_path;     /* --db PATH: bare notmuch database */
	const char *profile;     /* --profile NAME (like NOTMUCH_PROFILE) */
	const char *store_path;  /* --store FILE: decorum's case store */
	const char *as;          /* --as ADDRESS: acting identity */
	FILE *out;
	FILE *err;
} dc_cli_t;

typedef struct dc_cmd {
	const char *name;
	const char *args;    /* "[QUERY] [--limit N] [--json]" */
	const char *summary; /* one line for --help */
	/* argv[0] is the subcommand name; returns a DC_EXIT_* code. */
	int (*run)(dc_cli_t *cli, int argc, char **argv);
} dc_cmd_t;

/* Each defined in its own tui/cmd-NAME.c. */
extern const dc_cmd_t cmd_report, cmd_packet, cmd_erase;
extern const dc_cmd_t cmd_list, cmd_show, cmd_tag, cmd_cases, cmd_tui;
extern const dc_cmd_t cmd_remote, cmd_sync;
extern const dc_cmd_t cmd_case, cmd_member, cmd_verify, cmd_fsck;
extern const dc_cmd_t cmd_doc, cmd_upgrade;

/* The subcommands, NULL-terminated, in the order --help shows them. */
extern const dc_cmd_t *const dc_commands[];

/* Print "decorum: <message>" for a failed status and return its exit code. */
int dc_cli_fail(dc_cli_t *cli, const dc_error_t *err);
/* Print a usage error for cmd ("decorum list: <why>", then its usage). */
int dc_cli_usage(dc_cli_t *cli, const dc_cmd_t *cmd, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Open the notmuch database read-only (or read-write) per the options.
 * With the command's store (may be NULL) its queued tag changes are
 * applied first when notmuch is free (dc_mirror_open_mail); a flush that
 * fails for another reason than a lock is said on stderr, once.
 */
dc_status_t dc_cli_open_mail(dc_cli_t *cli, dc_store_t *store, int writable,
			     dc_mail_t **out, dc_error_t *err);
/*
 * Open the case store named by --store (or the default) as the command's
 * viewer, how the command needs it (DC_OPEN_* of core/case/open.h): commands
 * that only read pass DC_OPEN_READ, so they neither create a store nor
 * upgrade one.  Without DC_OPEN_CREATE, *out is NULL when there is none.
 */
dc_status_t dc_cli_store(dc_cli_t *cli, int how, dc_store_t **out,
			 dc_error_t *err);
/* A case number ("12" or "#12", 1 up to INT64_MAX): 1, else 0. */
int dc_cli_case_number(const char *s, int64_t *out);
/* "2026-11-03 14:05" in local time. */
void dc_cli_date(time_t t, char buf[static 32]);
/* A command's --json output: a structured printer (core/base/sprinter.h)
 * to describe it through, then dc_cli_sprint() to finish it and write it
 * to the command's output. */
dc_sp_t *dc_cli_sprinter(dc_cli_t *cli);
void dc_cli_sprint(dc_cli_t *cli, dc_sp_t *sp);

/* The acting identity: --as, else $DECORUM_AS, else [identity] address
 * in decorum's config, else notmuch's user primary_email, else $USER. */
const char *dc_cli_actor(dc_cli_t *cli, dc_mail_t *mail);
/* Who is looking, for the access rules (core/case/access.h): --as, else
 * $DECORUM_AS, else [identity] address, else notmuch's
 * user.primary_email; NULL when none is given.  dc_cli_store() sets it
 * on the store. */
const char *dc_cli_identity(dc_cli_t *cli);
void dc_cli_mail_opts(dc_cli_t *cli, dc_mail_opts_t *o);
/* Apply the queued notmuch tag changes; never fails the command: when
 * notmuch is locked or unreachable it says so on stderr and the changes
 * stay queued.  Returns how many are still queued. */
int dc_cli_flush_mirror(dc_cli_t *cli, dc_store_t *s);

#endif
