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
	g_free(m->ssh_key);
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
			     " (address, name, role, joined, left_at, ssh_key)"
			     " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
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
	if (rc == SQLITE_OK)
		rc = dc_sql_bind_text(st, 6, m->ssh_key);
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
	m->ssh_key = dc_sql_column_dup(st, 5);
	return m;
}

#define MEMBER_SELECT "SELECT address, name, role, joined, left_at, ssh_key FROM members"

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

static gpointer
member_row(sqlite3_stmt *st)
{
	return member_from_row(st);
}

dc_status_t
dc_store_member_list(dc_store_t *s, GPtrArray **out, dc_error_t *err)
{
	return dc_sql_list(s, MEMBER_SELECT " ORDER BY address", member_row,
			   member_free_cb, out, "listing members", err, "");
}
