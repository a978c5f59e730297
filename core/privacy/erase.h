/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Erasure: remove a person's data from the store, or all personal data of
 * one case, while the counts stay and "decorum verify" still passes.
 *
 * How the history stays checkable: an event's hash covers the SHA-256 of
 * its payload, not the payload (core/case/event.h), and the store allows one
 * change to an event, its data from non-NULL to NULL (the triggers of
 * migration 001).  The replay (dc_case_replay) derives kind, state and
 * outcomes from payloads, so before any payload is erased an "erasure"
 * event is appended to the case carrying, for each erased event, the
 * fields the replay needs and nobody's identity: kind, thread, from/to
 * state, undoes, outcome and its dates, the handler of a case, TAB
 * votes and recusals (members are identified by design).  Notes, names,
 * the addresses of reporters, respondents and witnesses, message ids and
 * the texts of measures are not carried over.  Case subjects, which may
 * name people, are cleared; a Message-ID that names the person (all of a
 * case's, when the whole case is erased) is replaced by a stand-in.
 * Afterwards the WAL is checkpointed and the file vacuumed (secure_delete
 * is on), so the bytes are gone from the database, its WAL and its
 * journal.
 *
 * A store that syncs (docs/decorum.1, SYNC): a case that is shared is
 * erased whole, for every member.  Its erasure event is what the next
 * sync shares, its data keys are forgotten here, and every other
 * member's sync runs dc_erase_in on its own copy.  An erasure by address
 * that touches a shared case erases that case whole as well: the address
 * is not sent, and the remote's copy of the case goes with its key.
 *
 * Not erased: the actor column of events (the maintainers and committee
 * members who acted, hashed into the chain; an address that acted is
 * refused), registered members (also refused), and the mail itself.
 */
#ifndef DC_ERASE_H
#define DC_ERASE_H

#include <stdint.h>

#include "core/base/status.h"
#include "store/store.h"

typedef struct dc_erase_opts {
	const char *address; /* erase this person everywhere, or */
	int64_t case_id;     /* all personal data of this case */
	const char *actor;
	int64_t now;
	int dry_run;         /* count, change nothing */
	int synced;          /* another member's erasure, taken by a sync:
			      * the case whatever this viewer may see */
} dc_erase_opts_t;

typedef struct dc_erase_result {
	int64_t events; /* payloads erased */
	int64_t cases;  /* cases touched */
	int64_t shared; /* of them, shared cases erased whole */
	int64_t event_id; /* the last erasure event appended; 0: none */
} dc_erase_result_t;

/* DC_E_DENIED when an affected case is hidden from the viewer;
 * DC_E_INVALID for a member's or an actor's address. */
dc_status_t dc_erase(dc_store_t *s, const dc_erase_opts_t *o,
		     dc_erase_result_t *out, dc_error_t *err);
/* The same inside the caller's transaction, without compacting the
 * file (decorum sync applies another member's erasure with it). */
dc_status_t dc_erase_in(dc_store_t *s, const dc_erase_opts_t *o,
			dc_erase_result_t *out, dc_error_t *err);

#endif
