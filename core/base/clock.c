// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The one clock (see core/base/clock.h): $DECORUM_NOW, parsed here only, or
 * the system clock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/base/clock.h"

int
dc_parse_day(const char *s, size_t len, int64_t *out)
{
	char buf[11];
	GDateTime *d;
	int y, m, day;

	if (len != 10)
		return 0;
	memcpy(buf, s, 10);
	buf[10] = 0;
	if (sscanf(buf, "%4d-%2d-%2d", &y, &m, &day) != 3 || buf[4] != '-' ||
	    buf[7] != '-')
		return 0;
	d = g_date_time_new_utc(y, m, day, 0, 0, 0);
	if (!d)
		return 0;
	*out = g_date_time_to_unix(d);
	g_date_time_unref(d);
	return 1;
}

int64_t
dc_clock_parse(const char *v)
{
	int64_t t;

	if (v && *v) {
		guint64 secs;

		/* Up to the end of year 9999, as far as dates go: the day
		 * arithmetic of periods must not overflow. */
		if (g_ascii_string_to_unsigned(v, 10, 0, DC_NOW_MAX, &secs,
					       NULL))
			return (int64_t)secs;
		if (dc_parse_day(v, strlen(v), &t))
			return t;
		GDateTime *d = g_date_time_new_from_iso8601(v, NULL);

		if (d) {
			t = g_date_time_to_unix(d);
			g_date_time_unref(d);
			return t;
		}
	}
	return -1;
}

/* Parsed once: every command and view of one run reads the same
 * clock setting. */
int64_t
dc_now(void)
{
	static int64_t fixed;
	static int read;

	if (!read) {
		fixed = dc_clock_parse(getenv("DECORUM_NOW"));
		read = 1;
	}
	return fixed >= 0 ? fixed : (int64_t)time(NULL);
}
