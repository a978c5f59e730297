// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The case store: one SQLite file holding cases and the event log.
 *
 * The store holds reports about people, so it is private by construction:
 * the file is created 0600 (SQLite gives -wal and -shm the mode of the
 * database file) and any directory we create is 0700, whatever the umask.
 * A symlink at the database path is refused so that nobody can point it
 * at a file of their choosing.
 */
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/sql.h"
#include "store/store.h"

#define BUSY_TIMEOUT_MS 5000

struct dc_store {
	sqlite3 *db;
	char *path;   /* as given, for messages */
	char *viewer; /* who is looking; see dc_store_set_viewer */
	int migrated_from; /* schema before this open migrated it, or 0 */
};

dc_status_t
dc_store_sqlite_fail(sqlite3 *db, int rc, const char *path, const char *what,
		     dc_error_t *err)
{
	const char *msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);

	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return dc_fail(err, DC_E_LOCKED,
			       "%s: the case store %s is locked by another "
			       "process; try again later",
			       what, path);
	case SQLITE_FULL:
	case SQLITE_IOERR:
	case SQLITE_CANTOPEN:
	case SQLITE_READONLY:
	case SQLITE_PERM: {
		/* SQLite says "disk I/O error" or "unable to open database
		 * file"; the system's reason (no space, read-only file
		 * system) is what the user can act on. */
		int e = db ? sqlite3_system_errno(db) : 0;

		if (e)
			return dc_fail(err, DC_E_IO, "%s: %s: %s (%s)", what,
				       path, msg, g_strerror(e));
		return dc_fail(err, DC_E_IO, "%s: %s: %s", what, path, msg);
	}
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		return dc_fail(err, DC_E_DATA,
			       "%s: %s is not a usable decorum database: %s",
			       what, path, msg);
	case SQLITE_CONSTRAINT:
		return dc_fail(err, DC_E_INVALID, "%s: %s", what, msg);
	case SQLITE_NOMEM:
		return dc_fail(err, DC_E_NOMEM, "%s: out of memory", what);
	}
	return dc_fail(err, DC_E_DATA, "%s: %s: %s", what, path, msg);
}

/* ---- statement helpers ------------------------------------------------ */

static dc_status_t
fail(dc_store_t *s, int rc, const char *what, dc_error_t *err)
{
	return dc_store_sqlite_fail(s->db, rc, s->path, what, err);
}

dc_status_t
dc_sql_prepare(dc_store_t *s, const char *sql, sqlite3_stmt **st,
	       const char *what, dc_error_t *err)
{
	int rc = sqlite3_prepare_v2(s->db, sql, -1, st, NULL);

	if (rc != SQLITE_OK) {
		*st = NULL;
		return fail(s, rc, what, err);
	}
	return DC_OK;
}

/* Finalize st; rc is the result of its last step (or of a bind). */
dc_status_t
dc_sql_finish(dc_store_t *s, sqlite3_stmt *st, int rc, const char *what,
	      dc_error_t *err)
{
	dc_status_t ret = DC_OK;

	/* The message before finalizing, which may reset it. */
	if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
		ret = fail(s, rc, what, err);
	sqlite3_finalize(st);
	return ret;
}

/* Prepare and run a statement that has no parameters and no rows. */
dc_status_t
dc_sql_exec(dc_store_t *s, const char *sql, const char *what, dc_error_t *err)
{
	sqlite3_stmt *st;
	dc_status_t ret = dc_sql_prepare(s, sql, &st, what, err);

	if (ret != DC_OK)
		return ret;
	return dc_sql_finish(s, st, sqlite3_step(st), what, err);
}

/* NULL binds NULL, which is what sqlite3_bind_text does with it. */
int
dc_sql_bind_text(sqlite3_stmt *st, int i, const char *v)
{
	return sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
}

static int
bind_va(sqlite3_stmt *st, const char *types, va_list ap)
{
	int rc = SQLITE_OK, i;

	for (i = 0; types[i] && rc == SQLITE_OK; i++) {
		if (types[i] == 'i')
			rc = sqlite3_bind_int64(st, i + 1, va_arg(ap, int64_t));
		else
			rc = dc_sql_bind_text(st, i + 1,
					      va_arg(ap, const char *));
	}
	return rc;
}

/*
 * Prepare sql and bind its parameters ?1, ?2, ... from the arguments,
 * one letter of types each: 'i' an int64_t, 's' a const char * (NULL
 * binds NULL).  On failure st is finalized and NULL.
 */
dc_status_t
dc_sql_prepare_bind(dc_store_t *s, const char *sql, sqlite3_stmt **st,
		    const char *what, dc_error_t *err, const char *types, ...)
{
	dc_status_t ret = dc_sql_prepare(s, sql, st, what, err);
	va_list ap;
	int rc;

	if (ret != DC_OK)
		return ret;
	va_start(ap, types);
	rc = bind_va(*st, types, ap);
	va_end(ap);
	if (rc != SQLITE_OK) {
		ret = dc_sql_finish(s, *st, rc, what, err);
		*st = NULL;
	}
	return ret;
}

/* Prepare, bind (as dc_sql_prepare_bind) and run a statement without
 * rows. */
dc_status_t
dc_sql_run(dc_store_t *s, const char *sql, const char *what, dc_error_t *err,
	   const char *types, ...)
{
	sqlite3_stmt *st = NULL;
	dc_status_t ret = dc_sql_prepare(s, sql, &st, what, err);
	va_list ap;
	int rc;

	if (ret != DC_OK)
		return ret;
	va_start(ap, types);
	rc = bind_va(st, types, ap);
	va_end(ap);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	return dc_sql_finish(s, st, rc, what, err);
}

dc_status_t
dc_sql_collect(dc_store_t *s, sqlite3_stmt *st, dc_sql_row_fn row,
	       GDestroyNotify free_fn, GPtrArray **out, const char *what,
	       dc_error_t *err)
{
	GPtrArray *all = g_ptr_array_new_with_free_func(free_fn);
	dc_status_t ret;
	int rc;

	*out = NULL;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		g_ptr_array_add(all, row(st));
	ret = dc_sql_finish(s, st, rc, what, err);
	if (ret != DC_OK)
		g_ptr_array_unref(all);
	else
		*out = all;
	return ret;
}

dc_status_t
dc_sql_list(dc_store_t *s, const char *sql, dc_sql_row_fn row,
	    GDestroyNotify free_fn, GPtrArray **out, const char *what,
	    dc_error_t *err, const char *types, ...)
{
	sqlite3_stmt *st = NULL;
	dc_status_t ret;
	va_list ap;
	int rc;

	*out = NULL;
	ret = dc_sql_prepare(s, sql, &st, what, err);
	if (ret != DC_OK)
		return ret;
	va_start(ap, types);
	rc = bind_va(st, types, ap);
	va_end(ap);
	if (rc != SQLITE_OK)
		return dc_sql_finish(s, st, rc, what, err);
	return dc_sql_collect(s, st, row, free_fn, out, what, err);
}

char *
dc_sql_column_dup(sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return NULL;
	return g_strdup((const char *)sqlite3_column_text(st, i));
}

static bool
foreign_key_failed(dc_store_t *s)
{
	return sqlite3_extended_errcode(s->db) == SQLITE_CONSTRAINT_FOREIGNKEY;
}

/* ---- opening ---------------------------------------------------------- */

char *
dc_store_default_path(void)
{
	const char *env = g_getenv("DECORUM_STORE");

	if (env && *env)
		return g_strdup(env);
	return g_build_filename(g_get_user_data_dir(), "decorum", "decorum.db",
				NULL);
}

/* Directories that already exist are the user's business: left alone. */
static dc_status_t
make_dir(const char *dir, dc_error_t *err)
{
	struct stat sb;
	int e;

	if (mkdir(dir, 0700) == 0) {
		/* An odd umask (0200, say) could leave it unusable. */
		if (chmod(dir, 0700) != 0)
			return dc_fail(err, DC_E_IO,
				       "setting the mode of %s: %s", dir,
				       g_strerror(errno));
		return DC_OK;
	}
	e = errno;
	if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode))
		return DC_OK;
	return dc_fail(err, DC_E_IO, "creating directory %s: %s", dir,
		       g_strerror(e));
}

static dc_status_t
make_dirs(const char *dir, dc_error_t *err)
{
	char *p = g_strdup(dir);
	size_t len = strlen(p);
	dc_status_t st = DC_OK;

	for (size_t i = 1; i <= len && st == DC_OK; i++) {
		char c = p[i];

		if (c != '/' && c != '\0')
			continue;
		p[i] = '\0';
		st = make_dir(p, err);
		p[i] = c;
	}
	g_free(p);
	return st;
}

/*
 * SQLITE_OPEN_NOFOLLOW refuses a symlink anywhere in the path, but a
 * symlinked home or data directory is the user's choice.  Resolve the
 * directory, so that only the database file itself must not be a link.
 */
static dc_status_t
resolve(const char *path, char **real, dc_error_t *err)
{
	char *dir = g_path_get_dirname(path);
	char *base = g_path_get_basename(path);
	char *rdir = NULL;
	dc_status_t st = make_dirs(dir, err);

	if (st == DC_OK && !(rdir = realpath(dir, NULL)))
		st = dc_fail(err, DC_E_IO, "resolving %s: %s", dir,
			     g_strerror(errno));
	if (st == DC_OK)
		*real = g_build_filename(rdir, base, NULL);
	free(rdir);
	g_free(base);
	g_free(dir);
	return st;
}

/* Create the file ourselves so that it is 0600 from the first byte.
 * *created says whether this call made it. */
static dc_status_t
create_file(const char *path, const char *real, int *created, dc_error_t *err)
{
	struct stat sb;
	int fd;

	if (lstat(real, &sb) == 0) {
		if (S_ISLNK(sb.st_mode))
			return dc_fail(err, DC_E_DENIED,
				       "refusing to open %s: it is a symbolic "
				       "link",
				       path);
		if (!S_ISREG(sb.st_mode))
			return dc_fail(err, DC_E_IO, "%s is not a regular file",
				       path);
		return DC_OK;
	}
	fd = open(real, O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	/* EEXIST: created since lstat; SQLite's NOFOLLOW checks it again. */
	if (fd < 0 && errno == EEXIST)
		return DC_OK;
	if (fd < 0)
		return dc_fail(err, DC_E_IO, "creating %s: %s", path,
			       g_strerror(errno));
	if (fchmod(fd, 0600) != 0) {
		int e = errno;

		close(fd);
		return dc_fail(err, DC_E_IO, "setting the mode of %s: %s", path,
			       g_strerror(e));
	}
	/* Closed before SQLite opens it: closing any descriptor of a file
	 * drops the process's POSIX locks on it, SQLite's included. */
	close(fd);
	*created = 1;
	return DC_OK;
}

/*
 * SQLite needs to create the WAL and shared-memory files beside the store
 * even to read it, and says only "unable to open database file" when it
 * cannot: say why (a read-only file system, usually) before it tries.
 */
static dc_status_t
check_writable_dir(const char *path, const char *real, dc_error_t *err)
{
	char *dir = g_path_get_dirname(real);
	int bad = access(dir, W_OK) != 0;
	int e = errno;

	g_free(dir);
	if (bad)
		return dc_fail(err, DC_E_IO,
			       "opening the case store: cannot write beside "
			       "%s: %s",
			       path, g_strerror(e));
	return DC_OK;
}

/* A store this process created but could not set up (disk full, ...) is
 * removed, so that no empty or half-made database is left behind. */
static void
remove_new_store(const char *real)
{
	static const char *const suffix[] = {"", "-wal", "-shm", "-journal"};
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(suffix); i++) {
		char *p = g_strconcat(real, suffix[i], NULL);

		unlink(p);
		g_free(p);
	}
}

static dc_status_t
check_wal(dc_store_t *s, dc_error_t *err)
{
	const char *what = "opening the case store";
	sqlite3_stmt *st;
	dc_status_t ret =
	    dc_sql_prepare(s, "PRAGMA journal_mode = WAL", &st, what, err);
	int rc;

	if (ret != DC_OK)
		return ret;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW &&
	    g_ascii_strcasecmp((const char *)sqlite3_column_text(st, 0),
			       "wal") != 0) {
		ret = dc_fail(err, DC_E_IO,
			      "%s: %s stays in journal mode %s (a network file "
			      "system?)",
			      what, s->path, sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
		return ret;
	}
	return dc_sql_finish(s, st, rc, what, err);
}

/*
 * WAL lets readers (the TUI) work while a command writes; FULL sync because
 * a lost event breaks the hash chain; secure_delete so deleted or erased
 * text does not linger in free pages.
 */
static dc_status_t
configure(dc_store_t *s, dc_error_t *err)
{
	const char *what = "opening the case store";
	dc_status_t st;

	sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
	sqlite3_extended_result_codes(s->db, 1);
	/* Nothing here writes the schema by hand; refuse it outright. */
	sqlite3_db_config(s->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	st = check_wal(s, err);
	if (st == DC_OK)
		st = dc_sql_exec(s, "PRAGMA synchronous = FULL", what, err);
	if (st == DC_OK)
		st = dc_sql_exec(s, "PRAGMA foreign_keys = ON", what, err);
	if (st == DC_OK)
		st = dc_sql_exec(s, "PRAGMA secure_delete = ON", what, err);
	return st;
}

static int
read_int(sqlite3 *db, const char *sql, int *out)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*out = sqlite3_column_int(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

/*
 * Before anything writes (even PRAGMA journal_mode does): a file that is
 * there but not a decorum store (empty, another program's SQLite
 * database, not SQLite at all) is refused and left byte for byte as it
 * is.
 */
static dc_status_t
check_ours(dc_store_t *s, const char *real, int created, dc_error_t *err)
{
	struct stat sb;
	int tables = 0, events = 0, rc;

	if (created)
		return DC_OK;
	if (stat(real, &sb) == 0 && sb.st_size == 0)
		return dc_fail(err, DC_E_DATA,
			       "%s is an empty file, not a decorum store; "
			       "left as it is",
			       s->path);
	rc = read_int(s->db, "SELECT count(*) FROM sqlite_master", &tables);
	if (rc == SQLITE_OK)
		rc = read_int(s->db,
			      "SELECT count(*) FROM sqlite_master"
			      " WHERE type = 'table' AND name = 'events'",
			      &events);
	if (rc == SQLITE_NOTADB)
		return dc_fail(err, DC_E_DATA,
			       "%s is not a decorum store (not an SQLite "
			       "database); left as it is",
			       s->path);
	if (rc != SQLITE_OK)
		return fail(s, rc, "opening the case store", err);
	/* Ours always has events; a file with none is someone else's. */
	if (tables > 0 && !events)
		return dc_fail(err, DC_E_DATA,
			       "%s is an SQLite database but not a decorum "
			       "store; left as it is",
			       s->path);
	return DC_OK;
}

static dc_status_t
connect_db(dc_store_t *s, const char *real, int created, dc_error_t *err)
{
	int rc = sqlite3_open_v2(
	    real, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL);
	dc_status_t st;

	if (rc != SQLITE_OK)
		return fail(s, rc, "opening the case store", err);
	st = check_ours(s, real, created, err);
	return st != DC_OK ? st : configure(s, err);
}

/* Without DC_STORE_CREATE: the file must be there. */
static dc_status_t
must_exist(const char *path, const char *real, dc_error_t *err)
{
	struct stat sb;

	if (lstat(real, &sb) == 0 || errno != ENOENT)
		return DC_OK; /* create_file() judges what is there */
	return dc_fail(err, DC_E_NOT_FOUND, "there is no case store at %s",
		       path);
}

dc_status_t
dc_store_open_flags(const char *path, int flags, dc_store_t **out,
		    dc_error_t *err)
{
	dc_store_t *s;
	char *real = NULL;
	int created = 0;
	dc_status_t st;

	if (!out || (path && !*path))
		return dc_fail(err, DC_E_USAGE, "no path for the case store");
	*out = NULL;
	s = g_new0(dc_store_t, 1);
	s->path = path ? g_strdup(path) : dc_store_default_path();
	st = resolve(s->path, &real, err);
	if (st == DC_OK && !(flags & DC_STORE_CREATE))
		st = must_exist(s->path, real, err);
	if (st == DC_OK)
		st = check_writable_dir(s->path, real, err);
	if (st == DC_OK)
		st = create_file(s->path, real, &created, err);
	if (st == DC_OK)
		st = connect_db(s, real, created, err);
	/* A new file has nothing to keep a copy of. */
	if (st == DC_OK && (created || (flags & DC_STORE_MIGRATE)))
		st = dc_store_migrate(s->db, s->path, !created,
				      &s->migrated_from, err);
	else if (st == DC_OK)
		st = dc_store_schema_check(s->db, s->path, err);
	if (st != DC_OK) {
		dc_store_close(s);
		if (created)
			remove_new_store(real);
		g_free(real);
		return st;
	}
	g_free(real);
	*out = s;
	return DC_OK;
}

dc_status_t
dc_store_open(const char *path, dc_store_t **out, dc_error_t *err)
{
	return dc_store_open_flags(path, DC_STORE_CREATE | DC_STORE_MIGRATE,
				   out, err);
}

void
dc_store_close(dc_store_t *s)
{
	if (!s)
		return;
	sqlite3_close(s->db); /* rolls back an open transaction */
	g_free(s->path);
	g_free(s->viewer);
	g_free(s);
}

int
dc_store_migrated_from(const dc_store_t *s)
{
	return s->migrated_from;
}

const char *
dc_store_path(const dc_store_t *s)
{
	return s->path;
}

void
dc_store_set_viewer(dc_store_t *s, const char *viewer)
{
	g_free(s->viewer);
	s->viewer = viewer && *viewer ? g_strdup(viewer) : NULL;
}

const char *
dc_store_viewer(const dc_store_t *s)
{
	return s->viewer;
}

sqlite3 *
dc_store_db(dc_store_t *s)
{
	return s->db;
}

void
dc_store_set_busy_timeout(dc_store_t *s, int ms)
{
	sqlite3_busy_timeout(s->db, ms);
}

/* -1 when it cannot be read. */
int
dc_store_schema_version(dc_store_t *s)
{
	sqlite3_stmt *st;
	int version = -1;

	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) !=
	    SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return version;
}

/* ---- transactions ----------------------------------------------------- */

/* IMMEDIATE takes the write lock now, so a busy store fails here, before
 * the caller has done any work, rather than at the first write. */
dc_status_t
dc_store_begin(dc_store_t *s, dc_error_t *err)
{
	if (!sqlite3_get_autocommit(s->db))
		return dc_fail(err, DC_E_USAGE,
			       "a transaction is already open on %s", s->path);
	return dc_sql_exec(s, "BEGIN IMMEDIATE", "starting a transaction", err);
}

dc_status_t
dc_store_commit(dc_store_t *s, dc_error_t *err)
{
	return dc_sql_exec(s, "COMMIT", "saving changes", err);
}

void
dc_store_rollback(dc_store_t *s)
{
	if (s && !sqlite3_get_autocommit(s->db))
		dc_sql_exec(s, "ROLLBACK", "rolling back", NULL);
}

/* ---- cases ------------------------------------------------------------ */

void
dc_store_case_free(dc_store_case_t *c)
{
	if (!c)
		return;
	g_free(c->kind);
	g_free(c->state);
	g_free(c->subject);
	if (c->threads)
		g_ptr_array_unref(c->threads);
	if (c->mail)
		g_ptr_array_unref(c->mail);
	g_free(c);
}

static void
case_free_cb(gpointer c)
{
	dc_store_case_free(c);
}

dc_status_t
dc_store_case_insert(dc_store_t *s, const char *kind, const char *state,
		     int64_t created_at, int64_t reported_at,
		     const char *subject, int64_t *id_out, dc_error_t *err)
{
	const char *what = "adding a case";
	sqlite3_stmt *st;
	dc_status_t ret;

	if (!kind || !state)
		return dc_fail(err, DC_E_USAGE, "%s: no kind or state", what);
	ret = dc_sql_prepare(
	    s,
	    "INSERT INTO cases (kind, state, created_at, updated_at,"
	    " reported_at, subject) VALUES (?1, ?2, ?3, ?3, ?4, ?5)",
	    &st, what, err);
	if (ret != DC_OK)
		return ret;
	if (dc_sql_bind_text(st, 1, kind) || dc_sql_bind_text(st, 2, state) ||
	    sqlite3_bind_int64(st, 3, created_at) ||
	    sqlite3_bind_int64(st, 4, reported_at) ||
	    dc_sql_bind_text(st, 5, subject))
		return dc_sql_finish(s, st, sqlite3_errcode(s->db), what, err);
	ret = dc_sql_finish(s, st, sqlite3_step(st), what, err);
	if (ret == DC_OK && id_out)
		*id_out = sqlite3_last_insert_rowid(s->db);
	return ret;
}

dc_status_t
dc_store_case_update(dc_store_t *s, int64_t id, const char *kind,
		     const char *state, int64_t updated_at, dc_error_t *err)
{
	const char *what = "updating a case";
	sqlite3_stmt *st;
	dc_status_t ret;

	ret = dc_sql_prepare(s,
			     "UPDATE cases SET kind = COALESCE(?2, kind),"
			     " state = COALESCE(?3, state), updated_at = ?4"
			     " WHERE id = ?1",
			     &st, what, err);
	if (ret != DC_OK)
		return ret;
	if (sqlite3_bind_int64(st, 1, id) || dc_sql_bind_text(st, 2, kind) ||
	    dc_sql_bind_text(st, 3, state) ||
	    sqlite3_bind_int64(st, 4, updated_at))
		return dc_sql_finish(s, st, sqlite3_errcode(s->db), what, err);
	ret = dc_sql_finish(s, st, sqlite3_step(st), what, err);
	if (ret == DC_OK && sqlite3_changes(s->db) == 0)
		return dc_fail(err, DC_E_NOT_FOUND, "no case #%lld",
			       (long long)id);
	return ret;
}

static dc_store_case_t *
case_from_row(sqlite3_stmt *st)
{
	dc_store_case_t *c = g_new0(dc_store_case_t, 1);

	c->id = sqlite3_column_int64(st, 0);
	c->kind = dc_sql_column_dup(st, 1);
	c->state = dc_sql_column_dup(st, 2);
	c->created_at = sqlite3_column_int64(st, 3);
	c->updated_at = sqlite3_column_int64(st, 4);
	c->reported_at = sqlite3_column_int64(st, 5);
	c->subject = dc_sql_column_dup(st, 6);
	c->mail = g_ptr_array_new_with_free_func(dc_store_mail_free_cb);
	c->threads = g_ptr_array_new_with_free_func(g_free);
	return c;
}

dc_status_t
dc_sql_read_cases(dc_store_t *s, sqlite3_stmt *st, GPtrArray *out, const char *what,
	   dc_error_t *err)
{
	dc_store_case_t *c = NULL;
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!c || c->id != sqlite3_column_int64(st, 0)) {
			c = case_from_row(st);
			g_ptr_array_add(out, c);
		}
		if (sqlite3_column_type(st, 7) != SQLITE_NULL)
			dc_sql_case_add_mail_row(c, st, 7);
	}
	return dc_sql_finish(s, st, rc, what, err);
}

dc_status_t
dc_store_case_get(dc_store_t *s, int64_t id, dc_store_case_t **out,
		  dc_error_t *err)
{
	const char *what = "reading a case";
	GPtrArray *all;
	sqlite3_stmt *st;
	dc_status_t ret;

	*out = NULL;
	ret = dc_sql_prepare(s, CASE_SELECT " WHERE c.id = ?1" CASE_ORDER, &st,
			     what, err);
	if (ret != DC_OK)
		return ret;
	if (sqlite3_bind_int64(st, 1, id))
		return dc_sql_finish(s, st, sqlite3_errcode(s->db), what, err);
	all = g_ptr_array_new_with_free_func(case_free_cb);
	ret = dc_sql_read_cases(s, st, all, what, err);
	if (ret == DC_OK && all->len == 0)
		ret = dc_fail(err, DC_E_NOT_FOUND, "no case #%lld",
			      (long long)id);
	if (ret == DC_OK)
		*out = g_ptr_array_steal_index(all, 0);
	g_ptr_array_unref(all);
	return ret;
}

dc_status_t
dc_store_case_list(dc_store_t *s, GPtrArray **out, dc_error_t *err)
{
	const char *what = "listing cases";
	GPtrArray *all;
	sqlite3_stmt *st;
	dc_status_t ret;

	*out = NULL;
	ret = dc_sql_prepare(s, CASE_SELECT CASE_ORDER, &st, what, err);
	if (ret != DC_OK)
		return ret;
	all = g_ptr_array_new_with_free_func(case_free_cb);
	ret = dc_sql_read_cases(s, st, all, what, err);
	if (ret != DC_OK) {
		g_ptr_array_unref(all);
		return ret;
	}
	*out = all;
	return DC_OK;
}

/* ---- events ----------------------------------------------------------- */

void
dc_store_event_free(dc_store_event_t *e)
{
	if (!e)
		return;
	g_free(e->actor);
	g_free(e->type);
	g_free(e->data);
	g_free(e->data_sha256);
	g_free(e->prev_hash);
	g_free(e->hash);
	g_free(e);
}

static void
event_free_cb(gpointer e)
{
	dc_store_event_free(e);
}

static int
bind_event(sqlite3_stmt *st, const dc_store_event_t *ev)
{
	/* case_id 0 is "about no case": NULL, which the foreign key allows. */
	int rc = ev->case_id ? sqlite3_bind_int64(st, 1, ev->case_id)
			     : sqlite3_bind_null(st, 1);

	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 2, ev->at);
	if (rc == SQLITE_OK)
		rc = dc_sql_bind_text(st, 3, ev->actor);
	if (rc == SQLITE_OK)
		rc = dc_sql_bind_text(st, 4, ev->type);
	if (rc == SQLITE_OK)
		rc = dc_sql_bind_text(st, 5, ev->data);
	if (rc == SQLITE_OK)
		rc = dc_sql_bind_text(st, 6, ev->data_sha256);
	if (rc == SQLITE_OK)
		rc = dc_sql_bind_text(st, 7, ev->prev_hash);
	if (rc == SQLITE_OK)
		rc = dc_sql_bind_text(st, 8, ev->hash);
	return rc;
}

/* The chain trigger in 001 refuses an event whose prev_hash is not the
 * newest hash: call inside a transaction with dc_store_event_last_hash. */
dc_status_t
dc_store_event_append(dc_store_t *s, const dc_store_event_t *ev,
		      int64_t *id_out, dc_error_t *err)
{
	const char *what = "recording an event";
	sqlite3_stmt *st;
	dc_status_t ret;
	int rc;

	if (!ev || !ev->actor || !ev->type || !ev->data_sha256 ||
	    !ev->prev_hash || !ev->hash)
		return dc_fail(err, DC_E_USAGE, "%s: incomplete event", what);
	ret =
	    dc_sql_prepare(s,
			   "INSERT INTO events (case_id, at, actor, type, data,"
			   " data_sha256, prev_hash, hash)"
			   " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
			   &st, what, err);
	if (ret != DC_OK)
		return ret;
	rc = bind_event(st, ev);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc != SQLITE_DONE && foreign_key_failed(s)) {
		sqlite3_finalize(st);
		return dc_fail(err, DC_E_NOT_FOUND, "%s: no case #%lld", what,
			       (long long)ev->case_id);
	}
	ret = dc_sql_finish(s, st, rc, what, err);
	if (ret == DC_OK && id_out)
		*id_out = sqlite3_last_insert_rowid(s->db);
	return ret;
}

dc_status_t
dc_store_event_last_hash(dc_store_t *s, char **hash_out, dc_error_t *err)
{
	const char *what = "reading the newest event";
	sqlite3_stmt *st;
	dc_status_t ret;
	int rc;

	*hash_out = NULL;
	ret = dc_sql_prepare(s,
			     "SELECT hash FROM events ORDER BY id DESC LIMIT 1",
			     &st, what, err);
	if (ret != DC_OK)
		return ret;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*hash_out = dc_sql_column_dup(st, 0);
	else if (rc == SQLITE_DONE)
		*hash_out = g_strdup("");
	return dc_sql_finish(s, st, rc, what, err);
}

static dc_store_event_t *
event_from_row(sqlite3_stmt *st)
{
	dc_store_event_t *e = g_new0(dc_store_event_t, 1);

	e->id = sqlite3_column_int64(st, 0);
	e->case_id = sqlite3_column_int64(st, 1); /* NULL reads as 0 */
	e->at = sqlite3_column_int64(st, 2);
	e->actor = dc_sql_column_dup(st, 3);
	e->type = dc_sql_column_dup(st, 4);
	e->data = dc_sql_column_dup(st, 5);
	e->data_sha256 = dc_sql_column_dup(st, 6);
	e->prev_hash = dc_sql_column_dup(st, 7);
	e->hash = dc_sql_column_dup(st, 8);
	e->lamport = sqlite3_column_int64(st, 9); /* NULL reads as 0 */
	return e;
}

#define EVENT_SELECT                                                           \
	"SELECT e.id, e.case_id, e.at, e.actor, e.type, e.data,"              \
	" e.data_sha256, e.prev_hash, e.hash, y.lamport FROM events e"                          \
	" LEFT JOIN sync_envelopes y ON y.event_id = e.id"

dc_status_t
dc_store_event_list(dc_store_t *s, int64_t case_id, GPtrArray **out,
		    dc_error_t *err)
{
	const char *what = "reading the event log";
	GPtrArray *all;
	sqlite3_stmt *st;
	dc_status_t ret;
	int rc = SQLITE_OK;

	*out = NULL;
	ret = dc_sql_prepare(s,
			     /* A case replays in the merged order of the
			      * committee's log (core/sync/sync.h); events
			      * not shared yet follow, in the order made. */
			     case_id ? EVENT_SELECT
				 " WHERE e.case_id = ?1 ORDER BY"
				 " y.lamport IS NULL, y.lamport, y.hash, e.id"
				     : EVENT_SELECT " ORDER BY e.id",
			     &st, what, err);
	if (ret != DC_OK)
		return ret;
	if (case_id)
		rc = sqlite3_bind_int64(st, 1, case_id);
	all = g_ptr_array_new_with_free_func(event_free_cb);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		g_ptr_array_add(all, event_from_row(st));
		rc = SQLITE_OK;
	}
	ret = dc_sql_finish(s, st, rc, what, err);
	if (ret != DC_OK) {
		g_ptr_array_unref(all);
		return ret;
	}
	*out = all;
	return DC_OK;
}
