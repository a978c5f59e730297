// SPDX-License-Identifier: GPL-3.0-or-later
/* The outcome ladder and expiry reminders (see core/case/outcome.h). */
#include <string.h>

#include "core/base/choice.h"
#include "core/case/outcome.h"

static const struct {
	const char *name;
	const char *label;
} rungs[DC_OUTCOME_COUNT] = {
	[DC_OUTCOME_NO_ACTION] = { "no-action", "No action needed" },
	[DC_OUTCOME_ADMONITION] = { "admonition", "Admonition sent" },
	[DC_OUTCOME_COACHING] = { "coaching", "Education and coaching" },
	[DC_OUTCOME_AMEND] = { "amend", "Asked to amend or apologise" },
	[DC_OUTCOME_APOLOGY] = { "apology", "Public apology" },
	[DC_OUTCOME_MEASURE] = { "measure", "Remedial measure" },
	[DC_OUTCOME_TAB] = { "tab-referral",
			     "Referred to the TAB for implementation" },
};

const char *
dc_outcome_name(dc_outcome_kind_t k)
{
	return k < DC_OUTCOME_COUNT ? rungs[k].name : "unknown";
}

const char *
dc_outcome_label(dc_outcome_kind_t k)
{
	return k < DC_OUTCOME_COUNT ? rungs[k].label : "Unknown";
}

dc_status_t
dc_outcome_parse(const char *s, dc_outcome_kind_t *out, dc_error_t *err)
{
	const char *names[DC_OUTCOME_COUNT];
	dc_status_t st;
	int i;

	for (i = 0; i < DC_OUTCOME_COUNT; i++)
		names[i] = rungs[i].name;
	st = dc_choice_parse(names, DC_OUTCOME_COUNT, "outcome", s, &i, err);
	if (st == DC_OK)
		*out = i;
	return st;
}

void
dc_outcome_free(dc_outcome_t *o)
{
	if (!o)
		return;
	g_free(o->actor);
	g_free(o->what);
	g_free(o->scope);
	g_free(o->until_release);
	g_free(o->note);
	g_free(o);
}

const dc_outcome_t *
dc_case_top_outcome(const dc_case_t *c)
{
	const dc_outcome_t *top = NULL;
	guint i;

	for (i = 0; c->outcomes && i < c->outcomes->len; i++) {
		const dc_outcome_t *o = c->outcomes->pdata[i];

		if (!top || o->kind >= top->kind)
			top = o;
	}
	return top;
}

static dc_status_t
check(const dc_outcome_t *o, int64_t now, dc_error_t *err)
{
	if (o->kind >= DC_OUTCOME_COUNT)
		return dc_fail(err, DC_E_USAGE, "unknown outcome");
	if (o->public_ && o->kind != DC_OUTCOME_ADMONITION)
		return dc_fail(err, DC_E_USAGE,
			       "only an admonition is sent privately or on "
			       "the list");
	if (o->kind != DC_OUTCOME_MEASURE) {
		if (o->what || o->scope || o->from || o->until)
			return dc_fail(err, DC_E_USAGE,
				       "what, scope, from and until describe "
				       "a remedial measure");
		return DC_OK;
	}
	if (!o->what || !*o->what)
		return dc_fail(err, DC_E_USAGE,
			       "a remedial measure needs --what (e.g. "
			       "\"patches not accepted\")");
	if (!o->until)
		return dc_fail(err, DC_E_USAGE,
			       "a remedial measure needs --until (a date or a "
			       "release such as v6.4)");
	if (o->until <= (o->from ? o->from : now))
		return dc_fail(err, DC_E_USAGE,
			       "a measure must end after it starts (%s)",
			       o->from ? "--from" : "now");
	return DC_OK;
}

static void
add_str(GVariantBuilder *b, const char *key, const char *v)
{
	if (v && *v)
		g_variant_builder_add(b, "{sv}", key, g_variant_new_string(v));
}

/* What an outcome event records of o. */
static GVariant *
outcome_payload(const dc_outcome_t *o, int64_t now)
{
	GVariantBuilder b;

	g_variant_builder_init(&b, G_VARIANT_TYPE("a{sv}"));
	add_str(&b, "outcome", dc_outcome_name(o->kind));
	if (o->public_)
		g_variant_builder_add(&b, "{sv}", "public",
				      g_variant_new_boolean(TRUE));
	add_str(&b, "what", o->what);
	add_str(&b, "scope", o->scope);
	if (o->kind == DC_OUTCOME_MEASURE) {
		g_variant_builder_add(&b, "{sv}", "from",
				      g_variant_new_int64(o->from ? o->from
								  : now));
		g_variant_builder_add(&b, "{sv}", "until",
				      g_variant_new_int64(o->until));
	}
	add_str(&b, "until_release", o->until_release);
	add_str(&b, "note", o->note);
	return g_variant_builder_end(&b);
}

dc_status_t
dc_case_outcome(dc_store_t *s, int64_t case_id, const dc_outcome_t *o,
		const char *actor, int64_t now, dc_error_t *err)
{
	dc_case_t *c = NULL;
	dc_status_t st = check(o, now, err);

	if (st != DC_OK)
		return st;
	st = dc_case_get(s, case_id, &c, err);
	if (st != DC_OK)
		return st;
	if (strcmp(c->state, "investigating") && strcmp(c->state, "decided"))
		st = dc_fail(err, DC_E_INVALID,
			     "case %" G_GINT64_FORMAT " is %s: outcomes are "
			     "recorded while investigating or decided",
			     (gint64)case_id, c->state);
	dc_case_free(c);
	if (st != DC_OK)
		return st;
	return dc_case_record(s, case_id, "outcome", outcome_payload(o, now),
			      actor, now, err);
}

const dc_outcome_t *
dc_case_outcome_find(const dc_case_t *c, int64_t event_id)
{
	const dc_outcome_t *found = NULL;
	guint i;

	for (i = 0; c->outcomes && i < c->outcomes->len; i++) {
		const dc_outcome_t *o = c->outcomes->pdata[i];

		if (!event_id || o->event_id == event_id)
			found = o;
	}
	return found;
}

dc_status_t
dc_case_outcome_edit(dc_store_t *s, int64_t case_id, int64_t event_id,
		     const dc_outcome_t *o, const char *actor, int64_t now,
		     dc_error_t *err)
{
	const dc_outcome_t *cur;
	GVariantBuilder b;
	dc_case_t *c = NULL;
	dc_status_t st = check(o, now, err);

	if (st != DC_OK)
		return st;
	st = dc_case_get(s, case_id, &c, err);
	if (st != DC_OK)
		return st;
	cur = dc_case_outcome_find(c, event_id);
	if (!cur) {
		st = event_id ? dc_fail(err, DC_E_INVALID,
					"case %" G_GINT64_FORMAT " has no "
					"outcome recorded by event %"
					G_GINT64_FORMAT,
					(gint64)case_id, (gint64)event_id)
			      : dc_fail(err, DC_E_INVALID,
					"case %" G_GINT64_FORMAT " has no "
					"outcome to edit",
					(gint64)case_id);
		dc_case_free(c);
		return st;
	}
	g_variant_builder_init(&b, G_VARIANT_TYPE("a{sv}"));
	g_variant_builder_add(&b, "{sv}", "edits",
			      g_variant_new_int64(cur->event_id));
	g_variant_builder_add(&b, "{sv}", "old", outcome_payload(cur, now));
	g_variant_builder_add(&b, "{sv}", "new", outcome_payload(o, now));
	dc_case_free(c);
	return dc_case_record(s, case_id, "outcome-edit",
			      g_variant_builder_end(&b), actor, now, err);
}

void
dc_outcome_edited(const dc_outcome_t *cur, const dc_outcome_t *chg,
		  dc_outcome_t *out)
{
	dc_outcome_kind_t kind = chg->kind < DC_OUTCOME_COUNT ? chg->kind
							      : cur->kind;
	int same = kind == cur->kind;

	memset(out, 0, sizeof(*out));
	out->kind = kind;
	if (kind == DC_OUTCOME_MEASURE) {
		out->what = chg->what ? chg->what : same ? cur->what : NULL;
		out->scope = chg->scope ? chg->scope : same ? cur->scope : NULL;
		out->from = chg->from ? chg->from : same ? cur->from : 0;
		if (chg->until) {
			out->until = chg->until;
			out->until_release = chg->until_release;
		} else if (same) {
			out->until = cur->until;
			out->until_release = cur->until_release;
		}
	}
	out->public_ = kind == DC_OUTCOME_ADMONITION &&
		       (chg->public_ || (same && cur->public_));
	out->note = chg->note ? chg->note : cur->note;
}

dc_status_t
dc_case_outcome_revise(dc_store_t *s, int64_t case_id,
		       const dc_outcome_t *chg, const char *actor,
		       int64_t now, dc_outcome_kind_t *kind, dc_error_t *err)
{
	const dc_outcome_t *cur;
	dc_outcome_t o;
	dc_case_t *c = NULL;
	dc_status_t st = dc_case_get(s, case_id, &c, err);

	if (st != DC_OK)
		return st;
	if (!(cur = dc_case_outcome_find(c, 0))) {
		dc_case_free(c);
		return dc_fail(err, DC_E_INVALID, "case %" G_GINT64_FORMAT
				" has no outcome to edit (record one first)",
			       (gint64)case_id);
	}
	dc_outcome_edited(cur, chg, &o);
	if (kind)
		*kind = o.kind;
	st = dc_case_outcome_edit(s, case_id, cur->event_id, &o, actor, now,
				  err);
	dc_case_free(c);
	return st;
}

static int
expires_by_release(const dc_outcome_t *o, const dc_release_t *release)
{
	dc_release_t r;
	int64_t t;
	int est;

	if (!release || release->major <= 0)
		return 0;
	if (o->until_release &&
	    dc_release_parse(o->until_release, &r, NULL) == DC_OK)
		return dc_release_cmp(r, *release) <= 0;
	return dc_release_date(*release, &t, &est, NULL) == DC_OK &&
	       o->until <= t;
}

void
dc_outcome_expiring(GPtrArray *cases, int64_t now, int days,
		    const dc_release_t *release, GPtrArray **out)
{
	GPtrArray *r = g_ptr_array_new_with_free_func(g_free);
	guint i, j;

	for (i = 0; i < cases->len; i++) {
		const dc_case_t *c = cases->pdata[i];

		if (c->withdrawn || !strcmp(c->state, "closed"))
			continue;
		for (j = 0; j < c->outcomes->len; j++) {
			const dc_outcome_t *o = c->outcomes->pdata[j];
			dc_expiry_t *e;
			int hit;

			if (o->kind != DC_OUTCOME_MEASURE || !o->until)
				continue;
			hit = (days >= 0 &&
			       o->until <= now + (int64_t)days * 86400) ||
			      expires_by_release(o, release);
			if (!hit)
				continue;
			e = g_new0(dc_expiry_t, 1);
			e->case_id = c->id;
			e->outcome = o;
			e->expired = o->until <= now;
			g_ptr_array_add(r, e);
		}
	}
	*out = r;
}
