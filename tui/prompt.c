// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The prompt line: notmuch queries (with a history), the ":" command line,
 * notes (short ones inline, long ones in $EDITOR), a word from a list
 * (completed with Tab, taken by a unique prefix) and yes/no questions.  It
 * reads keys the same way the main loop does, so scripts drive it too.
 */
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "core/base/choice.h"
#include "core/base/history.h"
#include "core/case/release.h"
#include "tui/draw.h"
#include "tui/tui.h"

static gsize
prev_char(const char *s, gsize pos)
{
	const char *p;

	if (!pos)
		return 0;
	p = g_utf8_find_prev_char(s, s + pos);
	return p ? (gsize)(p - s) : 0;
}

/* Hand the text to $EDITOR; the prompt keeps what comes back. */
static int
edit_in_editor(dc_tui_t *t, GString *text)
{
	char *path = NULL, *data = NULL;
	int fd, ok = 0;

	fd = g_file_open_tmp("decorum-note-XXXXXX.txt", &path, NULL);
	if (fd < 0)
		return 0;
	if (write(fd, text->str, text->len) == (ssize_t)text->len &&
	    close(fd) == 0 && dc_tui_edit_file(t, path) &&
	    g_file_get_contents(path, &data, NULL, NULL) &&
	    g_utf8_validate(data, -1, NULL)) {
		g_strchomp(data);
		g_string_assign(text, data);
		ok = 1;
	}
	g_unlink(path);
	g_free(path);
	g_free(data);
	return ok;
}

static void
hint(dc_tui_t *t, int error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A line shown above the prompt while it is open (over the status bar, as
 * vim's wildmenu): the names that fit, or why Enter was refused. */
static void
hint(dc_tui_t *t, int error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_string_vprintf(t->prompt_hint, fmt, ap);
	va_end(ap);
	t->prompt_hint_error = error;
}

/* The first word of s: its start (after blanks) and length. */
static const char *
first_word(const char *s, gsize *len)
{
	while (*s == ' ')
		s++;
	*len = strcspn(s, " ");
	return s;
}

static char *
join(GPtrArray *names)
{
	g_ptr_array_add(names, NULL);
	return dc_choice_list((const char *const *)names->pdata, -1);
}

/* How far the names in m (at least one) agree from their start. */
static gsize
common_prefix(const GPtrArray *m)
{
	gsize common = strlen(m->pdata[0]);
	guint i;

	for (i = 1; i < m->len; i++) {
		const char *a = m->pdata[0], *b = m->pdata[i];
		gsize n = 0;

		while (n < common && a[n] == b[n])
			n++;
		common = n;
	}
	return common;
}

/* Tab: complete the first word as far as the names that fit agree. */
static void
complete(dc_tui_t *t, const dc_prompt_opts_t *o)
{
	GString *s = t->prompt_text;
	gsize len, common;
	const char *w = first_word(s->str, &len);
	char *word = g_strndup(w, len), *list;
	GPtrArray *m;

	if (w[len]) {
		/* Past the first word: nothing to complete. */
		g_free(word);
		return;
	}
	m = dc_choice_matches(o->choices, -1, word);
	if (!m->len) {
		list = dc_choice_list(o->choices, -1);
		hint(t, 1, "No choice begins with '%s': %s", word, list);
		g_free(list);
		goto out;
	}
	common = common_prefix(m);
	g_string_erase(s, 0, -1);
	g_string_append_len(s, m->pdata[0], common);
	t->prompt_cursor = s->len;
	if (m->len > 1) {
		list = join(m);
		hint(t, 0, "Choices: %s", list);
		g_free(list);
	}
out:
	g_ptr_array_unref(m);
	g_free(word);
}

/* Tab with word_choices: complete the word before the cursor as far as
 * the names that fit agree ("op" -> "open"). */
static void
complete_word(dc_tui_t *t, const dc_prompt_opts_t *o)
{
	GString *s = t->prompt_text;
	gsize end = t->prompt_cursor, start = end, common, len;
	char *word, *list;
	GPtrArray *m;

	while (start > 0 && s->str[start - 1] != ' ')
		start--;
	word = g_strndup(s->str + start, end - start);
	m = dc_choice_matches(o->word_choices, -1, word);
	if (!m->len) {
		list = dc_choice_list(o->word_choices, -1);
		hint(t, 1, "No choice begins with '%s': %s", word, list);
		g_free(list);
		goto out;
	}
	common = common_prefix(m);
	len = end - start;
	g_string_insert_len(s, end, (const char *)m->pdata[0] + len,
			    common - len);
	t->prompt_cursor = end + common - len;
	if (m->len > 1) {
		list = join(m);
		hint(t, 0, "Choices: %s", list);
		g_free(list);
	} else if (t->prompt_cursor == s->len) {
		g_string_append_c(s, ' ');
		t->prompt_cursor++;
	}
out:
	g_ptr_array_unref(m);
	g_free(word);
}

/* Enter with choices: the first word becomes the name it is a unique
 * prefix of; 0 (with a hint, the text kept) when it is none or several. */
static int
resolve(dc_tui_t *t, const dc_prompt_opts_t *o)
{
	GString *s = t->prompt_text;
	gsize len, at;
	const char *w = first_word(s->str, &len);
	char *word = g_strndup(w, len), *list;
	int i = dc_choice_resolve(o->choices, -1, word), ok = 0;
	GPtrArray *m;

	at = w - s->str;
	if (!len) {
		ok = 1; /* nothing chosen: the caller's "cancelled" */
	} else if (i == -2) {
		m = dc_choice_matches(o->choices, -1, word);
		list = join(m);
		hint(t, 1, "'%s' could be %s", word, list);
		g_free(list);
		g_ptr_array_unref(m);
	} else if (i < 0) {
		list = dc_choice_list(o->choices, -1);
		hint(t, 1, "'%s' is not one of: %s", word, list);
		g_free(list);
	} else if (!o->more_words && w[len + strspn(w + len, " ")]) {
		list = dc_choice_list(o->choices, -1);
		hint(t, 1, "One word: %s", list);
		g_free(list);
	} else {
		g_string_erase(s, at, len);
		g_string_insert(s, at, o->choices[i]);
		ok = 1;
	}
	g_free(word);
	return ok;
}

/* Enter: 1 when the text is taken as it now is. */
static int
accept(dc_tui_t *t, const dc_prompt_opts_t *o)
{
	char *why = NULL;

	if (o->choices && !resolve(t, o))
		return 0;
	if (o->check && !o->check(t, t->prompt_text, o->data, &why)) {
		hint(t, 1, "%s", why ? why : "Not accepted");
		g_free(why);
		t->prompt_cursor = MIN(t->prompt_cursor, t->prompt_text->len);
		return 0;
	}
	return 1;
}

/* Up and Down: *pos in history, where history->len is the line being
 * typed (kept in draft meanwhile). */
static void
recall(dc_tui_t *t, GPtrArray *history, guint *pos, GString *draft, int dir)
{
	GString *s = t->prompt_text;

	if (!history || (dir < 0 && !*pos) ||
	    (dir > 0 && *pos >= history->len))
		return;
	if (*pos == history->len)
		g_string_assign(draft, s->str);
	*pos += dir;
	g_string_assign(s, *pos == history->len ? draft->str :
						  history->pdata[*pos]);
	t->prompt_cursor = s->len;
}

void
dc_history_add(GPtrArray *history, const char *line)
{
	char *l = g_strstrip(g_strdup(line ? line : ""));
	guint i;

	if (!history || !*l) {
		g_free(l);
		return;
	}
	for (i = 0; i < history->len; i++)
		if (!strcmp(history->pdata[i], l))
			g_ptr_array_remove_index(history, i--);
	g_ptr_array_add(history, l);
	while (history->len > DC_HISTORY_KEEP)
		g_ptr_array_remove_index(history, 0);
}

int
dc_prompt_ex(dc_tui_t *t, const char *label, const dc_prompt_opts_t *o,
	     char **out)
{
	GString *s = t->prompt_text, *draft = g_string_new(NULL);
	guint pos = o->history ? o->history->len : 0;
	int done = 0;

	g_string_assign(s, o->initial ? o->initial : "");
	g_string_truncate(t->prompt_hint, 0);
	t->prompt_label = label;
	t->prompt_cursor = s->len;
	while (!done) {
		gsize c = t->prompt_cursor;
		int k;

		if (o->about && !t->prompt_hint->len)
			hint(t, 0, "%s", o->about);
		dc_tui_redraw(t);
		k = dc_tui_getkey(t);
		if (k != DC_KEY_TIMEOUT && k != DC_KEY_RESIZE)
			g_string_truncate(t->prompt_hint, 0);
		switch (k) {
		case DC_KEY_ENTER:
			if (accept(t, o))
				done = 1;
			break;
		case DC_KEY_EOF:
		case DC_KEY_ESC:
		case DC_KEY_CTRL('G'):
			done = -1;
			break;
		case '\t':
			if (o->choices)
				complete(t, o);
			else if (o->word_choices)
				complete_word(t, o);
			break;
		case DC_KEY_UP:
		case DC_KEY_CTRL('P'):
			recall(t, o->history, &pos, draft, -1);
			break;
		case DC_KEY_DOWN:
		case DC_KEY_CTRL('N'):
			recall(t, o->history, &pos, draft, 1);
			break;
		case DC_KEY_BACKSPACE:
			if (!c && !s->len) {
				done = -1;
				break;
			}
			t->prompt_cursor = prev_char(s->str, c);
			g_string_erase(s, t->prompt_cursor,
				       c - t->prompt_cursor);
			break;
		case DC_KEY_DELETE:
		case DC_KEY_CTRL('D'):
			if (c < s->len)
				g_string_erase(s, c,
					       g_utf8_next_char(s->str + c) -
						       (s->str + c));
			break;
		case DC_KEY_LEFT:
		case DC_KEY_CTRL('B'):
			t->prompt_cursor = prev_char(s->str, c);
			break;
		case DC_KEY_RIGHT:
		case DC_KEY_CTRL('F'):
			if (c < s->len)
				t->prompt_cursor =
					g_utf8_next_char(s->str + c) - s->str;
			break;
		case DC_KEY_HOME:
		case DC_KEY_CTRL('A'):
			t->prompt_cursor = 0;
			break;
		case DC_KEY_END:
		case DC_KEY_CTRL('E'):
			t->prompt_cursor = s->len;
			break;
		case DC_KEY_CTRL('U'):
			g_string_erase(s, 0, c);
			t->prompt_cursor = 0;
			break;
		case DC_KEY_CTRL('X'):
			if (o->editor && edit_in_editor(t, s))
				done = 1;
			break;
		default:
			if (k >= 0x20 && k < 0x110000 && k != 0x7f &&
			    g_unichar_isprint((gunichar)k)) {
				char buf[8];
				int n = g_unichar_to_utf8((gunichar)k, buf);

				g_string_insert_len(s, c, buf, n);
				t->prompt_cursor = c + n;
			}
			break;
		}
	}
	t->prompt_label = NULL;
	g_string_truncate(t->prompt_hint, 0);
	g_string_free(draft, TRUE);
	if (done < 0)
		return 0;
	dc_history_add(o->history, s->str);
	*out = g_strdup(s->str);
	return 1;
}

int
dc_ask(dc_tui_t *t, const char *arg, const char *label,
       const dc_prompt_opts_t *o, char **out)
{
	if (!arg)
		return dc_prompt_ex(t, label, o, out);
	/* Checked as the prompt checks what is typed into it. */
	g_string_assign(t->prompt_text, arg);
	t->prompt_cursor = t->prompt_text->len;
	g_string_truncate(t->prompt_hint, 0);
	if (!accept(t, o)) {
		dc_tui_error(t, "%s", t->prompt_hint->str);
		g_string_truncate(t->prompt_hint, 0);
		return 0;
	}
	*out = g_strdup(t->prompt_text->str);
	return 1;
}

int
dc_prompt(dc_tui_t *t, const char *label, const char *initial, int editor,
	  char **out)
{
	dc_prompt_opts_t o = { .initial = initial, .editor = editor };

	return dc_prompt_ex(t, label, &o, out);
}

int
dc_ask_key(dc_tui_t *t, const char *question, const char *keys, int enter)
{
	int k;

	t->prompt_label = question;
	g_string_truncate(t->prompt_text, 0);
	t->prompt_cursor = 0;
	for (;;) {
		dc_tui_redraw(t);
		k = dc_tui_getkey(t);
		if (k == DC_KEY_TIMEOUT || k == DC_KEY_RESIZE)
			continue;
		if (k == DC_KEY_ESC || k == DC_KEY_CTRL('G') ||
		    k == DC_KEY_EOF) {
			k = 0;
			break;
		}
		if (enter && (k == DC_KEY_ENTER || k == ' ')) {
			k = enter;
			break;
		}
		if (k > 0 && k < 128)
			k = g_ascii_tolower(k);
		if (!keys || (k > 0 && k < 128 && strchr(keys, k)))
			break;
	}
	t->prompt_label = NULL;
	return k;
}

int
dc_confirm(dc_tui_t *t, const char *question)
{
	return dc_ask_key(t, question, NULL, 0) == 'y';
}

int
dc_ask_yes_no(dc_tui_t *t, const char *question, int def)
{
	int k = dc_ask_key(t, question, "yn", def ? 'y' : 'n');

	return k == 'y' ? 1 : k == 'n' ? 0 : -1;
}

char *
dc_expand_home(const char *path)
{
	if (path[0] == '~' && (path[1] == '/' || !path[1]))
		return g_strconcat(g_get_home_dir(), path + 1, NULL);
	return g_strdup(path);
}

char *
dc_unexpand_home(const char *text)
{
	char *home = g_strconcat(g_get_home_dir(), "/", NULL);
	GString *out = g_string_new(NULL);
	const char *p = text, *hit;

	while (strcmp(home, "/") && (hit = strstr(p, home))) {
		g_string_append_len(out, p, hit - p);
		g_string_append(out, "~/");
		p = hit + strlen(home);
	}
	g_string_append(out, p);
	g_free(home);
	return g_string_free(out, FALSE);
}

int
dc_prompt_check_until(dc_tui_t *t, GString *text, void *data, char **why)
{
	dc_until_answer_t *u = data;
	dc_error_t err = { 0 };
	dc_release_t r;
	char buf[16], *s = g_strstrip(g_strdup(text->str));
	dc_status_t st = dc_until_parse(s, u->now, &u->until, &r, &err);

	(void)t;
	g_free(s);
	if (st != DC_OK) {
		*why = g_strdup(err.msg);
		return 0;
	}
	g_clear_pointer(&u->release, g_free);
	if (r.major) {
		dc_release_format(r, buf);
		u->release = g_strdup(buf);
	}
	return 1;
}
