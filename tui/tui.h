/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The full-screen interface: a stack of views (tui/view-*.c, one file per
 * view, each with one dc_view_ops_t), the case panel, a status bar and a
 * prompt line.  Keys become actions through tui/actions.def; views draw
 * through tui/draw.h only.
 *
 * The same program runs in a terminal (curses) or headless, reading keys
 * from a script and dumping the screen model as text: the screen tests.
 */
#ifndef DC_TUI_H
#define DC_TUI_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "core/base/config.h"
#include "core/mail/mail.h"
#include "core/case/case.h" /* dc_kind_t */
#include "core/case/open.h" /* dc_store_t, through core */
#include "core/sync/sync.h"
#include "tui/actions.h"
#include "tui/cli.h"
#include "tui/screen.h"

typedef struct dc_tui dc_tui_t;
typedef struct dc_view dc_view_t;
typedef struct dc_script dc_script_t;

typedef struct dc_rect {
	int y, x, h, w;
} dc_rect_t;

/* The thread a view is about: what a, e, t and the case panel act on. */
typedef struct dc_thread_ref {
	const char *thread_id;
	const char *subject;
	time_t oldest;
	const char *message_id; /* the message under the cursor (the
				 * thread view), or NULL */
} dc_thread_ref_t;

typedef struct dc_view_ops {
	const char *name;
	/* The title bar text (may come from mail: it is sanitized). */
	void (*title)(dc_view_t *v, dc_tui_t *t, GString *out);
	void (*draw)(dc_view_t *v, dc_tui_t *t, dc_rect_t r);
	/* Handle an action (arg from the ":" command line, or NULL);
	 * 0 lets the TUI handle it. */
	int (*request)(dc_view_t *v, dc_tui_t *t, dc_action_t a,
		       const char *arg);
	/* Fill *ref and return 1 when the view has a current thread. */
	int (*current)(dc_view_t *v, dc_tui_t *t, dc_thread_ref_t *ref);
	/* "12/40" for the status bar. */
	void (*position)(dc_view_t *v, GString *out);
	void (*done)(dc_view_t *v);
	/* The actions request handles (ACT_NONE ends them): only these
	 * reach it from a key or ":", and with the TUI's own (those that
	 * need a thread only where current is) they are what works in
	 * the view, which its hint line offers. */
	const dc_action_t *actions;
} dc_view_ops_t;

/* The moves every view with a cursor or a text to scroll handles. */
#define DC_MOVE_ACTIONS                                                   \
	ACT_MOVE_DOWN, ACT_MOVE_UP, ACT_PAGE_DOWN, ACT_PAGE_UP, ACT_FIRST, \
		ACT_LAST

struct dc_view {
	const dc_view_ops_t *ops;
	void *priv;
	int page; /* body rows at the last draw, for page moves */
};

struct dc_tui {
	dc_cli_t *cli;
	dc_mail_opts_t mail_opts;
	dc_mail_t *mail;
	dc_store_t *store; /* NULL until the first case, or unreadable */
	dc_config_t *cfg;
	char *html_filter; /* [mime] html as chosen; mail_opts points here */
	char *actor; /* who acts: recorded with every event */
	dc_screen_t *scr;
	GPtrArray *views; /* dc_view_t *, the top one last */
	dc_view_t *panel; /* the case panel */
	int show_panel;
	unsigned generation; /* bumped when cases change: views reload */
	int pending;	     /* tag changes waiting for notmuch */
	int write_due;	     /* write them once the screen is drawn */
	GString *message;
	int message_error;
	GArray *undo; /* int64_t case ids changed in this session */
	int quit;
	int force;

	/* The prompt line, while a prompt is open. */
	const char *prompt_label;
	GString *prompt_text;
	gsize prompt_cursor;
	GString *prompt_hint; /* over the status bar: choices, refusals */
	int prompt_hint_error;
	GPtrArray *search_history; /* char *: the queries of /, oldest first */
	char *history_path;	   /* where they are kept; NULL: not kept */

	/* The status bar's sync (tui/sync.c), as of generation sync_gen. */
	dc_sync_status_t sync;
	unsigned sync_gen;

	/* Headless mode (screen tests): keys from a script (tui/script.h). */
	int headless;
	dc_script_t *script;
};

/* ---- the views --------------------------------------------------------- */

dc_view_t *dc_view_list_new(dc_tui_t *t, const char *query);
const char *dc_view_list_get_query(dc_view_t *v);
int dc_view_is_list(const dc_view_t *v);
/* After a / search pushed list v: an id: search opens its message. */
void dc_view_list_searched(dc_view_t *v, dc_tui_t *t);
dc_view_t *dc_view_thread_new(dc_tui_t *t, const char *thread_id);
/* The thread with the cursor on its first message matching query (a
 * notmuch query: the list's, or id:MSGID); NULL: on the first. */
dc_view_t *dc_view_thread_new_at(dc_tui_t *t, const char *thread_id,
				 const char *query);
dc_view_t *dc_view_help_new(dc_tui_t *t);
/* The kernel documentation section l (core/docs/doclink.h) as a pager. */
struct dc_doclink;
dc_view_t *dc_view_doc_new(dc_tui_t *t, const struct dc_doclink *l);
/* Push it for the kind of the current thread's case (the guide's
 * introduction when there is no case). */
void dc_view_doc_show(dc_tui_t *t);
/* The summary report for period ("week", "quarter", "FROM..TO"; NULL:
 * the week) as a pager; p changes the period, w writes it. */
dc_view_t *dc_view_report_new(dc_tui_t *t, const char *period);
dc_view_t *dc_view_case_new(dc_tui_t *t);
/* The cases view (the desk): every case the viewer may see that passes
 * filter (words of core/case/filter.h; NULL: every case). */
dc_view_t *dc_view_cases_new(dc_tui_t *t, const char *filter);
int dc_view_is_cases(const dc_view_t *v);
/* The lines the case panel would like for a thread. */
int dc_view_case_lines(dc_view_t *panel, dc_tui_t *t, const char *thread_id);
/* The case operations on the current thread's case (state, outcome, note,
 * convert); arg from the ":" command line, or NULL to ask. */
void dc_view_case_act(dc_tui_t *t, dc_action_t a, const char *arg);

/* ---- services for the views --------------------------------------------- */

/* A view of ops over priv, which ops->done frees. */
dc_view_t *dc_view_new(const dc_view_ops_t *ops, void *priv);

void dc_tui_push(dc_tui_t *t, dc_view_t *v);
void dc_tui_message(dc_tui_t *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void dc_tui_error(dc_tui_t *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int64_t dc_tui_now(dc_tui_t *t);
/* 1 when a does something in view v (see dc_view_ops_t.actions). */
int dc_tui_action_works(const dc_view_t *v, dc_action_t a);
/* The current thread of the top view: 1 with *ref, 0 if it has none. */
int dc_tui_current(dc_tui_t *t, dc_thread_ref_t *ref);
/* Hand queued tag changes to notmuch, without waiting for its lock. */
void dc_tui_mirror_flush(dc_tui_t *t);
/* The same after the next redraw: the case shows at once, marked
 * pending, and the notmuch write follows (tagging never blocks). */
void dc_tui_mirror_later(dc_tui_t *t);
/* Render everything into the screen model; *cy, *cx: where the cursor
 * goes (-1: hidden). */
void dc_tui_render(dc_tui_t *t, int *cy, int *cx);
/* Render, and bring it onto the terminal (nothing more headless). */
void dc_tui_redraw(dc_tui_t *t);
/* The next key from the terminal or the script. */
int dc_tui_getkey(dc_tui_t *t);
/* The screen is now rows by cols: all of it is drawn again. */
void dc_tui_resize(dc_tui_t *t, int rows, int cols);
/* Leave the screen for $EDITOR on file; 0 if it failed. */
int dc_tui_edit_file(dc_tui_t *t, const char *path);
/* Move a cursor by an action over n lines: 1 if a move action. */
int dc_tui_move(dc_view_t *v, dc_action_t a, int *cursor, int n);
/* The same for a cursor in rows shown from *top: a page moves both. */
int dc_tui_move_view(dc_view_t *v, dc_action_t a, int *cursor, int *top,
		     int n);
/* Before drawing h of n rows: the cursor on one of them, and in view. */
void dc_tui_show_cursor(int *cursor, int *top, int n, int h);
/* tui/case-actions.c: the case of the current thread (dc_case_free), or
 * NULL with an error message: no_thread when there is no thread. */
dc_case_t *dc_case_current(dc_tui_t *t, const char *no_thread);
/* a, e, t: tag the current thread kind (opening a
 * case, or adding to its open one); arg, from the ":" command line, is
 * the note (NULL: ask). */
void dc_case_tag_thread(dc_tui_t *t, dc_kind_t kind, const char *arg);
/* u: undo the last change to a case in this session (or to the current
 * thread's case), once confirmed. */
void dc_case_undo_last(dc_tui_t *t);
/* A: attach the current thread to one of the open cases, chosen by
 * number from a list in the prompt (arg, from the ":" command line: the
 * case number). */
void dc_case_attach_thread(dc_tui_t *t, const char *arg);
/* X: detach the current thread from its case, once confirmed. */
void dc_case_detach_thread(dc_tui_t *t);
/* After a change to a case: u can undo it, views reload, notmuch is
 * told. */
void dc_tui_case_changed(dc_tui_t *t, int64_t case_id);
/* tui/case-committee.c: the committee's actions on the current thread's
 * case (participant, alias, conflict, recuse, vote, outcome-edit); arg
 * from the ":" command line holds the answers' words (NULL: ask). */
void dc_case_committee_act(dc_tui_t *t, dc_action_t a, const char *arg);
/* tui/case-reply.c: r, a reply to the message under the cursor (in the
 * list: the thread's first), edited in $EDITOR, sent and recorded on the
 * case; arg, from the ":" command line, names the template. */
void dc_case_reply(dc_tui_t *t, const char *arg);
/* tui/case-packet.c: the TAB packet of the current thread's case; arg,
 * from the ":" command line, names the directory (NULL: ask). */
void dc_case_packet(dc_tui_t *t, const char *arg);

/* tui/sync.c: the last sync and what waits to be pushed, for the status
 * bar (nothing without a remote); read again when cases changed. */
void dc_tui_sync_describe(dc_tui_t *t, GString *out);
/* :sync [REMOTE]: decorum sync, its progress on the message line; the
 * views reload after it, as = reloads them. */
void dc_tui_sync(dc_tui_t *t, const char *remote);
/* =: reload the list and cases, apply pending writes. */
void dc_tui_refresh(dc_tui_t *t);
/* With $DECORUM_TRACE: what happened when, to stderr (make bench, and
 * the sync tests' progress). */
void dc_tui_trace(const char *what);

/* tui/prompt.c: read a line; 1 with *out (g_free), 0 if cancelled.  With
 * editor, C-X hands the text to $EDITOR (for long notes). */
int dc_prompt(dc_tui_t *t, const char *label, const char *initial,
	      int editor, char **out);
typedef struct dc_prompt_opts {
	const char *initial;
	int editor; /* C-X hands the text to $EDITOR (long notes) */
	/*
	 * The answer's first word is one of these names (NULL-terminated):
	 * Tab completes it, Enter takes a unique prefix for the name; for a
	 * word that fits several names or none, Enter says which names
	 * there are and keeps the text.  An empty answer is taken as it is.
	 */
	const char *const *choices;
	int more_words; /* words may follow ("admonition public") */
	/* At Enter: 1 takes the text (check may rewrite it), 0 keeps the
	 * prompt open, showing *why (g_free) above it. */
	int (*check)(dc_tui_t *t, GString *text, void *data, char **why);
	void *data;
	/* Earlier answers (char *, oldest first) for Up and Down; the answer
	 * is added to them. */
	GPtrArray *history;
	/* A line above the prompt saying what the choices mean (NULL:
	 * none); a hint of the prompt's own shows instead while it lasts. */
	const char *about;
	/* Without choices: every word may be one of these names (or
	 * something else check takes, as "30d"); Tab completes the word
	 * before the cursor among them. */
	const char *const *word_choices;
} dc_prompt_opts_t;
int dc_prompt_ex(dc_tui_t *t, const char *label, const dc_prompt_opts_t *o,
		 char **out);
/* A measure's "Until": a date, a release or N cycles, checked as core
 * parses it (dc_until_parse) into until and release (g_free). */
typedef struct dc_until_answer {
	int64_t now;
	int64_t until;
	char *release;
} dc_until_answer_t;
int dc_prompt_check_until(dc_tui_t *t, GString *text, void *data,
			  char **why);
/* The answer from the ":" command line (arg, checked as the prompt checks
 * what is typed: a unique prefix taken, an error message otherwise), or
 * from the prompt when arg is NULL; 1 with *out (g_free). */
int dc_ask(dc_tui_t *t, const char *arg, const char *label,
	   const dc_prompt_opts_t *o, char **out);
/* Add line to a history as its newest entry (once: an older copy goes;
 * the oldest go beyond DC_HISTORY_KEEP, core/base/history.h). */
void dc_history_add(GPtrArray *history, const char *line);
/*
 * One key in answer to question: one of keys (NULL: any key), lower-cased,
 * or enter for Enter and space (0: they are not an answer); 0 when
 * cancelled (Esc, ^G, end of input).  The two below are made of it.
 */
int dc_ask_key(dc_tui_t *t, const char *question, const char *keys,
	       int enter);
/* A yes/no question; 1 for yes (y), any other key is no. */
int dc_confirm(dc_tui_t *t, const char *question);
/* y or n, Enter for def; -1 if cancelled (Esc). */
int dc_ask_yes_no(dc_tui_t *t, const char *question, int def);
/* A path as typed: a leading ~ is the home directory (g_free). */
char *dc_expand_home(const char *path);
/* text with the home directory written as ~ (g_free). */
char *dc_unexpand_home(const char *text);

/* tui/tui.c: run the interface; returns an exit code.  With cases it
 * opens on the cases view (decorum tui --cases), q going back to the
 * list. */
int dc_tui_main(dc_cli_t *cli, const char *query, const char *script,
		const char *dump_dir, int rows, int cols, int cases);

#endif
