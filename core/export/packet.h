/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The TAB escalation packet: one directory holding everything the TAB
 * needs about a case, written atomically (core/base/safefile.h):
 *
 *   cover.eml        an RFC 5322 message to the TAB summarising the case
 *   thread.mbox      every message of the case's threads, thread order,
 *                    mboxrd, original bytes (b4, git am, notmuch insert)
 *   timeline.txt/.json  every event with its values, undone ones marked
 *   links.txt        the lore links and Message-IDs cited in the case's
 *                    mail and notes, resolved against the index
 *   decisions.txt/.json, conflicts.txt
 *   MANIFEST.sha256  for sha256sum -c
 */
#ifndef DC_PACKET_H
#define DC_PACKET_H

#include <stdint.h>

#include "core/mail/mail.h"
#include "core/base/status.h"
#include "store/store.h"

typedef struct dc_packet_opts {
	int64_t case_id;
	const char *dir;    /* the target: must not exist */
	const char *actor;  /* From: of the cover letter */
	const char *to;     /* NULL: tech-board@lists.linux-foundation.org */
	int redact;         /* see core/privacy/redact.h */
	int final;          /* leave undone events and their undoing out */
	int64_t now;
	int64_t reply_by;   /* the TAB's reply-by day; 0: 14 days after now */
	/* Progress for long work: called after each message (may be NULL). */
	void (*progress)(void *ctx, unsigned done, unsigned total);
	void *ctx;
} dc_packet_opts_t;

/* *messages receives the number of messages written (may be NULL). */
dc_status_t dc_packet_write(dc_store_t *s, dc_mail_t *mail,
			    const dc_packet_opts_t *o, unsigned *messages,
			    dc_error_t *err);

/* What dc_packet_verify() found; names sanitized for the screen. */
typedef struct dc_packet_check {
	unsigned verified;  /* listed files whose bytes match */
	GPtrArray *missing; /* char *: listed, not in the directory */
	GPtrArray *changed; /* char *: listed, other bytes (or not a file) */
	GPtrArray *extra;   /* char *: in the directory, not listed */
} dc_packet_check_t;

/*
 * Check a packet directory against its MANIFEST.sha256 (sha256sum's
 * format): DC_OK when every listed file is there with its bytes and
 * nothing else is; DC_E_DATA when something is missing, changed or extra
 * (*out says what) or a manifest line is malformed; DC_E_NOT_FOUND when
 * there is no manifest.  Clear *out with dc_packet_check_clear().
 */
dc_status_t dc_packet_verify(const char *dir, dc_packet_check_t *out,
			     dc_error_t *err);
void dc_packet_check_clear(dc_packet_check_t *c);

/* The reply-by day the cover letter gives (o->reply_by, else 14 days
 * after o->now), and DC_E_USAGE when it is before the packet's day. */
int64_t dc_packet_reply_by(const dc_packet_opts_t *o);
dc_status_t dc_packet_check_reply_by(const dc_packet_opts_t *o,
				     dc_error_t *err);

/* Append one message to an mboxrd buffer: "From " line, ">From" quoting
 * of every (already quoted) From line, blank line after. */
void dc_mboxrd_append(GString *mbox, const char *data, size_t len);

#endif
