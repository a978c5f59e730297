// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The report preview, in a pager: the committee's own report with its
 * statistics (decorum report) or, after f, the form the committee
 * publishes (decorum report --publish, committee only).  The text comes
 * from core (dc_report_text() or dc_report_publish()) exactly as the
 * command line writes it, so what is previewed is what w writes.  p
 * switches between the week and the quarter (or ":period FROM..TO").
 *
 * Both forms are anonymised like the command line's: when the identity
 * scan finds a participant of one of the cases, nothing of the report
 * is shown and w refuses, with a message naming the case, the line and
 * whose name or address it is, never the name or address itself.
 */
#include <string.h>

#include "core/export/emit.h"
#include "core/privacy/privacy.h"
#include "core/export/report.h"
#include "core/base/safefile.h"
#include "tui/draw.h"
#include "tui/pager.h"
#include "tui/tui.h"

struct report {
	char *spec;	 /* "week", "quarter" or "FROM..TO" */
	int publish;	 /* the published form, not the statistics */
	char *label;	 /* "2026-11-27 through 2026-12-03" */
	char *text;	 /* the report, NULL when refused or failed */
	char **lines;	 /* text split into lines */
	char *refusal;	 /* why there is no text */
	unsigned generation; /* the TUI's, when built */
	dc_pager_t pager;    /* over lines */
};

static void
report_clear(struct report *r)
{
	g_clear_pointer(&r->label, g_free);
	g_clear_pointer(&r->text, g_free);
	g_clear_pointer(&r->lines, g_strfreev);
	g_clear_pointer(&r->refusal, g_free);
	r->pager.nlines = 0;
}

/* Build the text for r->spec; on failure r->refusal says why. */
static void
report_load(struct report *r, dc_tui_t *t)
{
	dc_error_t err = { 0 };
	dc_period_t period;
	dc_status_t st;
	char *text = NULL;

	report_clear(r);
	r->generation = t->generation;
	if (dc_period_parse(r->spec, dc_tui_now(t), &period, &err) != DC_OK) {
		r->refusal = g_strdup_printf("No report: %s", err.msg);
		goto out;
	}
	r->label = dc_period_label(&period);
	/* Scanned in core: a refusal names the kind of hit, never the
	 * person, as it may be seen over a shoulder. */
	if (r->publish) {
		dc_publish_opts_t po = { 0 };

		st = dc_report_publish(t->store, t->mail, &period,
				       dc_tui_now(t), &po, &text, &err);
	} else {
		st = dc_report_text(t->store, t->mail, &period, dc_tui_now(t),
				    &dc_emit_text, 0, &text, &err);
	}
	switch (st) {
	case DC_OK:
		break;
	case DC_E_DENIED:
		r->refusal = g_strdup_printf("Refused: %s  Nothing is shown "
					     "or written", err.msg);
		goto out;
	default:
		r->refusal = g_strdup_printf("No report: %s", err.msg);
		goto out;
	}
	g_strchomp(text);
	r->text = text;
	r->lines = g_strsplit(text, "\n", -1);
	r->pager.nlines = (int)g_strv_length(r->lines);
out:
	if (r->pager.top > r->pager.nlines)
		r->pager.top = 0;
	dc_error_clear(&err);
}

/* "Published report: 2026-09-04 through 2026-12-03 (quarter)": which
 * form is shown; the keys are on the hint line (f: form). */
static void
report_title(dc_view_t *v, dc_tui_t *t, GString *out)
{
	struct report *r = v->priv;
	const char *label = r->label ? r->label : r->spec;

	g_string_append_printf(out, "%s: %s",
			       r->publish ? "Published report" : "Statistics",
			       label);
	if (strcmp(label, r->spec))
		g_string_append_printf(out, " (%s)", r->spec);
}

/* A refusal says where and what to do: all of it, wrapped at spaces
 * over as many lines as it needs, not cut at the screen's edge. */
static void
draw_wrapped(dc_tui_t *t, dc_rect_t a, const char *msg)
{
	char **w = g_strsplit(msg, " ", -1);
	GString *line = g_string_new(NULL);
	int y = 0;
	guint i;

	for (i = 0; w[i] && y < a.h; i++) {
		glong n = g_utf8_strlen(line->str, -1);

		if (n && n + 1 + g_utf8_strlen(w[i], -1) > a.w) {
			dc_draw_text(t->scr, a.y + y++, a.x, a.w, line->str,
				     DC_ROLE_ERROR);
			g_string_truncate(line, 0);
		}
		if (line->len)
			g_string_append_c(line, ' ');
		g_string_append(line, w[i]);
	}
	if (line->len && y < a.h)
		dc_draw_text(t->scr, a.y + y, a.x, a.w, line->str,
			     DC_ROLE_ERROR);
	g_string_free(line, TRUE);
	g_strfreev(w);
}

static void
report_draw(dc_view_t *v, dc_tui_t *t, dc_rect_t a)
{
	struct report *r = v->priv;
	int y;

	if (r->generation != t->generation)
		report_load(r, t);
	if (r->refusal) {
		draw_wrapped(t, a, r->refusal);
		return;
	}
	for (y = 0; y < a.h && r->pager.top + y < r->pager.nlines; y++)
		dc_draw_text(t->scr, a.y + y, a.x, a.w,
			     r->lines[r->pager.top + y], DC_ROLE_NORMAL);
}

/* ~/decorum-report-DAY.txt, or ~/decorum-published-DAY.eml: a mail. */
static char *
default_path(struct report *r, dc_tui_t *t)
{
	GDateTime *d = g_date_time_new_from_unix_utc(dc_tui_now(t));
	char *day = d ? g_date_time_format(d, "%Y-%m-%d") : g_strdup("today");
	char *p = g_strdup_printf(r->publish ? "~/decorum-published-%s.eml"
					     : "~/decorum-report-%s.txt",
				  day);

	if (d)
		g_date_time_unref(d);
	g_free(day);
	return p;
}

/* Write the report on screen to a file (0600, never over an existing
 * one): the text core returned after its identity scan, nothing else. */
static void
report_write(struct report *r, dc_tui_t *t, const char *arg)
{
	dc_error_t err = { 0 };
	char *path = NULL, *full, *def;

	if (r->generation != t->generation)
		report_load(r, t);
	if (!r->text) {
		dc_tui_error(t, "%s", r->refusal ? r->refusal : "No report");
		return;
	}
	def = default_path(r, t);
	if (arg) {
		path = g_strdup(arg);
	} else if (!dc_prompt(t, "Write the report to: ", def, 0, &path)) {
		dc_tui_message(t, "Cancelled: nothing was written");
		g_free(def);
		return;
	}
	g_free(def);
	g_strstrip(path);
	if (!*path) {
		dc_tui_message(t, "Cancelled: nothing was written");
		g_free(path);
		return;
	}
	full = dc_expand_home(path);
	{
		char *data = g_strconcat(r->text, "\n", NULL);

		if (dc_file_create(full, data, strlen(data), &err) != DC_OK) {
			char *why = dc_unexpand_home(err.msg);

			dc_tui_error(t, "Report not written: %s", why);
			g_free(why);
		} else {
			dc_tui_message(t, "%s (%s) written to %s",
				       r->publish ? "Published report"
						  : "Report",
				       r->spec, path);
		}
		g_free(data);
	}
	dc_error_clear(&err);
	g_free(full);
	g_free(path);
}

/* p: the week, then the quarter, then the week again; ":period SPEC"
 * for any other days. */
static void
report_period(struct report *r, dc_tui_t *t, const char *arg)
{
	const char *next = arg ? arg :
				 !strcmp(r->spec, "week") ? "quarter" : "week";

	g_free(r->spec);
	r->spec = g_strdup(next);
	r->pager.top = 0;
	report_load(r, t);
	if (r->refusal)
		dc_tui_error(t, "%s", r->refusal);
}

/* f: the published form, then the statistics again; ":form published"
 * or ":form statistics" for one of them. */
static void
report_form(struct report *r, dc_tui_t *t, const char *arg)
{
	if (arg && strcmp(arg, "published") && strcmp(arg, "statistics")) {
		dc_tui_error(t, "Form: published or statistics, not '%s'",
			     arg);
		return;
	}
	r->publish = arg ? !strcmp(arg, "published") : !r->publish;
	r->pager.top = 0;
	report_load(r, t);
	if (r->refusal)
		dc_tui_error(t, "%s", r->refusal);
}

static int
report_request(dc_view_t *v, dc_tui_t *t, dc_action_t a, const char *arg)
{
	struct report *r = v->priv;

	if (dc_pager_scroll(&r->pager, v, a))
		return 1;
	switch (a) {
	case ACT_REPORT: return 1;
	case ACT_PERIOD: report_period(r, t, arg); return 1;
	case ACT_FORM: report_form(r, t, arg); return 1;
	case ACT_WRITE: report_write(r, t, arg); return 1;
	default: return 0;
	}
}

static void
report_position(dc_view_t *v, GString *out)
{
	struct report *r = v->priv;

	dc_pager_position(&r->pager, out);
}

static void
report_done(dc_view_t *v)
{
	struct report *r = v->priv;

	report_clear(r);
	g_free(r->spec);
	g_free(r);
}

static const dc_action_t report_actions[] = {
	DC_MOVE_ACTIONS, ACT_REPORT, ACT_PERIOD, ACT_FORM, ACT_WRITE,
	ACT_NONE,
};

static const dc_view_ops_t report_ops = {
	.name = "report",
	.title = report_title,
	.draw = report_draw,
	.request = report_request,
	.position = report_position,
	.done = report_done,
	.actions = report_actions,
};

dc_view_t *
dc_view_report_new(dc_tui_t *t, const char *period)
{
	struct report *r = g_new0(struct report, 1);

	r->spec = g_strdup(period ? period : "week");
	report_load(r, t);
	if (r->refusal)
		dc_tui_error(t, "%s", r->refusal);
	return dc_view_new(&report_ops, r);
}
