/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The people of a case: who took part in its mail and in what role, as
 * identities for the scan and the redaction of core/privacy/privacy.h.
 */
#ifndef DC_PEOPLE_H
#define DC_PEOPLE_H

#include <glib.h>

#include "core/mail/mail.h"
#include "core/privacy/privacy.h"
#include "core/base/status.h"
#include "store/store.h"

struct dc_case;

/*
 * The people of a case, for the identity scan and redaction.  people
 * (may be NULL) receives the recorded participants who are reporters,
 * respondents or witnesses, and, with mail, every person who sent or
 * received the case's mail, except the addresses in members (may be
 * NULL: registered members, whose votes a report shows by design, are
 * not participants).  reporters (may be NULL) receives the recorded
 * reporters as "Reporter A", "Reporter B", ...; when none is recorded,
 * the sender of the oldest message of the first thread, and *guessed
 * (may be NULL) is set to 1.  first (may be NULL) receives the case's
 * first thread as read from mail for this, or NULL (dc_thread_free()),
 * so that a caller needing it too does not read it again.
 */
dc_status_t dc_case_people(dc_mail_t *mail, const struct dc_case *c,
			   GHashTable *members, dc_identity_set_t *people,
			   dc_identity_set_t *reporters, int *guessed,
			   dc_thread_t **first, dc_error_t *err);
/*
 * Everyone the identity scan and the redaction of case c look for, with
 * every form of each (names in every script and their Latin forms, the
 * forms added with dc_case_alias, the address), for a committee member
 * to check before an export: the reporters first, labelled "Reporter A",
 * ..., then the other people, labelled by role.  Registered members are
 * left out, as in dc_case_people.  *guessed as there.  *out: free with
 * dc_identity_set_free().
 *
 * The answer is kept (in this process, for the last few cases) under a
 * key of everything it is made from: the case as passed (participants,
 * aliases, mail, threads), the registered members, and the notmuch
 * database's UUID and revision (new mail moves it).  A caller passes
 * the case as read from the store now, and gets the answer for it now;
 * only reading the mail again is saved.
 */
dc_status_t dc_case_forms(dc_store_t *s, dc_mail_t *mail,
			  const struct dc_case *c, dc_identity_set_t **out,
			  int *guessed, dc_error_t *err);
/* How many times dc_case_forms has read the mail for its answer (not
 * found it kept), in this process: for tests. */
guint64 dc_case_forms_computed(void);
/* The registered members' addresses, lowercased (a set; unref). */
dc_status_t dc_member_addresses(dc_store_t *s, GHashTable **out,
				dc_error_t *err);

#endif
