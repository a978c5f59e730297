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
 * The cases a report reads: those reported in [from, to), those not
 * closed or withdrawn (pending or long open, whenever reported), and
 * those with an outcome or a vote (a measure in force, a decision
 * overturned in the period).  "fullc": the cases with an outcome or a
 * vote, the only events a report reads beyond the cached kind and state.
 */
#define REPORT_FULL                                                       \
	"WITH fullc(id) AS (SELECT case_id FROM events"                   \
	" WHERE type IN ('outcome', 'vote') AND case_id IS NOT NULL) "

static const char report_cases_sql[] =
    CASE_SELECT
    " WHERE (c.reported_at >= ?1 AND c.reported_at < ?2)"
    " OR c.state NOT IN ('closed', 'withdrawn')"
    " OR c.id IN (SELECT case_id FROM events"
    "  WHERE type IN ('outcome', 'vote'))" CASE_ORDER;

static const char report_full_sql[] =
    "SELECT DISTINCT case_id FROM events"
    " WHERE type IN ('outcome', 'vote') AND case_id IS NOT NULL"
    " ORDER BY case_id";

/*
 * Of the other cases only what decides who may see them and who is in
 * them (core/case/access.c, core/case/people.c): the opening event without its
 * payload, and the participants, name forms (aliases), conflicts,
 * recusals, undos and erasures with theirs; and the category, by which
 * the published form groups the reports.  No hashes: a report does not verify the chain.  In no
 * order: the caller sorts events to cases (a sort here would take as long
 * as the rest of the statement).
 */
#define REPORT_ACCESS_TYPES \
	"('participant', 'alias', 'conflict', 'recuse', 'undo', 'erasure'," \
	" 'category')"

static const char report_events_sql[] =
    REPORT_FULL
    "SELECT id, case_id, at, actor, type,"
    " CASE WHEN type IN " REPORT_ACCESS_TYPES " OR case_id IN fullc"
    " THEN data END"
    " FROM events WHERE case_id IS NOT NULL AND (type = 'open'"
    " OR type IN " REPORT_ACCESS_TYPES " OR case_id IN fullc)";

static dc_status_t
read_report_cases(dc_store_t *s, int64_t from, int64_t to, GPtrArray *cases,
		  GArray *full, dc_error_t *err)
{
	const char *what = "reading the cases of a report";
	sqlite3_stmt *st;
	dc_status_t ret;
	int rc;

	ret = dc_sql_prepare(s, report_cases_sql, &st, what, err);
	if (ret != DC_OK)
		return ret;
	if (sqlite3_bind_int64(st, 1, from) || sqlite3_bind_int64(st, 2, to))
		return dc_sql_finish(s, st, sqlite3_errcode(dc_store_db(s)),
				     what, err);
	ret = dc_sql_read_cases(s, st, cases, what, err);
	if (ret != DC_OK)
		return ret;
	ret = dc_sql_prepare(s, report_full_sql, &st, what, err);
	if (ret != DC_OK)
		return ret;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		g_array_append_val(full, id);
	}
	return dc_sql_finish(s, st, rc, what, err);
}

static dc_status_t
read_events(dc_store_t *s, GPtrArray *events, dc_error_t *err)
{
	const char *what = "reading the events of a report";
	sqlite3_stmt *st;
	dc_status_t ret;
	int rc;

	ret = dc_sql_prepare(s, report_events_sql, &st, what, err);
	if (ret != DC_OK)
		return ret;
	rc = SQLITE_OK;
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		dc_store_event_t *e = g_new0(dc_store_event_t, 1);

		rc = SQLITE_OK;
		e->id = sqlite3_column_int64(st, 0);
		e->case_id = sqlite3_column_int64(st, 1);
		e->at = sqlite3_column_int64(st, 2);
		e->actor = dc_sql_column_dup(st, 3);
		e->type = dc_sql_column_dup(st, 4);
		e->data = dc_sql_column_dup(st, 5);
		g_ptr_array_add(events, e);
	}
	return dc_sql_finish(s, st, rc, what, err);
}

dc_status_t
dc_store_report_load(dc_store_t *s, int64_t from, int64_t to, GPtrArray **cases,
		     GArray **full, GPtrArray **events, dc_error_t *err)
{
	dc_status_t st;

	*cases = g_ptr_array_new_with_free_func(case_free_cb);
	*full = g_array_new(FALSE, FALSE, sizeof(int64_t));
	*events = g_ptr_array_new_with_free_func(event_free_cb);
	/* One read transaction: one snapshot, one lock. */
	st = dc_sql_exec(s, "SAVEPOINT report_load", "reading a report", err);
	if (st == DC_OK) {
		st = read_report_cases(s, from, to, *cases, *full, err);
		if (st == DC_OK)
			st = read_events(s, *events, err);
		dc_sql_exec(s, "RELEASE report_load", "reading a report", NULL);
	}
	if (st != DC_OK) {
		g_ptr_array_unref(*cases);
		g_array_unref(*full);
		g_ptr_array_unref(*events);
		*cases = *events = NULL;
		*full = NULL;
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
