/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Anchors: a case covers messages named by Message-ID (the report, the
 * thread it came in, mail attached later).  notmuch thread ids are a
 * counter of one Xapian database, handed out again in another order by a
 * rebuild, a restore or another machine, so the store keeps them only as a
 * cache of where each message is now.  Everything that turns a case into
 * threads reads that cache after dc_anchor_sync() has brought it up to
 * date, or asks notmuch itself (dc_anchor_resolve()).
 */
#ifndef DC_ANCHOR_H
#define DC_ANCHOR_H

#include <glib.h>
#include <stdint.h>

#include "core/case/case.h"
#include "core/mail/mail.h"
#include "core/base/status.h"
#include "store/store.h"

/*
 * Bring the store's thread cache up to date with the notmuch database db
 * (a notmuch_database_t *): every message again when db is another
 * database than the one the cache was made from (its UUID) or an older
 * state of it, else only the messages notmuch changed since (lastmod), so
 * merged and split threads are followed.  Cases from before Message-IDs
 * named their mail are resolved once, each recorded as an "anchor" event
 * by actor.
 *
 * With writable == 0 (a read-only command), or when the store is locked,
 * the refreshed cache lives in this connection only (dc_store_mail_shadow)
 * and the store file is not written.
 */
dc_status_t dc_anchor_sync(dc_store_t *s, void *db, int writable,
			   const char *actor, int64_t now, dc_error_t *err);

/* The case's mail as notmuch has it now, asked message by message. */
typedef struct dc_anchor_state {
	GPtrArray *threads; /* char *: the threads that hold its
			     * thread-scope mail, in the order added */
	GPtrArray *singles; /* char *: message-scope Message-IDs present */
	GPtrArray *missing; /* char *: its Message-IDs not in the index */
} dc_anchor_state_t;

dc_status_t dc_anchor_resolve(void *db, const dc_case_t *c,
			      dc_anchor_state_t **out, dc_error_t *err);
void dc_anchor_state_free(dc_anchor_state_t *a);

/* Ask notmuch where each of c's messages is now, and set c->mail's
 * thread_id (NULL: not in the index) and c->threads to that, in memory
 * only: for showing a case, where a deleted message must show as gone. */
void dc_anchor_refresh_case(void *db, dc_case_t *c);

/*
 * What every front end says of a Message-ID that this member's notmuch
 * index does not hold: mail that came to another member of the committee
 * (a case taken by decorum sync), a message deleted or erased since.
 */
#define DC_MAIL_ABSENT "not in your mail"
/* DC_MAIL_ABSENT when m was not in the index when its case was read (its
 * thread_id NULL: dc_anchor_sync(), dc_anchor_refresh_case()), else NULL. */
const char *dc_mail_absent(const dc_store_mail_t *m);
/* DC_MAIL_ABSENT when none of c's mail is in the index, else NULL. */
const char *dc_case_mail_absent(const dc_case_t *c);

/* The notmuch thread of message_id in *thread, NULL when it is not in the
 * index (g_free); an error when notmuch cannot say (a stale handle is
 * reopened and asked again first). */
dc_status_t dc_anchor_find(void *db, const char *message_id, char **thread,
			   dc_error_t *err);
/* The same, NULL also when notmuch cannot say: for showing only. */
char *dc_anchor_thread_of(void *db, const char *message_id);

/*
 * Replies that joined the case's threads after it took them: messages of
 * those threads, as notmuch has them now, that are not among the case's
 * mail.  Rebuilds do not change the answer.  *out: char * Message-IDs,
 * oldest first per thread.
 */
dc_status_t dc_case_late_replies(dc_store_t *s, const dc_mail_opts_t *opts,
				 int64_t case_id, GPtrArray **out,
				 dc_error_t *err);

#endif
