// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Migration runner.  store/migrations/NNN-name.sql are compiled in (the
 * Makefile writes build/migrations.inc); migration N is the Nth file and
 * PRAGMA user_version records the last one applied.
 */
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

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

dc_status_t
dc_store_migrate(sqlite3 *db, const char *path, dc_error_t *err)
{
	int version = 0, rc;
	bool done;
	dc_status_t st;

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
	while (!done) {
		st = step(db, path, &done, err);
		if (st != DC_OK)
			return st;
	}
	return DC_OK;
}
