// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The case panel, beside or under the list and the thread: the case of the
 * current thread as core derives it (kind, state and where it may go,
 * outcomes, people, conflicts, votes, notes, history) and the replies that
 * joined the thread after the case was opened.  The case operations a
 * maintainer needs from the keyboard (state, outcome, note, convert) are
 * here too: they act on the case this panel shows, through core.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/mail/anchor.h"
#include "core/docs/doclink.h"
#include "core/case/access.h"
#include "core/case/case.h"
#include "core/case/category.h"
#include "core/mail/mirror.h"
#include "core/case/people.h"
#include "core/case/outcome.h"
#include "core/base/sanitize.h"
#include "core/case/vote.h"
#include "tui/draw.h"
#include "tui/tui.h"

typedef struct line {
	dc_role_t role;
	char *text;
} line_t;

struct panel {
	char *thread_id; /* what the cache below is about */
	unsigned gen;
	dc_case_t *c;
	GPtrArray *lines;   /* line_t *: everything but the history */
	GPtrArray *history; /* line_t *, oldest first */
	GPtrArray *forms;   /* line_t *: the name forms (add_forms), last */
	char *error;
	char *scrolled_thread; /* the thread top is about */
	int top;	       /* rows scrolled off under the heading */
};

static void
line_free(gpointer p)
{
	line_t *l = p;

	g_free(l->text);
	g_free(l);
}

static void
add(GPtrArray *a, dc_role_t role, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
add(GPtrArray *a, dc_role_t role, const char *fmt, ...)
{
	line_t *l = g_new0(line_t, 1);
	va_list ap;

	va_start(ap, fmt);
	l->text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	l->role = role;
	g_ptr_array_add(a, l);
}

/* head and text, one line each of text's lines (a note written in
 * $EDITOR has several), the later ones indented as wrapped lines are;
 * each is sanitized when drawn, as every line is. */
static void
add_text(GPtrArray *a, dc_role_t role, const char *head, const char *text)
{
	char **lines = g_strsplit(text ? text : "", "\n", -1);
	int i, n = g_strv_length(lines);

	/* Trailing blank lines (and the \r of CRLF) say nothing. */
	for (i = 0; i < n; i++)
		if (g_str_has_suffix(lines[i], "\r"))
			lines[i][strlen(lines[i]) - 1] = '\0';
	while (n > 1 && !*g_strchomp(lines[n - 1]))
		n--;
	add(a, role, "%s%s", head, n ? lines[0] : "");
	for (i = 1; i < n; i++)
		add(a, role, "  %s", lines[i]);
	g_strfreev(lines);
}

static void
panel_clear(struct panel *p)
{
	g_clear_pointer(&p->thread_id, g_free);
	g_clear_pointer(&p->error, g_free);
	dc_case_free(p->c);
	p->c = NULL;
	g_clear_pointer(&p->lines, g_ptr_array_unref);
	g_clear_pointer(&p->history, g_ptr_array_unref);
	g_clear_pointer(&p->forms, g_ptr_array_unref);
}

static char *
when(int64_t t)
{
	GDateTime *d = g_date_time_new_from_unix_local(t);
	char *s = d ? g_date_time_format(d, "%Y-%m-%d %H:%M") : g_strdup("?");

	if (d)
		g_date_time_unref(d);
	return s;
}

static char *
day(int64_t t)
{
	GDateTime *d = g_date_time_new_from_unix_local(t);
	char *s = d ? g_date_time_format(d, "%Y-%m-%d") : g_strdup("?");

	if (d)
		g_date_time_unref(d);
	return s;
}

static void
add_outcomes(GPtrArray *a, const dc_case_t *c)
{
	guint i;

	if (!c->outcomes->len)
		add(a, DC_ROLE_NORMAL, "Outcome: none yet");
	for (i = 0; i < c->outcomes->len; i++) {
		const dc_outcome_t *o = c->outcomes->pdata[i];
		GString *s = g_string_new(dc_outcome_label(o->kind));

		if (o->kind == DC_OUTCOME_ADMONITION)
			g_string_append(s, o->public_ ? " (on the list)" :
							" (private)");
		if (o->kind == DC_OUTCOME_MEASURE) {
			char *from = day(o->from), *until = day(o->until);

			g_string_append_printf(s, ": %s%s%s, %s to %s",
					       o->what ? o->what : "?",
					       o->scope ? " in " : "",
					       o->scope ? o->scope : "", from,
					       until);
			if (o->until_release)
				g_string_append_printf(s, " (until %s)",
						       o->until_release);
			g_free(from);
			g_free(until);
		}
		if (o->edited_at)
			g_string_append(s, " (edited)");
		g_string_prepend(s, i ? "         " : "Outcome: ");
		if (o->note && *o->note) {
			g_string_append(s, " - ");
			add_text(a, DC_ROLE_NORMAL, s->str, o->note);
		} else {
			add(a, DC_ROLE_NORMAL, "%s", s->str);
		}
		g_string_free(s, TRUE);
	}
}

static void
add_people(GPtrArray *a, const dc_case_t *c)
{
	static const char *const roles[] = { "reporter", "respondent",
					     "witness", "handler" };
	GString *s = g_string_new(NULL), *names = g_string_new(NULL);
	guint i, r;

	for (r = 0; r < G_N_ELEMENTS(roles); r++) {
		g_string_truncate(names, 0);
		for (i = 0; i < c->participants->len; i++) {
			const dc_participant_t *p = c->participants->pdata[i];

			if (!strcmp(p->role, roles[r]) && p->name)
				g_string_append_printf(names, "%s%s <%s>",
						       names->len ? ", " : "",
						       p->name, p->address);
			else if (!strcmp(p->role, roles[r]))
				g_string_append_printf(names, "%s%s",
						       names->len ? ", " : "",
						       p->address);
		}
		if (names->len)
			g_string_append_printf(s, "%s%s %s",
					       s->len ? "; " : "", roles[r],
					       names->str);
	}
	g_string_free(names, TRUE);
	if (s->len)
		add(a, DC_ROLE_NORMAL, "People: %s", s->str);
	g_string_truncate(s, 0);
	for (i = 0; i < c->conflicts->len; i++) {
		const dc_conflict_t *x = c->conflicts->pdata[i];

		g_string_append_printf(s, "%s%s (%s)", s->len ? ", " : "",
				       x->address,
				       x->recused ? "recused" : "conflict");
	}
	if (s->len)
		add(a, DC_ROLE_NORMAL, "Conflicts: %s", s->str);
	g_string_free(s, TRUE);
}

/* forms as "name, mail headers: A, B; word of a name: C, D": each kind
 * and source once, its forms in their order. */
static GString *
form_groups(const GPtrArray *forms)
{
	GPtrArray *keys = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *texts = g_ptr_array_new();
	GString *out = g_string_new(NULL);
	guint k, j;

	for (k = 0; k < forms->len; k++) {
		const dc_form_t *f = forms->pdata[k];
		const char *rule = dc_form_rule(f);
		char *key = g_strdup_printf("%s%s%s%s%s",
					    dc_form_kind_name(f->kind),
					    f->source ? ", " : "",
					    f->source ? f->source : "",
					    rule ? ", " : "", rule ? rule : "");

		for (j = 0; j < keys->len && strcmp(keys->pdata[j], key); j++)
			;
		if (j == keys->len) {
			g_ptr_array_add(keys, key);
			g_ptr_array_add(texts, g_string_new(NULL));
		} else {
			g_free(key);
		}
		g_string_append_printf(texts->pdata[j], "%s%s",
				       ((GString *)texts->pdata[j])->len ?
					       ", " :
					       "",
				       f->text);
	}
	for (j = 0; j < keys->len; j++) {
		g_string_append_printf(out, "%s%s: %s", j ? "; " : "",
				       (char *)keys->pdata[j],
				       ((GString *)texts->pdata[j])->str);
		g_string_free(texts->pdata[j], TRUE);
	}
	g_ptr_array_unref(texts);
	g_ptr_array_unref(keys);
	return out;
}

/*
 * Every form of each person that the scan and the redaction look for,
 * with where it came from (dc_case_forms, dc_identity_forms): a
 * committee member sees what an export will replace.  Built with the
 * rest of the panel, not when first scrolled to: the panel's height
 * under the list and its scroll hint count these rows.  Reading the
 * case's mail for them is what costs; core keeps the answer until the
 * case, the members or the mail change (core/case/people.h).
 */
static void
add_forms(GPtrArray *a, dc_tui_t *t, const dc_case_t *c)
{
	dc_identity_set_t *set = NULL;
	int guessed = 0;
	guint i;

	if (!t->store ||
	    dc_case_forms(t->store, t->mail, c, &set, &guessed, NULL) != DC_OK)
		return;
	if (dc_identity_count(set))
		add(a, DC_ROLE_NORMAL, "Name forms (what redaction replaces):");
	for (i = 0; i < dc_identity_count(set); i++) {
		const dc_identity_t *id = dc_identity_get(set, i);
		GPtrArray *forms = dc_identity_forms(id);
		GString *s = form_groups(forms);

		add(a, DC_ROLE_NORMAL, "  %s%s: %s", id->label,
		    i == 0 && guessed ? " (guessed: the first sender)" : "",
		    s->str);
		g_string_free(s, TRUE);
		g_ptr_array_unref(forms);
	}
	dc_identity_set_free(set);
}

static void
add_votes(GPtrArray *a, dc_tui_t *t, const dc_case_t *c)
{
	const char *name = dc_config_get(t->cfg, "tab", "overturn_rule");
	dc_vote_rule_t rule = DC_RULE_VOTES_CAST;
	dc_question_t q;
	GString *s;
	dc_tally_t tl;
	int members = 0;
	guint i;

	if (!c->votes->len)
		return;
	if (name && dc_vote_rule_parse(name, &rule, NULL) != DC_OK)
		rule = DC_RULE_VOTES_CAST;
	dc_member_count_active(t->store, "tab", dc_tui_now(t), &members,
			       NULL);
	for (q = DC_QUESTION_OVERTURN; q < DC_QUESTION_COUNT; q++) {
		int legacy = 0;

		if (!dc_case_has_question(c, q))
			continue;
		dc_case_tally_on(c, q, members, rule, &tl);
		add(a, DC_ROLE_NORMAL, "Question (%s): %s", dc_question_name(q),
		    dc_question_text(q));
		add(a, DC_ROLE_NORMAL, "  Source: %s", dc_question_source(q));
		add(a, DC_ROLE_NORMAL, "  Rule: %s", dc_vote_rule_text(rule));
		s = g_string_new(NULL);
		for (i = 0; i < c->votes->len; i++) {
			const dc_vote_t *v = c->votes->pdata[i];

			if ((v->question == DC_QUESTION_APPROVE) !=
			    (q == DC_QUESTION_APPROVE))
				continue;
			legacy |= v->question == DC_QUESTION_LEGACY;
			g_string_append_printf(s, "%s%s %s%s",
					       s->len ? ", " : "", v->member,
					       dc_vote_choice_name(v->choice),
					       v->question == DC_QUESTION_LEGACY
						       ? "*"
						       : "");
		}
		add(a, DC_ROLE_NORMAL, "  Votes: %s", s->str);
		if (legacy)
			add(a, DC_ROLE_NORMAL,
			    "  * recorded without a question: read as a vote "
			    "to overturn");
		add(a, tl.result == DC_RESULT_PENDING ? DC_ROLE_PENDING
						       : DC_ROLE_NORMAL,
		    "  Tally: %d for, %d against, %d abstain, %d recused: "
		    "%s; result: %s",
		    tl.n_for, tl.n_against, tl.n_abstain, tl.n_recused, tl.why,
		    dc_result_name(tl.result));
		g_string_free(s, TRUE);
	}
}

/* Replies that joined the threads after the case was opened, as the case
 * workflow finds them (messages of its threads it does not cover), with
 * who sent them and when. */
static void
add_late(GPtrArray *a, dc_tui_t *t, const dc_case_t *c)
{
	GPtrArray *late = NULL;
	dc_error_t err = { 0 };
	dc_thread_t *th = NULL;
	guint i, j;

	if (dc_case_late_replies(t->store, &t->mail_opts, c->id, &late,
				 &err) != DC_OK) {
		add(a, DC_ROLE_ERROR, "New replies since opened: unknown (%s)",
		    err.msg);
		return;
	}
	add(a, late->len ? DC_ROLE_PENDING : DC_ROLE_NORMAL,
	    "New replies since opened: %u", late->len);
	if (late->len && c->threads->len)
		dc_mail_thread(t->mail, c->threads->pdata[0], 0, &th, NULL);
	for (i = 0; i < late->len; i++) {
		const dc_message_t *m = NULL;
		char *at;

		for (j = 0; th && j < th->messages->len; j++) {
			const dc_message_t *x = th->messages->pdata[j];

			if (!strcmp(x->message_id, late->pdata[i]))
				m = x;
		}
		if (!m) {
			add(a, DC_ROLE_PENDING, "  + <%s>",
			    (char *)late->pdata[i]);
			continue;
		}
		at = when(m->date);
		add(a, DC_ROLE_PENDING, "  + %s %s <%s>", at,
		    m->from ? m->from : "?", m->message_id);
		g_free(at);
	}
	dc_thread_free(th);
	g_ptr_array_unref(late);
}

/* The case's other mail: the threads attached to it besides this one,
 * and single messages, each by its first Message-ID. */
static void
add_mail(GPtrArray *a, const dc_case_t *c, const char *thread_id)
{
	GPtrArray *seen = g_ptr_array_new();
	guint i;

	for (i = 0; i < c->mail->len; i++) {
		const dc_store_mail_t *m = c->mail->pdata[i];
		int single = !g_strcmp0(m->scope, "message");

		if (!single && (!g_strcmp0(m->thread_id, thread_id) ||
				(m->thread_id &&
				 g_ptr_array_find_with_equal_func(
					 seen, m->thread_id, g_str_equal,
					 NULL))))
			continue;
		if (!single && m->thread_id)
			g_ptr_array_add(seen, m->thread_id);
		if (!g_strcmp0(m->role, "report") &&
		    g_strcmp0(m->thread_id, thread_id))
			add(a, DC_ROLE_NORMAL, "Report: <%s>%s%s%s",
			    m->message_id, dc_mail_absent(m) ? " (" : "",
			    dc_mail_absent(m) ? dc_mail_absent(m) : "",
			    dc_mail_absent(m) ? ")" : "");
		else
			add(a, DC_ROLE_NORMAL, "%s <%s>%s%s%s",
			    single ? "Message:" : "Thread: ", m->message_id,
			    dc_mail_absent(m) ? " (" : "",
			    dc_mail_absent(m) ? dc_mail_absent(m) : "",
			    dc_mail_absent(m) ? ")" : "");
	}
	g_ptr_array_unref(seen);
}

/* A history line without the id of the thread the panel is about
 * ("opened as escalation thread:..."). */
static char *
summary(const dc_case_t *c, const char *thread_id, const dc_history_t *h)
{
	char *s = g_strdup(h->summary ? h->summary : h->type);
	char *tails[2] = { g_strconcat(" thread:", thread_id, NULL), NULL };
	guint i;
	int k;

	/* The panel is of this thread: saying so again is noise. */
	for (i = 0; i < c->mail->len && !tails[1]; i++) {
		const dc_store_mail_t *m = c->mail->pdata[i];

		if (!g_strcmp0(m->role, "report"))
			tails[1] = g_strconcat(" <", m->message_id, ">", NULL);
	}
	for (k = 0; k < 2; k++) {
		if (tails[k] && g_str_has_suffix(s, tails[k]))
			s[strlen(s) - strlen(tails[k])] = '\0';
		g_free(tails[k]);
	}
	return s;
}

static void
build(struct panel *p, dc_tui_t *t)
{
	const dc_case_t *c = p->c;
	char *at = when(c->created_at), *rep = day(c->reported_at);
	guint i;

	p->lines = g_ptr_array_new_with_free_func(line_free);
	p->history = g_ptr_array_new_with_free_func(line_free);
	p->forms = g_ptr_array_new_with_free_func(line_free);
	/* After the history: long, and looked up before an export rather
	 * than every day. */
	add_forms(p->forms, t, c);
	/* One fact a line: the panel is narrow, and a wrapped line would
	 * run one fact into the next. */
	add(p->lines, DC_ROLE_NORMAL, "Opened: %s by %s", at,
	    c->opened_by ? c->opened_by : "?");
	add(p->lines, DC_ROLE_NORMAL, "Reported: %s", rep);
	if (c->converted)
		add(p->lines, DC_ROLE_NORMAL,
		    "Converted from a TAB consultation");
	g_free(at);
	g_free(rep);
	/* The rule that governs this kind of case, one key away (D). */
	add(p->lines, DC_ROLE_NORMAL, "Guide: %s", dc_doclink_url(c->kind));
	if (c->withdrawn)
		add(p->lines, DC_ROLE_ERROR,
		    "Withdrawn: the event that opened it was undone");
	if (!strcmp(c->state, "closed"))
		add(p->lines, DC_ROLE_ERROR,
		    "Closed: a, e or t asks to reopen it or open a new case");
	add_mail(p->lines, c, p->thread_id);
	add_outcomes(p->lines, c);
	add(p->lines, DC_ROLE_NORMAL, "Category: %s",
	    c->category ? c->category : "none yet (T sets one)");
	add_late(p->lines, t, c);
	add_people(p->lines, c);
	add_votes(p->lines, t, c);
	for (i = 0; i < c->notes->len; i++) {
		const dc_note_t *n = c->notes->pdata[i];
		char *d = when(n->at);
		char *head = g_strdup_printf("Note %s (%s): ", d,
					     n->actor ? n->actor : "?");

		add_text(p->lines, DC_ROLE_NORMAL, head, n->text);
		g_free(head);
		g_free(d);
	}
	for (i = 0; i < c->history->len; i++) {
		const dc_history_t *h = c->history->pdata[i];
		char *d = when(h->at), *sum = summary(p->c, p->thread_id, h);

		add(p->history, h->undone_by ? DC_ROLE_QUOTE : DC_ROLE_DATE,
		    "%s %s: %s%s", d, h->actor ? h->actor : "?", sum,
		    h->undone_by ? " (undone)" : "");
		g_free(sum);
		g_free(d);
	}
}

static void
panel_load(struct panel *p, dc_tui_t *t, const char *thread_id)
{
	dc_error_t err = { 0 };

	if (p->thread_id && !strcmp(p->thread_id, thread_id) &&
	    p->gen == t->generation)
		return;
	panel_clear(p);
	p->thread_id = g_strdup(thread_id);
	p->gen = t->generation;
	if (!t->store)
		return;
	if (dc_case_for_thread(t->store, thread_id, &p->c, &err) != DC_OK) {
		p->error = g_strdup(err.msg);
		return;
	}
	if (p->c)
		build(p, t);
}

static dc_role_t
kind_role(dc_kind_t k)
{
	return k == DC_KIND_ADMONITION ? DC_ROLE_ADMONITION :
	       k == DC_KIND_ESCALATION ? DC_ROLE_ESCALATION :
					 DC_ROLE_TAB;
}

static void
draw_none(struct panel *p, dc_screen_t *s, int y, int x, int w)
{
	char *keys[3] = { dc_keymap_keys(ACT_ADMONITION),
			  dc_keymap_keys(ACT_ESCALATION),
			  dc_keymap_keys(ACT_TAB) };
	int i;

	dc_draw_text(s, y++, x, w, "No case for this thread", DC_ROLE_STATUS);
	if (p->error)
		dc_draw_text(s, y, x, w, p->error, DC_ROLE_ERROR);
	else
		dc_draw_printf(s, y, x, w, DC_ROLE_NORMAL,
			       "%s admonition  %s escalation  %s TAB "
			       "consultation",
			       keys[0], keys[1], keys[2]);
	for (i = 0; i < 3; i++)
		g_free(keys[i]);
}

/* One row of the panel as drawn: a line or a piece of a wrapped one. */
typedef struct row {
	dc_role_t role;
	int indent;
	char *text;
} row_t;

static void
row_free(gpointer p)
{
	row_t *r = p;

	g_free(r->text);
	g_free(r);
}

static void
add_row(GPtrArray *rows, dc_role_t role, int indent, const char *text)
{
	row_t *r = g_new0(row_t, 1);

	r->role = role;
	r->indent = indent;
	r->text = g_strdup(text);
	g_ptr_array_add(rows, r);
}

/* A line as rows: one, cut when drawn, or wrapped at wrap columns (0:
 * cut) with the rest indented. */
static void
line_rows(GPtrArray *rows, const line_t *l, int wrap)
{
	char *san;
	const char *q;

	if (!wrap || dc_display_width(l->text) <= wrap) {
		add_row(rows, l->role, 0, l->text);
		return;
	}
	san = dc_sanitize_line(l->text);
	for (q = san; *q;) {
		int ind = q == san ? 0 : 2;
		size_t n = dc_prefix_for_width(q, wrap - ind), sp;
		char *piece;

		if (!n)
			n = g_utf8_next_char(q) - q;
		/* Between words when there is a space to break at. */
		for (sp = n; q[n] && sp > 0 && q[sp - 1] != ' '; sp--)
			;
		if (q[n] && sp > 0)
			n = sp;
		piece = g_strndup(q, n);
		add_row(rows, l->role, ind, piece);
		g_free(piece);
		q += n;
	}
	g_free(san);
}

/* Everything under the panel's heading, as rows. */
static GPtrArray *
panel_rows(struct panel *p, int wrap)
{
	GPtrArray *rows = g_ptr_array_new_with_free_func(row_free);
	const char *next = dc_case_next_states(p->c->state);
	guint i;

	if (wrap && *next) {
		line_t l = { DC_ROLE_NORMAL, g_strdup_printf("Next: %s", next) };

		line_rows(rows, &l, wrap);
		g_free(l.text);
	}
	for (i = 0; i < p->lines->len; i++)
		line_rows(rows, p->lines->pdata[i], wrap);
	/* The history, newest last. */
	for (i = 0; i < p->history->len; i++)
		line_rows(rows, p->history->pdata[i], wrap);
	for (i = 0; i < p->forms->len; i++)
		line_rows(rows, p->forms->pdata[i], wrap);
	return rows;
}

/* " 3-9/20 J/K " for the right of the heading when the rows do not fit
 * (g_free), or NULL; without the keys (" 3-9/20 ") when keys is 0. */
static char *
scroll_hint(int first, int shown, int n, int keys)
{
	char *down, *up, *sp, *hint;

	if (n <= shown || shown <= 0)
		return NULL;
	if (!keys)
		return g_strdup_printf(" %d-%d/%d ", first + 1, first + shown,
				       n);
	down = dc_keymap_keys(ACT_PANEL_DOWN);
	up = dc_keymap_keys(ACT_PANEL_UP);
	if ((sp = strchr(down, ' ')))
		*sp = '\0';
	if ((sp = strchr(up, ' ')))
		*sp = '\0';
	hint = g_strdup_printf(" %d-%d/%d %s%s%s ", first + 1, first + shown, n,
			       down, *down && *up ? "/" : "", up);
	g_free(down);
	g_free(up);
	return hint;
}

static void
panel_draw(dc_view_t *v, dc_tui_t *t, dc_rect_t r)
{
	struct panel *p = v->priv;
	dc_view_t *top = t->views->pdata[t->views->len - 1];
	dc_screen_t *s = t->scr;
	dc_thread_ref_t ref;
	int x = r.x, w = r.w, y = r.y, end = r.y + r.h, i, wrap, h, n, right;
	int keys;
	const char *next;
	GPtrArray *rows;
	char *hint, *head;

	if (!top->ops->current || !top->ops->current(top, t, &ref))
		return;
	panel_load(p, t, ref.thread_id);
	if (g_strcmp0(p->scrolled_thread, ref.thread_id)) {
		g_free(p->scrolled_thread);
		p->scrolled_thread = g_strdup(ref.thread_id);
		p->top = 0;
	}
	if (r.x > 0) {
		for (i = 0; i < r.h; i++)
			dc_draw_text(s, r.y + i, r.x, 1, "│", DC_ROLE_GROUP);
		x += 2;
		w -= 2;
	}
	dc_draw_fill(s, y, x, w, DC_ROLE_STATUS);
	v->page = 0;
	if (!p->c) {
		draw_none(p, s, y, x, w);
		return;
	}
	/* Beside the list there is height to spare: wrap long lines, and
	 * the states the case may go to get their own.  Under the heading
	 * the rest scrolls (J, K), inside the panel's rectangle: never over
	 * the view or the status bar. */
	wrap = r.x > 0 && r.w > 12 ? r.w - 2 : 0;
	rows = panel_rows(p, wrap);
	n = rows->len;
	h = end - y - 1;
	v->page = h;
	if (p->top > n - h)
		p->top = n - h;
	if (p->top < 0)
		p->top = 0;
	next = dc_case_next_states(p->c->state);
	head = g_strdup_printf("Case #%" G_GINT64_FORMAT " %s  state: %s",
			       (gint64)p->c->id, dc_kind_label(p->c->kind),
			       p->c->state);
	/* The scroll hint gives way to the heading: its keys go before
	 * the state is cut (the states it may go to may be cut). */
	for (keys = 1; keys >= 0; keys--) {
		int hw;

		hint = scroll_hint(p->top, h, n, keys);
		if (!hint)
			break;
		hw = dc_display_width(hint);
		if (hw < w / 2 &&
		    (dc_display_width(head) + hw <= w || !keys)) {
			dc_draw_text(s, y, r.x + r.w - hw, hw, hint,
				     DC_ROLE_STATUS);
			w -= hw;
			g_free(hint);
			break;
		}
		g_free(hint);
	}
	g_free(head);
	right = x + w;
	x += dc_draw_printf(s, y, x, w, DC_ROLE_STATUS, "Case #%" G_GINT64_FORMAT
			    " ", (gint64)p->c->id);
	x += dc_draw_text(s, y, x, right - x, dc_kind_label(p->c->kind),
			  kind_role(p->c->kind));
	dc_draw_printf(s, y++, x, right - x, DC_ROLE_STATUS,
		       "  state: %s%s%s%s", p->c->state,
		       *next && !wrap ? " (next: " : "", wrap ? "" : next,
		       *next && !wrap ? ")" : "");
	x = r.x + (r.x > 0 ? 2 : 0);
	w = r.x + r.w - x;
	for (i = 0; i < h && p->top + i < n; i++) {
		const row_t *rw = rows->pdata[p->top + i];

		dc_draw_text(s, y + i, x + rw->indent, w - rw->indent, rw->text,
			     rw->role);
	}
	g_ptr_array_unref(rows);
}

int
dc_view_case_lines(dc_view_t *v, dc_tui_t *t, const char *thread_id)
{
	struct panel *p = v->priv;

	panel_load(p, t, thread_id);
	if (!p->c)
		return 2;
	return 1 + (int)p->lines->len + (int)p->history->len +
	       (int)p->forms->len;
}

/* J, K: a page of the panel (one row less, to keep one's place). */
static int
panel_request(dc_view_t *v, dc_tui_t *t, dc_action_t a, const char *arg)
{
	struct panel *p = v->priv;
	int page = v->page > 2 ? v->page - 1 : 1;

	if (a != ACT_PANEL_DOWN && a != ACT_PANEL_UP)
		return 0;
	if (!t->show_panel) {
		char *keys = dc_keymap_keys(ACT_TOGGLE_CASE);

		dc_tui_message(t, "The case panel is hidden (%s shows it)",
			       keys);
		g_free(keys);
		return 1;
	}
	p->top += a == ACT_PANEL_DOWN ? page : -page;
	if (p->top < 0)
		p->top = 0;
	/* Drawing keeps it within the rows. */
	return 1;
}

static void
panel_title(dc_view_t *v, dc_tui_t *t, GString *out)
{
	g_string_append(out, "Case");
}

static void
panel_done(dc_view_t *v)
{
	struct panel *p = v->priv;

	panel_clear(p);
	g_free(p->scrolled_thread);
	g_free(p);
}

static const dc_view_ops_t case_ops = {
	.name = "case",
	.title = panel_title,
	.draw = panel_draw,
	.request = panel_request,
	.done = panel_done,
};

dc_view_t *
dc_view_case_new(dc_tui_t *t)
{
	return dc_view_new(&case_ops, g_new0(struct panel, 1));
}

/* ---- case operations ---------------------------------------------------- */

/* Ask for a line unless the command line gave one; 0 if cancelled. */
static int
ask_with(dc_tui_t *t, const char *arg, const char *label,
	 const dc_prompt_opts_t *o, char **out)
{
	if (dc_ask(t, arg, label, o, out)) {
		g_strstrip(*out);
		return 1;
	}
	if (!arg)
		dc_tui_message(t, "Cancelled: nothing was changed");
	return 0;
}

static int
ask(dc_tui_t *t, const char *arg, const char *label, int editor, char **out)
{
	dc_prompt_opts_t o = { .editor = editor };

	return ask_with(t, arg, label, &o, out);
}

/* A word from choices (NULL-terminated): Tab completes it, a unique
 * prefix will do. */
static int
ask_word(dc_tui_t *t, const char *arg, const char *label,
	 const char *const *choices, int more_words, char **out)
{
	dc_prompt_opts_t o = { .choices = choices, .more_words = more_words };

	return ask_with(t, arg, label, &o, out);
}

static void
done(dc_tui_t *t, const dc_case_t *c, dc_status_t st, dc_error_t *err,
     const char *what)
{
	if (st != DC_OK) {
		dc_tui_error(t, "Case #%" G_GINT64_FORMAT ": not changed: %s",
			     (gint64)c->id, err->msg);
		return;
	}
	dc_tui_case_changed(t, c->id);
	dc_tui_message(t, "Case #%" G_GINT64_FORMAT ": %s", (gint64)c->id,
		       what);
}

static void
act_state(dc_tui_t *t, dc_case_t *c, const char *arg)
{
	const char *next = dc_case_next_states(c->state);
	dc_error_t err = { 0 };
	char *label, *to = NULL, *what, **choices, *tmp;

	if (!*next) {
		dc_tui_error(t, "Case #%" G_GINT64_FORMAT " is %s: it can go "
				"nowhere from there",
			     (gint64)c->id, c->state);
		return;
	}
	label = g_strdup_printf("Case #%" G_GINT64_FORMAT " is %s; new state "
				"(%s; Esc: cancel): ",
				(gint64)c->id, c->state, next);
	/* "reopen" is what core takes for investigating from closed. */
	tmp = g_strconcat(next, !strcmp(c->state, "closed") ? ", reopen" : "",
			  NULL);
	choices = g_strsplit(tmp, ", ", -1);
	g_free(tmp);
	if (ask_word(t, arg, label, (const char *const *)choices, 0, &to) &&
	    *to) {
		what = g_strdup_printf("state set to %s", to);
		done(t, c,
		     dc_case_set_state(t->store, c->id, to, NULL, t->actor,
				       dc_tui_now(t), &err),
		     &err, what);
		g_free(what);
	}
	g_strfreev(choices);
	g_free(to);
	g_free(label);
}

/* o: an outcome from the ladder.  A measure's end (a date, a release or
 * a number of release cycles from now) is checked at Enter, so that a
 * refused value stays in the prompt, and so does the measure typed
 * before it. */
static void
act_outcome(dc_tui_t *t, dc_case_t *c, const char *arg)
{
	dc_outcome_t o = { 0 };
	dc_error_t err = { 0 };
	dc_status_t st;
	char *kind = NULL, *what = NULL, *scope = NULL, *until = NULL;
	char *note = NULL, **words = NULL;
	const char *names[DC_OUTCOME_COUNT + 1] = { NULL };
	dc_until_answer_t u = { dc_tui_now(t), 0, NULL };
	dc_prompt_opts_t ask_until = { .check = dc_prompt_check_until,
				       .data = &u };
	int i;

	for (i = 0; i < DC_OUTCOME_COUNT; i++)
		names[i] = dc_outcome_name(i);
	if (!ask_word(t, arg,
		      "Outcome (no-action, admonition [public], coaching, "
		      "amend, apology, measure, tab-referral; Esc: cancel): ",
		      names, 1, &kind) ||
	    !*kind)
		goto out;
	words = g_strsplit(kind, " ", 2);
	if (dc_outcome_parse(words[0], &o.kind, &err) != DC_OK) {
		dc_tui_error(t, "%s", err.msg);
		goto out;
	}
	/* "public", or a prefix of it as for the first word. */
	o.public_ = words[1] && *g_strstrip(words[1]) &&
		    g_str_has_prefix("public", words[1]);
	if (o.kind == DC_OUTCOME_MEASURE &&
	    (!ask(t, NULL, "Measure (e.g. patches not accepted): ", 0,
		  &what) ||
	     !ask(t, NULL, "In (subsystem or list; Enter: everywhere): ", 0,
		  &scope) ||
	     !ask_with(t, NULL,
		       "Until (YYYY-MM-DD, a release like v7.2, or N "
		       "cycles): ",
		       &ask_until, &until)))
		goto out;
	/* Asked from the command line too: typed on, the note's letters
	 * would otherwise run as keys. */
	if (!ask(t, NULL, "Note (Enter: none, C-X: editor, Esc: cancel): ", 1,
		 &note))
		goto out;
	o.what = what;
	o.scope = scope && *scope ? scope : NULL;
	o.until = u.until;
	o.until_release = u.release;
	o.note = *note ? note : NULL;
	st = dc_case_outcome(t->store, c->id, &o, t->actor, dc_tui_now(t),
			     &err);
	done(t, c, st, &err, dc_outcome_label(o.kind));
out:
	g_strfreev(words);
	g_free(kind);
	g_free(what);
	g_free(scope);
	g_free(until);
	g_free(note);
	g_free(u.release);
}

/* The choice is from the configured list, by number or by its words
 * (a unique prefix will do); core refuses anything else. */
static void
act_category(dc_tui_t *t, dc_case_t *c, const char *arg)
{
	char **list = dc_category_list(NULL);
	dc_error_t err = { 0 };
	const char *hit;
	GString *label = g_string_new(NULL);
	char *text = NULL, *end, *what;
	long n;
	int i;

	g_string_printf(label, "Case #%" G_GINT64_FORMAT " category (",
			(gint64)c->id);
	for (i = 0; list[i]; i++)
		g_string_append_printf(label, "%s%d %s", i ? "; " : "", i + 1,
				       list[i]);
	g_string_append(label, "; Esc: cancel): ");
	if (!ask(t, arg, label->str, 0, &text) || !*text)
		goto out;
	n = strtol(text, &end, 10);
	hit = NULL;
	for (i = 0; !*end && n > 0 && list[i]; i++)
		if (i + 1 == n)
			hit = list[i];
	if (!hit)
		hit = text;
	what = g_strdup_printf("category set to %s",
			       dc_category_match(list, hit, NULL) ?
				       dc_category_match(list, hit, NULL) :
				       hit);
	done(t, c,
	     dc_case_category(t->store, c->id, hit, t->actor, dc_tui_now(t),
			      &err),
	     &err, what);
	g_free(what);
out:
	g_string_free(label, TRUE);
	g_free(text);
	g_strfreev(list);
}

static void
act_note(dc_tui_t *t, dc_case_t *c, const char *arg)
{
	dc_error_t err = { 0 };
	char *note = NULL;

	if (ask(t, arg, "Note (C-X: editor, Esc: cancel): ", 1, &note) &&
	    *note)
		done(t, c,
		     dc_case_note(t->store, c->id, note, t->actor,
				  dc_tui_now(t), &err),
		     &err, "note added");
	g_free(note);
}

static void
act_convert(dc_tui_t *t, dc_case_t *c, const char *arg)
{
	static const char *const reports[] = { "admonition", "escalation",
					       NULL };
	dc_error_t err = { 0 };
	char *name = NULL, *q;
	dc_kind_t k;

	if (c->kind != DC_KIND_TAB) {
		dc_tui_error(t, "Case #%" G_GINT64_FORMAT " is an %s, not a "
				"TAB consultation: nothing to convert",
			     (gint64)c->id, dc_kind_name(c->kind));
		return;
	}
	if (!ask_word(t, arg,
		      "Convert into (admonition, escalation; Esc: cancel): ",
		      reports, 0, &name) ||
	    !*name)
		goto out;
	if (dc_kind_parse(name, &k, &err) != DC_OK) {
		dc_tui_error(t, "%s", err.msg);
		goto out;
	}
	q = g_strdup_printf("Convert case #%" G_GINT64_FORMAT " into an %s? "
			    "It then counts as a violation report (y/n) ",
			    (gint64)c->id, dc_kind_name(k));
	if (dc_confirm(t, q))
		done(t, c,
		     dc_case_convert(t->store, c->id, k, NULL, t->actor,
				     dc_tui_now(t), &err),
		     &err, "converted into a report");
	else
		dc_tui_message(t, "Not converted");
	g_free(q);
out:
	g_free(name);
}

void
dc_view_case_act(dc_tui_t *t, dc_action_t a, const char *arg)
{
	dc_case_t *c = dc_case_current(t, "No thread here");

	if (!c)
		return;
	switch (a) {
	case ACT_STATE: act_state(t, c, arg); break;
	case ACT_OUTCOME: act_outcome(t, c, arg); break;
	case ACT_CATEGORY: act_category(t, c, arg); break;
	case ACT_NOTE: act_note(t, c, arg); break;
	case ACT_CONVERT: act_convert(t, c, arg); break;
	default: break;
	}
	dc_case_free(c);
}
