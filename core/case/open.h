/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Opening the case store for someone: the one way every front end does
 * it, so that what a command may do to the file (create it, upgrade its
 * schema, or only read it) and whose eyes core/case/access.c judges by are
 * decided in one place.
 */
#ifndef DC_OPEN_H
#define DC_OPEN_H

#include "core/base/status.h"
#include "store/store.h"

enum {
	/* Only read: a missing store is no store (*out NULL, DC_OK), and an
	 * older schema is refused, the file left byte for byte as it is. */
	DC_OPEN_READ = 0,
	/* Make the store when there is none (commands that record). */
	DC_OPEN_CREATE = 1 << 0,
	/* Bring an older schema up to date, keeping a copy of the file as
	 * it was (PATH.schemaN). */
	DC_OPEN_UPGRADE = 1 << 1,
	/* A person waits at a screen: give up on another process's lock
	 * after a moment, not after seconds. */
	DC_OPEN_INTERACTIVE = 1 << 2,
	/* Commands that record something. */
	DC_OPEN_WRITE = DC_OPEN_CREATE | DC_OPEN_UPGRADE,
};

/*
 * Open the store at path (NULL: the default, see dc_store_open) as viewer
 * (an address; NULL when unidentified), as how says.  Without
 * DC_OPEN_CREATE a missing store gives *out == NULL and DC_OK.
 */
dc_status_t dc_open_store(const char *path, const char *viewer, int how,
			  dc_store_t **out, dc_error_t *err);
void dc_close_store(dc_store_t *s);

/* Which file was opened and what the open did to its schema. */
typedef struct dc_open_info {
	const char *path;  /* as given (valid while the store is open) */
	int migrated_from; /* the schema it found and upgraded; 0: none */
	int schema;        /* its schema version now */
} dc_open_info_t;

void dc_open_info(dc_store_t *s, dc_open_info_t *out);

#endif
