/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Running the user's own git and age: argv arrays, never a shell, with
 * what they read on stdin and what they write on stdout kept in memory,
 * so that no plaintext and no secret key reaches a file.
 */
#ifndef DC_SYNC_PROC_H
#define DC_SYNC_PROC_H

#include <glib.h>

#include "core/base/status.h"

typedef struct dc_proc {
	/* In. */
	const char *const *argv; /* argv[0] is looked up in $PATH */
	const char *const *env;  /* "K=V" added to ours; may be NULL */
	const char *in;          /* stdin; NULL: nothing */
	gssize in_len;           /* < 0: strlen(in) */
	const char *fd3;         /* readable by the program as /dev/fd/3
				  * (a secret key); NULL: none */
	int may_fail;            /* a non-zero exit is not an error */
	const char *what;        /* how a failure names it ("git fetch");
				  * NULL: argv[0] and argv[1] */
	/* Out (dc_proc_clear frees them). */
	char *out;               /* stdout, NUL-terminated */
	gsize out_len;
	char *errs;              /* stderr, made valid UTF-8 */
	int status;              /* exit status */
} dc_proc_t;

/* A failure to start, or a non-zero exit unless may_fail, is DC_E_IO
 * naming the program with its first stderr line. */
dc_status_t dc_proc_run(dc_proc_t *p, dc_error_t *err);
void dc_proc_clear(dc_proc_t *p);

#endif
