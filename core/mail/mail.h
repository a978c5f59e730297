/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Mail access: libnotmuch for the index, GMime for the messages.
 *
 * Strings returned here are decoded (RFC 2047 headers, transfer encodings,
 * charsets converted to UTF-8) but NOT sanitized: whoever shows or exports
 * them passes them through dc_sanitize() first.
 */
#ifndef DC_MAIL_H
#define DC_MAIL_H

#include <glib.h>
#include <time.h>

#include "core/base/status.h"

typedef struct dc_mail dc_mail_t;

typedef struct dc_mail_opts {
	const char *config_path; /* --config; NULL: notmuch's own discovery */
	const char *db_path;     /* --db: a bare database, no config file */
	const char *profile;     /* NULL: $NOTMUCH_PROFILE or the default */
	int writable;
	/* The command that shows text/html as text ([mime] html, see
	 * dc_html_filter_choose()); NULL: the built-in converter. */
	const char *html_filter;
} dc_mail_opts_t;

/*
 * Open the notmuch database the way the notmuch command does: --config,
 * else $NOTMUCH_CONFIG, else $XDG_CONFIG_HOME/notmuch/<profile>/config,
 * else ~/.notmuch-config; db_path opens a bare database without a config.
 */
dc_status_t dc_mail_open(const dc_mail_opts_t *opts, dc_mail_t **out,
			 dc_error_t *err);
void dc_mail_close(dc_mail_t *m);
/* Set GMime up (once for the process; it is never shut down, as it
 * cannot be set up again): each mail handle, and core code that builds
 * mail without one (core/mail/reply.c), calls it first. */
void dc_mail_gmime_hold(void);

/*
 * The one opener of notmuch in decorum: dc_mail_open() and every other
 * user of the notmuch_database_t * (core/mail/anchor.c, core/mail/mirror.c,
 * core/mail/fsck.c) open it here, the same way and with the same messages.
 * writable never waits for notmuch's lock: DC_E_LOCKED when another
 * process holds it.  Returns a notmuch_database_t *.
 */
dc_status_t dc_notmuch_open(const dc_mail_opts_t *opts, int writable,
			    void **out, dc_error_t *err);
void dc_notmuch_close(void *notmuch_db);
/*
 * 1 when notmuch_status (from a call on notmuch_db) says another
 * process's commits overtook the handle's revision and the handle was
 * reopened: the caller tries the call again, a bounded number of times
 * (DC_NOTMUCH_TRIES).
 */
int dc_notmuch_reopen_if_stale(void *notmuch_db, int notmuch_status);
#define DC_NOTMUCH_TRIES 4
/*
 * The messages of qs (Xapian syntax; excluded messages too; sort a
 * notmuch_sort_t) on a handle from dc_notmuch_open, searched again on a
 * reopened handle when it went stale.  On success destroy *q when done
 * with *msgs; on failure both are NULL and err says what failed.
 */
struct _notmuch_query;
struct _notmuch_messages;
dc_status_t dc_notmuch_messages(void *notmuch_db, const char *qs, int sort,
				struct _notmuch_query **q,
				struct _notmuch_messages **msgs,
				const char *what, dc_error_t *err);
/* A libnotmuch status as a decorum one, with what was being done
 * (detail: notmuch_database_status_string, or NULL). */
dc_status_t dc_notmuch_fail(dc_error_t *err, int notmuch_status,
			    const char *what, const char *detail);
const char *dc_mail_db_path(dc_mail_t *m);
/* user.primary_email from the notmuch configuration, or NULL. */
const char *dc_mail_user_email(dc_mail_t *m);
/*
 * The same without an open database: user.primary_email as the notmuch
 * configuration that opts names gives it, or NULL (g_free) when there is
 * none or no configuration.
 */
char *dc_mail_config_email(const dc_mail_opts_t *opts);
/* A configuration value (e.g. "decorum.conduct_address"), or NULL (g_free). */
char *dc_mail_config_get(dc_mail_t *m, const char *key);
/* The notmuch_database_t * underneath, for core's other notmuch users
 * (core/mail/anchor.c, core/mail/mirror.c). */
void *dc_mail_notmuch(dc_mail_t *m);
/* Bring a read-only handle to the newest revision before a batch of
 * reads (core/mail/mail.c says why); a writable one is always newest. */
void dc_mail_refresh(dc_mail_t *m);
/* The database revision (lastmod), for "new since" checks. */
unsigned long dc_mail_revision(dc_mail_t *m);
/*
 * What the handle reads now, brought to the newest revision first (as
 * every read that builds threads is): the database's UUID (*uuid,
 * g_free) and its revision, which moves with every commit (new mail,
 * a tag).  What a cache of work derived from the mail is keyed by.
 */
unsigned long dc_mail_version(dc_mail_t *m, char **uuid);

/* ---- thread search: lazy, one thread at a time ------------------------ */

typedef enum {
	DC_SORT_NEWEST_FIRST,
	DC_SORT_OLDEST_FIRST,
} dc_sort_t;

typedef struct dc_thread_summary {
	char *thread_id; /* without the "thread:" prefix */
	time_t oldest;
	time_t newest;
	int matched; /* messages matching the query */
	int total;   /* messages in the thread */
	char *authors;
	char *subject;
	GPtrArray *tags; /* char *, sorted */
	int partial; /* a large thread: authors a prefix, tags a part */
} dc_thread_summary_t;

typedef struct dc_thread_iter dc_thread_iter_t;

/*
 * Start a thread search.  Nothing is counted or loaded ahead: each call to
 * dc_thread_iter_next() fetches one thread, so the first screen of a large
 * index costs the same as a small one.  Tags in the configuration's
 * search.exclude_tags are left out, as "notmuch search" does.
 */
dc_status_t dc_mail_search(dc_mail_t *m, const char *query, dc_sort_t sort,
			   dc_thread_iter_t **out, dc_error_t *err);
/* Fill *ts with the next thread (clearing what it held) and return 1, or
 * return 0 at the end of the results. */
int dc_thread_iter_next(dc_thread_iter_t *it, dc_thread_summary_t *ts);
void dc_thread_iter_free(dc_thread_iter_t *it);
void dc_thread_summary_clear(dc_thread_summary_t *ts);

/* ---- one thread, every message ------------------------------------------ */

enum {
	DC_MSG_UNREADABLE = 1 << 0, /* the file is missing or unreadable */
	DC_MSG_MALFORMED = 1 << 1,  /* GMime could not parse it as a message */
	DC_MSG_MATCHED = 1 << 2,
	DC_MSG_HTML = 1 << 3, /* the body has text/html shown as text */
};

typedef struct dc_attachment {
	char *filename; /* decoded; may be NULL */
	char *content_type;
	size_t size; /* decoded size in bytes */
} dc_attachment_t;

typedef struct dc_message {
	char *message_id;
	char *filename;
	int depth; /* 0 for a thread's top-level messages */
	time_t date;
	char *from;
	char *to;
	char *cc;
	char *subject;
	char *in_reply_to;
	GPtrArray *tags;        /* char * */
	char *body;             /* text parts decoded to UTF-8 */
	GPtrArray *attachments; /* dc_attachment_t * */
	unsigned flags;
} dc_message_t;

typedef struct dc_thread {
	char *thread_id;
	char *subject;
	GPtrArray *messages; /* dc_message_t *, in thread order */
} dc_thread_t;

/*
 * Load a thread by id ("thread:" prefix optional) with its messages in
 * thread order: depth first, replies by date, as "notmuch show" does.
 * With bodies == 0 only the index's headers are read (no file parsing).
 */
dc_status_t dc_mail_thread(dc_mail_t *m, const char *thread_id, int bodies,
			   dc_thread_t **out, dc_error_t *err);
/*
 * The same, with DC_MSG_MATCHED on the messages that match query (a
 * notmuch query, the list's), so that a thread opened from a search can
 * start at its first match; with no query, or when no message matches it
 * any more, as dc_mail_thread() (every message flagged).
 */
dc_status_t dc_mail_thread_matching(dc_mail_t *m, const char *thread_id,
				    const char *query, int bodies,
				    dc_thread_t **out, dc_error_t *err);
/* The first message flagged DC_MSG_MATCHED (its index), or 0. */
int dc_thread_first_match(const dc_thread_t *t);
void dc_thread_free(dc_thread_t *t);

/*
 * What a case needs of a thread, without building it (a 1,000-message
 * thread costs libnotmuch a document read and a parent lookup per
 * message): its Message-IDs, the report first and the others oldest
 * first, NULL-terminated; the report is the thread's first toplevel
 * message, as in dc_mail_thread(), and its date; the thread's subject
 * as notmuch_thread_get_subject() gives it.  The report is the oldest
 * message when its In-Reply-To and References name no message of the
 * thread (libnotmuch sorts its toplevel messages by date); when they
 * do, or cannot be read plainly (a comment, a long id, a second file,
 * a date shared with the next message), the thread is built for it.
 */
typedef struct dc_thread_head {
	char *thread_id;
	char *subject;
	GPtrArray *message_ids; /* char *; [0] the report; NULL-terminated */
	time_t reported_at;
	int built; /* the thread was built to find the report */
} dc_thread_head_t;

dc_status_t dc_mail_thread_head(dc_mail_t *m, const char *thread_id,
				dc_thread_head_t **out, dc_error_t *err);
void dc_thread_head_free(dc_thread_head_t *h);

/* Strip a leading "thread:"; returns a pointer into id. */
const char *dc_thread_id_bare(const char *id);

/* https://lore.kernel.org/r/<message-id>, the id percent-encoded where a
 * URL path needs it (g_free). */
char *dc_lore_url(const char *message_id);
/* id:"MSGID", quoted for a notmuch query (g_free). */
char *dc_mail_id_query(const char *message_id);
/* Does a (char *, may be NULL) hold a string equal to s?  For the short
 * lists of tags, threads and Message-IDs the mail code keeps. */
int dc_str_array_has(const GPtrArray *a, const char *s);

#endif
