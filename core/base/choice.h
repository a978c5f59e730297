/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A word chosen from a fixed list (a case kind, a state, a role, a vote):
 * finding it, and the usage error that lists the words when it is none
 * of them, so that the message always says what the list says.
 */
#ifndef DC_CHOICE_H
#define DC_CHOICE_H

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

#endif
