/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The one clock of every command and view.
 */
#ifndef DC_CLOCK_H
#define DC_CLOCK_H

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The current time: $DECORUM_NOW when set (unix seconds, YYYY-MM-DD or
 * ISO 8601; for tests and reproducible reports), else the clock.  The
 * variable is read once per run.
 */
int64_t dc_now(void);
/* A $DECORUM_NOW value as unix seconds; -1 when it is none of those
 * forms (dc_now() then reads the system clock). */
int64_t dc_clock_parse(const char *v);
/* The last second of year 9999: the latest dc_now() gives. */
#define DC_NOW_MAX INT64_C(253402300799)

/* "YYYY-MM-DD" (exactly len == 10 bytes of s) as its 00:00 UTC; 0 if it
 * is not one. */
int dc_parse_day(const char *s, size_t len, int64_t *out);

#endif
