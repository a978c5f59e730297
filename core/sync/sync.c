// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * decorum sync: the shared log through git (core/sync/sync.h).
 */
#include <glib/gstdio.h>
#include <stdarg.h>
#include <string.h>

#include "core/base/testhook.h"
#include "core/case/access.h"
#include "core/case/case.h"
#include "core/case/event.h"
#include "core/privacy/erase.h"
#include "core/sync/crypt.h"
#include "core/sync/proc.h"
#include "core/sync/sync.h"

#define REF_PREFIX "refs/decorum/events/"
#define KEYS_PREFIX "refs/decorum/keys/"
/* The remote's key refs as fetched: KEYS_FETCHED REMOTE/GID. */
#define KEYS_FETCHED "refs/decorum-keys/"

/* What one sync works with. */
typedef struct sync {
	dc_store_t *s;
	const dc_sync_opts_t *o;
	dc_store_remote_t *remote;
	char *gitdir;
	char *me;       /* "ssh-ed25519 BASE64" */
	char *me_id;    /* its key id */
	char *identity; /* the private key, for age */
	char *signers;  /* the allowed-signers file */
	char *tmpdir;
	GPtrArray *envs; /* dc_envelope_t *: every one known, merged order */
	GHashTable *seen; /* hash -> 1 */
	GHashTable *touched; /* case id -> 1 */
	GHashTable *remote_keys; /* case gid -> commit of its key ref there */
	GHashTable *key_push; /* key ref -> commit to push; "": delete it */
	GHashTable *erased; /* case gid -> 1: erased in this sync */
	dc_sync_result_t *r;
	int checked, to_check; /* commits, for the progress */
} sync_t;

static void
progress(sync_t *y, const char *phase, int done, int total)
{
	if (y->o->progress)
		y->o->progress(y->o->progress_data, phase, done, total);
}

/* ---- git -------------------------------------------------------------- */

static const char *const git_env[] = {
	"GIT_AUTHOR_NAME=decorum", "GIT_AUTHOR_EMAIL=decorum@invalid",
	"GIT_COMMITTER_NAME=decorum", "GIT_COMMITTER_EMAIL=decorum@invalid",
	"GIT_TERMINAL_PROMPT=0", NULL,
};

/* git --git-dir GITDIR ARGS... (NULL-terminated), stdin in; *out its
 * stdout (NULL: dropped). */
static dc_status_t
git(sync_t *y, const char *in, char **out, int may_fail, int *status,
    dc_error_t *err, ...)
{
	GPtrArray *argv = g_ptr_array_new();
	dc_proc_t p = { .env = git_env, .in = in, .in_len = -1,
			.may_fail = may_fail };
	dc_status_t st;
	const char *a;
	char *what;
	va_list ap;
	guint i;

	g_ptr_array_add(argv, "git");
	g_ptr_array_add(argv, "--git-dir");
	g_ptr_array_add(argv, y->gitdir);
	va_start(ap, err);
	while ((a = va_arg(ap, const char *)))
		g_ptr_array_add(argv, (char *)a);
	va_end(ap);
	g_ptr_array_add(argv, NULL);
	p.argv = (const char *const *)argv->pdata;
	/* A failure names git's command ("git fetch"), past the -c pairs. */
	for (i = 3; i + 2 < argv->len && !strcmp(argv->pdata[i], "-c"); i += 2)
		;
	what = g_strconcat("git ", (char *)argv->pdata[i], NULL);
	p.what = what;
	st = dc_proc_run(&p, err);
	g_free(what);
	if (status)
		*status = p.status;
	/* A blob's bytes are what its hash covers: only the answers of
	 * other commands lose their newline. */
	if (st == DC_OK && out)
		*out = strcmp(argv->pdata[3], "cat-file")
			       ? g_strdup(g_strchomp(p.out))
			       : g_strdup(p.out);
	dc_proc_clear(&p);
	g_ptr_array_unref(argv);
	return st;
}

static dc_status_t
git_init(sync_t *y, dc_error_t *err)
{
	char *dir = g_path_get_dirname(dc_store_path(y->s));
	const char *argv[] = { "git", "init", "-q", "--bare", NULL, NULL };
	dc_proc_t p = { .argv = argv, .env = git_env };
	dc_status_t st = DC_OK;

	y->gitdir = g_build_filename(dir, "sync.git", NULL);
	g_free(dir);
	if (g_file_test(y->gitdir, G_FILE_TEST_IS_DIR))
		return DC_OK;
	argv[4] = y->gitdir;
	st = dc_proc_run(&p, err);
	dc_proc_clear(&p);
	if (st == DC_OK && g_chmod(y->gitdir, 0700) != 0)
		st = dc_fail(err, DC_E_IO, "cannot make %s private",
			     y->gitdir);
	return st;
}

/* ---- remotes ---------------------------------------------------------- */

static dc_status_t
remote_find(dc_store_t *s, const char *name, dc_store_remote_t **out,
	    dc_error_t *err)
{
	GPtrArray *all = NULL;
	dc_status_t st = dc_store_remote_list(s, &all, err);
	guint i;

	*out = NULL;
	if (st != DC_OK)
		return st;
	for (i = 0; i < all->len && !*out; i++) {
		dc_store_remote_t *r = all->pdata[i];

		if (name ? !strcmp(r->name, name) : all->len == 1)
			*out = g_ptr_array_steal_index(all, i);
	}
	if (!*out)
		st = dc_fail(err, DC_E_NOT_FOUND,
			     name ? "no remote named '%s' (decorum remote "
				    "list)"
			     : all->len ? "%swhich remote? (decorum sync NAME)"
					: "%sno remote: decorum remote add NAME "
					  "URL",
			     name ? name : "");
	g_ptr_array_unref(all);
	return st;
}

dc_status_t
dc_remote_add(dc_store_t *s, const char *name, const char *url,
	      const char *trust, dc_error_t *err)
{
	dc_store_remote_t r = { .name = (char *)name, .url = (char *)url };
	char *key = NULL;
	dc_status_t st;

	if (!name || !*name || strspn(name, "abcdefghijklmnopqrstuvwxyz"
					    "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
					    "0123456789-_.") != strlen(name))
		return dc_fail(err, DC_E_USAGE,
			       "a remote's name is letters, digits, '-', '_' "
			       "and '.'");
	if (!url || !*url || *url == '-')
		return dc_fail(err, DC_E_USAGE, "'%s' is not a git URL",
			       url ? url : "");
	if (trust && dc_ssh_key_normalize(trust, &key, err) != DC_OK)
		return DC_E_USAGE;
	r.trust_root = key;
	st = dc_store_remote_put(s, &r, err);
	g_free(key);
	return st;
}

dc_status_t
dc_remote_remove(dc_store_t *s, const char *name, dc_error_t *err)
{
	dc_store_remote_t *r = NULL;
	dc_status_t st = remote_find(s, name, &r, err);

	if (st == DC_OK)
		st = dc_store_remote_delete(s, name, err);
	dc_store_remote_free(r);
	return st;
}

/* ---- this member's key ------------------------------------------------ */

static dc_status_t
load_key(sync_t *y, dc_error_t *err)
{
	char *pub_path = g_strconcat(y->o->key_path, ".pub", NULL);
	char *pub = NULL;
	gsize n = 0;
	dc_status_t st = DC_OK;

	if (!g_file_get_contents(pub_path, &pub, NULL, NULL))
		st = dc_fail(err, DC_E_NOT_FOUND,
			     "no ssh public key at %s ([sync] key names the "
			     "private key; make one with ssh-keygen -t "
			     "ed25519)",
			     pub_path);
	else if (dc_ssh_key_normalize(pub, &y->me, err) != DC_OK)
		st = dc_fail(err, DC_E_USAGE, "%s: not an ssh ed25519 key",
			     pub_path);
	else if (!g_file_get_contents(y->o->key_path, &y->identity, &n,
				      NULL))
		st = dc_fail(err, DC_E_NOT_FOUND, "cannot read %s",
			     y->o->key_path);
	if (st == DC_OK)
		y->me_id = dc_key_id(y->me);
	g_free(pub);
	g_free(pub_path);
	return st;
}

/* ---- what is known ---------------------------------------------------- */

static void
envelope_free_cb(gpointer p)
{
	dc_envelope_free(p);
}

static void
know(sync_t *y, dc_envelope_t *e)
{
	g_hash_table_add(y->seen, g_strdup(e->hash));
	g_ptr_array_add(y->envs, e);
}

static dc_status_t
load_known(sync_t *y, dc_error_t *err)
{
	GPtrArray *all = NULL;
	dc_status_t st = dc_store_envelope_list(y->s, 0, &all, err);
	guint i;

	for (i = 0; st == DC_OK && i < all->len; i++) {
		const dc_store_envelope_t *se = all->pdata[i];
		dc_envelope_t *e = NULL;

		st = dc_envelope_parse_stored(se->body ? se->body : "",
					      se->hash, &e, err);
		if (st == DC_OK)
			know(y, e);
	}
	if (all)
		g_ptr_array_unref(all);
	return st;
}

/* The allowed-signers file: every key a membership envelope names, and
 * the trust root; whether one may sign then is dc_envelope_check_signers'
 * question. */
static dc_status_t
write_signers(sync_t *y, GPtrArray *more, dc_error_t *err)
{
	GString *t = g_string_new(NULL);
	GPtrArray *lists[] = { y->envs, more };
	const char *root = y->remote->trust_root ? y->remote->trust_root
						 : y->me;
	char *id = dc_key_id(root);
	dc_status_t st = DC_OK;
	guint i, l;

	g_string_append_printf(t, "%s namespaces=\"git\" %s\n", id, root);
	g_free(id);
	for (l = 0; l < G_N_ELEMENTS(lists); l++)
		for (i = 0; i < lists[l]->len; i++) {
			const dc_envelope_t *e = lists[l]->pdata[i];

			if (!e->member_key)
				continue;
			id = dc_key_id(e->member_key);
			g_string_append_printf(t, "%s namespaces=\"git\" %s\n",
					       id, e->member_key);
			g_free(id);
		}
	g_free(y->signers);
	y->signers = g_build_filename(y->tmpdir, "allowed-signers", NULL);
	if (!g_file_set_contents(y->signers, t->str, t->len, NULL))
		st = dc_fail(err, DC_E_IO, "cannot write %s", y->signers);
	g_string_free(t, TRUE);
	return st;
}

/* ---- case data keys --------------------------------------------------- */

/*
 * A case's data key is an age identity; the remote holds it on
 * KEYS_PREFIX GID, in a signed commit whose one file, "key", is this text
 * sealed by age to the ssh keys of the members entitled to the case.
 */
static char *
key_text(const char *gid, const dc_store_sync_key_t *k)
{
	return g_strdup_printf("# decorum case key %s\n# public key: %s\n%s\n",
			       gid, k->recipient, k->secret);
}

static dc_store_sync_key_t *
key_parse(const char *gid, const char *text)
{
	dc_store_sync_key_t *k = g_new0(dc_store_sync_key_t, 1);
	char **lines = g_strsplit(text, "\n", -1);
	char *head = g_strdup_printf("# decorum case key %s", gid);
	int i, ok = lines[0] && !strcmp(lines[0], head);

	for (i = 0; ok && lines[i]; i++) {
		if (g_str_has_prefix(lines[i], "# public key: age1"))
			k->recipient = g_strdup(lines[i] + 14);
		else if (g_str_has_prefix(lines[i], "AGE-SECRET-KEY-"))
			k->secret = g_strdup(lines[i]);
	}
	for (i = 0; lines[i]; i++)
		memset(lines[i], 0, strlen(lines[i]));
	g_strfreev(lines);
	g_free(head);
	if (!ok || !k->recipient || !k->secret) {
		dc_store_sync_key_free(k);
		return NULL;
	}
	k->case_gid = g_strdup(gid);
	return k;
}

/* The remote's key refs, as the fetch left them. */
static dc_status_t
list_remote_keys(sync_t *y, dc_error_t *err)
{
	char *pat = g_strdup_printf(KEYS_FETCHED "%s/", y->remote->name);
	char *list = NULL, **lines;
	dc_status_t st = git(y, NULL, &list, 0, NULL, err, "for-each-ref",
			     "--format=%(refname) %(objectname)", pat, NULL);
	int i;

	lines = g_strsplit(list ? list : "", "\n", -1);
	for (i = 0; st == DC_OK && lines[i]; i++) {
		char **f = g_strsplit(lines[i], " ", 2);

		if (f[0] && f[1] && g_str_has_prefix(f[0], pat))
			g_hash_table_insert(y->remote_keys,
					    g_strdup(f[0] + strlen(pat)),
					    g_strdup(f[1]));
		g_strfreev(f);
	}
	g_strfreev(lines);
	g_free(list);
	g_free(pat);
	return st;
}

/* A key's commit must be signed by a member's key: whoever administers
 * the remote could otherwise hand the members a key of their own to seal
 * new events to. */
static int
key_signed(sync_t *y, const char *commit)
{
	char *cfg, *out = NULL;
	dc_error_t err = { 0 };
	int ok;

	if (!y->signers)
		return 0;
	cfg = g_strconcat("gpg.ssh.allowedSignersFile=", y->signers, NULL);
	ok = git(y, NULL, &out, 1, NULL, &err, "-c", "gpg.format=ssh", "-c",
		 cfg, "log", "-1", "--format=%G?", commit, NULL) == DC_OK &&
	     !strcmp(out, "G");
	dc_error_clear(&err);
	g_free(out);
	g_free(cfg);
	return ok;
}

/*
 * Take case gid's data key from the remote, when this member is one it is
 * sealed to and a member signed it.  A key ref whose commit this store
 * took before is not taken again: this member has it, or erased it since.
 */
static dc_status_t
take_key(sync_t *y, const char *gid, dc_store_sync_key_t **out,
	 dc_error_t *err)
{
	const char *tip = g_hash_table_lookup(y->remote_keys, gid);
	char *ref, *last = NULL, *obj, *sealed = NULL, *plain = NULL;
	dc_error_t derr = { 0 };
	dc_status_t st;
	int status = 0;

	*out = NULL;
	if (!tip)
		return DC_OK;
	ref = g_strconcat(KEYS_PREFIX, gid, NULL);
	obj = g_strconcat(tip, ":key", NULL);
	st = dc_store_sync_ref_get(y->s, ref, &last, err);
	if (st == DC_OK && !(last && !strcmp(last, tip)) &&
	    key_signed(y, tip))
		st = git(y, NULL, &sealed, 1, &status, err, "cat-file", "blob",
			 obj, NULL);
	if (st == DC_OK && sealed && !status &&
	    dc_age_decrypt(y->identity, sealed, &plain, &derr) == DC_OK)
		*out = key_parse(gid, plain);
	dc_error_clear(&derr);
	if (st == DC_OK && *out)
		st = dc_store_sync_key_put(y->s, *out, err);
	if (st == DC_OK && *out)
		st = dc_store_sync_ref_put(y->s, ref, tip, err);
	if (plain)
		memset(plain, 0, strlen(plain));
	g_free(plain);
	g_free(sealed);
	g_free(last);
	g_free(obj);
	g_free(ref);
	return st;
}

/* The data key of case gid: recipient's (NULL: any of the case's), held
 * here or taken from the remote; *out NULL when this member has none. */
static dc_status_t
case_key(sync_t *y, const char *gid, const char *recipient,
	 dc_store_sync_key_t **out, dc_error_t *err)
{
	GPtrArray *all = NULL;
	dc_status_t st;

	*out = NULL;
	if (recipient) {
		st = dc_store_sync_key_get(y->s, recipient, out, err);
		if (st == DC_E_NOT_FOUND) {
			dc_error_clear(err);
			st = DC_OK;
		}
		if (st == DC_OK && *out && g_strcmp0((*out)->case_gid, gid))
			g_clear_pointer(out, dc_store_sync_key_free);
	} else {
		st = dc_store_sync_keys_of_case(y->s, gid, &all, err);
		if (st == DC_OK && all->len)
			*out = g_ptr_array_steal_index(all, 0);
		if (all)
			g_ptr_array_unref(all);
	}
	if (st == DC_OK && !*out)
		st = take_key(y, gid, out, err);
	if (st == DC_OK && *out && recipient &&
	    strcmp((*out)->recipient, recipient))
		g_clear_pointer(out, dc_store_sync_key_free);
	return st;
}

/* An envelope's payload in clear: NULL when this member has no key. */
static dc_status_t
open_payload(sync_t *y, const dc_envelope_t *e, char **text,
	     dc_error_t *err)
{
	const char *gid = dc_envelope_case_key(e);
	dc_store_sync_key_t *k = NULL;
	dc_error_t derr = { 0 };
	dc_status_t st = DC_OK;

	*text = NULL;
	if (gid)
		st = case_key(y, gid, e->key, &k, err);
	if (st == DC_OK && (!gid || k))
		dc_age_decrypt(k ? k->secret : y->identity, e->payload, text,
			       &derr);
	dc_error_clear(&derr);
	dc_store_sync_key_free(k);
	return st;
}

/* Erased: the case's data keys go, here and (key_refs) on the remote. */
static dc_status_t
forget_keys(sync_t *y, const char *gid, dc_error_t *err)
{
	g_hash_table_add(y->erased, g_strdup(gid));
	return dc_store_sync_keys_forget(y->s, gid, err);
}

/*
 * What to push of the key refs: one whose commit this store took or
 * wrote but whose key it no longer holds was erased here, and goes from
 * the remote (again, if a push failed); one this store wrote that the
 * remote lacks goes there (again).
 */
static dc_status_t
key_refs(sync_t *y, dc_error_t *err)
{
	GHashTableIter it;
	gpointer k, v;
	char *list = NULL, **lines;
	dc_status_t st = DC_OK;
	int i;

	g_hash_table_iter_init(&it, y->remote_keys);
	while (st == DC_OK && g_hash_table_iter_next(&it, &k, &v)) {
		char *ref = g_strconcat(KEYS_PREFIX, k, NULL), *last = NULL;
		GPtrArray *held = NULL;

		st = dc_store_sync_ref_get(y->s, ref, &last, err);
		if (st == DC_OK && last && !strcmp(last, v))
			st = dc_store_sync_keys_of_case(y->s, k, &held, err);
		if (st == DC_OK && held && !held->len) {
			g_hash_table_insert(y->key_push, ref, g_strdup(""));
			ref = NULL;
		}
		if (held)
			g_ptr_array_unref(held);
		g_free(last);
		g_free(ref);
	}
	if (st == DC_OK)
		st = git(y, NULL, &list, 0, NULL, err, "for-each-ref",
			 "--format=%(refname) %(objectname)", KEYS_PREFIX,
			 NULL);
	lines = g_strsplit(list ? list : "", "\n", -1);
	for (i = 0; st == DC_OK && lines[i]; i++) {
		char **f = g_strsplit(lines[i], " ", 2);
		GPtrArray *held = NULL;
		const char *gid = f[0] && f[1] ? f[0] + strlen(KEYS_PREFIX)
					       : NULL;

		if (gid && !g_hash_table_contains(y->remote_keys, gid))
			st = dc_store_sync_keys_of_case(y->s, gid, &held, err);
		if (st == DC_OK && held && held->len)
			g_hash_table_insert(y->key_push, g_strdup(f[0]),
					    g_strdup(f[1]));
		if (held)
			g_ptr_array_unref(held);
		g_strfreev(f);
	}
	g_strfreev(lines);
	g_free(list);
	return st;
}

/* ---- import ----------------------------------------------------------- */

typedef struct incoming {
	char *ref;
	char *tip;
	GPtrArray *commits; /* char *, oldest first */
} incoming_t;

static void
incoming_free(gpointer p)
{
	incoming_t *in = p;

	g_free(in->ref);
	g_free(in->tip);
	g_ptr_array_unref(in->commits);
	g_free(in);
}

static dc_status_t
fetch(sync_t *y, GPtrArray *refs, dc_error_t *err)
{
	char *spec = g_strdup_printf("+" REF_PREFIX "*:refs/remotes/%s/*",
				     y->remote->name);
	char *pat = g_strdup_printf("refs/remotes/%s/", y->remote->name);
	char *kspec = g_strdup_printf("+" KEYS_PREFIX "*:" KEYS_FETCHED "%s/*",
				      y->remote->name);
	char *list = NULL, **lines;
	dc_status_t st;
	int i;

	st = git(y, NULL, NULL, 0, NULL, err, "fetch", "-q", "--no-tags", "--prune",
		 "--", y->remote->url, spec, kspec, NULL);
	g_free(kspec);
	if (st == DC_OK)
		st = git(y, NULL, &list, 0, NULL, err, "for-each-ref",
			 "--format=%(refname) %(objectname)", pat, NULL);
	lines = g_strsplit(list ? list : "", "\n", -1);
	for (i = 0; st == DC_OK && lines[i]; i++) {
		char **f = g_strsplit(lines[i], " ", 2);
		incoming_t *in;

		if (f[0] && f[1] && strcmp(f[0] + strlen(pat), y->me_id)) {
			in = g_new0(incoming_t, 1);
			in->ref = g_strconcat(REF_PREFIX, f[0] + strlen(pat),
					      NULL);
			in->tip = g_strdup(f[1]);
			in->commits = g_ptr_array_new_with_free_func(g_free);
			g_ptr_array_add(refs, in);
		}
		g_strfreev(f);
	}
	g_strfreev(lines);
	g_free(list);
	g_free(spec);
	g_free(pat);
	return st;
}

/* The objects COMMIT+suffix of commits (NULL-terminated), of the given
 * type, in that order, through one git cat-file --batch: a process per
 * ref, not one per commit. */
static dc_status_t
read_objects(sync_t *y, char *const *commits, const char *suffix,
	     const char *type, GPtrArray *texts, dc_error_t *err)
{
	GString *in = g_string_new(NULL);
	char *out = NULL;
	const char *p, *end;
	dc_status_t st;
	int i;

	for (i = 0; commits[i]; i++)
		g_string_append_printf(in, "%s%s\n", commits[i], suffix);
	st = git(y, in->str, &out, 0, NULL, err, "cat-file", "--batch",
		 NULL);
	p = out;
	end = out ? out + strlen(out) : NULL;
	for (i = 0; st == DC_OK && commits[i]; i++) {
		const char *nl = memchr(p, '\n', end - p);
		char *head = nl ? g_strndup(p, nl - p) : NULL;
		char **f = head ? g_strsplit(head, " ", -1) : NULL;
		guint64 n = 0;

		if (!f || g_strv_length(f) != 3 || strcmp(f[1], type) ||
		    !g_ascii_string_to_unsigned(f[2], 10, 0, G_MAXSIZE, &n,
						NULL) ||
		    (guint64)(end - nl - 1) < n + 1 || nl[1 + n] != '\n')
			st = dc_fail(err, DC_E_DATA, "commit %.12s has no %s",
				     commits[i], *suffix ? "envelope" : "object");
		else if (memchr(nl + 1, '\0', n))
			st = dc_fail(err, DC_E_DATA,
				     "the %s of commit %.12s is not text",
				     *suffix ? "envelope" : "object", commits[i]);
		else
			g_ptr_array_add(texts, g_strndup(nl + 1, n));
		if (st == DC_OK)
			p = nl + 1 + n + 1;
		g_strfreev(f);
		g_free(head);
	}
	g_free(out);
	g_string_free(in, TRUE);
	return st;
}

/* The commits of a ref not imported yet, oldest first, and their
 * envelopes. */
static dc_status_t
read_ref(sync_t *y, incoming_t *in, GPtrArray *news, GHashTable *by_commit,
	 dc_error_t *err)
{
	GPtrArray *texts = g_ptr_array_new_with_free_func(g_free);
	char *last = NULL, *list = NULL, *not = NULL, **c = NULL;
	dc_status_t st = dc_store_sync_ref_get(y->s, in->ref, &last, err);
	guint i;

	if (st == DC_OK && last && !strcmp(last, in->tip))
		goto out;
	not = last ? g_strconcat("^", last, NULL) : NULL;
	if (st == DC_OK)
		st = git(y, NULL, &list, 0, NULL, err, "rev-list", "--reverse",
			 in->tip, not, NULL);
	c = g_strsplit(list && *list ? list : "", "\n", -1);
	if (st == DC_OK && c[0])
		st = read_objects(y, c, ":envelope", "blob", texts, err);
	for (i = 0; st == DC_OK && i < texts->len; i++) {
		const char *text = texts->pdata[i];
		dc_envelope_t *e = NULL;

		st = dc_envelope_parse(text, &e, err);
		if (st == DC_OK && strcmp(e->author,
					  in->ref + strlen(REF_PREFIX)))
			st = dc_fail(err, DC_E_DENIED,
				     "envelope %.12s on %s names another "
				     "author",
				     e->hash, in->ref);
		if (st == DC_OK) {
			g_ptr_array_add(in->commits, g_strdup(c[i]));
			g_hash_table_insert(by_commit, g_strdup(c[i]), e);
			g_ptr_array_add(news, e);
		} else {
			dc_envelope_free(e);
		}
	}
out:
	g_strfreev(c);
	g_ptr_array_unref(texts);
	g_free(list);
	g_free(not);
	g_free(last);
	return st;
}

/*
 * A commit as git splits it to check it: the signature is the gpgsig
 * header (its continuation lines without their leading space), what it
 * signs is the commit without that header.  0 when there is none.
 */
static int
split_signed(const char *obj, GString *payload, GString *sig)
{
	const char *p = obj, *nl;
	int in_sig = 0;

	while (*p && *p != '\n') {
		nl = strchr(p, '\n');
		nl = nl ? nl + 1 : p + strlen(p);
		if (g_str_has_prefix(p, "gpgsig ")) {
			in_sig = 1;
			g_string_append_len(sig, p + 7, nl - p - 7);
		} else if (in_sig && *p == ' ') {
			g_string_append_len(sig, p + 1, nl - p - 1);
		} else {
			in_sig = 0;
			g_string_append_len(payload, p, nl - p);
		}
		p = nl;
	}
	g_string_append(payload, p);
	return sig->len > 0;
}

/* What git runs for gpg.format=ssh once it knows the principal: the
 * signature against the allowed signers, for that principal, in the
 * namespace "git". */
static dc_status_t
ssh_verify(sync_t *y, const GString *payload, const GString *sig,
	   const char *principal, int *good, dc_error_t *err)
{
	const char *argv[] = { "ssh-keygen", "-Y", "verify", "-n", "git",
			       "-f", y->signers, "-I", principal,
			       "-s", "/dev/fd/3", NULL };
	dc_proc_t p = { .argv = argv, .in = payload->str,
			.in_len = payload->len, .fd3 = sig->str,
			.may_fail = 1 };
	dc_status_t st = dc_proc_run(&p, err);

	*good = st == DC_OK && p.status == 0;
	dc_proc_clear(&p);
	return st;
}

/*
 * Every commit good, signed by the key its envelope names: the check
 * git makes for gpg.format=ssh (git log --format=%G? %GS), ssh-keygen -Y
 * verify against the allowed signers for each commit, with the principal
 * git would look up with ssh-keygen -Y find-principals given at once: it
 * is the envelope's author, and any other signer fails.  The commits
 * read_ref took, through one git cat-file --batch.
 */
static dc_status_t
check_signatures(sync_t *y, incoming_t *in, GHashTable *by_commit,
		 dc_error_t *err)
{
	GPtrArray *objs = g_ptr_array_new_with_free_func(g_free);
	GString *payload = g_string_new(NULL), *sig = g_string_new(NULL);
	dc_status_t st = DC_OK;
	guint i;

	g_ptr_array_add(in->commits, NULL);
	if (in->commits->len > 1)
		st = read_objects(y, (char *const *)in->commits->pdata, "",
				  "commit", objs, err);
	g_ptr_array_remove_index(in->commits, in->commits->len - 1);
	for (i = 0; st == DC_OK && i < in->commits->len; i++) {
		const char *c = in->commits->pdata[i];
		const dc_envelope_t *e = g_hash_table_lookup(by_commit, c);
		int signed_ = 0, good = 0;

		g_string_truncate(payload, 0);
		g_string_truncate(sig, 0);
		signed_ = split_signed(objs->pdata[i], payload, sig);
		if (signed_ && g_str_has_prefix(sig->str, "-----BEGIN SSH "
							 "SIGNATURE-----"))
			st = ssh_verify(y, payload, sig, e->author, &good, err);
		progress(y, "checking", ++y->checked, y->to_check);
		if (st == DC_OK && !good)
			st = dc_fail(err, DC_E_DENIED,
				     "envelope %.12s (commit %.12s on %s) is "
				     "%s",
				     e->hash, c, in->ref,
				     !signed_ ? "not signed"
					      : "not signed by a member's key");
	}
	g_string_free(payload, TRUE);
	g_string_free(sig, TRUE);
	g_ptr_array_unref(objs);
	return st;
}

static GVariant *
parse_variant(const char *text, const char *type)
{
	GVariant *v = text ? g_variant_parse(G_VARIANT_TYPE(type), text, NULL,
					     NULL, NULL)
			   : NULL;

	return v;
}

static dc_status_t
apply_member(sync_t *y, GVariant *data, int only_new, dc_error_t *err)
{
	dc_store_member_t m = { 0 }, *old = NULL;
	dc_status_t st;

	m.address = dc_payload_str(data, "address");
	m.name = dc_payload_str(data, "name");
	m.role = dc_payload_str(data, "role");
	m.joined = dc_payload_int(data, "joined");
	m.left = dc_payload_int(data, "left");
	m.ssh_key = dc_payload_str(data, "ssh_key");
	if (!m.address || !m.role) {
		st = dc_fail(err, DC_E_DATA, "a membership without address");
		goto out;
	}
	st = dc_store_member_get(y->s, m.address, &old, err);
	if (st == DC_E_NOT_FOUND) {
		dc_error_clear(err);
		st = DC_OK;
	}
	if (st == DC_OK && !(only_new && old))
		st = dc_store_member_put(y->s, &m, err);
out:
	dc_store_member_free(old);
	g_free(m.address);
	g_free(m.name);
	g_free(m.role);
	g_free(m.ssh_key);
	return st;
}

static dc_status_t
apply_roster(sync_t *y, GVariant *plain, dc_error_t *err)
{
	GVariant *roster = g_variant_lookup_value(plain, "roster",
						  G_VARIANT_TYPE("aa{sv}"));
	dc_status_t st = DC_OK;
	gsize i;

	for (i = 0; roster && st == DC_OK && i < g_variant_n_children(roster);
	     i++) {
		GVariant *m = g_variant_get_child_value(roster, i);

		st = apply_member(y, m, 1, err);
		g_variant_unref(m);
	}
	if (roster)
		g_variant_unref(roster);
	return st;
}

/* An opening envelope: the case row and its mail. */
static dc_status_t
open_case(sync_t *y, const dc_envelope_t *e, GVariant *plain, int64_t *id,
	  dc_error_t *err)
{
	GVariant *c = g_variant_lookup_value(plain, "case",
					     G_VARIANT_TYPE("a{sv}"));
	GVariant *mail = c ? g_variant_lookup_value(c, "mail",
						    G_VARIANT_TYPE("a(sss)"))
			   : NULL;
	char *kind = dc_payload_str(c, "kind");
	char *subject = dc_payload_str(c, "subject");
	dc_status_t st;
	gsize i;

	if (!kind)
		st = dc_fail(err, DC_E_DATA, "envelope %.12s opens no case",
			     e->hash);
	else
		st = dc_store_case_insert(y->s, kind, "new", e->at,
					  dc_payload_int(c, "reported_at"),
					  subject, id, err);
	for (i = 0; st == DC_OK && mail && i < g_variant_n_children(mail);
	     i++) {
		const char *mid, *scope, *role;
		dc_store_mail_t m = { .case_id = *id, .added_at = e->at };

		g_variant_get_child(mail, i, "(&s&s&s)", &mid, &scope, &role);
		m.message_id = (char *)mid;
		m.scope = (char *)scope;
		m.role = *role ? (char *)role : NULL;
		st = dc_store_case_add_mail(y->s, &m, err);
	}
	if (st == DC_OK)
		st = dc_store_sync_case_put(y->s, *id, e->hash, err);
	if (mail)
		g_variant_unref(mail);
	if (c)
		g_variant_unref(c);
	g_free(kind);
	g_free(subject);
	return st;
}

/* Which local case e is about: 0 for none (membership), -1 for one this
 * member cannot see (its opening sealed). */
static dc_status_t
case_of(sync_t *y, const dc_envelope_t *e, GVariant *plain, int64_t *id,
	dc_error_t *err)
{
	dc_status_t st;

	*id = 0;
	if (!strcmp(e->type, "open"))
		return open_case(y, e, plain, id, err);
	if (!e->case_gid)
		return DC_OK;
	st = dc_store_sync_case_id(y->s, e->case_gid, id, err);
	if (st == DC_E_NOT_FOUND) {
		dc_error_clear(err);
		*id = -1;
		st = DC_OK;
	}
	return st;
}

/* An undo names the event it undoes by envelope on the remote. */
static GVariant *
undo_local(sync_t *y, GVariant *data, int to_local)
{
	GVariantDict d;
	dc_store_envelope_t *se = NULL;
	char *h = dc_payload_str(data, "undoes_envelope");
	gint64 id = dc_payload_int(data, "undoes");

	g_variant_dict_init(&d, data);
	if (to_local && h &&
	    dc_store_envelope_get(y->s, h, &se, NULL) == DC_OK) {
		g_variant_dict_insert(&d, "undoes", "x", (gint64)se->event_id);
		g_variant_dict_remove(&d, "undoes_envelope");
	} else if (!to_local && id &&
		   dc_store_envelope_of_event(y->s, id, &se, NULL) == DC_OK) {
		g_variant_dict_insert(&d, "undoes_envelope", "s", se->hash);
		g_variant_dict_remove(&d, "undoes");
	}
	dc_store_envelope_free(se);
	g_free(h);
	return g_variant_dict_end(&d);
}

static dc_status_t
record(sync_t *y, const dc_envelope_t *e, int64_t event_id,
       const char *origin, const char *commit, dc_error_t *err)
{
	dc_store_envelope_t se = {
		.hash = e->hash, .event_id = event_id, .lamport = e->lamport,
		.case_gid = e->case_gid, .author = e->author,
		.type = e->type, .at = e->at, .origin = (char *)origin,
		.body = e->text, .commit_id = (char *)commit,
	};

	return dc_store_envelope_put(y->s, &se, err);
}

/* Another member erased the case: the same erasure here, on this copy. */
static dc_status_t
apply_erasure(sync_t *y, const dc_envelope_t *e, int64_t case_id,
	      const char *actor, int64_t *eid, dc_error_t *err)
{
	dc_erase_opts_t o = { .case_id = case_id, .actor = actor,
			      .now = e->at, .synced = 1 };
	dc_erase_result_t r;
	dc_status_t st = dc_erase_in(y->s, &o, &r, err);

	*eid = r.event_id;
	return st;
}

static dc_status_t
apply_one(sync_t *y, const dc_envelope_t *e, const char *commit,
	  dc_error_t *err)
{
	char *text = NULL, *actor = NULL, *type = NULL, *dtext = NULL;
	GVariant *plain = NULL, *data = NULL;
	int64_t case_id = 0, eid = 0;
	dc_status_t st = open_payload(y, e, &text, err);

	if (st != DC_OK)
		goto out;
	if (text)
		plain = parse_variant(text, "a{sv}");
	if (!plain) {
		y->r->sealed++;
		st = record(y, e, 0, "remote", commit, err);
		goto out;
	}
	actor = dc_payload_str(plain, "actor");
	type = dc_payload_str(plain, "type");
	dtext = dc_payload_str(plain, "data");
	data = dtext ? parse_variant(dtext, "a{sv}") : NULL;
	if (!actor || g_strcmp0(type, e->type)) {
		st = dc_fail(err, DC_E_DATA,
			     "envelope %.12s: its payload is not the event "
			     "it names",
			     e->hash);
		goto out;
	}
	st = case_of(y, e, plain, &case_id, err);
	if (st == DC_OK && !strcmp(type, "erasure") && e->case_gid)
		st = forget_keys(y, e->case_gid, err);
	if (st == DC_OK && case_id < 0) {
		y->r->sealed++;
		st = record(y, e, 0, "remote", commit, err);
		goto out;
	}
	if (st == DC_OK && data && !strcmp(type, "undo")) {
		GVariant *l = undo_local(y, data, 1);

		g_variant_unref(data);
		data = g_variant_ref_sink(l);
	}
	if (st == DC_OK && !strcmp(type, "member") && data)
		st = apply_roster(y, plain, err);
	if (st == DC_OK && !strcmp(type, "member") && data)
		st = apply_member(y, data, 0, err);
	if (st == DC_OK && !strcmp(type, "erasure") && case_id > 0)
		st = apply_erasure(y, e, case_id, actor, &eid, err);
	else if (st == DC_OK)
		st = dc_event_append(y->s, case_id, e->at, actor, type,
				     data, &eid,
				     err);
	if (st == DC_OK)
		st = record(y, e, eid, "remote", commit, err);
	if (st == DC_OK && case_id > 0)
		g_hash_table_add(y->touched, g_memdup2(&case_id,
						       sizeof case_id));
	y->r->imported += st == DC_OK;
out:
	if (plain)
		g_variant_unref(plain);
	if (data)
		g_variant_unref(data);
	if (text)
		memset(text, 0, strlen(text));
	g_free(text);
	g_free(actor);
	g_free(type);
	g_free(dtext);
	return st;
}

static dc_status_t
import(sync_t *y, dc_error_t *err)
{
	GPtrArray *refs = g_ptr_array_new_with_free_func(incoming_free);
	GPtrArray *news = g_ptr_array_new();
	GHashTable *by_commit = g_hash_table_new_full(g_str_hash, g_str_equal,
						      g_free, NULL);
	GHashTable *commit_of = g_hash_table_new_full(g_str_hash, g_str_equal,
						      g_free, g_free);
	const char *root = y->remote->trust_root ? y->remote->trust_root
						 : y->me;
	char *root_id = dc_key_id(root);
	GHashTableIter it;
	gpointer k, v;
	dc_status_t st;
	guint i, j;
	int done = 0;

	progress(y, "fetching", 0, 0);
	st = fetch(y, refs, err);
	dc_test_crash_point("sync-after-fetch");
	if (st == DC_OK)
		st = list_remote_keys(y, err);
	for (i = 0; st == DC_OK && i < refs->len; i++)
		st = read_ref(y, refs->pdata[i], news, by_commit, err);
	if (st == DC_OK)
		st = write_signers(y, news, err);
	y->checked = 0;
	y->to_check = (int)news->len;
	if (st == DC_OK)
		progress(y, "checking", 0, y->to_check);
	for (i = 0; st == DC_OK && i < refs->len; i++)
		st = check_signatures(y, refs->pdata[i], by_commit, err);
	g_hash_table_iter_init(&it, by_commit);
	while (g_hash_table_iter_next(&it, &k, &v))
		g_hash_table_insert(commit_of,
				    g_strdup(((dc_envelope_t *)v)->hash),
				    g_strdup(k));
	/* Every envelope, old and new, in the merged order. */
	for (i = 0, j = 0; st == DC_OK && i < news->len; i++) {
		dc_envelope_t *e = news->pdata[i];

		if (!g_hash_table_contains(y->seen, e->hash))
			news->pdata[j++] = e;
		else
			dc_envelope_free(e);
	}
	if (st == DC_OK)
		g_ptr_array_set_size(news, j);
	for (i = 0; st == DC_OK && i < news->len; i++)
		g_ptr_array_add(y->envs, news->pdata[i]);
	if (st == DC_OK) {
		dc_envelope_sort(y->envs);
		st = dc_envelope_check_signers(y->envs, root_id, err);
	}
	done = 0;
	if (st == DC_OK && news->len)
		progress(y, "applying", 0, (int)news->len);
	for (i = 0; st == DC_OK && i < y->envs->len; i++) {
		dc_envelope_t *e = y->envs->pdata[i];
		const char *c = g_hash_table_lookup(commit_of, e->hash);

		if (c && !g_hash_table_contains(y->seen, e->hash)) {
			st = apply_one(y, e, c, err);
			if (st == DC_OK)
				progress(y, "applying", ++done,
					 (int)news->len);
			dc_test_crash_point("sync-mid-import");
		}
	}
	for (i = 0; st == DC_OK && i < news->len; i++)
		g_hash_table_add(y->seen,
				 g_strdup(((dc_envelope_t *)news->pdata[i])->hash));
	for (i = 0; st == DC_OK && i < refs->len; i++) {
		incoming_t *in = refs->pdata[i];

		st = dc_store_sync_ref_put(y->s, in->ref, in->tip, err);
	}
	if (st != DC_OK) {
		/* y->envs may hold some of news: drop them from both. */
		for (i = 0; i < news->len; i++) {
			guint at;

			if (g_ptr_array_find(y->envs, news->pdata[i], &at))
				g_ptr_array_steal_index(y->envs, at);
		}
		g_ptr_array_set_free_func(news, envelope_free_cb);
	}
	g_hash_table_destroy(commit_of);
	g_hash_table_destroy(by_commit);
	g_ptr_array_unref(news);
	g_ptr_array_unref(refs);
	g_free(root_id);
	return st;
}

/* ---- export ----------------------------------------------------------- */

static int
covers(const dc_store_member_t *m, int64_t t)
{
	return m->ssh_key && m->joined <= t && (!m->left || t < m->left);
}

/* The recipients: members whose window covers t (the case's report, or
 * the time of a membership change), and this member. */
static dc_status_t
recipients(sync_t *y, int64_t t, GPtrArray *keys, GString *ids,
	   dc_error_t *err)
{
	GPtrArray *all = NULL;
	dc_status_t st = dc_store_member_list(y->s, &all, err);
	guint i;

	g_ptr_array_add(keys, g_strdup(y->me));
	g_string_append(ids, y->me_id);
	for (i = 0; st == DC_OK && i < all->len; i++) {
		const dc_store_member_t *m = all->pdata[i];
		char *id;

		if (!covers(m, t) || !strcmp(m->ssh_key, y->me))
			continue;
		id = dc_key_id(m->ssh_key);
		g_ptr_array_add(keys, g_strdup(m->ssh_key));
		g_string_append_printf(ids, " %s", id);
		g_free(id);
	}
	if (all)
		g_ptr_array_unref(all);
	g_ptr_array_add(keys, NULL);
	return st;
}

/* A membership envelope carries the whole roster: whoever it admits
 * learns who the others are. */
static dc_status_t
add_roster(sync_t *y, GVariantBuilder *b, dc_error_t *err)
{
	GPtrArray *all = NULL;
	GVariantBuilder r;
	dc_status_t st = dc_store_member_list(y->s, &all, err);
	guint i;

	if (st != DC_OK)
		return st;
	g_variant_builder_init(&r, G_VARIANT_TYPE("aa{sv}"));
	for (i = 0; i < all->len; i++)
		g_variant_builder_add_value(&r, dc_member_payload(all->pdata[i]));
	g_variant_builder_add(b, "{sv}", "roster", g_variant_builder_end(&r));
	g_ptr_array_unref(all);
	return DC_OK;
}

static dc_status_t
add_case(sync_t *y, GVariantBuilder *b, const dc_store_case_t *c)
{
	GVariantBuilder d, m;
	guint i;

	g_variant_builder_init(&d, G_VARIANT_TYPE("a{sv}"));
	g_variant_builder_add(&d, "{sv}", "kind", g_variant_new_string(c->kind));
	g_variant_builder_add(&d, "{sv}", "reported_at",
			      g_variant_new_int64(c->reported_at));
	if (c->subject)
		g_variant_builder_add(&d, "{sv}", "subject",
				      g_variant_new_string(c->subject));
	g_variant_builder_init(&m, G_VARIANT_TYPE("a(sss)"));
	for (i = 0; i < c->mail->len; i++) {
		const dc_store_mail_t *x = c->mail->pdata[i];

		g_variant_builder_add(&m, "(sss)", x->message_id, x->scope,
				      x->role ? x->role : "");
	}
	g_variant_builder_add(&d, "{sv}", "mail", g_variant_builder_end(&m));
	g_variant_builder_add(b, "{sv}", "case", g_variant_builder_end(&d));
	(void)y;
	return DC_OK;
}

/* The plaintext of an event's envelope. */
static dc_status_t
plaintext(sync_t *y, const dc_store_event_t *ev, const dc_store_case_t *c,
	  char **out, dc_error_t *err)
{
	GVariantBuilder b;
	GVariant *data = dc_event_data(ev), *v;
	dc_status_t st = DC_OK;

	g_variant_builder_init(&b, G_VARIANT_TYPE("a{sv}"));
	g_variant_builder_add(&b, "{sv}", "actor",
			      g_variant_new_string(ev->actor));
	g_variant_builder_add(&b, "{sv}", "type",
			      g_variant_new_string(ev->type));
	/* An erasure's record names this store's events: it goes alone. */
	if (data && !strcmp(ev->type, "erasure"))
		g_clear_pointer(&data, g_variant_unref);
	if (data && !strcmp(ev->type, "undo")) {
		v = g_variant_ref_sink(undo_local(y, data, 0));
		g_variant_unref(data);
		data = v;
	}
	if (data) {
		char *t = g_variant_print(data, TRUE);

		g_variant_builder_add(&b, "{sv}", "data",
				      g_variant_new_take_string(t));
		g_variant_unref(data);
	}
	if (!strcmp(ev->type, "member"))
		st = add_roster(y, &b, err);
	else if (!strcmp(ev->type, "open") && c)
		st = add_case(y, &b, c);
	v = g_variant_ref_sink(g_variant_builder_end(&b));
	*out = st == DC_OK ? g_variant_print(v, TRUE) : NULL;
	g_variant_unref(v);
	return st;
}

static void
member_header(dc_envelope_t *e, const dc_store_event_t *ev)
{
	GVariant *d = dc_event_data(ev);
	char *key = dc_payload_str(d, "ssh_key");

	if (key) {
		e->member_key = key;
		e->role = dc_payload_str(d, "role");
		e->joined = dc_payload_int(d, "joined");
		e->left = dc_payload_int(d, "left");
	}
	if (d)
		g_variant_unref(d);
}

/* Write one commit on this member's ref: the envelope, signed. */
static dc_status_t
commit_envelope(sync_t *y, const dc_envelope_t *e, char **tip,
		dc_error_t *err)
{
	char *blob = NULL, *tree = NULL, *line, *commit = NULL;
	char *skey = g_strconcat("user.signingkey=", y->o->key_path, NULL);
	char *msg = g_strdup_printf("decorum %s\n", e->type);
	dc_status_t st;

	st = git(y, e->text, &blob, 0, NULL, err, "hash-object", "-w",
		 "--stdin", NULL);
	line = g_strdup_printf("100644 blob %s\tenvelope\n", blob);
	if (st == DC_OK)
		st = git(y, line, &tree, 0, NULL, err, "mktree", NULL);
	if (st == DC_OK)
		st = git(y, msg, &commit, 0, NULL, err, "-c", "gpg.format=ssh",
			 "-c", skey, "commit-tree", "-S", tree,
			 *tip ? "-p" : NULL, *tip, NULL);
	if (st == DC_OK) {
		g_free(*tip);
		*tip = commit;
		commit = NULL;
	}
	g_free(commit);
	g_free(line);
	g_free(tree);
	g_free(blob);
	g_free(msg);
	g_free(skey);
	return st;
}

static dc_status_t
gid_of(sync_t *y, const dc_store_event_t *ev, char **gid, dc_error_t *err)
{
	dc_status_t st;

	*gid = NULL;
	if (!ev->case_id || !strcmp(ev->type, "open"))
		return DC_OK;
	st = dc_store_sync_case_gid(y->s, ev->case_id, gid, err);
	if (st == DC_E_NOT_FOUND)
		st = dc_fail(err, DC_E_DATA,
			     "event %" G_GINT64_FORMAT " is about case %"
			     G_GINT64_FORMAT ", whose opening is not shared",
			     (gint64)ev->id, (gint64)ev->case_id);
	return st;
}

/* The key's commit on its ref: the key sealed to the entitled members. */
static dc_status_t
commit_key(sync_t *y, const char *gid, const dc_store_sync_key_t *k,
	   GPtrArray *keys, dc_error_t *err)
{
	char *text = key_text(gid, k), *sealed = NULL, *blob = NULL;
	char *tree = NULL, *line = NULL, *commit = NULL;
	char *skey = g_strconcat("user.signingkey=", y->o->key_path, NULL);
	char *ref = g_strconcat(KEYS_PREFIX, gid, NULL);
	dc_status_t st = dc_age_encrypt((const char *const *)keys->pdata, text,
					-1, &sealed, err);

	if (st == DC_OK)
		st = git(y, sealed, &blob, 0, NULL, err, "hash-object", "-w",
			 "--stdin", NULL);
	if (st == DC_OK) {
		line = g_strdup_printf("100644 blob %s\tkey\n", blob);
		st = git(y, line, &tree, 0, NULL, err, "mktree", NULL);
	}
	if (st == DC_OK)
		st = git(y, "decorum key\n", &commit, 0, NULL, err, "-c",
			 "gpg.format=ssh", "-c", skey, "commit-tree", "-S",
			 tree, NULL);
	if (st == DC_OK)
		st = git(y, NULL, NULL, 0, NULL, err, "update-ref", ref, commit,
			 NULL);
	if (st == DC_OK)
		st = dc_store_sync_ref_put(y->s, ref, commit, err);
	if (st == DC_OK) {
		g_hash_table_replace(y->key_push, ref, commit);
		ref = commit = NULL;
	}
	memset(text, 0, strlen(text));
	g_free(text);
	g_free(sealed);
	g_free(blob);
	g_free(tree);
	g_free(line);
	g_free(commit);
	g_free(skey);
	g_free(ref);
	return st;
}

/* A case's events are sealed to its data key: the one held or on the
 * remote, else (an opening, or a case whose keys were erased) a new one. */
static dc_status_t
seal_to_case(sync_t *y, dc_envelope_t *e, const char *gid,
	     dc_store_sync_key_t **fresh, const char *plain, dc_error_t *err)
{
	dc_store_sync_key_t *k = NULL;
	const char *to[2] = { NULL, NULL };
	dc_status_t st = gid ? case_key(y, gid, NULL, &k, err) : DC_OK;

	*fresh = NULL;
	if (st == DC_OK && !k) {
		k = g_new0(dc_store_sync_key_t, 1);
		st = dc_age_keygen(&k->secret, &k->recipient, err);
		*fresh = k;
	}
	if (st == DC_OK) {
		to[0] = k->recipient;
		e->key = g_strdup(k->recipient);
		st = dc_age_encrypt(to, plain, -1, &e->payload, err);
	}
	if (k != *fresh)
		dc_store_sync_key_free(k);
	return st;
}

/* A new data key, once its case's global id is known. */
static dc_status_t
keep_key(sync_t *y, const char *gid, dc_store_sync_key_t *k,
	 GPtrArray *keys, dc_error_t *err)
{
	dc_status_t st;

	k->case_gid = g_strdup(gid);
	st = dc_store_sync_key_put(y->s, k, err);
	if (st == DC_OK)
		st = commit_key(y, gid, k, keys, err);
	return st;
}

/* Shared, an erasure takes the case's key off the remote (if it got
 * there: a key written in this sync is not pushed at all). */
static dc_status_t
erase_key(sync_t *y, const char *gid, dc_error_t *err)
{
	char *ref = g_strconcat(KEYS_PREFIX, gid, NULL);

	if (g_hash_table_contains(y->remote_keys, gid))
		g_hash_table_replace(y->key_push, ref, g_strdup(""));
	else
		g_hash_table_remove(y->key_push, ref);
	if (!g_hash_table_contains(y->key_push, ref))
		g_free(ref);
	return forget_keys(y, gid, err);
}

static dc_status_t
export_one(sync_t *y, const dc_store_event_t *ev, int64_t lamport,
	   char **tip, dc_error_t *err)
{
	dc_envelope_t *e = g_new0(dc_envelope_t, 1);
	dc_store_case_t *c = NULL;
	dc_store_sync_key_t *fresh = NULL;
	GPtrArray *keys = g_ptr_array_new_with_free_func(g_free);
	GString *ids = g_string_new(NULL);
	char *plain = NULL;
	int erasure = !strcmp(ev->type, "erasure");
	dc_status_t st = gid_of(y, ev, &e->case_gid, err);

	if (st == DC_OK && ev->case_id)
		st = dc_store_case_get(y->s, ev->case_id, &c, err);
	if (st == DC_OK)
		st = recipients(y, c ? c->reported_at : ev->at, keys, ids,
				err);
	if (st == DC_OK)
		st = plaintext(y, ev, c, &plain, err);
	/* A case's events to its data key; an erasure, which ends that
	 * key, and membership to the members' ssh keys. */
	if (st == DC_OK && ev->case_id && !erasure)
		st = seal_to_case(y, e, e->case_gid, &fresh, plain, err);
	else if (st == DC_OK)
		st = dc_age_encrypt((const char *const *)keys->pdata, plain,
				    -1, &e->payload, err);
	if (st == DC_OK) {
		e->author = g_strdup(y->me_id);
		e->lamport = lamport;
		e->at = ev->at;
		e->type = g_strdup(ev->type);
		e->to = g_strdup(ids->str);
		if (!strcmp(ev->type, "member"))
			member_header(e, ev);
		dc_envelope_write(e);
		st = commit_envelope(y, e, tip, err);
	}
	if (st == DC_OK && !strcmp(ev->type, "open"))
		st = dc_store_sync_case_put(y->s, ev->case_id, e->hash, err);
	if (st == DC_OK && fresh)
		st = keep_key(y, e->case_gid ? e->case_gid : e->hash, fresh,
			      keys, err);
	if (st == DC_OK && erasure && e->case_gid)
		st = erase_key(y, e->case_gid, err);
	if (st == DC_OK)
		st = record(y, e, ev->id, "local", *tip, err);
	if (st == DC_OK) {
		know(y, e);
		e = NULL;
		y->r->exported++;
	}
	/* Shared, it takes its place in the merged order. */
	if (st == DC_OK && ev->case_id)
		g_hash_table_add(y->touched, g_memdup2(&ev->case_id,
						       sizeof ev->case_id));
	if (plain)
		memset(plain, 0, strlen(plain));
	g_free(plain);
	dc_store_sync_key_free(fresh);
	dc_envelope_free(e);
	dc_store_case_free(c);
	g_string_free(ids, TRUE);
	g_ptr_array_unref(keys);
	return st;
}

/* This member's newest commit, as the store records it (the store, not
 * the git ref, is what a crash between the two leaves right). */
static dc_status_t
my_tip(sync_t *y, char **tip, dc_error_t *err)
{
	GPtrArray *all = NULL;
	dc_status_t st = dc_store_envelope_list(y->s, 0, &all, err);
	guint i;

	*tip = NULL;
	for (i = 0; st == DC_OK && i < all->len; i++) {
		const dc_store_envelope_t *e = all->pdata[i];

		if (!strcmp(e->origin, "local") && e->commit_id &&
		    !strcmp(e->author, y->me_id)) {
			g_free(*tip);
			*tip = g_strdup(e->commit_id);
		}
	}
	if (all)
		g_ptr_array_unref(all);
	return st;
}

static dc_status_t
export(sync_t *y, char **tip, dc_error_t *err)
{
	GPtrArray *evs = NULL;
	int64_t lamport = 0;
	dc_status_t st = my_tip(y, tip, err);
	guint i;

	if (st == DC_OK)
		st = dc_store_envelope_max_lamport(y->s, &lamport, err);
	if (st == DC_OK)
		st = dc_store_events_unshared(y->s, &evs, err);
	if (st == DC_OK && evs->len)
		progress(y, "sealing", 0, (int)evs->len);
	for (i = 0; st == DC_OK && i < evs->len; i++) {
		st = export_one(y, evs->pdata[i], ++lamport, tip, err);
		if (st == DC_OK)
			progress(y, "sealing", (int)i + 1, (int)evs->len);
	}
	if (evs)
		g_ptr_array_unref(evs);
	return st;
}

static dc_status_t
push(sync_t *y, const char *tip, dc_error_t *err)
{
	char *ref = g_strconcat(REF_PREFIX, y->me_id, NULL);
	GPtrArray *specs = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *argv = g_ptr_array_new();
	dc_proc_t p = { .env = git_env, .what = "git push" };
	GHashTableIter it;
	gpointer k, v;
	dc_status_t st = DC_OK;
	guint i;

	if (tip) {
		st = git(y, NULL, NULL, 0, NULL, err, "update-ref", ref, tip,
			 NULL);
		g_ptr_array_add(specs, g_strconcat(ref, ":", ref, NULL));
	}
	dc_test_crash_point("sync-before-push");
	/* A key ref is rewritten (+), or deleted (":REF"). */
	g_hash_table_iter_init(&it, y->key_push);
	while (g_hash_table_iter_next(&it, &k, &v))
		g_ptr_array_add(specs, *(char *)v ? g_strconcat("+", k, ":", k,
								NULL)
						  : g_strconcat(":", k, NULL));
	g_ptr_array_add(argv, "git");
	g_ptr_array_add(argv, "--git-dir");
	g_ptr_array_add(argv, y->gitdir);
	g_ptr_array_add(argv, "push");
	g_ptr_array_add(argv, "-q");
	g_ptr_array_add(argv, "--");
	g_ptr_array_add(argv, y->remote->url);
	for (i = 0; i < specs->len; i++)
		g_ptr_array_add(argv, specs->pdata[i]);
	g_ptr_array_add(argv, NULL);
	p.argv = (const char *const *)argv->pdata;
	if (st == DC_OK && specs->len)
		st = dc_proc_run(&p, err);
	dc_test_crash_point("sync-after-push");
	dc_proc_clear(&p);
	g_ptr_array_unref(argv);
	g_ptr_array_unref(specs);
	g_free(ref);
	return st;
}

/* Set until prune_keys has run: a sync killed before it prunes next time. */
#define PRUNE_PENDING "decorum:prune-keys"

/*
 * After an erasure, this store's git copy keeps nothing of the case's key
 * either: its refs go (and this store's own key refs of any case whose key
 * it no longer holds), and git prunes their objects now.
 */
static dc_status_t
prune_keys(sync_t *y, dc_error_t *err)
{
	GHashTableIter it;
	gpointer k;
	char *list = NULL, **lines;
	dc_status_t st = git(y, NULL, &list, 0, NULL, err, "for-each-ref",
			     "--format=%(refname)", KEYS_PREFIX, NULL);
	int i;

	lines = g_strsplit(list ? list : "", "\n", -1);
	for (i = 0; st == DC_OK && lines[i]; i++) {
		GPtrArray *held = NULL;

		if (!g_str_has_prefix(lines[i], KEYS_PREFIX))
			continue;
		st = dc_store_sync_keys_of_case(
			y->s, lines[i] + strlen(KEYS_PREFIX), &held, err);
		if (st == DC_OK && !held->len)
			g_hash_table_add(y->erased,
					 g_strdup(lines[i] + strlen(KEYS_PREFIX)));
		if (held)
			g_ptr_array_unref(held);
	}
	g_strfreev(lines);
	g_free(list);

	g_hash_table_iter_init(&it, y->erased);
	while (st == DC_OK && g_hash_table_iter_next(&it, &k, NULL)) {
		char *mine = g_strconcat(KEYS_PREFIX, k, NULL);
		char *theirs = g_strdup_printf(KEYS_FETCHED "%s/%s",
					       y->remote->name, (char *)k);

		st = git(y, NULL, NULL, 1, NULL, err, "update-ref", "-d", mine,
			 NULL);
		if (st == DC_OK)
			st = git(y, NULL, NULL, 1, NULL, err, "update-ref", "-d",
				 theirs, NULL);
		g_free(theirs);
		g_free(mine);
	}
	if (st == DC_OK)
		st = git(y, NULL, NULL, 0, NULL, err, "reflog", "expire",
			 "--expire=now", "--all", NULL);
	if (st == DC_OK)
		st = git(y, NULL, NULL, 0, NULL, err, "gc", "-q",
			 "--prune=now", NULL);
	if (st == DC_OK)
		st = dc_store_sync_ref_put(y->s, PRUNE_PENDING, "", err);
	return st;
}

/* Every case a sync touched replays again, its mail too: the merged order
 * may have put new events before old ones, and shared ones move after
 * those taken. */
static dc_status_t
refresh_touched(sync_t *y, dc_error_t *err)
{
	GHashTableIter it;
	gpointer k;
	dc_status_t st = DC_OK;

	g_hash_table_iter_init(&it, y->touched);
	while (st == DC_OK && g_hash_table_iter_next(&it, &k, NULL)) {
		st = dc_case_replay_mail(y->s, *(int64_t *)k, y->o->now, err);
		if (st == DC_OK)
			st = dc_case_refresh(y->s, *(int64_t *)k, y->o->now,
					     err);
	}
	return st;
}

static void
sync_clear(sync_t *y)
{
	if (y->signers)
		g_unlink(y->signers);
	if (y->tmpdir)
		g_rmdir(y->tmpdir);
	g_free(y->signers);
	g_free(y->tmpdir);
	dc_store_remote_free(y->remote);
	g_free(y->gitdir);
	g_free(y->me);
	g_free(y->me_id);
	if (y->identity)
		memset(y->identity, 0, strlen(y->identity));
	g_free(y->identity);
	if (y->envs)
		g_ptr_array_unref(y->envs);
	if (y->seen)
		g_hash_table_destroy(y->seen);
	if (y->touched)
		g_hash_table_destroy(y->touched);
	if (y->remote_keys)
		g_hash_table_destroy(y->remote_keys);
	if (y->key_push)
		g_hash_table_destroy(y->key_push);
	if (y->erased)
		g_hash_table_destroy(y->erased);
}

dc_status_t
dc_sync(dc_store_t *s, const dc_sync_opts_t *o, dc_sync_result_t *r,
	dc_error_t *err)
{
	sync_t y = { .s = s, .o = o, .r = r };
	char *tip = NULL, *prune = NULL;
	dc_status_t st;

	memset(r, 0, sizeof *r);
	y.envs = g_ptr_array_new_with_free_func(envelope_free_cb);
	y.seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	y.touched = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
					  NULL);
	y.remote_keys = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      g_free);
	y.key_push = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					   g_free);
	y.erased = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					 NULL);
	y.tmpdir = g_dir_make_tmp("decorum-sync-XXXXXX", NULL);
	st = y.tmpdir ? remote_find(s, o->remote, &y.remote, err)
		      : dc_fail(err, DC_E_IO, "cannot make a private "
					      "temporary directory");
	if (st == DC_OK)
		st = load_key(&y, err);
	if (st == DC_OK)
		st = git_init(&y, err);
	if (st == DC_OK)
		st = dc_store_begin(s, err);
	if (st != DC_OK)
		goto out;
	st = load_known(&y, err);
	if (st == DC_OK)
		st = dc_store_sync_ref_get(s, PRUNE_PENDING, &prune, err);
	if (st == DC_OK)
		st = import(&y, err);
	if (st == DC_OK)
		st = key_refs(&y, err);
	if (st == DC_OK)
		st = export(&y, &tip, err);
	if (st == DC_OK)
		st = refresh_touched(&y, err);
	if (st == DC_OK && g_hash_table_size(y.erased))
		st = dc_store_sync_ref_put(s, PRUNE_PENDING, "1", err);
	dc_test_crash_point("sync-before-commit");
	if (st == DC_OK)
		st = dc_store_commit(s, err);
	dc_test_crash_point("sync-after-commit");
	if (st != DC_OK) {
		dc_store_rollback(s);
		memset(r, 0, sizeof *r);
		goto out;
	}
	if (tip || g_hash_table_size(y.key_push)) {
		progress(&y, "pushing", 0, 0);
		st = push(&y, tip, err);
	}
	/* A sync is done when the remote has this member's commits: only then
	 * does the status bar stop counting them as waiting, and the sync's
	 * time become the last one. */
	if (st == DC_OK && tip)
		st = dc_store_sync_pushed_put(s, y.remote->name, tip, err);
	if (st == DC_OK)
		st = dc_store_remote_synced(s, y.remote->name, o->now, err);
	/* The erased keys' bytes go from the store's file and from git. */
	if (st == DC_OK && (g_hash_table_size(y.erased) || (prune && *prune)))
		st = prune_keys(&y, err);
	if (st == DC_OK && (g_hash_table_size(y.erased) || (prune && *prune)))
		st = dc_store_compact(s, err);
out:
	g_free(prune);
	g_free(tip);
	sync_clear(&y);
	return st;
}
