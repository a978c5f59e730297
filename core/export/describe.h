/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Each object decorum prints in a structured format, described once: the
 * keys, their order and their types, written through the one structured
 * printer (core/base/sprinter.h).  The man page's JSON OUTPUT section names
 * the same keys in the same order, and tests/cli/test-json-schema.sh holds
 * the two together.  Each function writes one value (a map, mostly).
 */
#ifndef DC_DESCRIBE_H
#define DC_DESCRIBE_H

#include "core/base/sprinter.h"
#include "core/case/case.h"
#include "core/case/outcome.h"
#include "core/case/verify.h"
#include "core/case/vote.h"
#include "core/docs/doclink.h"
#include "core/mail/fsck.h"
#include "core/mail/mail.h"
#include "core/privacy/privacy.h"
#include "store/store.h"

/* A row of decorum list: c is the thread's case, or NULL. */
void dc_describe_thread_row(dc_sp_t *sp, const dc_thread_summary_t *ts,
			    const dc_case_t *c);
/* decorum show: the thread and every message of it. */
void dc_describe_thread(dc_sp_t *sp, const dc_thread_t *t);
void dc_describe_message(dc_sp_t *sp, const dc_message_t *m);

/* decorum cases: a case in brief. */
void dc_describe_case_row(dc_sp_t *sp, const dc_case_t *c);
/* decorum case show: the whole case; t holds a tally for each question
 * (indexed by dc_question_t); late (may be NULL: no mail index)
 * holds the Message-IDs of replies after it closed. */
void dc_describe_case(dc_sp_t *sp, const dc_case_t *c, const dc_tally_t *t,
		      const GPtrArray *late);
/* What a case is after a change, and how many tag changes wait. */
void dc_describe_case_change(dc_sp_t *sp, const dc_case_t *c,
			     const char *change, int queued);
void dc_describe_outcome(dc_sp_t *sp, const dc_outcome_t *o);
void dc_describe_expiry(dc_sp_t *sp, const dc_expiry_t *e);
void dc_describe_vote(dc_sp_t *sp, const dc_vote_t *v);
void dc_describe_tally(dc_sp_t *sp, const dc_tally_t *t);
void dc_describe_event(dc_sp_t *sp, const dc_history_t *h);
/* The outcomes, votes and tally of a case (the packet's decisions). */
void dc_describe_decisions(dc_sp_t *sp, const dc_case_t *c,
			   const dc_tally_t *t);

void dc_describe_member(dc_sp_t *sp, const dc_store_member_t *m);
/* A person of a case and the forms the scan looks for (dc_case_forms). */
void dc_describe_person(dc_sp_t *sp, const dc_identity_t *id);
void dc_describe_identity(dc_sp_t *sp, const char *who, const char *access);
void dc_describe_member_change(dc_sp_t *sp, const char *member,
			       const char *change);

/* ok: the chain checked out; error: why not (NULL when ok). */
void dc_describe_verify(dc_sp_t *sp, int ok, const dc_verify_t *v,
			const char *error);
void dc_describe_fsck(dc_sp_t *sp, const dc_fsck_t *f, int repaired);

void dc_describe_doclink(dc_sp_t *sp, const dc_doclink_t *l);
/* decorum doc KIND: the section's text, and the HTML page when built. */
void dc_describe_doc_section(dc_sp_t *sp, const dc_doclink_t *l,
			     const dc_doc_section_t *s, const char *html);

#endif
