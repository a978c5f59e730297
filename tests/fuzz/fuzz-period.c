// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Period and time parsing (core/export/report.c, core/case/release.c): the report's
 * --period, and the "YYYY-MM-DD or release" points of remedial measures.
 * A period that parses starts and ends on UTC midnights and ends after it
 * starts; a release that parses prints back to itself.
 *
 * Input: 8 bytes of "now", then the string.
 */
#include "core/case/release.h"
#include "core/export/report.h"
#include "tests/fuzz/fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	dc_error_t err = { 0 };
	dc_period_t p;
	dc_release_t r, r2, rw;
	int64_t now, t;
	char *spec, *label, buf[16];

	if (size < 8)
		return 0;
	memcpy(&now, data, 8);
	/* What dc_now() can give: 1970 to the end of 9999. */
	now = (int64_t)((uint64_t)now % (DC_NOW_MAX + 1));
	spec = g_strndup((const char *)data + 8, size - 8);

	if (dc_period_parse(spec, now, &p, &err) == DC_OK) {
		FUZZ_ASSERT(p.from < p.to);
		FUZZ_ASSERT(p.from % DC_DAY == 0 && p.to % DC_DAY == 0);
		label = dc_period_label(&p);
		FUZZ_ASSERT(label && g_utf8_validate(label, -1, NULL));
		g_free(label);
	} else {
		FUZZ_ASSERT(err.status == DC_E_USAGE);
		g_free(fuzz_sanitize_checked(err.msg, 0));
	}

	if (dc_release_parse(spec, &r, &err) == DC_OK) {
		dc_release_format(r, buf);
		FUZZ_ASSERT(dc_release_parse(buf, &r2, &err) == DC_OK);
		FUZZ_ASSERT(dc_release_cmp(r, r2) == 0);
	}
	if (dc_when_parse(spec, &t, &rw, &err) == DC_OK && rw.major == 0)
		FUZZ_ASSERT(t % DC_DAY == 0);
	g_free(spec);
	return 0;
}
