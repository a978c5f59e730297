/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The outcome ladder, from the mildest to the strongest: most reports end
 * in no action or education and coaching; unacceptable behaviour first
 * calls for an apology or other amends, then remedial measures for a
 * stated period (in kernel release cycles), which the TAB implements.
 */
#ifndef DC_OUTCOME_H
#define DC_OUTCOME_H

#include <stdint.h>

#include "core/case/case.h"
#include "core/case/release.h"

typedef enum {
	DC_OUTCOME_NO_ACTION,
	DC_OUTCOME_ADMONITION, /* private, or on the list */
	DC_OUTCOME_COACHING,
	DC_OUTCOME_AMEND,      /* asked to amend or apologise */
	DC_OUTCOME_APOLOGY,    /* public apology */
	DC_OUTCOME_MEASURE,    /* remedial measure */
	DC_OUTCOME_TAB,        /* referred to the TAB for implementation */
	DC_OUTCOME_COUNT,
} dc_outcome_kind_t;

typedef struct dc_outcome {
	int64_t event_id;
	int64_t at;
	char *actor;
	dc_outcome_kind_t kind;
	int public_;         /* admonition: on the list rather than private */
	char *what;          /* measure: e.g. "patches not accepted" */
	char *scope;         /* measure: subsystem or list */
	int64_t from, until; /* measure: unix seconds (0: unset) */
	char *until_release; /* measure: "v6.4" when given as a release */
	char *note;
	int64_t edited_at; /* the newest outcome-edit event's time, or 0 */
} dc_outcome_t;

/* "no-action", "admonition", "coaching", "amend", "apology", "measure",
 * "tab-referral". */
const char *dc_outcome_name(dc_outcome_kind_t k);
/* For people: "Education and coaching", ... */
const char *dc_outcome_label(dc_outcome_kind_t k);
dc_status_t dc_outcome_parse(const char *s, dc_outcome_kind_t *out,
			     dc_error_t *err);
void dc_outcome_free(dc_outcome_t *o);
/* The strongest outcome recorded on a case, or NULL. */
const dc_outcome_t *dc_case_top_outcome(const dc_case_t *c);

/*
 * Record an outcome (o->event_id, at and actor are ignored).  Allowed
 * while the case is investigating or decided.  A measure needs what and
 * until (after from); public only goes with an admonition.
 */
dc_status_t dc_case_outcome(dc_store_t *s, int64_t case_id,
			    const dc_outcome_t *o, const char *actor,
			    int64_t now, dc_error_t *err);

/* The outcome recorded by event_id, or with event_id 0 the newest; NULL
 * when there is none. */
const dc_outcome_t *dc_case_outcome_find(const dc_case_t *c,
					 int64_t event_id);

/*
 * Edit an outcome (event_id 0: the newest) to be o, as an
 * "outcome-edit" event that keeps the old and the new values; the
 * history keeps both and undo restores the old.  o is checked as for
 * dc_case_outcome; DC_E_INVALID when there is no such outcome.
 */
dc_status_t dc_case_outcome_edit(dc_store_t *s, int64_t case_id,
				 int64_t event_id, const dc_outcome_t *o,
				 const char *actor, int64_t now,
				 dc_error_t *err);

/*
 * The outcome cur as chg changes it, into *out: chg's kind
 * (DC_OUTCOME_COUNT: cur's), and each field chg gives (a string not
 * NULL, a date not 0, public_ set) instead of cur's; what chg leaves
 * out stays as it was when the rung stays the same.  A rung other than
 * a measure has no measure's fields, and public_ goes with an
 * admonition only.  out's strings point into cur and chg.
 */
void dc_outcome_edited(const dc_outcome_t *cur, const dc_outcome_t *chg,
		       dc_outcome_t *out);
/*
 * Edit the case's newest outcome as chg changes it (dc_outcome_edited),
 * with dc_case_outcome_edit: what every front end calls for "edit the
 * outcome".  *kind (may be NULL) receives the rung it has now.
 * DC_E_INVALID when the case has no outcome.
 */
dc_status_t dc_case_outcome_revise(dc_store_t *s, int64_t case_id,
				   const dc_outcome_t *chg, const char *actor,
				   int64_t now, dc_outcome_kind_t *kind,
				   dc_error_t *err);

typedef struct dc_expiry {
	int64_t case_id;
	const dc_outcome_t *outcome; /* points into a case of the list */
	int expired; /* until <= now */
} dc_expiry_t;

/*
 * Expiry reminders: the measures of the given cases (dc_case_t *) that end
 * within days of now (days < 0: no date limit), or, with release set
 * (major > 0), at or before that release.  Measures of closed cases
 * are left out.  *out holds dc_expiry_t * (g_free each; the pointers into
 * cases stay valid while cases does).
 */
void dc_outcome_expiring(GPtrArray *cases, int64_t now, int days,
			 const dc_release_t *release, GPtrArray **out);

#endif
