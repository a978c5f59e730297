// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Actions shared by every front end (see core/case/action.h).
 */
#include <string.h>

#include "core/case/action.h"
#include "core/mail/anchor.h"

void
dc_tag_result_clear(dc_tag_result_t *r)
{
	g_free(r->thread_id);
	g_free(r->report);
	memset(r, 0, sizeof(*r));
}

dc_status_t
dc_action_sync(dc_store_t *s, dc_mail_t *m, int writable, const char *actor,
	       int64_t now, dc_error_t *err)
{
	if (!s || !m)
		return DC_OK;
	dc_mail_refresh(m);
	return dc_anchor_sync(s, dc_mail_notmuch(m), writable, actor, now, err);
}

static dc_status_t
legacy_count(dc_store_t *s, int *n, dc_error_t *err)
{
	GPtrArray *rows = NULL;
	dc_status_t st = dc_store_legacy_list(s, &rows, err);

	*n = st == DC_OK ? (int)rows->len : 0;
	if (rows)
		g_ptr_array_unref(rows);
	return st;
}

dc_status_t
dc_action_upgrade(dc_store_t *s, dc_mail_t *m, const char *actor,
		  int64_t now, dc_upgrade_result_t *res, dc_error_t *err)
{
	int before = 0;
	dc_status_t st;

	memset(res, 0, sizeof(*res));
	st = legacy_count(s, &before, err);
	if (st == DC_OK)
		st = dc_action_sync(s, m, 1, actor, now, err);
	if (st == DC_OK)
		st = legacy_count(s, &res->unresolved, err);
	res->anchored = before - res->unresolved;
	return st;
}

/* A thread of a closed case: reopen it, open a new one, or ask. */
static dc_status_t
closed_case(dc_store_t *s, const char *thread_id, dc_closed_t closed,
	    const char *note, const char *actor, int64_t now,
	    dc_tag_result_t *res, dc_error_t *err)
{
	dc_case_t *c = NULL;
	dc_status_t st = dc_case_closed_for_thread(s, thread_id, &c, err);

	if (st != DC_OK || !c || closed == DC_CLOSED_NEW) {
		dc_case_free(c);
		return st;
	}
	res->closed_case = c->id;
	if (closed == DC_CLOSED_REOPEN) {
		st = dc_case_reopen(s, c->id, note, actor, now, err);
		res->reopened = st == DC_OK;
	} else {
		st = dc_fail(err, DC_E_INVALID,
			     "thread %s belongs to case %" G_GINT64_FORMAT
			     ", which is closed: reopen it or open a new case",
			     thread_id, (gint64)c->id);
	}
	dc_case_free(c);
	return st;
}

dc_status_t
dc_action_tag(dc_store_t *s, dc_mail_t *m, const char *thread_id,
	      dc_kind_t kind, const char *note, const char *actor, int64_t now,
	      dc_tag_result_t *res, dc_error_t *err)
{
	return dc_action_tag_closed(s, m, thread_id, kind, note,
				    DC_CLOSED_ASK, actor, now, res, err);
}

dc_status_t
dc_action_tag_closed(dc_store_t *s, dc_mail_t *m, const char *thread_id,
		     dc_kind_t kind, const char *note, dc_closed_t closed,
		     const char *actor, int64_t now, dc_tag_result_t *res,
		     dc_error_t *err)
{
	dc_tag_request_t req = { .kind = kind, .note = note };
	dc_case_t *before = NULL;
	dc_thread_head_t *h = NULL;
	dc_status_t st;

	memset(res, 0, sizeof(*res));
	/* The thread must exist: a case about nothing helps nobody.  Its
	 * Message-IDs and its report, without building the thread. */
	st = dc_mail_thread_head(m, thread_id, &h, err);
	if (st != DC_OK)
		return st;
	st = dc_action_sync(s, m, 1, actor, now, err);
	req.thread_id = h->thread_id;
	req.message_ids = (const char *const *)h->message_ids->pdata;
	req.subject = h->subject;
	req.reported_at = h->reported_at;
	req.actor = actor;
	req.now = now;
	if (st == DC_OK)
		st = closed_case(s, h->thread_id, closed, note, actor, now,
				 res, err);
	if (st == DC_OK)
		st = dc_case_for_thread(s, h->thread_id, &before, err);
	if (st == DC_OK)
		st = dc_case_tag(s, &req, &res->case_id, &res->created, err);
	if (st == DC_OK) {
		res->converted = !res->created && before &&
				 before->kind == DC_KIND_TAB &&
				 kind != DC_KIND_TAB;
		res->thread_id = g_strdup(h->thread_id);
		res->report = g_strdup(req.message_ids[0]);
	}
	dc_case_free(before);
	dc_thread_head_free(h);
	return st;
}

/* ---- several threads per case ----------------------------------------- */

/* "id:MSGID" (angle brackets optional): the Message-ID, else NULL. */
static char *
target_message_id(const char *target)
{
	const char *p;
	size_t n;

	if (!target || strncmp(target, "id:", 3))
		return NULL;
	p = target + 3;
	n = strlen(p);
	if (n >= 2 && p[0] == '<' && p[n - 1] == '>')
		return g_strndup(p + 1, n - 2);
	return g_strdup(p);
}

/* The thread target names (a thread id, or the thread of id:MSGID). */
static dc_status_t
target_thread(dc_mail_t *m, const char *target, const char *msgid,
	      dc_thread_t **t, dc_error_t *err)
{
	char *tid = NULL;
	dc_status_t st;

	*t = NULL;
	if (msgid && !(tid = dc_anchor_thread_of(dc_mail_notmuch(m), msgid)))
		return dc_fail(err, DC_E_NOT_FOUND,
			       "no message <%s> in the notmuch index", msgid);
	st = dc_mail_thread(m, tid ? tid : target, 0, t, err);
	g_free(tid);
	if (st == DC_OK && !(*t)->messages->len) {
		dc_thread_free(*t);
		*t = NULL;
		st = dc_fail(err, DC_E_NOT_FOUND, "thread %s has no messages",
			     target);
	}
	return st;
}

dc_status_t
dc_action_attach(dc_store_t *s, dc_mail_t *m, int64_t case_id,
		 const char *target, unsigned flags, const char *actor,
		 int64_t now, char **anchor, dc_error_t *err)
{
	int message_only = (flags & DC_ATTACH_MESSAGE) != 0;
	char *msgid = target_message_id(target);
	dc_thread_t *t = NULL;
	GPtrArray *ids = g_ptr_array_new();
	dc_status_t st;
	guint i;

	if (anchor)
		*anchor = NULL;
	st = dc_action_sync(s, m, 1, actor, now, err);
	if (st == DC_OK)
		st = target_thread(m, target, msgid, &t, err);
	if (st == DC_OK && message_only) {
		g_ptr_array_add(ids,
				msgid ? msgid
				      : ((dc_message_t *)t->messages->pdata[0])
						->message_id);
	} else if (st == DC_OK) {
		for (i = 0; i < t->messages->len; i++)
			g_ptr_array_add(
			    ids, ((dc_message_t *)t->messages->pdata[i])
				     ->message_id);
	}
	g_ptr_array_add(ids, NULL);
	if (st == DC_OK)
		st = dc_case_attach(s, case_id,
				    message_only ? "message" : "thread",
				    (const char *const *)ids->pdata,
				    t->thread_id,
				    flags & DC_ATTACH_REPORT ? "report" : NULL,
				    actor, now, err);
	if (st == DC_OK && anchor)
		*anchor = g_strdup(ids->pdata[0]);
	g_ptr_array_unref(ids);
	dc_thread_free(t);
	g_free(msgid);
	return st;
}

dc_status_t
dc_action_detach(dc_store_t *s, dc_mail_t *m, int64_t case_id,
		 const char *target, const char *actor, int64_t now,
		 char **anchor, dc_error_t *err)
{
	char *msgid = target_message_id(target);
	dc_case_t *c = NULL;
	dc_status_t st;
	guint i;

	if (anchor)
		*anchor = NULL;
	st = dc_action_sync(s, m, 1, actor, now, err);
	/* A thread: the case's mail cached in it. */
	if (st == DC_OK && !msgid) {
		const char *tid = dc_thread_id_bare(target);

		st = dc_case_get(s, case_id, &c, err);
		for (i = 0; st == DC_OK && i < c->mail->len && !msgid; i++) {
			const dc_store_mail_t *x = c->mail->pdata[i];

			if (!g_strcmp0(x->thread_id, tid))
				msgid = g_strdup(x->message_id);
		}
		if (st == DC_OK && !msgid)
			st = dc_fail(err, DC_E_NOT_FOUND,
				     "case %" G_GINT64_FORMAT " covers no "
				     "mail of thread %s",
				     (gint64)case_id, tid);
		dc_case_free(c);
	}
	if (st == DC_OK)
		st = dc_case_detach(s, case_id, msgid, actor, now, err);
	if (st == DC_OK && anchor)
		*anchor = g_strdup(msgid);
	g_free(msgid);
	return st;
}

dc_status_t
dc_action_reply(dc_store_t *s, const dc_config_t *cfg,
		const dc_mail_opts_t *opts, int64_t case_id,
		const char *draft, const char *actor, int64_t now,
		dc_reply_sent_t *res, dc_error_t *err)
{
	GVariantBuilder b;
	dc_error_t e2 = { 0 };
	dc_case_t *c = NULL;
	dc_status_t st;

	memset(res, 0, sizeof *res);
	if (case_id > 0) {
		if (!s)
			return dc_fail(err, DC_E_INVALID,
				       "no case store to record the reply in");
		/* The viewer may see the case, before anything leaves. */
		st = dc_case_get(s, case_id, &c, err);
		if (st == DC_OK && c->withdrawn)
			st = dc_fail(err, DC_E_INVALID,
				     "case %" G_GINT64_FORMAT " was withdrawn "
				     "(its opening was undone): nothing was "
				     "sent",
				     (gint64)case_id);
		dc_case_free(c);
		if (st != DC_OK)
			return st;
	}
	st = dc_reply_send(cfg, opts, draft, now, res, err);
	if (st != DC_OK || case_id <= 0)
		return st;
	g_variant_builder_init(&b, G_VARIANT_TYPE("a{sv}"));
	g_variant_builder_add(&b, "{sv}", "message",
			      g_variant_new_string(res->message_id));
	if (res->in_reply_to)
		g_variant_builder_add(&b, "{sv}", "in_reply_to",
				      g_variant_new_string(res->in_reply_to));
	if (dc_case_record(s, case_id, "reply", g_variant_builder_end(&b),
			   actor, now, &e2) != DC_OK)
		res->not_recorded = g_strdup(e2.msg);
	return DC_OK;
}
