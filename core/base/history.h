/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The queries of the TUI's / prompt, kept between sessions in
 * $XDG_STATE_HOME/decorum/history (~/.local/state/decorum/history): one
 * query a line, oldest first, the file 0600 in a 0700 directory whatever
 * the umask, since a query may name a person.  "decorum erase --reporter"
 * drops the queries that name the address.
 */
#ifndef DC_HISTORY_H
#define DC_HISTORY_H

#include <glib.h>

#include "core/base/status.h"

/* At most this many queries are kept, the newest. */
#define DC_HISTORY_KEEP 200

/* The file's path (g_free). */
char *dc_history_path(void);
/*
 * The queries in path (char *, g_free), oldest first: none when there is
 * no file.  A line that is not UTF-8 or holds a control character is not
 * a query decorum wrote, and is skipped.  A symbolic link is refused.
 */
dc_status_t dc_history_load(const char *path, GPtrArray **out,
			    dc_error_t *err);
/* Replace the file by the newest DC_HISTORY_KEEP queries, atomically,
 * making its directory when it is missing. */
dc_status_t dc_history_save(const char *path, GPtrArray *queries,
			    dc_error_t *err);
/* Drop every query that holds needle (case-folded); *dropped counts them
 * (may be NULL).  No file: nothing to drop. */
dc_status_t dc_history_forget(const char *path, const char *needle,
			      int *dropped, dc_error_t *err);

#endif
