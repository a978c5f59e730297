// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The published form of the report: a plain-text mail in the structure
 * of the reports the Code of Conduct Committee publishes (the period,
 * "Reports received: N", the reports by category with the action taken,
 * the TAB's decisions, thanks and the contact address).  Written from
 * the model alone (core/export/report.h), which holds no subject, note
 * or participant; only an overturned decision names people, the TAB
 * members who voted, as the kernel's documentation requires.
 */
#include <string.h>

#include "core/base/config.h"
#include "core/base/sanitize.h"
#include "core/case/category.h"
#include "core/case/release.h"
#include "core/export/emit.h"
#include "core/export/report.h"

#define WIDTH 72

/* "September 1, 2026", as the committee's reports write dates: in
 * English whatever the locale, since the form goes to an English list. */
static char *
day(int64_t t)
{
	static const char *const month[] = {
		"January", "February", "March",	    "April",
		"May",	   "June",     "July",	    "August",
		"September", "October", "November", "December",
	};
	GDateTime *d = g_date_time_new_from_unix_utc(t);
	char *s;

	if (!d)
		return g_strdup("?");
	s = g_strdup_printf("%s %d, %d",
			    month[g_date_time_get_month(d) - 1],
			    g_date_time_get_day_of_month(d),
			    g_date_time_get_year(d));
	g_date_time_unref(d);
	return s;
}

/* "September 1, 2026 through November 30, 2026". */
static char *
period_words(const dc_period_t *p)
{
	char *a = day(p->from), *b = day(p->to - DC_DAY);
	char *s = g_strdup_printf("%s through %s", a, b);

	g_free(a);
	g_free(b);
	return s;
}

/* A bullet wrapped at WIDTH with a hanging indent. */
static void
bullet(GString *out, const char *text)
{
	gsize at = out->len;

	dc_emit_wrap(out, text, WIDTH, "    ");
	if (out->len >= at + 4)
		memcpy(out->str + at, "  - ", 4);
}

static const char *
number_word(int n)
{
	static const char *const w[] = { "No", "One", "Two", "Three",
					 "Four", "Five", "Six", "Seven",
					 "Eight", "Nine" };

	return n >= 0 && n < 10 ? w[n] : NULL;
}

/* Release cycles from from to until: releases after from up to until. */
static int
cycles(int64_t from, int64_t until)
{
	int n = 0, est;
	int64_t d;

	while (n < 1000) {
		if (dc_release_date(dc_release_after(from, n + 1), &d, &est,
				    NULL) != DC_OK ||
		    d > until)
			break;
		n++;
	}
	return n;
}

/* What an outcome was, in the published reports' words. */
static void
outcome_words(GString *s, dc_outcome_kind_t k, int public_)
{
	switch (k) {
	case DC_OUTCOME_NO_ACTION:
		g_string_append(s, "no action needed");
		break;
	case DC_OUTCOME_ADMONITION:
		g_string_append(s, public_ ? "a public admonition on the list"
					   : "a private admonition");
		break;
	case DC_OUTCOME_COACHING:
		g_string_append(s, "education and coaching");
		break;
	case DC_OUTCOME_AMEND:
		g_string_append(s, "a request to amend or apologise");
		break;
	case DC_OUTCOME_APOLOGY:
		g_string_append(s, "public apology");
		break;
	case DC_OUTCOME_MEASURE:
		g_string_append(s, "a remedial measure");
		break;
	default:
		g_string_append(s, "referred to the TAB for implementation");
	}
}

static void
measure_phrase(GString *s, const dc_report_incident_t *i)
{
	char *what = i->what ? dc_sanitize_line(i->what) : NULL;
	char *scope = i->scope ? dc_sanitize_line(i->scope) : NULL;
	int n = i->from && i->until ? cycles(i->from, i->until) : 0;

	outcome_words(s, DC_OUTCOME_MEASURE, 0);
	if (what)
		g_string_append_printf(s, ", %s%s%s,", what,
				       scope ? " in " : "", scope ? scope : "");
	else if (scope)
		g_string_append_printf(s, " in %s,", scope);
	if (i->until_release && n > 0) {
		char *rel = dc_sanitize_line(i->until_release);

		g_string_append_printf(s, " for %d release cycle%s (until %s)",
				       n, n == 1 ? "" : "s", rel);
		g_free(rel);
	} else if (i->until) {
		char *d = day(i->until);

		g_string_append_printf(s, " until %s", d);
		g_free(d);
	}
	g_free(what);
	g_free(scope);
}

static void
action_phrase(GString *s, const dc_report_incident_t *i)
{
	if (!i->has_outcome) {
		g_string_append(s, i->open ? "still under review"
					   : "closed without a recorded "
					     "outcome");
		return;
	}
	if (i->outcome == DC_OUTCOME_MEASURE)
		measure_phrase(s, i);
	else
		outcome_words(s, i->outcome, i->public_);
	if (i->overturn_asked && i->overturn == DC_RESULT_OVERTURNED)
		g_string_append(s, "; the TAB overturned this decision (see "
				   "below)");
	else if (i->approve_asked && i->approve == DC_RESULT_APPROVED)
		g_string_append(s, "; approved by the TAB");
	else if (i->approve_asked && i->approve == DC_RESULT_REJECTED)
		g_string_append(s, "; rejected by the TAB");
	else if (i->approve_asked || i->overturn_asked)
		g_string_append(s, "; the TAB's vote is pending");
}

char *
dc_report_incident_action(const dc_report_incident_t *i)
{
	GString *s = g_string_new(NULL);

	action_phrase(s, i);
	return g_string_free(s, FALSE);
}

static void
incident_line(GString *out, const dc_report_incident_t *i)
{
	GString *s = g_string_new(NULL);
	const char *w = number_word(i->reports);

	if (i->reports == 1)
		g_string_append(s, "One report: ");
	else if (w)
		g_string_append_printf(s, "%s reports of one incident: ", w);
	else
		g_string_append_printf(s, "%d reports of one incident: ",
				       i->reports);
	action_phrase(s, i);
	g_string_append_c(s, '.');
	bullet(out, s->str);
	g_string_free(s, TRUE);
}

/* A report to the committee: maintainers' admonitions are not, and are
 * at most counted apart (--with-admonitions). */
static int
is_report(const dc_report_incident_t *i)
{
	return i->kind != DC_KIND_ADMONITION;
}

/* The heading of a category: its words with a capital, and a colon. */
static void
heading(GString *out, const char *category)
{
	char *c = dc_sanitize_line(category);

	g_string_append_printf(out, "\n%c%s:\n\n", g_ascii_toupper(*c),
			       c + 1);
	g_free(c);
}

static int
same_category(const char *a, const char *b)
{
	return a && b && !g_ascii_strcasecmp(a, b);
}

/*
 * The reports under their categories, in the order of list, then those
 * of categories no longer in it.  dc_report_publish() refuses a period
 * with a report that has no category, so "Other reports" is only
 * written for a caller that built the model itself.
 */
static void
by_category(GString *out, const dc_report_t *r, char **list)
{
	GPtrArray *names = g_ptr_array_new();
	guint i, k;
	int any;

	for (i = 0; list[i]; i++)
		g_ptr_array_add(names, list[i]);
	/* A category set from an older list still groups its reports. */
	for (i = 0; i < r->incidents->len; i++) {
		const dc_report_incident_t *x = r->incidents->pdata[i];
		int known = 0;

		for (k = 0; x->category && k < names->len; k++)
			known |= same_category(names->pdata[k], x->category);
		if (x->category && !known && is_report(x))
			g_ptr_array_add(names, x->category);
	}
	for (k = 0; k <= names->len; k++) {
		const char *name = k < names->len ? names->pdata[k] : NULL;

		any = 0;
		for (i = 0; i < r->incidents->len; i++) {
			const dc_report_incident_t *x = r->incidents->pdata[i];

			if (!is_report(x) ||
			    (name ? !same_category(name, x->category)
				  : x->category != NULL))
				continue;
			if (!any++)
				heading(out, name ? name : "other reports");
			incident_line(out, x);
		}
	}
	g_ptr_array_unref(names);
}

/* "2 votes for and 1 against", "3 votes for, none against and 1
 * abstaining": abstentions and recusals only when there were some. */
static void
counts_phrase(GString *s, const dc_report_decision_t *d)
{
	char *part[4];
	int n = 0, i;

	part[n++] = g_strdup_printf("%d vote%s for", d->n_for,
				    d->n_for == 1 ? "" : "s");
	part[n++] = d->n_against ? g_strdup_printf("%d against", d->n_against)
				 : g_strdup("none against");
	if (d->n_abstain)
		part[n++] = g_strdup_printf("%d abstaining", d->n_abstain);
	if (d->n_recused)
		part[n++] = g_strdup_printf("%d recused", d->n_recused);
	for (i = 0; i < n; i++) {
		if (i)
			g_string_append(s, i == n - 1 ? " and " : ", ");
		g_string_append(s, part[i]);
		g_free(part[i]);
	}
}

/* "; approval takes two thirds of the members voting." */
static void
rule_phrase(GString *s, const dc_report_decision_t *d, const char *what)
{
	g_string_append_printf(s, "; %s takes two thirds of %s.", what,
			       d->rule == DC_RULE_MEMBERS
				       ? "the TAB's members"
				       : "the members voting");
}

static void
decision_line(GString *out, const dc_report_decision_t *d)
{
	GString *s = g_string_new(NULL);
	char *cat = d->category ? dc_sanitize_line(d->category) : NULL;
	guint i;

	switch (d->result) {
	case DC_RESULT_APPROVED:
	case DC_RESULT_REJECTED:
		g_string_append_printf(s, "The TAB %s the remedial measure "
					  "the committee recommended",
				       d->result == DC_RESULT_APPROVED
					       ? "approved"
					       : "did not approve");
		break;
	default:
		g_string_append_printf(s, "The TAB %s the committee's "
					  "decision, ",
				       d->result == DC_RESULT_OVERTURNED
					       ? "overturned"
					       : "upheld");
		if (d->has_outcome)
			outcome_words(s, d->outcome, 0);
		else
			g_string_append(s, "with no outcome recorded");
	}
	if (cat)
		g_string_append_printf(s, " (%s)", cat);
	g_string_append(s, ", with ");
	counts_phrase(s, d);
	rule_phrase(s, d,
		    d->result == DC_RESULT_APPROVED ||
				    d->result == DC_RESULT_REJECTED
			    ? "approval"
			    : "overturning");
	bullet(out, s->str);
	/* The documentation requires them identifiable: every vote. */
	if (d->result == DC_RESULT_OVERTURNED)
		g_string_append(out, "    The complete voting details:\n");
	for (i = 0; d->votes && i < d->votes->len; i++) {
		const dc_report_vote_t *v = d->votes->pdata[i];
		char *at = day(v->at);

		g_string_append_printf(out, "      %s%s<%s>: %s (%s)\n",
				       v->name ? v->name : "",
				       v->name ? " " : "", v->member,
				       v->choice, at);
		g_free(at);
	}
	g_string_free(s, TRUE);
	g_free(cat);
}

static void
decisions(GString *out, const dc_report_t *r)
{
	int overturned = 0;
	guint i;

	g_string_append(out, "\nDecisions of the TAB:\n\n");
	for (i = 0; i < r->decisions->len; i++) {
		const dc_report_decision_t *d = r->decisions->pdata[i];

		overturned |= d->result == DC_RESULT_OVERTURNED;
		decision_line(out, d);
	}
	if (!overturned)
		bullet(out, "The TAB overturned no decision of the committee "
			    "in this period.");
}

static void
add_case(GArray *ids, int64_t id)
{
	guint i;

	for (i = 0; i < ids->len; i++)
		if (g_array_index(ids, int64_t, i) == id)
			return;
	g_array_append_val(ids, id);
}

/*
 * The published form says what kind of behaviour each report was about;
 * a report with no category would go out under a heading that tells the
 * reader nothing.  The case numbers are for the committee member who
 * publishes (stderr, the TUI's message line), never for the text.
 */
dc_status_t
dc_report_publish_check(const dc_report_t *r, dc_error_t *err)
{
	GArray *ids = g_array_new(FALSE, FALSE, sizeof(int64_t));
	GString *list = g_string_new(NULL);
	dc_status_t st = DC_OK;
	guint i;

	for (i = 0; i < r->incidents->len; i++) {
		const dc_report_incident_t *x = r->incidents->pdata[i];

		if (is_report(x) && !x->category)
			add_case(ids, x->case_id);
	}
	for (i = 0; i < r->decisions->len; i++) {
		const dc_report_decision_t *d = r->decisions->pdata[i];

		if (!d->category)
			add_case(ids, d->case_id);
	}
	for (i = 0; i < ids->len; i++)
		g_string_append_printf(list, "%s%" G_GINT64_FORMAT,
				       !i ? ""
				       : i == ids->len - 1 ? " and "
							   : ", ",
				       g_array_index(ids, int64_t, i));
	if (ids->len)
		st = dc_fail(err, DC_E_DENIED,
			     "case%s %s %s no category of behaviour, and the "
			     "published form groups every report by one.  Set "
			     "it with `decorum case category %" G_GINT64_FORMAT
			     " TEXT` (T in a case) and publish again.",
			     ids->len == 1 ? "" : "s", list->str,
			     ids->len == 1 ? "has" : "have",
			     g_array_index(ids, int64_t, 0));
	g_string_free(list, TRUE);
	g_array_unref(ids);
	return st;
}

static char *
setting(const char *given, const char *key, const char *def)
{
	char *v = given ? g_strdup(given)
			: dc_config_value(NULL, "report", key);

	return v ? v : g_strdup(def);
}

char *
dc_report_publish_text(const dc_report_t *r, const dc_publish_opts_t *o)
{
	char *label = period_words(&r->period);
	char *to = setting(o->to, "list", DC_PUBLISH_TO);
	char *contact = setting(o->contact, "contact", DC_PUBLISH_CONTACT);
	char **list = o->categories ? g_strdupv(o->categories)
				    : dc_category_list(NULL);
	GString *out = g_string_new(NULL);
	int received = 0, admonitions = 0;
	char *p;
	guint i;

	for (i = 0; i < r->incidents->len; i++) {
		const dc_report_incident_t *x = r->incidents->pdata[i];

		if (is_report(x))
			received++;
		else
			admonitions++;
	}
	g_string_append_printf(out,
			       "Subject: Code of Conduct Committee report, "
			       "%s\nTo: %s\nMIME-Version: 1.0\n"
			       "Content-Type: text/plain; charset=UTF-8\n"
			       "Content-Transfer-Encoding: 8bit\n\n",
			       label, to);
	p = g_strdup_printf("In the period of %s, the Code of Conduct "
			    "Committee received the following reports:",
			    label);
	dc_emit_wrap(out, p, WIDTH, "");
	g_free(p);
	g_string_append_printf(out, "\nReports received: %d\n", received);
	if (o->with_admonitions)
		g_string_append_printf(out,
				       "Admonitions handled by maintainers "
				       "(not reports to the committee): %d\n",
				       admonitions);
	by_category(out, r, list);
	decisions(out, r);
	g_string_append(out, "\n");
	dc_emit_wrap(out,
		     "Thank you to everyone who brought a concern to the "
		     "committee, and to everyone who worked with us towards "
		     "resolving it.",
		     WIDTH, "");
	p = g_strdup_printf("The Code of Conduct Committee can be reached at "
			    "%s.",
			    contact);
	g_string_append_c(out, '\n');
	dc_emit_wrap(out, p, WIDTH, "");
	g_free(p);
	g_string_append(out, "\nThe Code of Conduct Committee\n");
	g_strfreev(list);
	g_free(label);
	g_free(to);
	g_free(contact);
	return g_string_free(out, FALSE);
}
