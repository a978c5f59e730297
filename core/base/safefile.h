/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Writing exports safely.  What decorum writes holds reports about people,
 * so files are created 0600 and directories 0700 whatever the umask; an
 * existing path or a symlink at the target is refused, never followed or
 * overwritten; and a directory appears whole or not at all: it is written
 * beside the target under a temporary name, synced, then renamed with
 * RENAME_NOREPLACE.
 */
#ifndef DC_SAFEFILE_H
#define DC_SAFEFILE_H

#include <stddef.h>

#include "core/base/status.h"

/* Create path (which must not exist) holding len bytes, 0600, synced. */
dc_status_t dc_file_create(const char *path, const char *data, size_t len,
			   dc_error_t *err);

/* Refuse an existing target (a symlink included), then make a 0700
 * directory beside it: "<dir>/.<name>.XXXXXX" (*tmp, g_free). */
dc_status_t dc_dir_begin(const char *target, char **tmp, dc_error_t *err);
/* Sync tmp, rename it to target without ever replacing anything, and sync
 * the parent directory. */
dc_status_t dc_dir_commit(const char *tmp, const char *target,
			  dc_error_t *err);
/* Remove tmp and the files in it (no subdirectories are made). */
void dc_dir_abort(const char *tmp);

/* len bytes of data in an anonymous file (memfd_create) at offset 0,
 * for a child's standard input or an error output read back; -1 on
 * failure. */
int dc_memfd(const char *name, const char *data, size_t len);

#endif
