// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The headless script driver (tui/script.h): keys for the main loop from a
 * file, and dumps of the screen model, so that the screen tests run the
 * very same code as a terminal.
 */
#include <stdio.h>
#include <string.h>

#include "tui/script.h"

struct dc_script {
	FILE *f;
	const char *path;
	const char *dump_dir;
	int lineno;
	GArray *keys; /* int: keys queued from the current line */
	guint keys_pos;
};

dc_script_t *
dc_script_open(const char *path, const char *dump_dir)
{
	FILE *f = fopen(path, "r");
	dc_script_t *s;

	if (!f)
		return NULL;
	s = g_new0(dc_script_t, 1);
	s->f = f;
	s->path = path;
	s->dump_dir = dump_dir;
	s->keys = g_array_new(FALSE, FALSE, sizeof(int));
	return s;
}

void
dc_script_free(dc_script_t *s)
{
	if (!s)
		return;
	fclose(s->f);
	g_array_unref(s->keys);
	g_free(s);
}

static int
script_fail(dc_tui_t *t, const char *why)
{
	fprintf(stderr, "decorum: %s:%d: %s\n", t->script->path,
		t->script->lineno, why);
	t->quit = 2;
	return DC_KEY_EOF;
}

static int
script_dump(dc_tui_t *t, const char *name)
{
	const char *dir = t->script->dump_dir;
	char *path, *text;
	int cy, cx, ok;

	dc_tui_render(t, &cy, &cx);
	text = dc_screen_dump(t->scr);
	path = g_strdup_printf("%s/%s.txt", dir ? dir : ".", name);
	ok = g_file_set_contents(path, text, -1, NULL);
	g_free(path);
	g_free(text);
	return ok;
}

/* key NAME...: 0 if a name is unknown. */
static int
queue_names(dc_script_t *s, const char *arg)
{
	char **names = g_strsplit(arg, " ", -1);
	int i, bad = 0;

	for (i = 0; names[i]; i++) {
		int k;

		if (!*names[i])
			continue;
		k = dc_key_parse(names[i]);
		if (k < 0)
			bad = 1;
		else
			g_array_append_val(s->keys, k);
	}
	g_strfreev(names);
	return !bad;
}

/* type TEXT: 0 if it is not UTF-8. */
static int
queue_text(dc_script_t *s, const char *arg)
{
	const char *p;

	if (!g_utf8_validate(arg, -1, NULL))
		return 0;
	for (p = arg; *p; p = g_utf8_next_char(p)) {
		int k = (int)g_utf8_get_char(p);

		g_array_append_val(s->keys, k);
	}
	return 1;
}

/* Read script lines until one yields keys. */
int
dc_script_key(dc_tui_t *t)
{
	dc_script_t *s = t->script;
	char line[4096];

	while (s->keys_pos >= s->keys->len) {
		char *l, *arg;

		g_array_set_size(s->keys, 0);
		s->keys_pos = 0;
		if (!fgets(line, sizeof(line), s->f))
			return DC_KEY_EOF;
		s->lineno++;
		line[strcspn(line, "\n")] = '\0';
		l = line;
		while (*l == ' ' || *l == '\t')
			l++;
		if (!*l || *l == '#')
			continue;
		arg = strchr(l, ' ');
		if (arg)
			*arg++ = '\0';
		else
			arg = l + strlen(l);
		if (!strcmp(l, "key")) {
			if (!queue_names(s, arg))
				return script_fail(t, "unknown key name");
		} else if (!strcmp(l, "type")) {
			if (!queue_text(s, arg))
				return script_fail(t, "not UTF-8");
		} else if (!strcmp(l, "dump")) {
			if (!*arg || strchr(arg, '/'))
				return script_fail(t, "dump needs a name");
			if (!script_dump(t, arg))
				return script_fail(t, "cannot write the dump");
		} else if (!strcmp(l, "resize")) {
			int cols, rows;

			if (sscanf(arg, "%d %d", &cols, &rows) != 2 ||
			    cols < 1 || rows < 1)
				return script_fail(t, "resize COLS ROWS");
			dc_tui_resize(t, rows, cols);
			return DC_KEY_RESIZE;
		} else {
			return script_fail(t, "expected key, type, dump, "
					      "resize or a # comment");
		}
	}
	return g_array_index(s->keys, int, s->keys_pos++);
}
