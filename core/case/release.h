/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Kernel release cycles, for remedial measures "until v6.4 is released".
 * Known release dates come from a table; later releases are estimated at
 * one every 63 days (nine weeks) after the newest known one, with the
 * major number going up after x.19 as it did after 5.19.
 */
#ifndef DC_RELEASE_H
#define DC_RELEASE_H

#include <stdint.h>

#include "core/base/status.h"

typedef struct dc_release {
	int major, minor;
} dc_release_t;

#define DC_RELEASE_CYCLE_DAYS 63

/* "v6.4" or "6.4"; DC_E_USAGE otherwise. */
dc_status_t dc_release_parse(const char *s, dc_release_t *out,
			     dc_error_t *err);
/* "v6.4" into buf. */
void dc_release_format(dc_release_t r, char buf[static 16]);
int dc_release_cmp(dc_release_t a, dc_release_t b);
/* Release date (UTC midnight, unix seconds); *estimated 1 when it is not
 * in the table.  Releases before the table's first are DC_E_NOT_FOUND. */
dc_status_t dc_release_date(dc_release_t r, int64_t *date, int *estimated,
			    dc_error_t *err);
/* The n-th release (n >= 1) after time t. */
dc_release_t dc_release_after(int64_t t, int n);
/* The newest release made at or before time t. */
dc_release_t dc_release_at(int64_t t);

/*
 * A point in time from "YYYY-MM-DD" (UTC) or a release ("v6.4": the day
 * it is, or is expected to be, released).  *release is set for the
 * latter, else zeroed.
 */
dc_status_t dc_when_parse(const char *s, int64_t *t, dc_release_t *release,
			  dc_error_t *err);
/*
 * The end of a remedial measure that starts at from: a date or a release
 * as dc_when_parse takes them, or a number of release cycles ("2 cycles",
 * "1 cycle" or "2": until the second release after from).  DC_E_USAGE
 * says what is taken.
 */
dc_status_t dc_until_parse(const char *s, int64_t from, int64_t *t,
			   dc_release_t *release, dc_error_t *err);

#endif
