// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Kernel release dates.  The table holds the dates Linus Torvalds tagged
 * the releases; after its end, one release every 63 days.  Releases are
 * numbered x.0 to x.19 before the major number goes up (5.19 -> 6.0), so
 * a release's place in the sequence is 20 * major + minor.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "core/case/release.h"

static const struct {
	int major, minor;
	int y, m, d;
} known[] = {
	{ 5, 0, 2019, 3, 3 },	 { 5, 1, 2019, 5, 5 },
	{ 5, 2, 2019, 7, 7 },	 { 5, 3, 2019, 9, 15 },
	{ 5, 4, 2019, 11, 24 },	 { 5, 5, 2020, 1, 26 },
	{ 5, 6, 2020, 3, 29 },	 { 5, 7, 2020, 5, 31 },
	{ 5, 8, 2020, 8, 2 },	 { 5, 9, 2020, 10, 11 },
	{ 5, 10, 2020, 12, 13 }, { 5, 11, 2021, 2, 14 },
	{ 5, 12, 2021, 4, 25 },	 { 5, 13, 2021, 6, 27 },
	{ 5, 14, 2021, 8, 29 },	 { 5, 15, 2021, 10, 31 },
	{ 5, 16, 2022, 1, 9 },	 { 5, 17, 2022, 3, 20 },
	{ 5, 18, 2022, 5, 22 },	 { 5, 19, 2022, 7, 31 },
	{ 6, 0, 2022, 10, 2 },	 { 6, 1, 2022, 12, 11 },
	{ 6, 2, 2023, 2, 19 },	 { 6, 3, 2023, 4, 23 },
	{ 6, 4, 2023, 6, 25 },	 { 6, 5, 2023, 8, 27 },
	{ 6, 6, 2023, 10, 30 },	 { 6, 7, 2024, 1, 7 },
	{ 6, 8, 2024, 3, 10 },	 { 6, 9, 2024, 5, 12 },
	{ 6, 10, 2024, 7, 14 },	 { 6, 11, 2024, 9, 15 },
	{ 6, 12, 2024, 11, 17 },
};

#define N_KNOWN ((int)G_N_ELEMENTS(known))
#define DAY 86400

static int
seq(dc_release_t r)
{
	return 20 * r.major + r.minor;
}

static dc_release_t
from_seq(int n)
{
	dc_release_t r = { n / 20, n % 20 };

	return r;
}

static int64_t
utc(int y, int m, int d)
{
	GDateTime *dt = g_date_time_new_utc(y, m, d, 0, 0, 0);
	int64_t t = dt ? g_date_time_to_unix(dt) : 0;

	if (dt)
		g_date_time_unref(dt);
	return t;
}

/* 1 to 999, in decimal digits only. */
static int
parse_major(const char *s, gssize len, guint64 *out)
{
	char *copy;
	int ok;

	if (len < 1 || len > 3)
		return 0;
	copy = g_strndup(s, len);
	ok = g_ascii_string_to_unsigned(copy, 10, 1, 999, out, NULL);
	g_free(copy);
	return ok;
}

dc_status_t
dc_release_parse(const char *s, dc_release_t *out, dc_error_t *err)
{
	guint64 major = 0, minor = 0;
	const char *dot = s ? strchr(s, '.') : NULL;

	if (s && *s == 'v')
		s++;
	/* Digits only and small: "%d" would overflow on a long number and
	 * the release arithmetic after it too (20 * major). */
	if (!dot || !g_ascii_string_to_unsigned(dot + 1, 10, 0, 30, &minor,
						NULL) ||
	    !parse_major(s, dot - s, &major))
		return dc_fail(err, DC_E_USAGE,
			       "'%s' is not a kernel release (like v6.4)",
			       s ? s : "");
	out->major = major;
	out->minor = minor;
	return DC_OK;
}

void
dc_release_format(dc_release_t r, char buf[static 16])
{
	snprintf(buf, 16, "v%d.%d", r.major, r.minor);
}

int
dc_release_cmp(dc_release_t a, dc_release_t b)
{
	return (seq(a) > seq(b)) - (seq(a) < seq(b));
}

static int64_t
date_of_seq(int n, int *estimated)
{
	int last = N_KNOWN - 1;
	int i;

	for (i = 0; i < N_KNOWN; i++) {
		dc_release_t r = { known[i].major, known[i].minor };

		if (seq(r) == n) {
			*estimated = 0;
			return utc(known[i].y, known[i].m, known[i].d);
		}
	}
	*estimated = 1;
	return utc(known[last].y, known[last].m, known[last].d) +
	       (int64_t)(n - (20 * known[last].major + known[last].minor)) *
		   DC_RELEASE_CYCLE_DAYS * DAY;
}

static int
first_seq(void)
{
	return 20 * known[0].major + known[0].minor;
}

dc_status_t
dc_release_date(dc_release_t r, int64_t *date, int *estimated,
		dc_error_t *err)
{
	char buf[16];

	if (seq(r) < first_seq()) {
		dc_release_format(r, buf);
		return dc_fail(err, DC_E_NOT_FOUND,
			       "%s is older than the releases decorum knows "
			       "(v%d.%d and later)",
			       buf, known[0].major, known[0].minor);
	}
	*date = date_of_seq(seq(r), estimated);
	return DC_OK;
}

dc_release_t
dc_release_after(int64_t t, int n)
{
	int s = first_seq(), est;

	while (date_of_seq(s, &est) <= t)
		s++;
	return from_seq(s + MAX(n, 1) - 1);
}

dc_release_t
dc_release_at(int64_t t)
{
	dc_release_t next = dc_release_after(t, 1);

	return from_seq(MAX(seq(next) - 1, first_seq()));
}

dc_status_t
dc_when_parse(const char *s, int64_t *t, dc_release_t *release,
	      dc_error_t *err)
{
	int y, m, d, n = 0, est;

	memset(release, 0, sizeof(*release));
	if (s && (*s == 'v' || strchr(s, '.'))) {
		dc_status_t st = dc_release_parse(s, release, err);

		if (st == DC_OK)
			st = dc_release_date(*release, t, &est, err);
		return st;
	}
	if (s && sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &n) == 3 &&
	    s[n] == '\0' && g_date_valid_dmy(d, m, y)) {
		*t = utc(y, m, d);
		return DC_OK;
	}
	return dc_fail(err, DC_E_USAGE,
		       "'%s' is neither a date (YYYY-MM-DD) nor a kernel "
		       "release (v6.4)",
		       s ? s : "");
}

/* "2", "2 cycles", "1 cycle": the number, or 0. */
static int
cycles(const char *s)
{
	char *end;
	long n;

	if (!g_ascii_isdigit(*s))
		return 0;
	n = strtol(s, &end, 10);
	while (*end == ' ')
		end++;
	if (*end && strcmp(end, "cycles") && strcmp(end, "cycle"))
		return 0;
	return n > 0 && n < 100 ? (int)n : 0;
}

dc_status_t
dc_until_parse(const char *s, int64_t from, int64_t *t,
	       dc_release_t *release, dc_error_t *err)
{
	dc_error_t e = { 0 };
	int n, est;

	s = s ? s : "";
	while (*s == ' ')
		s++;
	n = cycles(s);
	if (n) {
		*release = dc_release_after(from, n);
		return dc_release_date(*release, t, &est, err);
	}
	if (dc_when_parse(s, t, release, &e) == DC_OK)
		return DC_OK;
	memset(release, 0, sizeof(*release));
	if (e.status == DC_E_NOT_FOUND) /* a release older than the table */
		return dc_fail(err, e.status, "%s", e.msg);
	return dc_fail(err, DC_E_USAGE,
		       "'%s' is not a date (YYYY-MM-DD), a kernel release "
		       "(v7.2) or a number of release cycles (2 cycles, "
		       "1 to 99)",
		       s);
}
