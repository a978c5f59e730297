// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * MANIFEST.sha256: the SHA-256 of every other file of the packet, in
 * sha256sum's format, so that "sha256sum -c" and "decorum packet
 * --verify" both check it; the check also names files that are there
 * but not listed, which sha256sum does not.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "core/base/sanitize.h"
#include "core/case/event.h"
#include "core/export/packet-build.h"

#define MANIFEST "MANIFEST.sha256"

void
dc_packet_add_manifest(dc_packet_build_t *p)
{
	GString *m = g_string_new(NULL);
	guint i;

	for (i = 0; i < p->names->len; i++) {
		GString *d = p->datas->pdata[i];
		char *h = dc_sha256_hex(d->str, d->len);

		g_string_append_printf(m, "%s  %s\n", h,
				       (char *)p->names->pdata[i]);
		g_free(h);
	}
	g_ptr_array_add(p->names, g_strdup(MANIFEST));
	g_ptr_array_add(p->datas, m);
}

void
dc_packet_check_clear(dc_packet_check_t *c)
{
	if (c->missing)
		g_ptr_array_unref(c->missing);
	if (c->changed)
		g_ptr_array_unref(c->changed);
	if (c->extra)
		g_ptr_array_unref(c->extra);
	memset(c, 0, sizeof(*c));
}

static int
is_hex64(const char *s)
{
	int i;

	for (i = 0; i < 64; i++)
		if (!g_ascii_isxdigit(s[i]))
			return 0;
	return 1;
}

/* A name the packet can hold: one plain file of the directory. */
static int
plain_name(const char *n)
{
	return *n && strcmp(n, ".") && strcmp(n, "..") && !strchr(n, '/') &&
	       strcmp(n, MANIFEST);
}

/* "HASH  NAME" (or "HASH *NAME", binary mode) -> name -> lowercase hash. */
static dc_status_t
parse_manifest(const char *text, GHashTable *want, GPtrArray *order,
	       dc_error_t *err)
{
	char **lines = g_strsplit(text, "\n", -1);
	dc_status_t st = DC_OK;
	guint i;

	for (i = 0; lines[i] && st == DC_OK; i++) {
		const char *l = lines[i], *name = l + 66;

		if (!*l && !lines[i + 1])
			break;
		if (strlen(l) < 67 || !is_hex64(l) || l[64] != ' ' ||
		    (l[65] != ' ' && l[65] != '*') || !plain_name(name) ||
		    g_hash_table_contains(want, name)) {
			char *c = dc_sanitize_line(l);

			st = dc_fail(err, DC_E_DATA, MANIFEST " line %u is "
				     "not \"SHA256  NAME\" of one file: %s",
				     i + 1, c);
			g_free(c);
			break;
		}
		g_hash_table_insert(want, g_strdup(name),
				    g_ascii_strdown(l, 64));
		g_ptr_array_add(order, g_strdup(name));
	}
	g_strfreev(lines);
	return st;
}

static void
add_name(GPtrArray **a, const char *name)
{
	if (!*a)
		*a = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(*a, dc_sanitize_line(name));
}

static void
check_file(const char *dir, const char *name, const char *hash,
	   dc_packet_check_t *out)
{
	char *path = g_build_filename(dir, name, NULL);
	char *data = NULL, *h;
	gsize len = 0;
	struct stat sb;

	if (lstat(path, &sb) < 0 && errno == ENOENT) {
		add_name(&out->missing, name);
	} else if (!S_ISREG(sb.st_mode) ||
		   !g_file_get_contents(path, &data, &len, NULL)) {
		add_name(&out->changed, name);
	} else {
		h = dc_sha256_hex(data, len);
		if (strcmp(h, hash))
			add_name(&out->changed, name);
		else
			out->verified++;
		g_free(h);
	}
	g_free(data);
	g_free(path);
}

static dc_status_t
check_dir(const char *dir, GHashTable *want, GPtrArray *order,
	  dc_packet_check_t *out, dc_error_t *err)
{
	GError *ge = NULL;
	GDir *d = g_dir_open(dir, 0, &ge);
	GPtrArray *extra = g_ptr_array_new_with_free_func(g_free);
	const char *n;
	guint i;

	if (!d) {
		dc_status_t st = dc_fail(err, DC_E_IO, "reading %s: %s", dir,
					 ge->message);

		g_error_free(ge);
		g_ptr_array_unref(extra);
		return st;
	}
	for (i = 0; i < order->len; i++)
		check_file(dir, order->pdata[i],
			   g_hash_table_lookup(want, order->pdata[i]), out);
	while ((n = g_dir_read_name(d)))
		if (strcmp(n, MANIFEST) && !g_hash_table_contains(want, n))
			g_ptr_array_add(extra, g_strdup(n));
	g_dir_close(d);
	/* In a stable order, whatever the directory's. */
	g_ptr_array_sort(extra, (GCompareFunc)g_strcmp0);
	for (i = 0; i < extra->len; i++)
		add_name(&out->extra, extra->pdata[i]);
	g_ptr_array_unref(extra);
	return DC_OK;
}

static guint
count(const GPtrArray *a)
{
	return a ? a->len : 0;
}

dc_status_t
dc_packet_verify(const char *dir, dc_packet_check_t *out, dc_error_t *err)
{
	char *path = g_build_filename(dir, MANIFEST, NULL);
	GHashTable *want = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, g_free);
	GPtrArray *order = g_ptr_array_new_with_free_func(g_free);
	char *text = NULL;
	GError *ge = NULL;
	dc_status_t st;

	memset(out, 0, sizeof(*out));
	if (!g_file_get_contents(path, &text, NULL, &ge)) {
		st = dc_fail(err, ge->code == G_FILE_ERROR_NOENT ?
				  DC_E_NOT_FOUND : DC_E_IO,
			     "%s", ge->message);
		g_error_free(ge);
		goto out;
	}
	st = parse_manifest(text, want, order, err);
	if (st == DC_OK)
		st = check_dir(dir, want, order, out, err);
	if (st == DC_OK && (count(out->missing) || count(out->changed) ||
			    count(out->extra)))
		st = dc_fail(err, DC_E_DATA, "%s does not match its "
			     MANIFEST ": %u missing, %u changed, %u extra",
			     dir, count(out->missing), count(out->changed),
			     count(out->extra));
out:
	g_free(text);
	g_free(path);
	g_hash_table_destroy(want);
	g_ptr_array_unref(order);
	return st;
}
