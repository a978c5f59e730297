// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The mail of cases (migration 004): the messages each case covers, named
 * by Message-ID, with their notmuch thread as a cache; the notmuch
 * database the cache belongs to; the threads of cases older than 004;
 * and the tag outbox, by case.  Every statement has bound parameters.
 */
#include <sqlite3.h>
#include <string.h>

#include "store/sql.h"
#include "store/store.h"

void
dc_store_mail_free(dc_store_mail_t *m)
{
	if (!m)
		return;
	g_free(m->message_id);
	g_free(m->scope);
	g_free(m->role);
	g_free(m->thread_id);
	g_free(m);
}

void
dc_store_mail_free_cb(gpointer m)
{
	dc_store_mail_free(m);
}

/* Columns: message_id, scope, role, added_at, thread_id, case_id. */
dc_store_mail_t *
dc_sql_mail_from_row(sqlite3_stmt *st, int col)
{
	dc_store_mail_t *m = g_new0(dc_store_mail_t, 1);

	m->message_id = dc_sql_column_dup(st, col);
	m->scope = dc_sql_column_dup(st, col + 1);
	m->role = dc_sql_column_dup(st, col + 2);
	m->added_at = sqlite3_column_int64(st, col + 3);
	m->thread_id = dc_sql_column_dup(st, col + 4);
	m->case_id = sqlite3_column_int64(st, col + 5);
	return m;
}

static int
has_thread(GPtrArray *threads, const char *t)
{
	guint i;

	for (i = 0; i < threads->len; i++)
		if (!strcmp(threads->pdata[i], t))
			return 1;
	return 0;
}

void
dc_sql_case_add_mail_row(dc_store_case_t *c, sqlite3_stmt *st, int col)
{
	dc_store_mail_t *m = dc_sql_mail_from_row(st, col);

	g_ptr_array_add(c->mail, m);
	if (m->thread_id && !g_strcmp0(m->scope, "thread") &&
	    !has_thread(c->threads, m->thread_id))
		g_ptr_array_add(c->threads, g_strdup(m->thread_id));
}

dc_status_t
dc_store_case_add_mail(dc_store_t *s, const dc_store_mail_t *m,
		       dc_error_t *err)
{
	const char *what = "adding a message to a case";
	sqlite3_stmt *st;
	dc_status_t ret;
	int rc;

	if (!m->message_id || !*m->message_id)
		return dc_fail(err, DC_E_USAGE, "%s: no Message-ID", what);
	ret = dc_sql_prepare_bind(s, "SELECT 1 FROM cases WHERE id = ?1", &st,
				  what, err, "i", m->case_id);
	if (ret != DC_OK)
		return ret;
	rc = sqlite3_step(st);
	ret = dc_sql_finish(s, st, rc, what, err);
	if (ret == DC_OK && rc != SQLITE_ROW)
		return dc_fail(err, DC_E_NOT_FOUND, "no case #%lld",
			       (long long)m->case_id);
	if (ret != DC_OK)
		return ret;
	return dc_sql_run(s,
			  "INSERT OR IGNORE INTO case_mail (case_id,"
			  " message_id, scope, role, added_at, thread_id)"
			  " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
			  what, err, "isssis", m->case_id, m->message_id,
			  m->scope ? m->scope : "thread", m->role,
			  m->added_at, m->thread_id);
}

dc_status_t
dc_store_case_remove_mail(dc_store_t *s, int64_t case_id,
			  const char *message_id, dc_error_t *err)
{
	return dc_sql_run(s,
			  "DELETE FROM case_mail"
			  " WHERE case_id = ?1 AND message_id = ?2",
			  "taking a message off a case", err, "is", case_id,
			  message_id);
}

#define MAIL_COLUMNS                                                          \
	"message_id, scope, role, added_at, thread_id, case_id"

static gpointer
mail_row(sqlite3_stmt *st)
{
	return dc_sql_mail_from_row(st, 0);
}

dc_status_t
dc_store_mail_all(dc_store_t *s, GPtrArray **out, dc_error_t *err)
{
	return dc_sql_list(s,
			   "SELECT " MAIL_COLUMNS " FROM case_mail"
			   " ORDER BY case_id, added_at, rowid",
			   mail_row, dc_store_mail_free_cb, out,
			   "reading the mail of cases", err, "");
}

dc_status_t
dc_store_mail_set_thread(dc_store_t *s, const char *message_id,
			 const char *thread_id, dc_error_t *err)
{
	return dc_sql_run(s,
			  "UPDATE case_mail SET thread_id = ?2"
			  " WHERE message_id = ?1"
			  " AND thread_id IS NOT ?2",
			  "caching the thread of a message", err, "ss",
			  message_id, thread_id);
}

dc_status_t
dc_store_mail_sync_get(dc_store_t *s, char **uuid, int64_t *revision,
		       dc_error_t *err)
{
	const char *what = "reading which notmuch database the cache is of";
	sqlite3_stmt *st;
	dc_status_t ret;
	int rc;

	*uuid = NULL;
	*revision = 0;
	ret = dc_sql_prepare(s,
			     "SELECT uuid, revision FROM mail_sync WHERE id = 1",
			     &st, what, err);
	if (ret != DC_OK)
		return ret;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*uuid = dc_sql_column_dup(st, 0);
		*revision = sqlite3_column_int64(st, 1);
	}
	return dc_sql_finish(s, st, rc, what, err);
}

dc_status_t
dc_store_mail_sync_set(dc_store_t *s, const char *uuid, int64_t revision,
		       dc_error_t *err)
{
	return dc_sql_run(s,
			  "INSERT OR REPLACE INTO mail_sync (id, uuid, revision)"
			  " VALUES (1, ?1, ?2)",
			  "recording which notmuch database the cache is of",
			  err, "si", uuid, revision);
}

dc_status_t
dc_store_mail_shadow(dc_store_t *s, dc_error_t *err)
{
	static const char *const sql[] = {
		"CREATE TEMP TABLE IF NOT EXISTS case_mail AS"
		" SELECT * FROM main.case_mail",
		"CREATE INDEX IF NOT EXISTS temp.case_mail_message"
		" ON case_mail(message_id)",
		"CREATE INDEX IF NOT EXISTS temp.case_mail_thread"
		" ON case_mail(thread_id, case_id)",
		"CREATE INDEX IF NOT EXISTS temp.case_mail_case"
		" ON case_mail(case_id, added_at)",
		"CREATE TEMP TABLE IF NOT EXISTS mail_sync AS"
		" SELECT * FROM main.mail_sync",
		"CREATE TEMP TABLE IF NOT EXISTS legacy_threads AS"
		" SELECT * FROM main.legacy_threads",
	};
	dc_status_t ret = DC_OK;
	guint i;

	for (i = 0; i < G_N_ELEMENTS(sql) && ret == DC_OK; i++)
		ret = dc_sql_exec(s, sql[i], "keeping a private copy of the "
			       "thread cache", err);
	return ret;
}

dc_status_t
dc_store_mail_rename(dc_store_t *s, int64_t case_id, const char *message_id,
		     const char *stand_in, dc_error_t *err)
{
	return dc_sql_run(s,
			  "UPDATE case_mail SET message_id = ?3,"
			  " thread_id = NULL"
			  " WHERE case_id = ?1 AND message_id = ?2",
			  "erasing a Message-ID", err, "iss", case_id,
			  message_id, stand_in);
}

/* ---- cases from before 004 -------------------------------------------- */

static void
legacy_free(gpointer p)
{
	dc_store_legacy_t *l = p;

	g_free(l->thread_id);
	g_free(l);
}

static gpointer
legacy_row(sqlite3_stmt *st)
{
	dc_store_legacy_t *l = g_new0(dc_store_legacy_t, 1);

	l->case_id = sqlite3_column_int64(st, 0);
	l->thread_id = dc_sql_column_dup(st, 1);
	l->added_at = sqlite3_column_int64(st, 2);
	return l;
}

dc_status_t
dc_store_legacy_list(dc_store_t *s, GPtrArray **out, dc_error_t *err)
{
	return dc_sql_list(s,
			   "SELECT case_id, thread_id, added_at"
			   " FROM legacy_threads ORDER BY case_id, added_at",
			   legacy_row, legacy_free, out,
			   "reading the threads of older cases", err, "");
}

dc_status_t
dc_store_legacy_done(dc_store_t *s, int64_t case_id, const char *thread_id,
		     dc_error_t *err)
{
	return dc_sql_run(s,
			  "DELETE FROM legacy_threads"
			  " WHERE case_id = ?1 AND thread_id = ?2",
			  "resolving the thread of an older case", err, "is",
			  case_id, thread_id);
}

/* ---- threads and their cases ------------------------------------------- */

dc_status_t
dc_store_case_find_open(dc_store_t *s, const char *thread_id, int64_t *id_out,
			dc_error_t *err)
{
	const char *what = "looking up the case of a thread";
	sqlite3_stmt *st;
	dc_status_t ret;
	int rc;

	ret = dc_sql_prepare_bind(s,
				  "SELECT c.id FROM cases c"
				  " JOIN case_mail m ON m.case_id = c.id"
				  " WHERE m.thread_id = ?1"
				  " AND m.scope = 'thread'"
				  " AND c.state NOT IN ('closed', 'withdrawn')"
				  " ORDER BY c.id DESC LIMIT 1",
				  &st, what, err, "s", thread_id);
	if (ret != DC_OK)
		return ret;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && id_out)
		*id_out = sqlite3_column_int64(st, 0);
	ret = dc_sql_finish(s, st, rc, what, err);
	if (ret == DC_OK && rc == SQLITE_DONE)
		return dc_fail(err, DC_E_NOT_FOUND,
			       "no open case covers thread %s", thread_id);
	return ret;
}

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
	ret = dc_sql_prepare_bind(s,
				  "SELECT DISTINCT c.id FROM cases c"
				  " JOIN case_mail m ON m.case_id = c.id"
				  " WHERE m.thread_id = ?1"
				  " AND m.scope = 'thread'"
				  " AND c.state != 'withdrawn' ORDER BY c.id",
				  &st, what, err, "s", thread_id);
	if (ret != DC_OK)
		return ret;
	ids = g_array_new(FALSE, FALSE, sizeof(int64_t));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		g_array_append_val(ids, id);
	}
	ret = dc_sql_finish(s, st, rc, what, err);
	if (ret != DC_OK)
		g_array_unref(ids);
	else
		*out = ids;
	return ret;
}

dc_status_t
dc_store_thread_single_mail(dc_store_t *s, const char *thread_id,
			    GPtrArray **out, dc_error_t *err)
{
	return dc_sql_list(
	    s,
	    "SELECT m.message_id, m.scope, m.role, m.added_at, m.thread_id,"
	    " m.case_id FROM case_mail m JOIN cases c ON c.id = m.case_id"
	    " WHERE m.thread_id = ?1 AND m.scope = 'message'"
	    " AND c.state != 'withdrawn' ORDER BY m.case_id",
	    mail_row, dc_store_mail_free_cb, out,
	    "reading the single messages of a thread", err, "s", thread_id);
}

static gpointer
text_row(sqlite3_stmt *st)
{
	return dc_sql_column_dup(st, 0);
}

dc_status_t
dc_store_mail_unthreaded(dc_store_t *s, GPtrArray **out, dc_error_t *err)
{
	return dc_sql_list(s,
			   "SELECT DISTINCT message_id FROM case_mail"
			   " WHERE thread_id IS NULL ORDER BY message_id",
			   text_row, g_free, out,
			   "reading the mail of cases", err, "");
}

dc_status_t
dc_store_tracked_threads(dc_store_t *s, GPtrArray **out, dc_error_t *err)
{
	return dc_sql_list(s,
			   "SELECT DISTINCT thread_id FROM case_mail"
			   " WHERE thread_id IS NOT NULL ORDER BY thread_id",
			   text_row, g_free, out, "listing the threads of cases",
			   err, "");
}

/* ---- outbox ----------------------------------------------------------- */

void
dc_store_outbox_free(dc_store_outbox_t *o)
{
	if (!o)
		return;
	g_free(o->message_id);
	g_free(o);
}

static void
outbox_free_cb(gpointer p)
{
	dc_store_outbox_free(p);
}

dc_status_t
dc_store_outbox_add(dc_store_t *s, int64_t case_id, const char *message_id,
		    int64_t at, dc_error_t *err)
{
	return dc_sql_run(s,
			  "INSERT INTO outbox (case_id, message_id, created_at)"
			  " VALUES (?1, ?2, ?3)",
			  "queueing a notmuch tag change", err, "isi", case_id,
			  message_id, at);
}

static gpointer
outbox_row(sqlite3_stmt *st)
{
	dc_store_outbox_t *o = g_new0(dc_store_outbox_t, 1);

	o->id = sqlite3_column_int64(st, 0);
	o->case_id = sqlite3_column_int64(st, 1);
	o->message_id = dc_sql_column_dup(st, 2);
	o->created_at = sqlite3_column_int64(st, 3);
	return o;
}

dc_status_t
dc_store_outbox_list(dc_store_t *s, GPtrArray **out, dc_error_t *err)
{
	return dc_sql_list(s,
			   "SELECT id, case_id, message_id, created_at"
			   " FROM outbox ORDER BY id",
			   outbox_row, outbox_free_cb, out,
			   "reading the notmuch tag outbox", err, "");
}

dc_status_t
dc_store_outbox_done(dc_store_t *s, int64_t id, dc_error_t *err)
{
	return dc_sql_run(s, "DELETE FROM outbox WHERE id <= ?1",
			  "clearing the notmuch tag outbox", err, "i", id);
}

dc_status_t
dc_store_outbox_done_case(dc_store_t *s, int64_t case_id, dc_error_t *err)
{
	return dc_sql_run(s,
			  "DELETE FROM outbox WHERE case_id = ?1"
			  " AND message_id IS NULL",
			  "clearing the notmuch tag outbox", err, "i", case_id);
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
