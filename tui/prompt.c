// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The prompt line: notmuch queries, the ":" command line, notes (short ones
 * inline, long ones in $EDITOR) and yes/no questions.  It reads keys the
 * same way the main loop does, so scripts drive it too.
 */
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

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

int
dc_prompt(dc_tui_t *t, const char *label, const char *initial, int editor,
	  char **out)
{
	GString *s = t->prompt_text;
	int done = 0;

	g_string_assign(s, initial ? initial : "");
	t->prompt_label = label;
	t->prompt_cursor = s->len;
	while (!done) {
		gsize c = t->prompt_cursor;
		int k;

		dc_tui_redraw(t);
		k = dc_tui_getkey(t);
		switch (k) {
		case DC_KEY_ENTER:
			done = 1;
			break;
		case DC_KEY_EOF:
		case DC_KEY_ESC:
		case DC_KEY_CTRL('G'):
			done = -1;
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
			if (editor && edit_in_editor(t, s))
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
	if (done < 0)
		return 0;
	*out = g_strdup(s->str);
	return 1;
}

int
dc_confirm(dc_tui_t *t, const char *question)
{
	int k;

	t->prompt_label = question;
	g_string_truncate(t->prompt_text, 0);
	t->prompt_cursor = 0;
	do {
		dc_tui_redraw(t);
		k = dc_tui_getkey(t);
	} while (k == DC_KEY_TIMEOUT || k == DC_KEY_RESIZE);
	t->prompt_label = NULL;
	return k == 'y' || k == 'Y';
}

int
dc_ask_yes_no(dc_tui_t *t, const char *question, int def)
{
	int k, r;

	t->prompt_label = question;
	g_string_truncate(t->prompt_text, 0);
	t->prompt_cursor = 0;
	for (;;) {
		dc_tui_redraw(t);
		k = dc_tui_getkey(t);
		if (k == 'y' || k == 'Y')
			r = 1;
		else if (k == 'n' || k == 'N')
			r = 0;
		else if (k == DC_KEY_ENTER || k == ' ')
			r = def;
		else if (k == DC_KEY_ESC || k == DC_KEY_CTRL('G') ||
			 k == DC_KEY_EOF)
			r = -1;
		else
			continue;
		break;
	}
	t->prompt_label = NULL;
	return r;
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
