// SPDX-License-Identifier: GPL-3.0-or-later
/* Checking the history (see core/case/verify.h). */
#include <string.h>

#include "core/case/case.h"
#include "core/case/event.h"
#include "core/case/verify.h"

static dc_status_t
check_head(dc_store_t *s, dc_verify_t *v, dc_error_t *err)
{
	GPtrArray *evs = NULL;
	char *hash = NULL;
	int64_t count = 0, last_id = 0;
	const dc_store_event_t *last = NULL;
	dc_status_t st = dc_store_chain_head(s, &hash, &count, &last_id, err);

	if (st == DC_OK)
		st = dc_store_event_list(s, 0, &evs, err);
	if (st != DC_OK)
		goto out;
	if (evs->len)
		last = evs->pdata[evs->len - 1];
	if ((int64_t)evs->len < count || (last ? last->id : 0) < last_id) {
		/* Name the first event that is gone. */
		v->bad_id = last ? last->id + 1 : 1;
		st = dc_fail(err, DC_E_DATA,
			     "event %" G_GINT64_FORMAT ": missing; the log "
			     "ends after %u events but the chain head "
			     "records %" G_GINT64_FORMAT
			     " ending at event %" G_GINT64_FORMAT
			     " (the newest events were removed)",
			     (gint64)v->bad_id, evs->len, (gint64)count,
			     (gint64)last_id);
	} else if (strcmp(hash, last ? last->hash : "") ||
		   (int64_t)evs->len != count) {
		v->bad_id = last ? last->id : 0;
		st = dc_fail(err, DC_E_DATA,
			     "event %" G_GINT64_FORMAT ": the chain head "
			     "records another newest event (%" G_GINT64_FORMAT
			     " events ending at %" G_GINT64_FORMAT ")",
			     (gint64)v->bad_id, (gint64)count,
			     (gint64)last_id);
	}
out:
	g_free(hash);
	if (evs)
		g_ptr_array_unref(evs);
	return st;
}

/* A typo is not a rewritten history. */
dc_status_t
dc_verify_head_check(const char *expect, dc_error_t *err)
{
	if (strlen(expect) != 64 ||
	    strspn(expect, "0123456789abcdefABCDEF") != 64)
		return dc_fail(err, DC_E_USAGE,
			       "'%s' is not an event hash (64 hex digits, as "
			       "decorum verify prints)",
			       expect);
	return DC_OK;
}

static dc_status_t
check_expected(dc_store_t *s, const char *expect, dc_error_t *err)
{
	GPtrArray *evs = NULL;
	dc_status_t st;
	int found = 0;
	guint i;

	st = dc_verify_head_check(expect, err);
	if (st == DC_OK)
		st = dc_store_event_list(s, 0, &evs, err);
	for (i = 0; st == DC_OK && i < evs->len && !found; i++)
		found = !g_ascii_strcasecmp(
		    ((dc_store_event_t *)evs->pdata[i])->hash, expect);
	if (evs)
		g_ptr_array_unref(evs);
	if (st == DC_OK && !found)
		st = dc_fail(err, DC_E_DATA,
			     "no event has the hash %s: the history was "
			     "rewritten since it was recorded",
			     expect);
	return st;
}

/* The cached kind and state against the replay. */
static dc_status_t
check_cache(dc_store_t *s, dc_verify_t *v, dc_error_t *err)
{
	GPtrArray *scs = NULL;
	dc_status_t st = dc_store_case_list(s, &scs, err);
	guint i;

	for (i = 0; st == DC_OK && i < scs->len; i++) {
		dc_store_case_t *sc = scs->pdata[i];
		dc_case_t *c = g_new0(dc_case_t, 1);
		GPtrArray *evs = NULL;

		c->id = sc->id;
		st = dc_store_event_list(s, sc->id, &evs, err);
		if (st != DC_OK) {
			dc_case_free(c);
			break;
		}
		dc_case_replay(c, evs);
		g_ptr_array_unref(evs);
		if (strcmp(dc_kind_name(c->kind), sc->kind) ||
		    strcmp(c->state, sc->state)) {
			v->bad_case = sc->id;
			st = dc_fail(err, DC_E_DATA,
				     "case %" G_GINT64_FORMAT ": the store "
				     "says %s/%s but its events say %s/%s",
				     (gint64)sc->id, sc->kind, sc->state,
				     dc_kind_name(c->kind), c->state);
		}
		dc_case_free(c);
	}
	if (scs)
		g_ptr_array_unref(scs);
	return st;
}

dc_status_t
dc_verify_store(dc_store_t *s, const char *expect_head, dc_verify_t *v,
		dc_error_t *err)
{
	char *hash = NULL;
	int64_t n, last;
	dc_status_t st;

	memset(v, 0, sizeof(*v));
	st = dc_event_verify(s, &v->bad_id, &v->events, err);
	if (st == DC_OK)
		st = check_head(s, v, err);
	if (st == DC_OK && expect_head && *expect_head)
		st = check_expected(s, expect_head, err);
	if (st == DC_OK)
		st = check_cache(s, v, err);
	if (dc_store_chain_head(s, &hash, &n, &last, NULL) == DC_OK)
		g_strlcpy(v->head, hash, sizeof(v->head));
	g_free(hash);
	return st;
}
