// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The sync's state as the front ends show it (core/sync/sync.h): the last
 * sync and what waits to be pushed, from the store alone.
 */
#include "core/base/config.h"
#include "core/sync/sync.h"

char *
dc_sync_key_path(void)
{
	char *v = dc_config_value(NULL, "sync", "key");

	if (v && v[0] == '~' && v[1] == '/') {
		char *r = g_build_filename(g_get_home_dir(), v + 2, NULL);

		g_free(v);
		return r;
	}
	return v ? v
		 : g_build_filename(g_get_home_dir(), ".ssh", "id_ed25519",
				    NULL);
}

dc_status_t
dc_sync_status(dc_store_t *s, dc_sync_status_t *out, dc_error_t *err)
{
	GPtrArray *all = NULL;
	dc_status_t st;
	guint i;

	*out = (dc_sync_status_t){ 0 };
	if (!s)
		return DC_OK;
	st = dc_store_remote_list(s, &all, err);
	if (st != DC_OK)
		return st;
	out->remotes = (int)all->len;
	for (i = 0; i < all->len; i++) {
		const dc_store_remote_t *r = all->pdata[i];

		if (r->last_sync > out->last_sync)
			out->last_sync = r->last_sync;
	}
	g_ptr_array_unref(all);
	/* Without a remote nothing waits: the count is not asked for. */
	if (out->remotes)
		st = dc_store_events_unshared_count(s, &out->waiting, err);
	return st;
}
