// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * fsck: the store's wanted coc/ tags against notmuch's, both ways (see
 * core/mail/fsck.h).  The store is the truth: a repair changes notmuch only.
 */
#include <notmuch.h>
#include <string.h>

#include "core/mail/anchor.h"
#include "core/base/clock.h"
#include "core/mail/fsck.h"
#include "core/mail/mirror.h"

#define PREFIX DC_MIRROR_PREFIX

static void
diff_free(gpointer p)
{
	dc_fsck_diff_t *d = p;

	g_free(d->thread_id);
	g_free(d->message_id);
	g_free(d->tag);
	g_free(d);
}

static void
gone_free(gpointer p)
{
	dc_fsck_gone_t *g = p;

	g_free(g->message_id);
	g_free(g);
}

void
dc_fsck_free(dc_fsck_t *f)
{
	if (!f)
		return;
	if (f->diffs)
		g_ptr_array_unref(f->diffs);
	if (f->gone)
		g_ptr_array_unref(f->gone);
	g_free(f);
}

static void
add_diff(dc_fsck_t *f, const char *thread, const char *msg, const char *tag,
	 int missing)
{
	dc_fsck_diff_t *d = g_new0(dc_fsck_diff_t, 1);

	d->thread_id = g_strdup(thread);
	d->message_id = g_strdup(msg);
	d->tag = g_strdup(tag);
	d->missing = missing;
	g_ptr_array_add(f->diffs, d);
}

/* Compare one message's coc/ tags with the wanted ones. */
static void
check_message(dc_fsck_t *f, notmuch_message_t *m, GPtrArray *wanted,
	      GHashTable *threads_to_fix)
{
	const char *thread = notmuch_message_get_thread_id(m);
	const char *id = notmuch_message_get_message_id(m);
	GPtrArray *have = g_ptr_array_new_with_free_func(g_free);
	int before = f->diffs->len;
	notmuch_tags_t *tags;
	guint i;

	for (tags = notmuch_message_get_tags(m); notmuch_tags_valid(tags);
	     notmuch_tags_move_to_next(tags)) {
		const char *t = notmuch_tags_get(tags);

		if (g_str_has_prefix(t, PREFIX))
			g_ptr_array_add(have, g_strdup(t));
	}
	for (i = 0; i < have->len; i++)
		if (!dc_str_array_has(wanted, have->pdata[i]))
			add_diff(f, thread, id, have->pdata[i], 0);
	for (i = 0; wanted && i < wanted->len; i++)
		if (!dc_str_array_has(have, wanted->pdata[i]))
			add_diff(f, thread, id, wanted->pdata[i], 1);
	f->tags += have->len + (wanted ? wanted->len : 0);
	if ((int)f->diffs->len != before)
		g_hash_table_add(threads_to_fix, g_strdup(thread));
	g_ptr_array_unref(have);
}

/* The messages of qs against wanted (NULL: none wanted), each with the
 * cases that cover it alone (singles) added. */
static dc_status_t
scan_query(dc_fsck_t *f, dc_store_t *s, void *db, const char *qs,
	   GPtrArray *wanted, GPtrArray *singles, GHashTable *skip_threads,
	   GHashTable *to_fix, dc_error_t *err)
{
	notmuch_messages_t *msgs = NULL;
	notmuch_query_t *q = NULL;
	dc_status_t st;

	st = dc_notmuch_messages(db, qs, NOTMUCH_SORT_UNSORTED, &q, &msgs,
				 "searching notmuch", err);
	if (st != DC_OK)
		return st;
	for (; st == DC_OK && notmuch_messages_valid(msgs);
	     notmuch_messages_move_to_next(msgs)) {
		notmuch_message_t *m = notmuch_messages_get(msgs);
		GPtrArray *w = wanted;

		if (skip_threads &&
		    g_hash_table_contains(skip_threads,
					  notmuch_message_get_thread_id(m))) {
			notmuch_message_destroy(m);
			continue;
		}
		if (wanted && singles && singles->len)
			st = dc_mirror_message_wanted(
			    s, wanted, singles,
			    notmuch_message_get_message_id(m), &w, err);
		if (st == DC_OK)
			check_message(f, m, w, to_fix);
		if (w != wanted && st == DC_OK)
			g_ptr_array_unref(w);
		notmuch_message_destroy(m);
	}
	notmuch_query_destroy(q);
	return st;
}

/*
 * Every case's mail, asked of notmuch message by message: what is gone
 * from the index is reported and never stands in for another thread; a
 * cache that disagrees (a message deleted since) is corrected, in this
 * connection only unless repairing.
 */
static dc_status_t
check_mail(dc_store_t *s, void *db, dc_fsck_t *f, dc_error_t *err)
{
	GPtrArray *mail = NULL;
	dc_status_t st = dc_store_mail_all(s, &mail, err);
	guint i;

	for (i = 0; st == DC_OK && i < mail->len; i++) {
		dc_store_mail_t *m = mail->pdata[i];
		char *t = dc_anchor_thread_of(db, m->message_id);

		if (!t) {
			dc_fsck_gone_t *g = g_new0(dc_fsck_gone_t, 1);

			g->case_id = m->case_id;
			g->message_id = g_strdup(m->message_id);
			g_ptr_array_add(f->gone, g);
		}
		if (g_strcmp0(t, m->thread_id))
			st = dc_store_mail_set_thread(s, m->message_id, t, err);
		g_free(t);
	}
	if (mail)
		g_ptr_array_unref(mail);
	return st;
}

static dc_status_t
scan(dc_store_t *s, void *db, dc_fsck_t *f, GHashTable *to_fix,
     dc_error_t *err)
{
	GHashTable *tracked = g_hash_table_new(g_str_hash, g_str_equal);
	GPtrArray *threads = NULL;
	dc_status_t st = check_mail(s, db, f, err);
	guint i;

	if (st == DC_OK)
		st = dc_store_tracked_threads(s, &threads, err);
	for (i = 0; st == DC_OK && i < threads->len; i++) {
		const char *t = threads->pdata[i];
		GPtrArray *wanted = NULL, *singles = NULL;
		char *qs;

		g_hash_table_add(tracked, threads->pdata[i]);
		if (strspn(t, "0123456789abcdef") != strlen(t))
			continue; /* not a thread id notmuch could have */
		st = dc_mirror_wanted(s, t, &wanted, err);
		if (st == DC_OK)
			st = dc_store_thread_single_mail(s, t, &singles, err);
		qs = g_strdup_printf("thread:%s", t);
		if (st == DC_OK)
			st = scan_query(f, s, db, qs, wanted, singles, NULL,
					to_fix, err);
		g_free(qs);
		if (wanted)
			g_ptr_array_unref(wanted);
		if (singles)
			g_ptr_array_unref(singles);
		f->threads++;
	}
	/* coc/ tags on threads no case covers: every one is extra. */
	if (st == DC_OK)
		st = scan_query(f, s, db, "tag:/^coc\\//", NULL, NULL, tracked,
				to_fix, err);
	g_hash_table_destroy(tracked);
	if (threads)
		g_ptr_array_unref(threads);
	return st;
}

static dc_status_t
repair(dc_store_t *s, void *db, dc_fsck_t *f, GHashTable *to_fix,
       dc_error_t *err)
{
	GHashTableIter it;
	gpointer k;
	dc_status_t st = DC_OK;

	g_hash_table_iter_init(&it, to_fix);
	while (st == DC_OK && g_hash_table_iter_next(&it, &k, NULL))
		st = dc_mirror_apply(s, db, k, &f->repaired, err);
	/* What was queued is applied too: store and notmuch agree after. */
	if (st == DC_OK)
		st = dc_mirror_flush_open(s, db, &f->repaired, err);
	return st;
}

dc_status_t
dc_fsck_run(dc_store_t *s, const dc_mail_opts_t *mail_opts, int do_repair,
	    int force, int max_changes, dc_fsck_t **out, dc_error_t *err)
{
	GHashTable *to_fix =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	dc_fsck_t *f = g_new0(dc_fsck_t, 1);
	void *db = NULL;
	dc_status_t st;

	*out = f;
	f->diffs = g_ptr_array_new_with_free_func(diff_free);
	f->gone = g_ptr_array_new_with_free_func(gone_free);
	st = dc_mirror_pending(s, &f->pending, err);
	if (st == DC_OK)
		st = dc_notmuch_open(mail_opts, do_repair, &db, err);
	/* Only a repair writes the store; a check keeps its cache private. */
	if (st == DC_OK)
		st = dc_anchor_sync(s, db, do_repair, NULL, dc_now(), err);
	if (st == DC_OK && !do_repair)
		st = dc_store_mail_shadow(s, err);
	if (st == DC_OK)
		st = scan(s, db, f, to_fix, err);
	f->limit = max_changes > 0 ? max_changes : MAX(25, f->tags / 10);
	if (st == DC_OK && do_repair && f->diffs->len) {
		if ((int)f->diffs->len > f->limit && !force)
			st = dc_fail(err, DC_E_DENIED,
				     "refusing to change %u tags at once "
				     "(the limit is %d); check the "
				     "differences and use --force",
				     f->diffs->len, f->limit);
		else
			st = repair(s, db, f, to_fix, err);
	}
	dc_notmuch_close(db);
	g_hash_table_destroy(to_fix);
	return st;
}
