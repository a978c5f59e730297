// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * CSV (RFC 4180), in long form so that one file holds every block:
 *   section,block,row,column,value
 * A count is (section, block, key, "count", n); a table cell (section,
 * block, row number, column id, cell); a chart bar (section, block,
 * label, "value", n); a paragraph (section, block, "", "text", text).
 */
#include <string.h>

#include "core/export/emit.h"

#define SECTION(e) ((const char *)(e)->priv)

static void
field(GString *out, const char *s, int last)
{
	if (s && strpbrk(s, ",\"\r\n")) {
		g_string_append_c(out, '"');
		for (; *s; s++) {
			if (*s == '"')
				g_string_append_c(out, '"');
			g_string_append_c(out, *s);
		}
		g_string_append_c(out, '"');
	} else if (s) {
		g_string_append(out, s);
	}
	g_string_append(out, last ? "\r\n" : ",");
}

static void
record(dc_emit_t *e, const char *block, const char *row, const char *col,
       const char *value)
{
	field(e->out, SECTION(e), 0);
	field(e->out, block, 0);
	field(e->out, row, 0);
	field(e->out, col, 0);
	field(e->out, value, 1);
}

static void
csv_begin(dc_emit_t *e, const char *id, const char *title)
{
	g_string_append(e->out, "section,block,row,column,value\r\n");
	e->priv = g_strdup("");
	record(e, "title", "", "text", title);
}

static void
csv_end(dc_emit_t *e)
{
	g_free(e->priv);
	e->priv = NULL;
}

static void
csv_section(dc_emit_t *e, const char *id, const char *title)
{
	g_free(e->priv);
	e->priv = g_strdup(id);
}

static void
csv_paragraph(dc_emit_t *e, const char *id, const char *text)
{
	record(e, id, "", "text", text);
}

static void
csv_counts(dc_emit_t *e, const char *id, const char *title,
	   const dc_emit_count_t *rows, size_t n)
{
	char num[32];
	size_t i;

	for (i = 0; i < n; i++) {
		g_snprintf(num, sizeof(num), "%" G_GINT64_FORMAT,
			   (gint64)rows[i].value);
		record(e, id, rows[i].key, rows[i].text ? "text" : "count",
		       rows[i].text ? rows[i].text : num);
	}
}

static void
csv_table(dc_emit_t *e, const char *id, const char *title,
	  const dc_emit_column_t *cols, size_t ncols, const GPtrArray *rows)
{
	char num[32];
	size_t c;
	guint r;

	for (r = 0; r < rows->len; r++) {
		const char *const *row = rows->pdata[r];

		g_snprintf(num, sizeof(num), "%u", r + 1);
		for (c = 0; c < ncols; c++)
			record(e, id, num, cols[c].id, row[c]);
	}
}

static void
csv_chart(dc_emit_t *e, const char *id, const char *title,
	  const char *const *labels, const int64_t *values, size_t n)
{
	char num[32];
	size_t i;

	for (i = 0; i < n; i++) {
		g_snprintf(num, sizeof(num), "%" G_GINT64_FORMAT,
			   (gint64)values[i]);
		record(e, id, labels[i], "value", num);
	}
}

const dc_emit_ops_t dc_emit_csv = {
	.name = "csv",
	.begin = csv_begin,
	.end = csv_end,
	.section = csv_section,
	.paragraph = csv_paragraph,
	.counts = csv_counts,
	.table = csv_table,
	.chart = csv_chart,
};
