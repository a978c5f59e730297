// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Erasure (see erase.h): find the payloads, record what the replay needs
 * of them in one "erasure" event per case, set them to NULL, clear the
 * subjects, compact the file.
 */
#include <string.h>

#include "core/case/case.h"
#include "core/privacy/erase.h"
#include "core/case/event.h"

typedef struct eraser {
	const dc_erase_opts_t *o;
	dc_erase_result_t *out;
	GPtrArray *needles;   /* casefolded address and recorded names */
	GHashTable *by_case;  /* case id -> GPtrArray of dc_store_event_t * */
} eraser_t;

static int
matches(const eraser_t *x, const char *text)
{
	char *f;
	guint i;
	int hit = 0;

	if (!text)
		return 0;
	f = g_utf8_casefold(text, -1);
	for (i = 0; i < x->needles->len && !hit; i++)
		hit = strstr(f, x->needles->pdata[i]) != NULL;
	g_free(f);
	return hit;
}

static void
add_needle(eraser_t *x, const char *s)
{
	char *f;
	guint i;

	/* A one- or two-letter name would erase half the store. */
	if (!s || g_utf8_strlen(s, -1) < 3)
		return;
	f = g_utf8_casefold(s, -1);
	for (i = 0; i < x->needles->len; i++)
		if (!strcmp(x->needles->pdata[i], f)) {
			g_free(f);
			return;
		}
	g_ptr_array_add(x->needles, f);
}

/* The names recorded for the address: notes may use them instead. */
static void
names_of(eraser_t *x, GPtrArray *evs)
{
	guint i;

	for (i = 0; i < evs->len; i++) {
		const dc_store_event_t *ev = evs->pdata[i];
		char *addr, *name;

		if (strcmp(ev->type, "participant"))
			continue;
		addr = dc_event_data_string(ev, "address");
		name = dc_event_data_string(ev, "name");
		if (addr && !g_ascii_strcasecmp(addr, x->o->address))
			add_needle(x, name);
		g_free(addr);
		g_free(name);
	}
}

static void
copy_key(GVariantBuilder *b, GVariant *v, const char *key)
{
	GVariant *val = g_variant_lookup_value(v, key, NULL);

	if (val) {
		g_variant_builder_add(b, "{sv}", key, val);
		g_variant_unref(val);
	}
}

/* An address a record may keep: a member's or a handler's, unless it is
 * the one being erased. */
static void
copy_address(const eraser_t *x, GVariantBuilder *b, GVariant *v,
	     const char *key)
{
	char *a = NULL;

	g_variant_lookup(v, key, "s", &a);
	if (a && !(x->o->address && matches(x, a)))
		copy_key(b, v, key);
	g_free(a);
}

/* What the replay needs of an event, and nobody's identity. */
static GVariant *
record_of(const eraser_t *x, const dc_store_event_t *ev)
{
	static const char *const keep[][6] = {
		{ "open", "kind", "from_kind", "thread", NULL },
		{ "tag", "kind", "from_kind", "thread", NULL },
		{ "convert", "kind", "from_kind", "thread", NULL },
		{ "state", "from", "to", NULL },
		{ "vote", "vote", "question", NULL },
		{ "category", "category", NULL },
		{ "outcome", "outcome", "public", "from", "until", NULL },
		{ "undo", "undoes", "type", NULL },
	};
	GVariant *v = dc_event_data(ev);
	GVariantBuilder b;
	size_t i, k;

	g_variant_builder_init(&b, G_VARIANT_TYPE("a{sv}"));
	for (i = 0; v && i < G_N_ELEMENTS(keep); i++) {
		if (strcmp(keep[i][0], ev->type))
			continue;
		for (k = 1; keep[i][k]; k++)
			copy_key(&b, v, keep[i][k]);
	}
	if (v && !strcmp(ev->type, "outcome"))
		copy_key(&b, v, "until_release");
	if (v && !strcmp(ev->type, "outcome-edit")) {
		/* The edited values the replay applies, without the note. */
		GVariant *nv = g_variant_lookup_value(v, "new",
						      G_VARIANT_TYPE("a{sv}"));
		static const char *const fields[] = {
			"outcome", "public", "from", "until", "until_release",
		};
		GVariantBuilder nb;

		copy_key(&b, v, "edits");
		g_variant_builder_init(&nb, G_VARIANT_TYPE("a{sv}"));
		for (k = 0; nv && k < G_N_ELEMENTS(fields); k++)
			copy_key(&nb, nv, fields[k]);
		g_variant_builder_add(&b, "{sv}", "new",
				      g_variant_builder_end(&nb));
		if (nv)
			g_variant_unref(nv);
	}
	if (v && !strcmp(ev->type, "vote"))
		copy_address(x, &b, v, "member");
	if (v && (!strcmp(ev->type, "conflict") ||
		  !strcmp(ev->type, "recuse")))
		copy_address(x, &b, v, "address");
	if (v && !strcmp(ev->type, "participant")) {
		char *role = NULL;

		g_variant_lookup(v, "role", "s", &role);
		copy_key(&b, v, "role");
		/* The handler decides who sees the case (core/case/access.h). */
		if (role && !strcmp(role, "handler")) {
			copy_address(x, &b, v, "address");
			copy_key(&b, v, "remove");
		}
		g_free(role);
	}
	if (v)
		g_variant_unref(v);
	return g_variant_builder_end(&b);
}

static void
affect(eraser_t *x, dc_store_event_t *ev)
{
	GPtrArray *a = g_hash_table_lookup(x->by_case, &ev->case_id);

	if (!a) {
		int64_t *k = g_new(int64_t, 1);

		*k = ev->case_id;
		a = g_ptr_array_new();
		g_hash_table_insert(x->by_case, k, a);
	}
	g_ptr_array_add(a, ev);
}

static dc_status_t
select_events(eraser_t *x, GPtrArray *evs, dc_error_t *err)
{
	const dc_erase_opts_t *o = x->o;
	guint i;

	for (i = 0; i < evs->len; i++) {
		dc_store_event_t *ev = evs->pdata[i];

		if (o->address && !g_ascii_strcasecmp(ev->actor, o->address))
			return dc_fail(err, DC_E_INVALID,
				       "%s acted on cases (event %"
				       G_GINT64_FORMAT "); the actors of "
				       "events are part of the hash chain and "
				       "cannot be erased",
				       o->address, (gint64)ev->id);
		if (!ev->data || !strcmp(ev->type, "erasure"))
			continue;
		if (o->case_id ? ev->case_id == o->case_id
			       : matches(x, ev->data))
			affect(x, ev);
	}
	return DC_OK;
}

static dc_status_t
erase_case(eraser_t *x, dc_store_t *s, int64_t case_id, GPtrArray *evs,
	   dc_error_t *err)
{
	GVariantBuilder b, recs;
	dc_status_t st = DC_OK;
	guint i;

	g_variant_builder_init(&recs, G_VARIANT_TYPE("a{xa{sv}}"));
	for (i = 0; i < evs->len; i++) {
		const dc_store_event_t *ev = evs->pdata[i];

		g_variant_builder_add(&recs, "{x@a{sv}}", (gint64)ev->id,
				      record_of(x, ev));
	}
	g_variant_builder_init(&b, G_VARIANT_TYPE("a{sv}"));
	g_variant_builder_add(&b, "{sv}", "count",
			      g_variant_new_int64(evs->len));
	g_variant_builder_add(&b, "{sv}", "events",
			      g_variant_builder_end(&recs));
	st = dc_event_append(s, case_id, x->o->now, x->o->actor, "erasure",
			     g_variant_builder_end(&b), &x->out->event_id, err);
	for (i = 0; st == DC_OK && i < evs->len; i++)
		st = dc_store_event_erase(
			s, ((dc_store_event_t *)evs->pdata[i])->id, err);
	if (st == DC_OK && case_id)
		st = dc_store_case_clear_subject(s, case_id, err);
	return st;
}

/* Every case must be one the viewer may see: access rules hold here. */
static dc_status_t
check_visible(dc_store_t *s, GList *ids, int synced, dc_error_t *err)
{
	GList *l;

	for (l = ids; l && !synced; l = l->next) {
		int64_t id = *(int64_t *)l->data;
		dc_case_t *c = NULL;
		dc_status_t st;

		if (!id)
			continue;
		st = dc_case_get(s, id, &c, err);
		dc_case_free(c);
		if (st == DC_E_NOT_FOUND) {
			dc_error_clear(err);
			return dc_fail(err, DC_E_DENIED,
				       "the data is also in a case you may "
				       "not see; ask a committee member to "
				       "erase it");
		}
		if (st != DC_OK)
			return st;
	}
	return DC_OK;
}

static gint
id_cmp(gconstpointer a, gconstpointer b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * A Message-ID that names the person (git-send-email and many clients put
 * the sender's address in it) goes too: the case keeps a stand-in that no
 * mail has, so it shows that message as missing from then on.  Erasing a
 * whole case replaces every Message-ID of it; the stand-ins derive from
 * the Message-IDs alone, so every member's copy gets the same ones.
 */
static dc_status_t
erase_mail(eraser_t *x, dc_store_t *s, const dc_store_case_t *c,
	   dc_error_t *err)
{
	dc_status_t st = DC_OK;
	guint i;

	for (i = 0; st == DC_OK && i < c->mail->len; i++) {
		const dc_store_mail_t *m = c->mail->pdata[i];
		char *h, *stand_in;

		if (!x->o->case_id && !matches(x, m->message_id))
			continue;
		h = dc_sha256_hex(m->message_id, -1);
		stand_in = g_strdup_printf("erased.%.16s@decorum.invalid", h);
		st = dc_store_mail_rename(s, c->id, m->message_id, stand_in,
					  err);
		g_free(stand_in);
		g_free(h);
	}
	return st;
}

/* Subjects and Message-IDs that show the person, also in cases no event
 * of theirs touched. */
static dc_status_t
clear_subjects(eraser_t *x, dc_store_t *s, dc_error_t *err)
{
	GPtrArray *cases = NULL;
	dc_status_t st = dc_store_case_list(s, &cases, err);
	guint i;

	for (i = 0; st == DC_OK && i < cases->len; i++) {
		const dc_store_case_t *c = cases->pdata[i];

		if (matches(x, c->subject))
			st = dc_store_case_clear_subject(s, c->id, err);
		if (st == DC_OK)
			st = erase_mail(x, s, c, err);
	}
	if (cases)
		g_ptr_array_unref(cases);
	return st;
}

static dc_status_t
run(eraser_t *x, dc_store_t *s, GPtrArray *evs, dc_erase_result_t *out,
    dc_error_t *err)
{
	GList *ids, *l;
	dc_status_t st;

	st = select_events(x, evs, err);
	if (st != DC_OK)
		return st;
	ids = g_list_sort(g_hash_table_get_keys(x->by_case), id_cmp);
	st = check_visible(s, ids, x->o->synced, err);
	for (l = ids; st == DC_OK && l; l = l->next) {
		GPtrArray *a = g_hash_table_lookup(x->by_case, l->data);

		out->events += a->len;
		out->cases += *(int64_t *)l->data != 0;
		if (!x->o->dry_run)
			st = erase_case(x, s, *(int64_t *)l->data, a, err);
	}
	g_list_free(ids);
	if (st == DC_OK && x->o->address && !x->o->dry_run)
		st = clear_subjects(x, s, err);
	return st;
}

static dc_status_t
refuse_member(dc_store_t *s, const char *address, dc_error_t *err)
{
	dc_store_member_t *m = NULL;
	dc_status_t st = dc_store_member_get(s, address, &m, err);

	dc_store_member_free(m);
	if (st == DC_E_NOT_FOUND) {
		dc_error_clear(err);
		return DC_OK;
	}
	if (st == DC_OK)
		st = dc_fail(err, DC_E_INVALID,
			     "%s is a registered member; erasure is for the "
			     "people of a case, and members' records decide "
			     "access and votes", address);
	return st;
}

static dc_status_t
erase_case_mail(eraser_t *x, dc_store_t *s, int64_t case_id, dc_error_t *err)
{
	dc_store_case_t *c = NULL;
	dc_status_t st = dc_store_case_get(s, case_id, &c, err);

	if (st == DC_OK)
		st = erase_mail(x, s, c, err);
	dc_store_case_free(c);
	return st;
}

/* A shared case goes whole, for every member: its erasure event is what
 * the next sync shares (one with nothing left to erase too), and its data
 * keys are forgotten now. */
static dc_status_t
erase_shared(eraser_t *x, dc_store_t *s, int64_t case_id, dc_error_t *err)
{
	char *gid = NULL;
	dc_status_t st = dc_store_sync_case_gid(s, case_id, &gid, err);

	if (st == DC_E_NOT_FOUND) {
		dc_error_clear(err);
		return DC_OK;
	}
	if (st == DC_OK && !x->out->event_id) {
		GPtrArray *none = g_ptr_array_new();

		st = erase_case(x, s, case_id, none, err);
		g_ptr_array_unref(none);
	}
	if (st == DC_OK)
		st = dc_store_sync_keys_forget(s, gid, err);
	x->out->shared += st == DC_OK;
	g_free(gid);
	return st;
}

/* An erasure by address touched these cases: the shared ones go whole. */
static dc_status_t
erase_shared_cases(eraser_t *x, dc_store_t *s, dc_error_t *err)
{
	GList *ids = g_list_sort(g_hash_table_get_keys(x->by_case), id_cmp);
	GList *l;
	dc_status_t st = DC_OK;

	for (l = ids; st == DC_OK && l; l = l->next) {
		int64_t id = *(int64_t *)l->data;
		char *gid = NULL;
		dc_erase_opts_t o = *x->o;
		dc_erase_result_t r;

		if (!id)
			continue;
		st = dc_store_sync_case_gid(s, id, &gid, err);
		g_free(gid);
		if (st == DC_E_NOT_FOUND) {
			dc_error_clear(err);
			st = DC_OK;
			continue;
		}
		o.address = NULL;
		o.case_id = id;
		if (st == DC_OK)
			st = dc_erase_in(s, &o, &r, err);
		if (st == DC_OK) {
			x->out->events += r.events;
			x->out->shared += r.shared;
			x->out->event_id = r.event_id;
		}
	}
	g_list_free(ids);
	return st;
}

dc_status_t
dc_erase_in(dc_store_t *s, const dc_erase_opts_t *o, dc_erase_result_t *out,
	    dc_error_t *err)
{
	eraser_t x = { .o = o, .out = out };
	GPtrArray *evs = NULL;
	dc_status_t st;

	memset(out, 0, sizeof(*out));
	if (!!o->address == !!o->case_id)
		return dc_fail(err, DC_E_USAGE,
			       "erase either one address or one case");
	if (o->address && !strchr(o->address, '@'))
		return dc_fail(err, DC_E_USAGE, "'%s' is not a mail address",
			       o->address);
	if (o->case_id && !o->synced) {
		dc_case_t *c = NULL;

		st = dc_case_get(s, o->case_id, &c, err);
		dc_case_free(c);
		if (st != DC_OK)
			return st;
	}
	st = o->address ? refuse_member(s, o->address, err) : DC_OK;
	if (st != DC_OK)
		return st;
	x.needles = g_ptr_array_new_with_free_func(g_free);
	x.by_case = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
					  (GDestroyNotify)g_ptr_array_unref);
	st = dc_store_event_list(s, 0, &evs, err);
	if (st == DC_OK && o->address) {
		add_needle(&x, o->address);
		names_of(&x, evs);
	}
	if (st == DC_OK)
		st = run(&x, s, evs, out, err);
	/* A case with nothing left to erase still loses its subject. */
	if (st == DC_OK && o->case_id && !o->dry_run)
		st = dc_store_case_clear_subject(s, o->case_id, err);
	if (st == DC_OK && o->case_id && !o->dry_run)
		st = erase_case_mail(&x, s, o->case_id, err);
	if (st == DC_OK && o->case_id && !o->dry_run)
		st = erase_shared(&x, s, o->case_id, err);
	if (st == DC_OK && o->address && !o->dry_run)
		st = erase_shared_cases(&x, s, err);
	if (evs)
		g_ptr_array_unref(evs);
	g_hash_table_unref(x.by_case);
	g_ptr_array_unref(x.needles);
	return st;
}

dc_status_t
dc_erase(dc_store_t *s, const dc_erase_opts_t *o, dc_erase_result_t *out,
	 dc_error_t *err)
{
	dc_status_t st = dc_store_begin(s, err);

	memset(out, 0, sizeof(*out));
	if (st != DC_OK)
		return st;
	st = dc_erase_in(s, o, out, err);
	if (st == DC_OK && !o->dry_run)
		st = dc_store_commit(s, err);
	else
		dc_store_rollback(s);
	if (st == DC_OK && !o->dry_run)
		st = dc_store_compact(s, err);
	return st;
}
