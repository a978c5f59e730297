// SPDX-License-Identifier: GPL-3.0-or-later
/* Markdown (CommonMark with pipe tables), for wikis and merge requests. */
#include <string.h>

#include "core/export/emit.h"

/* Markdown would read these as markup inside running text or a cell. */
static void
escape(GString *out, const char *s)
{
	for (; s && *s; s++) {
		if (strchr("\\`*_[]<>|#", *s))
			g_string_append_c(out, '\\');
		g_string_append_c(out, *s);
	}
}

/* URLs stay clickable: autolinks take them whole. */
static void
cell(GString *out, const char *s)
{
	if (!s)
		g_string_append_c(out, '-');
	else if (g_str_has_prefix(s, "https://") && !strpbrk(s, " <>|"))
		g_string_append_printf(out, "<%s>", s);
	else
		escape(out, s);
}

static void
md_begin(dc_emit_t *e, const char *id, const char *title)
{
	g_string_append(e->out, "# ");
	escape(e->out, title);
	g_string_append_c(e->out, '\n');
}

static void
md_section(dc_emit_t *e, const char *id, const char *title)
{
	g_string_append(e->out, "\n## ");
	escape(e->out, title);
	g_string_append_c(e->out, '\n');
}

static void
md_paragraph(dc_emit_t *e, const char *id, const char *text)
{
	g_string_append_c(e->out, '\n');
	escape(e->out, text);
	g_string_append_c(e->out, '\n');
}

static void
md_counts(dc_emit_t *e, const char *id, const char *title,
	  const dc_emit_count_t *rows, size_t n)
{
	size_t i;

	g_string_append_c(e->out, '\n');
	if (title) {
		g_string_append(e->out, "**");
		escape(e->out, title);
		g_string_append(e->out, "**\n\n");
	}
	for (i = 0; i < n; i++) {
		g_string_append(e->out, "- ");
		escape(e->out, rows[i].label);
		if (rows[i].text) {
			g_string_append(e->out, ": ");
			cell(e->out, rows[i].text);
			g_string_append_c(e->out, '\n');
		} else {
			g_string_append_printf(e->out, ": %" G_GINT64_FORMAT
				"\n", (gint64)rows[i].value);
		}
	}
}

static void
md_table(dc_emit_t *e, const char *id, const char *title,
	 const dc_emit_column_t *cols, size_t ncols, const GPtrArray *rows)
{
	size_t c;
	guint r;

	g_string_append_c(e->out, '\n');
	if (title) {
		g_string_append(e->out, "**");
		escape(e->out, title);
		g_string_append(e->out, "**\n\n");
	}
	if (!rows->len) {
		g_string_append(e->out, "None.\n");
		return;
	}
	for (c = 0; c < ncols; c++) {
		g_string_append(e->out, "| ");
		escape(e->out, cols[c].label);
		g_string_append_c(e->out, ' ');
	}
	g_string_append(e->out, "|\n");
	for (c = 0; c < ncols; c++)
		g_string_append(e->out, cols[c].numeric ? "| ---: " : "| --- ");
	g_string_append(e->out, "|\n");
	for (r = 0; r < rows->len; r++) {
		const char *const *row = rows->pdata[r];

		for (c = 0; c < ncols; c++) {
			g_string_append(e->out, "| ");
			cell(e->out, row[c]);
			g_string_append_c(e->out, ' ');
		}
		g_string_append(e->out, "|\n");
	}
}

static void
md_chart(dc_emit_t *e, const char *id, const char *title,
	 const char *const *labels, const int64_t *values, size_t n)
{
	g_string_append_c(e->out, '\n');
	if (title) {
		g_string_append(e->out, "**");
		escape(e->out, title);
		g_string_append(e->out, "**\n\n");
	}
	g_string_append(e->out, "```\n");
	dc_emit_chart_lines(e->out, labels, values, n);
	g_string_append(e->out, "```\n");
}

const dc_emit_ops_t dc_emit_md = {
	.name = "md",
	.begin = md_begin,
	.section = md_section,
	.paragraph = md_paragraph,
	.counts = md_counts,
	.table = md_table,
	.chart = md_chart,
};
