// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Mail access through libnotmuch (index, threads, tags) and GMime (parsing
 * the message files for decoded headers and bodies).
 */
#include <errno.h>
#include <unistd.h>
#include <fcntl.h>
#include <gmime/gmime.h>
#include <notmuch.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/clock.h"
#include "core/mail/mail.h"
#include "core/mail/message.h"

struct dc_mail {
	notmuch_database_t *db;
	notmuch_database_mode_t mode;
	char *user_email;
	char *html_filter;
};

/*
 * A thread search walks the matching messages in the list's order and
 * builds a row at each thread met for the first time: libnotmuch's own
 * thread search reads every match and every message of every matched
 * thread before the first row, so the first screen would cost what the
 * archive costs.  See dc_thread_iter_next().
 *
 * Even the walk sorts every match before its first message: Xapian's
 * sort by value has no limit through libnotmuch, and on an archive of
 * small threads that sort is most of what "notmuch search" costs.  So,
 * newest first, the walk goes through windows of time that grow back
 * from now: a day, then twice as long each time, the last one open
 * (window_next()).  The windows follow one another without a gap, so
 * the order is the whole walk's, exactly.  A window above every date in
 * the index costs nothing (Xapian knows the bounds of a value), and the
 * rest cost what they hold; a window leaves out the threads already
 * given, whose messages would only be skipped (the long threads that
 * come first run through many windows).  Oldest first walks the whole
 * query: the first screen of an archive is rarely its oldest mail.
 */
struct dc_thread_iter {
	notmuch_query_t *query;		/* the matching messages, sorted */
	notmuch_messages_t *messages;
	notmuch_threads_t *threads;	/* a pure negation: notmuch's search */
	dc_mail_t *m;
	char *query_string;
	notmuch_sort_t sort;
	GHashTable *seen;		/* thread ids given */
	GPtrArray *given;		/* the same, in order */
	int restarted;			/* the walk was begun again */
	int windowed;			/* newest first, in windows of time */
	int64_t lo, hi;			/* the window: lo <= date <= hi */
	int top_open, bottom_open;	/* no upper, no lower bound */
	int64_t span;			/* the window's length */
};

/* The first window's length, and the longest before the last (open). */
#define WINDOW_FIRST 86400
#define WINDOW_LAST ((int64_t)200 * 365 * 86400)
/* At most so many threads already given are left out of a window. */
#define GIVEN_LEFT_OUT 256

/*
 * GMime is set up once for the process and never shut down: it cannot
 * be set up again after g_mime_shutdown(), and a command may close its
 * mail and build a message afterwards (case reply), or open mail twice.
 */
void
dc_mail_gmime_hold(void)
{
	static gsize ready;

	if (g_once_init_enter(&ready)) {
		g_mime_init();
		g_once_init_leave(&ready, 1);
	}
}

dc_status_t
dc_notmuch_fail(dc_error_t *err, int status, const char *what,
		const char *detail)
{
	notmuch_status_t st = status;
	dc_status_t code = DC_E_DATA;
	char *d;

	switch (st) {
	case NOTMUCH_STATUS_OUT_OF_MEMORY:
		code = DC_E_NOMEM;
		break;
	case NOTMUCH_STATUS_FILE_ERROR:
	case NOTMUCH_STATUS_NO_CONFIG:
	case NOTMUCH_STATUS_NO_DATABASE:
	case NOTMUCH_STATUS_PATH_ERROR:
	case NOTMUCH_STATUS_READ_ONLY_DATABASE:
		code = DC_E_IO;
		break;
	case NOTMUCH_STATUS_XAPIAN_EXCEPTION:
		/* Xapian reports a held write lock this way, and a read
		 * that another process's commits kept overtaking. */
		if (detail && strstr(detail, "lock"))
			code = DC_E_LOCKED;
		else if (detail && (strstr(detail, "DatabaseModifiedError") ||
				    strstr(detail, "has been discarded")))
			return dc_fail(err, DC_E_LOCKED,
				       "%s: the notmuch database kept changing "
				       "while it was read (notmuch new "
				       "running?); try again",
				       what);
		break;
	case NOTMUCH_STATUS_BAD_QUERY_SYNTAX:
		code = DC_E_USAGE;
		break;
	default:
		break;
	}
	if (code == DC_E_LOCKED)
		return dc_fail(err, code,
			       "%s: the notmuch database is locked (notmuch "
			       "new running?)",
			       what);
	d = g_strchomp(g_strdup(detail ? detail : ""));
	dc_fail(err, code, "%s: %s%s%s", what, notmuch_status_to_string(st),
		*d ? ": " : "", d);
	g_free(d);
	return code;
}

/*
 * Is the Xapian write lock of the database open in db held by another
 * process?  libnotmuch built with retry_lock opens read-write with
 * DB_RETRY_LOCK, which waits as long as the lock is held (a long
 * "notmuch new"), so a writer asks first: Xapian holds an fcntl lock on
 * xapian/flintlock, which F_GETLK sees.  A lock taken between this look
 * and the open is still waited for; that window is short.
 */
static int
xapian_locked(notmuch_database_t *db)
{
	const char *dirs[2] = {
		notmuch_database_get_path(db),
		notmuch_config_get(db, NOTMUCH_CONFIG_DATABASE_PATH),
	};
	static const char *const rel[] = { ".notmuch/xapian/flintlock",
					   "xapian/flintlock" };
	int i, k, locked = 0, found = 0;

	for (i = 0; i < 2 && !found; i++) {
		for (k = 0; k < 2 && !found && dirs[i]; k++) {
			char *path = g_build_filename(dirs[i], rel[k], NULL);
			struct flock fl = { .l_type = F_WRLCK,
					    .l_whence = SEEK_SET };
			int fd = open(path, O_RDONLY | O_CLOEXEC);

			g_free(path);
			if (fd < 0)
				continue;
			found = 1;
			if (fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK)
				locked = 1;
			close(fd);
		}
	}
	return locked;
}

static dc_status_t
open_failed(dc_error_t *err, notmuch_status_t st, const char *config,
	    const char *msg)
{
	const char *env = getenv("NOTMUCH_CONFIG");

	if (st == NOTMUCH_STATUS_NO_CONFIG && config && *config)
		return dc_fail(err, DC_E_IO,
			       "%s: no such notmuch configuration file (given "
			       "with --config)",
			       config);
	if (st == NOTMUCH_STATUS_NO_CONFIG && !config && env && *env)
		return dc_fail(err, DC_E_IO,
			       "%s: no such notmuch configuration file (named "
			       "by NOTMUCH_CONFIG)",
			       env);
	if (st == NOTMUCH_STATUS_NO_CONFIG)
		return dc_fail(err, DC_E_IO,
			       "no notmuch configuration found (set "
			       "NOTMUCH_CONFIG, or use --config FILE or --db "
			       "PATH)");
	return dc_notmuch_fail(err, st, "opening the notmuch database", msg);
}

dc_status_t
dc_notmuch_open(const dc_mail_opts_t *opts, int writable, void **out,
		dc_error_t *err)
{
	const char *config = opts->config_path;
	notmuch_database_t *db = NULL;
	notmuch_status_t st;
	char *msg = NULL;
	dc_status_t r = DC_OK;

	*out = NULL;
	/* A bare database: like "notmuch --config=''", read no config file. */
	if (opts->db_path && !config)
		config = "";
	st = notmuch_database_open_with_config(
	    opts->db_path, NOTMUCH_DATABASE_MODE_READ_ONLY, config,
	    opts->profile, &db, &msg);
	if (st == NOTMUCH_STATUS_SUCCESS && writable) {
		int locked = xapian_locked(db);

		notmuch_database_destroy(db);
		db = NULL;
		if (locked) {
			free(msg);
			return dc_fail(err, DC_E_LOCKED,
				       "opening the notmuch database: it is "
				       "locked (notmuch new running?)");
		}
		free(msg);
		msg = NULL;
		st = notmuch_database_open_with_config(
		    opts->db_path, NOTMUCH_DATABASE_MODE_READ_WRITE, config,
		    opts->profile, &db, &msg);
	}
	if (st != NOTMUCH_STATUS_SUCCESS)
		r = open_failed(err, st, config, msg);
	else
		*out = db;
	free(msg);
	return r;
}

void
dc_notmuch_close(void *db)
{
	if (db)
		notmuch_database_destroy(db);
}

/*
 * A read handle sees the revision it was opened at, and Xapian keeps only
 * one older revision readable: once another process (the tag mirror,
 * "notmuch tag", "notmuch new") has committed twice, the handle's reads
 * fail with a DatabaseModifiedError, which libnotmuch hands out as
 * NOTMUCH_STATUS_XAPIAN_EXCEPTION with Xapian's message in the status
 * string.  Such a handle is reopened and the call retried once.
 */
static int
nm_stale_db(notmuch_database_t *db, notmuch_status_t st)
{
	const char *why;

	if (st != NOTMUCH_STATUS_XAPIAN_EXCEPTION)
		return 0;
	why = notmuch_database_status_string(db);
	return why && (strstr(why, "DatabaseModifiedError") ||
		       strstr(why, "has been discarded") ||
		       strstr(why, "reopen()"));
}

/* Reopen a stale handle; 1 when the call should be retried. */
static int
nm_reopen_if_stale(dc_mail_t *m, notmuch_status_t st)
{
	return nm_stale_db(m->db, st) &&
	       notmuch_database_reopen(m->db, m->mode) ==
		       NOTMUCH_STATUS_SUCCESS;
}

/*
 * libnotmuch 0.37 does not survive every read on a stale handle: building
 * a thread (notmuch_threads_get) or a message from a revision that is
 * gone throws past its C interface (std::terminate), or hands back a
 * thread it has already freed when its own search failed.  So a read
 * handle is brought to the newest revision before each read that builds
 * threads or messages, and only commits made while that read runs can
 * overtake it.  Reopening an unchanged database reads one small file.
 */
static void
nm_refresh(dc_mail_t *m)
{
	if (m && m->mode == NOTMUCH_DATABASE_MODE_READ_ONLY)
		(void)notmuch_database_reopen(m->db, m->mode);
}

void
dc_mail_refresh(dc_mail_t *m)
{
	nm_refresh(m);
}

/*
 * The same for core's other users of the handle.  Only a reader goes
 * stale (a writer holds the lock, so no one else commits), so the handle
 * is reopened read-only, as libnotmuch itself does when a message's
 * metadata cannot be read.
 */
int
dc_notmuch_reopen_if_stale(void *db, int status)
{
	return db && nm_stale_db(db, status) &&
	       notmuch_database_reopen(db, NOTMUCH_DATABASE_MODE_READ_ONLY) ==
		       NOTMUCH_STATUS_SUCCESS;
}

dc_status_t
dc_notmuch_messages(void *db, const char *qs, int sort,
		    struct _notmuch_query **q, struct _notmuch_messages **msgs,
		    const char *what, dc_error_t *err)
{
	notmuch_status_t nst;
	int tries = 0;

	*msgs = NULL;
	for (;;) {
		*q = NULL;
		nst = notmuch_query_create_with_syntax(
		    db, qs, NOTMUCH_QUERY_SYNTAX_XAPIAN, q);
		if (nst == NOTMUCH_STATUS_SUCCESS) {
			notmuch_query_set_omit_excluded(*q,
							NOTMUCH_EXCLUDE_FALSE);
			notmuch_query_set_sort(*q, sort);
			nst = notmuch_query_search_messages(*q, msgs);
		}
		if (nst == NOTMUCH_STATUS_SUCCESS)
			return DC_OK;
		if (*q)
			notmuch_query_destroy(*q);
		*q = NULL;
		if (++tries >= DC_NOTMUCH_TRIES ||
		    !dc_notmuch_reopen_if_stale(db, nst))
			return dc_notmuch_fail(err, nst, what,
					       notmuch_database_status_string(
						   db));
	}
}

dc_status_t
dc_mail_open(const dc_mail_opts_t *opts, dc_mail_t **out, dc_error_t *err)
{
	void *db = NULL;
	dc_status_t st;
	dc_mail_t *m;

	*out = NULL;
	st = dc_notmuch_open(opts, opts->writable, &db, err);
	if (st != DC_OK)
		return st;
	dc_mail_gmime_hold();
	m = g_new0(dc_mail_t, 1);
	m->db = db;
	m->mode = opts->writable ? NOTMUCH_DATABASE_MODE_READ_WRITE :
				   NOTMUCH_DATABASE_MODE_READ_ONLY;
	m->html_filter = g_strdup(opts->html_filter);
	*out = m;
	return DC_OK;
}

void
dc_mail_close(dc_mail_t *m)
{
	if (!m)
		return;
	notmuch_database_destroy(m->db);
	g_free(m->user_email);
	g_free(m->html_filter);
	g_free(m);
}

const char *
dc_mail_db_path(dc_mail_t *m)
{
	return notmuch_database_get_path(m->db);
}

const char *
dc_mail_user_email(dc_mail_t *m)
{
	const char *v;

	if (!m->user_email) {
		v = notmuch_config_get(m->db, NOTMUCH_CONFIG_PRIMARY_EMAIL);
		if (!v || !*v)
			return NULL;
		m->user_email = g_strdup(v);
	}
	return m->user_email;
}

/*
 * With no user.primary_email set, notmuch makes one up from $EMAIL or
 * else from the login name and the host ("root@localhost"); that last
 * guess names nobody and is not taken for an identity.
 */
static int
domain_is(const char *d, const char *host)
{
	size_t n = strlen(host);

	return n && !g_ascii_strncasecmp(d, host, n) &&
	       (d[n] == '\0' || d[n] == '.');
}

static int
guessed_email(const char *e)
{
	const char *user = g_get_user_name(), *env = getenv("EMAIL");
	size_t n = strlen(user);

	if (env && !strcmp(env, e))
		return 0;
	if (strncmp(e, user, n) || e[n] != '@')
		return 0;
	return domain_is(e + n + 1, "localhost") ||
	       domain_is(e + n + 1, g_get_host_name());
}

char *
dc_mail_config_email(const dc_mail_opts_t *opts)
{
	dc_error_t err = { 0 };
	void *db = NULL;
	char *v = NULL;
	const char *e;

	/*
	 * Opened, not only loaded: notmuch_database_load_config() leaks its
	 * message when there is no configuration, and without a database
	 * there is no mail to act on anyway.
	 */
	if (dc_notmuch_open(opts, 0, &db, &err) == DC_OK) {
		e = notmuch_config_get(db, NOTMUCH_CONFIG_PRIMARY_EMAIL);
		if (e && *e && !guessed_email(e))
			v = g_strdup(e);
		notmuch_database_destroy(db);
	}
	dc_error_clear(&err);
	return v;
}

char *
dc_mail_config_get(dc_mail_t *m, const char *key)
{
	char *v = NULL, *r;

	if (notmuch_database_get_config(m->db, key, &v) != NOTMUCH_STATUS_SUCCESS)
		return NULL;
	r = (v && *v) ? g_strdup(v) : NULL;
	free(v);
	return r;
}

void *
dc_mail_notmuch(dc_mail_t *m)
{
	return m->db;
}

unsigned long
dc_mail_revision(dc_mail_t *m)
{
	return notmuch_database_get_revision(m->db, NULL);
}

unsigned long
dc_mail_version(dc_mail_t *m, char **uuid)
{
	const char *u = NULL;
	unsigned long r;

	nm_refresh(m);
	r = notmuch_database_get_revision(m->db, &u);
	*uuid = g_strdup(u);
	return r;
}

const char *
dc_thread_id_bare(const char *id)
{
	return g_str_has_prefix(id, "thread:") ? id + 7 : id;
}

char *
dc_lore_url(const char *message_id)
{
	char *esc = g_uri_escape_string(message_id, "!$&'()*+,;=:@", FALSE);
	char *url = g_strconcat("https://lore.kernel.org/r/", esc, NULL);

	g_free(esc);
	return url;
}

int
dc_str_array_has(const GPtrArray *a, const char *s)
{
	guint i;

	for (i = 0; a && i < a->len; i++)
		if (!strcmp(a->pdata[i], s))
			return 1;
	return 0;
}

/* ---- search ------------------------------------------------------------ */

static GPtrArray *
tags_collect(notmuch_tags_t *tags)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);

	for (; notmuch_tags_valid(tags); notmuch_tags_move_to_next(tags))
		g_ptr_array_add(a, g_strdup(notmuch_tags_get(tags)));
	/*
	 * Not notmuch_tags_destroy(): the tag list is talloc-referenced by
	 * its message, and freeing a referenced chunk walks the talloc tree
	 * up to its root, which in a deep reply chain is one step per
	 * ancestor (a quarter of the time to show a 1,000-message thread).
	 * The iterator is a child of the message or thread and goes with it.
	 */
	/* notmuch hands tags out sorted already; keep that promise here. */
	return a;
}

static void
query_exclude_config_tags(dc_mail_t *m, notmuch_query_t *q)
{
	notmuch_config_values_t *v;

	v = notmuch_config_get_values(m->db, NOTMUCH_CONFIG_EXCLUDE_TAGS);
	for (; v && notmuch_config_values_valid(v);
	     notmuch_config_values_move_to_next(v))
		notmuch_query_add_tag_exclude(q, notmuch_config_values_get(v));
	if (v)
		notmuch_config_values_destroy(v);
	notmuch_query_set_omit_excluded(q, NOTMUCH_EXCLUDE_TRUE);
}

/* The query q (the whole index when "*" or empty) and'ed with extra. */
static char *
query_and(const char *q, const char *extra)
{
	if (!q || !*q || !strcmp(q, "*"))
		return g_strdup(extra);
	return g_strdup_printf("( %s ) AND %s", q, extra);
}

static notmuch_status_t
query_open(notmuch_database_t *db, const char *qs, notmuch_sort_t sort,
	   notmuch_query_t **out)
{
	notmuch_status_t st;

	st = notmuch_query_create_with_syntax(db, qs,
					      NOTMUCH_QUERY_SYNTAX_XAPIAN, out);
	if (st != NOTMUCH_STATUS_SUCCESS)
		return st;
	notmuch_query_set_sort(*out, sort);
	return NOTMUCH_STATUS_SUCCESS;
}

/*
 * libxapian 1.4.22 (Debian 12) crashes when one of notmuch's field
 * processors rejects its value in a term signed + or - at the start of a
 * query or a group: "notmuch count -date:x", "-subject:/(a/" and
 * "thread:{-date:x}" end in a segfault or an abort (found by
 * tests/fuzz/fuzz-query.c).  So a query with such a sign is first parsed
 * with the signs left out: the processors see the same values, and
 * one they reject is the query's error before the signed form is ever
 * parsed.  A sign is a + or - after the start, white space, "(", "{" (a
 * thread:{...} subquery starts there) or another sign, quoted or not;
 * one inside a value ("subject:/-rc1/", "[+-]") is left alone.
 */
/* Does the character at p let a sign follow it? */
static int
sign_may_follow(const char *p)
{
	gunichar c;

	if (!((guchar)*p & 0x80))
		return strchr(" \t\n\r({", *p) != NULL;
	c = g_utf8_get_char_validated(p, -1);
	return c != (gunichar)-1 && c != (gunichar)-2 &&
	       (g_unichar_isspace(c) ||
		g_unichar_type(c) == G_UNICODE_SPACE_SEPARATOR);
}

/* q without its signs (dropped, so that "thread:{-x}" stays one
 * value), or NULL when it has none.  One pass: a sign after a sign
 * ("--x", "-+x") is a sign too. */
static char *
unsigned_probe(const char *q)
{
	GString *probe = g_string_sized_new(strlen(q));
	int may_sign = 1, changed = 0;
	const char *p = q;

	while (*p) {
		const char *next = g_utf8_find_next_char(p, NULL);
		size_t n = next && *p ? (size_t)(next - p) : strlen(p);

		if ((*p == '-' || *p == '+') && may_sign) {
			changed = 1;
		} else {
			g_string_append_len(probe, p, (gssize)n);
			may_sign = sign_may_follow(p);
		}
		p += n;
	}
	return g_string_free(probe, !changed);
}

/*
 * An empty quoted value after thread: ('thread:""', or a quote that is
 * never closed) makes notmuch's thread processor throw out of a place
 * that cannot throw: std::terminate(), for notmuch count as well.  Found
 * by tests/fuzz/fuzz-query.c.  Looked for anywhere, inside quotes and
 * braces too (a thread:{...} subquery is parsed the same way).
 */
static int
empty_thread_value(const char *q)
{
	const char *p;

	for (p = q; (p = strstr(p, "thread:\"")); p++) {
		const char *v = p + strlen("thread:\"");

		if (p > q && (g_ascii_isalnum(p[-1]) || p[-1] == '_'))
			continue;
		/* "" inside quotes is a quote: the value is empty only when
		 * the quote closes at once and no second quote follows. */
		if (!*v || (v[0] == '"' && v[1] != '"'))
			return 1;
	}
	return 0;
}

/*
 * Control characters have no place in a query, and Xapian's parser reads
 * them as separators that put a sign at the start: refused, like bytes
 * that are not UTF-8.
 */
static dc_status_t
query_text_check(const char *q, dc_error_t *err)
{
	const char *end = NULL, *p;

	if (!g_utf8_validate(q, -1, &end))
		return dc_fail(err, DC_E_USAGE,
			       "bad query: not UTF-8 text (byte %ld)",
			       (long)(end - q) + 1);
	for (p = q; *p; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char(p);

		if (c != '\t' && c != '\n' && c != '\r' &&
		    g_unichar_iscntrl(c))
			return dc_fail(err, DC_E_USAGE,
				       "bad query: a control character "
				       "(U+%04X) at byte %ld",
				       (unsigned)c, (long)(p - q) + 1);
	}
	if (empty_thread_value(q))
		return dc_fail(err, DC_E_USAGE,
			       "bad query: thread: needs a thread id or "
			       "{query}, not an empty string");
	return DC_OK;
}

static notmuch_status_t
query_probe(notmuch_database_t *db, const char *qs)
{
	char *probe = unsigned_probe(qs);
	notmuch_query_t *q = NULL;
	notmuch_status_t st = NOTMUCH_STATUS_SUCCESS;

	if (!probe)
		return st;
	st = notmuch_query_create_with_syntax(db, probe,
					      NOTMUCH_QUERY_SYNTAX_XAPIAN, &q);
	/* Excluding a tag parses the query, and does no more. */
	if (st == NOTMUCH_STATUS_SUCCESS) {
		st = notmuch_query_add_tag_exclude(q, "decorum/probe");
		if (st == NOTMUCH_STATUS_IGNORED)
			st = NOTMUCH_STATUS_SUCCESS;
		notmuch_query_destroy(q);
	}
	g_free(probe);
	return st;
}

static notmuch_status_t
query_threads_once(dc_mail_t *m, const char *qs, notmuch_sort_t sort,
		   notmuch_query_t **q, notmuch_threads_t **threads)
{
	notmuch_status_t st = query_open(m->db, qs, sort, q);

	if (st != NOTMUCH_STATUS_SUCCESS)
		return st;
	query_exclude_config_tags(m, *q);
	st = notmuch_query_search_threads(*q, threads);
	if (st != NOTMUCH_STATUS_SUCCESS) {
		notmuch_query_destroy(*q);
		*q = NULL;
	}
	return st;
}

/* Every thread search goes through here: a stale handle is reopened and
 * the search run once more. */
static notmuch_status_t
query_threads(dc_mail_t *m, const char *qs, notmuch_sort_t sort,
	      notmuch_query_t **q, notmuch_threads_t **threads)
{
	notmuch_status_t st = query_threads_once(m, qs, sort, q, threads);

	if (st != NOTMUCH_STATUS_SUCCESS && nm_reopen_if_stale(m, st))
		st = query_threads_once(m, qs, sort, q, threads);
	return st;
}

/*
 * "QUERY (REASON)": Xapian's reason ("unmatched regex delimiter in
 * '/x'") is the line after "parsing query: " of the database's status
 * string, which also repeats the query as parsed (g_free).
 */
static char *
query_why(dc_mail_t *m, const char *qs)
{
	const char *why = notmuch_database_status_string(m->db);
	const char *p = why ? strstr(why, "parsing query: ") : NULL;
	char *line, *out;

	if (!p)
		return g_strdup(qs);
	p += strlen("parsing query: ");
	line = g_strndup(p, strcspn(p, "\n"));
	out = *line ? g_strdup_printf("%s (%s)", qs, line) : g_strdup(qs);
	g_free(line);
	return out;
}

/*
 * A row is asked for as "( QUERY ) AND thread:ID", and Xapian reads a
 * negation alone in a group ("( -x )", "( NOT x )") as matching nothing,
 * where the same alone at the top matches all but x.  Such a query is
 * left to notmuch's own thread search (the whole archive's cost).
 */
static int
pure_not(const char *q)
{
	char *probe = unsigned_probe(q);

	g_free(probe);
	return probe != NULL ||
	       g_regex_match_simple("(^|[({])\\s*not\\b", q,
				    G_REGEX_CASELESS, 0);
}

/*
 * The walk's query: the user's, in the current window, without the
 * threads already given (their messages would only be skipped, and the
 * long threads listed first run through many windows).
 */
static char *
walk_query(dc_thread_iter_t *it)
{
	GString *x = g_string_new(NULL);
	char *extra, *qs;
	guint i;

	/* The last window is what is not newer than hi: notmuch's
	 * "date:..@hi" leaves out mail dated 0 (no Date, or before 1970). */
	if (it->windowed && !it->bottom_open)
		g_string_append_printf(x, "date:@%" G_GINT64_FORMAT "..", it->lo);
	else if (it->windowed && !it->top_open)
		g_string_append_printf(x, "( NOT date:@%" G_GINT64_FORMAT ".. )",
				       it->hi + 1);
	if (it->windowed && !it->top_open && !it->bottom_open)
		g_string_append_printf(x, "@%" G_GINT64_FORMAT, it->hi);
	if (x->len && it->given->len && it->given->len <= GIVEN_LEFT_OUT) {
		g_string_append(x, " AND NOT ( ");
		for (i = 0; i < it->given->len; i++)
			g_string_append_printf(x, "%sthread:%s", i ? " OR " : "",
					       (char *)it->given->pdata[i]);
		g_string_append(x, " )");
	}
	extra = g_string_free(x, FALSE);
	qs = *extra ? query_and(it->query_string, extra) :
		      g_strdup(it->query_string);
	g_free(extra);
	return qs;
}

/* (Re)start the message walk at its current window. */
static notmuch_status_t
walk_open(dc_thread_iter_t *it)
{
	char *qs = walk_query(it);
	notmuch_status_t st;

	if (it->query)
		notmuch_query_destroy(it->query);
	it->query = NULL;
	it->messages = NULL;
	st = query_open(it->m->db, qs, it->sort, &it->query);
	g_free(qs);
	if (st != NOTMUCH_STATUS_SUCCESS) {
		it->query = NULL;
		return st;
	}
	query_exclude_config_tags(it->m, it->query);
	st = notmuch_query_search_messages(it->query, &it->messages);
	if (st != NOTMUCH_STATUS_SUCCESS)
		it->messages = NULL;
	return st;
}

/* The next (older) window; 0 after the last. */
static int
window_next(dc_thread_iter_t *it)
{
	if (!it->windowed || it->bottom_open)
		return 0;
	it->hi = it->lo - 1;
	it->top_open = 0;
	it->span *= 2;
	if (it->span > WINDOW_LAST || it->hi - it->span + 1 <= 0)
		it->bottom_open = 1;
	else
		it->lo = it->hi - it->span + 1;
	return 1;
}

/* A pure negation is notmuch's thread search; the rest a message walk. */
static notmuch_status_t
search_start(dc_thread_iter_t *it)
{
	if (pure_not(it->query_string))
		return notmuch_query_search_threads(it->query, &it->threads);
	if (it->sort == NOTMUCH_SORT_NEWEST_FIRST) {
		it->windowed = 1;
		it->top_open = 1;
		it->span = WINDOW_FIRST;
		it->lo = dc_now() - WINDOW_FIRST + 1;
	}
	return walk_open(it);
}

dc_status_t
dc_mail_search(dc_mail_t *m, const char *query, dc_sort_t sort,
	       dc_thread_iter_t **out, dc_error_t *err)
{
	notmuch_sort_t nsort = sort == DC_SORT_OLDEST_FIRST ?
		NOTMUCH_SORT_OLDEST_FIRST : NOTMUCH_SORT_NEWEST_FIRST;
	const char *qs = query && *query ? query : "*";
	dc_thread_iter_t *it;
	notmuch_status_t st;
	dc_status_t ret;

	*out = NULL;
	if ((ret = query_text_check(qs, err)) != DC_OK)
		return ret;
	it = g_new0(dc_thread_iter_t, 1);
	/* The query must parse on its own: its errors are the user's. */
	st = query_probe(m->db, qs);
	if (st != NOTMUCH_STATUS_SUCCESS && nm_reopen_if_stale(m, st))
		st = query_probe(m->db, qs);
	if (st == NOTMUCH_STATUS_SUCCESS)
		st = query_open(m->db, qs, nsort, &it->query);
	if (st != NOTMUCH_STATUS_SUCCESS) {
		char *detail = query_why(m, qs);

		ret = dc_notmuch_fail(err, st, "bad query", detail);
		g_free(detail);
		g_free(it);
		return ret;
	}
	query_exclude_config_tags(m, it->query);
	it->m = m;
	it->sort = nsort;
	it->query_string = g_strdup(qs);
	it->seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					 NULL);
	it->given = g_ptr_array_new();
	st = search_start(it);
	if (st != NOTMUCH_STATUS_SUCCESS && nm_reopen_if_stale(m, st)) {
		notmuch_query_destroy(it->query);
		it->query = NULL;
		st = query_open(m->db, qs, nsort, &it->query);
		if (st == NOTMUCH_STATUS_SUCCESS) {
			query_exclude_config_tags(m, it->query);
			st = search_start(it);
		}
	}
	if (st != NOTMUCH_STATUS_SUCCESS) {
		char *detail = query_why(m, qs);

		ret = dc_notmuch_fail(err, st, "searching threads", detail);
		g_free(detail);
		dc_thread_iter_free(it);
		return ret;
	}
	*out = it;
	return DC_OK;
}

void
dc_thread_summary_clear(dc_thread_summary_t *ts)
{
	g_free(ts->thread_id);
	g_free(ts->authors);
	g_free(ts->subject);
	if (ts->tags)
		g_ptr_array_unref(ts->tags);
	memset(ts, 0, sizeof(*ts));
}

static void
summary_fill(dc_thread_summary_t *ts, notmuch_thread_t *t)
{
	ts->thread_id = g_strdup(notmuch_thread_get_thread_id(t));
	ts->oldest = notmuch_thread_get_oldest_date(t);
	ts->newest = notmuch_thread_get_newest_date(t);
	ts->matched = notmuch_thread_get_matched_messages(t);
	ts->total = notmuch_thread_get_total_messages(t);
	ts->authors = g_strdup(notmuch_thread_get_authors(t));
	ts->subject = g_strdup(notmuch_thread_get_subject(t));
	ts->tags = tags_collect(notmuch_thread_get_tags(t));
}

/*
 * A row is built from what is cheap.  A thread of up to ROW_WHOLE
 * messages is asked for on its own ("(QUERY) AND thread:ID"): the row is
 * notmuch's, to the letter.  A larger one would read all its messages,
 * and the first threads of a list are often the largest, so its row is
 * made of counts (a posting list's length each), the message the walk
 * met first (the newest match newest first, the oldest oldest first:
 * the date and subject notmuch gives) and the oldest ROW_AUTHORS
 * matches (the first authors, in notmuch's order).  Its authors and
 * tags are then a part of notmuch's, and the row says so (partial).
 */
#define ROW_WHOLE 64
#define ROW_AUTHORS 8

/*
 * notmuch_threads_get, or NULL when building the thread failed.
 * libnotmuch 0.37's _notmuch_thread_create frees the thread and still
 * returns it when its search for the thread's messages fails, and says
 * so only in the database's status string; so that string is compared
 * before and after.  A failure leaves a string of its own behind (a
 * query that cannot parse), so that the next failure, even with the
 * same text at the same address, is seen as a change.
 */
static notmuch_thread_t *
threads_get(dc_mail_t *m, notmuch_threads_t *threads)
{
	const char *before = notmuch_database_status_string(m->db);
	char *was = g_strdup(before);
	notmuch_thread_t *t = notmuch_threads_get(threads);
	const char *after = notmuch_database_status_string(m->db);
	int failed = after != before || g_strcmp0(after, was);

	g_free(was);
	if (!failed && t)
		return t;
	{
		notmuch_query_t *q = NULL;
		notmuch_messages_t *msgs = NULL;

		if (notmuch_query_create_with_syntax(
			m->db, "AND", NOTMUCH_QUERY_SYNTAX_XAPIAN, &q) ==
		    NOTMUCH_STATUS_SUCCESS) {
			(void)notmuch_query_search_messages(q, &msgs);
			notmuch_query_destroy(q);
		}
	}
	return NULL;
}

static int
count_of(dc_mail_t *m, const char *qs, int exclude)
{
	notmuch_query_t *q = NULL;
	unsigned n = 0;
	int ok;

	if (query_open(m->db, qs, NOTMUCH_SORT_UNSORTED, &q) !=
	    NOTMUCH_STATUS_SUCCESS)
		return -1;
	if (exclude)
		query_exclude_config_tags(m, q);
	ok = notmuch_query_count_messages(q, &n) == NOTMUCH_STATUS_SUCCESS;
	notmuch_query_destroy(q);
	return ok ? (int)n : -1;
}

static int
row_whole(dc_thread_iter_t *it, const char *qs, dc_thread_summary_t *ts)
{
	int tries, ok = 0;

	/* A thread that could not be built is asked for again, on the
	 * newest revision. */
	for (tries = 0; !ok && tries < DC_NOTMUCH_TRIES; tries++) {
		notmuch_threads_t *threads = NULL;
		notmuch_query_t *q = NULL;
		notmuch_thread_t *t;

		if (tries)
			nm_refresh(it->m);
		if (query_threads(it->m, qs, it->sort, &q, &threads) !=
			    NOTMUCH_STATUS_SUCCESS ||
		    !notmuch_threads_valid(threads)) {
			if (q)
				notmuch_query_destroy(q);
			break;
		}
		if ((t = threads_get(it->m, threads))) {
			summary_fill(ts, t);
			notmuch_thread_destroy(t);
			ok = 1;
		}
		notmuch_query_destroy(q);
	}
	return ok;
}

/*
 * A message's author as notmuch names it in a thread: the first From
 * address's name, else its address; "Last, First" <first.last@...> is
 * turned into "First Last".
 */
static char *
author_of(notmuch_message_t *nm)
{
	const char *from = notmuch_message_get_header(nm, "from");
	InternetAddressList *list;
	InternetAddress *a;
	const char *name, *comma;
	char *out = NULL;

	if (!from || !(list = internet_address_list_parse(NULL, from)))
		return NULL;
	a = internet_address_list_length(list) ?
		internet_address_list_get_address(list, 0) : NULL;
	name = a ? internet_address_get_name(a) : NULL;
	if (a && (!name || !*name) && INTERNET_ADDRESS_IS_MAILBOX(a))
		name = internet_address_mailbox_get_addr(
			INTERNET_ADDRESS_MAILBOX(a));
	if (name && (comma = strchr(name, ',')) && strlen(comma) > 1) {
		const char *first = comma + 1;
		char *swapped, *dotted;

		while (*first == ' ')
			first++;
		swapped = g_strdup_printf("%s %.*s", first,
					  (int)(comma - name), name);
		dotted = g_strdelimit(g_strdup(swapped), " ", '.');
		if (strcasestr(from, dotted))
			out = swapped;
		else
			g_free(swapped);
		g_free(dotted);
	}
	if (!out && name)
		out = g_strdup(name);
	g_object_unref(list);
	return out;
}

static void
tags_add(GPtrArray *tags, GHashTable *have, notmuch_message_t *nm)
{
	notmuch_tags_t *t = notmuch_message_get_tags(nm);

	for (; notmuch_tags_valid(t); notmuch_tags_move_to_next(t)) {
		const char *tag = notmuch_tags_get(t);

		if (!g_hash_table_contains(have, tag)) {
			g_hash_table_add(have, g_strdup(tag));
			g_ptr_array_add(tags, g_strdup(tag));
		}
	}
}

static int
tag_cmp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The subject notmuch takes from a message: "Re: " and the like cut. */
static const char *
subject_cleaned(notmuch_message_t *nm)
{
	const char *s = notmuch_message_get_header(nm, "subject");
	static const char *const cut[] = { "Re: ", "Aw: ", "Vs: ", "Sv: " };
	guint i;

	if (!s)
		return NULL;
	for (i = 0; i < G_N_ELEMENTS(cut); i++)
		if (!g_ascii_strncasecmp(s, cut[i], 4))
			return s + 4;
	return s;
}

/* The oldest few matches: the first authors, the oldest (or newest) date. */
static int
row_ends(dc_thread_iter_t *it, const char *qs, notmuch_sort_t sort, int few,
	 time_t *date, GString *authors, GPtrArray *tags, GHashTable *have)
{
	GHashTable *names = g_hash_table_new_full(g_str_hash, g_str_equal,
						  g_free, NULL);
	notmuch_messages_t *msgs;
	notmuch_query_t *q = NULL;
	int n = 0;

	if (query_open(it->m->db, qs, sort, &q) != NOTMUCH_STATUS_SUCCESS)
		goto out;
	query_exclude_config_tags(it->m, q);
	if (notmuch_query_search_messages(q, &msgs) != NOTMUCH_STATUS_SUCCESS)
		goto out;
	for (; n < few && notmuch_messages_valid(msgs);
	     notmuch_messages_move_to_next(msgs), n++) {
		notmuch_message_t *nm = notmuch_messages_get(msgs);
		char *a;

		if (!n)
			*date = notmuch_message_get_date(nm);
		if (authors && (a = author_of(nm))) {
			if (g_hash_table_contains(names, a)) {
				g_free(a);
			} else {
				g_string_append_printf(authors, "%s%s",
						       authors->len ? ", " : "",
						       a);
				g_hash_table_add(names, a);
			}
		}
		if (tags)
			tags_add(tags, have, nm);
		notmuch_message_destroy(nm);
	}
out:
	if (q)
		notmuch_query_destroy(q);
	g_hash_table_destroy(names);
	return n > 0;
}

/* 0: build the row whole instead. */
static int
row_cheap(dc_thread_iter_t *it, notmuch_message_t *first, const char *qs,
	  int total, dc_thread_summary_t *ts)
{
	const char *subject = subject_cleaned(first);
	GHashTable *have;
	GString *authors;
	time_t date = 0, other = 0;
	int matched, ok;

	if (!subject || !*subject)
		return 0; /* notmuch looks further: leave it to notmuch */
	matched = count_of(it->m, qs, 1);
	if (matched <= 0)
		return 0;
	have = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	authors = g_string_new(NULL);
	ts->tags = g_ptr_array_new_with_free_func(g_free);
	tags_add(ts->tags, have, first);
	ok = row_ends(it, qs, NOTMUCH_SORT_OLDEST_FIRST, ROW_AUTHORS, &date,
		      authors, ts->tags, have);
	if (ok && it->sort == NOTMUCH_SORT_OLDEST_FIRST)
		ok = row_ends(it, qs, NOTMUCH_SORT_NEWEST_FIRST, 1, &other,
			      NULL, NULL, NULL);
	g_hash_table_destroy(have);
	if (!ok) {
		g_string_free(authors, TRUE);
		dc_thread_summary_clear(ts);
		return 0;
	}
	g_ptr_array_sort(ts->tags, tag_cmp);
	ts->thread_id = g_strdup(notmuch_message_get_thread_id(first));
	if (it->sort == NOTMUCH_SORT_OLDEST_FIRST) {
		ts->oldest = notmuch_message_get_date(first);
		ts->newest = other;
	} else {
		ts->newest = notmuch_message_get_date(first);
		ts->oldest = date;
	}
	ts->matched = matched;
	ts->total = total;
	ts->authors = g_string_free(authors, FALSE);
	ts->subject = g_strdup(subject);
	ts->partial = 1;
	return 1;
}

static int
row_build(dc_thread_iter_t *it, notmuch_message_t *first,
	  dc_thread_summary_t *ts)
{
	const char *id = notmuch_message_get_thread_id(first);
	char *extra = g_strconcat("thread:", id, NULL);
	char *qs = query_and(it->query_string, extra);
	int total = count_of(it->m, extra, 0);
	int ok = total > ROW_WHOLE && row_cheap(it, first, qs, total, ts);

	if (!ok)
		ok = row_whole(it, qs, ts);
	g_free(qs);
	g_free(extra);
	return ok;
}

/*
 * Another process may commit twice while the list is read (the TUI reads
 * rows as the screen needs them): the handle is then stale and a message
 * cannot be read.  The handle is reopened and the window walked again;
 * the threads already given are skipped, so the list goes on where it
 * was.
 * Once only: a database that keeps failing ends the list.
 */
static int
walk_restart(dc_thread_iter_t *it)
{
	if (it->restarted ||
	    !nm_reopen_if_stale(it->m, NOTMUCH_STATUS_XAPIAN_EXCEPTION))
		return 0;
	it->restarted = 1;
	return walk_open(it) == NOTMUCH_STATUS_SUCCESS &&
	       notmuch_messages_valid(it->messages);
}

/*
 * Threads come in the order of the message walk, which is notmuch's:
 * a thread stands where its newest match (oldest, oldest first) stands.
 */
int
dc_thread_iter_next(dc_thread_iter_t *it, dc_thread_summary_t *ts)
{
	dc_thread_summary_clear(ts);
	if (it)
		nm_refresh(it->m);
	if (it && it->threads) {
		notmuch_thread_t *t;

		if (!notmuch_threads_valid(it->threads) ||
		    !(t = threads_get(it->m, it->threads)))
			return 0;
		summary_fill(ts, t);
		notmuch_thread_destroy(t);
		notmuch_threads_move_to_next(it->threads);
		return 1;
	}
	if (!it || !it->messages)
		return 0;
	for (;;) {
		notmuch_message_t *nm;
		const char *id;
		int ok;

		if (!it->messages)
			return 0;
		if (!notmuch_messages_valid(it->messages)) {
			notmuch_status_t st;

			if (!window_next(it))
				return 0;
			st = walk_open(it);
			if (st != NOTMUCH_STATUS_SUCCESS &&
			    !(nm_reopen_if_stale(it->m, st) &&
			      walk_open(it) == NOTMUCH_STATUS_SUCCESS))
				return 0;
			continue;
		}
		nm = notmuch_messages_get(it->messages);
		id = nm ? notmuch_message_get_thread_id(nm) : NULL;
		if (!nm) {
			if (!walk_restart(it))
				return 0;
			continue;
		}
		notmuch_messages_move_to_next(it->messages);
		if (!id || g_hash_table_contains(it->seen, id)) {
			notmuch_message_destroy(nm);
			continue;
		}
		id = g_strdup(id);
		g_hash_table_add(it->seen, (char *)id);
		g_ptr_array_add(it->given, (char *)id);
		ok = row_build(it, nm, ts);
		notmuch_message_destroy(nm);
		if (ok)
			return 1;
	}
}

void
dc_thread_iter_free(dc_thread_iter_t *it)
{
	if (!it)
		return;
	if (it->query)
		notmuch_query_destroy(it->query);
	if (it->seen)
		g_hash_table_destroy(it->seen);
	if (it->given)
		g_ptr_array_unref(it->given);
	g_free(it->query_string);
	g_free(it);
}

/* ---- one thread ---------------------------------------------------------- */

static const char *
nm_header(notmuch_message_t *nm, const char *name)
{
	const char *v = notmuch_message_get_header(nm, name);

	return v ? v : "";
}

static dc_message_t *
message_load(dc_mail_t *m, notmuch_message_t *nm, int depth, int bodies)
{
	dc_message_t *msg = g_new0(dc_message_t, 1);

	msg->message_id = g_strdup(notmuch_message_get_message_id(nm));
	msg->filename = g_strdup(notmuch_message_get_filename(nm));
	msg->depth = depth;
	msg->date = notmuch_message_get_date(nm);
	msg->tags = tags_collect(notmuch_message_get_tags(nm));
	notmuch_bool_t matched = FALSE;

	if (notmuch_message_get_flag_st(nm, NOTMUCH_MESSAGE_FLAG_MATCH,
					&matched) == NOTMUCH_STATUS_SUCCESS &&
	    matched)
		msg->flags |= DC_MSG_MATCHED;
	if (bodies)
		dc_message_parse_file_html(msg, msg->filename,
					   m->html_filter);
	/* The index's copies, when there is no parse to give its own. */
	if (!msg->from)
		msg->from = g_strdup(nm_header(nm, "from"));
	if (!msg->subject)
		msg->subject = g_strdup(nm_header(nm, "subject"));
	return msg;
}

struct pending {
	notmuch_message_t *nm;
	int depth;
};

/* Push a message list onto the stack so that it pops in list order. */
static void
push_reversed(GArray *stack, notmuch_messages_t *list, int depth)
{
	guint first = stack->len, i, j;

	for (; notmuch_messages_valid(list); notmuch_messages_move_to_next(list)) {
		struct pending p = { notmuch_messages_get(list), depth };

		g_array_append_val(stack, p);
	}
	for (i = first, j = stack->len; i + 1 < j; i++, j--) {
		struct pending tmp = g_array_index(stack, struct pending, i);

		g_array_index(stack, struct pending, i) =
			g_array_index(stack, struct pending, j - 1);
		g_array_index(stack, struct pending, j - 1) = tmp;
	}
}

/* Depth first with an explicit stack: a 5,000-message reply chain must not
 * exhaust the C stack. */
static void
thread_collect(dc_mail_t *m, dc_thread_t *t, notmuch_thread_t *nt,
	       int bodies)
{
	GArray *stack = g_array_new(FALSE, FALSE, sizeof(struct pending));

	push_reversed(stack, notmuch_thread_get_toplevel_messages(nt), 0);
	while (stack->len) {
		struct pending p =
			g_array_index(stack, struct pending, stack->len - 1);

		g_array_set_size(stack, stack->len - 1);
		g_ptr_array_add(t->messages,
				message_load(m, p.nm, p.depth, bodies));
		push_reversed(stack, notmuch_message_get_replies(p.nm),
			      p.depth + 1);
	}
	g_array_free(stack, TRUE);
}

static void
message_free_cb(gpointer p)
{
	dc_message_free(p);
}

/*
 * One thread's search, retried once on a reopened handle when it was
 * stale.  With exclude, as notmuch show: messages with an excluded tag
 * are in the thread but not matched, and a thread of excluded messages
 * only is not found.
 */
static notmuch_status_t
thread_search(dc_mail_t *m, const char *qs, int exclude, notmuch_query_t **q,
	      notmuch_threads_t **threads)
{
	notmuch_status_t st;
	int tries;

	nm_refresh(m);
	for (tries = 0;; tries++) {
		*q = NULL;
		st = notmuch_query_create_with_syntax(
		    m->db, qs, NOTMUCH_QUERY_SYNTAX_XAPIAN, q);
		if (st == NOTMUCH_STATUS_SUCCESS) {
			if (exclude)
				query_exclude_config_tags(m, *q);
			st = notmuch_query_search_threads(*q, threads);
		}
		if (st == NOTMUCH_STATUS_SUCCESS)
			return st;
		if (*q)
			notmuch_query_destroy(*q);
		*q = NULL;
		if (tries || !nm_reopen_if_stale(m, st))
			return st;
	}
}

static dc_status_t
thread_id_check(const char *thread_id, dc_error_t *err)
{
	const char *id = dc_thread_id_bare(thread_id);

	if (!*id || strspn(id, "0123456789abcdef") != strlen(id))
		return dc_fail(err, DC_E_USAGE,
			       "'%s' is not a thread id (16 hex digits, "
			       "optionally prefixed with thread:)",
			       thread_id);
	return DC_OK;
}

dc_status_t
dc_mail_thread(dc_mail_t *m, const char *thread_id, int bodies,
	       dc_thread_t **out, dc_error_t *err)
{
	return dc_mail_thread_matching(m, thread_id, NULL, bodies, out, err);
}

dc_status_t
dc_mail_thread_matching(dc_mail_t *m, const char *thread_id,
			const char *query, int bodies, dc_thread_t **out,
			dc_error_t *err)
{
	const char *id = dc_thread_id_bare(thread_id);
	notmuch_threads_t *threads = NULL;
	notmuch_query_t *q = NULL;
	notmuch_status_t st;
	dc_thread_t *t;
	char *qs;

	*out = NULL;
	if (thread_id_check(thread_id, err) != DC_OK)
		return err->status;
	/* Within the thread, notmuch flags the messages that match the
	 * query; when none does any more (or the query is bad), the
	 * thread is loaded as it is, every message flagged. */
	if (query && *query) {
		qs = g_strdup_printf("thread:%s and (%s)", id, query);
		st = thread_search(m, qs, 1, &q, &threads);
		g_free(qs);
		if (st == NOTMUCH_STATUS_SUCCESS &&
		    notmuch_threads_valid(threads))
			goto found;
		if (q)
			notmuch_query_destroy(q);
		q = NULL;
	}
	qs = g_strconcat("thread:", id, NULL);
	st = thread_search(m, qs, 1, &q, &threads);
	/* A thread whose every message has an excluded tag (deleted,
	 * spam) may still be a case's: it is loaded rather than lost. */
	if (st == NOTMUCH_STATUS_SUCCESS && !notmuch_threads_valid(threads)) {
		notmuch_query_destroy(q);
		st = thread_search(m, qs, 0, &q, &threads);
	}
	g_free(qs);
	if (st != NOTMUCH_STATUS_SUCCESS)
		return dc_notmuch_fail(err, st, "loading thread", id);
	if (!notmuch_threads_valid(threads)) {
		notmuch_query_destroy(q);
		return dc_fail(err, DC_E_NOT_FOUND, "no thread %s", id);
	}
found:
	t = g_new0(dc_thread_t, 1);
	{
		notmuch_thread_t *nt = threads_get(m, threads);

		if (!nt) {
			notmuch_query_destroy(q);
			g_free(t);
			return dc_fail(err, DC_E_LOCKED,
				       "loading thread %s: the notmuch database "
				       "kept changing while it was read (notmuch "
				       "new running?); try again",
				       id);
		}
		t->thread_id = g_strdup(notmuch_thread_get_thread_id(nt));
		t->subject = g_strdup(notmuch_thread_get_subject(nt));
		t->messages = g_ptr_array_new_with_free_func(message_free_cb);
		thread_collect(m, t, nt, bodies);
		notmuch_thread_destroy(nt);
	}
	notmuch_query_destroy(q);
	*out = t;
	return DC_OK;
}

int
dc_thread_first_match(const dc_thread_t *t)
{
	guint i;

	for (i = 0; t && i < t->messages->len; i++)
		if (((const dc_message_t *)t->messages->pdata[i])->flags &
		    DC_MSG_MATCHED)
			return (int)i;
	return 0;
}

void
dc_thread_free(dc_thread_t *t)
{
	if (!t)
		return;
	g_free(t->thread_id);
	g_free(t->subject);
	if (t->messages)
		g_ptr_array_unref(t->messages);
	g_free(t);
}

char *
dc_mail_id_query(const char *msgid)
{
	GString *q = g_string_new("id:\"");
	const char *p;

	for (p = msgid; *p; p++) {
		if (*p == '"')
			g_string_append_c(q, '"');
		g_string_append_c(q, *p);
	}
	g_string_append_c(q, '"');
	return g_string_free(q, FALSE);
}

/* ---- what a case needs of a thread ----------------------------------- */

/* A Message-ID libnotmuch keeps as it is (longer ones it stores hashed). */
#define HEAD_ID_MAX 180

/*
 * The Message-IDs in an In-Reply-To or References value: what is between
 * each '<' and the next '>', spaces and tabs left out, as libnotmuch
 * reads them when it indexes the message.  0 when the value holds what
 * it reads by rules of its own (a comment, other white space, a long
 * id): the caller then builds the thread.
 */
static int
header_ids(const char *v, GPtrArray *out)
{
	const char *p, *e;

	if (strchr(v, '('))
		return 0;
	for (p = strchr(v, '<'); p; p = *e ? strchr(e, '<') : NULL) {
		GString *id = g_string_new(NULL);

		for (e = p + 1; *e && *e != '>'; e++) {
			if (*e == ' ' || *e == '\t')
				continue;
			if (g_ascii_isspace(*e) || (unsigned char)*e < 0x20)
				break;
			g_string_append_c(id, *e);
		}
		if (*e && *e != '>') {
			g_string_free(id, TRUE);
			return 0;
		}
		if (id->len >= HEAD_ID_MAX) {
			g_string_free(id, TRUE);
			return 0;
		}
		g_ptr_array_add(out, g_string_free(id, FALSE));
	}
	return 1;
}

/*
 * Is the oldest message o (next: the one after it, or NULL) the thread's
 * first toplevel message?  libnotmuch makes a message a reply when its
 * In-Reply-To or one of its References names a message of the thread,
 * and sorts the toplevel ones by date; o is first when it names none of
 * them and no other message has its date.  1 yes, 0 not known.
 */
static int
oldest_is_first(dc_mail_t *m, const char *tid, notmuch_message_t *o,
		notmuch_message_t *next)
{
	const char *own = notmuch_message_get_message_id(o);
	const char *irt, *refs;
	GPtrArray *ids;
	GString *q;
	unsigned n = 1;
	guint i;
	int ok;

	if (next && notmuch_message_get_date(next) ==
			    notmuch_message_get_date(o))
		return 0;
	if (!own || strlen(own) >= HEAD_ID_MAX ||
	    notmuch_message_count_files(o) != 1)
		return 0;
	irt = notmuch_message_get_header(o, "in-reply-to");
	refs = notmuch_message_get_header(o, "references");
	if (!irt || !refs)
		return 0;
	ids = g_ptr_array_new_with_free_func(g_free);
	ok = header_ids(irt, ids) && header_ids(refs, ids);
	for (i = 0; ok && i < ids->len; i++)
		ok = strcmp(ids->pdata[i], own) != 0;
	if (ok && !ids->len) {
		g_ptr_array_unref(ids);
		return 1;
	}
	q = g_string_new(NULL);
	g_string_printf(q, "thread:%s AND (", tid);
	for (i = 0; ok && i < ids->len; i++) {
		char *one = dc_mail_id_query(ids->pdata[i]);

		g_string_append_printf(q, "%s%s", i ? " OR " : "", one);
		g_free(one);
	}
	g_string_append_c(q, ')');
	if (ok) {
		notmuch_query_t *nq = NULL;

		if (query_open(m->db, q->str, NOTMUCH_SORT_UNSORTED, &nq) !=
			    NOTMUCH_STATUS_SUCCESS ||
		    notmuch_query_count_messages(nq, &n) !=
			    NOTMUCH_STATUS_SUCCESS)
			n = 1;
		if (nq)
			notmuch_query_destroy(nq);
	}
	g_string_free(q, TRUE);
	g_ptr_array_unref(ids);
	return ok && n == 0;
}

/* A subject as libnotmuch gives a thread one: one "Re: " (or Aw, Vs,
 * Sv) taken off, and none if that leaves nothing. */
static const char *
subject_for_thread(const char *s)
{
	static const char *const re[] = { "Re: ", "Aw: ", "Vs: ", "Sv: " };
	guint i;

	if (!s)
		return NULL;
	for (i = 0; i < G_N_ELEMENTS(re); i++)
		if (!g_ascii_strncasecmp(s, re[i], 4))
			return s[4] ? s + 4 : NULL;
	return *s ? s : NULL;
}

/*
 * The thread's subject as its notmuch_thread_t (a search of thread:ID,
 * newest first, the configured tags excluded) has it: the newest
 * matching message's, less a "Re: ", going back past messages whose
 * subject that leaves empty; else the oldest message's as it is.
 */
static char *
head_subject(dc_mail_t *m, const char *tid, const char *oldest)
{
	char *qs = g_strconcat("thread:", tid, NULL);
	notmuch_messages_t *msgs = NULL;
	notmuch_query_t *q = NULL;
	char *r = NULL;
	int pass;

	for (pass = 0; pass < 2 && !r; pass++) {
		int any = 0;

		if (query_open(m->db, qs, NOTMUCH_SORT_NEWEST_FIRST, &q) !=
		    NOTMUCH_STATUS_SUCCESS)
			break;
		if (!pass)
			query_exclude_config_tags(m, q);
		if (notmuch_query_search_messages(q, &msgs) ==
		    NOTMUCH_STATUS_SUCCESS) {
			for (; !r && notmuch_messages_valid(msgs);
			     notmuch_messages_move_to_next(msgs)) {
				notmuch_message_t *nm =
					notmuch_messages_get(msgs);
				const char *s = subject_for_thread(
					notmuch_message_get_header(nm,
								   "subject"));

				any = 1;
				if (s)
					r = g_strdup(s);
				notmuch_message_destroy(nm);
			}
		}
		notmuch_query_destroy(q);
		q = NULL;
		if (any)
			break;
	}
	g_free(qs);
	return r ? r : g_strdup(oldest ? oldest : "");
}

void
dc_thread_head_free(dc_thread_head_t *h)
{
	if (!h)
		return;
	g_free(h->thread_id);
	g_free(h->subject);
	if (h->message_ids)
		g_ptr_array_unref(h->message_ids);
	g_free(h);
}

/*
 * A message's Message-ID from the index's value slot, which libnotmuch
 * writes with the id term when it creates the message: one value read
 * where notmuch_message_get_message_id() reads the message's whole term
 * list (80 M of 106 M instructions for 1,000 messages).  *by_value (-1
 * at first) is set by the first message: 1 when its value is its id
 * term, else 0, and then the term is read for every message (a database
 * without the values, where libnotmuch would parse the file instead).
 */
static const char *
message_id_cheap(notmuch_message_t *nm, int *by_value)
{
	const char *v;

	if (*by_value == 0)
		return notmuch_message_get_message_id(nm);
	v = notmuch_message_get_header(nm, "message-id");
	if (*by_value < 0) {
		const char *id = notmuch_message_get_message_id(nm);

		*by_value = v && id && !strcmp(v, id);
		return id;
	}
	if (!v || !*v || strchr(v, '<'))
		return notmuch_message_get_message_id(nm);
	return v;
}

/* The report by building the thread: its first message in thread order. */
static dc_status_t
head_built(dc_mail_t *m, dc_thread_head_t *h, dc_error_t *err)
{
	dc_thread_t *t = NULL;
	const dc_message_t *first;
	dc_status_t st = dc_mail_thread(m, h->thread_id, 0, &t, err);
	guint i;

	if (st != DC_OK)
		return st;
	if (!t->messages->len) {
		dc_thread_free(t);
		return dc_fail(err, DC_E_NOT_FOUND, "thread %s has no messages",
			       h->thread_id);
	}
	first = t->messages->pdata[0];
	for (i = 1; i + 1 < h->message_ids->len; i++)
		if (!strcmp(h->message_ids->pdata[i], first->message_id))
			break;
	/* The report to the front, the others oldest first. */
	if (i + 1 < h->message_ids->len) {
		char *r = h->message_ids->pdata[i];

		memmove(&h->message_ids->pdata[1], &h->message_ids->pdata[0],
			i * sizeof(gpointer));
		h->message_ids->pdata[0] = r;
	} else if (strcmp(h->message_ids->pdata[0], first->message_id)) {
		g_ptr_array_insert(h->message_ids, 0,
				   g_strdup(first->message_id));
	}
	h->reported_at = first->date;
	h->built = 1;
	dc_thread_free(t);
	return DC_OK;
}

dc_status_t
dc_mail_thread_head(dc_mail_t *m, const char *thread_id,
		    dc_thread_head_t **out, dc_error_t *err)
{
	notmuch_messages_t *msgs = NULL;
	notmuch_message_t *o = NULL, *next = NULL;
	notmuch_query_t *q = NULL;
	dc_thread_head_t *h;
	char *qs, *oldest_subject = NULL;
	int first = 1, by_value = -1;
	dc_status_t st;

	*out = NULL;
	if (thread_id_check(thread_id, err) != DC_OK)
		return err->status;
	nm_refresh(m);
	h = g_new0(dc_thread_head_t, 1);
	h->thread_id = g_strdup(dc_thread_id_bare(thread_id));
	h->message_ids = g_ptr_array_new_with_free_func(g_free);
	qs = g_strconcat("thread:", h->thread_id, NULL);
	st = dc_notmuch_messages(m->db, qs, NOTMUCH_SORT_OLDEST_FIRST, &q,
				 &msgs, "loading thread", err);
	g_free(qs);
	for (; st == DC_OK && notmuch_messages_valid(msgs);
	     notmuch_messages_move_to_next(msgs)) {
		notmuch_message_t *nm = notmuch_messages_get(msgs);
		const char *id = message_id_cheap(nm, &by_value);

		if (!id) {
			st = dc_notmuch_fail(err, NOTMUCH_STATUS_XAPIAN_EXCEPTION,
					     "loading thread",
					     notmuch_database_status_string(
						 m->db));
			break;
		}
		g_ptr_array_add(h->message_ids, g_strdup(id));
		if (first) {
			o = nm;
			h->reported_at = notmuch_message_get_date(nm);
			oldest_subject = g_strdup(
				notmuch_message_get_header(nm, "subject"));
			first = 0;
			continue;
		}
		if (!next)
			next = nm;
		else
			notmuch_message_destroy(nm);
	}
	if (st == DC_OK && !h->message_ids->len)
		st = dc_fail(err, DC_E_NOT_FOUND, "no thread %s", h->thread_id);
	g_ptr_array_add(h->message_ids, NULL);
	if (st == DC_OK && !oldest_is_first(m, h->thread_id, o, next))
		st = head_built(m, h, err);
	if (q)
		notmuch_query_destroy(q);
	if (st == DC_OK)
		h->subject = head_subject(m, h->thread_id, oldest_subject);
	g_free(oldest_subject);
	if (st != DC_OK) {
		dc_thread_head_free(h);
		return st;
	}
	*out = h;
	return DC_OK;
}
