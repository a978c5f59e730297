// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * JSON: one object; each section is a member object keyed by its id, and
 * each block a member keyed by its id.  Counts become objects of numbers
 * (or strings), tables arrays of objects keyed by column id, charts arrays
 * of {"label", "value"}.  Titles are kept as "title" members so a reader
 * can show the same headings.
 */
#include <stdlib.h>

#include "core/export/emit.h"
#include "core/base/sprinter.h"

#define J(e) ((dc_sp_t *)(e)->priv)

static void
json_begin(dc_emit_t *e, const char *id, const char *title)
{
	e->priv = dc_sp_json_new(1);
	dc_sp_map(J(e));
	dc_sp_key(J(e), "report");
	dc_sp_string(J(e), id);
	dc_sp_key(J(e), "title");
	dc_sp_string(J(e), title);
}

static void
close_section(dc_emit_t *e)
{
	if (e->in_section)
		dc_sp_end(J(e));
	e->in_section = 0;
}

static void
json_end(dc_emit_t *e)
{
	char *text;

	close_section(e);
	dc_sp_end(J(e));
	text = dc_sp_finish(J(e));
	e->priv = NULL;
	g_string_append(e->out, text);
	g_free(text);
}

static void
json_section(dc_emit_t *e, const char *id, const char *title)
{
	close_section(e);
	dc_sp_key(J(e), id);
	dc_sp_map(J(e));
	dc_sp_key(J(e), "title");
	dc_sp_string(J(e), title);
	e->in_section = 1;
}

static void
json_paragraph(dc_emit_t *e, const char *id, const char *text)
{
	dc_sp_key(J(e), id);
	dc_sp_string(J(e), text);
}

static void
json_counts(dc_emit_t *e, const char *id, const char *title,
	    const dc_emit_count_t *rows, size_t n)
{
	size_t i;

	dc_sp_key(J(e), id);
	dc_sp_map(J(e));
	for (i = 0; i < n; i++) {
		dc_sp_key(J(e), rows[i].key);
		if (rows[i].text)
			dc_sp_string(J(e), rows[i].text);
		else
			dc_sp_int(J(e), rows[i].value);
	}
	dc_sp_end(J(e));
}

static void
json_table(dc_emit_t *e, const char *id, const char *title,
	   const dc_emit_column_t *cols, size_t ncols, const GPtrArray *rows)
{
	size_t c;
	guint r;

	dc_sp_key(J(e), id);
	dc_sp_list(J(e));
	for (r = 0; r < rows->len; r++) {
		const char *const *row = rows->pdata[r];

		dc_sp_map(J(e));
		for (c = 0; c < ncols; c++) {
			dc_sp_key(J(e), cols[c].id);
			if (!row[c])
				dc_sp_null(J(e));
			else if (cols[c].numeric)
				dc_sp_int(J(e), g_ascii_strtoll(row[c], NULL,
								  10));
			else
				dc_sp_string(J(e), row[c]);
		}
		dc_sp_end(J(e));
	}
	dc_sp_end(J(e));
}

static void
json_chart(dc_emit_t *e, const char *id, const char *title,
	   const char *const *labels, const int64_t *values, size_t n)
{
	size_t i;

	dc_sp_key(J(e), id);
	dc_sp_list(J(e));
	for (i = 0; i < n; i++) {
		dc_sp_map(J(e));
		dc_sp_key(J(e), "label");
		dc_sp_string(J(e), labels[i]);
		dc_sp_key(J(e), "value");
		dc_sp_int(J(e), values[i]);
		dc_sp_end(J(e));
	}
	dc_sp_end(J(e));
}

const dc_emit_ops_t dc_emit_json = {
	.name = "json",
	.begin = json_begin,
	.end = json_end,
	.section = json_section,
	.paragraph = json_paragraph,
	.counts = json_counts,
	.table = json_table,
	.chart = json_chart,
};
