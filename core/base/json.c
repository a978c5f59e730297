// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/json.h"

#define MAX_DEPTH 64

struct dc_json {
	GString *s;
	int pretty;
	int depth;
	int after_key;
	int count[MAX_DEPTH]; /* values written at each level */
};

dc_json_t *
dc_json_new(int pretty)
{
	dc_json_t *j = g_new0(dc_json_t, 1);

	j->s = g_string_new(NULL);
	j->pretty = pretty;
	return j;
}

char *
dc_json_finish(dc_json_t *j)
{
	char *r;

	if (j->pretty)
		g_string_append_c(j->s, '\n');
	r = g_string_free(j->s, FALSE);
	g_free(j);
	return r;
}

static void
newline(dc_json_t *j)
{
	int i;

	if (!j->pretty)
		return;
	g_string_append_c(j->s, '\n');
	for (i = 0; i < j->depth; i++)
		g_string_append(j->s, "  ");
}

/* Separator and indentation before a value or a key. */
static void
before_item(dc_json_t *j)
{
	if (j->after_key) {
		j->after_key = 0;
		return;
	}
	if (j->depth > 0) {
		if (j->count[j->depth]++)
			g_string_append_c(j->s, ',');
		newline(j);
	}
}

static void
open_level(dc_json_t *j, char c)
{
	before_item(j);
	g_string_append_c(j->s, c);
	if (j->depth + 1 < MAX_DEPTH)
		j->depth++;
	j->count[j->depth] = 0;
}

static void
close_level(dc_json_t *j, char c)
{
	int had = j->count[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (had)
		newline(j);
	g_string_append_c(j->s, c);
}

void
dc_json_begin_object(dc_json_t *j)
{
	open_level(j, '{');
}

void
dc_json_end_object(dc_json_t *j)
{
	close_level(j, '}');
}

void
dc_json_begin_array(dc_json_t *j)
{
	open_level(j, '[');
}

void
dc_json_end_array(dc_json_t *j)
{
	close_level(j, ']');
}

void
dc_json_quote(GString *out, const char *s)
{
	const unsigned char *p;

	g_string_append_c(out, '"');
	for (p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			g_string_append(out, "\\\"");
			break;
		case '\\':
			g_string_append(out, "\\\\");
			break;
		case '\n':
			g_string_append(out, "\\n");
			break;
		case '\t':
			g_string_append(out, "\\t");
			break;
		case '\r':
			g_string_append(out, "\\r");
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				g_string_append_printf(out, "\\u%04x", *p);
			else
				g_string_append_c(out, *p);
		}
	}
	g_string_append_c(out, '"');
}

void
dc_json_key(dc_json_t *j, const char *key)
{
	before_item(j);
	dc_json_quote(j->s, key);
	g_string_append(j->s, j->pretty ? ": " : ":");
	j->after_key = 1;
}

void
dc_json_string(dc_json_t *j, const char *s)
{
	if (!s) {
		dc_json_null(j);
		return;
	}
	before_item(j);
	dc_json_quote(j->s, s);
}

void
dc_json_int(dc_json_t *j, int64_t v)
{
	before_item(j);
	g_string_append_printf(j->s, "%" G_GINT64_FORMAT, (gint64)v);
}

void
dc_json_bool(dc_json_t *j, int v)
{
	before_item(j);
	g_string_append(j->s, v ? "true" : "false");
}

void
dc_json_null(dc_json_t *j)
{
	before_item(j);
	g_string_append(j->s, "null");
}
