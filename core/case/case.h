/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Cases: a maintainer tags a thread as an admonition, an escalation to the
 * Code of Conduct committee or a TAB consultation, and decorum follows it as
 * a case.  Every change is an event (core/case/event.h).
 */
#ifndef DC_CASE_H
#define DC_CASE_H

#include <glib.h>
#include <stdint.h>
#include <time.h>

#include "core/base/status.h"
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
	const char *thread_id; /* the notmuch thread now: where to look for
				* its open case, and the cache of its mail */
	/* The thread's Message-IDs, NULL-terminated: what the case
	 * covers.  The first is the report (the thread's first toplevel
	 * message); dc_action_tag gives the others oldest first. */
	const char *const *message_ids;
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
 * Tagging a TAB consultation as an admonition or escalation converts it
 * into a violation report: that is recorded as its own "convert" event.
 * The notmuch tag change is queued in the same transaction (core/mail/mirror.h);
 * call dc_mirror_flush() afterwards.  DC_E_DENIED when the open case of the
 * thread is one the viewer may not see (core/case/access.h).  The store's
 * thread cache must be current (core/mail/anchor.h); front ends call
 * dc_action_tag() (core/case/action.h), which sees to that.
 */
dc_status_t dc_case_tag(dc_store_t *s, const dc_tag_request_t *req,
			int64_t *case_id, int *created, dc_error_t *err);

typedef struct dc_note {
	int64_t at;
	char *actor;
	char *text;
} dc_note_t;

/* Someone a case is about or involves. */
typedef struct dc_participant {
	char *role; /* "reporter", "respondent", "witness", "handler" */
	char *address;
	char *name; /* may be NULL */
} dc_participant_t;

/*
 * A form of a person's name that a committee member added by hand (a
 * nickname, a handle, a spelling the mail does not show), so that the
 * identity scan and the redaction look for it too.
 */
typedef struct dc_alias {
	char *address; /* whose form it is */
	char *text;
} dc_alias_t;

/* A conflict of interest declared on a case, or a recusal. */
typedef struct dc_conflict {
	char *address;
	char *note; /* may be NULL */
	int recused;
} dc_conflict_t;

/* One recorded event, for the case's history. */
typedef struct dc_history {
	int64_t id;
	int64_t at;
	char *actor;
	char *type; /* "open", "tag", "convert", "state", "undo", ... */
	char *summary; /* one line for people (not sanitized) */
	int64_t undone_by; /* the undo event's id, or 0 */
} dc_history_t;

/*
 * A change that the merged order of a shared log (core/sync/sync.h) made
 * invalid: two members moved one case at the same time, and the one
 * that came second in the merged order no longer follows from the state
 * before it.  It is kept, not applied, until a "resolve" event.
 */
typedef struct dc_clash {
	int64_t event_id;
	int64_t at;
	char *actor;
	char *from;  /* the state it was made from */
	char *to;    /* the state it wanted */
	char *found; /* the state the merged order had there */
	int resolved;
} dc_clash_t;

struct dc_outcome;
struct dc_vote;

/*
 * A case as the front ends show it.  Everything but id, created_at,
 * reported_at, subject and threads is derived by replaying the case's
 * events: the cases table is only a cache of kind and state.
 */
typedef struct dc_case {
	int64_t id;
	dc_kind_t kind;
	char *state; /* see dc_case_states(); "withdrawn" once its open is
		      * undone */
	int64_t created_at;
	int64_t updated_at;
	int64_t reported_at;
	char *subject;
	GPtrArray *mail;    /* dc_store_mail_t *: what it covers, by
			     * Message-ID (core/mail/anchor.h) */
	GPtrArray *threads; /* char *: the notmuch threads of that mail, as
			     * the cache has them */
	GPtrArray *notes;   /* dc_note_t * */
	/* Derived from the events. */
	int withdrawn;   /* the open was undone: no longer a case */
	int converted;   /* a TAB consultation made a violation report */
	char *opened_by; /* actor of the open event */
	char *category;  /* core/case/category.h; NULL: none set */
	GPtrArray *participants; /* dc_participant_t * */
	GPtrArray *conflicts;    /* dc_conflict_t * */
	GPtrArray *aliases;      /* dc_alias_t *, oldest first */
	GPtrArray *outcomes;     /* struct dc_outcome * (core/case/outcome.h) */
	GPtrArray *votes;        /* struct dc_vote *, one per member
				  * (core/case/vote.h) */
	GPtrArray *history;      /* dc_history_t *, oldest first */
	GPtrArray *clashes;      /* dc_clash_t *, in the merged order */
} dc_case_t;

/* ---- states ---------------------------------------------------------- */

/* "new", "acknowledged", "investigating", "decided", "closed" (NULL
 * terminated). */
const char *const *dc_case_states(void);
/* The states a case in state from may move to, ", " separated, for
 * messages ("" when none). */
const char *dc_case_next_states(const char *from);
/*
 * Move a case to state to ("reopen" means "investigating" from
 * "closed").  An invalid transition is DC_E_INVALID with a message that
 * lists what is allowed; note may be NULL.
 */
dc_status_t dc_case_set_state(dc_store_t *s, int64_t case_id, const char *to,
			      const char *note, const char *actor, int64_t now,
			      dc_error_t *err);

/*
 * Resolve the case's unresolved clashes (dc_clash_t) as a "resolve"
 * event; a state change after it says where the case goes.
 * DC_E_INVALID when there is none.
 */
dc_status_t dc_case_resolve(dc_store_t *s, int64_t case_id, const char *note,
			    const char *actor, int64_t now, dc_error_t *err);

/*
 * Inside a transaction, after a sync: the mail the case covers as its
 * attach and detach events, in the merged order, leave it.  Each
 * Message-ID one of them names ends as the last one says (an undone
 * attach as a detach at its undo, an undone detach as an attach); mail
 * none of them names keeps its row.
 */
dc_status_t dc_case_replay_mail(dc_store_t *s, int64_t case_id, int64_t now,
				dc_error_t *err);
/* Inside a transaction: replay case id again into the cache and queue
 * its notmuch tags (after a sync put events before older ones). */
dc_status_t dc_case_refresh(dc_store_t *s, int64_t id, int64_t now,
			    dc_error_t *err);

/* Add a note to a case. */
dc_status_t dc_case_note(dc_store_t *s, int64_t case_id, const char *note,
			 const char *actor, int64_t now, dc_error_t *err);

/*
 * Convert a TAB consultation into a violation report of kind to
 * (admonition or escalation): the maintainer's explicit decision, recorded
 * as a "convert" event.  DC_E_INVALID if the case is not a TAB
 * consultation.
 */
dc_status_t dc_case_convert(dc_store_t *s, int64_t case_id, dc_kind_t to,
			    const char *note, const char *actor, int64_t now,
			    dc_error_t *err);

/*
 * Reopen a closed case (to investigating), as a "state" event;
 * DC_E_INVALID when it is not closed.
 */
dc_status_t dc_case_reopen(dc_store_t *s, int64_t case_id, const char *note,
			   const char *actor, int64_t now, dc_error_t *err);

/* The newest closed case the viewer may see covering thread_id, when no
 * open case covers it (else *out NULL): tagging it again must ask
 * whether to reopen that case or open a new one. */
dc_status_t dc_case_closed_for_thread(dc_store_t *s, const char *thread_id,
				      dc_case_t **out, dc_error_t *err);

/* ---- the mail of a case ---------------------------------------------- */

/*
 * Attach mail to a case, as an "attach" event: message_ids
 * (NULL-terminated), the first the anchor; scope "thread" (the anchor's
 * thread, whose messages as notmuch has them now are message_ids) or
 * "message" (the anchor alone).  thread_id is their notmuch thread now
 * (the cache).  DC_E_INVALID when the case covers the anchor or its
 * thread already.  role "report" marks the anchor as one more report of
 * the case's incident (the published report counts reports by it), NULL
 * as mail the case is about.  Front ends call dc_action_attach()
 * (action.h).
 */
dc_status_t dc_case_attach(dc_store_t *s, int64_t case_id, const char *scope,
			   const char *const *message_ids,
			   const char *thread_id, const char *role,
			   const char *actor, int64_t now, dc_error_t *err);
/*
 * Detach message_id from a case, as a "detach" event: a message
 * attached alone, or the whole of a thread the case covers.  The report
 * and its thread are refused (DC_E_INVALID); DC_E_NOT_FOUND when the
 * case does not cover message_id.  Undo of either reverses the mail too.
 */
dc_status_t dc_case_detach(dc_store_t *s, int64_t case_id,
			   const char *message_id, const char *actor,
			   int64_t now, dc_error_t *err);

/* ---- participants, conflicts, recusals -------------------------------- */

/* The roles a participant may have (NULL-terminated), for prompts. */
const char *const *dc_participant_roles(void);
/* "reporter", "respondent", "witness", "handler"; DC_E_USAGE otherwise. */
dc_status_t dc_participant_role_check(const char *role, dc_error_t *err);
/*
 * Add (remove == 0) or remove a participant, as a "participant" event
 * (undo takes either back).  A removal names a person the case has
 * (DC_E_NOT_FOUND otherwise); role may then be NULL for the one role
 * address holds (DC_E_USAGE when it holds several).
 */
dc_status_t dc_case_participant(dc_store_t *s, int64_t case_id,
				const char *role, const char *address,
				const char *name, int remove,
				const char *actor, int64_t now,
				dc_error_t *err);
/*
 * Add (remove == 0) or remove text as a form of the name of person, one
 * of the case's people: a mail address, or a role (reporter, ...) that
 * exactly one participant holds.  Refused (DC_E_USAGE) for text that is
 * empty, not UTF-8, or holds a control or a newline.  The history shows
 * whose form it is, never the form.
 */
dc_status_t dc_case_alias(dc_store_t *s, int64_t case_id, const char *person,
			  const char *text, int remove, const char *actor,
			  int64_t now, dc_error_t *err);
/* Declare a conflict of interest (recuse == 0) or a recusal.  A recused
 * member no longer sees the case (core/case/access.h). */
dc_status_t dc_case_conflict(dc_store_t *s, int64_t case_id,
			     const char *address, const char *note,
			     int recuse, const char *actor, int64_t now,
			     dc_error_t *err);

/*
 * Count the violation reports made in [from, to) (to 0: no end) that the
 * viewer may see: withdrawn cases and TAB consultations that were not
 * converted are not reports.
 */
dc_status_t dc_case_count_reports(dc_store_t *s, int64_t from, int64_t to,
				  int *count, dc_error_t *err);

/* Every case including withdrawn ones (dc_case_list leaves those out),
 * filtered by the viewer's access like dc_case_list. */
dc_status_t dc_case_list_all(dc_store_t *s, GPtrArray **out,
			     dc_error_t *err);

/*
 * Append one event about a case and bring everything derived from it up to
 * date: the cached kind and state, and the notmuch outbox.  For core's own
 * use (outcome.c, vote.c); checks that the viewer may see the case.
 */
dc_status_t dc_case_record(dc_store_t *s, int64_t case_id, const char *type,
			   GVariant *data, const char *actor, int64_t now,
			   dc_error_t *err);

/* Replay a case's events onto c (kind, state and the derived fields).
 * evs: dc_store_event_t *, oldest first. */
void dc_case_replay(dc_case_t *c, GPtrArray *evs);

/* A case as the store row sc has it (its kind, dates, subject and mail),
 * before dc_case_replay() derives the rest; unknown kinds read as
 * escalations.  Free with dc_case_free(). */
dc_case_t *dc_case_from_store(const dc_store_case_t *sc);

/*
 * Undo the newest change this actor made to the case, as a reversing event
 * (history keeps both).  Repeated calls undo earlier changes in turn;
 * DC_E_INVALID when nothing is left to undo.  Undoing the event that
 * opened a case withdraws the case: it no longer covers its threads.
 */
dc_status_t dc_case_undo(dc_store_t *s, int64_t case_id, const char *actor,
			 int64_t now, dc_error_t *err);

void dc_case_free(dc_case_t *c);
/* DC_E_NOT_FOUND, exactly as for a case that does not exist, when the
 * viewer may not see it (core/case/access.h): access rules leak nothing. */
dc_status_t dc_case_get(dc_store_t *s, int64_t id, dc_case_t **out,
			dc_error_t *err);
/* Every case the viewer may see, oldest first, without withdrawn cases;
 * *out frees its elements. */
dc_status_t dc_case_list(dc_store_t *s, GPtrArray **out, dc_error_t *err);
/* The open case covering a thread, else its newest closed one (a closed
 * case never vanishes from its thread), or NULL (not an error) if none
 * or if the viewer may not see it. */
dc_status_t dc_case_for_thread(dc_store_t *s, const char *thread_id,
			       dc_case_t **out, dc_error_t *err);

#endif
