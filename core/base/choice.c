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

dc_status_t
dc_choice_parse(const char *const *names, int n, const char *what,
		const char *s, int *out, dc_error_t *err)
{
	int i = dc_choice_find(names, n, s);
	GString *list;
	dc_status_t st;

	if (i >= 0) {
		*out = i;
		return DC_OK;
	}
	n = count(names, n);
	list = g_string_new(NULL);
	for (i = 0; i < n; i++) {
		if (i)
			g_string_append(list, i == n - 1 ? " or " : ", ");
		g_string_append(list, names[i]);
	}
	st = dc_fail(err, DC_E_USAGE, "unknown %s '%s' (%s)", what,
		     s ? s : "", list->str);
	g_string_free(list, TRUE);
	return st;
}
