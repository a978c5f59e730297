// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Opening the case store for someone (core/case/open.h).
 */
#include <glib.h>

#include "core/case/open.h"

#define INTERACTIVE_WAIT_MS 250

dc_status_t
dc_open_store(const char *path, const char *viewer, int how,
	      dc_store_t **out, dc_error_t *err)
{
	int flags = 0;
	dc_status_t st;

	if (how & DC_OPEN_CREATE)
		flags |= DC_STORE_CREATE;
	if (how & DC_OPEN_UPGRADE)
		flags |= DC_STORE_MIGRATE;
	st = dc_store_open_flags(path, flags, out, err);
	if (st == DC_E_NOT_FOUND && !(how & DC_OPEN_CREATE)) {
		dc_error_clear(err);
		*out = NULL;
		return DC_OK;
	}
	/* An older schema, met by a command that only reads. */
	if (st == DC_E_INVALID && err)
		g_strlcat(err->msg,
			  "; left as it is: `decorum upgrade` brings it up to "
			  "date and keeps a copy of the file as it was",
			  sizeof(err->msg));
	if (st != DC_OK)
		return st;
	dc_store_set_viewer(*out, viewer);
	if (how & DC_OPEN_INTERACTIVE)
		dc_store_set_busy_timeout(*out, INTERACTIVE_WAIT_MS);
	return DC_OK;
}

void
dc_close_store(dc_store_t *s)
{
	dc_store_close(s);
}

void
dc_open_info(dc_store_t *s, dc_open_info_t *out)
{
	out->path = dc_store_path(s);
	out->migrated_from = dc_store_migrated_from(s);
	out->schema = dc_store_schema_version(s);
}
