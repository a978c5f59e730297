/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Who may see which case.  Enforced here, below every front end and
 * export: dc_case_list(), dc_case_get() and dc_case_for_thread() apply it
 * to the viewer set on the store (dc_store_set_viewer()).
 *
 * The rules:
 *  - No member registered (a maintainer working alone): every case.
 *  - Members registered but no viewer given: no case at all.
 *  - A committee or TAB member: the cases whose report was made while they
 *    were a member (joined <= reported < left), except those they are
 *    recused from or are a respondent in.
 *  - A maintainer (registered as such, or not registered at all): the cases
 *    they opened or handle, except those they are recused from or are a
 *    respondent in.
 *  - Whoever opened a case or handles it sees it whatever their role, with
 *    the same exceptions: registering the first committee member (or
 *    oneself) never hides one's own cases.
 * A hidden case is reported as not found, so its existence does not leak.
 *
 * Membership changes are events too (case 0) with the members table as
 * their projection.  While no committee member is active, anyone who can
 * write the store may change the membership (to register the first
 * committee member); after that only an active committee member may add,
 * change or end a membership (DC_E_DENIED otherwise).  Membership changes
 * need an actor that is a mail address: access goes by address once
 * members exist.
 */
#ifndef DC_ACCESS_H
#define DC_ACCESS_H

#include <glib.h>
#include <stdint.h>

#include "core/case/case.h"
#include "core/base/status.h"
#include "store/store.h"

typedef struct dc_access dc_access_t;

/* The rules for the store's viewer (loads the members once). */
dc_status_t dc_access_load(dc_store_t *s, dc_access_t **out, dc_error_t *err);
void dc_access_free(dc_access_t *a);
/* 1 when the viewer may see c. */
int dc_access_allows(const dc_access_t *a, const dc_case_t *c);
/* Why the viewer sees what they see, for "member whoami". */
const char *dc_access_describe(const dc_access_t *a);

/* "committee", "tab", "maintainer"; DC_E_USAGE otherwise. */
dc_status_t dc_member_role_check(const char *role, dc_error_t *err);
/*
 * Register a member or change one (name/role NULL: unchanged for an
 * existing member); joined 0 keeps the old date (or now for a new one).
 */
dc_status_t dc_member_add(dc_store_t *s, const char *address,
			  const char *name, const char *role, int64_t joined,
			  const char *actor, int64_t now, dc_error_t *err);
/* The same with the member's ssh ed25519 public key (NULL: unchanged),
 * which signs their events on a shared remote (core/sync/sync.h). */
dc_status_t dc_member_add_key(dc_store_t *s, const char *address,
			      const char *name, const char *role,
			      int64_t joined, const char *ssh_key,
			      const char *actor, int64_t now, dc_error_t *err);
/* "ssh-ed25519 BASE64" of a public key line (the comment dropped);
 * DC_E_USAGE for anything else. */
dc_status_t dc_ssh_key_normalize(const char *key, char **out,
				 dc_error_t *err);
/* A membership as its event's payload (a floating a{sv}), as the shared
 * log's roster carries it too. */
GVariant *dc_member_payload(const dc_store_member_t *m);
/* Record that a member left at time left. */
dc_status_t dc_member_leave(dc_store_t *s, const char *address, int64_t left,
			    const char *actor, int64_t now, dc_error_t *err);
/* Every member, past and present, by address: dc_store_member_t *,
 * freed with the array.  None (an empty array) without a store. */
dc_status_t dc_member_list(dc_store_t *s, GPtrArray **out, dc_error_t *err);
/* Members active at time t with the given role (NULL: any). */
dc_status_t dc_member_count_active(dc_store_t *s, const char *role, int64_t t,
				   int *count, dc_error_t *err);

/*
 * The acting identity from decorum's configuration file ([identity]
 * address in path, else $DECORUM_CONFIG, else
 * $XDG_CONFIG_HOME/decorum/config), or NULL (g_free).
 */
char *dc_identity_from_config(const char *path);

#endif
