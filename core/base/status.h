/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Status codes returned by every core and store function.
 *
 * Below main() nothing prints or exits: a function returns a dc_status_t and,
 * when it fails, fills a dc_error_t with a message meant for the user.  The
 * front end decides what is fatal and maps the code to an exit status.
 */
#ifndef DC_STATUS_H
#define DC_STATUS_H

#include <stdarg.h>

typedef enum {
	DC_OK = 0,
	DC_E_USAGE,     /* the caller passed something invalid */
	DC_E_NOT_FOUND, /* no such thread, case, member, file */
	DC_E_DATA,      /* bad or inconsistent data (mail, database) */
	DC_E_IO,        /* the system said no: disk full, permission, ... */
	DC_E_LOCKED,    /* a database is locked by someone else; retry later */
	DC_E_DENIED,    /* an access rule refused the operation */
	DC_E_INVALID,   /* a valid request that the current state forbids */
	DC_E_NOMEM,
} dc_status_t;

typedef struct dc_error {
	dc_status_t status;
	char msg[1024];
} dc_error_t;

/* Record a failure in err (which may be NULL) and return st. */
dc_status_t dc_fail(dc_error_t *err, dc_status_t st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prefix an existing message: "opening store: <old message>". */
dc_status_t dc_fail_prefix(dc_error_t *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void dc_error_clear(dc_error_t *err);
const char *dc_status_name(dc_status_t st);

/*
 * The documented exit statuses of the decorum command (see decorum(1)).
 */
enum {
	DC_EXIT_OK = 0,
	DC_EXIT_NOT_FOUND = 1,
	DC_EXIT_USAGE = 2,
	DC_EXIT_DATA = 3,   /* data or I/O error */
	DC_EXIT_DENIED = 4, /* access rule or refused export */
	DC_EXIT_LOCKED = 5, /* database busy; nothing was changed */
};

int dc_status_exit_code(dc_status_t st);

#endif
