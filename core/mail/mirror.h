/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The notmuch tag mirror.  A case's kind and state are mirrored as notmuch
 * tags on its threads' messages (coc/admonition, coc/escalation, coc/tab,
 * coc/case-N, coc/state-...).  The wanted tag change is written to an outbox
 * in the same store transaction as the event, and applied to notmuch
 * afterwards; while notmuch is locked (e.g. by "notmuch new") it stays
 * queued, so a write never blocks the user and nothing is lost if decorum
 * quits first.
 */
#ifndef DC_MIRROR_H
#define DC_MIRROR_H

#include "core/mail/mail.h"
#include "core/base/status.h"
#include "store/store.h"

/* What every mirrored tag starts with; other tags are the user's. */
#define DC_MIRROR_PREFIX "coc/"

/* Number of tag changes waiting in the outbox. */
dc_status_t dc_mirror_pending(dc_store_t *s, int *count, dc_error_t *err);

/*
 * Apply queued tag changes to notmuch, opening it read-write for as short a
 * time as possible.  Never waits for a lock: when notmuch is locked returns
 * DC_E_LOCKED with the queue intact.  *applied may be NULL.
 */
dc_status_t dc_mirror_flush(dc_store_t *s, const dc_mail_opts_t *mail_opts,
			    int *applied, dc_error_t *err);

/*
 * Open the mail for a command (dc_mail_open), applying the store's queued
 * tag changes first when notmuch is free: every command that opens
 * notmuch empties the outbox, and reads what it wrote.  A flush that
 * cannot be done (notmuch locked, a read-only store) leaves the queue as
 * it is and does not stop the command: *queued (may be NULL) counts the
 * changes still waiting, and flush_err (may be NULL) says why when it was
 * not a lock.  s may be NULL (no store yet: nothing queued).
 */
dc_status_t dc_mirror_open_mail(dc_store_t *s, const dc_mail_opts_t *opts,
				dc_mail_t **out, int *queued,
				dc_error_t *flush_err, dc_error_t *err);

/* The same with an open read-write notmuch_database_t * whose thread
 * cache is current (fsck); adds to *changes. */
dc_status_t dc_mirror_flush_open(dc_store_t *s, void *notmuch_db,
				 int *changes, dc_error_t *err);

/*
 * The coc/ tags the store wants on a thread's messages (char *, sorted):
 * coc/case and coc/case-N for every case covering it that is not
 * withdrawn, and coc/<kind> and coc/state-<state> of the newest.  Empty
 * when no case covers it.
 */
dc_status_t dc_mirror_wanted(dc_store_t *s, const char *thread_id,
			     GPtrArray **out, dc_error_t *err);

/* Queue the case for its tags to be brought up to date; call inside the
 * transaction that records the event. */
dc_status_t dc_mirror_queue_case(dc_store_t *s, int64_t case_id, int64_t now,
				 dc_error_t *err);

/* thread_wanted plus the tags of the cases that cover message_id alone
 * (message scope, singles: dc_store_mail_t * of its thread). */
dc_status_t dc_mirror_message_wanted(dc_store_t *s, GPtrArray *thread_wanted,
				     GPtrArray *singles,
				     const char *message_id, GPtrArray **out,
				     dc_error_t *err);

/*
 * Make the messages of thread_id carry exactly the coc/ tags the store
 * wants (other tags untouched) in an open read-write notmuch database (a
 * notmuch_database_t *).  The thread cache must be current.
 */
dc_status_t dc_mirror_apply(dc_store_t *s, void *notmuch_db,
			    const char *thread_id, int *changes,
			    dc_error_t *err);

#endif
