/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A small streaming JSON writer: output is stable (keys in the order
 * written), UTF-8, with every control character escaped.  Strings from mail
 * must be sanitized before they are handed to it.
 */
#ifndef DC_JSON_H
#define DC_JSON_H

#include <glib.h>
#include <stdint.h>

typedef struct dc_json dc_json_t;

/* pretty: one member per line, indented by two spaces. */
dc_json_t *dc_json_new(int pretty);
/* Free the writer and return the text (g_free). */
char *dc_json_finish(dc_json_t *j);

void dc_json_begin_object(dc_json_t *j);
void dc_json_end_object(dc_json_t *j);
void dc_json_begin_array(dc_json_t *j);
void dc_json_end_array(dc_json_t *j);
/* Inside an object: the next value's key. */
void dc_json_key(dc_json_t *j, const char *key);
void dc_json_string(dc_json_t *j, const char *s); /* NULL writes null */
void dc_json_int(dc_json_t *j, int64_t v);
void dc_json_bool(dc_json_t *j, int v);
void dc_json_null(dc_json_t *j);

/* Append s as a JSON string literal (quotes included) to out. */
void dc_json_quote(GString *out, const char *s);

#endif
