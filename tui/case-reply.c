// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * r: reply to a message.  In the thread view the message under the
 * cursor; in the list the thread's first message (the report a reply
 * acknowledges).  The draft comes from core (notmuch reply, a template
 * of [templates] chosen by name), is edited in $VISUAL or $EDITOR, and
 * goes out through dc_action_reply(), which records it on the thread's
 * case.  A thread without a case still gets its reply: nothing is
 * recorded, and the message says so.
 */
#include <string.h>

#include "core/base/sanitize.h"
#include "core/case/action.h"
#include "core/case/case.h"
#include "core/mail/reply.h"
#include "tui/tui.h"

/* The Message-ID to answer (g_free), or NULL with an error shown. */
static char *
reply_target(dc_tui_t *t, const dc_thread_ref_t *ref)
{
	dc_error_t err = { 0 };
	dc_thread_t *th = NULL;
	char *id = NULL;

	if (ref->message_id)
		return g_strdup(ref->message_id);
	if (dc_mail_thread(t->mail, ref->thread_id, 0, &th, &err) != DC_OK) {
		dc_tui_error(t, "Not replied: %s", err.msg);
		return NULL;
	}
	if (th->messages->len) {
		dc_message_t *m = th->messages->pdata[0];

		id = g_strdup(m->message_id);
	}
	dc_thread_free(th);
	if (!id)
		dc_tui_error(t, "Not replied: the thread has no message");
	return id;
}

/* The acknowledgement of the template the user picks (may be none):
 * 1 with *ack (NULL for none), 0 when cancelled or refused. */
static int
pick_template(dc_tui_t *t, const char *arg, int64_t case_id,
	      const char *subject, char **ack)
{
	const char *const *names = dc_config_keys(t->cfg, "templates");
	dc_prompt_opts_t o = { .choices = names };
	dc_error_t err = { 0 };
	char *name = NULL;

	*ack = NULL;
	if (!names[0] && !arg)
		return 1;
	if (!names[0]) {
		dc_tui_error(t, "No [templates] in %s: no template '%s'",
			     dc_config_path(t->cfg), arg);
		return 0;
	}
	if (!dc_ask(t, arg, "Template (Tab completes; Enter: none): ", &o,
		    &name))
		return 0;
	g_strstrip(name);
	if (*name && dc_reply_fill(dc_config_get(t->cfg, "templates", name),
				   case_id, subject, ack,
				   &err) != DC_OK) {
		dc_tui_error(t, "Template %s: %s", name, err.msg);
		g_free(name);
		return 0;
	}
	g_free(name);
	return 1;
}

static void
say_sent(dc_tui_t *t, int64_t case_id, const dc_reply_sent_t *r)
{
	char *to = dc_sanitize_line(r->in_reply_to ? r->in_reply_to : "?");
	char *id = dc_sanitize_line(r->message_id);

	if (r->not_recorded)
		dc_tui_error(t, "Sent <%s>, but not recorded on case #%"
				G_GINT64_FORMAT ": %s",
			     id, (gint64)case_id, r->not_recorded);
	else if (r->not_stored)
		dc_tui_error(t, "Sent <%s>, but no copy was stored: %s", id,
			     r->not_stored);
	else if (case_id > 0)
		dc_tui_message(t, "Replied to <%s>; recorded on case #%"
				  G_GINT64_FORMAT,
			       to, (gint64)case_id);
	else
		dc_tui_message(t, "Replied to <%s>; the thread has no case, so "
				  "nothing was recorded",
			       to);
	g_free(to);
	g_free(id);
}

/* Edit the draft at path until Send? is answered: 'y' with *draft (the
 * text to send), another key for no, -1 when the editor failed. */
static int
edit_and_ask(dc_tui_t *t, const char *path, char **draft)
{
	int k;

	for (;;) {
		g_clear_pointer(draft, g_free);
		if (!dc_tui_edit_file(t, path)) {
			dc_tui_error(t, "The editor failed: nothing was sent");
			return -1;
		}
		if (!g_file_get_contents(path, draft, NULL, NULL)) {
			dc_tui_error(t, "The draft cannot be read back: "
					"nothing was sent");
			return -1;
		}
		k = dc_ask_key(t, "Send? [y/N/e(dit again)] ", NULL, 'n');
		if (k != 'e')
			return k;
	}
}

void
dc_case_reply(dc_tui_t *t, const char *arg)
{
	dc_error_t err = { 0 };
	dc_reply_sent_t sent = { 0 };
	dc_thread_ref_t ref;
	dc_case_t *c = NULL;
	int64_t case_id = 0;
	char *msgid = NULL, *ack = NULL, *draft = NULL, *path = NULL;
	int k;

	if (!dc_tui_current(t, &ref)) {
		dc_tui_error(t, "No message here to reply to");
		return;
	}
	if (dc_reply_can_send(t->cfg, &err) != DC_OK) {
		dc_tui_error(t, "Not replied: %s", err.msg);
		return;
	}
	if (t->store &&
	    dc_case_for_thread(t->store, ref.thread_id, &c, &err) != DC_OK) {
		dc_tui_error(t, "Not replied: %s", err.msg);
		return;
	}
	if (c)
		case_id = c->id;
	dc_case_free(c);
	if (!(msgid = reply_target(t, &ref)))
		return;
	if (!pick_template(t, arg, case_id, ref.subject, &ack))
		goto out;
	/* From the acting identity, as case reply writes it. */
	if (dc_reply_draft(&t->mail_opts, msgid, ack, t->actor, &draft,
			   &err) != DC_OK ||
	    dc_reply_draft_write(draft, &path, &err) != DC_OK) {
		dc_tui_error(t, "Not replied: %s", err.msg);
		goto out;
	}
	k = edit_and_ask(t, path, &draft);
	if (k < 0)
		goto out;
	if (k != 'y') {
		dc_tui_message(t, "Not sent; the draft is discarded");
		goto out;
	}
	if (dc_action_reply(t->store, t->cfg, &t->mail_opts, case_id, draft,
			    t->actor, dc_tui_now(t), &sent, &err) != DC_OK) {
		dc_tui_error(t, "Not sent: %s", err.msg);
		goto out;
	}
	say_sent(t, case_id, &sent);
	if (case_id > 0) {
		t->generation++;
		dc_tui_mirror_later(t);
	}
out:
	dc_reply_sent_clear(&sent);
	dc_reply_draft_remove(path);
	g_free(path);
	g_free(draft);
	g_free(ack);
	g_free(msgid);
}
