// SPDX-License-Identifier: GPL-3.0-or-later
#include <string.h>

#include "core/case.h"
#include "core/event.h"

static const struct {
	const char *name;
	const char *label;
} kinds[DC_KIND_COUNT] = {
	[DC_KIND_ADMONITION] = { "admonition", "Admonition" },
	[DC_KIND_ESCALATION] = { "escalation", "Escalation" },
	[DC_KIND_TAB] = { "tab", "TAB consultation" },
};

const char *
dc_kind_name(dc_kind_t k)
{
	return k < DC_KIND_COUNT ? kinds[k].name : "unknown";
}

const char *
dc_kind_label(dc_kind_t k)
{
	return k < DC_KIND_COUNT ? kinds[k].label : "Unknown";
}

dc_status_t
dc_kind_parse(const char *s, dc_kind_t *out, dc_error_t *err)
{
	int k;

	for (k = 0; k < DC_KIND_COUNT; k++) {
		if (s && !strcmp(s, kinds[k].name)) {
			*out = k;
			return DC_OK;
		}
	}
	return dc_fail(err, DC_E_USAGE,
		       "unknown case kind '%s' (admonition, escalation or tab)",
		       s ? s : "");
}

static GVariant *
tag_payload(const dc_tag_request_t *req, const char *from_kind)
{
	GVariantBuilder b;

	g_variant_builder_init(&b, G_VARIANT_TYPE("a{sv}"));
	g_variant_builder_add(&b, "{sv}", "thread",
			      g_variant_new_string(req->thread_id));
	g_variant_builder_add(&b, "{sv}", "kind",
			      g_variant_new_string(dc_kind_name(req->kind)));
	if (from_kind && strcmp(from_kind, dc_kind_name(req->kind)))
		g_variant_builder_add(&b, "{sv}", "from_kind",
				      g_variant_new_string(from_kind));
	if (req->note && *req->note)
		g_variant_builder_add(&b, "{sv}", "note",
				      g_variant_new_string(req->note));
	return g_variant_builder_end(&b);
}

/* Inside the transaction: tag an existing case. */
static dc_status_t
tag_existing(dc_store_t *s, const dc_tag_request_t *req, int64_t id,
	     dc_error_t *err)
{
	dc_store_case_t *c = NULL;
	dc_status_t st;

	st = dc_store_case_get(s, id, &c, err);
	if (st != DC_OK)
		return st;
	st = dc_event_append(s, id, req->now, req->actor, "tag",
			     tag_payload(req, c->kind), NULL, err);
	if (st == DC_OK)
		st = dc_store_case_update(s, id, dc_kind_name(req->kind),
					  c->state, req->now, err);
	dc_store_case_free(c);
	return st;
}

static dc_status_t
tag_new(dc_store_t *s, const dc_tag_request_t *req, int64_t *id,
	dc_error_t *err)
{
	dc_status_t st;

	st = dc_store_case_insert(s, dc_kind_name(req->kind), "new", req->now,
				  req->reported_at, req->subject, id, err);
	if (st == DC_OK)
		st = dc_store_case_add_thread(s, *id, req->thread_id, req->now,
					      err);
	if (st == DC_OK)
		st = dc_event_append(s, *id, req->now, req->actor, "open",
				     tag_payload(req, NULL), NULL, err);
	return st;
}

dc_status_t
dc_case_tag(dc_store_t *s, const dc_tag_request_t *req, int64_t *case_id,
	    int *created, dc_error_t *err)
{
	dc_status_t st;
	int64_t id = 0;

	*created = 0;
	st = dc_store_begin(s, err);
	if (st != DC_OK)
		return st;
	st = dc_store_case_find_open(s, req->thread_id, &id, err);
	if (st == DC_OK) {
		st = tag_existing(s, req, id, err);
	} else if (st == DC_E_NOT_FOUND) {
		dc_error_clear(err);
		st = tag_new(s, req, &id, err);
		*created = st == DC_OK;
	}
	if (st == DC_OK)
		st = dc_store_commit(s, err);
	if (st != DC_OK) {
		dc_store_rollback(s);
		*created = 0;
		return st;
	}
	*case_id = id;
	return DC_OK;
}

static void
note_free(gpointer p)
{
	dc_note_t *n = p;

	g_free(n->actor);
	g_free(n->text);
	g_free(n);
}

void
dc_case_free(dc_case_t *c)
{
	if (!c)
		return;
	g_free(c->state);
	g_free(c->subject);
	if (c->threads)
		g_ptr_array_unref(c->threads);
	if (c->notes)
		g_ptr_array_unref(c->notes);
	g_free(c);
}

static dc_status_t
case_notes(dc_store_t *s, dc_case_t *c, dc_error_t *err)
{
	GPtrArray *evs = NULL;
	dc_status_t st;
	guint i;

	c->notes = g_ptr_array_new_with_free_func(note_free);
	st = dc_store_event_list(s, c->id, &evs, err);
	if (st != DC_OK)
		return st;
	for (i = 0; i < evs->len; i++) {
		const dc_store_event_t *ev = evs->pdata[i];
		char *text = dc_event_data_string(ev, "note");
		dc_note_t *n;

		if (!text)
			continue;
		n = g_new0(dc_note_t, 1);
		n->at = ev->at;
		n->actor = g_strdup(ev->actor);
		n->text = text;
		g_ptr_array_add(c->notes, n);
	}
	g_ptr_array_unref(evs);
	return DC_OK;
}

static dc_status_t
case_from_store(dc_store_t *s, dc_store_case_t *sc, dc_case_t **out,
		dc_error_t *err)
{
	dc_case_t *c = g_new0(dc_case_t, 1);
	dc_status_t st;

	c->id = sc->id;
	if (dc_kind_parse(sc->kind, &c->kind, NULL) != DC_OK)
		c->kind = DC_KIND_ESCALATION;
	c->state = g_strdup(sc->state);
	c->created_at = sc->created_at;
	c->updated_at = sc->updated_at;
	c->reported_at = sc->reported_at;
	c->subject = g_strdup(sc->subject);
	c->threads = g_ptr_array_ref(sc->threads);
	st = case_notes(s, c, err);
	if (st != DC_OK) {
		dc_case_free(c);
		return st;
	}
	*out = c;
	return DC_OK;
}

dc_status_t
dc_case_get(dc_store_t *s, int64_t id, dc_case_t **out, dc_error_t *err)
{
	dc_store_case_t *sc = NULL;
	dc_status_t st;

	*out = NULL;
	st = dc_store_case_get(s, id, &sc, err);
	if (st != DC_OK)
		return st;
	st = case_from_store(s, sc, out, err);
	dc_store_case_free(sc);
	return st;
}

static void
case_free_cb(gpointer p)
{
	dc_case_free(p);
}

dc_status_t
dc_case_list(dc_store_t *s, GPtrArray **out, dc_error_t *err)
{
	GPtrArray *scs = NULL, *r;
	dc_status_t st;
	guint i;

	*out = NULL;
	st = dc_store_case_list(s, &scs, err);
	if (st != DC_OK)
		return st;
	r = g_ptr_array_new_with_free_func(case_free_cb);
	for (i = 0; i < scs->len && st == DC_OK; i++) {
		dc_case_t *c = NULL;

		st = case_from_store(s, scs->pdata[i], &c, err);
		if (st == DC_OK)
			g_ptr_array_add(r, c);
	}
	g_ptr_array_unref(scs);
	if (st != DC_OK) {
		g_ptr_array_unref(r);
		return st;
	}
	*out = r;
	return DC_OK;
}

dc_status_t
dc_case_for_thread(dc_store_t *s, const char *thread_id, dc_case_t **out,
		   dc_error_t *err)
{
	dc_status_t st;
	int64_t id;

	*out = NULL;
	st = dc_store_case_find_open(s, thread_id, &id, err);
	if (st == DC_E_NOT_FOUND) {
		dc_error_clear(err);
		return DC_OK;
	}
	if (st != DC_OK)
		return st;
	return dc_case_get(s, id, out, err);
}
