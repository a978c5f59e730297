// SPDX-License-Identifier: GPL-3.0-or-later
/* A word chosen from a fixed list (see core/base/choice.h). */
#include <string.h>

#include <glib.h>

#include "core/base/choice.h"

static int
count(const char *const *names, int n)
{
	int i = 0;

	if (n >= 0)
		return n;
	while (names[i])
		i++;
	return i;
}

int
dc_choice_find(const char *const *names, int n, const char *s)
{
	int i;

	n = count(names, n);
	for (i = 0; s && i < n; i++)
		if (names[i] && !strcmp(s, names[i]))
			return i;
	return -1;
}

char *
dc_choice_list(const char *const *names, int n)
{
	GString *list = g_string_new(NULL);
	int i;

	n = count(names, n);
	for (i = 0; i < n; i++) {
		if (i)
			g_string_append(list, i == n - 1 ? " or " : ", ");
		g_string_append(list, names[i] ? names[i] : "");
	}
	return g_string_free(list, FALSE);
}

dc_status_t
dc_choice_parse(const char *const *names, int n, const char *what,
		const char *s, int *out, dc_error_t *err)
{
	int i = dc_choice_find(names, n, s);
	char *list;
	dc_status_t st;

	if (i >= 0) {
		*out = i;
		return DC_OK;
	}
	list = dc_choice_list(names, n);
	st = dc_fail(err, DC_E_USAGE, "unknown %s '%s' (%s)", what,
		     s ? s : "", list);
	g_free(list);
	return st;
}

GPtrArray *
dc_choice_matches(const char *const *names, int n, const char *prefix)
{
	GPtrArray *a = g_ptr_array_new();
	int i;

	n = count(names, n);
	for (i = 0; prefix && i < n; i++)
		if (names[i] && g_str_has_prefix(names[i], prefix))
			g_ptr_array_add(a, (gpointer)names[i]);
	return a;
}

int
dc_choice_resolve(const char *const *names, int n, const char *s)
{
	int i, found = -1;

	if (!s || !*s)
		return -1;
	i = dc_choice_find(names, n, s);
	if (i >= 0)
		return i;
	n = count(names, n);
	for (i = 0; i < n; i++) {
		if (!names[i] || !g_str_has_prefix(names[i], s))
			continue;
		if (found >= 0)
			return -2;
		found = i;
	}
	return found;
}
