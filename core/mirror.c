// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The notmuch tag mirror (see core/mirror.h).  The outbox rows only say
 * which threads need their tags brought up to date; a flush applies each
 * thread's wanted tags as the store has them now, so applying twice, or
 * after a crash, or out of order, gives the same tags.
 */
#include <fcntl.h>
#include <notmuch.h>
#include <signal.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "core/case.h"
#include "core/event.h"
#include "core/mirror.h"

#define PREFIX "coc/"

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

dc_status_t
dc_mirror_queue_case(dc_store_t *s, int64_t case_id, int64_t now,
		     dc_error_t *err)
{
	dc_store_case_t *c = NULL;
	dc_status_t st = dc_store_case_get(s, case_id, &c, err);
	guint i;

	for (i = 0; st == DC_OK && i < c->threads->len; i++) {
		GPtrArray *tags = NULL;
		char *joined;

		st = dc_mirror_wanted(s, c->threads->pdata[i], &tags, err);
		if (st != DC_OK)
			break;
		g_ptr_array_add(tags, NULL);
		joined = g_strjoinv(" ", (char **)tags->pdata);
		st = dc_store_outbox_add(s, c->threads->pdata[i], joined, now,
					 err);
		g_free(joined);
		g_ptr_array_unref(tags);
	}
	dc_store_case_free(c);
	return st;
}

dc_status_t
dc_mirror_pending(dc_store_t *s, int *count, dc_error_t *err)
{
	return dc_store_outbox_count(s, count, err);
}

/* ---- notmuch ---------------------------------------------------------- */

static dc_status_t
nm_fail(dc_error_t *err, notmuch_status_t st, const char *what,
	const char *detail)
{
	dc_status_t code = DC_E_DATA;

	if (st == NOTMUCH_STATUS_XAPIAN_EXCEPTION && detail &&
	    strstr(detail, "lock"))
		code = DC_E_LOCKED;
	else if (st == NOTMUCH_STATUS_FILE_ERROR ||
		 st == NOTMUCH_STATUS_NO_CONFIG ||
		 st == NOTMUCH_STATUS_NO_DATABASE ||
		 st == NOTMUCH_STATUS_PATH_ERROR ||
		 st == NOTMUCH_STATUS_READ_ONLY_DATABASE)
		code = DC_E_IO;
	if (code == DC_E_LOCKED)
		return dc_fail(err, code,
			       "%s: the notmuch database is locked (notmuch "
			       "new running?)",
			       what);
	return dc_fail(err, code, "%s: %s%s%s", what,
		       notmuch_status_to_string(st), detail ? ": " : "",
		       detail ? detail : "");
}

/*
 * Is the Xapian write lock of the database open in db held by another
 * process?  libnotmuch built with retry_lock opens read-write with
 * DB_RETRY_LOCK, which waits as long as the lock is held (a long
 * "notmuch new"), so the mirror asks first: Xapian holds an fcntl lock on
 * xapian/flintlock, which F_GETLK sees.  A lock taken between this look
 * and the open is still waited for; that window is short.
 */
static int
xapian_locked(notmuch_database_t *db)
{
	const char *dirs[2] = {
		notmuch_database_get_path(db),
		notmuch_config_get(db, NOTMUCH_CONFIG_DATABASE_PATH),
	};
	static const char *const rel[] = { ".notmuch/xapian/flintlock",
					   "xapian/flintlock" };
	int i, k, locked = 0, found = 0;

	for (i = 0; i < 2 && !found; i++) {
		for (k = 0; k < 2 && !found && dirs[i]; k++) {
			char *path = g_build_filename(dirs[i], rel[k], NULL);
			struct flock fl = { .l_type = F_WRLCK,
					    .l_whence = SEEK_SET };
			int fd = open(path, O_RDONLY | O_CLOEXEC);

			g_free(path);
			if (fd < 0)
				continue;
			found = 1;
			if (fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK)
				locked = 1;
			close(fd);
		}
	}
	return locked;
}

dc_status_t
dc_mirror_open(const dc_mail_opts_t *opts, int writable, void **out,
	       dc_error_t *err)
{
	const char *config = opts->config_path;
	notmuch_database_t *db = NULL;
	notmuch_status_t st;
	char *msg = NULL;
	dc_status_t r = DC_OK;

	*out = NULL;
	if (opts->db_path && !config)
		config = "";
	st = notmuch_database_open_with_config(
	    opts->db_path, NOTMUCH_DATABASE_MODE_READ_ONLY, config,
	    opts->profile, &db, &msg);
	if (st == NOTMUCH_STATUS_SUCCESS && writable) {
		int locked = xapian_locked(db);

		notmuch_database_destroy(db);
		db = NULL;
		if (locked)
			return dc_fail(err, DC_E_LOCKED,
				       "opening the notmuch database: it is "
				       "locked (notmuch new running?)");
		st = notmuch_database_open_with_config(
		    opts->db_path, NOTMUCH_DATABASE_MODE_READ_WRITE, config,
		    opts->profile, &db, &msg);
	}
	if (st != NOTMUCH_STATUS_SUCCESS)
		r = nm_fail(err, st, "opening the notmuch database", msg);
	else
		*out = db;
	free(msg);
	return r;
}

void
dc_mirror_close(void *db)
{
	if (db)
		notmuch_database_destroy(db);
}

/* Thread ids are hex; anything else must not reach a query string. */
static dc_status_t
thread_query(const char *thread_id, const char *extra, char **q,
	     dc_error_t *err)
{
	const char *p;

	for (p = thread_id; *p; p++)
		if (!g_ascii_isalnum(*p))
			return dc_fail(err, DC_E_DATA,
				       "'%s' is not a notmuch thread id",
				       thread_id);
	*q = g_strdup_printf("thread:%s%s", thread_id, extra ? extra : "");
	return DC_OK;
}

static int
has_str(GPtrArray *a, const char *s)
{
	guint i;

	for (i = 0; a && i < a->len; i++)
		if (!strcmp(a->pdata[i], s))
			return 1;
	return 0;
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

		if (g_str_has_prefix(t, PREFIX) && !has_str(wanted, t)) {
			st = notmuch_message_remove_tag(m, t);
			(*changes)++;
		}
	}
	for (i = 0; st == NOTMUCH_STATUS_SUCCESS && i < wanted->len; i++) {
		if (!has_str(have, wanted->pdata[i])) {
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
dc_mirror_apply(void *db, const char *thread_id, GPtrArray *wanted,
		int *changes, dc_error_t *err)
{
	notmuch_messages_t *msgs = NULL;
	notmuch_status_t st;
	notmuch_query_t *q;
	char *qs = NULL;
	dc_status_t r = thread_query(thread_id, NULL, &qs, err);

	if (r != DC_OK)
		return r;
	q = notmuch_query_create(db, qs);
	g_free(qs);
	if (!q)
		return dc_fail(err, DC_E_NOMEM, "creating a notmuch query");
	notmuch_query_set_omit_excluded(q, NOTMUCH_EXCLUDE_FALSE);
	st = notmuch_database_begin_atomic(db);
	if (st == NOTMUCH_STATUS_SUCCESS)
		st = notmuch_query_search_messages(q, &msgs);
	for (; st == NOTMUCH_STATUS_SUCCESS && notmuch_messages_valid(msgs);
	     notmuch_messages_move_to_next(msgs)) {
		notmuch_message_t *m = notmuch_messages_get(msgs);

		st = apply_message(m, wanted, changes);
		notmuch_message_destroy(m);
	}
	if (st == NOTMUCH_STATUS_SUCCESS)
		st = notmuch_database_end_atomic(db);
	notmuch_query_destroy(q);
	if (st != NOTMUCH_STATUS_SUCCESS)
		return nm_fail(err, st, "writing notmuch tags", NULL);
	return DC_OK;
}

/* The newest outbox row per thread. */
static GHashTable *
newest_per_thread(GPtrArray *rows)
{
	GHashTable *h = g_hash_table_new(g_str_hash, g_str_equal);
	guint i;

	for (i = 0; i < rows->len; i++) {
		dc_store_outbox_t *o = rows->pdata[i];

		g_hash_table_insert(h, o->thread_id, o);
	}
	return h;
}

static void
test_crash_hook(void)
{
	const char *v = getenv("DECORUM_TEST_CRASH");

	/* Documented test hook (core/mirror.h): a crash right here. */
	if (v && !strcmp(v, "after-commit"))
		raise(SIGKILL);
}

dc_status_t
dc_mirror_flush(dc_store_t *s, const dc_mail_opts_t *mail_opts, int *applied,
		dc_error_t *err)
{
	GPtrArray *rows = NULL;
	GHashTableIter it;
	GHashTable *newest;
	gpointer v;
	void *db = NULL;
	int changes = 0;
	dc_status_t st;

	if (applied)
		*applied = 0;
	st = dc_store_outbox_list(s, &rows, err);
	if (st != DC_OK)
		return st;
	if (rows->len == 0) {
		g_ptr_array_unref(rows);
		return DC_OK;
	}
	test_crash_hook();
	st = dc_mirror_open(mail_opts, 1, &db, err);
	if (st != DC_OK) {
		g_ptr_array_unref(rows);
		return st;
	}
	newest = newest_per_thread(rows);
	g_hash_table_iter_init(&it, newest);
	while (st == DC_OK && g_hash_table_iter_next(&it, NULL, &v)) {
		dc_store_outbox_t *o = v;
		GPtrArray *wanted = NULL;

		st = dc_mirror_wanted(s, o->thread_id, &wanted, err);
		if (st == DC_OK)
			st = dc_mirror_apply(db, o->thread_id, wanted,
					     &changes, err);
		if (st == DC_OK)
			st = dc_store_outbox_done(s, o->thread_id, o->id, err);
		if (wanted)
			g_ptr_array_unref(wanted);
	}
	g_hash_table_destroy(newest);
	g_ptr_array_unref(rows);
	dc_mirror_close(db);
	if (applied)
		*applied = changes;
	return st;
}

/* ---- late replies ----------------------------------------------------- */

/* Message ids the thread had when the case was opened, from its open
 * event; NULL when they were not recorded. */
static dc_status_t
known_messages(dc_store_t *s, int64_t case_id, GHashTable **out,
	       dc_error_t *err)
{
	GPtrArray *evs = NULL;
	dc_status_t st = dc_store_event_list(s, case_id, &evs, err);
	guint i;

	*out = NULL;
	for (i = 0; st == DC_OK && i < evs->len && !*out; i++) {
		const dc_store_event_t *ev = evs->pdata[i];
		GVariant *v, *ids;
		GVariantIter vi;
		const char *id;

		if (strcmp(ev->type, "open") || !(v = dc_event_data(ev)))
			continue;
		ids = g_variant_lookup_value(v, "messages",
					     G_VARIANT_TYPE("as"));
		if (ids) {
			*out = g_hash_table_new_full(g_str_hash, g_str_equal,
						     g_free, NULL);
			g_variant_iter_init(&vi, ids);
			while (g_variant_iter_next(&vi, "&s", &id))
				g_hash_table_add(*out, g_strdup(id));
			g_variant_unref(ids);
		}
		g_variant_unref(v);
	}
	if (evs)
		g_ptr_array_unref(evs);
	return st;
}

static dc_status_t
late_in_thread(void *db, const char *thread_id, int64_t lastmod,
	       int64_t opened, GHashTable *known, GPtrArray *out,
	       dc_error_t *err)
{
	notmuch_messages_t *msgs = NULL;
	notmuch_status_t st;
	notmuch_query_t *q;
	char extra[64], *qs = NULL;
	dc_status_t r;

	/* Only what notmuch changed since: lastmod narrows the search. */
	g_snprintf(extra, sizeof(extra), " and lastmod:%" G_GINT64_FORMAT "..",
		   (gint64)lastmod);
	r = thread_query(thread_id, lastmod ? extra : NULL, &qs, err);
	if (r != DC_OK)
		return r;
	q = notmuch_query_create(db, qs);
	g_free(qs);
	if (!q)
		return dc_fail(err, DC_E_NOMEM, "creating a notmuch query");
	notmuch_query_set_omit_excluded(q, NOTMUCH_EXCLUDE_FALSE);
	notmuch_query_set_sort(q, NOTMUCH_SORT_OLDEST_FIRST);
	st = notmuch_query_search_messages(q, &msgs);
	for (; st == NOTMUCH_STATUS_SUCCESS && notmuch_messages_valid(msgs);
	     notmuch_messages_move_to_next(msgs)) {
		notmuch_message_t *m = notmuch_messages_get(msgs);
		const char *id = notmuch_message_get_message_id(m);
		int late;

		/* Tagging bumps lastmod too: a late message is one the
		 * thread did not have when the case was opened. */
		if (known)
			late = !g_hash_table_contains(known, id);
		else
			late = notmuch_message_get_date(m) > opened;
		if (late)
			g_ptr_array_add(out, g_strdup(id));
		notmuch_message_destroy(m);
	}
	notmuch_query_destroy(q);
	if (st != NOTMUCH_STATUS_SUCCESS)
		return nm_fail(err, st, "searching notmuch", NULL);
	return DC_OK;
}

dc_status_t
dc_case_late_replies(dc_store_t *s, const dc_mail_opts_t *opts,
		     int64_t case_id, GPtrArray **out, dc_error_t *err)
{
	dc_case_t *c = NULL;
	GHashTable *known = NULL;
	void *db = NULL;
	dc_status_t st;
	guint i;

	*out = NULL;
	st = dc_case_get(s, case_id, &c, err); /* access rules */
	if (st == DC_OK)
		st = known_messages(s, case_id, &known, err);
	if (st == DC_OK)
		st = dc_mirror_open(opts, 0, &db, err);
	if (st == DC_OK)
		*out = g_ptr_array_new_with_free_func(g_free);
	for (i = 0; st == DC_OK && i < c->threads->len; i++) {
		int64_t lastmod = 0;

		st = dc_store_case_thread_lastmod(s, case_id,
						  c->threads->pdata[i],
						  &lastmod, err);
		if (st == DC_OK)
			st = late_in_thread(db, c->threads->pdata[i],
					    lastmod, c->created_at,
					    i == 0 ? known : NULL, *out, err);
	}
	dc_mirror_close(db);
	if (known)
		g_hash_table_destroy(known);
	dc_case_free(c);
	if (st != DC_OK && *out) {
		g_ptr_array_unref(*out);
		*out = NULL;
	}
	return st;
}
