// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * decorum's configuration file (a GLib key file).  Lines GKeyFile would
 * reject are found first, one by one, so that a single bad line costs a
 * warning with its line number instead of the whole file.
 */
#include <stdarg.h>
#include <string.h>

#include "core/base/config.h"

struct dc_config {
	char *path;
	GHashTable *values; /* "group\037key" -> value */
	GHashTable *lines;  /* "group\037key" -> line number */
	GHashTable *keys;   /* group -> char ** in file order */
	GPtrArray *warnings;
};

static char *
slot(const char *group, const char *key)
{
	return g_strconcat(group, "\037", key, NULL);
}

char *
dc_config_default_path(void)
{
	const char *env = g_getenv("DECORUM_CONFIG");

	if (env && *env)
		return g_strdup(env);
	return g_build_filename(g_get_user_config_dir(), "decorum", "config",
				NULL);
}

static void
warn_line(dc_config_t *c, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
warn_line(dc_config_t *c, int line, const char *fmt, ...)
{
	va_list ap;
	char *why;

	va_start(ap, fmt);
	why = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_ptr_array_add(c->warnings,
			g_strdup_printf("%s:%d: %s; ignored", c->path, line,
					why));
	g_free(why);
}

static int
valid_key(const char *k, gsize len)
{
	gsize i;

	if (!len)
		return 0;
	for (i = 0; i < len; i++)
		if (!g_ascii_isalnum(k[i]) && k[i] != '-' && k[i] != '_' &&
		    k[i] != '.')
			return 0;
	return 1;
}

/* Blank out the lines GKeyFile would refuse; remember where keys are. */
static char *
screen_lines(dc_config_t *c, const char *data)
{
	char **lines = g_strsplit(data, "\n", -1);
	GString *out = g_string_new(NULL);
	char *group = NULL;
	int i;

	for (i = 0; lines[i]; i++) {
		char *l = g_strstrip(g_strdup(lines[i]));
		const char *eq = strchr(l, '=');
		int keep = 1;

		if (!*l || *l == '#') {
			;
		} else if (*l == '[') {
			gsize n = strlen(l);

			if (n < 3 || l[n - 1] != ']' || strchr(l + 1, '[') ||
			    strchr(l + 1, ']') != l + n - 1) {
				warn_line(c, i + 1, "not a [group] line");
				keep = 0;
				g_free(group);
				group = NULL; /* its keys go nowhere */
			} else {
				g_free(group);
				group = g_strndup(l + 1, n - 2);
			}
		} else if (!eq) {
			warn_line(c, i + 1,
				  "not a \"key = value\" line or a [group]");
			keep = 0;
		} else if (!group) {
			warn_line(c, i + 1, "a key outside any [group]");
			keep = 0;
		} else {
			gsize klen = eq - l;
			char *key;

			while (klen && g_ascii_isspace(l[klen - 1]))
				klen--;
			if (!valid_key(l, klen)) {
				warn_line(c, i + 1, "bad key name");
				keep = 0;
			} else if (!g_utf8_validate(lines[i], -1, NULL)) {
				warn_line(c, i + 1, "not valid UTF-8");
				keep = 0;
			} else {
				key = g_strndup(l, klen);
				g_hash_table_insert(c->lines,
						    slot(group, key),
						    GINT_TO_POINTER(i + 1));
				g_free(key);
			}
		}
		g_string_append(out, keep ? lines[i] : "#");
		g_string_append_c(out, '\n');
		g_free(l);
	}
	g_free(group);
	g_strfreev(lines);
	return g_string_free(out, FALSE);
}

static void
take_values(dc_config_t *c, GKeyFile *kf)
{
	char **groups = g_key_file_get_groups(kf, NULL);
	int g, k;

	for (g = 0; groups[g]; g++) {
		char **keys = g_key_file_get_keys(kf, groups[g], NULL, NULL);

		for (k = 0; keys && keys[k]; k++) {
			GError *e = NULL;
			char *v = g_key_file_get_string(kf, groups[g], keys[k],
							&e);

			if (!v) {
				dc_config_warn(c, groups[g], keys[k], "%s",
					       e->message);
				g_clear_error(&e);
				continue;
			}
			g_hash_table_insert(c->values,
					    slot(groups[g], keys[k]), v);
		}
		if (keys)
			g_hash_table_insert(c->keys, g_strdup(groups[g]),
					    keys);
	}
	g_strfreev(groups);
}

dc_config_t *
dc_config_load(const char *path)
{
	dc_config_t *c = g_new0(dc_config_t, 1);
	GKeyFile *kf = g_key_file_new();
	GError *e = NULL;
	char *data = NULL, *clean;

	c->path = path ? g_strdup(path) : dc_config_default_path();
	c->values = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					  g_free);
	c->lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					 NULL);
	c->keys = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					(GDestroyNotify)g_strfreev);
	c->warnings = g_ptr_array_new_with_free_func(g_free);
	if (!g_file_get_contents(c->path, &data, NULL, &e)) {
		if (!g_error_matches(e, G_FILE_ERROR, G_FILE_ERROR_NOENT))
			g_ptr_array_add(c->warnings,
					g_strdup_printf("%s: %s; using the "
							"defaults",
							c->path, e->message));
		g_clear_error(&e);
		g_key_file_free(kf);
		return c;
	}
	clean = screen_lines(c, data);
	if (g_key_file_load_from_data(kf, clean, -1, G_KEY_FILE_NONE, &e))
		take_values(c, kf);
	else
		g_ptr_array_add(c->warnings,
				g_strdup_printf("%s: %s; using the defaults",
						c->path, e->message));
	g_clear_error(&e);
	g_free(clean);
	g_free(data);
	g_key_file_free(kf);
	return c;
}

void
dc_config_free(dc_config_t *c)
{
	if (!c)
		return;
	g_hash_table_destroy(c->values);
	g_hash_table_destroy(c->lines);
	g_hash_table_destroy(c->keys);
	g_ptr_array_unref(c->warnings);
	g_free(c->path);
	g_free(c);
}

const char *
dc_config_path(const dc_config_t *c)
{
	return c->path;
}

const char *
dc_config_get(const dc_config_t *c, const char *group, const char *key)
{
	char *k = slot(group, key);
	const char *v = g_hash_table_lookup(c->values, k);

	g_free(k);
	return v;
}

const char *const *
dc_config_keys(const dc_config_t *c, const char *group)
{
	static const char *const none[] = { NULL };
	const char *const *keys = g_hash_table_lookup(c->keys, group);

	return keys ? keys : none;
}

int
dc_config_line(const dc_config_t *c, const char *group, const char *key)
{
	char *k = slot(group, key);
	int line = GPOINTER_TO_INT(g_hash_table_lookup(c->lines, k));

	g_free(k);
	return line;
}

void
dc_config_warn(dc_config_t *c, const char *group, const char *key,
	       const char *fmt, ...)
{
	va_list ap;
	char *why;

	va_start(ap, fmt);
	why = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_ptr_array_add(c->warnings,
			g_strdup_printf("%s:%d: [%s] %s: %s; ignored", c->path,
					dc_config_line(c, group, key), group,
					key, why));
	g_free(why);
}

GPtrArray *
dc_config_warnings(const dc_config_t *c)
{
	return c->warnings;
}

/* Through dc_config_load, so that a bad line elsewhere in the file costs
 * that line only, as in the TUI. */
char *
dc_config_value(const char *path, const char *group, const char *key)
{
	dc_config_t *c = dc_config_load(path);
	const char *v = dc_config_get(c, group, key);
	char *r = v ? g_strstrip(g_strdup(v)) : NULL;

	if (r && !*r)
		g_clear_pointer(&r, g_free);
	dc_config_free(c);
	return r;
}
