// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * age and ssh key names (core/sync/crypt.h).
 */
#include <string.h>

#include "core/sync/crypt.h"
#include "core/sync/proc.h"

static guchar *
key_blob(const char *ssh_key, gsize *n)
{
	char **f = g_strsplit(ssh_key ? ssh_key : "", " ", 3);
	guchar *blob = NULL;

	*n = 0;
	if (f[0] && f[1] && !strcmp(f[0], "ssh-ed25519"))
		blob = g_base64_decode(f[1], n);
	g_strfreev(f);
	if (blob && *n != 51) {
		g_free(blob);
		blob = NULL;
	}
	return blob;
}

char *
dc_key_id(const char *ssh_key)
{
	gsize n;
	guchar *blob = key_blob(ssh_key, &n);
	char *r = blob ? g_compute_checksum_for_data(G_CHECKSUM_SHA256, blob,
						     n)
		       : NULL;

	g_free(blob);
	return r;
}

char *
dc_key_fingerprint(const char *ssh_key)
{
	gsize n, dn = 32;
	guchar *blob = key_blob(ssh_key, &n);
	guint8 d[32];
	GChecksum *c;
	char *b64, *r;

	if (!blob)
		return NULL;
	c = g_checksum_new(G_CHECKSUM_SHA256);
	g_checksum_update(c, blob, n);
	g_checksum_get_digest(c, d, &dn);
	g_checksum_free(c);
	g_free(blob);
	b64 = g_base64_encode(d, dn);
	/* ssh-keygen leaves out the padding. */
	b64[strcspn(b64, "=")] = '\0';
	r = g_strconcat("SHA256:", b64, NULL);
	g_free(b64);
	return r;
}

dc_status_t
dc_age_keygen(char **secret, char **recipient, dc_error_t *err)
{
	const char *argv[] = { "age-keygen", NULL };
	dc_proc_t p = { .argv = argv };
	dc_status_t st = dc_proc_run(&p, err);
	char **lines;
	int i;

	*secret = *recipient = NULL;
	if (st != DC_OK)
		return st;
	lines = g_strsplit(p.out, "\n", -1);
	for (i = 0; lines[i]; i++) {
		if (g_str_has_prefix(lines[i], "AGE-SECRET-KEY-"))
			*secret = g_strdup(lines[i]);
		else if (g_str_has_prefix(lines[i], "# public key: "))
			*recipient = g_strdup(lines[i] + 14);
	}
	for (i = 0; lines[i]; i++)
		memset(lines[i], 0, strlen(lines[i]));
	g_strfreev(lines);
	dc_proc_clear(&p);
	if (*secret && *recipient)
		return DC_OK;
	g_clear_pointer(secret, g_free);
	g_clear_pointer(recipient, g_free);
	return dc_fail(err, DC_E_IO, "age-keygen gave no key");
}

dc_status_t
dc_age_encrypt(const char *const *recipients, const char *plain, gssize len,
	       char **armored, dc_error_t *err)
{
	GPtrArray *argv = g_ptr_array_new();
	dc_proc_t p = { 0 };
	dc_status_t st;
	int i;

	*armored = NULL;
	g_ptr_array_add(argv, "age");
	g_ptr_array_add(argv, "--encrypt");
	g_ptr_array_add(argv, "--armor");
	for (i = 0; recipients[i]; i++) {
		g_ptr_array_add(argv, "-r");
		g_ptr_array_add(argv, (char *)recipients[i]);
	}
	g_ptr_array_add(argv, NULL);
	p.argv = (const char *const *)argv->pdata;
	p.in = plain;
	p.in_len = len;
	st = i ? dc_proc_run(&p, err)
	       : dc_fail(err, DC_E_INVALID, "nobody to encrypt to");
	if (st == DC_OK) {
		*armored = p.out;
		p.out = NULL;
	}
	dc_proc_clear(&p);
	g_ptr_array_unref(argv);
	return st;
}

dc_status_t
dc_age_decrypt(const char *identity, const char *cipher, char **plain,
	       dc_error_t *err)
{
	const char *argv[] = { "age", "--decrypt", "-i", "/dev/fd/3", NULL };
	dc_proc_t p = { .argv = argv, .in = cipher, .in_len = -1,
			.fd3 = identity, .may_fail = 1 };
	dc_status_t st = dc_proc_run(&p, err);

	*plain = NULL;
	if (st == DC_OK && p.status)
		st = dc_fail(err, DC_E_DENIED, "cannot decrypt: %s",
			     g_strstrip(p.errs));
	if (st == DC_OK) {
		*plain = p.out;
		p.out = NULL;
	}
	dc_proc_clear(&p);
	return st;
}
