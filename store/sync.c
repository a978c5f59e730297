// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * store: the tables of the shared log (migration 005): remotes, the
 * envelopes sent and taken, cases' global ids, data keys and the refs
 * imported.  core/sync/ decides what they mean.
 */
#include <string.h>

#include "store/sql.h"
#include "store/store.h"

/* Collect the rows of sql and hand back the first; DC_E_NOT_FOUND
 * (saying nf) when there is none. */
static dc_status_t
first_row(dc_store_t *s, const char *sql, dc_sql_row_fn row,
	  GDestroyNotify free_fn, gpointer *out, const char *what,
	  const char *nf, dc_error_t *err, const char *types, const char *a,
	  int64_t i)
{
	GPtrArray *all = NULL;
	dc_status_t st;

	*out = NULL;
	if (types[0] == 's')
		st = dc_sql_list(s, sql, row, free_fn, &all, what, err, types,
				 a);
	else if (types[0] == 'i')
		st = dc_sql_list(s, sql, row, free_fn, &all, what, err, types,
				 i);
	else
		st = dc_sql_list(s, sql, row, free_fn, &all, what, err, "");
	if (st != DC_OK)
		return st;
	if (!all->len)
		st = dc_fail(err, DC_E_NOT_FOUND, "%s", nf);
	else
		*out = g_ptr_array_steal_index(all, 0);
	g_ptr_array_unref(all);
	return st;
}

/* ---- remotes ---------------------------------------------------------- */

void
dc_store_remote_free(dc_store_remote_t *r)
{
	if (!r)
		return;
	g_free(r->name);
	g_free(r->url);
	g_free(r->trust_root);
	g_free(r);
}

static void
remote_free_cb(gpointer p)
{
	dc_store_remote_free(p);
}

static gpointer
remote_row(sqlite3_stmt *st)
{
	dc_store_remote_t *r = g_new0(dc_store_remote_t, 1);

	r->name = dc_sql_column_dup(st, 0);
	r->url = dc_sql_column_dup(st, 1);
	r->trust_root = dc_sql_column_dup(st, 2);
	r->last_sync = sqlite3_column_int64(st, 3);
	return r;
}

dc_status_t
dc_store_remote_put(dc_store_t *s, const dc_store_remote_t *r,
		    dc_error_t *err)
{
	return dc_sql_run(s,
			  "INSERT INTO sync_remotes (name, url, trust_root)"
			  " VALUES (?1, ?2, ?3) ON CONFLICT(name) DO UPDATE"
			  " SET url = ?2, trust_root = ?3",
			  "recording a remote", err, "sss", r->name, r->url,
			  r->trust_root);
}

dc_status_t
dc_store_remote_list(dc_store_t *s, GPtrArray **out, dc_error_t *err)
{
	return dc_sql_list(s,
			   "SELECT name, url, trust_root, last_sync FROM"
			   " sync_remotes ORDER BY name",
			   remote_row, remote_free_cb, out,
			   "reading the remotes", err, "");
}

dc_status_t
dc_store_remote_delete(dc_store_t *s, const char *name, dc_error_t *err)
{
	return dc_sql_run(s, "DELETE FROM sync_remotes WHERE name = ?1",
			  "removing a remote", err, "s", name);
}

dc_status_t
dc_store_remote_synced(dc_store_t *s, const char *name, int64_t at,
		       dc_error_t *err)
{
	return dc_sql_run(s,
			  "UPDATE sync_remotes SET last_sync = ?2"
			  " WHERE name = ?1",
			  "recording a sync", err, "si", name, at);
}

/* ---- envelopes -------------------------------------------------------- */

void
dc_store_envelope_free(dc_store_envelope_t *e)
{
	if (!e)
		return;
	g_free(e->hash);
	g_free(e->case_gid);
	g_free(e->author);
	g_free(e->type);
	g_free(e->origin);
	g_free(e->body);
	g_free(e->commit_id);
	g_free(e);
}

static void
envelope_free_cb(gpointer p)
{
	dc_store_envelope_free(p);
}

#define ENVELOPE_SELECT                                                        \
	"SELECT hash, event_id, lamport, case_gid, author, type, at, origin,"  \
	" body, commit_id FROM sync_envelopes"

static gpointer
envelope_row(sqlite3_stmt *st)
{
	dc_store_envelope_t *e = g_new0(dc_store_envelope_t, 1);

	e->hash = dc_sql_column_dup(st, 0);
	e->event_id = sqlite3_column_int64(st, 1);
	e->lamport = sqlite3_column_int64(st, 2);
	e->case_gid = dc_sql_column_dup(st, 3);
	e->author = dc_sql_column_dup(st, 4);
	e->type = dc_sql_column_dup(st, 5);
	e->at = sqlite3_column_int64(st, 6);
	e->origin = dc_sql_column_dup(st, 7);
	e->body = dc_sql_column_dup(st, 8);
	e->commit_id = dc_sql_column_dup(st, 9);
	return e;
}

dc_status_t
dc_store_envelope_put(dc_store_t *s, const dc_store_envelope_t *e,
		      dc_error_t *err)
{
	const char *what = "recording an envelope";
	sqlite3_stmt *st = NULL;
	dc_status_t ret;
	int rc;

	ret = dc_sql_prepare_bind(
		s,
		"INSERT INTO sync_envelopes (hash, event_id, lamport,"
		" case_gid, author, type, at, origin, body, commit_id)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
		&st, what, err, "s", e->hash);
	if (ret != DC_OK)
		return ret;
	rc = e->event_id ? sqlite3_bind_int64(st, 2, e->event_id)
			 : sqlite3_bind_null(st, 2);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 3, e->lamport);
	if (rc == SQLITE_OK)
		rc = dc_sql_bind_text(st, 4, e->case_gid);
	if (rc == SQLITE_OK)
		rc = dc_sql_bind_text(st, 5, e->author);
	if (rc == SQLITE_OK)
		rc = dc_sql_bind_text(st, 6, e->type);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 7, e->at);
	if (rc == SQLITE_OK)
		rc = dc_sql_bind_text(st, 8, e->origin);
	if (rc == SQLITE_OK)
		rc = dc_sql_bind_text(st, 9, e->body);
	if (rc == SQLITE_OK)
		rc = dc_sql_bind_text(st, 10, e->commit_id);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	return dc_sql_finish(s, st, rc, what, err);
}

dc_status_t
dc_store_envelope_get(dc_store_t *s, const char *hash,
		      dc_store_envelope_t **out, dc_error_t *err)
{
	return first_row(s, ENVELOPE_SELECT " WHERE hash = ?1", envelope_row,
			 envelope_free_cb, (gpointer *)out,
			 "reading an envelope", "no such envelope", err, "s",
			 hash, 0);
}

dc_status_t
dc_store_envelope_of_event(dc_store_t *s, int64_t event_id,
			   dc_store_envelope_t **out, dc_error_t *err)
{
	return first_row(s, ENVELOPE_SELECT " WHERE event_id = ?1",
			 envelope_row, envelope_free_cb, (gpointer *)out,
			 "reading an envelope", "the event is not shared",
			 err, "i", NULL, event_id);
}

dc_status_t
dc_store_envelope_list(dc_store_t *s, int unsent, GPtrArray **out,
		       dc_error_t *err)
{
	return dc_sql_list(s,
			   unsent ? ENVELOPE_SELECT
			   " WHERE origin = 'local' AND commit_id IS NULL"
			   " ORDER BY lamport, hash"
				  : ENVELOPE_SELECT " ORDER BY lamport, hash",
			   envelope_row, envelope_free_cb, out,
			   "reading the envelopes", err, "");
}

dc_status_t
dc_store_envelope_committed(dc_store_t *s, const char *hash,
			    const char *commit, dc_error_t *err)
{
	return dc_sql_run(s,
			  "UPDATE sync_envelopes SET commit_id = ?2,"
			  " body = NULL WHERE hash = ?1",
			  "recording a commit", err, "ss", hash, commit);
}

static gpointer
int_row(sqlite3_stmt *st)
{
	gint64 *v = g_new(gint64, 1);

	*v = sqlite3_column_int64(st, 0);
	return v;
}

dc_status_t
dc_store_envelope_max_lamport(dc_store_t *s, int64_t *out, dc_error_t *err)
{
	gint64 *v = NULL;
	dc_status_t st = first_row(
		s, "SELECT COALESCE(max(lamport), 0) FROM sync_envelopes",
		int_row, g_free, (gpointer *)&v, "reading the envelopes", "",
		err, "", NULL, 0);

	*out = v ? *v : 0;
	g_free(v);
	return st;
}

static void
event_free_cb(gpointer p)
{
	dc_store_event_free(p);
}

static gpointer
event_row(sqlite3_stmt *st)
{
	dc_store_event_t *e = g_new0(dc_store_event_t, 1);

	e->id = sqlite3_column_int64(st, 0);
	e->case_id = sqlite3_column_int64(st, 1);
	e->at = sqlite3_column_int64(st, 2);
	e->actor = dc_sql_column_dup(st, 3);
	e->type = dc_sql_column_dup(st, 4);
	e->data = dc_sql_column_dup(st, 5);
	e->data_sha256 = dc_sql_column_dup(st, 6);
	e->prev_hash = dc_sql_column_dup(st, 7);
	e->hash = dc_sql_column_dup(st, 8);
	return e;
}

/* What the next sync shares (sync_envelopes.event_id is UNIQUE, so
 * indexed: the count is cheap enough for every screen). */
#define UNSHARED_WHERE                                                         \
	" WHERE (e.case_id IS NOT NULL OR e.type = 'member')"                  \
	" AND NOT EXISTS (SELECT 1 FROM sync_envelopes y"                      \
	" WHERE y.event_id = e.id)"

dc_status_t
dc_store_events_unshared(dc_store_t *s, GPtrArray **out, dc_error_t *err)
{
	return dc_sql_list(
		s,
		"SELECT e.id, e.case_id, e.at, e.actor, e.type, e.data,"
		" e.data_sha256, e.prev_hash, e.hash FROM events e"
		UNSHARED_WHERE " ORDER BY e.id",
		event_row, event_free_cb, out, "reading the event log", err,
		"");
}

dc_status_t
dc_store_events_unshared_count(dc_store_t *s, int64_t *out, dc_error_t *err)
{
	gint64 *v = NULL;
	dc_status_t st = first_row(
		s, "SELECT count(*) FROM events e" UNSHARED_WHERE, int_row,
		g_free, (gpointer *)&v, "reading the event log", "", err, "",
		NULL, 0);

	*out = v ? *v : 0;
	g_free(v);
	return st;
}

/* What the last push to a remote took: this member's tip then. */
#define PUSHED_REF "decorum:pushed/"

dc_status_t
dc_store_sync_pushed_put(dc_store_t *s, const char *remote,
			 const char *commit, dc_error_t *err)
{
	char *ref = g_strconcat(PUSHED_REF, remote, NULL);
	dc_status_t st = dc_store_sync_ref_put(s, ref, commit, err);

	g_free(ref);
	return st;
}

/* This member's envelopes written after the one whose commit the last
 * push to remote took (all of them, before a first push). */
dc_status_t
dc_store_envelopes_unpushed_count(dc_store_t *s, const char *remote,
				  int64_t *out, dc_error_t *err)
{
	char *ref = g_strconcat(PUSHED_REF, remote, NULL);
	gint64 *v = NULL;
	dc_status_t st = first_row(
		s,
		"SELECT count(*) FROM sync_envelopes"
		" WHERE origin = 'local' AND commit_id IS NOT NULL"
		" AND rowid > coalesce((SELECT y.rowid FROM sync_envelopes y"
		" JOIN sync_refs r ON r.commit_id = y.commit_id"
		" WHERE r.ref = ?1 AND y.origin = 'local'), 0)",
		int_row, g_free, (gpointer *)&v, "reading the shared log", "",
		err, "s", ref, 0);

	*out = v ? *v : 0;
	g_free(v);
	g_free(ref);
	return st;
}

/* ---- cases' global ids ------------------------------------------------ */

dc_status_t
dc_store_sync_case_put(dc_store_t *s, int64_t case_id, const char *gid,
		       dc_error_t *err)
{
	return dc_sql_run(s,
			  "INSERT INTO sync_cases (case_id, gid)"
			  " VALUES (?1, ?2)",
			  "recording a case's global id", err, "is", case_id,
			  gid);
}

static gpointer
text_row(sqlite3_stmt *st)
{
	return dc_sql_column_dup(st, 0);
}

dc_status_t
dc_store_sync_case_gid(dc_store_t *s, int64_t case_id, char **gid,
		       dc_error_t *err)
{
	return first_row(s, "SELECT gid FROM sync_cases WHERE case_id = ?1",
			 text_row, g_free, (gpointer *)gid,
			 "reading a case's global id",
			 "the case is not shared", err, "i", NULL, case_id);
}

dc_status_t
dc_store_sync_case_id(dc_store_t *s, const char *gid, int64_t *case_id,
		      dc_error_t *err)
{
	gint64 *v = NULL;
	dc_status_t st = first_row(
		s, "SELECT case_id FROM sync_cases WHERE gid = ?1", int_row,
		g_free, (gpointer *)&v, "reading a case's global id",
		"no case has that global id", err, "s", gid, 0);

	*case_id = v ? *v : 0;
	g_free(v);
	return st;
}

/* ---- data keys -------------------------------------------------------- */

void
dc_store_sync_key_free(dc_store_sync_key_t *k)
{
	if (!k)
		return;
	g_free(k->recipient);
	if (k->secret)
		memset(k->secret, 0, strlen(k->secret));
	g_free(k->secret);
	g_free(k->case_gid);
	g_free(k);
}

static void
key_free_cb(gpointer p)
{
	dc_store_sync_key_free(p);
}

static gpointer
key_row(sqlite3_stmt *st)
{
	dc_store_sync_key_t *k = g_new0(dc_store_sync_key_t, 1);

	k->recipient = dc_sql_column_dup(st, 0);
	k->secret = dc_sql_column_dup(st, 1);
	k->case_gid = dc_sql_column_dup(st, 2);
	k->reported_at = sqlite3_column_int64(st, 3);
	return k;
}

#define KEY_SELECT                                                             \
	"SELECT recipient, secret, case_gid, reported_at FROM sync_keys"

dc_status_t
dc_store_sync_key_put(dc_store_t *s, const dc_store_sync_key_t *k,
		      dc_error_t *err)
{
	return dc_sql_run(s,
			  "INSERT OR REPLACE INTO sync_keys (recipient,"
			  " secret, case_gid, reported_at)"
			  " VALUES (?1, ?2, ?3, ?4)",
			  "recording a data key", err, "sssi", k->recipient,
			  k->secret, k->case_gid, k->reported_at);
}

dc_status_t
dc_store_sync_key_get(dc_store_t *s, const char *recipient,
		      dc_store_sync_key_t **out, dc_error_t *err)
{
	return first_row(s, KEY_SELECT " WHERE recipient = ?1", key_row,
			 key_free_cb, (gpointer *)out, "reading a data key",
			 "no such data key", err, "s", recipient, 0);
}

dc_status_t
dc_store_sync_key_list(dc_store_t *s, GPtrArray **out, dc_error_t *err)
{
	return dc_sql_list(s, KEY_SELECT " ORDER BY recipient", key_row,
			   key_free_cb, out, "reading the data keys", err,
			   "");
}

dc_status_t
dc_store_sync_keys_of_case(dc_store_t *s, const char *gid, GPtrArray **out,
			   dc_error_t *err)
{
	return dc_sql_list(s, KEY_SELECT " WHERE case_gid = ?1 ORDER BY"
			   " recipient", key_row, key_free_cb, out,
			   "reading a case's data keys", err, "s", gid);
}

dc_status_t
dc_store_sync_keys_forget(dc_store_t *s, const char *gid, dc_error_t *err)
{
	return dc_sql_run(s, "DELETE FROM sync_keys WHERE case_gid = ?1",
			  "deleting a case's data keys", err, "s", gid);
}

/* ---- refs ------------------------------------------------------------- */

dc_status_t
dc_store_sync_ref_get(dc_store_t *s, const char *ref, char **commit,
		      dc_error_t *err)
{
	dc_status_t st = first_row(
		s, "SELECT commit_id FROM sync_refs WHERE ref = ?1", text_row,
		g_free, (gpointer *)commit, "reading a ref", "", err, "s",
		ref, 0);

	if (st == DC_E_NOT_FOUND) {
		dc_error_clear(err);
		st = DC_OK;
	}
	return st;
}

dc_status_t
dc_store_sync_ref_put(dc_store_t *s, const char *ref, const char *commit,
		      dc_error_t *err)
{
	return dc_sql_run(s,
			  "INSERT OR REPLACE INTO sync_refs (ref, commit_id)"
			  " VALUES (?1, ?2)",
			  "recording a ref", err, "ss", ref, commit);
}
