// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The sanitizer (core/base/sanitize.c) on arbitrary bytes, NULs included:
 * the output keeps the promise of sanitize.h in both modes, sanitizing
 * twice changes nothing, and the width helpers never overrun, never cut a
 * character and never exceed the columns they were given.
 *
 * Input: byte 0 picks the mode (bit 0) and the ellipsis (bit 1), byte 1
 * the column count; the rest is the string.
 */
#include "tests/fuzz/fuzz.h"

static void
check_widths(const char *s, int cols, int ellipsis)
{
	char *cut = dc_truncate_width(s, cols, ellipsis);
	size_t pre = dc_prefix_for_width(s, cols);
	int w = dc_display_width(s);
	char *head;

	FUZZ_ASSERT(w >= 0);
	FUZZ_ASSERT(dc_display_width(cut) <= (cols > 0 ? cols : 0));
	FUZZ_ASSERT(g_utf8_validate(cut, -1, NULL));
	FUZZ_ASSERT(strlen(cut) <= strlen(s) + 3);
	/* Only what is too wide is cut ("" for no columns at all). */
	if (w <= cols && cols > 0)
		FUZZ_ASSERT(strcmp(cut, s) == 0);
	FUZZ_ASSERT(pre <= strlen(s));
	head = g_strndup(s, pre);
	FUZZ_ASSERT(g_utf8_validate(head, -1, NULL));
	FUZZ_ASSERT(dc_display_width(head) <= (cols > 0 ? cols : 0));
	g_free(head);
	g_free(cut);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	dc_san_mode_t mode;
	unsigned flags = 0, flags2 = 0;
	char *once, *twice;
	int cols, ellipsis;

	if (size < 2)
		return 0;
	mode = data[0] & 1 ? DC_SAN_TEXT : DC_SAN_LINE;
	ellipsis = data[0] & 2;
	cols = (int)(signed char)data[1];
	data += 2;
	size -= 2;

	once = dc_sanitize((const char *)data, (ssize_t)size, mode, &flags);
	fuzz_assert_clean(once, mode == DC_SAN_TEXT);
	/* Nothing was replaced exactly when the bytes came through as is. */
	if (!flags && memchr(data, '\t', size) == NULL &&
	    memchr(data, '\r', size) == NULL)
		FUZZ_ASSERT(strlen(once) == size &&
			    memcmp(once, data, size) == 0);
	/* What the sanitizer wrote passes through it unchanged. */
	twice = dc_sanitize(once, -1, mode, &flags2);
	FUZZ_ASSERT(strcmp(once, twice) == 0);
	FUZZ_ASSERT(flags2 == 0);
	check_widths(once, cols, ellipsis);
	g_free(twice);
	g_free(once);
	return 0;
}
