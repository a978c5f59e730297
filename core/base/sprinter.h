/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The structured printer, after notmuch's sprinter: every command's
 * --json output, the report's JSON format and the packet's JSON files are
 * written through it, and each object (thread, message, case, event,
 * member ...) is described once, in core/export/describe.c.
 *
 * The printer owns the rules that used to differ from command to command:
 *   - a time is ISO 8601 UTC ("2026-12-06T09:30:00Z"), and an unknown
 *     time (0) is null, never 1970;
 *   - a string taken from mail or typed by a person goes through the one
 *     sanitizer (dc_sp_mail for a line, dc_sp_mail_text for a body or a
 *     note) and then through the printer's filter, which is how a redacted
 *     packet replaces identities in every string it writes;
 *   - NULL is null.
 * The program's own strings (kinds, states, keys) use dc_sp_string.
 */
#ifndef DC_SPRINTER_H
#define DC_SPRINTER_H

#include <glib.h>
#include <stdint.h>

typedef struct dc_sp dc_sp_t;

/* A filter returns a new string (g_free) for a sanitized one. */
typedef char *(*dc_sp_filter_fn)(const char *s, void *data);

/* pretty: one member per line, indented by two spaces. */
dc_sp_t *dc_sp_json_new(int pretty);
/* Free the printer and return the text (g_free), ending in a newline. */
char *dc_sp_finish(dc_sp_t *sp);
void dc_sp_set_filter(dc_sp_t *sp, dc_sp_filter_fn fn, void *data);

void dc_sp_map(dc_sp_t *sp);
void dc_sp_list(dc_sp_t *sp);
void dc_sp_end(dc_sp_t *sp);
/* Inside a map: the next value's key. */
void dc_sp_key(dc_sp_t *sp, const char *key);

void dc_sp_string(dc_sp_t *sp, const char *s);
void dc_sp_mail(dc_sp_t *sp, const char *raw);
void dc_sp_mail_text(dc_sp_t *sp, const char *raw);
void dc_sp_int(dc_sp_t *sp, int64_t v);
void dc_sp_bool(dc_sp_t *sp, int v);
void dc_sp_null(dc_sp_t *sp);
void dc_sp_time(dc_sp_t *sp, int64_t t);

/* A key and its value in one call. */
void dc_sp_kstring(dc_sp_t *sp, const char *key, const char *s);
void dc_sp_kmail(dc_sp_t *sp, const char *key, const char *raw);
void dc_sp_kmail_text(dc_sp_t *sp, const char *key, const char *raw);
void dc_sp_kint(dc_sp_t *sp, const char *key, int64_t v);
void dc_sp_kbool(dc_sp_t *sp, const char *key, int v);
void dc_sp_ktime(dc_sp_t *sp, const char *key, int64_t t);
/* An integer, or null when v is 0 (an event or case that is not there). */
void dc_sp_kid(dc_sp_t *sp, const char *key, int64_t v);
/* A list of strings from mail (tags, Message-IDs, thread ids). */
void dc_sp_kmail_list(dc_sp_t *sp, const char *key, const GPtrArray *a);

/* ISO 8601 UTC of t, or NULL for 0 or a time out of range (g_free). */
char *dc_iso8601(int64_t t);

#endif
