// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Store queries for the case workflow (migration 002): the chain head,
 * committee members, the notmuch tag outbox and the threads of cases.
 * Every statement is prepared with bound parameters.
 */
#include <sqlite3.h>
#include <string.h>

#include "store/sql.h"
#include "store/store.h"

/* Run a prepared statement that returns no rows. */
static dc_status_t
run_done(dc_store_t *s, sqlite3_stmt *st, int rc, const char *what,
	 dc_error_t *err)
{
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	return dc_sql_finish(s, st, rc, what, err);
}

/* ---- chain head ------------------------------------------------------- */

dc_status_t
dc_store_chain_head(dc_store_t *s, char **hash, int64_t *count,
		    int64_t *last_id, dc_error_t *err)
{
	const char *what = "reading the head of the event chain";
	sqlite3_stmt *st;
	dc_status_t ret;
	int rc;

	*hash = NULL;
	*count = *last_id = 0;
	ret = dc_sql_prepare(
	    s, "SELECT hash, n, last_id FROM chain_head WHERE id = 1", &st,
	    what, err);
	if (ret != DC_OK)
		return ret;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*hash = dc_sql_column_dup(st, 0);
		*count = sqlite3_column_int64(st, 1);
		*last_id = sqlite3_column_int64(st, 2);
	}
	ret = dc_sql_finish(s, st, rc, what, err);
	if (ret == DC_OK && rc == SQLITE_DONE)
		ret = dc_fail(err, DC_E_DATA,
			      "%s: the chain head record is missing", what);
	if (ret == DC_OK && !*hash)
		*hash = g_strdup("");
	return ret;
}

/* ---- members ---------------------------------------------------------- */

void
dc_store_member_free(dc_store_member_t *m)
{
	if (!m)
		return;
	g_free(m->address);
	g_free(m->name);
	g_free(m->role);
	g_free(m);
}

static void
member_free_cb(gpointer p)
{
	dc_store_member_free(p);
}

dc_status_t
dc_store_member_put(dc_store_t *s, const dc_store_member_t *m, dc_error_t *err)
{
	const char *what = "recording a member";
	sqlite3_stmt *st;
	dc_status_t ret;
	int rc;

	ret = dc_sql_prepare(s,
			     "INSERT OR REPLACE INTO members"
			     " (address, name, role, joined, left_at)"
			     " VALUES (?1, ?2, ?3, ?4, ?5)",
			     &st, what, err);
	if (ret != DC_OK)
		return ret;
	rc = dc_sql_bind_text(st, 1, m->address);
	if (rc == SQLITE_OK)
		rc = dc_sql_bind_text(st, 2, m->name);
	if (rc == SQLITE_OK)
		rc = dc_sql_bind_text(st, 3, m->role);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 4, m->joined);
	if (rc == SQLITE_OK)
		rc = m->left ? sqlite3_bind_int64(st, 5, m->left)
			     : sqlite3_bind_null(st, 5);
	return run_done(s, st, rc, what, err);
}

static dc_store_member_t *
member_from_row(sqlite3_stmt *st)
{
	dc_store_member_t *m = g_new0(dc_store_member_t, 1);

	m->address = dc_sql_column_dup(st, 0);
	m->name = dc_sql_column_dup(st, 1);
	m->role = dc_sql_column_dup(st, 2);
	m->joined = sqlite3_column_int64(st, 3);
	m->left = sqlite3_column_int64(st, 4); /* NULL reads as 0 */
	return m;
}

#define MEMBER_SELECT "SELECT address, name, role, joined, left_at FROM members"

dc_status_t
dc_store_member_get(dc_store_t *s, const char *address, dc_store_member_t **out,
		    dc_error_t *err)
{
	const char *what = "reading a member";
	sqlite3_stmt *st;
	dc_status_t ret;
	int rc;

	*out = NULL;
	ret = dc_sql_prepare(s,
			     MEMBER_SELECT " WHERE address = ?1 COLLATE NOCASE",
			     &st, what, err);
	if (ret != DC_OK)
		return ret;
	rc = dc_sql_bind_text(st, 1, address);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = member_from_row(st);
	ret = dc_sql_finish(s, st, rc, what, err);
	if (ret == DC_OK && !*out)
		ret = dc_fail(err, DC_E_NOT_FOUND, "no member %s", address);
	return ret;
}

dc_status_t
dc_store_member_list(dc_store_t *s, GPtrArray **out, dc_error_t *err)
{
	const char *what = "listing members";
	sqlite3_stmt *st;
	GPtrArray *all;
	dc_status_t ret;
	int rc;

	*out = NULL;
	ret = dc_sql_prepare(s, MEMBER_SELECT " ORDER BY address", &st, what,
			     err);
	if (ret != DC_OK)
		return ret;
	all = g_ptr_array_new_with_free_func(member_free_cb);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		g_ptr_array_add(all, member_from_row(st));
	ret = dc_sql_finish(s, st, rc, what, err);
	if (ret != DC_OK)
		g_ptr_array_unref(all);
	else
		*out = all;
	return ret;
}

/* ---- outbox ----------------------------------------------------------- */

void
dc_store_outbox_free(dc_store_outbox_t *o)
{
	if (!o)
		return;
	g_free(o->thread_id);
	g_free(o->tags);
	g_free(o);
}

static void
outbox_free_cb(gpointer p)
{
	dc_store_outbox_free(p);
}

dc_status_t
dc_store_outbox_add(dc_store_t *s, const char *thread_id, const char *tags,
		    int64_t at, dc_error_t *err)
{
	const char *what = "queueing a notmuch tag change";
	sqlite3_stmt *st;
	dc_status_t ret;
	int rc;

	ret = dc_sql_prepare(s,
			     "INSERT INTO outbox (thread_id, tags, created_at)"
			     " VALUES (?1, ?2, ?3)",
			     &st, what, err);
	if (ret != DC_OK)
		return ret;
	rc = dc_sql_bind_text(st, 1, thread_id);
	if (rc == SQLITE_OK)
		rc = dc_sql_bind_text(st, 2, tags);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 3, at);
	return run_done(s, st, rc, what, err);
}

dc_status_t
dc_store_outbox_list(dc_store_t *s, GPtrArray **out, dc_error_t *err)
{
	const char *what = "reading the notmuch tag outbox";
	sqlite3_stmt *st;
	GPtrArray *all;
	dc_status_t ret;
	int rc;

	*out = NULL;
	ret =
	    dc_sql_prepare(s,
			   "SELECT id, thread_id, tags, created_at FROM outbox"
			   " ORDER BY id",
			   &st, what, err);
	if (ret != DC_OK)
		return ret;
	all = g_ptr_array_new_with_free_func(outbox_free_cb);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		dc_store_outbox_t *o = g_new0(dc_store_outbox_t, 1);

		o->id = sqlite3_column_int64(st, 0);
		o->thread_id = dc_sql_column_dup(st, 1);
		o->tags = dc_sql_column_dup(st, 2);
		o->created_at = sqlite3_column_int64(st, 3);
		g_ptr_array_add(all, o);
	}
	ret = dc_sql_finish(s, st, rc, what, err);
	if (ret != DC_OK)
		g_ptr_array_unref(all);
	else
		*out = all;
	return ret;
}

dc_status_t
dc_store_outbox_done(dc_store_t *s, const char *thread_id, int64_t id,
		     dc_error_t *err)
{
	const char *what = "clearing the notmuch tag outbox";
	sqlite3_stmt *st;
	dc_status_t ret;
	int rc;

	ret = dc_sql_prepare(s,
			     "DELETE FROM outbox WHERE thread_id = ?1"
			     " AND (?2 = 0 OR id <= ?2)",
			     &st, what, err);
	if (ret != DC_OK)
		return ret;
	rc = dc_sql_bind_text(st, 1, thread_id);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 2, id);
	return run_done(s, st, rc, what, err);
}

dc_status_t
dc_store_outbox_count(dc_store_t *s, int *count, dc_error_t *err)
{
	const char *what = "counting the notmuch tag outbox";
	sqlite3_stmt *st;
	dc_status_t ret;
	int rc;

	*count = 0;
	ret = dc_sql_prepare(s, "SELECT count(*) FROM outbox", &st, what, err);
	if (ret != DC_OK)
		return ret;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*count = sqlite3_column_int(st, 0);
	return dc_sql_finish(s, st, rc, what, err);
}

/* ---- threads of cases ------------------------------------------------- */

dc_status_t
dc_store_thread_cases(dc_store_t *s, const char *thread_id, GArray **out,
		      dc_error_t *err)
{
	const char *what = "reading the cases of a thread";
	sqlite3_stmt *st;
	dc_status_t ret;
	GArray *ids;
	int rc;

	*out = NULL;
	ret =
	    dc_sql_prepare(s,
			   "SELECT c.id FROM cases c"
			   " JOIN case_threads t ON t.case_id = c.id"
			   " WHERE t.thread_id = ?1 AND c.state != 'withdrawn'"
			   " ORDER BY c.id",
			   &st, what, err);
	if (ret != DC_OK)
		return ret;
	ids = g_array_new(FALSE, FALSE, sizeof(int64_t));
	rc = dc_sql_bind_text(st, 1, thread_id);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		g_array_append_val(ids, id);
		rc = SQLITE_OK;
	}
	ret = dc_sql_finish(s, st, rc, what, err);
	if (ret != DC_OK)
		g_array_unref(ids);
	else
		*out = ids;
	return ret;
}

dc_status_t
dc_store_tracked_threads(dc_store_t *s, GPtrArray **out, dc_error_t *err)
{
	const char *what = "listing the threads of cases";
	sqlite3_stmt *st;
	GPtrArray *all;
	dc_status_t ret;
	int rc;

	*out = NULL;
	ret = dc_sql_prepare(s,
			     "SELECT DISTINCT thread_id FROM case_threads"
			     " ORDER BY thread_id",
			     &st, what, err);
	if (ret != DC_OK)
		return ret;
	all = g_ptr_array_new_with_free_func(g_free);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		g_ptr_array_add(all, dc_sql_column_dup(st, 0));
	ret = dc_sql_finish(s, st, rc, what, err);
	if (ret != DC_OK)
		g_ptr_array_unref(all);
	else
		*out = all;
	return ret;
}

dc_status_t
dc_store_case_thread_set_lastmod(dc_store_t *s, int64_t case_id,
				 const char *thread_id, int64_t lastmod,
				 dc_error_t *err)
{
	const char *what = "recording a thread's notmuch revision";
	sqlite3_stmt *st;
	dc_status_t ret;
	int rc;

	ret = dc_sql_prepare(s,
			     "UPDATE case_threads SET lastmod = ?3"
			     " WHERE case_id = ?1 AND thread_id = ?2",
			     &st, what, err);
	if (ret != DC_OK)
		return ret;
	rc = sqlite3_bind_int64(st, 1, case_id);
	if (rc == SQLITE_OK)
		rc = dc_sql_bind_text(st, 2, thread_id);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 3, lastmod);
	return run_done(s, st, rc, what, err);
}

dc_status_t
dc_store_case_thread_lastmod(dc_store_t *s, int64_t case_id,
			     const char *thread_id, int64_t *lastmod,
			     dc_error_t *err)
{
	const char *what = "reading a thread's notmuch revision";
	sqlite3_stmt *st;
	dc_status_t ret;
	int rc;

	*lastmod = 0;
	ret = dc_sql_prepare(s,
			     "SELECT lastmod FROM case_threads"
			     " WHERE case_id = ?1 AND thread_id = ?2",
			     &st, what, err);
	if (ret != DC_OK)
		return ret;
	rc = sqlite3_bind_int64(st, 1, case_id);
	if (rc == SQLITE_OK)
		rc = dc_sql_bind_text(st, 2, thread_id);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*lastmod = sqlite3_column_int64(st, 0);
	return dc_sql_finish(s, st, rc, what, err);
}
