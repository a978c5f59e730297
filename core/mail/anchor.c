// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Anchors (see core/mail/anchor.h): the thread cache of the mail cases cover,
 * kept in step with the notmuch database by its UUID and revision.
 */
#include <notmuch.h>
#include <string.h>

#include "core/mail/anchor.h"
#include "core/case/event.h"
#include "core/mail/mirror.h"

dc_status_t
dc_anchor_find(void *db, const char *message_id, char **thread,
	       dc_error_t *err)
{
	notmuch_message_t *m = NULL;
	notmuch_status_t nst;
	int tries = 0;

	*thread = NULL;
	if (!message_id || !*message_id)
		return DC_OK;
	do
		nst = notmuch_database_find_message(db, message_id, &m);
	while (nst != NOTMUCH_STATUS_SUCCESS && ++tries < DC_NOTMUCH_TRIES &&
	       dc_notmuch_reopen_if_stale(db, nst));
	if (nst != NOTMUCH_STATUS_SUCCESS)
		return dc_notmuch_fail(err, nst, "looking up a message",
				       notmuch_database_status_string(db));
	if (m) {
		*thread = g_strdup(notmuch_message_get_thread_id(m));
		notmuch_message_destroy(m);
	}
	return DC_OK;
}

char *
dc_anchor_thread_of(void *db, const char *message_id)
{
	char *t = NULL;

	if (dc_anchor_find(db, message_id, &t, NULL) != DC_OK)
		return NULL;
	return t;
}

const char *
dc_mail_absent(const dc_store_mail_t *m)
{
	return m && !m->thread_id ? DC_MAIL_ABSENT : NULL;
}

const char *
dc_case_mail_absent(const dc_case_t *c)
{
	guint i;

	for (i = 0; c->mail && i < c->mail->len; i++)
		if (!dc_mail_absent(c->mail->pdata[i]))
			return NULL;
	return c->mail && c->mail->len ? DC_MAIL_ABSENT : NULL;
}

/* ---- cases from before migration 004 ----------------------------------- */

/* The Message-IDs the open event recorded (the CLI did), or NULL. */
static GPtrArray *
ids_from_events(dc_store_t *s, int64_t case_id)
{
	GPtrArray *evs = NULL, *ids = NULL;
	guint i;

	if (dc_store_event_list(s, case_id, &evs, NULL) != DC_OK)
		return NULL;
	for (i = 0; i < evs->len && !ids; i++) {
		const dc_store_event_t *ev = evs->pdata[i];
		GVariant *v, *list;
		GVariantIter it;
		const char *id;

		if (strcmp(ev->type, "open") || !(v = dc_event_data(ev)))
			continue;
		list = g_variant_lookup_value(v, "messages",
					      G_VARIANT_TYPE("as"));
		if (list && g_variant_n_children(list)) {
			ids = g_ptr_array_new_with_free_func(g_free);
			g_variant_iter_init(&it, list);
			while (g_variant_iter_next(&it, "&s", &id))
				g_ptr_array_add(ids, g_strdup(id));
		}
		if (list)
			g_variant_unref(list);
		g_variant_unref(v);
	}
	g_ptr_array_unref(evs);
	return ids;
}

/* The messages of thread_id, oldest first; a thread id that is not one
 * finds nothing (*q NULL, DC_OK). */
static dc_status_t
thread_messages(void *db, const char *thread_id, notmuch_query_t **q,
		notmuch_messages_t **msgs, dc_error_t *err)
{
	dc_status_t st;
	char *qs;

	*q = NULL;
	*msgs = NULL;
	if (strspn(thread_id, "0123456789abcdef") != strlen(thread_id))
		return DC_OK;
	qs = g_strconcat("thread:", thread_id, NULL);
	st = dc_notmuch_messages(db, qs, NOTMUCH_SORT_OLDEST_FIRST, q, msgs,
				 "searching notmuch", err);
	g_free(qs);
	return st;
}

/* The messages of a thread as notmuch numbers it now, oldest first;
 * *oldest: the Date of the first. */
static GPtrArray *
ids_from_thread(void *db, const char *thread_id, int64_t *oldest,
		char **subject)
{
	GPtrArray *ids = g_ptr_array_new_with_free_func(g_free);
	notmuch_messages_t *msgs = NULL;
	notmuch_query_t *q = NULL;

	if (thread_messages(db, thread_id, &q, &msgs, NULL) != DC_OK || !q)
		return ids;
	for (; notmuch_messages_valid(msgs);
	     notmuch_messages_move_to_next(msgs)) {
		notmuch_message_t *m = notmuch_messages_get(msgs);

		if (!ids->len) {
			*oldest = notmuch_message_get_date(m);
			*subject = g_strdup(
			    notmuch_message_get_header(m, "subject"));
		}
		g_ptr_array_add(ids,
				g_strdup(notmuch_message_get_message_id(m)));
		notmuch_message_destroy(m);
	}
	notmuch_query_destroy(q);
	return ids;
}

/* Whether a thread whose oldest message has this date and subject is
 * the one the case was opened on (cases.reported_at, cases.subject). */
static int
same_case(dc_store_t *s, int64_t case_id, int64_t oldest,
	  const char *subject)
{
	dc_store_case_t *c = NULL;
	int same;

	if (dc_store_case_get(s, case_id, &c, NULL) != DC_OK)
		return 0;
	same = c->reported_at == oldest ||
	       (c->subject && subject && !strcmp(c->subject, subject));
	dc_store_case_free(c);
	return same;
}

static GVariant *
anchor_payload(const char *thread_id, GPtrArray *ids, const char *source)
{
	GVariantBuilder b, l;
	guint i;

	g_variant_builder_init(&b, G_VARIANT_TYPE("a{sv}"));
	g_variant_builder_add(&b, "{sv}", "thread",
			      g_variant_new_string(thread_id));
	g_variant_builder_add(&b, "{sv}", "source",
			      g_variant_new_string(source));
	g_variant_builder_init(&l, G_VARIANT_TYPE("as"));
	for (i = 0; i < ids->len; i++)
		g_variant_builder_add(&l, "s", (char *)ids->pdata[i]);
	g_variant_builder_add(&b, "{sv}", "messages", g_variant_builder_end(&l));
	return g_variant_builder_end(&b);
}

/*
 * One thread of an older case: its Message-IDs from the open event when
 * the CLI recorded them, else from notmuch by the thread id as it was
 * then.  What notmuch gave is recorded as an event, so a later reader can
 * see what the old id was taken to mean.  A thread notmuch no longer has
 * stays unresolved until it has it.
 */
static dc_status_t
resolve_legacy(dc_store_t *s, void *db, const dc_store_legacy_t *l,
	       int record, const char *actor, int64_t now, dc_error_t *err)
{
	GPtrArray *ids = ids_from_events(s, l->case_id);
	const char *source = "open event";
	dc_status_t st = DC_OK;
	char *subject = NULL;
	int64_t oldest = 0;
	guint i;

	if (!ids) {
		ids = ids_from_thread(db, l->thread_id, &oldest, &subject);
		source = "notmuch thread";
		/* The number alone is no proof: after a rebuild it may name
		 * someone else's thread.  Take it only when its first mail
		 * is the case's (the date it was reported, or its subject);
		 * else the case stays unresolved, never moved. */
		if (ids->len && !same_case(s, l->case_id, oldest, subject))
			g_ptr_array_set_size(ids, 0);
		g_free(subject);
	}
	if (!ids->len) {
		g_ptr_array_unref(ids);
		return DC_OK;
	}
	for (i = 0; st == DC_OK && i < ids->len; i++) {
		dc_store_mail_t m = {
			.case_id = l->case_id,
			.message_id = ids->pdata[i],
			.scope = "thread",
			.role = i == 0 ? "report" : NULL,
			.added_at = l->added_at,
		};

		st = dc_store_case_add_mail(s, &m, err);
	}
	if (st == DC_OK && record)
		st = dc_event_append(s, l->case_id, now, actor, "anchor",
				     anchor_payload(l->thread_id, ids, source),
				     NULL, err);
	if (st == DC_OK && record)
		st = dc_store_outbox_add(s, l->case_id, NULL, now, err);
	if (st == DC_OK)
		st = dc_store_legacy_done(s, l->case_id, l->thread_id, err);
	g_ptr_array_unref(ids);
	return st;
}

static dc_status_t
sync_legacy(dc_store_t *s, void *db, int record, const char *actor,
	    int64_t now, dc_error_t *err)
{
	GPtrArray *rows = NULL;
	dc_status_t st = dc_store_legacy_list(s, &rows, err);
	guint i;

	for (i = 0; st == DC_OK && i < rows->len; i++)
		st = resolve_legacy(s, db, rows->pdata[i], record, actor, now,
				    err);
	if (rows)
		g_ptr_array_unref(rows);
	return st;
}

/* ---- the cache ---------------------------------------------------------- */

/* Message-ID -> cached thread ("" for none), one entry per message. */
static GHashTable *
cached_threads(GPtrArray *mail)
{
	GHashTable *h = g_hash_table_new(g_str_hash, g_str_equal);
	guint i;

	for (i = 0; i < mail->len; i++) {
		dc_store_mail_t *m = mail->pdata[i];

		g_hash_table_insert(h, m->message_id,
				    m->thread_id ? m->thread_id : "");
	}
	return h;
}

static dc_status_t
update(dc_store_t *s, GHashTable *cache, const char *id, const char *now_in,
       dc_error_t *err)
{
	const char *was = g_hash_table_lookup(cache, id);

	if (!was || !strcmp(was, now_in ? now_in : ""))
		return DC_OK;
	return dc_store_mail_set_thread(s, id, now_in, err);
}

/* Every message again: another database, or an older state of it. */
static dc_status_t
sync_all(dc_store_t *s, void *db, GHashTable *cache, dc_error_t *err)
{
	GHashTableIter it;
	gpointer k;
	dc_status_t st = DC_OK;

	g_hash_table_iter_init(&it, cache);
	while (st == DC_OK && g_hash_table_iter_next(&it, &k, NULL)) {
		char *t = NULL;

		/* A message that cannot be read now is not "gone". */
		st = dc_anchor_find(db, k, &t, err);
		if (st == DC_OK)
			st = update(s, cache, k, t, err);
		g_free(t);
	}
	return st;
}

/* Only what notmuch changed after revision since: new mail, and messages
 * that moved to another thread (a merge, a reindex).  Another process's
 * commits (notmuch new, notmuch tag) can overtake the handle: it is
 * reopened and the search made again, a few times. */
static dc_status_t
sync_changed(dc_store_t *s, void *db, GHashTable *cache, int64_t since,
	     dc_error_t *err)
{
	notmuch_messages_t *msgs = NULL;
	notmuch_query_t *q = NULL;
	char *qs = g_strdup_printf("lastmod:%" G_GINT64_FORMAT "..",
				   (gint64)since + 1);
	dc_status_t st;

	st = dc_notmuch_messages(db, qs, NOTMUCH_SORT_UNSORTED, &q, &msgs,
				 "reading what notmuch changed", err);
	g_free(qs);
	if (st != DC_OK)
		return st;
	for (; st == DC_OK && notmuch_messages_valid(msgs);
	     notmuch_messages_move_to_next(msgs)) {
		notmuch_message_t *m = notmuch_messages_get(msgs);

		st = update(s, cache, notmuch_message_get_message_id(m),
			    notmuch_message_get_thread_id(m), err);
		notmuch_message_destroy(m);
	}
	notmuch_query_destroy(q);
	return st;
}

/*
 * The messages the cache has no thread for: gone from the index, or never
 * looked up, as the mail of a case that decorum sync brought from another
 * member, which this member's index may hold all along (no revision of
 * notmuch tells of it).  They are few, and asked by Message-ID.
 */
static dc_status_t
sync_unthreaded(dc_store_t *s, void *db, dc_error_t *err)
{
	GPtrArray *ids = NULL;
	dc_status_t st = dc_store_mail_unthreaded(s, &ids, err);
	guint i;

	for (i = 0; st == DC_OK && i < ids->len; i++) {
		char *t = NULL;

		st = dc_anchor_find(db, ids->pdata[i], &t, err);
		if (st == DC_OK && t)
			st = dc_store_mail_set_thread(s, ids->pdata[i], t,
						      err);
		g_free(t);
	}
	if (ids)
		g_ptr_array_unref(ids);
	return st;
}

static dc_status_t
sync_cache(dc_store_t *s, void *db, dc_error_t *err)
{
	const char *uuid = NULL;
	int64_t rev = notmuch_database_get_revision(db, &uuid), had = 0;
	GPtrArray *mail = NULL;
	GHashTable *cache;
	char *was = NULL;
	dc_status_t st;

	st = dc_store_mail_sync_get(s, &was, &had, err);
	if (st == DC_OK && was && uuid && !strcmp(was, uuid) && had == rev) {
		g_free(was);
		return sync_unthreaded(s, db, err);
	}
	if (st == DC_OK)
		st = dc_store_mail_all(s, &mail, err);
	if (st != DC_OK) {
		g_free(was);
		return st;
	}
	cache = cached_threads(mail);
	if (!was || !uuid || strcmp(was, uuid) || rev < had)
		st = sync_all(s, db, cache, err);
	else
		st = sync_changed(s, db, cache, had, err);
	if (st == DC_OK)
		st = sync_unthreaded(s, db, err);
	if (st == DC_OK)
		st = dc_store_mail_sync_set(s, uuid ? uuid : "", rev, err);
	g_hash_table_destroy(cache);
	g_ptr_array_unref(mail);
	g_free(was);
	return st;
}

dc_status_t
dc_anchor_sync(dc_store_t *s, void *db, int writable, const char *actor,
	       int64_t now, dc_error_t *err)
{
	dc_status_t st;

	if (!s || !db)
		return DC_OK;
	if (writable) {
		st = dc_store_begin(s, err);
		if (st == DC_E_LOCKED) {
			/* Someone else writes now: answer right, from a
			 * private copy, and leave the store to them. */
			dc_error_clear(err);
			writable = 0;
		} else if (st != DC_OK) {
			return st;
		}
	}
	if (!writable && (st = dc_store_mail_shadow(s, err)) != DC_OK)
		return st;
	st = sync_legacy(s, db, writable, actor ? actor : "decorum", now,
			 err);
	if (st == DC_OK)
		st = sync_cache(s, db, err);
	if (writable) {
		if (st == DC_OK)
			st = dc_store_commit(s, err);
		if (st != DC_OK)
			dc_store_rollback(s);
	}
	return st;
}

/* ---- asking notmuch ------------------------------------------------------ */

void
dc_anchor_state_free(dc_anchor_state_t *a)
{
	if (!a)
		return;
	g_ptr_array_unref(a->threads);
	g_ptr_array_unref(a->singles);
	g_ptr_array_unref(a->missing);
	g_free(a);
}

dc_status_t
dc_anchor_resolve(void *db, const dc_case_t *c, dc_anchor_state_t **out,
		  dc_error_t *err)
{
	dc_anchor_state_t *a = g_new0(dc_anchor_state_t, 1);
	guint i;

	a->threads = g_ptr_array_new_with_free_func(g_free);
	a->singles = g_ptr_array_new_with_free_func(g_free);
	a->missing = g_ptr_array_new_with_free_func(g_free);
	for (i = 0; c->mail && i < c->mail->len; i++) {
		const dc_store_mail_t *m = c->mail->pdata[i];
		char *t = NULL;

		dc_status_t st = dc_anchor_find(db, m->message_id, &t, err);

		if (st != DC_OK) {
			dc_anchor_state_free(a);
			*out = NULL;
			return st;
		}
		if (!t)
			g_ptr_array_add(a->missing, g_strdup(m->message_id));
		else if (g_strcmp0(m->scope, "message")) {
			if (!dc_str_array_has(a->threads, t))
				g_ptr_array_add(a->threads, g_strdup(t));
		} else
			g_ptr_array_add(a->singles, g_strdup(m->message_id));
		g_free(t);
	}
	*out = a;
	return DC_OK;
}

void
dc_anchor_refresh_case(void *db, dc_case_t *c)
{
	guint i;

	if (!db || !c->mail)
		return;
	g_ptr_array_set_size(c->threads, 0);
	for (i = 0; i < c->mail->len; i++) {
		dc_store_mail_t *m = c->mail->pdata[i];

		g_free(m->thread_id);
		m->thread_id = dc_anchor_thread_of(db, m->message_id);
		if (m->thread_id && g_strcmp0(m->scope, "message") &&
		    !dc_str_array_has(c->threads, m->thread_id))
			g_ptr_array_add(c->threads, g_strdup(m->thread_id));
	}
}

/* ---- late replies --------------------------------------------------------- */

static dc_status_t
late_in_thread(void *db, const char *thread_id, GHashTable *known,
	       GPtrArray *out, dc_error_t *err)
{
	notmuch_messages_t *msgs = NULL;
	notmuch_query_t *q = NULL;
	dc_status_t st = thread_messages(db, thread_id, &q, &msgs, err);

	if (st != DC_OK || !q)
		return st;
	for (; notmuch_messages_valid(msgs);
	     notmuch_messages_move_to_next(msgs)) {
		notmuch_message_t *m = notmuch_messages_get(msgs);
		const char *id = notmuch_message_get_message_id(m);

		if (!g_hash_table_contains(known, id))
			g_ptr_array_add(out, g_strdup(id));
		notmuch_message_destroy(m);
	}
	notmuch_query_destroy(q);
	return DC_OK;
}

dc_status_t
dc_case_late_replies(dc_store_t *s, const dc_mail_opts_t *opts,
		     int64_t case_id, GPtrArray **out, dc_error_t *err)
{
	dc_anchor_state_t *a = NULL;
	GHashTable *known = NULL;
	dc_case_t *c = NULL;
	void *db = NULL;
	dc_status_t st;
	guint i;

	*out = NULL;
	st = dc_case_get(s, case_id, &c, err); /* access rules */
	if (st == DC_OK)
		st = dc_notmuch_open(opts, 0, &db, err);
	if (st == DC_OK)
		st = dc_anchor_resolve(db, c, &a, err);
	if (st == DC_OK) {
		known = g_hash_table_new(g_str_hash, g_str_equal);
		for (i = 0; i < c->mail->len; i++)
			g_hash_table_add(known, ((dc_store_mail_t *)
						 c->mail->pdata[i])->message_id);
		*out = g_ptr_array_new_with_free_func(g_free);
	}
	for (i = 0; st == DC_OK && i < a->threads->len; i++)
		st = late_in_thread(db, a->threads->pdata[i], known, *out, err);
	dc_notmuch_close(db);
	if (known)
		g_hash_table_destroy(known);
	dc_anchor_state_free(a);
	dc_case_free(c);
	if (st != DC_OK && *out) {
		g_ptr_array_unref(*out);
		*out = NULL;
	}
	return st;
}
