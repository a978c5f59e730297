// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The notmuch side of the tag mirror (see core/mail/mirror.h): opening
 * notmuch read-write and writing each queued thread's wanted tags.  The
 * outbox rows only say which threads need their tags brought up to date;
 * a flush applies each thread's wanted tags as the store has them now, so
 * applying twice, or after a crash, or out of order, gives the same tags.
 */
#include <notmuch.h>
#include <string.h>

#include "core/mail/anchor.h"
#include "core/base/clock.h"
#include "core/mail/mirror.h"
#include "core/base/testhook.h"

#define PREFIX DC_MIRROR_PREFIX

/* Thread ids are hex; anything else must not reach a query string. */
static dc_status_t
thread_query(const char *thread_id, char **q, dc_error_t *err)
{
	if (!*thread_id ||
	    strspn(thread_id, "0123456789abcdef") != strlen(thread_id))
		return dc_fail(err, DC_E_DATA,
			       "'%s' is not a notmuch thread id", thread_id);
	*q = g_strdup_printf("thread:%s", thread_id);
	return DC_OK;
}

static notmuch_status_t
apply_message(notmuch_message_t *m, GPtrArray *wanted, int *changes)
{
	GPtrArray *have = g_ptr_array_new_with_free_func(g_free);
	notmuch_status_t st = notmuch_message_freeze(m);
	notmuch_tags_t *tags;
	guint i;

	for (tags = notmuch_message_get_tags(m);
	     notmuch_tags_valid(tags); notmuch_tags_move_to_next(tags))
		g_ptr_array_add(have, g_strdup(notmuch_tags_get(tags)));
	for (i = 0; st == NOTMUCH_STATUS_SUCCESS && i < have->len; i++) {
		const char *t = have->pdata[i];

		if (g_str_has_prefix(t, PREFIX) &&
		    !dc_str_array_has(wanted, t)) {
			st = notmuch_message_remove_tag(m, t);
			(*changes)++;
		}
	}
	for (i = 0; st == NOTMUCH_STATUS_SUCCESS && i < wanted->len; i++) {
		if (!dc_str_array_has(have, wanted->pdata[i])) {
			st = notmuch_message_add_tag(m, wanted->pdata[i]);
			(*changes)++;
		}
	}
	if (st == NOTMUCH_STATUS_SUCCESS)
		st = notmuch_message_thaw(m);
	g_ptr_array_unref(have);
	return st;
}

dc_status_t
dc_mirror_apply(dc_store_t *s, void *db, const char *thread_id, int *changes,
		dc_error_t *err)
{
	GPtrArray *wanted = NULL, *singles = NULL;
	notmuch_messages_t *msgs = NULL;
	notmuch_status_t nst = NOTMUCH_STATUS_SUCCESS;
	notmuch_query_t *q = NULL;
	char *qs = NULL;
	dc_status_t st = thread_query(thread_id, &qs, err);

	if (st == DC_OK)
		st = dc_mirror_wanted(s, thread_id, &wanted, err);
	if (st == DC_OK)
		st = dc_store_thread_single_mail(s, thread_id, &singles, err);
	if (st == DC_OK && !(q = notmuch_query_create(db, qs)))
		st = dc_fail(err, DC_E_NOMEM, "creating a notmuch query");
	g_free(qs);
	if (st == DC_OK) {
		notmuch_query_set_omit_excluded(q, NOTMUCH_EXCLUDE_FALSE);
		nst = notmuch_database_begin_atomic(db);
		if (nst == NOTMUCH_STATUS_SUCCESS)
			nst = notmuch_query_search_messages(q, &msgs);
	}
	for (; st == DC_OK && nst == NOTMUCH_STATUS_SUCCESS &&
	       notmuch_messages_valid(msgs);
	     notmuch_messages_move_to_next(msgs)) {
		notmuch_message_t *m = notmuch_messages_get(msgs);
		GPtrArray *w = wanted;

		if (singles->len)
			st = dc_mirror_message_wanted(
			    s, wanted, singles, notmuch_message_get_message_id(m),
			    &w, err);
		if (st == DC_OK)
			nst = apply_message(m, w, changes);
		if (w != wanted && st == DC_OK)
			g_ptr_array_unref(w);
		notmuch_message_destroy(m);
	}
	if (st == DC_OK && nst == NOTMUCH_STATUS_SUCCESS)
		nst = notmuch_database_end_atomic(db);
	if (q)
		notmuch_query_destroy(q);
	if (wanted)
		g_ptr_array_unref(wanted);
	if (singles)
		g_ptr_array_unref(singles);
	if (st == DC_OK && nst != NOTMUCH_STATUS_SUCCESS)
		return dc_notmuch_fail(err, nst, "writing notmuch tags", NULL);
	return st;
}

/* The threads the queued rows touch, as the cache has them now. */
static dc_status_t
queued_threads(dc_store_t *s, void *db, GPtrArray *rows, GPtrArray *threads,
	       dc_error_t *err)
{
	dc_status_t st = DC_OK;
	guint i, k;

	for (i = 0; st == DC_OK && i < rows->len; i++) {
		dc_store_outbox_t *o = rows->pdata[i];
		dc_store_case_t *c = NULL;

		if (o->message_id) {
			char *t = dc_anchor_thread_of(db, o->message_id);

			if (t && !dc_str_array_has(threads, t))
				g_ptr_array_add(threads, t);
			else
				g_free(t);
			continue;
		}
		st = dc_store_case_get(s, o->case_id, &c, err);
		if (st == DC_E_NOT_FOUND) { /* nothing left to tag */
			dc_error_clear(err);
			st = DC_OK;
			continue;
		}
		for (k = 0; st == DC_OK && k < c->mail->len; k++) {
			dc_store_mail_t *m = c->mail->pdata[k];

			if (m->thread_id &&
			    !dc_str_array_has(threads, m->thread_id))
				g_ptr_array_add(threads,
						g_strdup(m->thread_id));
		}
		dc_store_case_free(c);
	}
	return st;
}

dc_status_t
dc_mirror_flush_open(dc_store_t *s, void *db, int *changes, dc_error_t *err)
{
	GPtrArray *rows = NULL, *threads;
	dc_status_t st;
	int64_t last;
	guint i;

	st = dc_store_outbox_list(s, &rows, err);
	if (st != DC_OK)
		return st;
	if (rows->len == 0) {
		g_ptr_array_unref(rows);
		return DC_OK;
	}
	last = ((dc_store_outbox_t *)rows->pdata[rows->len - 1])->id;
	threads = g_ptr_array_new_with_free_func(g_free);
	st = queued_threads(s, db, rows, threads, err);
	for (i = 0; st == DC_OK && i < threads->len; i++)
		st = dc_mirror_apply(s, db, threads->pdata[i], changes, err);
	if (st == DC_OK)
		st = dc_store_outbox_done(s, last, err);
	g_ptr_array_unref(threads);
	g_ptr_array_unref(rows);
	return st;
}

dc_status_t
dc_mirror_flush(dc_store_t *s, const dc_mail_opts_t *mail_opts, int *applied,
		dc_error_t *err)
{
	void *db = NULL;
	int changes = 0, pending = 0;
	dc_status_t st;

	if (applied)
		*applied = 0;
	st = dc_store_outbox_count(s, &pending, err);
	if (st != DC_OK || pending == 0)
		return st;
	dc_test_crash_point("after-commit");
	st = dc_notmuch_open(mail_opts, 1, &db, err);
	/* While we hold notmuch's write lock nobody else moves mail: the
	 * cache brought up to date now stays right for the writes. */
	if (st == DC_OK)
		st = dc_anchor_sync(s, db, 1, NULL, dc_now(), err);
	if (st == DC_OK)
		st = dc_mirror_flush_open(s, db, &changes, err);
	dc_notmuch_close(db);
	if (applied)
		*applied = changes;
	return st;
}

dc_status_t
dc_mirror_open_mail(dc_store_t *s, const dc_mail_opts_t *opts,
		    dc_mail_t **out, int *queued, dc_error_t *flush_err,
		    dc_error_t *err)
{
	dc_error_t ferr = { 0 };
	int pending = 0;

	if (queued)
		*queued = 0;
	if (s && dc_mirror_flush(s, opts, NULL, &ferr) != DC_OK) {
		if (ferr.status != DC_E_LOCKED && flush_err)
			*flush_err = ferr;
		if (queued && dc_mirror_pending(s, &pending, NULL) == DC_OK)
			*queued = pending;
	}
	return dc_mail_open(opts, out, err);
}
