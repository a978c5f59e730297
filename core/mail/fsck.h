/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Compare the case store with the notmuch tags both ways: every coc/ tag
 * the store wants on a tracked thread's messages, and every coc/ tag
 * notmuch holds that the store does not want (also on threads no case
 * covers).  Every case's mail is looked up by Message-ID: a message that
 * is gone from the index is reported and never replaced.  Repairing applies the store's view to notmuch, refusing to
 * change more than a small share of the tags at once unless forced.
 */
#ifndef DC_FSCK_H
#define DC_FSCK_H

#include <glib.h>

#include "core/mail/mail.h"
#include "core/base/status.h"
#include "store/store.h"

typedef struct dc_fsck_diff {
	char *thread_id;
	char *message_id;
	char *tag;
	int missing; /* 1: the store wants it, notmuch lacks it; 0: extra */
} dc_fsck_diff_t;

/* A message a case covers that the notmuch index does not have. */
typedef struct dc_fsck_gone {
	int64_t case_id;
	char *message_id;
} dc_fsck_gone_t;

typedef struct dc_fsck {
	GPtrArray *diffs; /* dc_fsck_diff_t * */
	GPtrArray *gone;  /* dc_fsck_gone_t *: shown, never repaired */
	int threads;      /* threads checked */
	int tags;         /* coc/ tags wanted plus coc/ tags present */
	int limit;        /* most changes a repair makes without force */
	int pending;      /* queued in the outbox */
	int repaired;     /* changes applied */
} dc_fsck_t;

void dc_fsck_free(dc_fsck_t *f);

/*
 * Check, and with repair apply the differences.  max_changes > 0 sets the
 * limit; otherwise it is the larger of 25 and a tenth of the tags.  Over
 * the limit without force: DC_E_DENIED, nothing changed, *out filled.
 */
dc_status_t dc_fsck_run(dc_store_t *s, const dc_mail_opts_t *mail_opts,
			int repair, int force, int max_changes,
			dc_fsck_t **out, dc_error_t *err);

#endif
