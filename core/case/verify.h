/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * "decorum verify": is the history intact?
 *
 *  1. The hash chain (core/case/event.h): an event edited, inserted, removed
 *     from the middle or reordered breaks it at that event.
 *  2. The chain head (migration 002): a trigger records the newest event's
 *     hash, id and the number of events in the transaction of every
 *     insert.  Removing the newest events leaves a chain that checks out
 *     on its own, but no longer ends where the head says.
 *  3. The cases table, a cache of each case's kind and state, must agree
 *     with the replay of the case's events.
 *
 * This is tamper-evident, not tamper-proof: someone who can write the
 * file can rewrite the chain and its head together.  Keep the head hash
 * that verify prints somewhere else (a signed mail, a ticket) and check
 * it later with --head HASH, which must still be in the chain.
 */
#ifndef DC_VERIFY_H
#define DC_VERIFY_H

#include <stdint.h>

#include "core/base/status.h"
#include "store/store.h"

typedef struct dc_verify {
	int64_t events;   /* events checked */
	int64_t bad_id;   /* first event that does not check out, or 0 */
	int64_t bad_case; /* first case whose cache disagrees, or 0 */
	char head[65];    /* the newest event's hash */
} dc_verify_t;

/* DC_E_DATA on any break, with the first one named in err; expect_head
 * (may be NULL) must be the hash of an event in the chain. */
dc_status_t dc_verify_store(dc_store_t *s, const char *expect_head,
			    dc_verify_t *out, dc_error_t *err);

/* DC_E_USAGE unless expect looks like an event hash (64 hex digits). */
dc_status_t dc_verify_head_check(const char *expect, dc_error_t *err);

#endif
