/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The summary report: what the store says about a period, modelled on the
 * reports the kernel's Code of Conduct committee publishes.  report.c
 * builds a model from the cases and walks it through an emitter
 * (core/export/emit.h); it never knows the output format.
 *
 * Periods are in UTC, from midnight to midnight: [from, to).
 */
#ifndef DC_REPORT_H
#define DC_REPORT_H

#include <glib.h>
#include <stdint.h>

#include "core/case/case.h"
#include "core/case/outcome.h"
#include "core/case/vote.h"
#include "core/export/emit.h"
#include "core/mail/mail.h"
#include "core/privacy/privacy.h"
#include "core/base/clock.h"
#include "core/base/status.h"
#include "store/store.h"

#define DC_DAY (24 * 60 * 60)

typedef struct dc_period {
	int64_t from; /* first second, a UTC midnight */
	int64_t to;   /* first second after the period */
} dc_period_t;

/*
 * "week" (the 7 days up to and including today), "quarter" (the 13 weeks
 * up to and including today) or "YYYY-MM-DD..YYYY-MM-DD" (both days
 * included).  NULL means "week".
 */
dc_status_t dc_period_parse(const char *spec, int64_t now, dc_period_t *out,
			    dc_error_t *err);
/* "2026-11-14 through 2026-11-20" (g_free). */
char *dc_period_label(const dc_period_t *p);


#define DC_REPORT_WEEKS 13

typedef struct dc_report_case {
	int64_t id;
	dc_kind_t kind;
	char *state;
	char *outcome;    /* NULL: none recorded */
	int64_t reported_at;
	char *thread_id;  /* first thread */
	char *lore;       /* public list mail only; NULL otherwise */
	int link_withheld; /* the message id names a participant */
} dc_report_case_t;

/* A remedial measure in force at the report's time. */
typedef struct dc_report_measure {
	int64_t case_id;
	char *what, *scope;  /* NULL when erased or not given */
	int64_t from, until;
	char *until_release; /* "v6.4" or NULL */
	int expiring;        /* ends within 30 days */
} dc_report_measure_t;

typedef struct dc_report_vote {
	char *member;
	char *name; /* the registered TAB member's name, or NULL */
	const char *choice; /* "for", "against", ... */
	int64_t at;
} dc_report_vote_t;

/* A committee decision the TAB overturned in the period, with every
 * vote: the kernel's interpretation document requires the voting
 * details of an overridden decision to be published. */
typedef struct dc_report_override {
	int64_t case_id;
	char *decision; /* the committee's outcome, or NULL */
	int64_t decided_at; /* the last vote */
	int n_for, n_against, n_abstain, n_recused, denominator;
	const char *rule;
	GPtrArray *votes; /* dc_report_vote_t * */
} dc_report_override_t;

/*
 * One incident received in the period, for the published form: a case,
 * however many reports and threads it covers.  Withdrawn cases and TAB
 * consultations not converted are not incidents.  Nothing here names a
 * person or the case.
 */
typedef struct dc_report_incident {
	int64_t case_id; /* for the committee's own form only */
	dc_kind_t kind;
	char *category;   /* NULL: not yet categorised */
	int reports;      /* report mails it covers, at least 1 */
	int open;         /* not closed */
	int has_outcome;
	dc_outcome_kind_t outcome; /* the strongest (dc_case_top_outcome) */
	int public_;
	char *what, *scope;          /* a measure's; NULL when not given */
	int64_t from, until;
	char *until_release;
	dc_result_t approve, overturn; /* DC_RESULT_PENDING when not asked */
	int approve_asked, overturn_asked;
	int64_t reported_at;
} dc_report_incident_t;

/* A vote of the TAB settled in the period (overturn or approve). */
typedef struct dc_report_decision {
	int64_t case_id; /* for the committee's own form only */
	dc_question_t question;
	dc_result_t result;
	char *category;     /* of the case; NULL: not yet categorised */
	int has_outcome;
	dc_outcome_kind_t outcome; /* the committee's decision */
	int n_for, n_against, n_abstain, n_recused;
	dc_vote_rule_t rule;
	int64_t decided_at; /* its last vote */
	/* Every vote, with the member's registered name when there is
	 * one: only for an overturned decision, which the documentation
	 * requires to be published with identifiable voting details. */
	GPtrArray *votes;   /* dc_report_vote_t * */
} dc_report_decision_t;

typedef struct dc_report_count {
	char *key;
	int64_t n;
} dc_report_count_t;

typedef struct dc_report {
	dc_period_t period;
	dc_period_t previous; /* same length, just before */
	int64_t now;
	int64_t received, prev_received; /* reports: TAB consultations apart */
	int64_t tab, prev_tab;           /* TAB consultations, not reports */
	int64_t by_kind[DC_KIND_COUNT], prev_by_kind[DC_KIND_COUNT];
	GPtrArray *by_state;   /* dc_report_count_t *, by key */
	GPtrArray *by_outcome; /* dc_report_count_t *, by key */
	GPtrArray *cases;      /* dc_report_case_t *: received in the period */
	GPtrArray *tab_pending; /* open TAB consultations, any date */
	GPtrArray *long_open;   /* open more than 30 days */
	int64_t weeks[DC_REPORT_WEEKS];
	int64_t week_start[DC_REPORT_WEEKS];
	GPtrArray *measures;   /* dc_report_measure_t *: in force now */
	GPtrArray *overridden; /* dc_report_override_t * */
	GPtrArray *incidents;  /* dc_report_incident_t *, by report date */
	GPtrArray *decisions;  /* dc_report_decision_t *, by case */
} dc_report_t;

/*
 * Build the report for period from the store.  With mail (may be NULL)
 * public list threads get lore links, and people (may be NULL) receives
 * every person of every case the report mentions (dc_case_people):
 * the participants, not the TAB members whose votes it lists.  With
 * anonymise, a link whose message id shows one of those people is
 * withheld rather than printed.  Votes are counted by the rule in
 * decorum's configuration ([tab] overturn_rule, core/case/vote.h).
 *
 * Only the cases the period needs are read: those reported or changed
 * since the previous period (or the chart's first week), those with an
 * outcome, and the open ones, in three statements
 * (dc_store_report_load()).  Cases the viewer may not see are left out
 * (core/case/access.h).
 */
dc_status_t dc_report_build(dc_store_t *s, dc_mail_t *mail,
			    const dc_period_t *period, int64_t now,
			    int anonymise, dc_identity_set_t *people,
			    dc_report_t **out, dc_error_t *err);
void dc_report_free(dc_report_t *r);

/* Write the report through e (begin ... end). */
void dc_report_emit(const dc_report_t *r, dc_emit_t *e);

/*
 * The report as it leaves decorum: built for period, written in fmt
 * (dc_emit_text when NULL) into *out (g_free) and, unless
 * include_identities, scanned for the people of its cases
 * (dc_identity_scan) before anyone sees it.  Every front end gets a
 * report's text here, so none can show or write one unscanned.
 *
 * DC_E_DENIED, with *out NULL, when the scan finds one of them (err names
 * the line and the kind of hit, never the person) or when, without mail,
 * the report mentions cases whose people cannot be known.
 */
dc_status_t dc_report_text(dc_store_t *s, dc_mail_t *mail,
			   const dc_period_t *period, int64_t now,
			   const dc_emit_ops_t *fmt, int include_identities,
			   char **out, dc_error_t *err);

/* Options of the published form. */
typedef struct dc_publish_opts {
	int with_admonitions;   /* count maintainers' admonitions apart;
				 * 0 (committee only) leaves them out */
	int include_identities; /* skip the identity scan */
	const char *to;         /* NULL: [report] list, else the default */
	const char *contact;    /* NULL: [report] contact, else
				 * conduct@kernel.org */
	char **categories;      /* NULL: [report] categories */
} dc_publish_opts_t;

/* The default To: of the published form ([report] list). */
#define DC_PUBLISH_TO "linux-kernel@vger.kernel.org"
#define DC_PUBLISH_CONTACT "conduct@kernel.org"

/*
 * The published form of r (core/export/publish.c): a plain-text mail
 * (Subject:, To:) in the structure of the committee's published
 * reports: the period, "Reports received: N" counted by incident, the
 * reports grouped by category with what was done, the TAB's decisions
 * (complete voting details where a decision was overturned), the
 * closing thanks and the contact address.  No case number, no subject,
 * no person but the TAB members of an overturned decision.  g_free.
 */
char *dc_report_publish_text(const dc_report_t *r,
			     const dc_publish_opts_t *o);

/*
 * DC_E_DENIED when a report of r (or a decision of the TAB in it) has no
 * category: err names the case numbers, for the committee member, and
 * says how to set one.  dc_report_publish() runs it before writing.
 */
dc_status_t dc_report_publish_check(const dc_report_t *r, dc_error_t *err);

/* What was done about an incident, as the published form says it
 * ("education and coaching", "a remedial measure, ..."); g_free. */
char *dc_report_incident_action(const dc_report_incident_t *i);

/*
 * As dc_report_text, for the published form: built, written and, unless
 * o->include_identities, scanned for the people of every case of the
 * period before *out is set.  Fails closed (DC_E_DENIED, *out NULL).
 */
dc_status_t dc_report_publish(dc_store_t *s, dc_mail_t *mail,
			      const dc_period_t *period, int64_t now,
			      const dc_publish_opts_t *o, char **out,
			      dc_error_t *err);

#endif
