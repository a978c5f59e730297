/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Replies from decorum: a draft from "notmuch reply" (with an
 * acknowledgement template from [templates] at the top of its body), and
 * the sending of the edited draft through the configured command
 * ([mail] sendmail, e.g. "msmtp -t"), its sent copy stored with
 * "notmuch insert" into [mail] sent_folder (notmuch's default without it)
 * tagged +sent.  Commands run from argv vectors, never through a shell.
 * The case's "reply" event is recorded by dc_action_reply()
 * (core/case/action.h).
 */
#ifndef DC_REPLY_H
#define DC_REPLY_H

#include <glib.h>
#include <stdint.h>

#include "core/base/config.h"
#include "core/base/status.h"
#include "core/mail/mail.h"

/*
 * The template text tmpl with its placeholders filled: {case} the case
 * number (case_id 0: refused when the template names it), {subject} the
 * subject of the message replied to, {{ and }} literal braces.  An
 * unknown {name} is refused, so that no typo reaches a reporter.  g_free.
 */
dc_status_t dc_reply_fill(const char *tmpl, int64_t case_id,
			  const char *subject, char **out, dc_error_t *err);

/*
 * The draft of a reply to message_id (without angle brackets):
 * "notmuch reply id:MSGID" run on the notmuch configuration opts names,
 * with ack (may be NULL) as the first paragraph of the body, above the
 * quoted text, from the acting identity from (see dc_reply_from).
 * g_free.
 */
dc_status_t dc_reply_draft(const dc_mail_opts_t *opts, const char *message_id,
			   const char *ack, const char *from, char **out,
			   dc_error_t *err);
/*
 * draft with its From made the acting identity from ("addr" or "Name
 * <addr>"; --as, [identity], user.primary_email): notmuch reply writes
 * its own pick of the user's addresses.  The name is from's, else the
 * one the draft's From gave (user.name).  A from that is no mail
 * address (a login name) leaves the draft's From.  g_free.
 */
char *dc_reply_from(const char *draft, const char *from);

/*
 * A private place for a draft: a new 0700 directory holding the 0600
 * file "reply.eml" with text.  *path (g_free); dc_reply_draft_remove()
 * removes both.
 */
dc_status_t dc_reply_draft_write(const char *text, char **path,
				 dc_error_t *err);
void dc_reply_draft_remove(const char *path);

/* What dc_reply_send() did; clear with dc_reply_sent_clear(). */
typedef struct dc_reply_sent {
	char *message_id;  /* the reply's, without angle brackets */
	char *in_reply_to; /* the message it answers, or NULL */
	char *not_stored;  /* why the sent copy was not stored, or NULL */
	char *not_recorded; /* dc_action_reply: why the case's event was
			     * not recorded after the mail went, or NULL */
} dc_reply_sent_t;
void dc_reply_sent_clear(dc_reply_sent_t *r);

/* DC_OK when cfg names a [mail] sendmail command that can be split into
 * words; otherwise DC_E_USAGE saying what to set.  dc_reply_send()
 * checks the same: ask first, before anyone writes a reply. */
dc_status_t dc_reply_can_send(const dc_config_t *cfg, dc_error_t *err);

/*
 * Send draft (an edited dc_reply_draft(): headers, a blank line, UTF-8
 * text) as a text/plain message with a Message-ID and a Date (now, when the
 * draft has none), through
 * [mail] sendmail of cfg (DC_E_USAGE when unset: nothing is sent), then
 * store the copy (notmuch insert, +sent).  A draft without a recipient
 * is refused.  A copy that could not be stored is no failure: the mail
 * is gone; r->not_stored says why.
 */
dc_status_t dc_reply_send(const dc_config_t *cfg, const dc_mail_opts_t *opts,
			  const char *draft, int64_t now, dc_reply_sent_t *r,
			  dc_error_t *err);

#endif
