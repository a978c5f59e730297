// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/sprinter.h"

#include "core/base/json.h"
#include "core/base/sanitize.h"

struct dc_sp {
	dc_json_t *json;
	dc_sp_filter_fn filter;
	void *filter_data;
	int depth;
	char open[64]; /* 'm' or 'l' for each level that is open */
};

static void
push(dc_sp_t *sp, char kind)
{
	if (sp->depth < (int)sizeof(sp->open))
		sp->open[sp->depth] = kind;
	sp->depth++;
}

dc_sp_t *
dc_sp_json_new(int pretty)
{
	dc_sp_t *sp = g_new0(dc_sp_t, 1);

	sp->json = dc_json_new(pretty);
	return sp;
}

char *
dc_sp_finish(dc_sp_t *sp)
{
	char *text = dc_json_finish(sp->json);

	g_free(sp);
	return text;
}

void
dc_sp_set_filter(dc_sp_t *sp, dc_sp_filter_fn fn, void *data)
{
	sp->filter = fn;
	sp->filter_data = data;
}

void
dc_sp_map(dc_sp_t *sp)
{
	push(sp, 'm');
	dc_json_begin_object(sp->json);
}

void
dc_sp_list(dc_sp_t *sp)
{
	push(sp, 'l');
	dc_json_begin_array(sp->json);
}

void
dc_sp_end(dc_sp_t *sp)
{
	char kind;

	if (sp->depth == 0)
		return;
	sp->depth--;
	kind = sp->depth < (int)sizeof(sp->open) ? sp->open[sp->depth] : 'm';
	if (kind == 'l')
		dc_json_end_array(sp->json);
	else
		dc_json_end_object(sp->json);
}

void
dc_sp_key(dc_sp_t *sp, const char *key)
{
	dc_json_key(sp->json, key);
}

void
dc_sp_string(dc_sp_t *sp, const char *s)
{
	dc_json_string(sp->json, s);
}

static void
mail(dc_sp_t *sp, const char *raw, dc_san_mode_t mode)
{
	char *s, *f;

	if (!raw) {
		dc_json_null(sp->json);
		return;
	}
	s = dc_sanitize(raw, -1, mode, NULL);
	if (sp->filter) {
		f = sp->filter(s, sp->filter_data);
		g_free(s);
		s = f;
	}
	dc_json_string(sp->json, s);
	g_free(s);
}

void
dc_sp_mail(dc_sp_t *sp, const char *raw)
{
	mail(sp, raw, DC_SAN_LINE);
}

void
dc_sp_mail_text(dc_sp_t *sp, const char *raw)
{
	mail(sp, raw, DC_SAN_TEXT);
}

void
dc_sp_int(dc_sp_t *sp, int64_t v)
{
	dc_json_int(sp->json, v);
}

void
dc_sp_bool(dc_sp_t *sp, int v)
{
	dc_json_bool(sp->json, v);
}

void
dc_sp_null(dc_sp_t *sp)
{
	dc_json_null(sp->json);
}

char *
dc_iso8601(int64_t t)
{
	GDateTime *d;
	char *s;

	if (t == 0)
		return NULL;
	d = g_date_time_new_from_unix_utc(t);
	if (!d)
		return NULL;
	s = g_date_time_format(d, "%Y-%m-%dT%H:%M:%SZ");
	g_date_time_unref(d);
	return s;
}

void
dc_sp_time(dc_sp_t *sp, int64_t t)
{
	char *s = dc_iso8601(t);

	dc_json_string(sp->json, s); /* NULL: null */
	g_free(s);
}

void
dc_sp_kstring(dc_sp_t *sp, const char *key, const char *s)
{
	dc_sp_key(sp, key);
	dc_sp_string(sp, s);
}

void
dc_sp_kmail(dc_sp_t *sp, const char *key, const char *raw)
{
	dc_sp_key(sp, key);
	dc_sp_mail(sp, raw);
}

void
dc_sp_kmail_text(dc_sp_t *sp, const char *key, const char *raw)
{
	dc_sp_key(sp, key);
	dc_sp_mail_text(sp, raw);
}

void
dc_sp_kint(dc_sp_t *sp, const char *key, int64_t v)
{
	dc_sp_key(sp, key);
	dc_sp_int(sp, v);
}

void
dc_sp_kbool(dc_sp_t *sp, const char *key, int v)
{
	dc_sp_key(sp, key);
	dc_sp_bool(sp, v);
}

void
dc_sp_ktime(dc_sp_t *sp, const char *key, int64_t t)
{
	dc_sp_key(sp, key);
	dc_sp_time(sp, t);
}

void
dc_sp_kid(dc_sp_t *sp, const char *key, int64_t v)
{
	dc_sp_key(sp, key);
	if (v)
		dc_sp_int(sp, v);
	else
		dc_sp_null(sp);
}

void
dc_sp_kmail_list(dc_sp_t *sp, const char *key, const GPtrArray *a)
{
	guint i;

	dc_sp_key(sp, key);
	dc_sp_list(sp);
	for (i = 0; a && i < a->len; i++)
		dc_sp_mail(sp, a->pdata[i]);
	dc_sp_end(sp);
}
