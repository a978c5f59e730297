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

#include "core/mail.h"
#include "core/status.h"
#include "store/store.h"

/* Number of tag changes waiting in the outbox. */
dc_status_t dc_mirror_pending(dc_store_t *s, int *count, dc_error_t *err);

/*
 * Apply queued tag changes to notmuch, opening it read-write for as short a
 * time as possible.  Never waits for a lock: when notmuch is locked returns
 * DC_E_LOCKED with the queue intact.  *applied may be NULL.
 */
dc_status_t dc_mirror_flush(dc_store_t *s, const dc_mail_opts_t *mail_opts,
			    int *applied, dc_error_t *err);

#endif
