// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The full-screen interface: the main loop, the view stack, the layout, the
 * status bar and the actions that do not belong to one view (search,
 * refresh, the command line; what they do to a case is in
 * tui/case-actions.c).  Keys come from the terminal or, headless, from a
 * script (tui/script.c), so the screen tests run the very same code.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/case/action.h"
#include "core/case/case.h"
#include "core/base/clock.h"
#include "core/base/history.h"
#include "core/mail/html.h"
#include "core/mail/mirror.h"
#include "core/base/sanitize.h"
#include "tui/draw.h"
#include "tui/script.h"
#include "tui/tui.h"

#define POLL_MS 1000 /* how often queued tag changes are retried */

/* ---- messages, time ----------------------------------------------------- */

static void
set_message(dc_tui_t *t, int error, const char *fmt, va_list ap)
{
	g_string_truncate(t->message, 0);
	g_string_append_vprintf(t->message, fmt, ap);
	t->message_error = error;
}

void
dc_tui_message(dc_tui_t *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_message(t, 0, fmt, ap);
	va_end(ap);
}

void
dc_tui_error(dc_tui_t *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_message(t, 1, fmt, ap);
	va_end(ap);
}

int64_t
dc_tui_now(dc_tui_t *t)
{
	(void)t;
	return dc_now();
}

/* ---- the view stack ----------------------------------------------------- */

static dc_view_t *
top_view(dc_tui_t *t)
{
	return t->views->len ? t->views->pdata[t->views->len - 1] : NULL;
}

static void
view_free(gpointer p)
{
	dc_view_t *v = p;

	if (v->ops->done)
		v->ops->done(v);
	g_free(v);
}

dc_view_t *
dc_view_new(const dc_view_ops_t *ops, void *priv)
{
	dc_view_t *v = g_new0(dc_view_t, 1);

	v->ops = ops;
	v->priv = priv;
	return v;
}

void
dc_tui_push(dc_tui_t *t, dc_view_t *v)
{
	if (v)
		g_ptr_array_add(t->views, v);
}

static void
pop_view(dc_tui_t *t)
{
	if (t->views->len <= 1)
		t->quit = 1;
	else
		g_ptr_array_remove_index(t->views, t->views->len - 1);
}

/* The list the top view was opened from (or is). */
static dc_view_t *
list_below(dc_tui_t *t)
{
	guint i;

	for (i = t->views->len; i > 1; i--)
		if (dc_view_is_list(t->views->pdata[i - 1]))
			return t->views->pdata[i - 1];
	return t->views->pdata[0];
}

int
dc_tui_current(dc_tui_t *t, dc_thread_ref_t *ref)
{
	dc_view_t *v = top_view(t);

	memset(ref, 0, sizeof(*ref));
	return v->ops->current && v->ops->current(v, t, ref);
}

int
dc_tui_move(dc_view_t *v, dc_action_t a, int *cursor, int n)
{
	int page = v->page > 1 ? v->page - 1 : 1;
	int c = *cursor;

	switch (a) {
	case ACT_MOVE_DOWN: c++; break;
	case ACT_MOVE_UP: c--; break;
	case ACT_PAGE_DOWN: c += page; break;
	case ACT_PAGE_UP: c -= page; break;
	case ACT_FIRST: c = 0; break;
	case ACT_LAST: c = n - 1; break;
	default: return 0;
	}
	if (c >= n)
		c = n - 1;
	if (c < 0)
		c = 0;
	*cursor = c;
	return 1;
}

int
dc_tui_move_view(dc_view_t *v, dc_action_t a, int *cursor, int *top, int n)
{
	int old = *cursor;

	if (!dc_tui_move(v, a, cursor, n))
		return 0;
	/* Pages move the view with the cursor, as in tig. */
	if (a == ACT_PAGE_DOWN || a == ACT_PAGE_UP) {
		*top += *cursor - old;
		if (*top < 0)
			*top = 0;
	}
	return 1;
}

void
dc_tui_show_cursor(int *cursor, int *top, int n, int h)
{
	if (*cursor >= n)
		*cursor = n ? n - 1 : 0;
	if (*cursor < *top)
		*top = *cursor;
	if (*cursor >= *top + h)
		*top = *cursor - h + 1;
}

/* ---- pending tag changes ------------------------------------------------ */

/* Hand queued tag changes to notmuch; never waits for its lock. */
void
dc_tui_mirror_flush(dc_tui_t *t)
{
	dc_error_t err = { 0 };
	int applied = 0;

	if (!t->store)
		return;
	if (dc_mirror_flush(t->store, &t->mail_opts, &applied, &err) !=
		    DC_OK &&
	    err.status != DC_E_LOCKED)
		dc_tui_error(t, "notmuch tags: %s", err.msg);
	dc_error_clear(&err);
	if (dc_mirror_pending(t->store, &t->pending, &err) != DC_OK)
		t->pending = 0;
}

void
dc_tui_mirror_later(dc_tui_t *t)
{
	if (!t->store || dc_mirror_pending(t->store, &t->pending, NULL) !=
				 DC_OK)
		return;
	t->write_due = t->pending > 0;
}

/*
 * For make bench (tests/bench): with DECORUM_TRACE set, when a key was
 * read, when a screen was drawn and when tag changes were written, in
 * milliseconds on the monotonic clock and of the process's CPU time, to
 * stderr.
 */
void
dc_tui_trace(const char *what)
{
	static int on = -1;
	struct timespec cpu = { 0 };

	if (on < 0)
		on = getenv("DECORUM_TRACE") != NULL;
	if (!on)
		return;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
	fprintf(stderr, "decorum-trace %s %.3f %.3f\n", what,
		g_get_monotonic_time() / 1000.0,
		cpu.tv_sec * 1e3 + cpu.tv_nsec / 1e6);
}

/* The thread cache follows this notmuch database: rebuilt, restored or
 * changed by another process since (core/mail/anchor.h). */
static void
sync_anchors(dc_tui_t *t)
{
	dc_error_t err = { 0 };

	if (t->store && t->mail &&
	    dc_action_sync(t->store, t->mail, 1, t->actor, dc_tui_now(t),
			   &err) != DC_OK)
		dc_tui_error(t, "Case threads: %s", err.msg);
}

/* ---- layout and drawing ------------------------------------------------- */

static void
draw_status(dc_tui_t *t, dc_view_t *v, int y)
{
	dc_screen_t *s = t->scr;
	GString *left = g_string_new(NULL), *right = g_string_new(NULL);
	int w = s->cols, rw;

	dc_draw_fill(s, y, 0, w, DC_ROLE_STATUS);
	g_string_printf(left, "[%s] ", v->ops->name);
	g_string_append(left, dc_view_list_get_query(list_below(t)));
	/* With a remote: the last sync, and what waits to be pushed. */
	dc_tui_sync_describe(t, right);
	/* Who acts, always: every event records it (cli.c resolves it). */
	if (t->actor && *t->actor)
		g_string_append_printf(right, "as %s  ", t->actor);
	if (v->ops->position)
		v->ops->position(v, right);
	rw = dc_display_width(right->str);
	if (t->pending) {
		char *p = g_strdup_printf(" %d pending ", t->pending);
		int pw = dc_display_width(p);

		if (pw + rw + 1 < w)
			dc_draw_text(s, y, w - rw - pw - 1, pw, p,
				     DC_ROLE_PENDING);
		rw += pw + 1;
		g_free(p);
	}
	dc_draw_text(s, y, w - dc_display_width(right->str), w, right->str,
		     DC_ROLE_STATUS);
	dc_draw_text(s, y, 0, w - rw - 1, left->str, DC_ROLE_STATUS);
	g_string_free(left, TRUE);
	g_string_free(right, TRUE);
}

/*
 * The hint shown when there is no message: the actions of the table's
 * ACTION_HINT list that work in view v, with their keys from the key
 * map.
 */
static void
draw_hint(dc_tui_t *t, dc_view_t *v, int y)
{
	static const struct {
		dc_action_t act;
		const char *label;
	} hints[] = {
#define ACTION_GROUP(g)
#define ACTION(id, n, h, k)
#define ACTION_HINT(id, label) { ACT_##id, label },
#include "tui/actions.def"
#undef ACTION_HINT
#undef ACTION
#undef ACTION_GROUP
	};
	GString *h = g_string_new(NULL);
	guint i;

	for (i = 0; i < G_N_ELEMENTS(hints); i++) {
		char *keys, *sp;

		if (!dc_tui_action_works(v, hints[i].act))
			continue;
		keys = dc_keymap_keys(hints[i].act);

		if ((sp = strchr(keys, ' ')))
			*sp = '\0';
		if (*keys)
			g_string_append_printf(h, "%s%s:%s", h->len ? "  " : "",
					       keys, hints[i].label);
		g_free(keys);
	}
	dc_draw_text(t->scr, y, 0, t->scr->cols, h->str, DC_ROLE_NORMAL);
	g_string_free(h, TRUE);
}

static void
draw_bottom(dc_tui_t *t, dc_view_t *v, int y, int *cy, int *cx)
{
	dc_screen_t *s = t->scr;
	int lw, avail, tw, reserve;
	const char *text;

	if (!t->prompt_label) {
		if (t->message->len)
			dc_draw_text(s, y, 0, s->cols, t->message->str,
				     t->message_error ? DC_ROLE_ERROR :
							DC_ROLE_NORMAL);
		else
			draw_hint(t, v, y);
		return;
	}
	/* A long label gives way: what is typed always has room. */
	reserve = MIN(dc_display_width(t->prompt_text->str),
		      MIN(24, s->cols / 3));
	lw = dc_draw_text(s, y, 0, s->cols - 1 - reserve, t->prompt_label,
			  DC_ROLE_NORMAL);
	avail = s->cols - lw - 1;
	/* Show the end of a text too long for the line. */
	text = t->prompt_text->str;
	{
		char *before = g_strndup(text, t->prompt_cursor);

		tw = dc_display_width(before);
		while (tw > avail && *text) {
			const char *n = g_utf8_next_char(text);
			char *one = g_strndup(text, n - text);

			tw -= dc_display_width(one);
			g_free(one);
			text = n;
		}
		g_free(before);
	}
	dc_draw_text(s, y, lw, avail, text, DC_ROLE_NORMAL);
	*cy = y;
	*cx = lw + tw;
}

void
dc_tui_render(dc_tui_t *t, int *cy, int *cx)
{
	dc_screen_t *s = t->scr;
	dc_view_t *v = top_view(t);
	dc_thread_ref_t ref;
	GString *title;
	dc_rect_t body, panel = { 0 };
	int has_panel;

	*cy = *cx = -1;
	dc_screen_clear(s);
	if (s->rows < 6 || s->cols < 24) {
		dc_draw_text(s, 0, 0, s->cols, "decorum: terminal too small",
			     DC_ROLE_ERROR);
		return;
	}
	title = g_string_new(NULL);
	v->ops->title(v, t, title);
	dc_draw_fill(s, 0, 0, s->cols, DC_ROLE_TITLE);
	dc_draw_text(s, 0, 0, s->cols, title->str, DC_ROLE_TITLE);
	g_string_free(title, TRUE);

	body = (dc_rect_t){ 1, 0, s->rows - 3, s->cols };
	has_panel = t->show_panel && v->ops->current &&
		    v->ops->current(v, t, &ref);
	if (has_panel && s->cols >= 120) {
		panel = (dc_rect_t){ 1, s->cols * 3 / 5, body.h,
				     s->cols - s->cols * 3 / 5 };
		body.w = panel.x;
	} else if (has_panel) {
		int want = dc_view_case_lines(t->panel, t, ref.thread_id);
		int ph = body.h * 2 / 5;

		if (ph < 4)
			ph = body.h >= 6 ? 4 : body.h / 2;
		if (want < ph)
			ph = want;
		panel = (dc_rect_t){ body.y + body.h - ph, 0, ph, s->cols };
		body.h -= ph;
	}
	v->page = body.h;
	v->ops->draw(v, t, body);
	if (has_panel)
		t->panel->ops->draw(t->panel, t, panel);
	if (t->prompt_label && t->prompt_hint->len) {
		dc_draw_fill(s, s->rows - 2, 0, s->cols, DC_ROLE_STATUS);
		dc_draw_text(s, s->rows - 2, 0, s->cols, t->prompt_hint->str,
			     t->prompt_hint_error ? DC_ROLE_ERROR :
						    DC_ROLE_STATUS);
	} else {
		draw_status(t, v, s->rows - 2);
	}
	draw_bottom(t, v, s->rows - 1, cy, cx);
}

void
dc_tui_redraw(dc_tui_t *t)
{
	int cy, cx;

	dc_tui_render(t, &cy, &cx);
	if (!t->headless)
		dc_term_flush(t->scr, cy, cx, t->force);
	t->force = 0;
}

/* ---- input -------------------------------------------------------------- */

void
dc_tui_resize(dc_tui_t *t, int rows, int cols)
{
	dc_screen_resize(t->scr, rows, cols);
	t->force = 1;
}

int
dc_tui_getkey(dc_tui_t *t)
{
	int k;

	if (t->headless) {
		k = dc_script_key(t);
		dc_tui_trace("key");
		return k;
	}
	k = dc_term_getkey(POLL_MS);
	if (k != DC_KEY_TIMEOUT)
		dc_tui_trace("key");
	if (k == DC_KEY_TIMEOUT && t->pending)
		dc_tui_mirror_flush(t);
	if (k == DC_KEY_RESIZE) {
		int rows, cols;

		dc_term_size(&rows, &cols);
		dc_tui_resize(t, rows, cols);
	}
	return k;
}

int
dc_tui_edit_file(dc_tui_t *t, const char *path)
{
	const char *ed = getenv("VISUAL");
	char **argv = NULL;
	int argc = 0, status = -1, ok;

	if (!ed || !*ed)
		ed = getenv("EDITOR");
	if (!ed || !*ed)
		ed = "vi";
	if (!g_shell_parse_argv(ed, &argc, &argv, NULL))
		return 0;
	argv = g_renew(char *, argv, argc + 2);
	argv[argc] = g_strdup(path);
	argv[argc + 1] = NULL;
	if (!t->headless)
		dc_term_leave();
	ok = g_spawn_sync(NULL, argv, NULL,
			  G_SPAWN_SEARCH_PATH | G_SPAWN_CHILD_INHERITS_STDIN,
			  NULL, NULL, NULL, NULL, &status, NULL);
	if (!t->headless)
		dc_term_enter();
	g_strfreev(argv);
	t->force = 1;
	return ok && g_spawn_check_wait_status(status, NULL);
}

/* ---- actions that are not one view's ----------------------------------- */

/* The queries of / outlive the session; when the file cannot be read
 * or written, it is left alone for the rest of it. */
static void
load_history(dc_tui_t *t)
{
	dc_error_t err = { 0 };
	GPtrArray *a = NULL;
	guint i;

	t->history_path = dc_history_path();
	if (dc_history_load(t->history_path, &a, &err) != DC_OK) {
		dc_tui_error(t, "Query history: %s", err.msg);
		g_clear_pointer(&t->history_path, g_free);
	}
	for (i = 0; i < a->len; i++)
		dc_history_add(t->search_history, a->pdata[i]);
	g_ptr_array_unref(a);
}

static void
save_history(dc_tui_t *t)
{
	dc_error_t err = { 0 };

	if (t->history_path &&
	    dc_history_save(t->history_path, t->search_history, &err) !=
		    DC_OK) {
		dc_tui_error(t, "Query history: %s", err.msg);
		g_clear_pointer(&t->history_path, g_free);
	}
}

/* / opens the result as a list of its own over the list it was asked
 * from (what was opened from that list closes): q goes back to it. */
static void
search(dc_tui_t *t, const char *arg)
{
	dc_prompt_opts_t o = { .history = t->search_history };
	char *q = NULL;

	if (arg) {
		q = g_strdup(arg);
		dc_history_add(t->search_history, q);
	} else if (!dc_prompt_ex(t, "Query: ", &o, &q)) {
		return;
	}
	save_history(t);
	if (!*g_strstrip(q)) {
		g_free(q);
		return;
	}
	while (t->views->len > 1 && !dc_view_is_list(top_view(t)))
		pop_view(t);
	dc_tui_push(t, dc_view_list_new(t, q));
	dc_view_list_searched(top_view(t), t);
	g_free(q);
}

void
dc_tui_refresh(dc_tui_t *t)
{
	dc_error_t err = { 0 };
	dc_mail_t *m = NULL;
	guint i;

	dc_tui_mirror_flush(t);
	/* Views let go of the old database before it is reopened. */
	for (i = 0; i < t->views->len; i++) {
		dc_view_t *v = t->views->pdata[i];

		v->ops->request(v, t, ACT_REFRESH, "drop");
	}
	if (dc_mail_open(&t->mail_opts, &m, &err) == DC_OK) {
		dc_mail_close(t->mail);
		t->mail = m;
		sync_anchors(t);
	} else {
		dc_tui_error(t, "Reopening notmuch: %s", err.msg);
	}
	t->generation++;
	if (!t->message->len)
		dc_tui_message(t, "Refreshed%s", t->pending ?
					 "; some tag changes still wait for "
					 "notmuch" :
					 "");
}

/* d: the cases view.  One desk at a time: from what was opened from
 * it, d goes back to it (q, too); :cases WORDS filters it. */
static void
show_cases(dc_tui_t *t, const char *arg)
{
	guint i;

	for (i = t->views->len; i > 0; i--)
		if (dc_view_is_cases(t->views->pdata[i - 1]))
			break;
	if (!i) {
		dc_tui_push(t, dc_view_cases_new(t, arg));
		return;
	}
	while (t->views->len > i)
		pop_view(t);
	if (arg)
		top_view(t)->ops->request(top_view(t), t, ACT_CASES, arg);
}

static void dispatch(dc_tui_t *t, dc_action_t a, const char *arg);

static void
command_line(dc_tui_t *t)
{
	char *line = NULL, *arg;
	dc_action_t a;

	if (!dc_prompt(t, ":", "", 0, &line))
		return;
	g_strstrip(line);
	arg = strchr(line, ' ');
	if (arg) {
		*arg++ = '\0';
		while (*arg == ' ')
			arg++;
	}
	a = dc_action_by_name(line);
	if (!*line) {
		;
	} else if (a == ACT_NONE || a == ACT_COMMAND) {
		dc_tui_error(t, "Unknown command '%s' (? lists them)", line);
	} else {
		dispatch(t, a, arg && *arg ? arg : NULL);
	}
	g_free(line);
}

/*
 * The TUI's own actions (not a view's): where each works and what runs
 * it, listed once.  A view that handles an action itself (its ops'
 * actions list) is asked first.
 */
enum scope { NOWHERE, ANY_VIEW, THREAD_VIEW };

typedef void dc_tui_run_t(dc_tui_t *t, dc_action_t a, const char *arg);

static void
run_quit(dc_tui_t *t, dc_action_t a, const char *arg)
{
	(void)a, (void)arg;
	pop_view(t);
}

static void
run_quit_all(dc_tui_t *t, dc_action_t a, const char *arg)
{
	(void)a, (void)arg;
	t->quit = 1;
}

static void
run_help(dc_tui_t *t, dc_action_t a, const char *arg)
{
	(void)a, (void)arg;
	dc_tui_push(t, dc_view_help_new(t));
}

static void
run_doc(dc_tui_t *t, dc_action_t a, const char *arg)
{
	(void)a, (void)arg;
	dc_view_doc_show(t);
}

static void
run_toggle_case(dc_tui_t *t, dc_action_t a, const char *arg)
{
	(void)a, (void)arg;
	t->show_panel = !t->show_panel;
}

static void
run_panel(dc_tui_t *t, dc_action_t a, const char *arg)
{
	t->panel->ops->request(t->panel, t, a, arg);
}

static void
run_tag(dc_tui_t *t, dc_action_t a, const char *arg)
{
	dc_case_tag_thread(t,
			   a == ACT_ADMONITION	? DC_KIND_ADMONITION
			   : a == ACT_ESCALATION ? DC_KIND_ESCALATION
						 : DC_KIND_TAB,
			   arg);
}

static void
run_undo(dc_tui_t *t, dc_action_t a, const char *arg)
{
	(void)a, (void)arg;
	dc_case_undo_last(t);
}

static void
run_attach(dc_tui_t *t, dc_action_t a, const char *arg)
{
	(void)a;
	dc_case_attach_thread(t, arg);
}

static void
run_detach(dc_tui_t *t, dc_action_t a, const char *arg)
{
	(void)a, (void)arg;
	dc_case_detach_thread(t);
}

static void
run_packet(dc_tui_t *t, dc_action_t a, const char *arg)
{
	(void)a;
	dc_case_packet(t, arg);
}

static void
run_reply(dc_tui_t *t, dc_action_t a, const char *arg)
{
	(void)a;
	dc_case_reply(t, arg);
}

static void
run_report(dc_tui_t *t, dc_action_t a, const char *arg)
{
	(void)a;
	dc_tui_push(t, dc_view_report_new(t, arg));
}

static void
run_cases(dc_tui_t *t, dc_action_t a, const char *arg)
{
	(void)a;
	show_cases(t, arg);
}

static void
run_search(dc_tui_t *t, dc_action_t a, const char *arg)
{
	(void)a;
	search(t, arg);
}

static void
run_command(dc_tui_t *t, dc_action_t a, const char *arg)
{
	(void)a, (void)arg;
	command_line(t);
}

static void
run_refresh(dc_tui_t *t, dc_action_t a, const char *arg)
{
	(void)a, (void)arg;
	dc_tui_refresh(t);
}

static void
run_sync(dc_tui_t *t, dc_action_t a, const char *arg)
{
	(void)a;
	dc_tui_sync(t, arg);
}

static void
run_redraw(dc_tui_t *t, dc_action_t a, const char *arg)
{
	(void)a, (void)arg;
	t->force = 1;
}

static void
run_suspend(dc_tui_t *t, dc_action_t a, const char *arg)
{
	(void)a, (void)arg;
	if (!t->headless)
		dc_term_suspend();
	t->force = 1;
}

static const struct tui_action {
	dc_action_t action;
	enum scope scope;
	dc_tui_run_t *run;
} tui_actions[] = {
	{ ACT_QUIT, ANY_VIEW, run_quit },
	{ ACT_QUIT_ALL, ANY_VIEW, run_quit_all },
	{ ACT_HELP, ANY_VIEW, run_help },
	{ ACT_DOC, ANY_VIEW, run_doc },
	{ ACT_UNDO, ANY_VIEW, run_undo },
	{ ACT_REPORT, ANY_VIEW, run_report },
	{ ACT_CASES, ANY_VIEW, run_cases },
	{ ACT_SEARCH, ANY_VIEW, run_search },
	{ ACT_COMMAND, ANY_VIEW, run_command },
	{ ACT_REFRESH, ANY_VIEW, run_refresh },
	{ ACT_SYNC, ANY_VIEW, run_sync },
	{ ACT_REDRAW, ANY_VIEW, run_redraw },
	{ ACT_SUSPEND, ANY_VIEW, run_suspend },
	/* What acts on the thread a view is about, or its case. */
	{ ACT_TOGGLE_CASE, THREAD_VIEW, run_toggle_case },
	{ ACT_PANEL_DOWN, THREAD_VIEW, run_panel },
	{ ACT_PANEL_UP, THREAD_VIEW, run_panel },
	{ ACT_ADMONITION, THREAD_VIEW, run_tag },
	{ ACT_ESCALATION, THREAD_VIEW, run_tag },
	{ ACT_TAB, THREAD_VIEW, run_tag },
	{ ACT_ATTACH, THREAD_VIEW, run_attach },
	{ ACT_DETACH, THREAD_VIEW, run_detach },
	{ ACT_PACKET, THREAD_VIEW, run_packet },
	{ ACT_REPLY, THREAD_VIEW, run_reply },
	{ ACT_STATE, THREAD_VIEW, dc_view_case_act },
	{ ACT_OUTCOME, THREAD_VIEW, dc_view_case_act },
	{ ACT_CATEGORY, THREAD_VIEW, dc_view_case_act },
	{ ACT_NOTE, THREAD_VIEW, dc_view_case_act },
	{ ACT_CONVERT, THREAD_VIEW, dc_view_case_act },
	{ ACT_PARTICIPANT, THREAD_VIEW, dc_case_committee_act },
	{ ACT_PARTICIPANT_REMOVE, THREAD_VIEW, dc_case_committee_act },
	{ ACT_CONFLICT, THREAD_VIEW, dc_case_committee_act },
	{ ACT_RECUSE, THREAD_VIEW, dc_case_committee_act },
	{ ACT_VOTE, THREAD_VIEW, dc_case_committee_act },
	{ ACT_ALIAS, THREAD_VIEW, dc_case_committee_act },
	{ ACT_OUTCOME_EDIT, THREAD_VIEW, dc_case_committee_act },
};

static const struct tui_action *
tui_action(dc_action_t a)
{
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(tui_actions); i++)
		if (tui_actions[i].action == a)
			return &tui_actions[i];
	return NULL;
}

static int
handled_by(const dc_view_t *v, dc_action_t a)
{
	const dc_action_t *p;

	for (p = v->ops->actions; p && *p != ACT_NONE; p++)
		if (*p == a)
			return 1;
	return 0;
}

int
dc_tui_action_works(const dc_view_t *v, dc_action_t a)
{
	const struct tui_action *ta = tui_action(a);
	enum scope s = ta ? ta->scope : NOWHERE;

	return handled_by(v, a) || s == ANY_VIEW ||
	       (s == THREAD_VIEW && v->ops->current);
}

static void
dispatch(dc_tui_t *t, dc_action_t a, const char *arg)
{
	dc_view_t *v = top_view(t);
	const struct tui_action *ta = tui_action(a);
	char *keys;

	g_string_truncate(t->message, 0);
	if (handled_by(v, a) && v->ops->request(v, t, a, arg))
		return;
	if (ta && dc_tui_action_works(v, a)) {
		ta->run(t, a, arg);
		return;
	}
	keys = dc_keymap_keys(a);
	dc_tui_message(t, "%s (%s) does nothing in the %s view",
		       dc_action_name(a), *keys ? keys : "no key",
		       v->ops->name);
	g_free(keys);
}

/* ---- setting up --------------------------------------------------------- */

/* [keys] ACTION = KEYS: 0 with *why if it cannot be bound. */
static int
bind_keys(const char *name, const char *value, char **why)
{
	dc_action_t a = dc_action_by_name(name);

	if (a == ACT_NONE) {
		*why = g_strdup("no such action (see decorum(1), KEYS)");
		return 0;
	}
	return dc_keymap_bind(a, value, why);
}

/* [colors] ROLE = COLOURS: 0 with *why if they cannot be set. */
static int
set_colors(const char *name, const char *value, char **why)
{
	dc_role_t r = dc_role_by_name(name);

	if (r == DC_ROLE_COUNT) {
		*why = g_strdup("no such colour (see decorum(1))");
		return 0;
	}
	return dc_term_set_color(r, value, why);
}

/* Apply each key of a configuration group; what cannot be applied is a
 * warning, shown at start and in ? help. */
static void
apply_group(dc_config_t *cfg, const char *group,
	    int (*apply)(const char *name, const char *value, char **why))
{
	const char *const *keys = dc_config_keys(cfg, group);
	int i;

	for (i = 0; keys[i]; i++) {
		char *why = NULL;

		if (!apply(keys[i], dc_config_get(cfg, group, keys[i]), &why))
			dc_config_warn(cfg, group, keys[i], "%s", why);
		g_free(why);
	}
}

static void
apply_config(dc_tui_t *t)
{
	dc_keymap_init();
	apply_group(t->cfg, "keys", bind_keys);
	apply_group(t->cfg, "colors", set_colors);
}

/* The list opens on the configured query, or on mail to the conduct
 * address and the threads notmuch knows as tracked. */
static char *
default_query(dc_tui_t *t)
{
	const char *q = dc_config_get(t->cfg, "ui", "default_query");
	const char *addr = dc_config_get(t->cfg, "ui", "conduct_address");
	char *nm = NULL, *r;

	if (q && *q)
		return g_strdup(q);
	if (!addr || !*addr)
		addr = nm = dc_mail_config_get(t->mail,
					      "decorum.conduct_address");
	if (!addr || !*addr)
		addr = "conduct@kernel.org";
	r = g_strdup_printf("to:%s or tag:/^coc\\//", addr);
	g_free(nm);
	return r;
}

static void
tui_free(dc_tui_t *t)
{
	g_ptr_array_unref(t->views);
	if (t->panel)
		view_free(t->panel);
	dc_close_store(t->store);
	dc_mail_close(t->mail);
	dc_config_free(t->cfg);
	g_free(t->html_filter);
	g_free(t->actor);
	dc_screen_free(t->scr);
	g_string_free(t->message, TRUE);
	g_string_free(t->prompt_text, TRUE);
	g_string_free(t->prompt_hint, TRUE);
	g_ptr_array_unref(t->search_history);
	g_free(t->history_path);
	g_array_unref(t->undo);
	dc_script_free(t->script);
	g_free(t);
}

static dc_tui_t *
tui_new(dc_cli_t *cli, dc_error_t *err)
{
	dc_tui_t *t = g_new0(dc_tui_t, 1);

	t->cli = cli;
	t->mail_opts = (dc_mail_opts_t){ .config_path = cli->config_path,
					 .db_path = cli->db_path,
					 .profile = cli->profile };
	t->views = g_ptr_array_new_with_free_func(view_free);
	t->message = g_string_new(NULL);
	t->prompt_text = g_string_new(NULL);
	t->prompt_hint = g_string_new(NULL);
	t->search_history = g_ptr_array_new_with_free_func(g_free);
	t->undo = g_array_new(FALSE, FALSE, sizeof(int64_t));
	t->show_panel = 1;
	t->generation = 1;
	t->cfg = dc_config_load(getenv("DECORUM_CONFIG"));
	t->html_filter =
		dc_html_filter_choose(dc_config_get(t->cfg, "mime", "html"));
	t->mail_opts.html_filter = t->html_filter;
	if (dc_mail_open(&t->mail_opts, &t->mail, err) != DC_OK) {
		tui_free(t);
		return NULL;
	}
	/* The identity the store's access rules see (--as, $DECORUM_AS,
	 * [identity] address, user.primary_email); a copy: the notmuch
	 * handle it may come from is reopened by =. */
	t->actor = g_strdup(dc_cli_actor(cli, t->mail));
	/* The TUI records: an older store is brought up to date. */
	if (dc_cli_store(cli, DC_OPEN_UPGRADE | DC_OPEN_INTERACTIVE,
			 &t->store, err) != DC_OK) {
		dc_tui_error(t, "Case store: %s", err->msg);
		dc_error_clear(err);
	}
	apply_config(t);
	load_history(t);
	return t;
}

static void
loop(dc_tui_t *t)
{
	/* For make bench (tests/bench): quit once the first full screen is
	 * on the terminal, to time launch to first screen. */
	int first_only = getenv("DECORUM_EXIT_AFTER_FIRST_SCREEN") != NULL;

	while (!t->quit) {
		int key;
		dc_action_t a;
		char name[16];

		dc_tui_redraw(t);
		dc_tui_trace("drawn");
		if (first_only)
			break;
		if (t->write_due) {
			/* The case is on screen: now the notmuch write. */
			t->write_due = 0;
			dc_tui_mirror_flush(t);
			dc_tui_trace("written");
			continue;
		}
		key = dc_tui_getkey(t);
		if (key == DC_KEY_EOF)
			break;
		if (key == DC_KEY_TIMEOUT || key == DC_KEY_RESIZE)
			continue;
		a = dc_keymap_lookup(key);
		if (a == ACT_NONE)
			dc_tui_error(t, "%s is not bound to anything; ? "
					"shows the keys",
				     dc_key_name(key, name));
		else
			dispatch(t, a, NULL);
	}
}

int
dc_tui_main(dc_cli_t *cli, const char *query, const char *script,
	    const char *dump_dir, int rows, int cols, int cases)
{
	dc_error_t err = { 0 };
	dc_tui_t *t = tui_new(cli, &err);
	GPtrArray *warnings;
	char *q;
	int rc = DC_EXIT_OK;
	guint i;

	if (!t)
		return dc_cli_fail(cli, &err);
	if (script) {
		t->headless = 1;
		t->script = dc_script_open(script, dump_dir);
		if (!t->script) {
			fprintf(cli->err, "decorum: %s: %s\n", script,
				g_strerror(errno));
			tui_free(t);
			return DC_EXIT_USAGE;
		}
	} else if (!dc_term_open()) {
		fprintf(cli->err, "decorum: cannot start the terminal "
				  "interface (is TERM set?)\n");
		tui_free(t);
		return DC_EXIT_USAGE;
	} else {
		dc_term_size(&rows, &cols);
	}
	t->scr = dc_screen_new(rows, cols);
	sync_anchors(t);
	q = query && *query ? g_strdup(query) : default_query(t);
	dc_tui_push(t, dc_view_list_new(t, q));
	g_free(q);
	if (cases)
		dc_tui_push(t, dc_view_cases_new(t, NULL));
	t->panel = dc_view_case_new(t);
	warnings = dc_config_warnings(t->cfg);
	if (warnings->len)
		dc_tui_error(t, "%s%s", (char *)warnings->pdata[0],
			     warnings->len > 1 ? " (more in ? help)" : "");
	/* What an earlier session left queued waits for the first screen. */
	dc_tui_mirror_later(t);
	loop(t);
	if (!t->headless)
		dc_term_close();
	for (i = 0; i < warnings->len; i++)
		fprintf(cli->err, "decorum: %s\n", (char *)warnings->pdata[i]);
	if (t->quit == 2)
		rc = DC_EXIT_USAGE;
	tui_free(t);
	return rc;
}
