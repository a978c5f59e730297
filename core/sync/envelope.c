// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Envelopes of the shared log: their text form, the merged order and the
 * signers' windows (core/sync/sync.h).
 */
#include <stdlib.h>
#include <string.h>

#include "core/case/event.h"
#include "core/sync/crypt.h"
#include "core/sync/sync.h"

void
dc_envelope_free(dc_envelope_t *e)
{
	if (!e)
		return;
	g_free(e->text);
	g_free(e->hash);
	g_free(e->author);
	g_free(e->case_gid);
	g_free(e->type);
	g_free(e->to);
	g_free(e->key);
	g_free(e->member_key);
	g_free(e->role);
	g_free(e->payload);
	g_free(e);
}

void
dc_envelope_write(dc_envelope_t *e)
{
	GString *t = g_string_new(NULL);

	if (!e->version)
		e->version = 2;
	g_string_append_printf(t, "decorum-envelope %d\n", e->version);
	g_string_append_printf(t, "author %s\nlamport %" G_GINT64_FORMAT
			       "\nat %" G_GINT64_FORMAT "\ncase %s\ntype %s\n"
			       "to %s\n",
			       e->author, (gint64)e->lamport, (gint64)e->at,
			       e->case_gid ? e->case_gid : "-", e->type,
			       e->to ? e->to : "");
	if (e->key && e->version >= 2)
		g_string_append_printf(t, "key %s\n", e->key);
	if (e->member_key)
		g_string_append_printf(t, "member %s %s %" G_GINT64_FORMAT
				       " %" G_GINT64_FORMAT "\n",
				       e->member_key, e->role,
				       (gint64)e->joined, (gint64)e->left);
	g_string_append_printf(t, "\n%s", e->payload ? e->payload : "");
	g_free(e->text);
	g_free(e->hash);
	e->text = g_string_free(t, FALSE);
	e->hash = dc_sha256_hex(e->text, -1);
}

static int
parse_int(const char *s, int64_t *out)
{
	char *end = NULL;

	if (!s || !*s)
		return 0;
	*out = g_ascii_strtoll(s, &end, 10);
	return end && !*end;
}

static int
parse_member(dc_envelope_t *e, const char *v)
{
	char **f = g_strsplit(v, " ", -1);
	int ok = g_strv_length(f) == 5 && parse_int(f[3], &e->joined) &&
		 parse_int(f[4], &e->left);
	char *id = NULL;

	if (ok) {
		e->member_key = g_strdup_printf("%s %s", f[0], f[1]);
		e->role = g_strdup(f[2]);
		id = dc_key_id(e->member_key);
		ok = id != NULL;
		g_free(id);
	}
	g_strfreev(f);
	return ok;
}

static int
parse_header(dc_envelope_t *e, const char *line)
{
	const char *sp = strchr(line, ' ');
	char *k = sp ? g_strndup(line, sp - line) : g_strdup(line);
	const char *v = sp ? sp + 1 : "";
	int ok = 1;

	if (!strcmp(k, "author"))
		e->author = g_strdup(v);
	else if (!strcmp(k, "lamport"))
		ok = parse_int(v, &e->lamport) && e->lamport > 0;
	else if (!strcmp(k, "at"))
		ok = parse_int(v, &e->at);
	else if (!strcmp(k, "case"))
		e->case_gid = strcmp(v, "-") ? g_strdup(v) : NULL;
	else if (!strcmp(k, "type"))
		e->type = g_strdup(v);
	else if (!strcmp(k, "to"))
		e->to = g_strdup(v);
	else if (!strcmp(k, "member"))
		ok = parse_member(e, v);
	else if (!strcmp(k, "key") && e->version >= 2 && !e->key &&
		 g_str_has_prefix(v, "age1"))
		e->key = g_strdup(v);
	else
		ok = 0;
	g_free(k);
	return ok;
}

static dc_status_t
parse(const char *text, const char *hash, dc_envelope_t **out,
      dc_error_t *err);

dc_status_t
dc_envelope_parse(const char *text, dc_envelope_t **out, dc_error_t *err)
{
	return parse(text, NULL, out, err);
}

dc_status_t
dc_envelope_parse_stored(const char *text, const char *hash,
			 dc_envelope_t **out, dc_error_t *err)
{
	return parse(text, hash, out, err);
}

static dc_status_t
parse(const char *text, const char *hash, dc_envelope_t **out,
      dc_error_t *err)
{
	dc_envelope_t *e = g_new0(dc_envelope_t, 1);
	const char *body = strstr(text, "\n\n");
	char *head = body ? g_strndup(text, body - text) : NULL;
	char **lines = head ? g_strsplit(head, "\n", -1) : NULL;
	int ok = lines && lines[0] &&
		 (!strcmp(lines[0], "decorum-envelope 1") ||
		  !strcmp(lines[0], "decorum-envelope 2"));
	int i;

	*out = NULL;
	if (ok)
		e->version = lines[0][17] - '0';
	for (i = 1; ok && lines[i]; i++)
		ok = parse_header(e, lines[i]);
	ok = ok && e->author && e->type && e->lamport && e->to;
	g_strfreev(lines);
	g_free(head);
	e->text = g_strdup(text);
	e->hash = hash ? g_strdup(hash) : dc_sha256_hex(text, -1);
	if (!ok) {
		dc_status_t st = dc_fail(err, DC_E_DATA,
					 "envelope %.12s is not one decorum "
					 "writes",
					 e->hash);

		dc_envelope_free(e);
		return st;
	}
	e->payload = g_strdup(body + 2);
	*out = e;
	return DC_OK;
}

const char *
dc_envelope_case_key(const dc_envelope_t *e)
{
	if (e->version < 2 || !e->key)
		return NULL;
	return !strcmp(e->type, "open") ? e->hash : e->case_gid;
}

char *
dc_key_ref(const char *gid)
{
	return g_strconcat("refs/decorum/keys/", gid, NULL);
}

static gint
merged_cmp(gconstpointer a, gconstpointer b)
{
	const dc_envelope_t *x = *(dc_envelope_t *const *)a;
	const dc_envelope_t *y = *(dc_envelope_t *const *)b;

	if (x->lamport != y->lamport)
		return x->lamport < y->lamport ? -1 : 1;
	return strcmp(x->hash, y->hash);
}

void
dc_envelope_sort(GPtrArray *envs)
{
	g_ptr_array_sort(envs, merged_cmp);
}

typedef struct window {
	char *role;
	int64_t joined, left;
} window_t;

static void
window_free(gpointer p)
{
	window_t *w = p;

	g_free(w->role);
	g_free(w);
}

static int
active(GHashTable *w, const char *key, int64_t t, int committee)
{
	const window_t *x = g_hash_table_lookup(w, key);

	return x && x->joined <= t && (!x->left || t < x->left) &&
	       (!committee || !strcmp(x->role, "committee"));
}

static int
any_committee(GHashTable *w)
{
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, w);
	while (g_hash_table_iter_next(&it, NULL, &v))
		if (!strcmp(((window_t *)v)->role, "committee"))
			return 1;
	return 0;
}

dc_status_t
dc_envelope_check_signers(GPtrArray *envs, const char *trust_root,
			  dc_error_t *err)
{
	GHashTable *w = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      window_free);
	dc_status_t st = DC_OK;
	guint i;

	for (i = 0; st == DC_OK && i < envs->len; i++) {
		const dc_envelope_t *e = envs->pdata[i];
		int member = !strcmp(e->type, "member");
		int root = trust_root && !strcmp(e->author, trust_root) &&
			   !any_committee(w);
		window_t *x;

		if (!root && !active(w, e->author, e->at, member)) {
			st = dc_fail(err, DC_E_DENIED,
				     "envelope %.12s (%s): its signer %.12s "
				     "is %s at its time",
				     e->hash, e->type, e->author,
				     g_hash_table_contains(w, e->author)
					     ? "outside their membership window"
					     : "not a member");
			break;
		}
		if (!member || !e->member_key)
			continue;
		x = g_new0(window_t, 1);
		x->role = g_strdup(e->role);
		x->joined = e->joined;
		x->left = e->left;
		g_hash_table_replace(w, dc_key_id(e->member_key), x);
	}
	g_hash_table_destroy(w);
	return st;
}
