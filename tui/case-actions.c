// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * What the keys do to the case of the current thread from any view: a, e
 * and t tag the thread (opening a case, or adding to its open one; for a
 * thread whose case is closed, asking whether to reopen it or open a new
 * one), A attaches it to another open case and X detaches it, u undoes
 * the last change.  Each is one call into core/case/action.h or
 * core/case/case.h; this file asks for what is missing and says what
 * happened.
 */
#include <stdlib.h>
#include <string.h>

#include "core/case/action.h"
#include "core/case/case.h"
#include "tui/tui.h"

dc_case_t *
dc_case_current(dc_tui_t *t, const char *no_thread)
{
	dc_error_t err = { 0 };
	dc_thread_ref_t ref;
	dc_case_t *c = NULL;

	if (!dc_tui_current(t, &ref))
		dc_tui_error(t, "%s", no_thread);
	else if (t->store &&
		 dc_case_for_thread(t->store, ref.thread_id, &c, &err) != DC_OK)
		dc_tui_error(t, "%s", err.msg);
	else if (!c)
		dc_tui_error(t, "No case for this thread: a, e or t opens one");
	return c;
}

static dc_status_t
ensure_store(dc_tui_t *t, dc_error_t *err)
{
	if (t->store)
		return DC_OK;
	return dc_cli_store(t->cli, DC_OPEN_WRITE | DC_OPEN_INTERACTIVE,
			    &t->store, err);
}

/* The thread's case is closed: reopen it, or open a new one?  0 when
 * cancelled. */
static int
closed_choice(dc_tui_t *t, const char *thread_id, dc_closed_t *closed)
{
	dc_case_t *c = NULL;
	char *q;
	int k;

	*closed = DC_CLOSED_ASK;
	if (!t->store ||
	    dc_case_closed_for_thread(t->store, thread_id, &c, NULL) !=
		    DC_OK ||
	    !c)
		return 1;
	q = g_strdup_printf("Case #%" G_GINT64_FORMAT " of this thread is "
			    "closed: reopen case #%" G_GINT64_FORMAT " or "
			    "open a new one? (r/n/c) ",
			    (gint64)c->id, (gint64)c->id);
	k = dc_ask_key(t, q, "rnc", 0);
	g_free(q);
	dc_case_free(c);
	if (k == 'r')
		*closed = DC_CLOSED_REOPEN;
	else if (k == 'n')
		*closed = DC_CLOSED_NEW;
	else
		return 0;
	return 1;
}

static const char *
kind_words(dc_kind_t k)
{
	return k == DC_KIND_TAB ? "TAB consultation" : dc_kind_name(k);
}

/* Tagging a thread changes the kind of its open case: asked first, as a
 * kind key is one letter away from another.  0 if not to be changed. */
static int
confirm_kind_change(dc_tui_t *t, const char *thread_id, dc_kind_t kind)
{
	dc_case_t *c = NULL;
	char *q;
	int ok = 1;

	if (!t->store ||
	    dc_case_for_thread(t->store, thread_id, &c, NULL) != DC_OK || !c)
		return 1;
	if (c->kind != kind) {
		q = g_strdup_printf("Change case #%" G_GINT64_FORMAT " from %s "
				    "to %s? (y/n) ",
				    (gint64)c->id, kind_words(c->kind),
				    kind_words(kind));
		ok = dc_confirm(t, q);
		g_free(q);
		if (!ok)
			dc_tui_message(t, "Nothing was changed: case #%"
					  G_GINT64_FORMAT " stays %s %s",
				       (gint64)c->id,
				       c->kind == DC_KIND_TAB ? "a" : "an",
				       kind_words(c->kind));
	}
	dc_case_free(c);
	return ok;
}

void
dc_case_tag_thread(dc_tui_t *t, dc_kind_t kind, const char *arg)
{
	dc_closed_t closed = DC_CLOSED_ASK;
	dc_tag_result_t res = { 0 };
	dc_error_t err = { 0 };
	dc_thread_ref_t ref;
	char *note = NULL, *label;

	if (!dc_tui_current(t, &ref)) {
		dc_tui_error(t, "No thread here to tag");
		return;
	}
	if (!closed_choice(t, ref.thread_id, &closed)) {
		dc_tui_message(t, "Cancelled: nothing was changed");
		return;
	}
	if (closed != DC_CLOSED_NEW &&
	    !confirm_kind_change(t, ref.thread_id, kind))
		return;
	if (arg) {
		note = g_strdup(arg);
	} else {
		label = g_strdup_printf("%s, note (Enter: none, C-X: editor, "
					"Esc: cancel): ",
					dc_kind_label(kind));
		if (!dc_prompt(t, label, "", 1, &note)) {
			g_free(label);
			dc_tui_message(t, "Cancelled: nothing was changed");
			return;
		}
		g_free(label);
	}
	if (ensure_store(t, &err) != DC_OK ||
	    dc_action_tag_closed(t->store, t->mail, ref.thread_id, kind, note,
				 closed, t->actor, dc_tui_now(t), &res,
				 &err) != DC_OK) {
		dc_tui_error(t, "Not tagged: %s", err.msg);
		g_free(note);
		return;
	}
	g_array_append_val(t->undo, res.case_id);
	t->generation++;
	dc_tui_message(t, "Case #%" G_GINT64_FORMAT ": %s %s%s",
		       (gint64)res.case_id,
		       res.created ? "opened as" :
		       res.reopened ? "reopened and tagged" : "tagged",
		       dc_kind_label(kind),
		       note && *note ? ", with a note" : "");
	dc_tag_result_clear(&res);
	g_free(note);
	dc_tui_mirror_later(t);
}

void
dc_tui_case_changed(dc_tui_t *t, int64_t case_id)
{
	g_array_append_val(t->undo, case_id);
	t->generation++;
	dc_tui_mirror_later(t);
}

void
dc_case_undo_last(dc_tui_t *t)
{
	dc_error_t err = { 0 };
	dc_thread_ref_t ref;
	dc_case_t *c = NULL;
	int64_t id = 0;
	char *q;
	int ok;

	if (t->undo->len) {
		id = g_array_index(t->undo, int64_t, t->undo->len - 1);
	} else if (t->store && dc_tui_current(t, &ref) &&
		   dc_case_for_thread(t->store, ref.thread_id, &c, NULL) ==
			   DC_OK &&
		   c) {
		id = c->id;
		dc_case_free(c);
	}
	if (!id) {
		dc_tui_message(t, "Nothing to undo");
		return;
	}
	q = g_strdup_printf("Undo your last change to case #%" G_GINT64_FORMAT
			    "? (y/n) ",
			    (gint64)id);
	ok = dc_confirm(t, q);
	g_free(q);
	if (!ok) {
		dc_tui_message(t, "Nothing was undone");
		return;
	}
	if (dc_case_undo(t->store, id, t->actor, dc_tui_now(t), &err) !=
	    DC_OK) {
		if (err.status == DC_E_INVALID && t->undo->len)
			g_array_set_size(t->undo, t->undo->len - 1);
		dc_tui_error(t, "Not undone: %s", err.msg);
		return;
	}
	if (t->undo->len)
		g_array_set_size(t->undo, t->undo->len - 1);
	t->generation++;
	dc_tui_message(t, "Undone: your last change to case #%" G_GINT64_FORMAT
			  " (the history keeps both)",
		       (gint64)id);
	dc_tui_mirror_later(t);
}

/* ---- several threads per case ------------------------------------------ */

static int
covers(const dc_case_t *c, const char *thread_id)
{
	guint i;

	for (i = 0; i < c->threads->len; i++)
		if (!strcmp(c->threads->pdata[i], thread_id))
			return 1;
	return 0;
}

/* The open cases the thread could join, newest first. */
static GPtrArray *
attachable(dc_tui_t *t, const char *thread_id, dc_error_t *err)
{
	GPtrArray *all = NULL, *r;
	guint i;

	if (dc_case_list(t->store, &all, err) != DC_OK)
		return NULL;
	r = g_ptr_array_new_with_free_func((GDestroyNotify)dc_case_free);
	for (i = all->len; i-- > 0;) {
		dc_case_t *c = all->pdata[i];

		if (!strcmp(c->state, "closed") || c->withdrawn ||
		    covers(c, thread_id))
			continue;
		g_ptr_array_add(r, g_ptr_array_steal_index(all, i));
	}
	g_ptr_array_unref(all);
	return r;
}

/* "1 #3 Escalation, new: Report…; 2 ..." for the prompt. */
static char *
case_menu(GPtrArray *cases)
{
	GString *s = g_string_new("Attach to which case? ");
	guint i;

	for (i = 0; i < cases->len; i++) {
		const dc_case_t *c = cases->pdata[i];
		const char *subj = c->subject ? c->subject : "";
		glong n = g_utf8_strlen(subj, -1);
		/* g_utf8_substring reads past a string shorter than end. */
		char *cut = g_utf8_substring(subj, 0, MIN(n, 24));

		g_string_append_printf(s, "%u #%" G_GINT64_FORMAT " %s, %s: "
					  "%s%s; ",
				       i + 1, (gint64)c->id,
				       dc_kind_label(c->kind), c->state, cut,
				       n > 24 ? "…" : "");
		g_free(cut);
	}
	g_string_append(s, "(number, Esc: cancel): ");
	return g_string_free(s, FALSE);
}

/* The case chosen: a number of the menu, or "#N" / N from the command
 * line naming the case itself; 0 when none. */
static int64_t
chosen(GPtrArray *cases, const char *answer, int by_id)
{
	const char *p = answer;
	char *end;
	long n;
	guint i;

	if (*p == '#') {
		p++;
		by_id = 1;
	}
	n = strtol(p, &end, 10);
	if (!*p || *end || n <= 0)
		return 0;
	for (i = 0; by_id && i < cases->len; i++)
		if (((dc_case_t *)cases->pdata[i])->id == n)
			return n;
	if (by_id || (guint)n > cases->len)
		return 0;
	return ((dc_case_t *)cases->pdata[n - 1])->id;
}

/*
 * What of the thread is attached to case id: the thread (its replies
 * follow), the one message under the cursor (the thread's first in the
 * list), or the thread as one more report of the case's incident.
 * Sets *target (g_free) and *flags for dc_action_attach; returns what
 * the message calls it, or NULL when cancelled.
 */
static const char *
attach_how(dc_tui_t *t, const dc_thread_ref_t *ref, int64_t id,
	   char **target, unsigned *flags)
{
	char *q = g_strdup_printf("Attach to case #%" G_GINT64_FORMAT
				  ": t the thread, m %s, r the thread as "
				  "another report? [T/m/r] ",
				  (gint64)id,
				  ref->message_id ? "this message"
						  : "its first message");
	int k = dc_ask_key(t, q, "tmr", 't');

	g_free(q);
	*flags = 0;
	*target = g_strdup(ref->thread_id);
	switch (k) {
	case 't':
		return "this thread is attached";
	case 'm':
		*flags = DC_ATTACH_MESSAGE;
		if (ref->message_id) {
			g_free(*target);
			*target = g_strconcat("id:", ref->message_id, NULL);
		}
		return "this message is attached";
	case 'r':
		*flags = DC_ATTACH_REPORT;
		return "this thread is attached as another report";
	default:
		g_free(*target);
		*target = NULL;
		return NULL;
	}
}

void
dc_case_attach_thread(dc_tui_t *t, const char *arg)
{
	dc_error_t err = { 0 };
	dc_thread_ref_t ref;
	GPtrArray *cases;
	char *answer = NULL, *menu, *anchor = NULL, *target = NULL;
	const char *how = NULL;
	unsigned flags = 0;
	int64_t id;

	if (!dc_tui_current(t, &ref)) {
		dc_tui_error(t, "No thread here to attach");
		return;
	}
	if (!t->store || !(cases = attachable(t, ref.thread_id, &err))) {
		dc_tui_error(t, "No open case to attach this thread to%s%s",
			     err.msg[0] ? ": " : "", err.msg);
		return;
	}
	if (!cases->len) {
		dc_tui_error(t, "No open case to attach this thread to");
		g_ptr_array_unref(cases);
		return;
	}
	menu = case_menu(cases);
	if (arg)
		answer = g_strdup(arg);
	else if (!dc_prompt(t, menu, "", 0, &answer))
		answer = NULL;
	g_free(menu);
	if (!answer) {
		dc_tui_message(t, "Cancelled: nothing was changed");
		g_ptr_array_unref(cases);
		return;
	}
	g_strstrip(answer);
	id = chosen(cases, answer, arg != NULL);
	g_ptr_array_unref(cases);
	if (!id) {
		dc_tui_error(t, "Not attached: '%s' is none of the open cases "
				"offered",
			     answer);
	} else if (!(how = attach_how(t, &ref, id, &target, &flags))) {
		dc_tui_message(t, "Cancelled: nothing was changed");
	} else if (dc_action_attach(t->store, t->mail, id, target, flags,
				    t->actor, dc_tui_now(t), &anchor,
				    &err) != DC_OK) {
		dc_tui_error(t, "Not attached: %s", err.msg);
	} else {
		dc_tui_case_changed(t, id);
		dc_tui_message(t, "Case #%" G_GINT64_FORMAT ": %s (<%s>)",
			       (gint64)id, how, anchor);
	}
	g_free(target);
	g_free(anchor);
	g_free(answer);
}

void
dc_case_detach_thread(dc_tui_t *t)
{
	dc_error_t err = { 0 };
	dc_thread_ref_t ref;
	dc_case_t *c;
	char *q, *anchor = NULL;
	int64_t id;

	if (!(c = dc_case_current(t, "No thread here to detach")))
		return;
	dc_tui_current(t, &ref);
	id = c->id;
	dc_case_free(c);
	q = g_strdup_printf("Detach this thread from case #%" G_GINT64_FORMAT
			    "? (y/n) ",
			    (gint64)id);
	if (!dc_confirm(t, q)) {
		dc_tui_message(t, "Nothing was detached");
	} else if (dc_action_detach(t->store, t->mail, id, ref.thread_id,
				    t->actor, dc_tui_now(t), &anchor,
				    &err) != DC_OK) {
		dc_tui_error(t, "Not detached: %s", err.msg);
	} else {
		dc_tui_case_changed(t, id);
		dc_tui_message(t, "Case #%" G_GINT64_FORMAT ": this thread is "
				  "detached (u undoes it)",
			       (gint64)id);
	}
	g_free(anchor);
	g_free(q);
}
