/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A committee shares one case history through a git remote (docs/decorum.1,
 * SYNC).  Each member appends signed envelopes to a ref of their own,
 * refs/decorum/events/KEY-ID; every envelope carries one event of the
 * local log.  A case's payloads are sealed with age to the case's data
 * key, and that key, on refs/decorum/keys/GID, to the members whose
 * access window covers the case; erasing the case deletes the key there
 * and at every member.  Cases replay in the merged order (lamport,
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

/*
 * How a sync goes, for long runs: phase is "fetching", "checking",
 * "applying", "sealing" (this member's events, encrypted and signed) or
 * "pushing"; done of total (total 0: no count for this phase).  Called
 * at the start of each phase and as it goes; it must not touch the
 * store.
 */
typedef void dc_sync_progress_fn(void *data, const char *phase, int done,
				 int total);

typedef struct dc_sync_opts {
	const char *remote;   /* NULL: the only one configured */
	const char *key_path; /* this member's ssh ed25519 private key;
			       * KEY_PATH.pub beside it */
	int64_t now;
	dc_sync_progress_fn *progress; /* NULL: none */
	void *progress_data;
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

/*
 * What the front ends show between syncs (the TUI's status bar): read from
 * the store only, no git, so it is cheap enough for every screen.
 */
typedef struct dc_sync_status {
	int remotes;	   /* how many are configured: 0, nothing to show */
	int64_t last_sync; /* the newest sync with any of them; 0: never */
	int64_t waiting;   /* events the next sync pushes */
} dc_sync_status_t;

dc_status_t dc_sync_status(dc_store_t *s, dc_sync_status_t *out,
			   dc_error_t *err);
/*
 * The key that signs and decrypts, in *out (g_free): [sync] key of
 * decorum's configuration (the file $DECORUM_CONFIG names, else
 * $XDG_CONFIG_HOME/decorum/config, as the TUI reads it; a leading ~/ is
 * the home directory), else ~/.ssh/id_ed25519.  A value that is relative,
 * ~user/, the .pub half or no file is DC_E_USAGE naming the file and the
 * line that set it, *out NULL.
 */
dc_status_t dc_sync_key_path(char **out, dc_error_t *err);

/* ---- the pieces, for the unit tests ----------------------------------- */

typedef struct dc_envelope {
	int version;  /* 2 as written now; 1: every payload to ssh keys */
	char *text; /* as written; its SHA-256 is hash */
	char *hash;
	char *author; /* key id */
	int64_t lamport;
	int64_t at;
	char *case_gid; /* NULL: not about one case */
	char *type;
	char *to;      /* recipients' key ids, space separated */
	char *key;     /* version 2: the case's data key ("age1...") the
			* payload is sealed to; NULL: sealed to the ssh keys
			* of to */
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
/* The global id of the case whose data key seals e's payload: its own
 * hash for an opening, else its case; NULL when e has no data key. */
const char *dc_envelope_case_key(const dc_envelope_t *e);
/* The ref on a remote that holds the case's data key, sealed to the ssh
 * keys of the members entitled to it (g_free). */
char *dc_key_ref(const char *gid);
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
