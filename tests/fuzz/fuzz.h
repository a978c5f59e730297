/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Shared by the fuzz harnesses (tests/fuzz/fuzz-*.c).  Each harness is one
 * LLVMFuzzerTestOneInput(); built with clang -fsanitize=fuzzer it is a
 * libFuzzer program ("make fuzz"), built with replay.c it runs saved
 * inputs once under ASan and UBSan ("make check": the seeds and every
 * finding in tests/fuzz/regress/ stay regression tests).
 *
 * A harness does not only wait for a crash: it checks what decorum
 * promises and abort()s when a promise is broken, so libFuzzer keeps the
 * input as a finding.
 */
#ifndef DC_FUZZ_H
#define DC_FUZZ_H

#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/sanitize.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define FUZZ_ASSERT(cond)                                                    \
	do {                                                                 \
		if (!(cond)) {                                               \
			fprintf(stderr, "%s:%d: broken promise: %s\n",       \
				__FILE__, __LINE__, #cond);                  \
			abort();                                             \
		}                                                            \
	} while (0)

/*
 * The checks are not what is fuzzed: clang keeps coverage out of them,
 * so their comparisons neither cost a callback each nor count as
 * progress.
 */
#if defined(__clang__)
#define FUZZ_CHECK __attribute__((noinline, no_sanitize("coverage")))
#else
#define FUZZ_CHECK
#endif

/*
 * The sanitizer's promise (core/base/sanitize.h) for what reaches a terminal:
 * valid UTF-8; no C0 control, DEL or C1 control, except "\n" and "\t" in
 * text mode; no bidi control and none of the invisible characters.
 */
static inline FUZZ_CHECK void
fuzz_assert_clean(const char *s, int text)
{
	const char *p;

	FUZZ_ASSERT(s != NULL);
	FUZZ_ASSERT(g_utf8_validate(s, -1, NULL));
	for (p = s; *p; p = g_utf8_next_char(p)) {
		gunichar c = (unsigned char)*p;

		if (c < 0x80) {
			FUZZ_ASSERT((c >= 0x20 && c != 0x7f) ||
				    (text && (c == '\n' || c == '\t')));
			continue;
		}
		c = g_utf8_get_char(p);
		FUZZ_ASSERT(c > 0x9f);
		FUZZ_ASSERT(c != 0x61c && c != 0x200e && c != 0x200f);
		FUZZ_ASSERT(!(c >= 0x202a && c <= 0x202e));
		FUZZ_ASSERT(!(c >= 0x2066 && c <= 0x2069));
		FUZZ_ASSERT(!(c >= 0x200b && c <= 0x200d));
		FUZZ_ASSERT(c != 0xfeff && c != 0xad && c != 0x2028 &&
			    c != 0x2029);
		FUZZ_ASSERT(!(c >= 0xe0000 && c <= 0xe007f));
	}
}

/* Sanitize s and check the result; returns it (g_free). */
static inline char *
fuzz_sanitize_checked(const char *s, int text)
{
	char *out = dc_sanitize(s, -1, text ? DC_SAN_TEXT : DC_SAN_LINE, NULL);

	fuzz_assert_clean(out, text);
	return out;
}

#endif
