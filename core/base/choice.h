/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A word chosen from a fixed list (a case kind, a state, a role, a vote):
 * finding it, and the usage error that lists the words when it is none
 * of them, so that the message always says what the list says.
 */
#ifndef DC_CHOICE_H
#define DC_CHOICE_H

#include <glib.h>

#include "core/base/status.h"

/*
 * The index of s in names[0..n), or -1 (also for a NULL s).  With n < 0
 * the list ends at its first NULL.
 */
int dc_choice_find(const char *const *names, int n, const char *s);
/*
 * Set *out to the index of s in names (as dc_choice_find), or fail with
 * DC_E_USAGE: "unknown WHAT 'S' (a, b or c)".
 */
dc_status_t dc_choice_parse(const char *const *names, int n, const char *what,
			    const char *s, int *out, dc_error_t *err);

/*
 * s as one of names: the name it is, or else the only name it begins
 * ("inv" for "investigating").  Returns the index, -1 when no name fits
 * (also for a NULL or empty s) or -2 when s begins several names
 * (dc_choice_matches lists them).
 */
int dc_choice_resolve(const char *const *names, int n, const char *s);
/*
 * The names that begin with prefix, in list order (the strings are the
 * list's own; g_ptr_array_unref the array).
 */
GPtrArray *dc_choice_matches(const char *const *names, int n,
			     const char *prefix);
/* The names joined as "a, b or c" (g_free). */
char *dc_choice_list(const char *const *names, int n);

#endif
