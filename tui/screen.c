// SPDX-License-Identifier: GPL-3.0-or-later
/* The screen model: a grid of cells, no terminal involved. */
#include <string.h>

#include <glib.h>

#include "tui/screen.h"

static const char *const role_names[DC_ROLE_COUNT] = {
	[DC_ROLE_NORMAL] = "normal",	 [DC_ROLE_TITLE] = "title",
	[DC_ROLE_STATUS] = "status",	 [DC_ROLE_CURSOR] = "cursor",
	[DC_ROLE_DATE] = "date",	 [DC_ROLE_AUTHOR] = "author",
	[DC_ROLE_SUBJECT] = "subject",	 [DC_ROLE_TAGS] = "tags",
	[DC_ROLE_ADMONITION] = "admonition",
	[DC_ROLE_ESCALATION] = "escalation",
	[DC_ROLE_TAB] = "tab",		 [DC_ROLE_HEADER] = "header",
	[DC_ROLE_QUOTE] = "quote",	 [DC_ROLE_MARKER] = "marker",
	[DC_ROLE_GROUP] = "heading",	 [DC_ROLE_ERROR] = "error",
	[DC_ROLE_PENDING] = "pending",
};

const char *
dc_role_name(dc_role_t r)
{
	return r < DC_ROLE_COUNT ? role_names[r] : "?";
}

dc_role_t
dc_role_by_name(const char *name)
{
	int r;

	for (r = 0; r < DC_ROLE_COUNT; r++)
		if (!strcmp(role_names[r], name))
			return r;
	return DC_ROLE_COUNT;
}

dc_screen_t *
dc_screen_new(int rows, int cols)
{
	dc_screen_t *s = g_new0(dc_screen_t, 1);

	dc_screen_resize(s, rows, cols);
	return s;
}

void
dc_screen_resize(dc_screen_t *s, int rows, int cols)
{
	s->rows = rows > 0 ? rows : 1;
	s->cols = cols > 0 ? cols : 1;
	g_free(s->cells);
	s->cells = g_new0(dc_cell_t, (size_t)s->rows * s->cols);
	dc_screen_clear(s);
}

void
dc_screen_free(dc_screen_t *s)
{
	if (!s)
		return;
	g_free(s->cells);
	g_free(s);
}

void
dc_screen_clear(dc_screen_t *s)
{
	int i;

	for (i = 0; i < s->rows * s->cols; i++) {
		strcpy(s->cells[i].text, " ");
		s->cells[i].width = 1;
		s->cells[i].role = DC_ROLE_NORMAL;
		s->cells[i].selected = 0;
	}
}

dc_cell_t *
dc_screen_cell(dc_screen_t *s, int y, int x)
{
	if (y < 0 || y >= s->rows || x < 0 || x >= s->cols)
		return NULL;
	return &s->cells[y * s->cols + x];
}

char *
dc_screen_dump(const dc_screen_t *s)
{
	GString *out = g_string_new(NULL);
	int y, x;

	for (y = 0; y < s->rows; y++) {
		gsize start;
		int sel = 0;

		for (x = 0; x < s->cols; x++)
			sel |= s->cells[y * s->cols + x].selected;
		/* A gutter shows the selected line, which only an attribute
		 * marks on a terminal. */
		g_string_append(out, sel ? "> " : "  ");
		start = out->len;
		for (x = 0; x < s->cols; x++)
			g_string_append(out, s->cells[y * s->cols + x].text);
		while (out->len > start && out->str[out->len - 1] == ' ')
			g_string_truncate(out, out->len - 1);
		g_string_append_c(out, '\n');
	}
	return g_string_free(out, FALSE);
}
