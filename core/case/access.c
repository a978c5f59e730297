// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Access windows and recusal (the rules are in core/case/access.h), and the
 * member events that the members table mirrors.
 */
#include <string.h>

#include "core/base/choice.h"
#include "core/case/access.h"
#include "core/base/config.h"
#include "core/case/event.h"

struct dc_access {
	char *viewer;              /* NULL: unidentified */
	int members;               /* how many are registered */
	dc_store_member_t *member; /* the viewer's record, or NULL */
	const char *why;
};

void
dc_access_free(dc_access_t *a)
{
	if (!a)
		return;
	g_free(a->viewer);
	dc_store_member_free(a->member);
	g_free(a);
}

dc_status_t
dc_access_load(dc_store_t *s, dc_access_t **out, dc_error_t *err)
{
	dc_access_t *a = g_new0(dc_access_t, 1);
	GPtrArray *all = NULL;
	dc_status_t st;
	guint i;

	*out = NULL;
	a->viewer = g_strdup(dc_store_viewer(s));
	st = dc_store_member_list(s, &all, err);
	if (st != DC_OK) {
		dc_access_free(a);
		return st;
	}
	a->members = all->len;
	for (i = 0; a->viewer && i < all->len; i++) {
		dc_store_member_t *m = all->pdata[i];

		if (!g_ascii_strcasecmp(m->address, a->viewer))
			a->member = g_ptr_array_steal_index(all, i);
	}
	g_ptr_array_unref(all);
	if (!a->members)
		a->why = "no members are registered: every case is visible";
	else if (!a->viewer)
		a->why = "members are registered but nobody is identified "
			 "(--as, $DECORUM_AS, [identity] address or notmuch's "
			 "user.primary_email): no case is visible";
	else if (a->member && strcmp(a->member->role, "maintainer"))
		a->why = "a member sees the reports made while they were a "
			 "member and the cases they opened or handle, except "
			 "cases they are recused from or a respondent in";
	else
		a->why = "a maintainer sees the cases they opened or handle, "
			 "except cases they are recused from or a respondent "
			 "in";
	*out = a;
	return DC_OK;
}

const char *
dc_access_describe(const dc_access_t *a)
{
	return a->why;
}

static int
same(const char *a, const char *b)
{
	return a && b && !g_ascii_strcasecmp(a, b);
}

static int
has_role(const dc_case_t *c, const char *role, const char *who)
{
	guint i;

	for (i = 0; c->participants && i < c->participants->len; i++) {
		const dc_participant_t *p = c->participants->pdata[i];

		if (!strcmp(p->role, role) && same(p->address, who))
			return 1;
	}
	return 0;
}

static int
recused(const dc_case_t *c, const char *who)
{
	guint i;

	for (i = 0; c->conflicts && i < c->conflicts->len; i++) {
		const dc_conflict_t *x = c->conflicts->pdata[i];

		if (x->recused && same(x->address, who))
			return 1;
	}
	return has_role(c, "respondent", who);
}

int
dc_access_allows(const dc_access_t *a, const dc_case_t *c)
{
	const dc_store_member_t *m = a->member;

	if (!a->members)
		return 1;
	if (!a->viewer || recused(c, a->viewer))
		return 0;
	/* Whoever opened a case or handles it always sees it, member or
	 * not: registering oneself must not hide one's own cases. */
	if (same(c->opened_by, a->viewer) || has_role(c, "handler", a->viewer))
		return 1;
	if (m && strcmp(m->role, "maintainer"))
		return c->reported_at >= m->joined &&
		       (!m->left || c->reported_at < m->left);
	return 0;
}

/* ---- members ---------------------------------------------------------- */

dc_status_t
dc_member_role_check(const char *role, dc_error_t *err)
{
	static const char *const roles[] = {
		"committee", "tab", "maintainer", NULL,
	};
	int i;

	return dc_choice_parse(roles, -1, "member role", role, &i, err);
}

GVariant *
dc_member_payload(const dc_store_member_t *m)
{
	GVariantBuilder b;

	g_variant_builder_init(&b, G_VARIANT_TYPE("a{sv}"));
	g_variant_builder_add(&b, "{sv}", "address",
			      g_variant_new_string(m->address));
	if (m->name)
		g_variant_builder_add(&b, "{sv}", "name",
				      g_variant_new_string(m->name));
	g_variant_builder_add(&b, "{sv}", "role",
			      g_variant_new_string(m->role));
	g_variant_builder_add(&b, "{sv}", "joined",
			      g_variant_new_int64(m->joined));
	if (m->left)
		g_variant_builder_add(&b, "{sv}", "left",
				      g_variant_new_int64(m->left));
	if (m->ssh_key)
		g_variant_builder_add(&b, "{sv}", "ssh_key",
				      g_variant_new_string(m->ssh_key));
	return g_variant_builder_end(&b);
}

/* Record the member event and its projection in one transaction. */
static dc_status_t
member_write(dc_store_t *s, const dc_store_member_t *m, const char *actor,
	     int64_t now, dc_error_t *err)
{
	dc_status_t st = dc_store_begin(s, err);

	if (st != DC_OK)
		return st;
	st = dc_event_append(s, 0, now, actor, "member", dc_member_payload(m),
			     NULL, err);
	if (st == DC_OK)
		st = dc_store_member_put(s, m, err);
	if (st == DC_OK)
		st = dc_store_commit(s, err);
	if (st != DC_OK)
		dc_store_rollback(s);
	return st;
}

static int
active_at(const dc_store_member_t *m, int64_t t)
{
	return m->joined <= t && (!m->left || t < m->left);
}

/*
 * Who may change the membership: while no committee member is active,
 * anyone who can write the store (someone has to register the first
 * one); after that only an active committee member, so that access to
 * reports cannot be granted by whoever can open the store.
 */
static dc_status_t
member_change_allowed(dc_store_t *s, const char *actor, int64_t now,
		      dc_error_t *err)
{
	GPtrArray *all = NULL;
	dc_status_t st;
	int committee = 0, allowed = 0;
	guint i;

	/* Once members exist, access goes by address: whoever registers
	 * one unidentified would lose sight of the cases they opened. */
	if (!actor || !strchr(actor, '@'))
		return dc_fail(err, DC_E_DENIED,
			       "who is acting? %s is not a mail address: give "
			       "one (--as, $DECORUM_AS, [identity] address or "
			       "notmuch's user.primary_email) before changing "
			       "the membership, or the cases you opened would "
			       "be hidden from you",
			       actor && *actor ? actor : "nobody");
	st = dc_store_member_list(s, &all, err);
	if (st != DC_OK)
		return st;
	for (i = 0; i < all->len; i++) {
		const dc_store_member_t *m = all->pdata[i];

		if (strcmp(m->role, "committee") || !active_at(m, now))
			continue;
		committee++;
		allowed |= same(m->address, actor);
	}
	g_ptr_array_unref(all);
	if (!committee || allowed)
		return DC_OK;
	return dc_fail(err, DC_E_DENIED,
		       "only an active committee member may add, change or "
		       "end a membership, and %s is not one (--as, "
		       "$DECORUM_AS, [identity] address or notmuch's "
		       "user.primary_email)",
		       actor && *actor ? actor : "nobody identified");
}

dc_status_t
dc_member_add(dc_store_t *s, const char *address, const char *name,
	      const char *role, int64_t joined, const char *actor,
	      int64_t now, dc_error_t *err)
{
	return dc_member_add_key(s, address, name, role, joined, NULL, actor,
				 now, err);
}

dc_status_t
dc_ssh_key_normalize(const char *key, char **out, dc_error_t *err)
{
	char **f = g_strsplit_set(key ? key : "", " \t\n", -1);
	char **w = g_new0(char *, g_strv_length(f) + 1);
	guchar *blob = NULL;
	gsize n = 0, i, k = 0;
	dc_status_t st = DC_OK;

	for (i = 0; f[i]; i++)
		if (*f[i])
			w[k++] = f[i];
	if (k >= 2 && !strcmp(w[0], "ssh-ed25519"))
		blob = g_base64_decode(w[1], &n);
	/* The blob names its type again: string "ssh-ed25519", 32 bytes. */
	if (!blob || n != 51 || memcmp(blob + 4, "ssh-ed25519", 11))
		st = dc_fail(err, DC_E_USAGE,
			     "not an ssh ed25519 public key (want "
			     "\"ssh-ed25519 AAAA...\", as in ~/.ssh/"
			     "id_ed25519.pub)");
	else
		*out = g_strdup_printf("ssh-ed25519 %s", w[1]);
	g_free(blob);
	g_free(w);
	g_strfreev(f);
	return st;
}

dc_status_t
dc_member_add_key(dc_store_t *s, const char *address, const char *name,
		  const char *role, int64_t joined, const char *ssh_key,
		  const char *actor, int64_t now, dc_error_t *err)
{
	dc_store_member_t *old = NULL, m = { 0 };
	char *key = NULL;
	dc_status_t st;

	if (ssh_key && dc_ssh_key_normalize(ssh_key, &key, err) != DC_OK)
		return DC_E_USAGE;

	if (!address || !strchr(address, '@'))
		return dc_fail(err, DC_E_USAGE, "'%s' is not a mail address",
			       address ? address : "");
	st = member_change_allowed(s, actor, now, err);
	if (st != DC_OK)
		return st;
	st = dc_store_member_get(s, address, &old, err);
	if (st == DC_E_NOT_FOUND) {
		dc_error_clear(err);
		st = DC_OK;
		if (!role)
			role = "committee";
	}
	if (st != DC_OK)
		return st;
	if (role && (st = dc_member_role_check(role, err)) != DC_OK)
		goto out;
	m.address = old ? old->address : (char *)address;
	m.name = (char *)(name ? name : old ? old->name : NULL);
	m.role = (char *)(role ? role : old->role);
	m.joined = joined ? joined : old ? old->joined : now;
	m.left = old ? old->left : 0;
	if (m.left && m.left <= m.joined)
		m.left = 0; /* joined again */
	m.ssh_key = key ? key : old ? old->ssh_key : NULL;
	st = member_write(s, &m, actor, now, err);
out:
	dc_store_member_free(old);
	g_free(key);
	return st;
}

dc_status_t
dc_member_leave(dc_store_t *s, const char *address, int64_t left,
		const char *actor, int64_t now, dc_error_t *err)
{
	dc_store_member_t *m = NULL;
	dc_status_t st = member_change_allowed(s, actor, now, err);

	if (st == DC_OK)
		st = dc_store_member_get(s, address, &m, err);
	if (st != DC_OK)
		return st;
	if (left < m->joined)
		st = dc_fail(err, DC_E_INVALID,
			     "%s cannot leave before joining", address);
	else {
		m->left = left;
		st = member_write(s, m, actor, now, err);
	}
	dc_store_member_free(m);
	return st;
}

dc_status_t
dc_member_list(dc_store_t *s, GPtrArray **out, dc_error_t *err)
{
	*out = NULL;
	if (!s) {
		*out = g_ptr_array_new();
		return DC_OK;
	}
	return dc_store_member_list(s, out, err);
}

dc_status_t
dc_member_count_active(dc_store_t *s, const char *role, int64_t t, int *count,
		       dc_error_t *err)
{
	GPtrArray *all = NULL;
	dc_status_t st = dc_store_member_list(s, &all, err);
	guint i;

	*count = 0;
	if (st != DC_OK)
		return st;
	for (i = 0; i < all->len; i++) {
		const dc_store_member_t *m = all->pdata[i];

		if (role && strcmp(m->role, role))
			continue;
		if (active_at(m, t))
			(*count)++;
	}
	g_ptr_array_unref(all);
	return DC_OK;
}

/* ---- identity --------------------------------------------------------- */

char *
dc_identity_from_config(const char *path)
{
	return dc_config_value(path, "identity", "address");
}
