/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Actions that need the mail as well as the store, one function each, for
 * every front end: the TUI and the command line only collect the
 * arguments and show the result, so neither can record a case differently
 * from the other or skip a check.
 */
#ifndef DC_ACTION_H
#define DC_ACTION_H

#include <stdint.h>

#include "core/case/case.h"
#include "core/mail/mail.h"
#include "core/mail/reply.h"
#include "core/base/status.h"
#include "store/store.h"

typedef struct dc_tag_result {
	int64_t case_id;
	int created;     /* a new case, not a tag on its open one */
	int converted;   /* a TAB consultation became a report */
	char *thread_id; /* the thread as notmuch numbers it now (g_free) */
	char *report;    /* its report's Message-ID (g_free) */
	int64_t closed_case; /* the thread's closed case, if it had one */
	int reopened;        /* ... and it was reopened for this tag */
} dc_tag_result_t;

/* What tagging a thread whose case is closed does. */
typedef enum {
	DC_CLOSED_ASK,    /* refuse (DC_E_INVALID, res->closed_case set) */
	DC_CLOSED_REOPEN, /* reopen that case and tag it */
	DC_CLOSED_NEW,    /* open a new case beside it */
} dc_closed_t;

void dc_tag_result_clear(dc_tag_result_t *r);

/*
 * Tag a thread: open a case covering every message it has now, named by
 * Message-ID, or add to its open case (dc_case_tag).  The thread must
 * exist.  Brings the thread cache up to date first (core/mail/anchor.h).  The
 * notmuch tags are queued; the caller flushes (dc_mirror_flush).
 */
dc_status_t dc_action_tag(dc_store_t *s, dc_mail_t *m, const char *thread_id,
			  dc_kind_t kind, const char *note, const char *actor,
			  int64_t now, dc_tag_result_t *res, dc_error_t *err);

/* dc_action_tag, saying what to do when the thread's case is closed;
 * dc_action_tag asks (DC_CLOSED_ASK). */
dc_status_t dc_action_tag_closed(dc_store_t *s, dc_mail_t *m,
				 const char *thread_id, dc_kind_t kind,
				 const char *note, dc_closed_t closed,
				 const char *actor, int64_t now,
				 dc_tag_result_t *res, dc_error_t *err);

/*
 * Attach to case case_id a thread (target: its id, or "id:MSGID" for the
 * thread holding that message) or, with DC_ATTACH_MESSAGE, one message
 * (the thread's first, or MSGID); with DC_ATTACH_REPORT the anchor is one
 * more report of the case's incident.  Anchored by Message-ID
 * (dc_case_attach); *anchor (may be NULL; g_free) names the anchor.
 */
enum { DC_ATTACH_MESSAGE = 1, DC_ATTACH_REPORT = 2 };
dc_status_t dc_action_attach(dc_store_t *s, dc_mail_t *m, int64_t case_id,
			     const char *target, unsigned flags,
			     const char *actor, int64_t now, char **anchor,
			     dc_error_t *err);
/* Detach "id:MSGID", or the case's mail in thread target
 * (dc_case_detach); m may be NULL for the id: form. */
dc_status_t dc_action_detach(dc_store_t *s, dc_mail_t *m, int64_t case_id,
			     const char *target, const char *actor,
			     int64_t now, char **anchor, dc_error_t *err);

/* Bring the store's thread cache up to date with m (dc_anchor_sync);
 * writable 0 for commands that record nothing. */
dc_status_t dc_action_sync(dc_store_t *s, dc_mail_t *m, int writable,
			   const char *actor, int64_t now, dc_error_t *err);

/*
 * Send the edited reply draft (dc_reply_send: [mail] sendmail of cfg,
 * the copy stored +sent) and record it on case case_id as a "reply"
 * event naming the reply's Message-ID and the one it answers, never its
 * text.  case_id 0: the thread has no case; the reply is sent and
 * nothing is recorded (s may then be NULL).  The case is checked before
 * anything is sent; an event that cannot be recorded once the mail is
 * gone is res->not_recorded, not a failure.
 */
dc_status_t dc_action_reply(dc_store_t *s, const dc_config_t *cfg,
			    const dc_mail_opts_t *opts, int64_t case_id,
			    const char *draft, const char *actor, int64_t now,
			    dc_reply_sent_t *res, dc_error_t *err);

/* What dc_action_upgrade did. */
typedef struct dc_upgrade_result {
	int anchored;   /* threads of older cases now named by Message-ID */
	int unresolved; /* such threads left as they were: not in this
			 * index, someone else's now, or the store busy */
} dc_upgrade_result_t;

/*
 * Finish bringing an older store up to date: s was opened with
 * DC_OPEN_UPGRADE (core/case/open.h), which migrated its schema (see
 * dc_open_info); the threads of cases opened before Message-IDs named
 * their mail are resolved now, once, against m, each recorded as an
 * "anchor" event by actor (see dc_anchor_sync).
 */
dc_status_t dc_action_upgrade(dc_store_t *s, dc_mail_t *m, const char *actor,
			      int64_t now, dc_upgrade_result_t *res,
			      dc_error_t *err);

#endif
