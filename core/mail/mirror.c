// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The notmuch tag mirror (see core/mail/mirror.h): which coc/ tags the
 * store wants on a thread or a message, and the outbox that queues a
 * case for them.  Writing them to notmuch is core/mail/mirror-write.c.
 */
#include <string.h>

#include "core/mail/mirror.h"

#define PREFIX DC_MIRROR_PREFIX

static int
cmp_str(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

dc_status_t
dc_mirror_wanted(dc_store_t *s, const char *thread_id, GPtrArray **out,
		 dc_error_t *err)
{
	GPtrArray *tags = g_ptr_array_new_with_free_func(g_free);
	dc_store_case_t *newest = NULL;
	GArray *ids = NULL;
	dc_status_t st;
	guint i;

	*out = NULL;
	st = dc_store_thread_cases(s, thread_id, &ids, err);
	if (st == DC_OK && ids->len) {
		g_ptr_array_add(tags, g_strdup(PREFIX "case"));
		for (i = 0; i < ids->len; i++)
			g_ptr_array_add(tags, g_strdup_printf(
				PREFIX "case-%" G_GINT64_FORMAT,
				(gint64)g_array_index(ids, int64_t, i)));
		st = dc_store_case_get(
		    s, g_array_index(ids, int64_t, ids->len - 1), &newest,
		    err);
	}
	if (st == DC_OK && newest) {
		g_ptr_array_add(tags, g_strdup_printf(PREFIX "%s",
						      newest->kind));
		g_ptr_array_add(tags, g_strdup_printf(PREFIX "state-%s",
						      newest->state));
	}
	dc_store_case_free(newest);
	if (ids)
		g_array_unref(ids);
	if (st != DC_OK) {
		g_ptr_array_unref(tags);
		return st;
	}
	g_ptr_array_sort(tags, cmp_str);
	*out = tags;
	return DC_OK;
}

/* The outbox names the case, not its threads: which threads those are is
 * decided at flush time, after the thread cache is brought up to date. */
dc_status_t
dc_mirror_queue_case(dc_store_t *s, int64_t case_id, int64_t now,
		     dc_error_t *err)
{
	return dc_store_outbox_add(s, case_id, NULL, now, err);
}

dc_status_t
dc_mirror_pending(dc_store_t *s, int *count, dc_error_t *err)
{
	return dc_store_outbox_count(s, count, err);
}

dc_status_t
dc_mirror_message_wanted(dc_store_t *s, GPtrArray *thread_wanted,
			 GPtrArray *singles, const char *message_id,
			 GPtrArray **out, dc_error_t *err)
{
	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	dc_store_case_t *newest = NULL;
	int64_t newest_id = 0;
	dc_status_t st = DC_OK;
	guint i;

	for (i = 0; i < thread_wanted->len; i++)
		g_ptr_array_add(w, g_strdup(thread_wanted->pdata[i]));
	for (i = 0; singles && i < singles->len; i++) {
		dc_store_mail_t *m = singles->pdata[i];
		char *t;

		if (strcmp(m->message_id, message_id))
			continue;
		t = g_strdup_printf(PREFIX "case-%" G_GINT64_FORMAT,
				    (gint64)m->case_id);
		if (dc_str_array_has(w, t))
			g_free(t);
		else
			g_ptr_array_add(w, t);
		if (!dc_str_array_has(w, PREFIX "case"))
			g_ptr_array_add(w, g_strdup(PREFIX "case"));
		newest_id = MAX(newest_id, m->case_id);
	}
	/* Without a case of the whole thread, the message's own case gives
	 * kind and state. */
	if (newest_id && !dc_str_array_has(thread_wanted, PREFIX "case"))
		st = dc_store_case_get(s, newest_id, &newest, err);
	if (newest) {
		g_ptr_array_add(w, g_strdup_printf(PREFIX "%s", newest->kind));
		g_ptr_array_add(w, g_strdup_printf(PREFIX "state-%s",
						   newest->state));
		dc_store_case_free(newest);
	}
	if (st != DC_OK) {
		g_ptr_array_unref(w);
		return st;
	}
	g_ptr_array_sort(w, cmp_str);
	*out = w;
	return DC_OK;
}
