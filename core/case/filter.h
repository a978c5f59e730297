/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Which cases to list: by state, kind and age, for the cases view of the
 * TUI (the desk) and "decorum cases" alike, so that both list the same
 * cases for the same words.  The access rules stay with dc_case_list():
 * a filter only narrows what the viewer may see.
 */
#ifndef DC_FILTER_H
#define DC_FILTER_H

#include <glib.h>
#include <stdint.h>

#include "core/case/case.h"
#include "core/base/status.h"
#include "store/store.h"

typedef struct dc_case_filter {
	unsigned states; /* 1 << index in dc_case_states(); 0: any state */
	unsigned kinds;  /* 1 << dc_kind_t; 0: any kind */
	int since_days;  /* opened within the last N days; 0: any age */
} dc_case_filter_t;

/*
 * The words a filter is made of, for completion (NULL-terminated):
 * "open" (every state but closed), "closed", the other states, the
 * kinds, and "all" (no filter).  An age is a number of days, "30d".
 */
const char *const *dc_case_filter_words(void);
/*
 * Add one word to *f: one of the words above or a unique prefix of one
 * ("inv", "esc"), or an age ("30d", "30").  Words of one sort add up
 * ("open tab admonition": either kind); a second age replaces the first.
 * DC_E_USAGE naming the words otherwise, f unchanged.
 */
dc_status_t dc_case_filter_word(dc_case_filter_t *f, const char *word,
				dc_error_t *err);
/* *f from words separated by blanks (empty or "all": no filter);
 * *f unchanged on error. */
dc_status_t dc_case_filter_parse(dc_case_filter_t *f, const char *words,
				 dc_error_t *err);
/* The filter as words dc_case_filter_parse takes back ("open
 * escalation 30d"), "" when it filters nothing (g_free). */
char *dc_case_filter_describe(const dc_case_filter_t *f);
/* 1 when c passes f at time now. */
int dc_case_filter_match(const dc_case_filter_t *f, const dc_case_t *c,
			 int64_t now);

enum {
	DC_CASES_BY_NUMBER,   /* oldest first, as dc_case_list() */
	DC_CASES_BY_ACTIVITY, /* last activity, newest first */
};
/*
 * The cases the viewer may see (dc_case_list(), or dc_case_list_all()
 * with withdrawn) that pass f (NULL: every one), in the order asked;
 * *out frees its elements.
 */
dc_status_t dc_case_list_filtered(dc_store_t *s, const dc_case_filter_t *f,
				  int withdrawn, int order, int64_t now,
				  GPtrArray **out, dc_error_t *err);

#endif
