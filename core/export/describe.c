// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/export/describe.h"

#include "core/privacy/privacy.h"

/* Strings of mail and of people go through dc_sp_mail (sanitized, and
 * filtered where the printer redacts); the program's own names through
 * dc_sp_string. */

void
dc_describe_thread_row(dc_sp_t *sp, const dc_thread_summary_t *ts,
		       const dc_case_t *c)
{
	dc_sp_map(sp);
	dc_sp_kmail(sp, "thread", ts->thread_id);
	dc_sp_kint(sp, "timestamp", ts->newest);
	dc_sp_kint(sp, "oldest", ts->oldest);
	dc_sp_kint(sp, "matched", ts->matched);
	dc_sp_kint(sp, "total", ts->total);
	dc_sp_kmail(sp, "authors", ts->authors);
	dc_sp_kmail(sp, "subject", ts->subject);
	dc_sp_kmail_list(sp, "tags", ts->tags);
	dc_sp_kbool(sp, "partial", ts->partial);
	dc_sp_key(sp, "case");
	if (c) {
		dc_sp_map(sp);
		dc_sp_kint(sp, "id", c->id);
		dc_sp_kstring(sp, "kind", dc_kind_name(c->kind));
		dc_sp_kstring(sp, "state", c->state);
		dc_sp_end(sp);
	} else {
		dc_sp_null(sp);
	}
	dc_sp_end(sp);
}

static void
attachment(dc_sp_t *sp, const dc_attachment_t *a)
{
	dc_sp_map(sp);
	dc_sp_kmail(sp, "filename", a->filename);
	dc_sp_kmail(sp, "content_type", a->content_type);
	dc_sp_kint(sp, "size", (int64_t)a->size);
	dc_sp_end(sp);
}

void
dc_describe_message(dc_sp_t *sp, const dc_message_t *m)
{
	char *lore = dc_message_lore_url(m); /* NULL: private, not on lore */
	guint i;

	dc_sp_map(sp);
	dc_sp_kmail(sp, "id", m->message_id);
	dc_sp_kint(sp, "depth", m->depth);
	dc_sp_kint(sp, "timestamp", m->date);
	dc_sp_kbool(sp, "matched", !!(m->flags & DC_MSG_MATCHED));
	dc_sp_kmail(sp, "from", m->from);
	dc_sp_kmail(sp, "to", m->to);
	dc_sp_kmail(sp, "cc", m->cc);
	dc_sp_kmail(sp, "subject", m->subject);
	dc_sp_kmail(sp, "in_reply_to", m->in_reply_to);
	dc_sp_kmail_list(sp, "tags", m->tags);
	dc_sp_kmail(sp, "filename", m->filename);
	dc_sp_kmail(sp, "lore", lore);
	g_free(lore);
	dc_sp_key(sp, "problems");
	dc_sp_list(sp);
	if (m->flags & DC_MSG_UNREADABLE)
		dc_sp_string(sp, "unreadable");
	if (m->flags & DC_MSG_MALFORMED)
		dc_sp_string(sp, "malformed");
	dc_sp_end(sp);
	dc_sp_key(sp, "attachments");
	dc_sp_list(sp);
	for (i = 0; m->attachments && i < m->attachments->len; i++)
		attachment(sp, m->attachments->pdata[i]);
	dc_sp_end(sp);
	dc_sp_kmail_text(sp, "body", m->body ? m->body : "");
	dc_sp_end(sp);
}

void
dc_describe_thread(dc_sp_t *sp, const dc_thread_t *t)
{
	guint i;

	dc_sp_map(sp);
	dc_sp_kmail(sp, "thread", t->thread_id);
	dc_sp_kmail(sp, "subject", t->subject);
	dc_sp_key(sp, "messages");
	dc_sp_list(sp);
	for (i = 0; i < t->messages->len; i++)
		dc_describe_message(sp, t->messages->pdata[i]);
	dc_sp_end(sp);
	dc_sp_end(sp);
}

static void
note(dc_sp_t *sp, const dc_note_t *n)
{
	dc_sp_map(sp);
	dc_sp_ktime(sp, "at", n->at);
	dc_sp_kmail(sp, "by", n->actor);
	dc_sp_kmail_text(sp, "text", n->text);
	dc_sp_end(sp);
}

static void
notes(dc_sp_t *sp, const dc_case_t *c)
{
	guint i;

	dc_sp_key(sp, "notes");
	dc_sp_list(sp);
	for (i = 0; i < c->notes->len; i++)
		note(sp, c->notes->pdata[i]);
	dc_sp_end(sp);
}

/* The keys a case row and a whole case open with. */
static void
case_head(dc_sp_t *sp, const dc_case_t *c)
{
	dc_sp_kint(sp, "id", c->id);
	dc_sp_kstring(sp, "kind", dc_kind_name(c->kind));
	dc_sp_kstring(sp, "state", c->state);
}

void
dc_describe_case_row(dc_sp_t *sp, const dc_case_t *c)
{
	dc_sp_map(sp);
	case_head(sp, c);
	dc_sp_ktime(sp, "created", c->created_at);
	dc_sp_ktime(sp, "updated", c->updated_at);
	dc_sp_ktime(sp, "reported", c->reported_at);
	dc_sp_kmail(sp, "subject", c->subject);
	dc_sp_kmail_list(sp, "threads", c->threads);
	notes(sp, c);
	dc_sp_end(sp);
}

static void
case_mail(dc_sp_t *sp, const void *obj)
{
	const dc_store_mail_t *m = obj;

	dc_sp_map(sp);
	dc_sp_kmail(sp, "message_id", m->message_id);
	dc_sp_kstring(sp, "scope", m->scope);
	dc_sp_kstring(sp, "role", m->role);
	dc_sp_kmail(sp, "thread", m->thread_id);
	dc_sp_end(sp);
}

static void
participant(dc_sp_t *sp, const void *obj)
{
	const dc_participant_t *p = obj;

	dc_sp_map(sp);
	dc_sp_kstring(sp, "role", p->role);
	dc_sp_kmail(sp, "address", p->address);
	dc_sp_kmail(sp, "name", p->name);
	dc_sp_end(sp);
}

static void
conflict(dc_sp_t *sp, const void *obj)
{
	const dc_conflict_t *x = obj;

	dc_sp_map(sp);
	dc_sp_kmail(sp, "address", x->address);
	dc_sp_kbool(sp, "recused", x->recused);
	dc_sp_kmail_text(sp, "note", x->note);
	dc_sp_end(sp);
}

void
dc_describe_outcome(dc_sp_t *sp, const dc_outcome_t *o)
{
	int measure = o->kind == DC_OUTCOME_MEASURE;

	dc_sp_map(sp);
	dc_sp_kint(sp, "event", o->event_id);
	dc_sp_kstring(sp, "outcome", dc_outcome_name(o->kind));
	dc_sp_kstring(sp, "label", dc_outcome_label(o->kind));
	dc_sp_kint(sp, "rung", o->kind);
	dc_sp_ktime(sp, "at", o->at);
	dc_sp_kmail(sp, "by", o->actor);
	/* Keys that belong to another kind of outcome are null. */
	dc_sp_key(sp, "public");
	if (o->kind == DC_OUTCOME_ADMONITION)
		dc_sp_bool(sp, o->public_);
	else
		dc_sp_null(sp);
	dc_sp_kmail(sp, "what", measure ? o->what : NULL);
	dc_sp_kmail(sp, "scope", measure ? o->scope : NULL);
	dc_sp_ktime(sp, "from", measure ? o->from : 0);
	dc_sp_ktime(sp, "until", measure ? o->until : 0);
	dc_sp_kmail(sp, "until_release", measure ? o->until_release : NULL);
	dc_sp_kmail_text(sp, "note", o->note);
	dc_sp_ktime(sp, "edited", o->edited_at);
	dc_sp_end(sp);
}

void
dc_describe_expiry(dc_sp_t *sp, const dc_expiry_t *e)
{
	dc_sp_map(sp);
	dc_sp_kint(sp, "case", e->case_id);
	dc_sp_kbool(sp, "expired", e->expired);
	dc_sp_key(sp, "measure");
	dc_describe_outcome(sp, e->outcome);
	dc_sp_end(sp);
}

void
dc_describe_vote(dc_sp_t *sp, const dc_vote_t *v)
{
	dc_sp_map(sp);
	dc_sp_kmail(sp, "member", v->member);
	dc_sp_kstring(sp, "vote", dc_vote_choice_name(v->choice));
	dc_sp_kstring(sp, "question", dc_question_name(v->question));
	dc_sp_kbool(sp, "legacy", v->question == DC_QUESTION_LEGACY);
	dc_sp_ktime(sp, "at", v->at);
	dc_sp_end(sp);
}

void
dc_describe_tally(dc_sp_t *sp, const dc_tally_t *t)
{
	dc_sp_map(sp);
	dc_sp_kstring(sp, "rule", dc_vote_rule_name(t->rule));
	dc_sp_kint(sp, "for", t->n_for);
	dc_sp_kint(sp, "against", t->n_against);
	dc_sp_kint(sp, "abstain", t->n_abstain);
	dc_sp_kint(sp, "recused", t->n_recused);
	dc_sp_kint(sp, "members", t->members);
	dc_sp_kint(sp, "denominator", t->denominator);
	dc_sp_kbool(sp, "decided", t->decided);
	dc_sp_kbool(sp, "passed", t->passed);
	dc_sp_kbool(sp, "tie", t->tie);
	dc_sp_kstring(sp, "result", t->why);
	dc_sp_kstring(sp, "question", dc_question_name(t->question));
	dc_sp_kstring(sp, "question_text", dc_question_text(t->question));
	dc_sp_kstring(sp, "source", dc_question_source(t->question));
	dc_sp_kstring(sp, "rule_text", dc_vote_rule_text(t->rule));
	dc_sp_kint(sp, "outstanding", t->outstanding);
	dc_sp_kstring(sp, "decision", dc_result_name(t->result));
	dc_sp_end(sp);
}

void
dc_describe_event(dc_sp_t *sp, const dc_history_t *h)
{
	dc_sp_map(sp);
	dc_sp_kint(sp, "event", h->id);
	dc_sp_ktime(sp, "at", h->at);
	dc_sp_kmail(sp, "by", h->actor);
	dc_sp_kstring(sp, "type", h->type);
	dc_sp_kmail(sp, "summary", h->summary);
	dc_sp_kid(sp, "undone_by", h->undone_by);
	dc_sp_end(sp);
}

/* An array of a case's objects, each written by one describer. */
static void
each(dc_sp_t *sp, const char *key, const GPtrArray *a,
     void (*fn)(dc_sp_t *, const void *))
{
	guint i;

	dc_sp_key(sp, key);
	dc_sp_list(sp);
	for (i = 0; a && i < a->len; i++)
		fn(sp, a->pdata[i]);
	dc_sp_end(sp);
}

static void
outcome_v(dc_sp_t *sp, const void *o)
{
	dc_describe_outcome(sp, o);
}

static void
vote_v(dc_sp_t *sp, const void *v)
{
	dc_describe_vote(sp, v);
}

static void
event_v(dc_sp_t *sp, const void *h)
{
	dc_describe_event(sp, h);
}

void
dc_describe_case(dc_sp_t *sp, const dc_case_t *c, const dc_tally_t *t,
		 const GPtrArray *late)
{
	const dc_outcome_t *top = dc_case_top_outcome(c);

	dc_sp_map(sp);
	case_head(sp, c);
	dc_sp_kbool(sp, "withdrawn", c->withdrawn);
	dc_sp_kbool(sp, "converted", c->converted);
	dc_sp_kbool(sp, "counts_as_report",
		    !c->withdrawn && c->kind != DC_KIND_TAB);
	dc_sp_kstring(sp, "next_states", dc_case_next_states(c->state));
	dc_sp_ktime(sp, "created", c->created_at);
	dc_sp_ktime(sp, "updated", c->updated_at);
	dc_sp_ktime(sp, "reported", c->reported_at);
	dc_sp_kmail(sp, "opened_by", c->opened_by);
	dc_sp_kmail(sp, "subject", c->subject);
	dc_sp_kmail_list(sp, "threads", c->threads);
	each(sp, "messages", c->mail, case_mail);
	each(sp, "participants", c->participants, participant);
	each(sp, "conflicts", c->conflicts, conflict);
	dc_sp_key(sp, "outcome");
	if (top)
		dc_describe_outcome(sp, top);
	else
		dc_sp_null(sp);
	each(sp, "outcomes", c->outcomes, outcome_v);
	dc_sp_key(sp, "category");
	if (c->category)
		dc_sp_string(sp, c->category);
	else
		dc_sp_null(sp);
	each(sp, "votes", c->votes, vote_v);
	dc_sp_key(sp, "tally");
	dc_describe_tally(sp, &t[DC_QUESTION_OVERTURN]);
	dc_sp_key(sp, "questions");
	dc_sp_list(sp);
	{
		dc_question_t q;

		for (q = DC_QUESTION_OVERTURN; q < DC_QUESTION_COUNT; q++)
			if (dc_case_has_question(c, q))
				dc_describe_tally(sp, &t[q]);
	}
	dc_sp_end(sp);
	notes(sp, c);
	each(sp, "history", c->history, event_v);
	if (late) {
		dc_sp_kmail_list(sp, "late_replies", late);
	} else {
		dc_sp_key(sp, "late_replies");
		dc_sp_null(sp);
	}
	dc_sp_end(sp);
}

void
dc_describe_case_change(dc_sp_t *sp, const dc_case_t *c, const char *change,
			int queued)
{
	dc_sp_map(sp);
	case_head(sp, c);
	dc_sp_kstring(sp, "change", change);
	dc_sp_kint(sp, "queued_tag_changes", queued);
	dc_sp_end(sp);
}

void
dc_describe_decisions(dc_sp_t *sp, const dc_case_t *c, const dc_tally_t *t)
{
	dc_sp_map(sp);
	dc_sp_kint(sp, "case", c->id);
	each(sp, "outcomes", c->outcomes, outcome_v);
	each(sp, "votes", c->votes, vote_v);
	dc_sp_key(sp, "tally");
	dc_describe_tally(sp, t);
	dc_sp_end(sp);
}

void
dc_describe_member(dc_sp_t *sp, const dc_store_member_t *m)
{
	dc_sp_map(sp);
	dc_sp_kmail(sp, "address", m->address);
	dc_sp_kmail(sp, "name", m->name);
	dc_sp_kstring(sp, "role", m->role);
	dc_sp_ktime(sp, "joined", m->joined);
	dc_sp_ktime(sp, "left", m->left);
	dc_sp_end(sp);
}

void
dc_describe_person(dc_sp_t *sp, const dc_identity_t *id)
{
	GPtrArray *forms = dc_identity_forms(id);
	guint k;

	dc_sp_map(sp);
	dc_sp_kstring(sp, "label", id->label);
	dc_sp_kmail(sp, "address", id->address);
	dc_sp_kmail_list(sp, "names", id->names);
	/* Every form the scan and the redaction look for, and whence. */
	dc_sp_key(sp, "forms");
	dc_sp_list(sp);
	for (k = 0; k < forms->len; k++) {
		const dc_form_t *f = forms->pdata[k];

		dc_sp_map(sp);
		dc_sp_kmail(sp, "text", f->text);
		dc_sp_kstring(sp, "kind", dc_form_kind_name(f->kind));
		dc_sp_kstring(sp, "source", f->source);
		dc_sp_kstring(sp, "rule", dc_form_rule(f));
		dc_sp_end(sp);
	}
	dc_sp_end(sp);
	dc_sp_end(sp);
	g_ptr_array_unref(forms);
}

void
dc_describe_identity(dc_sp_t *sp, const char *who, const char *access)
{
	dc_sp_map(sp);
	dc_sp_kmail(sp, "identity", who);
	dc_sp_kstring(sp, "access", access);
	dc_sp_end(sp);
}

void
dc_describe_member_change(dc_sp_t *sp, const char *member,
			  const char *change)
{
	dc_sp_map(sp);
	dc_sp_kmail(sp, "member", member);
	dc_sp_kstring(sp, "change", change);
	dc_sp_end(sp);
}

void
dc_describe_verify(dc_sp_t *sp, int ok, const dc_verify_t *v,
		   const char *error)
{
	dc_sp_map(sp);
	dc_sp_kbool(sp, "ok", ok);
	dc_sp_kint(sp, "events", v->events);
	dc_sp_kstring(sp, "head", v->head[0] ? v->head : NULL);
	dc_sp_kid(sp, "bad_event", v->bad_id);
	dc_sp_kid(sp, "bad_case", v->bad_case);
	dc_sp_kmail(sp, "error", ok ? NULL : error);
	dc_sp_end(sp);
}

static void
fsck_diff(dc_sp_t *sp, const void *obj)
{
	const dc_fsck_diff_t *d = obj;

	dc_sp_map(sp);
	dc_sp_kmail(sp, "thread", d->thread_id);
	dc_sp_kmail(sp, "message", d->message_id);
	dc_sp_kmail(sp, "tag", d->tag);
	dc_sp_kstring(sp, "problem",
		      d->missing ? "missing in notmuch" : "not in the store");
	dc_sp_end(sp);
}

static void
fsck_gone(dc_sp_t *sp, const void *obj)
{
	const dc_fsck_gone_t *g = obj;

	dc_sp_map(sp);
	dc_sp_kint(sp, "case", g->case_id);
	dc_sp_kmail(sp, "message", g->message_id);
	dc_sp_end(sp);
}

void
dc_describe_fsck(dc_sp_t *sp, const dc_fsck_t *f, int repaired)
{
	dc_sp_map(sp);
	dc_sp_kint(sp, "threads", f->threads);
	dc_sp_kint(sp, "tags", f->tags);
	dc_sp_kint(sp, "limit", f->limit);
	dc_sp_kint(sp, "queued", f->pending);
	dc_sp_kbool(sp, "repaired", repaired);
	each(sp, "differences", f->diffs, fsck_diff);
	each(sp, "missing", f->gone, fsck_gone);
	dc_sp_end(sp);
}

void
dc_describe_doclink(dc_sp_t *sp, const dc_doclink_t *l)
{
	dc_sp_map(sp);
	dc_sp_kstring(sp, "name", l->name);
	dc_sp_kstring(sp, "title", l->title);
	dc_sp_kstring(sp, "page", l->page);
	dc_sp_kstring(sp, "label", l->label);
	dc_sp_kstring(sp, "anchor", l->anchor);
	dc_sp_kstring(sp, "url", l->url);
	dc_sp_kbool(sp, "installed", l->installed);
	dc_sp_end(sp);
}

void
dc_describe_doc_section(dc_sp_t *sp, const dc_doclink_t *l,
			const dc_doc_section_t *s, const char *html)
{
	dc_sp_map(sp);
	dc_sp_kstring(sp, "name", l->name);
	dc_sp_kstring(sp, "title", s->title ? s->title : l->title);
	dc_sp_kstring(sp, "text", s->text);
	dc_sp_kstring(sp, "url", l->url);
	dc_sp_kstring(sp, "html", html);
	dc_sp_end(sp);
}
