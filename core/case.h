/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Cases: a maintainer tags a thread as an admonition, an escalation to the
 * Code of Conduct committee or a TAB consultation, and decorum follows it as
 * a case.  Every change is an event (core/event.h).
 */
#ifndef DC_CASE_H
#define DC_CASE_H

#include <glib.h>
#include <stdint.h>
#include <time.h>

#include "core/status.h"
#include "store/store.h"

typedef enum {
	DC_KIND_ADMONITION,
	DC_KIND_ESCALATION,
	DC_KIND_TAB,
	DC_KIND_COUNT,
} dc_kind_t;

/* "admonition", "escalation", "tab": the names used on the command line,
 * in the store and in notmuch tags. */
const char *dc_kind_name(dc_kind_t k);
/* "Admonition", "Escalation", "TAB consultation": for people. */
const char *dc_kind_label(dc_kind_t k);
/* Accepts the names above; DC_E_USAGE with the list otherwise. */
dc_status_t dc_kind_parse(const char *s, dc_kind_t *out, dc_error_t *err);

typedef struct dc_tag_request {
	const char *thread_id;
	dc_kind_t kind;
	const char *note;    /* may be NULL */
	const char *actor;   /* who tags */
	const char *subject; /* the thread's subject, for the case list */
	int64_t reported_at; /* date of the report (the thread's oldest) */
	int64_t now;
} dc_tag_request_t;

/*
 * Open a case for the thread, or add to the open case that covers it, and
 * record the event, all in one transaction.  *created tells which.
 */
dc_status_t dc_case_tag(dc_store_t *s, const dc_tag_request_t *req,
			int64_t *case_id, int *created, dc_error_t *err);

typedef struct dc_note {
	int64_t at;
	char *actor;
	char *text;
} dc_note_t;

/* A case as the front ends show it. */
typedef struct dc_case {
	int64_t id;
	dc_kind_t kind;
	char *state;
	int64_t created_at;
	int64_t updated_at;
	int64_t reported_at;
	char *subject;
	GPtrArray *threads; /* char * */
	GPtrArray *notes;   /* dc_note_t * */
} dc_case_t;

/*
 * Undo the newest change this actor made to the case, as a reversing event
 * (history keeps both).  Repeated calls undo earlier changes in turn;
 * DC_E_INVALID when nothing is left to undo.  Undoing the event that
 * opened a case withdraws the case: it no longer covers its threads.
 */
dc_status_t dc_case_undo(dc_store_t *s, int64_t case_id, const char *actor,
			 int64_t now, dc_error_t *err);

void dc_case_free(dc_case_t *c);
dc_status_t dc_case_get(dc_store_t *s, int64_t id, dc_case_t **out,
			dc_error_t *err);
/* Every case, oldest first; *out frees its elements. */
dc_status_t dc_case_list(dc_store_t *s, GPtrArray **out, dc_error_t *err);
/* The open case covering a thread, or NULL (not an error) if none. */
dc_status_t dc_case_for_thread(dc_store_t *s, const char *thread_id,
			       dc_case_t **out, dc_error_t *err);

#endif
