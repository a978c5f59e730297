// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Migration runner.  store/migrations/NNN-name.sql are compiled in (the
 * Makefile writes build/migrations.inc); migration N is the Nth file and
 * PRAGMA user_version records the last one applied.
 */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/store.h"

static const struct {
	const char *name;
	const char *sql;
} migrations[] = {
#include "migrations.inc"
};

#define N_MIGRATIONS ((int)(sizeof(migrations) / sizeof(migrations[0])))

int
dc_store_latest_version(void)
{
	return N_MIGRATIONS;
}

/* "007-foo.sql" -> 7; -1 when the name does not start with NNN-. */
static int
name_version(const char *name)
{
	for (int i = 0; i < 3; i++)
		if (name[i] < '0' || name[i] > '9')
			return -1;
	if (name[3] != '-')
		return -1;
	return atoi(name);
}

/* A gap or duplicate would silently skip or repeat a schema change. */
static dc_status_t
check_sequence(dc_error_t *err)
{
	for (int i = 0; i < N_MIGRATIONS; i++)
		if (name_version(migrations[i].name) != i + 1)
			return dc_fail(
			    err, DC_E_DATA,
			    "migration %s is out of sequence (expected "
			    "%03d-*.sql): this decorum was built wrongly",
			    migrations[i].name, i + 1);
	return DC_OK;
}

/* Run one constant statement that returns no rows we need. */
static int
run(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		;
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int
read_version(sqlite3 *db, int *version)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL);

	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*version = sqlite3_column_int(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

static dc_status_t
too_new(const char *path, int version, dc_error_t *err)
{
	return dc_fail(err, DC_E_DATA,
		       "%s was created by a newer decorum (schema version %d, "
		       "this one knows up to %d); upgrade decorum",
		       path, version, N_MIGRATIONS);
}

/*
 * Apply migration number version + 1.  The caller holds BEGIN IMMEDIATE.
 * PRAGMA takes no bound parameters, so user_version is the one statement
 * we format; the value is our own loop counter, never outside input.
 */
static int
apply(sqlite3 *db, int version)
{
	char pragma[64];
	int rc = sqlite3_exec(db, migrations[version].sql, NULL, NULL, NULL);

	if (rc != SQLITE_OK)
		return rc;
	snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d",
		 version + 1);
	return run(db, pragma);
}

/*
 * One transaction per step.  The version is read again under the write
 * lock: another process opening the same new store may have migrated it
 * while we waited.  *done is set once nothing is left to apply.
 */
static dc_status_t
step(sqlite3 *db, const char *path, bool *done, dc_error_t *err)
{
	char what[128] = "migrating";
	int version = 0, rc;
	dc_status_t st;

	rc = run(db, "BEGIN IMMEDIATE");
	if (rc != SQLITE_OK)
		return dc_store_sqlite_fail(db, rc, path, what, err);
	rc = read_version(db, &version);
	if (rc == SQLITE_OK && version > N_MIGRATIONS) {
		run(db, "ROLLBACK");
		return too_new(path, version, err);
	}
	if (rc == SQLITE_OK && version < N_MIGRATIONS) {
		snprintf(what, sizeof(what), "applying migration %s",
			 migrations[version].name);
		rc = apply(db, version);
	}
	if (rc == SQLITE_OK)
		rc = run(db, "COMMIT");
	if (rc != SQLITE_OK) {
		/* The message first: ROLLBACK would overwrite errmsg. */
		st = dc_store_sqlite_fail(db, rc, path, what, err);
		if (!sqlite3_get_autocommit(db))
			run(db, "ROLLBACK");
		return st;
	}
	*done = version + 1 >= N_MIGRATIONS;
	return DC_OK;
}

/*
 * Copy the store as it is to PATH.schemaN before a migration changes it,
 * created 0600 like the store.  A copy already there (an earlier try at
 * the same upgrade) is kept as it is.  VACUUM INTO writes a consistent
 * snapshot even while others read; it cannot run inside a transaction, so
 * another process migrating at the same moment may make the copy newer
 * than its name says, never older.
 */
static dc_status_t
backup(sqlite3 *db, const char *path, int version, dc_error_t *err)
{
	char *copy = g_strdup_printf("%s.schema%d", path, version);
	sqlite3_stmt *q = NULL;
	dc_status_t st = DC_OK;
	struct stat sb;
	int fd, rc;

	fd = open(copy, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0 && errno == EEXIST && lstat(copy, &sb) == 0 &&
	    S_ISREG(sb.st_mode) && sb.st_size > 0)
		goto out;
	if (fd < 0 && errno != EEXIST) {
		st = dc_fail(err, DC_E_IO, "keeping a copy of %s as %s: %s",
			     path, copy, g_strerror(errno));
		goto out;
	}
	if (fd >= 0 && fchmod(fd, 0600) != 0) {
		st = dc_fail(err, DC_E_IO, "setting the mode of %s: %s", copy,
			     g_strerror(errno));
		close(fd);
		goto out;
	}
	if (fd >= 0)
		close(fd);
	rc = sqlite3_prepare_v2(db, "VACUUM INTO ?1", -1, &q, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(q, 1, copy, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(q);
	if (rc != SQLITE_DONE) {
		st = dc_store_sqlite_fail(db, rc, path, "keeping a copy", err);
		unlink(copy); /* ours, made empty above */
	}
out:
	sqlite3_finalize(q);
	g_free(copy);
	return st;
}

dc_status_t
dc_store_schema_check(sqlite3 *db, const char *path, dc_error_t *err)
{
	int version = 0, rc = read_version(db, &version);

	if (rc != SQLITE_OK)
		return dc_store_sqlite_fail(db, rc, path,
					    "reading the schema version", err);
	if (version > N_MIGRATIONS)
		return too_new(path, version, err);
	if (version < N_MIGRATIONS)
		return dc_fail(err, DC_E_INVALID,
			       "%s was written by an older decorum (schema "
			       "version %d, this one uses %d)",
			       path, version, N_MIGRATIONS);
	return DC_OK;
}

dc_status_t
dc_store_migrate(sqlite3 *db, const char *path, int keep_copy,
		 int *migrated_from, dc_error_t *err)
{
	int version = 0, rc;
	bool done;
	dc_status_t st;

	*migrated_from = 0;

	st = check_sequence(err);
	if (st != DC_OK)
		return st;
	/* Without a lock first: an up-to-date store needs no write. */
	rc = read_version(db, &version);
	if (rc != SQLITE_OK)
		return dc_store_sqlite_fail(db, rc, path,
					    "reading the schema version", err);
	if (version > N_MIGRATIONS)
		return too_new(path, version, err);
	done = version == N_MIGRATIONS;
	if (!done && keep_copy && version > 0 &&
	    (st = backup(db, path, version, err)) != DC_OK)
		return st;
	if (!done)
		*migrated_from = version;
	while (!done) {
		st = step(db, path, &done, err);
		if (st != DC_OK)
			return st;
	}
	return DC_OK;
}
