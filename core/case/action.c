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

dc_status_t
dc_action_tag(dc_store_t *s, dc_mail_t *m, const char *thread_id,
	      dc_kind_t kind, const char *note, const char *actor, int64_t now,
	      dc_tag_result_t *res, dc_error_t *err)
{
	dc_tag_request_t req = { .kind = kind, .note = note };
	dc_case_t *before = NULL;
	dc_thread_t *t = NULL;
	GPtrArray *ids;
	dc_status_t st;
	guint i;

	memset(res, 0, sizeof(*res));
	/* The thread must exist: a case about nothing helps nobody. */
	st = dc_mail_thread(m, thread_id, 0, &t, err);
	if (st != DC_OK)
		return st;
	if (!t->messages->len) {
		dc_thread_free(t);
		return dc_fail(err, DC_E_NOT_FOUND, "thread %s has no messages",
			       thread_id);
	}
	st = dc_action_sync(s, m, 1, actor, now, err);
	ids = g_ptr_array_new();
	for (i = 0; i < t->messages->len; i++)
		g_ptr_array_add(ids,
				((dc_message_t *)t->messages->pdata[i])->message_id);
	g_ptr_array_add(ids, NULL);
	req.thread_id = t->thread_id;
	req.message_ids = (const char *const *)ids->pdata;
	req.subject = t->subject;
	req.reported_at = ((dc_message_t *)t->messages->pdata[0])->date;
	req.actor = actor;
	req.now = now;
	if (st == DC_OK)
		st = dc_case_for_thread(s, t->thread_id, &before, err);
	if (st == DC_OK)
		st = dc_case_tag(s, &req, &res->case_id, &res->created, err);
	if (st == DC_OK) {
		res->converted = before && before->kind == DC_KIND_TAB &&
				 kind != DC_KIND_TAB;
		res->thread_id = g_strdup(t->thread_id);
		res->report = g_strdup(req.message_ids[0]);
	}
	dc_case_free(before);
	g_ptr_array_unref(ids);
	dc_thread_free(t);
	return st;
}
