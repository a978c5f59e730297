/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Statement helpers shared by the files of store/ (not for callers
 * outside it): prepare with a message on failure, finish with the status
 * of the last step, bind and read text.  Every statement decorum runs is
 * prepared here with bound parameters.
 */
#ifndef DC_STORE_SQL_H
#define DC_STORE_SQL_H

#include <sqlite3.h>

#include "store/store.h"

dc_status_t dc_sql_prepare(dc_store_t *s, const char *sql, sqlite3_stmt **st,
			   const char *what, dc_error_t *err);
/* Finalize st; rc is the result of its last step (or of a bind). */
dc_status_t dc_sql_finish(dc_store_t *s, sqlite3_stmt *st, int rc,
			  const char *what, dc_error_t *err);
/* Prepare and run a statement that has no parameters and no rows. */
dc_status_t dc_sql_exec(dc_store_t *s, const char *sql, const char *what,
			dc_error_t *err);
/*
 * Prepare sql and bind ?1, ?2, ... from the arguments, one letter of
 * types each: 'i' an int64_t, 's' a const char * (NULL binds NULL).
 */
dc_status_t dc_sql_prepare_bind(dc_store_t *s, const char *sql,
				sqlite3_stmt **st, const char *what,
				dc_error_t *err, const char *types, ...);
/* The same, then run it: a statement without rows. */
dc_status_t dc_sql_run(dc_store_t *s, const char *sql, const char *what,
		       dc_error_t *err, const char *types, ...);
/* One row of a result as a new object, for dc_sql_list. */
typedef gpointer (*dc_sql_row_fn)(sqlite3_stmt *st);
/*
 * Prepare sql, bind as dc_sql_prepare_bind, and collect every row as
 * row(st) into *out, a new array that frees them with free_fn; *out is
 * NULL on failure.
 */
dc_status_t dc_sql_list(dc_store_t *s, const char *sql, dc_sql_row_fn row,
			GDestroyNotify free_fn, GPtrArray **out,
			const char *what, dc_error_t *err, const char *types,
			...);
/* The same for a statement already prepared (and bound); finishes st. */
dc_status_t dc_sql_collect(dc_store_t *s, sqlite3_stmt *st, dc_sql_row_fn row,
			   GDestroyNotify free_fn, GPtrArray **out,
			   const char *what, dc_error_t *err);
/* NULL binds NULL, which is what sqlite3_bind_text does with it. */
int dc_sql_bind_text(sqlite3_stmt *st, int i, const char *v);
/* A text column as a new string, NULL for SQL NULL. */
char *dc_sql_column_dup(sqlite3_stmt *st, int i);

/*
 * One statement for cases and their threads, so that a writer committing
 * in between cannot give us a case without its newest thread.
 */
#define CASE_SELECT                                                            \
	"SELECT c.id, c.kind, c.state, c.created_at, c.updated_at,"            \
	" c.reported_at, c.subject, m.message_id, m.scope, m.role,"            \
	" m.added_at, m.thread_id, m.case_id FROM cases c"                     \
	" LEFT JOIN case_mail m ON m.case_id = c.id"
#define CASE_ORDER " ORDER BY c.id, m.added_at, m.rowid"

/*
 * Read the rows of a CASE_SELECT statement (ordered by case id: a new id
 * starts a new case) into out (dc_store_case_t *), and finish st.
 */
dc_status_t dc_sql_read_cases(dc_store_t *s, sqlite3_stmt *st, GPtrArray *out,
			      const char *what, dc_error_t *err);

/*
 * Append the case_mail columns at col.. of the current row (message_id,
 * scope, role, added_at, thread_id, case_id) to c->mail, and the thread
 * to c->threads when it is a thread-scope message in a thread not listed
 * yet.
 */
void dc_sql_case_add_mail_row(dc_store_case_t *c, sqlite3_stmt *st, int col);
dc_store_mail_t *dc_sql_mail_from_row(sqlite3_stmt *st, int col);

#endif
