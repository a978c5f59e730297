// SPDX-License-Identifier: GPL-3.0-or-later
/* Plain text for mail and terminals: 72 columns, aligned, no markup. */
#include <string.h>

#include "core/export/emit.h"
#include "core/base/sanitize.h"

#define WIDTH 72

static void
underline(GString *out, const char *s, const char *ch)
{
	int i, w = dc_display_width(s);

	for (i = 0; i < w; i++)
		g_string_append(out, ch);
	g_string_append_c(out, '\n');
}

static void
text_begin(dc_emit_t *e, const char *id, const char *title)
{
	g_string_append_printf(e->out, "%s\n", title);
	underline(e->out, title, "=");
}

static void
text_section(dc_emit_t *e, const char *id, const char *title)
{
	g_string_append_printf(e->out, "\n%s\n", title);
	underline(e->out, title, "-");
}

static void
text_paragraph(dc_emit_t *e, const char *id, const char *text)
{
	g_string_append_c(e->out, '\n');
	dc_emit_wrap(e->out, text, WIDTH, "");
}

static void
text_counts(dc_emit_t *e, const char *id, const char *title,
	    const dc_emit_count_t *rows, size_t n)
{
	int w = 0;
	size_t i;

	for (i = 0; i < n; i++)
		w = MAX(w, dc_display_width(rows[i].label));
	g_string_append_c(e->out, '\n');
	if (title)
		g_string_append_printf(e->out, "%s:\n", title);
	for (i = 0; i < n; i++) {
		g_string_append(e->out, title ? "  " : "");
		dc_emit_pad(e->out, rows[i].label, w + 2);
		if (rows[i].text)
			g_string_append_printf(e->out, "%s\n", rows[i].text);
		else
			g_string_append_printf(e->out, "%" G_GINT64_FORMAT "\n",
					       (gint64)rows[i].value);
	}
}

static void
text_table(dc_emit_t *e, const char *id, const char *title,
	   const dc_emit_column_t *cols, size_t ncols, const GPtrArray *rows)
{
	int *w = g_new0(int, ncols);
	size_t c;
	guint r;

	g_string_append_c(e->out, '\n');
	if (title)
		g_string_append_printf(e->out, "%s:\n", title);
	if (!rows->len) {
		g_string_append(e->out, "  (none)\n");
		g_free(w);
		return;
	}
	for (c = 0; c < ncols; c++)
		w[c] = dc_display_width(cols[c].label);
	for (r = 0; r < rows->len; r++) {
		const char *const *row = rows->pdata[r];

		for (c = 0; c < ncols; c++)
			w[c] = MAX(w[c], dc_display_width(row[c] ? row[c] : "-"));
	}
	g_string_append(e->out, "  ");
	for (c = 0; c < ncols; c++)
		dc_emit_pad(e->out, cols[c].label, c + 1 < ncols ? w[c] + 2 : 0);
	g_string_append_c(e->out, '\n');
	for (r = 0; r < rows->len; r++) {
		const char *const *row = rows->pdata[r];

		g_string_append(e->out, "  ");
		for (c = 0; c < ncols; c++)
			dc_emit_pad(e->out, row[c] ? row[c] : "-",
			    c + 1 < ncols ? w[c] + 2 : 0);
		g_string_append_c(e->out, '\n');
	}
	g_free(w);
}

static void
text_chart(dc_emit_t *e, const char *id, const char *title,
	   const char *const *labels, const int64_t *values, size_t n)
{
	g_string_append_c(e->out, '\n');
	if (title)
		g_string_append_printf(e->out, "%s:\n\n", title);
	dc_emit_chart_lines(e->out, labels, values, n);
}

const dc_emit_ops_t dc_emit_text = {
	.name = "text",
	.begin = text_begin,
	.section = text_section,
	.paragraph = text_paragraph,
	.counts = text_counts,
	.table = text_table,
	.chart = text_chart,
};
