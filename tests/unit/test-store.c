// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * store/: opening, permissions, migrations, cases, the append-only log and
 * locking, each test against a fresh store in its own temporary directory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <ftw.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/store.h"

struct fx {
	char *dir;  /* temporary directory */
	char *path; /* dir/decorum.db */
};

static int
rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static int
setup(void **state)
{
	struct fx *f = g_new0(struct fx, 1);

	f->dir = g_dir_make_tmp("test-store-XXXXXX", NULL);
	assert_non_null(f->dir);
	f->path = g_build_filename(f->dir, "decorum.db", NULL);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *f = *state;

	nftw(f->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	g_free(f->path);
	g_free(f->dir);
	g_free(f);
	return 0;
}

static dc_store_t *
open_ok(const char *path)
{
	dc_error_t err = {0};
	dc_store_t *s = NULL;
	dc_status_t st = dc_store_open(path, &s, &err);

	if (st != DC_OK)
		fail_msg("dc_store_open(%s): %s", path, err.msg);
	assert_non_null(s);
	return s;
}

static sqlite3 *
raw_open(const char *path)
{
	sqlite3 *db = NULL;

	assert_int_equal(
	    sqlite3_open_v2(path, &db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL),
	    SQLITE_OK);
	return db;
}

static mode_t
mode_of(const char *path)
{
	struct stat sb;

	if (stat(path, &sb) != 0)
		fail_msg("stat %s: %s", path, strerror(errno));
	return sb.st_mode & 07777;
}

static int64_t
new_case(dc_store_t *s, const char *kind, const char *state)
{
	dc_error_t err = {0};
	int64_t id = 0;

	assert_int_equal(
	    dc_store_case_insert(s, kind, state, 100, 90, "subj", &id, &err),
	    DC_OK);
	assert_true(id > 0);
	return id;
}

/* ---- opening ---------------------------------------------------------- */

static void
test_create_and_reopen(void **state)
{
	struct fx *f = *state;
	dc_store_case_t *c = NULL;
	dc_store_t *s = open_ok(f->path);
	int64_t id;

	assert_true(dc_store_latest_version() >= 1);
	assert_int_equal(dc_store_schema_version(s), dc_store_latest_version());
	assert_string_equal(dc_store_path(s), f->path);
	id = new_case(s, "tab", "new");
	dc_store_close(s);

	/* A second run of 001 would fail on CREATE TABLE; data must stay. */
	s = open_ok(f->path);
	assert_int_equal(dc_store_schema_version(s), dc_store_latest_version());
	assert_int_equal(dc_store_case_get(s, id, &c, NULL), DC_OK);
	assert_string_equal(c->kind, "tab");
	dc_store_case_free(c);
	dc_store_close(s);
}

static void
test_permissions(void **state)
{
	struct fx *f = *state;
	char *a = g_build_filename(f->dir, "a", NULL);
	char *b = g_build_filename(a, "b", NULL);
	char *d = g_build_filename(b, "decorum", NULL);
	char *path = g_build_filename(d, "decorum.db", NULL);
	char *wal = g_strconcat(path, "-wal", NULL);
	char *shm = g_strconcat(path, "-shm", NULL);
	mode_t old = umask(0);
	dc_store_t *s = open_ok(path);

	umask(old);
	assert_int_equal(mode_of(a), 0700);
	assert_int_equal(mode_of(b), 0700);
	assert_int_equal(mode_of(d), 0700);
	assert_int_equal(mode_of(path), 0600);
	old = umask(0);
	new_case(s, "admonition", "new"); /* a write: -wal and -shm exist */
	umask(old);
	assert_int_equal(mode_of(wal), 0600);
	assert_int_equal(mode_of(shm), 0600);
	dc_store_close(s);
	g_free(shm);
	g_free(wal);
	g_free(path);
	g_free(d);
	g_free(b);
	g_free(a);
}

static void
test_existing_dir_left_alone(void **state)
{
	struct fx *f = *state;

	assert_int_equal(chmod(f->dir, 0750), 0);
	dc_store_close(open_ok(f->path));
	assert_int_equal(mode_of(f->dir), 0750);
}

static void
test_symlink_refused(void **state)
{
	struct fx *f = *state;
	char *target = g_build_filename(f->dir, "target", NULL);
	char *text = NULL;
	dc_error_t err = {0};
	dc_store_t *s = NULL;
	dc_status_t st;

	assert_true(g_file_set_contents(target, "precious\n", -1, NULL));
	assert_int_equal(chmod(target, 0644), 0);
	assert_int_equal(symlink(target, f->path), 0);
	st = dc_store_open(f->path, &s, &err);
	assert_true(st == DC_E_DENIED || st == DC_E_IO);
	assert_null(s);
	assert_non_null(strstr(err.msg, "symbolic link"));
	assert_true(g_file_get_contents(target, &text, NULL, NULL));
	assert_string_equal(text, "precious\n");
	assert_int_equal(mode_of(target), 0644);
	g_free(text);
	g_free(target);
}

/* Only the file itself must not be a link: a linked data dir is fine. */
static void
test_symlinked_dir_ok(void **state)
{
	struct fx *f = *state;
	char *real = g_build_filename(f->dir, "real", NULL);
	char *link = g_build_filename(f->dir, "link", NULL);
	char *path = g_build_filename(link, "decorum.db", NULL);
	char *inreal = g_build_filename(real, "decorum.db", NULL);

	assert_int_equal(mkdir(real, 0700), 0);
	assert_int_equal(symlink(real, link), 0);
	dc_store_close(open_ok(path));
	assert_true(g_file_test(inreal, G_FILE_TEST_IS_REGULAR));
	g_free(inreal);
	g_free(path);
	g_free(link);
	g_free(real);
}

static void
test_newer_schema_refused(void **state)
{
	struct fx *f = *state;
	sqlite3 *db = raw_open(f->path);
	dc_error_t err = {0};
	dc_store_t *s = NULL;

	assert_int_equal(
	    sqlite3_exec(db, "PRAGMA user_version = 999", NULL, NULL, NULL),
	    SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(dc_store_open(f->path, &s, &err), DC_E_DATA);
	assert_null(s);
	assert_non_null(strstr(err.msg, "created by a newer decorum"));
}

/* A migration that fails leaves nothing behind and names itself. */
static void
test_failed_migration_rolls_back(void **state)
{
	struct fx *f = *state;
	sqlite3 *db = raw_open(f->path);
	dc_error_t err = {0};
	dc_store_t *s = NULL;
	sqlite3_stmt *st;

	/* 001 creates cases first, then trips over this. */
	assert_int_equal(
	    sqlite3_exec(db, "CREATE TABLE events (x)", NULL, NULL, NULL),
	    SQLITE_OK);
	assert_int_equal(dc_store_open(f->path, &s, &err), DC_E_DATA);
	assert_null(s);
	assert_non_null(strstr(err.msg, "001-initial.sql"));
	assert_int_equal(sqlite3_prepare_v2(db,
					    "SELECT count(*) FROM sqlite_schema"
					    " WHERE name = 'cases'",
					    -1, &st, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
}

static void
test_not_a_database(void **state)
{
	struct fx *f = *state;
	const char *junk = "From: someone\nSubject: not a database at all\n\n"
			   "This is a mail, not SQLite.  Padding padding "
			   "padding padding padding padding padding.\n";
	char *text = NULL;
	dc_error_t err = {0};
	dc_store_t *s = NULL;

	assert_true(g_file_set_contents(f->path, junk, -1, NULL));
	assert_int_equal(dc_store_open(f->path, &s, &err), DC_E_DATA);
	assert_null(s);
	assert_non_null(strstr(err.msg, f->path));
	assert_true(g_file_get_contents(f->path, &text, NULL, NULL));
	assert_string_equal(text, junk);
	g_free(text);
}

/* Without DC_STORE_CREATE a missing store is not made. */
static void
test_missing_not_created(void **state)
{
	struct fx *f = *state;
	dc_error_t err = {0};
	dc_store_t *s = NULL;

	assert_int_equal(dc_store_open_flags(f->path, DC_STORE_MIGRATE, &s,
					     &err),
			 DC_E_NOT_FOUND);
	assert_null(s);
	assert_non_null(strstr(err.msg, f->path));
	assert_false(g_file_test(f->path, G_FILE_TEST_EXISTS));
}

static int raw_exec(sqlite3 *db, const char *sql);

/* The store an older decorum wrote (tests/corpus/store-v3.sql), WAL as
 * it was. */
static void
load_v3(const char *path)
{
	char *sql = NULL;
	sqlite3 *db = raw_open(path);

	assert_true(g_file_get_contents("tests/corpus/store-v3.sql", &sql,
					NULL, NULL));
	assert_int_equal(raw_exec(db, "PRAGMA journal_mode = WAL"), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	g_free(sql);
	assert_int_equal(chmod(path, 0600), 0);
}

static char *
contents(const char *path)
{
	char *text = NULL;
	gsize n = 0;

	char *b64;

	assert_true(g_file_get_contents(path, &text, &n, NULL));
	b64 = g_base64_encode((const guchar *)text, n);
	g_free(text);
	return b64;
}

/* Reading does not migrate: refused, the file byte for byte as it was;
 * migrating keeps a 0600 copy of the old file first. */
static void
test_older_schema(void **state)
{
	struct fx *f = *state;
	char *copy = g_strconcat(f->path, ".schema3", NULL);
	dc_error_t err = {0};
	dc_store_t *s = NULL;
	char *before, *after;
	struct stat sb;

	load_v3(f->path);
	before = contents(f->path);
	assert_int_equal(dc_store_open_flags(f->path, 0, &s, &err),
			 DC_E_INVALID);
	assert_null(s);
	assert_non_null(strstr(err.msg, "schema version 3, this one uses 5"));
	after = contents(f->path);
	assert_string_equal(before, after);
	assert_false(g_file_test(copy, G_FILE_TEST_EXISTS));

	assert_int_equal(dc_store_open_flags(f->path, DC_STORE_MIGRATE, &s,
					     &err),
			 DC_OK);
	assert_int_equal(dc_store_migrated_from(s), 3);
	assert_int_equal(dc_store_schema_version(s), dc_store_latest_version());
	dc_store_close(s);
	assert_int_equal(stat(copy, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	{
		sqlite3 *db = raw_open(copy);
		sqlite3_stmt *q;

		assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version",
						    -1, &q, NULL),
				 SQLITE_OK);
		assert_int_equal(sqlite3_step(q), SQLITE_ROW);
		assert_int_equal(sqlite3_column_int(q, 0), 3);
		sqlite3_finalize(q);
		sqlite3_close(db);
	}
	/* Up to date now: nothing migrated, readers welcome. */
	assert_int_equal(dc_store_open_flags(f->path, 0, &s, &err), DC_OK);
	assert_int_equal(dc_store_migrated_from(s), 0);
	dc_store_close(s);
	g_free(before);
	g_free(after);
	g_free(copy);
}

static void
test_default_path(void **state)
{
	struct fx *f = *state;
	dc_store_t *s;
	char *p;

	setenv("DECORUM_STORE", f->path, 1);
	p = dc_store_default_path();
	assert_string_equal(p, f->path);
	g_free(p);
	s = open_ok(NULL);
	assert_string_equal(dc_store_path(s), f->path);
	dc_store_close(s);
	assert_true(g_file_test(f->path, G_FILE_TEST_IS_REGULAR));
	unsetenv("DECORUM_STORE");
	p = dc_store_default_path();
	assert_true(g_str_has_suffix(p, "/decorum/decorum.db"));
	g_free(p);
}

/* ---- cases ------------------------------------------------------------ */

/* A thread as the tests use it: one message of it, cached in thread. */
static dc_status_t
add_thread(dc_store_t *s, int64_t case_id, const char *thread, int64_t at,
	   dc_error_t *err)
{
	char *mid = g_strdup_printf("%s@example.org", thread);
	dc_store_mail_t m = { .case_id = case_id, .message_id = mid,
			      .scope = "thread", .added_at = at,
			      .thread_id = (char *)thread };
	dc_status_t st = dc_store_case_add_mail(s, &m, err);

	g_free(mid);
	return st;
}

static void
test_cases(void **state)
{
	struct fx *f = *state;
	dc_store_t *s = open_ok(f->path);
	dc_store_case_t *c = NULL;
	dc_error_t err = {0};
	GPtrArray *all = NULL;
	int64_t a, b;

	a = new_case(s, "admonition", "new");
	b = new_case(s, "escalation", "new");
	assert_int_equal(add_thread(s, a, "t2", 50, &err), DC_OK);
	assert_int_equal(add_thread(s, a, "t1", 60, &err), DC_OK);
	/* Again: harmless, and keeps the first added_at and order. */
	assert_int_equal(add_thread(s, a, "t2", 70, &err), DC_OK);
	assert_int_equal(dc_store_case_update(s, a, NULL, "triaged", 200, &err),
			 DC_OK);

	assert_int_equal(dc_store_case_get(s, a, &c, &err), DC_OK);
	assert_int_equal(c->id, a);
	assert_string_equal(c->kind, "admonition");
	assert_string_equal(c->state, "triaged");
	assert_int_equal(c->created_at, 100);
	assert_int_equal(c->updated_at, 200);
	assert_int_equal(c->reported_at, 90);
	assert_string_equal(c->subject, "subj");
	assert_int_equal(c->threads->len, 2);
	assert_string_equal(g_ptr_array_index(c->threads, 0), "t2");
	assert_string_equal(g_ptr_array_index(c->threads, 1), "t1");
	dc_store_case_free(c);

	assert_int_equal(dc_store_case_list(s, &all, &err), DC_OK);
	assert_int_equal(all->len, 2);
	c = g_ptr_array_index(all, 1);
	assert_int_equal(c->id, b);
	assert_string_equal(c->kind, "escalation");
	assert_int_equal(c->threads->len, 0);
	g_ptr_array_unref(all);
	dc_store_close(s);
}

static void
test_case_errors(void **state)
{
	struct fx *f = *state;
	dc_store_t *s = open_ok(f->path);
	dc_store_case_t *c = NULL;
	dc_error_t err = {0};
	int64_t id = 0;

	assert_int_equal(dc_store_case_get(s, 42, &c, &err), DC_E_NOT_FOUND);
	assert_null(c);
	assert_int_equal(dc_store_case_update(s, 42, "tab", "x", 1, &err),
			 DC_E_NOT_FOUND);
	assert_int_equal(add_thread(s, 42, "t", 1, &err),
			 DC_E_NOT_FOUND);
	assert_int_equal(
	    dc_store_case_insert(s, "bogus", "new", 1, 1, NULL, &id, &err),
	    DC_E_INVALID);
	assert_int_equal(dc_store_case_find_open(s, "nope", &id, &err),
			 DC_E_NOT_FOUND);
	dc_store_case_free(NULL);
	dc_store_close(s);
}

static void
test_find_open(void **state)
{
	struct fx *f = *state;
	dc_store_t *s = open_ok(f->path);
	dc_error_t err = {0};
	int64_t old, closed, newest, other, id = 0;

	old = new_case(s, "tab", "new");
	newest = new_case(s, "tab", "new");
	closed = new_case(s, "tab", "closed");
	other = new_case(s, "tab", "new");
	assert_int_equal(add_thread(s, old, "T", 1, &err), DC_OK);
	assert_int_equal(add_thread(s, newest, "T", 2, &err),
			 DC_OK);
	assert_int_equal(add_thread(s, closed, "T", 3, &err),
			 DC_OK);
	assert_int_equal(add_thread(s, other, "U", 4, &err),
			 DC_OK);

	/* The closed case has the highest id but must be skipped. */
	assert_int_equal(dc_store_case_find_open(s, "T", &id, &err), DC_OK);
	assert_int_equal(id, newest);
	assert_int_equal(
	    dc_store_case_update(s, newest, NULL, "closed", 5, &err), DC_OK);
	assert_int_equal(dc_store_case_find_open(s, "T", &id, &err), DC_OK);
	assert_int_equal(id, old);
	assert_int_equal(dc_store_case_update(s, old, NULL, "closed", 6, &err),
			 DC_OK);
	assert_int_equal(dc_store_case_find_open(s, "T", &id, &err),
			 DC_E_NOT_FOUND);
	dc_store_close(s);
}

/* ---- events ----------------------------------------------------------- */

static dc_status_t
append(dc_store_t *s, int64_t case_id, const char *type, const char *prev,
       const char *hash, int64_t *id, dc_error_t *err)
{
	dc_store_event_t ev = {
	    .case_id = case_id,
	    .at = 1000,
	    .actor = (char *)"alice",
	    .type = (char *)type,
	    .data = (char *)"{\"k\":1}",
	    .data_sha256 = (char *)"d5",
	    .prev_hash = (char *)prev,
	    .hash = (char *)hash,
	};

	return dc_store_event_append(s, &ev, id, err);
}

static void
test_events(void **state)
{
	struct fx *f = *state;
	dc_store_t *s = open_ok(f->path);
	dc_store_event_t *e;
	dc_error_t err = {0};
	GPtrArray *all = NULL;
	char *last = NULL;
	int64_t c, id1 = 0, id2 = 0, id3 = 0;

	assert_int_equal(dc_store_event_last_hash(s, &last, &err), DC_OK);
	assert_string_equal(last, "");
	g_free(last);
	c = new_case(s, "tab", "new");
	assert_int_equal(append(s, c, "open", "", "h1", &id1, &err), DC_OK);
	assert_int_equal(append(s, 0, "config", "h1", "h2", &id2, &err), DC_OK);
	assert_int_equal(append(s, c, "note", "h2", "h3", &id3, &err), DC_OK);
	assert_true(id1 < id2 && id2 < id3);
	assert_int_equal(dc_store_event_last_hash(s, &last, &err), DC_OK);
	assert_string_equal(last, "h3");
	g_free(last);

	/* A fork of the chain and an unknown case are refused. */
	assert_int_equal(append(s, c, "note", "h1", "h4", NULL, &err),
			 DC_E_INVALID);
	assert_non_null(strstr(err.msg, "hash chain"));
	assert_int_equal(append(s, 77, "note", "h3", "h4", NULL, &err),
			 DC_E_NOT_FOUND);

	assert_int_equal(dc_store_event_list(s, 0, &all, &err), DC_OK);
	assert_int_equal(all->len, 3);
	e = g_ptr_array_index(all, 1);
	assert_int_equal(e->id, id2);
	assert_int_equal(e->case_id, 0);
	assert_string_equal(e->type, "config");
	assert_string_equal(e->prev_hash, "h1");
	g_ptr_array_unref(all);

	assert_int_equal(dc_store_event_list(s, c, &all, &err), DC_OK);
	assert_int_equal(all->len, 2);
	e = g_ptr_array_index(all, 0);
	assert_int_equal(e->id, id1);
	assert_int_equal(e->case_id, c);
	assert_int_equal(e->at, 1000);
	assert_string_equal(e->actor, "alice");
	assert_string_equal(e->data, "{\"k\":1}");
	assert_string_equal(e->data_sha256, "d5");
	assert_string_equal(e->hash, "h1");
	assert_string_equal(
	    ((dc_store_event_t *)g_ptr_array_index(all, 1))->hash, "h3");
	g_ptr_array_unref(all);
	dc_store_event_free(NULL);
	dc_store_close(s);
}

static int
raw_exec(sqlite3 *db, const char *sql)
{
	return sqlite3_exec(db, sql, NULL, NULL, NULL);
}

static void
test_append_only(void **state)
{
	struct fx *f = *state;
	dc_store_t *s = open_ok(f->path);
	dc_error_t err = {0};
	GPtrArray *all = NULL;
	dc_store_event_t *e;
	sqlite3 *db;

	assert_int_equal(append(s, 0, "open", "", "h1", NULL, &err), DC_OK);
	db = raw_open(f->path);
	assert_int_not_equal(raw_exec(db, "UPDATE events SET type = 'x'"),
			     SQLITE_OK);
	assert_non_null(strstr(sqlite3_errmsg(db), "append-only"));
	assert_int_not_equal(raw_exec(db, "DELETE FROM events"), SQLITE_OK);
	assert_non_null(strstr(sqlite3_errmsg(db), "append-only"));
	/* Erasure must not smuggle in another change. */
	assert_int_not_equal(raw_exec(db, "UPDATE events SET data = NULL,"
					  " data_sha256 = 'x'"),
			     SQLITE_OK);
	assert_int_equal(raw_exec(db, "UPDATE events SET data = NULL"),
			 SQLITE_OK);
	/* Once erased, stays erased. */
	assert_int_not_equal(raw_exec(db, "UPDATE events SET data = 'back'"),
			     SQLITE_OK);
	sqlite3_close(db);

	assert_int_equal(dc_store_event_list(s, 0, &all, &err), DC_OK);
	assert_int_equal(all->len, 1);
	e = g_ptr_array_index(all, 0);
	assert_null(e->data);
	assert_string_equal(e->type, "open");
	assert_string_equal(e->data_sha256, "d5");
	g_ptr_array_unref(all);
	dc_store_close(s);
}

/* ---- transactions ----------------------------------------------------- */

static void
test_transactions(void **state)
{
	struct fx *f = *state;
	dc_store_t *s = open_ok(f->path);
	dc_store_case_t *c = NULL;
	dc_error_t err = {0};
	int64_t a, b;

	assert_int_equal(dc_store_begin(s, &err), DC_OK);
	assert_int_equal(dc_store_begin(s, &err), DC_E_USAGE);
	a = new_case(s, "tab", "new");
	dc_store_rollback(s);
	assert_int_equal(dc_store_case_get(s, a, &c, &err), DC_E_NOT_FOUND);

	assert_int_equal(dc_store_begin(s, &err), DC_OK);
	b = new_case(s, "tab", "new");
	assert_int_equal(dc_store_commit(s, &err), DC_OK);
	assert_int_equal(dc_store_case_get(s, b, &c, &err), DC_OK);
	dc_store_case_free(c);
	dc_store_rollback(s); /* nothing open: a no-op */
	dc_store_close(s);
}

static void
test_locked(void **state)
{
	struct fx *f = *state;
	dc_store_t *s = open_ok(f->path);
	dc_error_t err = {0};
	int64_t id = 0;
	sqlite3 *db = raw_open(f->path);

	dc_store_set_busy_timeout(s, 50);
	assert_int_equal(raw_exec(db, "BEGIN IMMEDIATE"), SQLITE_OK);
	assert_int_equal(dc_store_begin(s, &err), DC_E_LOCKED);
	assert_non_null(strstr(err.msg, "locked by another process"));
	assert_int_equal(
	    dc_store_case_insert(s, "tab", "new", 1, 1, NULL, &id, &err),
	    DC_E_LOCKED);
	assert_int_equal(raw_exec(db, "ROLLBACK"), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(dc_store_begin(s, &err), DC_OK);
	assert_int_equal(dc_store_commit(s, &err), DC_OK);
	dc_store_close(s);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_create_and_reopen),
	    T(test_permissions),
	    T(test_existing_dir_left_alone),
	    T(test_symlink_refused),
	    T(test_symlinked_dir_ok),
	    T(test_newer_schema_refused),
	    T(test_failed_migration_rolls_back),
	    T(test_not_a_database),
	    T(test_missing_not_created),
	    T(test_older_schema),
	    T(test_default_path),
	    T(test_cases),
	    T(test_case_errors),
	    T(test_find_open),
	    T(test_events),
	    T(test_append_only),
	    T(test_transactions),
	    T(test_locked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
