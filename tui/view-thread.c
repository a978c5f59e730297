// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The thread view: every message of a thread in thread order, indented by
 * depth, with decoded headers, the body wrapped at the display width,
 * quoted text folded, attachments listed and the lore link of the current
 * message in the title.
 */
#include <string.h>

#include "core/mail/anchor.h"
#include "core/mail/link.h"
#include "core/privacy/privacy.h"
#include "core/base/sanitize.h"
#include "core/base/wrap.h"
#include "tui/draw.h"
#include "tui/tui.h"

#define FOLD_MIN 4 /* quoted blocks at least this long are folded */

struct line {
	int msg;     /* index of the message */
	int indent;  /* columns */
	dc_role_t role;
	char *label; /* "From: " for headers, or NULL */
	char *text;  /* sanitized */
	int block;   /* quoted block number + 1, or 0 */
};

struct thread {
	char *thread_id;
	char *query;   /* what it was opened from: the cursor starts at the
			* first message matching it */
	int start_msg; /* that message, until the first draw */
	dc_thread_t *thread;
	char *error;
	GArray *lines; /* struct line */
	int built_width;
	int cursor, top;
	int unfold_all;
	GHashTable *unfolded; /* quoted blocks opened one by one */
	int nblocks;
};

static void
line_clear(gpointer p)
{
	struct line *l = p;

	g_free(l->label);
	g_free(l->text);
}

static void
add_line(struct thread *th, int msg, int indent, dc_role_t role,
	 const char *label, const char *text, int block)
{
	struct line l = { msg, indent, role, g_strdup(label),
			  g_strdup(text), block };

	g_array_append_val(th->lines, l);
}

static void
add_header(struct thread *th, int msg, int indent, const char *label,
	   const char *value)
{
	char *v;

	if (!value || !*value)
		return;
	v = dc_sanitize_line(value);
	add_line(th, msg, indent, DC_ROLE_HEADER, label, v, 0);
	g_free(v);
}

/* Expand tabs to 8-column stops (body text is sanitized already). */
static char *
expand_tabs(const char *s)
{
	GString *out = g_string_new(NULL);
	int col = 0;

	for (; *s; s = g_utf8_next_char(s)) {
		if (*s == '\t') {
			do
				g_string_append_c(out, ' ');
			while (++col % 8);
			continue;
		}
		g_string_append_len(out, s, g_utf8_next_char(s) - s);
		col++;
	}
	return g_string_free(out, FALSE);
}

/* Wrap one body line at width columns (core/base/wrap.h): between
 * words, the quote prefix repeated, URLs and Message-IDs whole. */
static void
add_wrapped(struct thread *th, int msg, int indent, int width,
	    dc_role_t role, const char *text, int block)
{
	GPtrArray *pieces = dc_wrap_line(text, width);
	guint i;

	for (i = 0; i < pieces->len; i++)
		add_line(th, msg, indent, role, NULL, pieces->pdata[i], block);
	g_ptr_array_unref(pieces);
}

static int
is_quote(const char *l)
{
	while (*l == ' ')
		l++;
	return *l == '>';
}

static void
add_body(struct thread *th, int msg, int indent, int width, const char *body)
{
	char *san = dc_sanitize(body, -1, DC_SAN_TEXT, NULL);
	char **lines = g_strsplit(san, "\n", -1);
	int n = g_strv_length(lines), i = 0;

	while (n && !*lines[n - 1])
		n--;
	while (i < n) {
		int j = i, block, folded;

		if (!is_quote(lines[i])) {
			char *e = expand_tabs(lines[i]);

			add_wrapped(th, msg, indent, width, DC_ROLE_NORMAL, e,
				    0);
			g_free(e);
			i++;
			continue;
		}
		while (j < n && is_quote(lines[j]))
			j++;
		block = ++th->nblocks;
		folded = j - i >= FOLD_MIN && !th->unfold_all &&
			 !g_hash_table_contains(th->unfolded,
						GINT_TO_POINTER(block));
		if (folded) {
			char *text = g_strdup_printf(
				"> [%d quoted lines folded]", j - i);

			add_line(th, msg, indent, DC_ROLE_QUOTE, NULL, text,
				 block);
			g_free(text);
			i = j;
			continue;
		}
		if (j - i < FOLD_MIN)
			block = 0;
		for (; i < j; i++) {
			char *e = expand_tabs(lines[i]);

			add_wrapped(th, msg, indent, width, DC_ROLE_QUOTE, e,
				    block);
			g_free(e);
		}
	}
	g_strfreev(lines);
	g_free(san);
}

static char *
human_size(size_t n)
{
	return n < 1024 ? g_strdup_printf("%zu bytes", n) : g_format_size(n);
}

static void
build_lines(struct thread *th, int width)
{
	guint i, j;

	g_array_set_size(th->lines, 0);
	th->built_width = width;
	th->nblocks = 0;
	if (!th->thread)
		return;
	for (i = 0; i < th->thread->messages->len; i++) {
		const dc_message_t *m = th->thread->messages->pdata[i];
		int indent = (m->depth > 8 ? 8 : m->depth) * 2;
		char date[64];
		struct tm tm;

		if (width - indent < 30)
			indent = width > 30 ? (width - 30) / 2 : 0;
		if (i)
			add_line(th, i, 0, DC_ROLE_NORMAL, NULL, "", 0);
		add_header(th, i, indent, "From: ", m->from);
		if (localtime_r(&m->date, &tm) &&
		    strftime(date, sizeof(date), "%a, %d %b %Y %H:%M %z", &tm))
			add_header(th, i, indent, "Date: ", date);
		add_header(th, i, indent, "Subject: ", m->subject);
		add_header(th, i, indent, "To: ", m->to);
		add_header(th, i, indent, "Cc: ", m->cc);
		/* Only list mail is on lore: a private report's link
		 * would only spell out its Message-ID. */
		if (m->message_id) {
			char *url = dc_message_lore_url(m);

			if (url)
				add_header(th, i, indent, "Lore: ", url);
			g_free(url);
		}
		for (j = 0; m->attachments && j < m->attachments->len; j++) {
			const dc_attachment_t *a = m->attachments->pdata[j];
			char *size = human_size(a->size);
			char *text = g_strdup_printf(
				"%s (%s, %s)",
				a->filename ? a->filename : "(no name)",
				a->content_type ? a->content_type : "?", size);

			add_header(th, i, indent, "Attachment: ", text);
			g_free(text);
			g_free(size);
		}
		if (m->flags & DC_MSG_HTML)
			add_header(th, i, indent, "Body: ",
				   "text/html, shown as text");
		if (m->flags & DC_MSG_UNREADABLE)
			add_line(th, i, indent, DC_ROLE_ERROR, NULL,
				 "[the message file cannot be read]", 0);
		if (m->flags & DC_MSG_MALFORMED)
			add_line(th, i, indent, DC_ROLE_ERROR, NULL,
				 "[the message cannot be parsed]", 0);
		add_line(th, i, indent, DC_ROLE_NORMAL, NULL, "", 0);
		if (m->body)
			add_body(th, i, indent, width - indent, m->body);
	}
}

static void
thread_load(struct thread *th, dc_tui_t *t)
{
	dc_error_t err = { 0 };

	dc_thread_free(th->thread);
	th->thread = NULL;
	g_clear_pointer(&th->error, g_free);
	if (dc_mail_thread_matching(t->mail, th->thread_id, th->query, 1,
				    &th->thread, &err) != DC_OK)
		th->error = g_strdup(err.msg);
	else if (th->query)
		th->start_msg = dc_thread_first_match(th->thread);
	th->built_width = 0;
}

static void
thread_draw(dc_view_t *v, dc_tui_t *t, dc_rect_t a)
{
	struct thread *th = v->priv;
	int i;

	if (!th->thread && !th->error)
		thread_load(th, t);
	if (th->error) {
		dc_draw_text(t->scr, a.y, a.x, a.w, th->error, DC_ROLE_ERROR);
		return;
	}
	if (th->built_width != a.w) {
		int msg = th->lines->len ?
			g_array_index(th->lines, struct line, th->cursor).msg :
			th->start_msg;

		build_lines(th, a.w);
		/* Keep the cursor on its message across a resize; the
		 * first time, on the message the search matched. */
		th->cursor = 0;
		while (th->cursor + 1 < (int)th->lines->len &&
		       g_array_index(th->lines, struct line, th->cursor).msg <
			       msg)
			th->cursor++;
		/* Not on the blank line that parts it from the one before. */
		if (th->cursor > 0 && th->cursor + 1 < (int)th->lines->len &&
		    !*g_array_index(th->lines, struct line, th->cursor).text &&
		    !g_array_index(th->lines, struct line, th->cursor).label)
			th->cursor++;
		th->top = th->cursor;
	}
	dc_tui_show_cursor(&th->cursor, &th->top, th->lines->len, a.h);
	for (i = 0; i < a.h && th->top + i < (int)th->lines->len; i++) {
		const struct line *l =
			&g_array_index(th->lines, struct line, th->top + i);
		int x = a.x + l->indent;

		if (l->label)
			x += dc_draw_text(t->scr, a.y + i, x, a.x + a.w - x,
					  l->label, DC_ROLE_HEADER);
		dc_draw_text(t->scr, a.y + i, x, a.x + a.w - x, l->text,
			     l->label ? DC_ROLE_NORMAL : l->role);
		if (th->top + i == th->cursor)
			dc_draw_select(t->scr, a.y + i, a.x, a.w);
	}
}

static int
line_msg(struct thread *th, int i)
{
	return g_array_index(th->lines, struct line, i).msg;
}

/* n / N: the first line of the next or previous message. */
static void
goto_message(struct thread *th, int dir)
{
	int n = th->lines->len, i = th->cursor, msg;

	if (!n)
		return;
	msg = line_msg(th, i) + dir;
	if (msg < 0)
		msg = 0;
	for (i = 0; i < n && line_msg(th, i) < msg; i++)
		;
	if (i < n)
		th->cursor = i;
	if (i < n && i > 0 && !*g_array_index(th->lines, struct line, i).text)
		th->cursor = i + (i + 1 < n);
	th->top = th->cursor;
}

static void
toggle_fold(struct thread *th, dc_tui_t *t)
{
	int block = th->lines->len ?
		g_array_index(th->lines, struct line, th->cursor).block : 0;
	gpointer key = GINT_TO_POINTER(block);

	if (block) {
		if (!g_hash_table_remove(th->unfolded, key))
			g_hash_table_add(th->unfolded, key);
	} else {
		th->unfold_all = !th->unfold_all;
		g_hash_table_remove_all(th->unfolded);
		dc_tui_message(t, th->unfold_all ? "All quoted text shown" :
						   "Long quotes folded");
	}
	build_lines(th, th->built_width);
	/* Stay on the block that was opened or closed. */
	if (block) {
		int i;

		for (i = 0; i < (int)th->lines->len; i++)
			if (g_array_index(th->lines, struct line, i).block ==
			    block) {
				th->cursor = i;
				break;
			}
	}
}

/* Enter on a lore link or a <message-id>: open the thread it names, at
 * that message (here, when it is of this thread).  0 when the line names
 * no message. */
static int
follow_link(struct thread *th, dc_tui_t *t)
{
	char *id, *tid, *q;
	guint i;

	if (!th->lines->len)
		return 0;
	id = dc_link_message_id(
		g_array_index(th->lines, struct line, th->cursor).text);
	if (!id)
		return 0;
	tid = dc_anchor_thread_of(dc_mail_notmuch(t->mail), id);
	if (!tid) {
		dc_tui_error(t, "<%s> is %s", id, DC_MAIL_ABSENT);
		g_free(id);
		return 1;
	}
	if (th->thread && !strcmp(tid, th->thread->thread_id)) {
		for (i = 0; i < th->thread->messages->len; i++) {
			const dc_message_t *m = th->thread->messages->pdata[i];

			if (!g_strcmp0(m->message_id, id))
				break;
		}
		th->cursor = 0;
		while (th->cursor + 1 < (int)th->lines->len &&
		       line_msg(th, th->cursor) < (int)i)
			th->cursor++;
		if (th->cursor > 0 &&
		    !*g_array_index(th->lines, struct line, th->cursor).text)
			th->cursor++;
		th->top = th->cursor;
	} else {
		q = dc_mail_id_query(id);
		dc_tui_push(t, dc_view_thread_new_at(t, tid, q));
		g_free(q);
	}
	g_free(tid);
	g_free(id);
	return 1;
}

static int
thread_request(dc_view_t *v, dc_tui_t *t, dc_action_t a, const char *arg)
{
	struct thread *th = v->priv;

	switch (a) {
	case ACT_NEXT:
		goto_message(th, 1);
		return 1;
	case ACT_PREVIOUS:
		goto_message(th, -1);
		return 1;
	case ACT_ENTER:
		if (follow_link(th, t))
			return 1;
		toggle_fold(th, t);
		return 1;
	case ACT_TOGGLE_QUOTES:
		toggle_fold(th, t);
		return 1;
	case ACT_REFRESH:
		if (arg && !strcmp(arg, "drop")) {
			dc_thread_free(th->thread);
			th->thread = NULL;
			return 1;
		}
		return 0;
	default:
		return dc_tui_move_view(v, a, &th->cursor, &th->top,
					th->lines->len);
	}
}

static int
thread_current(dc_view_t *v, dc_tui_t *t, dc_thread_ref_t *ref)
{
	struct thread *th = v->priv;
	guint i;

	if (!th->thread)
		return 0;
	ref->thread_id = th->thread->thread_id;
	ref->subject = th->thread->subject;
	ref->oldest = 0;
	for (i = 0; i < th->thread->messages->len; i++) {
		const dc_message_t *m = th->thread->messages->pdata[i];

		if (!ref->oldest || (m->date && m->date < ref->oldest))
			ref->oldest = m->date;
	}
	if (th->lines && th->cursor >= 0 && (guint)th->cursor < th->lines->len) {
		int msg = line_msg(th, th->cursor);

		if (msg >= 0 && (guint)msg < th->thread->messages->len)
			ref->message_id = ((const dc_message_t *)
				th->thread->messages->pdata[msg])->message_id;
	}
	return 1;
}

static void
thread_title(dc_view_t *v, dc_tui_t *t, GString *out)
{
	struct thread *th = v->priv;
	const dc_message_t *m;
	char *url;
	int i;

	if (!th->thread || !th->lines->len) {
		g_string_append_printf(out, "Thread %s", th->thread_id);
		return;
	}
	i = line_msg(th, th->cursor);
	m = th->thread->messages->pdata[i];
	url = dc_message_lore_url(m);
	g_string_append_printf(out, "Message %d/%u  %s", i + 1,
			       th->thread->messages->len,
			       url ? url : "(private mail, not on lore)");
	g_free(url);
}

static void
thread_position(dc_view_t *v, GString *out)
{
	struct thread *th = v->priv;

	if (th->lines->len)
		g_string_append_printf(out, "line %d/%u", th->cursor + 1,
				       th->lines->len);
}

static void
thread_done(dc_view_t *v)
{
	struct thread *th = v->priv;

	dc_thread_free(th->thread);
	g_array_unref(th->lines);
	g_hash_table_destroy(th->unfolded);
	g_free(th->error);
	g_free(th->thread_id);
	g_free(th->query);
	g_free(th);
}

static const dc_action_t thread_actions[] = {
	DC_MOVE_ACTIONS, ACT_NEXT,    ACT_PREVIOUS, ACT_ENTER,
	ACT_TOGGLE_QUOTES, ACT_REFRESH, ACT_NONE,
};

static const dc_view_ops_t thread_ops = {
	.name = "thread",
	.title = thread_title,
	.draw = thread_draw,
	.request = thread_request,
	.current = thread_current,
	.position = thread_position,
	.done = thread_done,
	.actions = thread_actions,
};

dc_view_t *
dc_view_thread_new(dc_tui_t *t, const char *thread_id)
{
	return dc_view_thread_new_at(t, thread_id, NULL);
}

dc_view_t *
dc_view_thread_new_at(dc_tui_t *t, const char *thread_id, const char *query)
{
	struct thread *th = g_new0(struct thread, 1);

	th->thread_id = g_strdup(thread_id);
	th->query = query && *query ? g_strdup(query) : NULL;
	th->lines = g_array_new(FALSE, TRUE, sizeof(struct line));
	g_array_set_clear_func(th->lines, line_clear);
	th->unfolded = g_hash_table_new(NULL, NULL);
	thread_load(th, t);
	return dc_view_new(&thread_ops, th);
}
