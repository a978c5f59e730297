// SPDX-License-Identifier: GPL-3.0-or-later
/* The category of a case (see core/case/category.h). */
#include <string.h>

#include "core/base/config.h"
#include "core/case/access.h"
#include "core/case/category.h"

/* The categories of the committee's published reports. */
static const char *const defaults[] = {
	"development-process related",
	"scope and enforcement related",
	"unacceptable behaviour or comments",
	NULL,
};

char **
dc_category_split(const char *value)
{
	GPtrArray *a = g_ptr_array_new();
	char **parts = value ? g_strsplit_set(value, ";\n", -1) : NULL;
	guint i;

	for (i = 0; parts && parts[i]; i++) {
		char *p = g_strstrip(g_strdup(parts[i]));

		if (*p)
			g_ptr_array_add(a, p);
		else
			g_free(p);
	}
	g_strfreev(parts);
	if (!a->len)
		for (i = 0; defaults[i]; i++)
			g_ptr_array_add(a, g_strdup(defaults[i]));
	g_ptr_array_add(a, NULL);
	return (char **)g_ptr_array_free(a, FALSE);
}

char **
dc_category_list(const char *path)
{
	char *v = dc_config_value(path, "report", "categories");
	char **list = dc_category_split(v);

	g_free(v);
	return list;
}

static char *
list_text(char *const *list)
{
	GString *s = g_string_new(NULL);
	int i;

	for (i = 0; list[i]; i++)
		g_string_append_printf(s, "%s\"%s\"", i ? "; " : "", list[i]);
	return g_string_free(s, FALSE);
}

const char *
dc_category_match(char *const *list, const char *text, dc_error_t *err)
{
	char *t = g_strstrip(g_strdup(text ? text : ""));
	const char *hit = NULL;
	size_t n = strlen(t);
	int i, prefixes = 0;
	char *all;

	for (i = 0; n && list[i] && !hit; i++)
		if (!g_ascii_strcasecmp(list[i], t))
			hit = list[i];
	for (i = 0; n && list[i] && !hit; i++)
		if (!g_ascii_strncasecmp(list[i], t, n))
			prefixes++;
	for (i = 0; n && list[i] && !hit && prefixes == 1; i++)
		if (!g_ascii_strncasecmp(list[i], t, n))
			hit = list[i];
	if (!hit) {
		all = list_text(list);
		dc_fail(err, DC_E_USAGE, "%s category '%s' (one of: %s)",
			prefixes > 1 ? "ambiguous" : "unknown", t, all);
		g_free(all);
	}
	g_free(t);
	return hit;
}

/* Once the committee has members, only a current one categorises. */
static dc_status_t
check_actor(dc_store_t *s, const char *actor, int64_t now, dc_error_t *err)
{
	dc_store_member_t *m = NULL;
	int committee = 0;
	dc_status_t st = dc_member_count_active(s, "committee", now,
						&committee, err);

	if (st != DC_OK || committee == 0)
		return st;
	st = actor ? dc_store_member_get(s, actor, &m, err) : DC_E_NOT_FOUND;
	if (st == DC_E_NOT_FOUND ||
	    (st == DC_OK && (strcmp(m->role, "committee") || m->joined > now ||
			     (m->left && now >= m->left))))
		st = dc_fail(err, DC_E_DENIED,
			     "%s is not an active committee member: only the "
			     "committee sets a case's category",
			     actor ? actor : "(unidentified)");
	dc_store_member_free(m);
	return st;
}

dc_status_t
dc_case_category(dc_store_t *s, int64_t case_id, const char *text,
		 const char *actor, int64_t now, dc_error_t *err)
{
	char **list = dc_category_list(NULL);
	const char *hit = dc_category_match(list, text, err);
	dc_case_t *c = NULL;
	GVariantBuilder b;
	dc_status_t st = hit ? DC_OK : DC_E_USAGE;

	if (st == DC_OK)
		st = dc_case_get(s, case_id, &c, err);
	if (st == DC_OK && c->withdrawn)
		st = dc_fail(err, DC_E_INVALID,
			     "case %" G_GINT64_FORMAT " was withdrawn",
			     (gint64)case_id);
	if (st == DC_OK)
		st = check_actor(s, actor, now, err);
	dc_case_free(c);
	if (st == DC_OK) {
		g_variant_builder_init(&b, G_VARIANT_TYPE("a{sv}"));
		g_variant_builder_add(&b, "{sv}", "category",
				      g_variant_new_string(hit));
		st = dc_case_record(s, case_id, "category",
				    g_variant_builder_end(&b), actor, now,
				    err);
	}
	g_strfreev(list);
	return st;
}
