// SPDX-License-Identifier: GPL-3.0-or-later
#include <stdio.h>
#include <string.h>

#include "core/case/event.h"

char *
dc_sha256_hex(const char *data, gssize len)
{
	return g_compute_checksum_for_data(G_CHECKSUM_SHA256,
					   (const guchar *)data,
					   len < 0 ? strlen(data) : (gsize)len);
}

static void
field(GString *enc, const char *name, const char *value)
{
	/* Length-prefixed, so no value can imitate a field boundary. */
	g_string_append_printf(enc, "%s=%zu:%s\n", name, strlen(value), value);
}

/*
 * Canonical encoding, version 1:
 *   "decorum-event-v1\n" then, in this order, "name=<len>:<value>\n" for
 *   case, at, actor, type, data_sha256, prev.
 */
char *
dc_event_hash(const dc_store_event_t *ev)
{
	GString *enc = g_string_new("decorum-event-v1\n");
	char num[32];
	char *h;

	snprintf(num, sizeof(num), "%" G_GINT64_FORMAT, (gint64)ev->case_id);
	field(enc, "case", num);
	snprintf(num, sizeof(num), "%" G_GINT64_FORMAT, (gint64)ev->at);
	field(enc, "at", num);
	field(enc, "actor", ev->actor ? ev->actor : "");
	field(enc, "type", ev->type ? ev->type : "");
	field(enc, "data_sha256", ev->data_sha256 ? ev->data_sha256 : "");
	field(enc, "prev", ev->prev_hash ? ev->prev_hash : "");
	h = dc_sha256_hex(enc->str, enc->len);
	g_string_free(enc, TRUE);
	return h;
}

dc_status_t
dc_event_append(dc_store_t *s, int64_t case_id, int64_t at, const char *actor,
		const char *type, GVariant *data, int64_t *id_out,
		dc_error_t *err)
{
	dc_store_event_t ev = { 0 };
	dc_status_t st;
	char *prev = NULL;

	if (!data)
		data = g_variant_new("a{sv}", NULL);
	g_variant_ref_sink(data);
	st = dc_store_event_last_hash(s, &prev, err);
	if (st == DC_OK) {
		ev.case_id = case_id;
		ev.at = at;
		ev.actor = (char *)actor;
		ev.type = (char *)type;
		ev.data = g_variant_print(data, TRUE);
		ev.data_sha256 = dc_sha256_hex(ev.data, -1);
		ev.prev_hash = prev;
		ev.hash = dc_event_hash(&ev);
		st = dc_store_event_append(s, &ev, id_out, err);
		g_free(ev.data);
		g_free(ev.data_sha256);
		g_free(ev.hash);
	}
	g_free(prev);
	g_variant_unref(data);
	return st;
}

GVariant *
dc_event_data(const dc_store_event_t *ev)
{
	GVariant *v;

	if (!ev->data)
		return NULL;
	v = g_variant_parse(G_VARIANT_TYPE("a{sv}"), ev->data, NULL, NULL,
			    NULL);
	return v;
}

char *
dc_payload_str(GVariant *v, const char *key)
{
	char *r = NULL;

	if (v)
		g_variant_lookup(v, key, "s", &r);
	return r;
}

gint64
dc_payload_int(GVariant *v, const char *key)
{
	gint64 r = 0;

	if (v)
		g_variant_lookup(v, key, "x", &r);
	return r;
}

gboolean
dc_payload_bool(GVariant *v, const char *key)
{
	gboolean r = FALSE;

	if (v)
		g_variant_lookup(v, key, "b", &r);
	return r;
}

char *
dc_event_data_string(const dc_store_event_t *ev, const char *key)
{
	GVariant *v = dc_event_data(ev);
	char *r = dc_payload_str(v, key);

	if (v)
		g_variant_unref(v);
	return r;
}

static dc_status_t
event_check(const dc_store_event_t *ev, const char *prev, dc_error_t *err)
{
	char *h;
	int bad;

	if (strcmp(ev->prev_hash, prev) != 0)
		return dc_fail(err, DC_E_DATA,
			       "event %" G_GINT64_FORMAT
			       ": does not follow the event before it (the "
			       "log was cut or reordered)",
			       (gint64)ev->id);
	if (ev->data) {
		h = dc_sha256_hex(ev->data, -1);
		bad = strcmp(h, ev->data_sha256) != 0;
		g_free(h);
		if (bad)
			return dc_fail(err, DC_E_DATA,
				       "event %" G_GINT64_FORMAT
				       ": payload was altered",
				       (gint64)ev->id);
	}
	h = dc_event_hash(ev);
	bad = strcmp(h, ev->hash) != 0;
	g_free(h);
	if (bad)
		return dc_fail(err, DC_E_DATA,
			       "event %" G_GINT64_FORMAT
			       ": hash does not match its contents",
			       (gint64)ev->id);
	return DC_OK;
}

dc_status_t
dc_event_verify(dc_store_t *s, int64_t *bad_id, int64_t *count,
		dc_error_t *err)
{
	GPtrArray *evs = NULL;
	const char *prev = "";
	dc_status_t st;
	guint i;

	*bad_id = 0;
	*count = 0;
	st = dc_store_event_list(s, 0, &evs, err);
	if (st != DC_OK)
		return st;
	for (i = 0; i < evs->len; i++) {
		const dc_store_event_t *ev = evs->pdata[i];

		st = event_check(ev, prev, err);
		if (st != DC_OK) {
			*bad_id = ev->id;
			break;
		}
		prev = ev->hash;
		(*count)++;
	}
	g_ptr_array_unref(evs);
	return st;
}
