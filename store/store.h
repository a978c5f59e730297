/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store: decorum's SQLite database.  SQLite only: no mail, no curses.
 *
 * Every statement is prepared with bound parameters.  The schema comes from
 * numbered migrations (store/migrations/NNN-name.sql, compiled in) applied in
 * order inside one transaction each, tracked by PRAGMA user_version.
 *
 * The database file is created 0600 and its directory 0700 whatever the
 * umask; a symlink at the database path is refused.  Connections use WAL,
 * synchronous=FULL, foreign keys, secure_delete and a busy timeout.
 */
#ifndef DC_STORE_H
#define DC_STORE_H

#include <glib.h>
#include <stdint.h>

#include "core/base/status.h"

typedef struct dc_store dc_store_t;

/*
 * Open (creating if needed) the store at path.  path == NULL means the
 * default: $DECORUM_STORE if set, else $XDG_DATA_HOME/decorum/decorum.db
 * (~/.local/share/decorum/decorum.db).
 */
dc_status_t dc_store_open(const char *path, dc_store_t **out, dc_error_t *err);
void dc_store_close(dc_store_t *s);

/*
 * dc_store_open with a choice: DC_STORE_CREATE makes a missing file (else
 * DC_E_NOT_FOUND); DC_STORE_MIGRATE brings an older schema up to date,
 * first copying the file as it was to PATH.schemaN (0600), else an older
 * schema is DC_E_INVALID and the file is not written.  dc_store_open is
 * both.
 */
enum {
	DC_STORE_CREATE = 1 << 0,
	DC_STORE_MIGRATE = 1 << 1,
};
dc_status_t dc_store_open_flags(const char *path, int flags, dc_store_t **out,
				dc_error_t *err);

/* Newly allocated default path (see dc_store_open). */
char *dc_store_default_path(void);
const char *dc_store_path(const dc_store_t *s);
int dc_store_schema_version(dc_store_t *s);
/* The schema version this open found and migrated from; 0 when it found
 * the store up to date (or made it). */
int dc_store_migrated_from(const dc_store_t *s);
/* Highest migration compiled into this binary. */
int dc_store_latest_version(void);
/* How long to wait for another process's lock before DC_E_LOCKED
 * (default 5000 ms). */
void dc_store_set_busy_timeout(dc_store_t *s, int ms);
/*
 * Who is looking at the store (an address, or NULL when unidentified).
 * The store only keeps it: core/case/access.c decides what that person may
 * see, so that every front end that opens a store obeys the same rules.
 */
void dc_store_set_viewer(dc_store_t *s, const char *viewer);
const char *dc_store_viewer(const dc_store_t *s);

/* BEGIN IMMEDIATE / COMMIT / ROLLBACK.  Busy gives DC_E_LOCKED. */
dc_status_t dc_store_begin(dc_store_t *s, dc_error_t *err);
dc_status_t dc_store_commit(dc_store_t *s, dc_error_t *err);
void dc_store_rollback(dc_store_t *s);

/* ---- cases ------------------------------------------------------------ */

/* One message a case covers, named by its Message-ID. */
typedef struct dc_store_mail {
	int64_t case_id;
	char *message_id; /* without angle brackets */
	char *scope;      /* "thread": it and its notmuch thread; "message" */
	char *role;       /* "report" for the report itself, else NULL */
	int64_t added_at;
	char *thread_id;  /* cache: its notmuch thread at the last sync
			   * (core/mail/anchor.h); NULL when not in the index */
} dc_store_mail_t;

void dc_store_mail_free(dc_store_mail_t *m);
void dc_store_mail_free_cb(gpointer m);

typedef struct dc_store_case {
	int64_t id;
	char *kind;  /* "admonition", "escalation", "tab" */
	char *state; /* "new", ... (see core/case/case.h) */
	int64_t created_at; /* unix seconds */
	int64_t updated_at;
	int64_t reported_at; /* when the report was made (first mail) */
	char *subject;       /* subject of the first thread, as stored */
	GPtrArray *mail;     /* dc_store_mail_t *, in the order added */
	GPtrArray *threads;  /* char *: the cached notmuch threads of its
			      * thread-scope mail, in that order */
} dc_store_case_t;

void dc_store_case_free(dc_store_case_t *c);

dc_status_t dc_store_case_insert(dc_store_t *s, const char *kind,
				 const char *state, int64_t created_at,
				 int64_t reported_at, const char *subject,
				 int64_t *id_out, dc_error_t *err);
/* kind or state NULL: left unchanged.  DC_E_NOT_FOUND for no such case. */
dc_status_t dc_store_case_update(dc_store_t *s, int64_t id, const char *kind,
				 const char *state, int64_t updated_at,
				 dc_error_t *err);
/* The newest case with thread-scope mail cached in thread_id whose state
 * is neither "closed" nor "withdrawn"; DC_E_NOT_FOUND when there is
 * none. */
dc_status_t dc_store_case_find_open(dc_store_t *s, const char *thread_id,
				    int64_t *id_out, dc_error_t *err);
dc_status_t dc_store_case_get(dc_store_t *s, int64_t id,
			      dc_store_case_t **out, dc_error_t *err);
/* All cases, by id ascending; *out holds dc_store_case_t *, freeing them. */
dc_status_t dc_store_case_list(dc_store_t *s, GPtrArray **out,
			       dc_error_t *err);

/* ---- events: the append-only log -------------------------------------- */

typedef struct dc_store_event {
	int64_t id;
	int64_t case_id; /* 0: not about one case */
	int64_t at;      /* unix seconds */
	char *actor;
	char *type;      /* "open", "tag", "note", ... */
	char *data;      /* payload: GVariant text of an a{sv}; NULL once erased */
	char *data_sha256; /* hex SHA-256 of data as first written */
	char *prev_hash; /* hex hash of the previous event ("" for the first) */
	char *hash;      /* hex hash of this event (see core/case/event.h) */
	int64_t lamport; /* its place in a shared log (core/sync/sync.h);
			  * 0: not shared (read only; ignored by append) */
} dc_store_event_t;

void dc_store_event_free(dc_store_event_t *e);

/* Append ev (ev->id is ignored); the database refuses UPDATE and DELETE on
 * events except the erasure of data (data set to NULL). */
dc_status_t dc_store_event_append(dc_store_t *s, const dc_store_event_t *ev,
				  int64_t *id_out, dc_error_t *err);
/* Hash of the newest event, "" when the log is empty (g_free). */
dc_status_t dc_store_event_last_hash(dc_store_t *s, char **hash_out,
				     dc_error_t *err);
/* Events of one case (case_id > 0) or all events (case_id == 0), by id. */
dc_status_t dc_store_event_list(dc_store_t *s, int64_t case_id,
				GPtrArray **out, dc_error_t *err);

/* ---- the case workflow (store/workflow.c) ----------------------------- */

/* The newest event's hash, the number of events and the newest id, as
 * recorded by the events_head trigger (migration 002). */
dc_status_t dc_store_chain_head(dc_store_t *s, char **hash, int64_t *count,
				int64_t *last_id, dc_error_t *err);

typedef struct dc_store_member {
	char *address;
	char *name;
	char *role;     /* "committee", "tab", "maintainer" */
	int64_t joined; /* unix seconds */
	int64_t left;   /* 0: still a member */
	char *ssh_key;  /* "ssh-ed25519 AAAA...": signs their shared events
			 * and receives their case keys; NULL: none */
} dc_store_member_t;

void dc_store_member_free(dc_store_member_t *m);
/* Insert or replace; call inside a transaction with the member event. */
dc_status_t dc_store_member_put(dc_store_t *s, const dc_store_member_t *m,
				dc_error_t *err);
dc_status_t dc_store_member_get(dc_store_t *s, const char *address,
				dc_store_member_t **out, dc_error_t *err);
/* All members by address; *out frees its elements. */
dc_status_t dc_store_member_list(dc_store_t *s, GPtrArray **out,
				 dc_error_t *err);

/* ---- the mail of cases (store/anchors.c) ------------------------------ */

/* Add a message to a case (m->case_id); one it covers already is left as
 * it is.  DC_E_NOT_FOUND for no such case. */
dc_status_t dc_store_case_add_mail(dc_store_t *s, const dc_store_mail_t *m,
				   dc_error_t *err);
/* Take a message off a case (detach, or the undo of an attach); a
 * message it does not cover is not an error. */
dc_status_t dc_store_case_remove_mail(dc_store_t *s, int64_t case_id,
				      const char *message_id,
				      dc_error_t *err);
/* Every case's mail (dc_store_mail_t *), by case and order added. */
dc_status_t dc_store_mail_all(dc_store_t *s, GPtrArray **out,
			      dc_error_t *err);
/* The Message-IDs (char *) whose thread the cache does not know. */
dc_status_t dc_store_mail_unthreaded(dc_store_t *s, GPtrArray **out,
				     dc_error_t *err);
/* Cache thread_id (NULL: not in the index) for every row of message_id. */
dc_status_t dc_store_mail_set_thread(dc_store_t *s, const char *message_id,
				     const char *thread_id, dc_error_t *err);
/* Replace a case's message_id by stand_in (erasure: core/privacy/erase.h). */
dc_status_t dc_store_mail_rename(dc_store_t *s, int64_t case_id,
				 const char *message_id, const char *stand_in,
				 dc_error_t *err);
/* The notmuch database (uuid, revision) the cache was brought up to date
 * with; *uuid NULL when never. */
dc_status_t dc_store_mail_sync_get(dc_store_t *s, char **uuid,
				   int64_t *revision, dc_error_t *err);
dc_status_t dc_store_mail_sync_set(dc_store_t *s, const char *uuid,
				   int64_t revision, dc_error_t *err);
/*
 * From now on this connection reads and writes a private copy of the
 * cache (SQLite TEMP tables shadow case_mail and mail_sync), leaving the
 * store file as it is: for a store opened read-only, or locked.
 */
dc_status_t dc_store_mail_shadow(dc_store_t *s, dc_error_t *err);

/* Cases opened before Message-IDs named their mail (migration 004). */
typedef struct dc_store_legacy {
	int64_t case_id;
	char *thread_id;
	int64_t added_at;
} dc_store_legacy_t;

dc_status_t dc_store_legacy_list(dc_store_t *s, GPtrArray **out,
				 dc_error_t *err);
dc_status_t dc_store_legacy_done(dc_store_t *s, int64_t case_id,
				 const char *thread_id, dc_error_t *err);

/* The cases (int64_t ids, ascending) whose thread-scope mail is cached
 * in thread_id, and whose state is not "withdrawn". */
dc_status_t dc_store_thread_cases(dc_store_t *s, const char *thread_id,
				  GArray **out, dc_error_t *err);
/* The message-scope mail cached in thread_id (dc_store_mail_t *) of
 * cases not withdrawn. */
dc_status_t dc_store_thread_single_mail(dc_store_t *s, const char *thread_id,
					GPtrArray **out, dc_error_t *err);
/* Every thread the cache holds for any case (char *), sorted. */
dc_status_t dc_store_tracked_threads(dc_store_t *s, GPtrArray **out,
				     dc_error_t *err);

/* The notmuch tag outbox: cases whose coc/ tags must be brought up to
 * date, and messages that left a case (message_id non-NULL). */
typedef struct dc_store_outbox {
	int64_t id;
	int64_t case_id;
	char *message_id; /* NULL: the case's own mail */
	int64_t created_at;
} dc_store_outbox_t;

void dc_store_outbox_free(dc_store_outbox_t *o);
dc_status_t dc_store_outbox_add(dc_store_t *s, int64_t case_id,
				const char *message_id, int64_t at,
				dc_error_t *err);
/* Oldest first; *out frees its elements. */
dc_status_t dc_store_outbox_list(dc_store_t *s, GPtrArray **out,
				 dc_error_t *err);
/* Remove the rows up to and including id. */
dc_status_t dc_store_outbox_done(dc_store_t *s, int64_t id, dc_error_t *err);
/* Remove the rows of one case (all of them: it is in step). */
dc_status_t dc_store_outbox_done_case(dc_store_t *s, int64_t case_id,
				      dc_error_t *err);
dc_status_t dc_store_outbox_count(dc_store_t *s, int *count, dc_error_t *err);

/* ---- exports (store/export.c) ----------------------------------------- */

/*
 * What a report over [from, to) needs, in one read transaction: the cases
 * reported in it, those not closed or withdrawn (by the cached state) and
 * those with an outcome or a vote event, ordered by id; the ids of the
 * last kind in *full (int64_t, ascending); and events in no order:
 * every event of a case in *full, of any other case only "open"
 * (data NULL) and the events that decide access and participation
 * (participant, conflict, recuse, undo, erasure), of cases perhaps not
 * in *cases.  Events come without their hashes.
 */
dc_status_t dc_store_report_load(dc_store_t *s, int64_t from, int64_t to,
				 GPtrArray **cases, GArray **full,
				 GPtrArray **events, dc_error_t *err);
/* Set an event's data to NULL: the one change the log allows. */
dc_status_t dc_store_event_erase(dc_store_t *s, int64_t id, dc_error_t *err);
dc_status_t dc_store_case_clear_subject(dc_store_t *s, int64_t id,
					dc_error_t *err);
/* Checkpoint the WAL, VACUUM, checkpoint again (outside a transaction). */
dc_status_t dc_store_compact(dc_store_t *s, dc_error_t *err);

/* ---- the shared log (store/sync.c; core/sync/sync.h) ----------------- */

typedef struct dc_store_remote {
	char *name;
	char *url;
	char *trust_root; /* ssh public key whose membership starts the trust */
	int64_t last_sync; /* 0: never */
} dc_store_remote_t;

void dc_store_remote_free(dc_store_remote_t *r);
/* Insert or replace (last_sync is kept). */
dc_status_t dc_store_remote_put(dc_store_t *s, const dc_store_remote_t *r,
				dc_error_t *err);
/* By name; *out frees its elements. */
dc_status_t dc_store_remote_list(dc_store_t *s, GPtrArray **out,
				 dc_error_t *err);
dc_status_t dc_store_remote_delete(dc_store_t *s, const char *name,
				   dc_error_t *err);
dc_status_t dc_store_remote_synced(dc_store_t *s, const char *name,
				   int64_t at, dc_error_t *err);

/* An envelope of the shared log, sent or taken. */
typedef struct dc_store_envelope {
	char *hash;
	int64_t event_id; /* 0: sealed (no key to it here) */
	int64_t lamport;
	char *case_gid;   /* NULL: not about one case */
	char *author;     /* the key id of its author */
	char *type;
	int64_t at;
	char *origin;     /* "local" or "remote" */
	char *body;       /* local ones not in a commit yet; else NULL */
	char *commit_id;
} dc_store_envelope_t;

void dc_store_envelope_free(dc_store_envelope_t *e);
dc_status_t dc_store_envelope_put(dc_store_t *s, const dc_store_envelope_t *e,
				  dc_error_t *err);
/* DC_E_NOT_FOUND when there is none. */
dc_status_t dc_store_envelope_get(dc_store_t *s, const char *hash,
				  dc_store_envelope_t **out, dc_error_t *err);
dc_status_t dc_store_envelope_of_event(dc_store_t *s, int64_t event_id,
				       dc_store_envelope_t **out,
				       dc_error_t *err);
/* In the merged order (lamport, hash); unsent: only this store's own not
 * yet in a commit. */
dc_status_t dc_store_envelope_list(dc_store_t *s, int unsent,
				   GPtrArray **out, dc_error_t *err);
/* The envelope is in commit (its body is dropped). */
dc_status_t dc_store_envelope_committed(dc_store_t *s, const char *hash,
					const char *commit, dc_error_t *err);
dc_status_t dc_store_envelope_max_lamport(dc_store_t *s, int64_t *out,
					  dc_error_t *err);
/* Events of cases and of membership that no envelope carries yet, by
 * id: what the next sync shares. */
dc_status_t dc_store_events_unshared(dc_store_t *s, GPtrArray **out,
				     dc_error_t *err);
/* How many of them there are. */
dc_status_t dc_store_events_unshared_count(dc_store_t *s, int64_t *out,
					   dc_error_t *err);
/* The last push to remote took this member's commit; how many of this
 * member's envelopes were written after it (all, before a first push). */
dc_status_t dc_store_sync_pushed_put(dc_store_t *s, const char *remote,
				     const char *commit, dc_error_t *err);
dc_status_t dc_store_envelopes_unpushed_count(dc_store_t *s,
					      const char *remote,
					      int64_t *out, dc_error_t *err);

/* A case's global id (the hash of its opening envelope). */
dc_status_t dc_store_sync_case_put(dc_store_t *s, int64_t case_id,
				   const char *gid, dc_error_t *err);
/* DC_E_NOT_FOUND when the case has none / no case has it. */
dc_status_t dc_store_sync_case_gid(dc_store_t *s, int64_t case_id, char **gid,
				   dc_error_t *err);
dc_status_t dc_store_sync_case_id(dc_store_t *s, const char *gid,
				  int64_t *case_id, dc_error_t *err);

/* A data key: an age identity and its recipient. */
typedef struct dc_store_sync_key {
	char *recipient; /* "age1..." */
	char *secret;    /* "AGE-SECRET-KEY-1..." */
	char *case_gid;  /* the case it seals (NULL: none) */
	int64_t reported_at;
} dc_store_sync_key_t;

void dc_store_sync_key_free(dc_store_sync_key_t *k);
dc_status_t dc_store_sync_key_put(dc_store_t *s, const dc_store_sync_key_t *k,
				  dc_error_t *err);
/* DC_E_NOT_FOUND when there is none. */
dc_status_t dc_store_sync_key_get(dc_store_t *s, const char *recipient,
				  dc_store_sync_key_t **out, dc_error_t *err);
dc_status_t dc_store_sync_key_list(dc_store_t *s, GPtrArray **out,
				   dc_error_t *err);
/* The keys of one case (by its global id), and forgetting them all. */
dc_status_t dc_store_sync_keys_of_case(dc_store_t *s, const char *gid,
				       GPtrArray **out, dc_error_t *err);
dc_status_t dc_store_sync_keys_forget(dc_store_t *s, const char *gid,
				      dc_error_t *err);

/* The newest commit imported or written of a ref; *commit NULL: none. */
dc_status_t dc_store_sync_ref_get(dc_store_t *s, const char *ref,
				  char **commit, dc_error_t *err);
dc_status_t dc_store_sync_ref_put(dc_store_t *s, const char *ref,
				  const char *commit, dc_error_t *err);

/* ---- internal to store/ (store.c <-> migrate.c); not for callers ------ */

struct sqlite3;
/* Apply the pending migrations to db; path is for messages.  With
 * backup, an older store is first copied to PATH.schemaN. */
dc_status_t dc_store_migrate(struct sqlite3 *db, const char *path, int backup,
			     int *migrated_from, dc_error_t *err);
/* DC_OK when db's schema is this binary's; DC_E_INVALID when older (no
 * write), DC_E_DATA when newer. */
dc_status_t dc_store_schema_check(struct sqlite3 *db, const char *path,
				  dc_error_t *err);
/* The connection, for the other store/ files. */
struct sqlite3 *dc_store_db(dc_store_t *s);
/* Turn SQLite result code rc on db into a status and a message. */
dc_status_t dc_store_sqlite_fail(struct sqlite3 *db, int rc, const char *path,
				 const char *what, dc_error_t *err);

#endif
