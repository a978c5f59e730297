// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The redaction pass (core/privacy/redact.c) over any message and any text: it
 * must not crash or hang on hostile MIME, and in plain text no form of
 * the reporter's address or name it promises to replace may survive.
 *
 * Input: byte 0 picks text (even) or a whole message (odd); the rest is
 * the text or the message.
 */
#include <gmime/gmime.h>
#include <locale.h>

#include "core/privacy/privacy.h"
#include "core/privacy/redact.h"
#include "tests/fuzz/fuzz.h"

static dc_identity_set_t *set;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* As decorum runs (setlocale(LC_ALL, "") in a UTF-8 locale): GMime
	 * takes the locale's charset as its fallback for 8-bit text. */
	setlocale(LC_ALL, "C.UTF-8");
	g_mime_init();
	set = dc_identity_set_new();
	dc_identity_add(set, "Reporter A", "Alice Quux", "alice@example.org");
	dc_identity_add(set, "Reporter B", NULL, "bob.zed@example.net");
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	dc_error_t err = { 0 };
	char *in, *out = NULL;
	size_t out_len = 0;

	if (size < 1)
		return 0;
	if (data[0] & 1) {
		if (dc_redact_message((const char *)data + 1, size - 1, set,
				      &out, &out_len, &err) == DC_OK)
			FUZZ_ASSERT(out && strlen(out) == out_len);
		g_free(out);
		return 0;
	}
	in = g_strndup((const char *)data + 1, size - 1);
	if (g_utf8_validate(in, -1, NULL)) {
		char *low;

		out = dc_redact_text(in, set);
		FUZZ_ASSERT(out != NULL);
		low = g_utf8_casefold(out, -1);
		FUZZ_ASSERT(!strstr(low, "alice@example.org"));
		FUZZ_ASSERT(!strstr(low, "bob.zed@example.net"));
		g_free(low);
		g_free(out);
	}
	g_free(in);
	return 0;
}
