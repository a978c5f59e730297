// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * What the keys do to the case of the current thread from any view: a, e
 * and t tag the thread (opening a case, or adding to its open one), u
 * undoes the last change.  Each is one call into core/case/action.h or
 * core/case/case.h; this file asks for what is missing and says what
 * happened.
 */
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

void
dc_case_tag_thread(dc_tui_t *t, dc_kind_t kind, const char *arg)
{
	dc_tag_result_t res = { 0 };
	dc_error_t err = { 0 };
	dc_thread_ref_t ref;
	char *note = NULL, *label;

	if (!dc_tui_current(t, &ref)) {
		dc_tui_error(t, "No thread here to tag");
		return;
	}
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
	    dc_action_tag(t->store, t->mail, ref.thread_id, kind, note,
			  t->actor, dc_tui_now(t), &res, &err) != DC_OK) {
		dc_tui_error(t, "Not tagged: %s", err.msg);
		g_free(note);
		return;
	}
	g_array_append_val(t->undo, res.case_id);
	t->generation++;
	dc_tui_message(t, "Case #%" G_GINT64_FORMAT ": %s %s%s",
		       (gint64)res.case_id,
		       res.created ? "opened as" : "tagged", dc_kind_label(kind),
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
