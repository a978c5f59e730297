/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Redaction: each reporter becomes "Reporter A" (B, C, ...) everywhere in
 * a message: address headers (display name and address), every other
 * header (decoded, replaced, re-encoded), decoded text bodies (quoted
 * attribution lines and signatures included), re-encoded with their
 * original transfer encoding.  Trace and authentication headers that can
 * carry identities are dropped.  What redaction cannot reach (a binary
 * attachment) the packet's final scan still catches.
 */
#ifndef DC_REDACT_H
#define DC_REDACT_H

#include <stddef.h>

#include "core/privacy/privacy.h"
#include "core/base/status.h"

/* text with every identity of set replaced by its label (g_free):
 * address -> "reporter-a@redacted.invalid", name and name words ->
 * "Reporter A", local part -> "reporter-a"; case-insensitive. */
char *dc_redact_text(const char *text, const dc_identity_set_t *set);

/* Redact one RFC 5322 message; *out (g_free) and *out_len. */
dc_status_t dc_redact_message(const char *data, size_t len,
			      const dc_identity_set_t *set, char **out,
			      size_t *out_len, dc_error_t *err);

/* Headers dropped by redaction: Received, Authentication-Results,
 * DKIM-Signature, ARC-*, Return-Path, X-Original-To, Delivered-To, ... */
int dc_redact_drops_header(const char *name);
/* id (a Message-ID without brackets) unchanged when it holds nobody of
 * set (dc_identity_in_token()), else "redacted.<HMAC>@redacted.invalid",
 * the same for the same id and set; g_free. */
char *dc_redact_msgid(const char *id, const dc_identity_set_t *set);

#endif
