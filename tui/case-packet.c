// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * P in the TUI: the TAB escalation packet of the current thread's case,
 * written by core (dc_packet_write(), as decorum packet does).  It asks
 * for the directory and whether to redact the reporter (yes unless told
 * otherwise: a packet leaves the committee), shows the messages written
 * so far in the status line while it works, and ends with a message
 * naming the directory, or the reason there is none.
 */
#include <string.h>

#include "core/base/clock.h"
#include "core/case/case.h"
#include "core/export/packet.h"
#include "tui/draw.h"
#include "tui/tui.h"

#define PROGRESS_US (G_USEC_PER_SEC / 20) /* at most 20 redraws a second */

struct progress {
	dc_tui_t *t;
	int64_t case_id;
	gint64 last;
};

static void
progress(void *ctx, unsigned done, unsigned total)
{
	struct progress *p = ctx;
	gint64 now = g_get_monotonic_time();

	if (done < total && now - p->last < PROGRESS_US)
		return;
	p->last = now;
	dc_tui_message(p->t, "Case #%" G_GINT64_FORMAT ": writing the packet: "
			     "%u of %u messages",
		       (gint64)p->case_id, done, total);
	dc_tui_redraw(p->t);
}

/* The directory, from the command line or asked; NULL if cancelled. */
static char *
ask_dir(dc_tui_t *t, const dc_case_t *c, const char *arg)
{
	char *def, *dir = NULL;
	int ok;

	if (arg)
		return g_strstrip(g_strdup(arg));
	def = g_strdup_printf("~/decorum-packet-case-%" G_GINT64_FORMAT,
			      (gint64)c->id);
	ok = dc_prompt(t, "Write the packet to the directory: ", def, 0, &dir);
	g_free(def);
	if (!ok)
		return NULL;
	g_strstrip(dir);
	if (!*dir) {
		g_free(dir);
		return NULL;
	}
	return dir;
}

/* A reply-by day as YYYY-MM-DD that the packet takes; the prompt stays
 * open with the reason otherwise. */
static int
reply_by_check(dc_tui_t *t, GString *text, void *data, char **why)
{
	dc_packet_opts_t *o = data;
	dc_error_t err = { 0 };
	char *day = g_strstrip(g_strdup(text->str));
	int ok;

	(void)t;
	o->reply_by = 0;
	ok = dc_parse_day(day, strlen(day), &o->reply_by);
	if (!ok)
		*why = g_strdup("the reply-by day as YYYY-MM-DD");
	else if (dc_packet_check_reply_by(o, &err) != DC_OK) {
		*why = g_strdup(err.msg);
		ok = 0;
	}
	g_free(day);
	return ok;
}

/*
 * The packet's two other choices, asked after redaction: a final packet
 * (undone events left out) and the day the TAB is asked to answer by,
 * 14 days from now offered.  0 if cancelled.
 */
static int
ask_final_and_reply_by(dc_tui_t *t, dc_packet_opts_t *o)
{
	dc_prompt_opts_t po = { .check = reply_by_check, .data = o };
	GDateTime *d;
	char *def, *ans = NULL;
	int final, ok;

	final = dc_ask_yes_no(t, "Final packet: leave undone events out? "
				 "[y/N] ",
			      0);
	if (final < 0)
		return 0;
	o->final = final;
	d = g_date_time_new_from_unix_utc(dc_packet_reply_by(o));
	def = g_date_time_format(d, "%Y-%m-%d");
	g_date_time_unref(d);
	po.initial = def;
	ok = dc_prompt_ex(t, "Ask the TAB to reply by: ", &po, &ans);
	g_free(def);
	g_free(ans);
	return ok;
}

/* The reason, with the home directory as ~ (as the user typed it). */
static void
failed(dc_tui_t *t, const dc_case_t *c, const dc_error_t *err)
{
	char *why = dc_unexpand_home(err->msg);

	dc_tui_error(t, "Case #%" G_GINT64_FORMAT ": no packet: %s",
		     (gint64)c->id, why);
	g_free(why);
}

static void
written_message(dc_tui_t *t, const dc_case_t *c, const dc_packet_opts_t *o,
		 const char *dir, unsigned n)
{
	GDateTime *d = g_date_time_new_from_unix_utc(dc_packet_reply_by(o));
	char *day = g_date_time_format(d, "%Y-%m-%d");

	dc_tui_message(t, "Case #%" G_GINT64_FORMAT ": packet written to %s "
			  "(%u message%s, %s%s), reply by %s",
		       (gint64)c->id, dir, n, n == 1 ? "" : "s",
		       o->redact ? "redacted" : "NOT redacted",
		       o->final ? ", final" : "", day);
	g_free(day);
	g_date_time_unref(d);
}

static void
packet(dc_tui_t *t, const dc_case_t *c, const char *arg)
{
	struct progress p = { .t = t, .case_id = c->id };
	dc_packet_opts_t o = { .case_id = c->id, .actor = t->actor,
			       .now = dc_tui_now(t), .progress = progress,
			       .ctx = &p };
	dc_error_t err = { 0 };
	char *dir, *full;
	unsigned n = 0;
	int redact;

	dir = ask_dir(t, c, arg);
	if (!dir) {
		dc_tui_message(t, "Cancelled: no packet was written");
		return;
	}
	redact = dc_ask_yes_no(t, "Redact the reporter? [Y/n] ", 1);
	if (redact < 0) {
		dc_tui_message(t, "Cancelled: no packet was written");
		g_free(dir);
		return;
	}
	o.redact = redact;
	if (!ask_final_and_reply_by(t, &o)) {
		dc_tui_message(t, "Cancelled: no packet was written");
		g_free(dir);
		return;
	}
	full = dc_expand_home(dir);
	o.dir = full;
	dc_tui_message(t, "Case #%" G_GINT64_FORMAT ": writing the packet...",
		       (gint64)c->id);
	dc_tui_redraw(t);
	if (!t->store || !t->mail)
		dc_tui_error(t, "Case #%" G_GINT64_FORMAT ": no packet: the "
				"case store or the mail index is not open",
			     (gint64)c->id);
	else if (dc_packet_write(t->store, t->mail, &o, &n, &err) != DC_OK)
		failed(t, c, &err);
	else
		written_message(t, c, &o, dir, n);
	dc_error_clear(&err);
	g_free(full);
	g_free(dir);
}

void
dc_case_packet(dc_tui_t *t, const char *arg)
{
	dc_case_t *c = dc_case_current(t, "No thread here: P writes the "
					  "packet of the thread's case");

	if (c)
		packet(t, c, arg);
	dc_case_free(c);
}
