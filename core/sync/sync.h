/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A committee shares one case history through a git remote (docs/decorum.1,
 * SYNC).  Each member appends signed envelopes to a ref of their own,
 * refs/decorum/events/KEY-ID; every envelope carries one event of the
 * local log, its payload sealed with age to the members whose access
 * window covers the case.  Cases replay in the merged order (lamport,
 * envelope hash), so every member with the same envelopes replays the
 * same state.
 *
 * Import is all or nothing: an envelope that is unsigned, signed by a
 * key that is not a member's, or signed outside its signer's window stops
 * the sync with a message naming it, and nothing of that sync is applied.
 */
#ifndef DC_SYNC_H
#define DC_SYNC_H

#include <glib.h>
#include <stdint.h>

#include "core/base/status.h"
#include "store/store.h"

typedef struct dc_sync_opts {
	const char *remote;   /* NULL: the only one configured */
	const char *key_path; /* this member's ssh ed25519 private key;
			       * KEY_PATH.pub beside it */
	int64_t now;
} dc_sync_opts_t;

typedef struct dc_sync_result {
	int imported; /* envelopes taken, readable */
	int sealed;   /* envelopes taken that this member has no key to */
	int exported; /* envelopes written and pushed */
} dc_sync_result_t;

/* decorum remote add/remove/list.  trust: the ssh public key whose
 * membership event starts the remote's trust (NULL: this member's own). */
dc_status_t dc_remote_add(dc_store_t *s, const char *name, const char *url,
			  const char *trust, dc_error_t *err);
dc_status_t dc_remote_remove(dc_store_t *s, const char *name,
			     dc_error_t *err);

/* Pull, check and apply the others' envelopes, then share this store's
 * new events and push them. */
dc_status_t dc_sync(dc_store_t *s, const dc_sync_opts_t *o,
		    dc_sync_result_t *r, dc_error_t *err);

/* ---- the pieces, for the unit tests ----------------------------------- */

typedef struct dc_envelope {
	char *text; /* as written; its SHA-256 is hash */
	char *hash;
	char *author; /* key id */
	int64_t lamport;
	int64_t at;
	char *case_gid; /* NULL: not about one case */
	char *type;
	char *to;      /* recipients' key ids, space separated */
	/* type "member": the membership it records. */
	char *member_key; /* "ssh-ed25519 BASE64" */
	char *role;
	int64_t joined, left;
	char *payload; /* age, armoured */
} dc_envelope_t;

void dc_envelope_free(dc_envelope_t *e);
/* Fill e->text and e->hash from the other fields. */
void dc_envelope_write(dc_envelope_t *e);
/* DC_E_DATA naming what is wrong. */
dc_status_t dc_envelope_parse(const char *text, dc_envelope_t **out,
			      dc_error_t *err);
/* The same for an envelope this store took before: hash is the one the
 * store keeps for it (computed from text when it was taken), so that a
 * sync does not hash the whole log again. */
dc_status_t dc_envelope_parse_stored(const char *text, const char *hash,
				     dc_envelope_t **out, dc_error_t *err);
/* Sort dc_envelope_t * into the merged order. */
void dc_envelope_sort(GPtrArray *envs);
/*
 * Check every envelope's signer in the merged order (envs sorted):
 * trust_root's key id may start the membership; after that a membership
 * envelope needs an active committee member and any other an active
 * member at its time.  DC_E_DENIED naming the first that fails.
 */
dc_status_t dc_envelope_check_signers(GPtrArray *envs, const char *trust_root,
				      dc_error_t *err);

#endif
