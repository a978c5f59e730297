/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The export emitter: one interface, several output formats (text,
 * Markdown, JSON, CSV), in the manner of notmuch's sprinter.  Code that
 * builds a report describes it as a document of sections holding blocks
 * (paragraphs, counts, tables, charts) and never knows which format it
 * writes; adding a format is one file with one dc_emit_ops_t.
 *
 * Every block and section has an id (a stable machine name, used as the
 * JSON key and the CSV "section"/"block" columns) and a title for people.
 * Strings handed to an emitter must already be sanitized.
 */
#ifndef DC_EMIT_H
#define DC_EMIT_H

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/status.h"

typedef struct dc_emit dc_emit_t;

/* One line of a counts block: a number, or a string when text != NULL. */
typedef struct dc_emit_count {
	const char *key;   /* machine name: "escalation" */
	const char *label; /* for people: "Escalations" */
	int64_t value;
	const char *text;
} dc_emit_count_t;

typedef struct dc_emit_column {
	const char *id;    /* "case" */
	const char *label; /* "Case" */
	int numeric;       /* JSON writes the cell as a number */
} dc_emit_column_t;

typedef struct dc_emit_ops {
	const char *name; /* "text", "md", "json", "csv" */
	void (*begin)(dc_emit_t *e, const char *id, const char *title);
	void (*end)(dc_emit_t *e);
	void (*section)(dc_emit_t *e, const char *id, const char *title);
	void (*paragraph)(dc_emit_t *e, const char *id, const char *text);
	void (*counts)(dc_emit_t *e, const char *id, const char *title,
		       const dc_emit_count_t *rows, size_t n);
	/* rows: GPtrArray of const char *[ncols]; a NULL cell is "none"
	 * ("-" in text, null in JSON, empty in CSV). */
	void (*table)(dc_emit_t *e, const char *id, const char *title,
		      const dc_emit_column_t *cols, size_t ncols,
		      const GPtrArray *rows);
	void (*chart)(dc_emit_t *e, const char *id, const char *title,
		      const char *const *labels, const int64_t *values,
		      size_t n);
} dc_emit_ops_t;

struct dc_emit {
	const dc_emit_ops_t *ops;
	GString *out;
	int in_section; /* formats that nest sections keep track here */
	int first;      /* JSON: no comma before the next member */
	void *priv;     /* a format's own state */
};

extern const dc_emit_ops_t dc_emit_text, dc_emit_md, dc_emit_json,
	dc_emit_csv;

/* The formats, NULL-terminated, for option parsing and --help. */
extern const dc_emit_ops_t *const dc_emit_formats[];

/* "text", "md" (or "markdown"), "json", "csv"; DC_E_USAGE otherwise. */
dc_status_t dc_emit_find(const char *name, const dc_emit_ops_t **out,
			 dc_error_t *err);

dc_emit_t *dc_emit_new(const dc_emit_ops_t *ops);
/* Free the emitter and return what it wrote (g_free). */
char *dc_emit_finish(dc_emit_t *e);

/* Calls through e->ops; an op a format leaves NULL writes nothing. */
void dc_emit_begin(dc_emit_t *e, const char *id, const char *title);
void dc_emit_end(dc_emit_t *e);
void dc_emit_section(dc_emit_t *e, const char *id, const char *title);
void dc_emit_paragraph(dc_emit_t *e, const char *id, const char *text);
void dc_emit_counts(dc_emit_t *e, const char *id, const char *title,
		    const dc_emit_count_t *rows, size_t n);
void dc_emit_table(dc_emit_t *e, const char *id, const char *title,
		   const dc_emit_column_t *cols, size_t ncols,
		   const GPtrArray *rows);
void dc_emit_chart(dc_emit_t *e, const char *id, const char *title,
		   const char *const *labels, const int64_t *values, size_t n);

/*
 * Shared by the text-like formats: a sparkline ("▁▂▇") of values, and a
 * horizontal bar of width cells for value out of max.  g_free.
 */
char *dc_emit_sparkline(const int64_t *values, size_t n);
char *dc_emit_bar(int64_t value, int64_t max, int width);
/* Append s and spaces up to width display columns. */
void dc_emit_pad(GString *out, const char *s, int width);
/* A sparkline line, then one labelled bar per value (text and Markdown). */
void dc_emit_chart_lines(GString *out, const char *const *labels,
			 const int64_t *values, size_t n);
/* Append text wrapped at width display columns (plain spaces only). */
void dc_emit_wrap(GString *out, const char *text, int width,
		  const char *indent);

#endif
