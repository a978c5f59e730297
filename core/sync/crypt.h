/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the shared log is sealed with: age (the user's own program) for
 * data keys and payloads, and the names of ssh ed25519 keys.
 */
#ifndef DC_SYNC_CRYPT_H
#define DC_SYNC_CRYPT_H

#include <glib.h>

#include "core/base/status.h"

/* A key's id on a remote: the hex SHA-256 of the key blob of an
 * "ssh-ed25519 BASE64" line (normalized); NULL for anything else. */
char *dc_key_id(const char *ssh_key);
/* The same digest as ssh-keygen and git print it: "SHA256:..." */
char *dc_key_fingerprint(const char *ssh_key);

/* A new data key: an age identity and its recipient (g_free both). */
dc_status_t dc_age_keygen(char **secret, char **recipient, dc_error_t *err);
/* Encrypt plain (len < 0: a string) to every recipient ("age1..." or
 * "ssh-ed25519 ..."), ASCII-armoured. */
dc_status_t dc_age_encrypt(const char *const *recipients, const char *plain,
			   gssize len, char **armored, dc_error_t *err);
/* Decrypt with identity (an age secret key or an ssh private key, as
 * its file holds it).  DC_E_DENIED when it is not a key to it. */
dc_status_t dc_age_decrypt(const char *identity, const char *cipher,
			   char **plain, dc_error_t *err);

#endif
