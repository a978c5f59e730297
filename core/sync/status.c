// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The sync's state as the front ends show it (core/sync/sync.h): the last
 * sync and what waits to be pushed, from the store alone.
 */
#include "core/base/config.h"
#include "core/sync/sync.h"

dc_status_t
dc_sync_key_path(char **out, dc_error_t *err)
{
	dc_config_t *cfg = dc_config_load(NULL);
	const char *raw = dc_config_get(cfg, "sync", "key");
	char *v = raw ? g_strstrip(g_strdup(raw)) : NULL;
	const char *why = NULL;
	dc_status_t st = DC_OK;

	*out = NULL;
	if (!v || !*v)
		*out = g_build_filename(g_get_home_dir(), ".ssh", "id_ed25519",
					NULL);
	else if (v[0] == '~' && v[1] == '/')
		*out = g_build_filename(g_get_home_dir(), v + 2, NULL);
	else if (v[0] == '~')
		why = "only ~/ is expanded; name the file from ~/ or /";
	else if (!g_path_is_absolute(v))
		why = "not an absolute path (or one from ~/)";
	else
		*out = g_strdup(v);
	if (*out && v && *v) {
		if (g_str_has_suffix(*out, ".pub"))
			why = "that is the public half; name the private key "
			      "(the file without .pub)";
		else if (!g_file_test(*out, G_FILE_TEST_IS_REGULAR))
			why = "no such file";
	}
	if (why) {
		st = dc_fail(err, DC_E_USAGE, "%s:%d: [sync] key = %s: %s",
			     dc_config_path(cfg),
			     dc_config_line(cfg, "sync", "key"), v, why);
		g_clear_pointer(out, g_free);
	}
	g_free(v);
	dc_config_free(cfg);
	return st;
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
	/* What waits: the events no envelope carries yet, and the envelopes
	 * written but not yet taken by a push (a push that failed, a sync
	 * killed before it pushed), for the remote furthest behind. */
	for (i = 0; st == DC_OK && i < all->len; i++) {
		const dc_store_remote_t *r = all->pdata[i];
		int64_t n = 0;

		if (r->last_sync > out->last_sync)
			out->last_sync = r->last_sync;
		st = dc_store_envelopes_unpushed_count(s, r->name, &n, err);
		if (n > out->waiting)
			out->waiting = n;
	}
	g_ptr_array_unref(all);
	if (st == DC_OK && out->remotes) {
		int64_t n = 0;

		st = dc_store_events_unshared_count(s, &n, err);
		out->waiting += n;
	}
	return st;
}
