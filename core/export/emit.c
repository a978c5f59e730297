// SPDX-License-Identifier: GPL-3.0-or-later
/* The emitter front: format lookup, dispatch and helpers the formats share. */
#include <string.h>

#include "core/export/emit.h"
#include "core/base/sanitize.h"

const dc_emit_ops_t *const dc_emit_formats[] = {
	&dc_emit_text,
	&dc_emit_md,
	&dc_emit_json,
	&dc_emit_csv,
	NULL,
};

dc_status_t
dc_emit_find(const char *name, const dc_emit_ops_t **out, dc_error_t *err)
{
	int i;

	if (name && !strcmp(name, "markdown"))
		name = "md";
	for (i = 0; dc_emit_formats[i]; i++) {
		if (name && !strcmp(name, dc_emit_formats[i]->name)) {
			*out = dc_emit_formats[i];
			return DC_OK;
		}
	}
	return dc_fail(err, DC_E_USAGE,
		       "unknown format '%s' (text, md, json or csv)",
		       name ? name : "");
}

dc_emit_t *
dc_emit_new(const dc_emit_ops_t *ops)
{
	dc_emit_t *e = g_new0(dc_emit_t, 1);

	e->ops = ops;
	e->out = g_string_new(NULL);
	e->first = 1;
	return e;
}

char *
dc_emit_finish(dc_emit_t *e)
{
	char *text = g_string_free(e->out, FALSE);

	g_free(e);
	return text;
}

void
dc_emit_begin(dc_emit_t *e, const char *id, const char *title)
{
	if (e->ops->begin)
		e->ops->begin(e, id, title);
}

void
dc_emit_end(dc_emit_t *e)
{
	if (e->ops->end)
		e->ops->end(e);
}

void
dc_emit_section(dc_emit_t *e, const char *id, const char *title)
{
	if (e->ops->section)
		e->ops->section(e, id, title);
}

void
dc_emit_paragraph(dc_emit_t *e, const char *id, const char *text)
{
	if (e->ops->paragraph)
		e->ops->paragraph(e, id, text);
}

void
dc_emit_counts(dc_emit_t *e, const char *id, const char *title,
	       const dc_emit_count_t *rows, size_t n)
{
	if (e->ops->counts)
		e->ops->counts(e, id, title, rows, n);
}

void
dc_emit_table(dc_emit_t *e, const char *id, const char *title,
	      const dc_emit_column_t *cols, size_t ncols, const GPtrArray *rows)
{
	if (e->ops->table)
		e->ops->table(e, id, title, cols, ncols, rows);
}

void
dc_emit_chart(dc_emit_t *e, const char *id, const char *title,
	      const char *const *labels, const int64_t *values, size_t n)
{
	if (e->ops->chart)
		e->ops->chart(e, id, title, labels, values, n);
}

static const char *const spark[] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };

char *
dc_emit_sparkline(const int64_t *values, size_t n)
{
	GString *s = g_string_new(NULL);
	int64_t max = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (values[i] > max)
			max = values[i];
	for (i = 0; i < n; i++) {
		/* Zero stays the lowest block so the line keeps its length. */
		int64_t v = values[i] < 0 ? 0 : values[i];
		int k = max ? (int)((v * 7 + max - 1) / max) : 0;

		g_string_append(s, spark[k > 7 ? 7 : k]);
	}
	return g_string_free(s, FALSE);
}

char *
dc_emit_bar(int64_t value, int64_t max, int width)
{
	GString *s = g_string_new(NULL);
	int64_t k, i;

	if (max <= 0 || value <= 0 || width <= 0)
		return g_string_free(s, FALSE);
	k = (value * width + max - 1) / max;
	for (i = 0; i < k && i < width; i++)
		g_string_append(s, "█");
	return g_string_free(s, FALSE);
}

void
dc_emit_wrap(GString *out, const char *text, int width, const char *indent)
{
	char **words = g_strsplit(text ? text : "", " ", -1);
	int col = 0, iw = dc_display_width(indent);
	guint i;

	for (i = 0; words[i]; i++) {
		int w = dc_display_width(words[i]);

		if (!*words[i])
			continue;
		if (col && col + 1 + w > width) {
			g_string_append_c(out, '\n');
			col = 0;
		}
		if (!col) {
			g_string_append(out, indent);
			col = iw;
		} else {
			g_string_append_c(out, ' ');
			col++;
		}
		g_string_append(out, words[i]);
		col += w;
	}
	if (col)
		g_string_append_c(out, '\n');
	g_strfreev(words);
}

void
dc_emit_pad(GString *out, const char *s, int width)
{
	int w = dc_display_width(s);

	g_string_append(out, s);
	for (; w < width; w++)
		g_string_append_c(out, ' ');
}

void
dc_emit_chart_lines(GString *out, const char *const *labels,
		    const int64_t *values, size_t n)
{
	char *line = dc_emit_sparkline(values, n);
	int64_t max = 0;
	int lw = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		max = MAX(max, values[i]);
		lw = MAX(lw, dc_display_width(labels[i]));
	}
	g_string_append_printf(out, "  %s\n\n", line);
	g_free(line);
	for (i = 0; i < n; i++) {
		char *bar = dc_emit_bar(values[i], max, 30);

		g_string_append(out, "  ");
		dc_emit_pad(out, labels[i], lw);
		g_string_append_printf(out, " %3" G_GINT64_FORMAT "%s%s\n",
				       (gint64)values[i], *bar ? " " : "",
				       bar);
		g_free(bar);
	}
}
