// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Store queries for exports: what a report needs in three statements
 * instead of one per case, and the steps of an erasure.  Every
 * statement is prepared with bound parameters.
 */
#include <sqlite3.h>
#include <string.h>

#include "store/sql.h"
#include "store/store.h"

static void
case_free_cb(gpointer p)
{
	dc_store_case_free(p);
}

static void
event_free_cb(gpointer p)
{
	dc_store_event_free(p);
}

/*
 * "in window": reported or changed in [from, to), or with a recorded
 * outcome (a measure may be in force long after its case changed).
 * Open cases outside the window come last with full = 0.
 */
static const char report_cases_sql[] =
    "WITH win(id) AS ("
    " SELECT id FROM cases WHERE reported_at >= ?1 AND reported_at < ?2"
    " UNION SELECT case_id FROM events WHERE case_id IS NOT NULL"
    "  AND ((at >= ?1 AND at < ?2) OR type = 'outcome')),"
    " sel(id, full) AS ("
    " SELECT id, 1 FROM win"
    " UNION ALL SELECT id, 0 FROM cases"
    "  WHERE state NOT IN ('closed', 'withdrawn')"
    "  AND id NOT IN (SELECT id FROM win))"
    " SELECT c.id, c.kind, c.state, c.created_at, c.updated_at,"
    " c.reported_at, c.subject, t.thread_id, sel.full"
    " FROM sel JOIN cases c ON c.id = sel.id"
    " LEFT JOIN case_threads t ON t.case_id = c.id"
    " ORDER BY c.id, t.added_at, t.rowid";

static dc_status_t
read_report_cases(dc_store_t *s, int64_t from, int64_t to, GPtrArray *cases,
		  GArray *open_only, GString *ids, dc_error_t *err)
{
	const char *what = "reading the cases of a report";
	dc_store_case_t *c = NULL;
	sqlite3_stmt *st;
	dc_status_t ret;
	int rc;

	ret = dc_sql_prepare(s, report_cases_sql, &st, what, err);
	if (ret != DC_OK)
		return ret;
	rc = sqlite3_bind_int64(st, 1, from);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 2, to);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		rc = SQLITE_OK;
		if (!c || c->id != sqlite3_column_int64(st, 0)) {
			c = g_new0(dc_store_case_t, 1);
			c->id = sqlite3_column_int64(st, 0);
			c->kind = dc_sql_column_dup(st, 1);
			c->state = dc_sql_column_dup(st, 2);
			c->created_at = sqlite3_column_int64(st, 3);
			c->updated_at = sqlite3_column_int64(st, 4);
			c->reported_at = sqlite3_column_int64(st, 5);
			c->subject = dc_sql_column_dup(st, 6);
			c->threads = g_ptr_array_new_with_free_func(g_free);
			g_ptr_array_add(cases, c);
			if (!sqlite3_column_int(st, 8))
				g_array_append_val(open_only, c->id);
			g_string_append_printf(ids, "%s%" G_GINT64_FORMAT,
					       ids->len > 1 ? "," : "",
					       (gint64)c->id);
		}
		if (sqlite3_column_type(st, 7) != SQLITE_NULL)
			g_ptr_array_add(c->threads, dc_sql_column_dup(st, 7));
	}
	return dc_sql_finish(s, st, rc, what, err);
}

static dc_status_t
read_events(dc_store_t *s, const char *ids, GPtrArray *events, dc_error_t *err)
{
	const char *what = "reading the events of a report";
	sqlite3_stmt *st;
	dc_status_t ret;
	int rc;

	ret = dc_sql_prepare(
	    s,
	    "SELECT id, case_id, at, actor, type, data, data_sha256,"
	    " prev_hash, hash FROM events WHERE case_id IN"
	    " (SELECT value FROM json_each(?1)) ORDER BY case_id, id",
	    &st, what, err);
	if (ret != DC_OK)
		return ret;
	rc = sqlite3_bind_text(st, 1, ids, -1, SQLITE_TRANSIENT);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		dc_store_event_t *e = g_new0(dc_store_event_t, 1);

		rc = SQLITE_OK;
		e->id = sqlite3_column_int64(st, 0);
		e->case_id = sqlite3_column_int64(st, 1);
		e->at = sqlite3_column_int64(st, 2);
		e->actor = dc_sql_column_dup(st, 3);
		e->type = dc_sql_column_dup(st, 4);
		e->data = dc_sql_column_dup(st, 5);
		e->data_sha256 = dc_sql_column_dup(st, 6);
		e->prev_hash = dc_sql_column_dup(st, 7);
		e->hash = dc_sql_column_dup(st, 8);
		g_ptr_array_add(events, e);
	}
	return dc_sql_finish(s, st, rc, what, err);
}

dc_status_t
dc_store_report_load(dc_store_t *s, int64_t from, int64_t to, GPtrArray **cases,
		     GArray **open_only, GPtrArray **events, dc_error_t *err)
{
	GString *ids = g_string_new("[");
	dc_status_t st;

	*cases = g_ptr_array_new_with_free_func(case_free_cb);
	*open_only = g_array_new(FALSE, FALSE, sizeof(int64_t));
	*events = g_ptr_array_new_with_free_func(event_free_cb);
	/* One read transaction: one snapshot, one lock. */
	st = dc_sql_exec(s, "SAVEPOINT report_load", "reading a report", err);
	if (st == DC_OK) {
		st = read_report_cases(s, from, to, *cases, *open_only, ids,
				       err);
		g_string_append_c(ids, ']');
		if (st == DC_OK)
			st = read_events(s, ids->str, *events, err);
		dc_sql_exec(s, "RELEASE report_load", "reading a report", NULL);
	}
	g_string_free(ids, TRUE);
	if (st != DC_OK) {
		g_ptr_array_unref(*cases);
		g_array_unref(*open_only);
		g_ptr_array_unref(*events);
		*cases = *events = NULL;
		*open_only = NULL;
	}
	return st;
}

/* ---- erasure ---------------------------------------------------------- */

dc_status_t
dc_store_event_erase(dc_store_t *s, int64_t id, dc_error_t *err)
{
	const char *what = "erasing an event's payload";
	sqlite3_stmt *st;
	dc_status_t ret =
	    dc_sql_prepare(s,
			   "UPDATE events SET data = NULL WHERE id = ?1"
			   " AND data IS NOT NULL",
			   &st, what, err);
	int rc;

	if (ret != DC_OK)
		return ret;
	rc = sqlite3_bind_int64(st, 1, id);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	return dc_sql_finish(s, st, rc, what, err);
}

dc_status_t
dc_store_case_clear_subject(dc_store_t *s, int64_t id, dc_error_t *err)
{
	const char *what = "erasing a case's subject";
	sqlite3_stmt *st;
	dc_status_t ret = dc_sql_prepare(s,
					 "UPDATE cases SET subject = NULL"
					 " WHERE id = ?1",
					 &st, what, err);
	int rc;

	if (ret != DC_OK)
		return ret;
	rc = sqlite3_bind_int64(st, 1, id);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	return dc_sql_finish(s, st, rc, what, err);
}

/* A checkpoint that another reader keeps from finishing is an error
 * here: the erased bytes would stay in the WAL. */
static dc_status_t
checkpoint(dc_store_t *s, const char *what, dc_error_t *err)
{
	sqlite3_stmt *st;
	dc_status_t ret = dc_sql_prepare(s, "PRAGMA wal_checkpoint(TRUNCATE)",
					 &st, what, err);
	int rc, busy = 0;

	if (ret != DC_OK)
		return ret;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		busy = sqlite3_column_int(st, 0);
	ret = dc_sql_finish(s, st, rc, what, err);
	if (ret == DC_OK && busy)
		ret = dc_fail(err, DC_E_LOCKED,
			      "%s: another program is reading %s; the erased "
			      "data stays in its write-ahead log until it is "
			      "closed and 'decorum erase --compact' runs",
			      what, dc_store_path(s));
	return ret;
}

/*
 * Leave no copy of erased bytes in the file or beside it: the WAL is
 * checkpointed into the database and truncated, VACUUM rebuilds the file
 * from live rows only (secure_delete already zeroes freed pages), and a
 * second checkpoint empties the WAL that VACUUM wrote.
 */
dc_status_t
dc_store_compact(dc_store_t *s, dc_error_t *err)
{
	const char *what = "compacting the store after an erasure";
	dc_status_t st;

	st = checkpoint(s, what, err);
	if (st == DC_OK)
		st = dc_sql_exec(s, "VACUUM", what, err);
	if (st == DC_OK)
		st = checkpoint(s, what, err);
	return st;
}
