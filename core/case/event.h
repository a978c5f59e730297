/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The event log: every change to a case is an event, appended, never
 * updated or deleted.  Each event carries the SHA-256 of the previous one,
 * so editing, removing or reordering any event breaks the chain.
 *
 * The hash covers a canonical encoding of the event (see event.c) that
 * includes the SHA-256 of the payload rather than the payload itself: an
 * erasure (the payload set to NULL) keeps the chain checkable.
 *
 * Payloads are GVariant dictionaries (a{sv}) stored in GVariant text form.
 */
#ifndef DC_EVENT_H
#define DC_EVENT_H

#include <glib.h>
#include <stdint.h>

#include "core/base/status.h"
#include "store/store.h"

/* Hex SHA-256 of len bytes (len < 0: NUL-terminated). g_free. */
char *dc_sha256_hex(const char *data, gssize len);

/* Hash of ev over its canonical encoding (ev->hash is ignored). g_free. */
char *dc_event_hash(const dc_store_event_t *ev);

/*
 * Append an event; call inside a store transaction.  data is an a{sv}
 * GVariant (floating references are sunk) or NULL for an empty payload.
 */
dc_status_t dc_event_append(dc_store_t *s, int64_t case_id, int64_t at,
			    const char *actor, const char *type, GVariant *data,
			    int64_t *id_out, dc_error_t *err);

/* Parse an event's payload; NULL when erased or unreadable. */
GVariant *dc_event_data(const dc_store_event_t *ev);
/* A string member of the payload, or NULL. g_free. */
char *dc_event_data_string(const dc_store_event_t *ev, const char *key);

/* Members of a parsed payload (v may be NULL): a string (g_free) or
 * NULL, a number or 0, a flag or FALSE. */
char *dc_payload_str(GVariant *v, const char *key);
gint64 dc_payload_int(GVariant *v, const char *key);
gboolean dc_payload_bool(GVariant *v, const char *key);

/*
 * Check the whole chain.  On a break returns DC_E_DATA, sets *bad_id to the
 * first event that does not check out and says why in err.
 */
dc_status_t dc_event_verify(dc_store_t *s, int64_t *bad_id, int64_t *count,
			    dc_error_t *err);

#endif
