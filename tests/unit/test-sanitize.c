// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Unit tests for core/base/sanitize.c.  Every string from mail goes through
 * dc_sanitize() before a terminal sees it, so these tests are written from
 * the attacker's side: escape sequences, C1 controls, bidi tricks,
 * invisible characters and every kind of broken UTF-8.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "core/base/sanitize.h"

#define FFFD "\xef\xbf\xbd"
#define ELL  "\xe2\x80\xa6"

/*
 * Sanitize a copy of the len bytes at in held in a heap block of exactly
 * len bytes with no NUL after it, so ASan reports any read past len.
 */
static char *
san(const char *in, ssize_t len, dc_san_mode_t mode, unsigned *flags)
{
	char *copy, *out;

	if (!in || len < 0)
		return dc_sanitize(in, len, mode, flags);
	copy = g_malloc(len ? (size_t)len : 1);
	memcpy(copy, in, len);
	out = dc_sanitize(copy, len, mode, flags);
	g_free(copy);
	return out;
}

/* Like assert_*, but failures point at the caller's line. */
static void
check_at(const char *in, ssize_t len, dc_san_mode_t mode, const char *want,
	 unsigned want_flags, const char *file, int line)
{
	unsigned flags = 0;
	char *out = san(in, len, mode, &flags);

	_assert_string_equal(out, want, file, line);
	_assert_int_equal(flags, want_flags, file, line);
	g_free(out);
}

#define CHECK(in, len, mode, want, flags) \
	check_at(in, len, mode, want, flags, __FILE__, __LINE__)
/* A string literal with embedded NULs: pass its full size. */
#define CHECKB(lit, mode, want, flags) \
	CHECK(lit, sizeof(lit) - 1, mode, want, flags)

static void
test_null_and_empty(void **state G_GNUC_UNUSED)
{
	unsigned flags = DC_SAN_BIDI;
	char *out;

	out = dc_sanitize(NULL, -1, DC_SAN_LINE, &flags);
	assert_string_equal(out, "");
	assert_int_equal(flags, DC_SAN_BIDI);
	g_free(out);
	out = dc_sanitize(NULL, 10, DC_SAN_TEXT, NULL);
	assert_string_equal(out, "");
	g_free(out);
	out = dc_sanitize_line(NULL);
	assert_string_equal(out, "");
	g_free(out);

	CHECK("", -1, DC_SAN_LINE, "", 0);
	CHECK("", 0, DC_SAN_TEXT, "", 0);
	/* len 0 means nothing, even when bytes follow. */
	CHECK("abc", 0, DC_SAN_LINE, "", 0);
}

static void
test_ascii_unchanged(void **state G_GNUC_UNUSED)
{
	char all[96];
	int i;

	CHECK("Re: [PATCH v3 2/7] mm: fix the thing", -1, DC_SAN_LINE,
	      "Re: [PATCH v3 2/7] mm: fix the thing", 0);
	for (i = 0; i < 95; i++)
		all[i] = (char)(0x20 + i);
	all[95] = '\0';
	CHECK(all, -1, DC_SAN_LINE, all, 0);
	CHECK(all, -1, DC_SAN_TEXT, all, 0);
	CHECK(all, 95, DC_SAN_TEXT, all, 0);
}

static void
test_len_negative_vs_explicit(void **state G_GNUC_UNUSED)
{
	/* len < 0 stops at the NUL; an explicit len takes only len bytes. */
	CHECK("abc\x1b", -1, DC_SAN_LINE, "abc\xe2\x90\x9b", DC_SAN_CONTROL);
	CHECK("abc\x1b", 3, DC_SAN_LINE, "abc", 0);
	CHECK("abcdef", 2, DC_SAN_TEXT, "ab", 0);
}

static void
test_csi_neutralised(void **state G_GNUC_UNUSED)
{
	unsigned flags = 0;
	char *out;

	CHECK("\x1b[31mred\x1b[0m", -1, DC_SAN_LINE,
	      "\xe2\x90\x9b[31mred\xe2\x90\x9b[0m", DC_SAN_CONTROL);
	/* Screen clear and cursor moves: a forged "clean" display. */
	out = san("\x1b[2J\x1b[H\x1b[1;1Hok", -1, DC_SAN_TEXT, &flags);
	assert_null(strchr(out, 0x1b));
	assert_string_equal(out, "\xe2\x90\x9b[2J\xe2\x90\x9b[H"
				 "\xe2\x90\x9b[1;1Hok");
	assert_int_equal(flags, DC_SAN_CONTROL);
	g_free(out);
}

static void
test_osc52_osc8(void **state G_GNUC_UNUSED)
{
	static const char *const evil[] = {
		/* OSC 52: write the clipboard, BEL and ST terminated. */
		"\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07",
		"\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x1b\\",
		/* OSC 8: a link whose text hides its target. */
		"\x1b]8;;https://evil.example/\x1b\\kernel.org\x1b]8;;\x1b\\",
		"\x1b]8;;https://evil.example/\x07kernel.org\x1b]8;;\x07",
		/* Window title set and report (answerback injection). */
		"\x1b]2;;rm -rf ~\x07\x1b[21t",
	};
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(evil); i++) {
		int m;

		for (m = DC_SAN_LINE; m <= DC_SAN_TEXT; m++) {
			unsigned flags = 0;
			char *out = san(evil[i], -1, m, &flags);

			assert_null(strchr(out, 0x1b));
			assert_null(strchr(out, 0x07));
			assert_true(g_utf8_validate(out, -1, NULL));
			assert_int_equal(flags, DC_SAN_CONTROL);
			g_free(out);
		}
	}
	CHECK("\x1b]52;c;aGk=\x07", -1, DC_SAN_LINE,
	      "\xe2\x90\x9b]52;c;aGk=\xe2\x90\x87", DC_SAN_CONTROL);
	CHECK("\x1b]8;;http://x/\x1b\\y", -1, DC_SAN_TEXT,
	      "\xe2\x90\x9b]8;;http://x/\xe2\x90\x9b\\y", DC_SAN_CONTROL);
}

static void
test_c0_and_del(void **state G_GNUC_UNUSED)
{
	char in[2] = {0, 0}, want[4];
	int c;

	for (c = 1; c < 0x20; c++) {
		if (c == '\t')
			continue;
		in[0] = (char)c;
		want[0] = (char)0xe2;
		want[1] = (char)0x90;
		want[2] = (char)(0x80 + c);
		want[3] = '\0';
		CHECK(in, -1, DC_SAN_LINE, want, DC_SAN_CONTROL);
		if (c != '\n')
			CHECK(in, -1, DC_SAN_TEXT, want, DC_SAN_CONTROL);
	}
	CHECK("\x01", -1, DC_SAN_LINE, "\xe2\x90\x81", DC_SAN_CONTROL);
	CHECK("\x1f", -1, DC_SAN_LINE, "\xe2\x90\x9f", DC_SAN_CONTROL);
	CHECK("a\x7fz", -1, DC_SAN_LINE, "a\xe2\x90\xa1z", DC_SAN_CONTROL);
	CHECK("\x7f", -1, DC_SAN_TEXT, "\xe2\x90\xa1", DC_SAN_CONTROL);
	/* Backspace overstrike would fake text on a terminal. */
	CHECK("rm\b\bls", -1, DC_SAN_TEXT, "rm\xe2\x90\x88\xe2\x90\x88ls",
	      DC_SAN_CONTROL);
}

static void
test_c1_utf8(void **state G_GNUC_UNUSED)
{
	char in[3], want[16];
	int c;

	CHECK("\xc2\x9b[31m", -1, DC_SAN_LINE, "<U+009B>[31m", DC_SAN_CONTROL);
	CHECK("x\xc2\x9d]8;;u\xc2\x9c", -1, DC_SAN_TEXT,
	      "x<U+009D>]8;;u<U+009C>", DC_SAN_CONTROL);
	for (c = 0x80; c <= 0x9f; c++) {
		in[0] = (char)0xc2;
		in[1] = (char)c;
		in[2] = '\0';
		g_snprintf(want, sizeof(want), "<U+00%02X>", c);
		CHECK(in, -1, DC_SAN_LINE, want, DC_SAN_CONTROL);
		CHECK(in, -1, DC_SAN_TEXT, want, DC_SAN_CONTROL);
	}
	/* Just past the C1 range: NBSP and friends stay. */
	CHECK("\xc2\xa0\xc2\xa9", -1, DC_SAN_LINE, "\xc2\xa0\xc2\xa9", 0);
}

static void
test_c1_raw_byte(void **state G_GNUC_UNUSED)
{
	/* A lone 0x9b is CSI to an 8-bit terminal and invalid UTF-8. */
	CHECK("\x9b[31mred", -1, DC_SAN_LINE, FFFD "[31mred",
	      DC_SAN_INVALID_UTF8);
	CHECK("\x90\x9c\x9d\x9e\x9f", -1, DC_SAN_TEXT, FFFD FFFD FFFD FFFD FFFD,
	      DC_SAN_INVALID_UTF8);
}

static void
test_bidi_each(void **state G_GNUC_UNUSED)
{
	/* "shalom salaam" in Hebrew and Arabic letters. */
	static const char rtl[] = "\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d "
				  "\xd8\xb3\xd9\x84\xd8\xa7\xd9\x85";
	static const gunichar bidi[] = {
		0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c,
		0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
	};
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(bidi); i++) {
		char in[16], want[32];
		int k;

		in[0] = 'a';
		k = g_unichar_to_utf8(bidi[i], in + 1);
		in[1 + k] = 'b';
		in[2 + k] = '\0';
		g_snprintf(want, sizeof(want), "a<U+%04X>b", bidi[i]);
		CHECK(in, -1, DC_SAN_LINE, want, DC_SAN_BIDI);
		CHECK(in, -1, DC_SAN_TEXT, want, DC_SAN_BIDI);
	}
	/* The Trojan Source pattern: RLO ... LRI ... PDI. */
	CHECK("/*\xe2\x80\xae } \xe2\x81\xa6 if (admin)\xe2\x81\xa9 */", -1,
	      DC_SAN_TEXT, "/*<U+202E> } <U+2066> if (admin)<U+2069> */",
	      DC_SAN_BIDI);
	/* Right-to-left letters themselves are fine. */
	CHECK(rtl, -1, DC_SAN_LINE, rtl, 0);
}

static void
test_invisible(void **state G_GNUC_UNUSED)
{
	static const gunichar invis[] = {
		0x00ad, 0x115f, 0x1160, 0x180e, 0x200b, 0x200c, 0x200d,
		0x2028, 0x2029, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064,
		0x206a, 0x206f, 0x3164, 0xfeff, 0xffa0, 0xfff9, 0xfffa,
		0xfffb, 0x1bca0, 0x1d173, 0xe0001, 0xe0041, 0xe007f,
		0x034f, 0x17b4, 0x17b5, 0x180b, 0x180f, 0x2800, 0xfe00,
		0xfe0e, 0xfff0, 0xe0080, 0xe0100, 0xe01ef, 0xe0fff,
	};
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(invis); i++) {
		char in[16], want[32];
		int k;

		k = g_unichar_to_utf8(invis[i], in);
		in[k] = '\0';
		g_snprintf(want, sizeof(want), "<U+%04X>", invis[i]);
		CHECK(in, -1, DC_SAN_LINE, want, DC_SAN_INVISIBLE);
		CHECK(in, -1, DC_SAN_TEXT, want, DC_SAN_INVISIBLE);
	}
	CHECK("ad\xe2\x80\x8bmin", -1, DC_SAN_LINE, "ad<U+200B>min",
	      DC_SAN_INVISIBLE);
	CHECK("\xef\xbb\xbfSubject", -1, DC_SAN_LINE, "<U+FEFF>Subject",
	      DC_SAN_INVISIBLE);
	/* Tag characters smuggle ASCII: "hi" + invisible "AB". */
	CHECK("hi\xf3\xa0\x81\x81\xf3\xa0\x81\x82", -1, DC_SAN_TEXT,
	      "hi<U+E0041><U+E0042>", DC_SAN_INVISIBLE);
	/* Neighbours of the marked ranges pass. */
	CHECK("\xe2\x80\x8a\xe2\x80\x90\xe2\x81\x9f\xe2\x81\xb0"
	      "\xef\xbb\xbe\xef\xbf\xbc\xf3\xa1\x80\x80",
	      -1, DC_SAN_LINE,
	      "\xe2\x80\x8a\xe2\x80\x90\xe2\x81\x9f\xe2\x81\xb0"
	      "\xef\xbb\xbe\xef\xbf\xbc\xf3\xa1\x80\x80",
	      0);
}

static void
test_zwj_in_emoji(void **state G_GNUC_UNUSED)
{
	const char *family = "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9";
	/* Rainbow flag: white flag, VS16, ZWJ, rainbow. */
	const char *flag =
	    "\xf0\x9f\x8f\xb3\xef\xb8\x8f\xe2\x80\x8d\xf0\x9f\x8c\x88";
	/* Woman with a skin tone, ZWJ, laptop. */
	const char *coder = "\xf0\x9f\x91\xa9\xf0\x9f\x8f\xbd\xe2\x80\x8d"
			    "\xf0\x9f\x92\xbb";
	char *cut;

	/* Man ZWJ woman: one emoji sequence, kept whole. */
	CHECK(family, -1, DC_SAN_LINE, family, 0);
	CHECK(flag, -1, DC_SAN_LINE, flag, 0);
	CHECK(coder, -1, DC_SAN_TEXT, coder, 0);
	/* A joiner between letters, or after an emoji before a letter, or
	 * before an emoji after a letter, still hides something. */
	CHECK("Qu\xe2\x80\x8d" "entin", -1, DC_SAN_LINE, "Qu<U+200D>entin",
	      DC_SAN_INVISIBLE);
	CHECK("\xf0\x9f\x91\xa8\xe2\x80\x8dQ", -1, DC_SAN_LINE,
	      "\xf0\x9f\x91\xa8<U+200D>Q", DC_SAN_INVISIBLE);
	CHECK("Q\xe2\x80\x8d\xf0\x9f\x91\xa9", -1, DC_SAN_LINE,
	      "Q<U+200D>\xf0\x9f\x91\xa9", DC_SAN_INVISIBLE);
	CHECK("\xf0\x9f\x91\xa8\xe2\x80\x8d", -1, DC_SAN_LINE,
	      "\xf0\x9f\x91\xa8<U+200D>", DC_SAN_INVISIBLE);
	/* A sequence is one cluster: it is never cut in the middle. */
	assert_int_equal(dc_display_width(family), 4);
	cut = dc_truncate_width(family, 3, 0);
	assert_string_equal(cut, "");
	g_free(cut);
	cut = dc_truncate_width(family, 4, 0);
	assert_string_equal(cut, family);
	g_free(cut);
	assert_int_equal(dc_prefix_for_width(coder, 3), 0);
	/* Variation selector 16 is not marked. */
	CHECK("\xe2\x9d\xa4\xef\xb8\x8f", -1, DC_SAN_LINE,
	      "\xe2\x9d\xa4\xef\xb8\x8f", 0);
}

static void
test_overlong(void **state G_GNUC_UNUSED)
{
	CHECKB("\xc0\xaf", DC_SAN_LINE, FFFD FFFD, DC_SAN_INVALID_UTF8);
	CHECKB("..\xc0\xaf..", DC_SAN_TEXT, ".." FFFD FFFD "..",
	       DC_SAN_INVALID_UTF8);
	CHECKB("\xc0\x80", DC_SAN_LINE, FFFD FFFD, DC_SAN_INVALID_UTF8);
	CHECKB("\xc1\xbf", DC_SAN_LINE, FFFD FFFD, DC_SAN_INVALID_UTF8);
	CHECKB("\xe0\x80\xaf", DC_SAN_LINE, FFFD FFFD FFFD,
	       DC_SAN_INVALID_UTF8);
	CHECKB("\xe0\x9f\xbf", DC_SAN_LINE, FFFD FFFD FFFD,
	       DC_SAN_INVALID_UTF8);
	CHECKB("\xf0\x80\x80\xaf", DC_SAN_LINE, FFFD FFFD FFFD FFFD,
	       DC_SAN_INVALID_UTF8);
	CHECKB("\xf0\x8f\xbf\xbf", DC_SAN_LINE, FFFD FFFD FFFD FFFD,
	       DC_SAN_INVALID_UTF8);
	/* An overlong ESC must not become a real one. */
	CHECKB("\xc0\x9b[31m", DC_SAN_LINE, FFFD FFFD "[31m",
	       DC_SAN_INVALID_UTF8);
	/* The shortest forms at the same boundaries are fine. */
	CHECK("\xc2\x80", -1, DC_SAN_LINE, "<U+0080>", DC_SAN_CONTROL);
	CHECK("\xdf\xbf\xe0\xa0\x80\xf0\x90\x80\x80", -1, DC_SAN_LINE,
	      "\xdf\xbf\xe0\xa0\x80\xf0\x90\x80\x80", 0);
}

static void
test_surrogate(void **state G_GNUC_UNUSED)
{
	CHECKB("\xed\xa0\x80", DC_SAN_LINE, FFFD FFFD FFFD,
	       DC_SAN_INVALID_UTF8);
	CHECKB("\xed\xbf\xbf", DC_SAN_TEXT, FFFD FFFD FFFD,
	       DC_SAN_INVALID_UTF8);
	/* CESU-8 pair for U+1F600. */
	CHECKB("\xed\xa0\xbd\xed\xb8\x80", DC_SAN_LINE,
	       FFFD FFFD FFFD FFFD FFFD FFFD, DC_SAN_INVALID_UTF8);
	/* Either side of the surrogate block. */
	CHECK("\xed\x9f\xbf\xee\x80\x80", -1, DC_SAN_LINE,
	      "\xed\x9f\xbf\xee\x80\x80", 0);
}

static void
test_above_max(void **state G_GNUC_UNUSED)
{
	CHECKB("\xf4\x90\x80\x80", DC_SAN_LINE, FFFD FFFD FFFD FFFD,
	       DC_SAN_INVALID_UTF8);
	CHECKB("\xf7\xbf\xbf\xbf", DC_SAN_LINE, FFFD FFFD FFFD FFFD,
	       DC_SAN_INVALID_UTF8);
	/* Old 5- and 6-byte forms. */
	CHECKB("\xf8\x88\x80\x80\x80", DC_SAN_LINE, FFFD FFFD FFFD FFFD FFFD,
	       DC_SAN_INVALID_UTF8);
	CHECKB("\xfc\x84\x80\x80\x80\x80", DC_SAN_LINE,
	       FFFD FFFD FFFD FFFD FFFD FFFD, DC_SAN_INVALID_UTF8);
	CHECKB("\xfe\xff", DC_SAN_LINE, FFFD FFFD, DC_SAN_INVALID_UTF8);
	/* U+10FFFF itself is valid. */
	CHECK("\xf4\x8f\xbf\xbf", -1, DC_SAN_LINE, "\xf4\x8f\xbf\xbf", 0);
}

static void
test_truncated(void **state G_GNUC_UNUSED)
{
	/* 日 is e6 97 a5: every cut of it, at the end of the buffer. */
	CHECKB("abc\xe6", DC_SAN_LINE, "abc" FFFD, DC_SAN_INVALID_UTF8);
	CHECKB("abc\xe6\x97", DC_SAN_LINE, "abc" FFFD FFFD,
	       DC_SAN_INVALID_UTF8);
	CHECKB("\xf0\x9f\x98", DC_SAN_TEXT, FFFD FFFD FFFD,
	       DC_SAN_INVALID_UTF8);
	CHECKB("\xc3", DC_SAN_TEXT, FFFD, DC_SAN_INVALID_UTF8);
	/* Cut short in the middle: what follows survives intact. */
	CHECKB("\xe6\x97Z\xe6\x97\xa5", DC_SAN_LINE, FFFD FFFD "Z\xe6\x97\xa5",
	       DC_SAN_INVALID_UTF8);
	CHECKB("\xe6\n", DC_SAN_TEXT, FFFD "\n", DC_SAN_INVALID_UTF8);
	CHECKB("\xf0\x9f\x98\x1b", DC_SAN_TEXT, FFFD FFFD FFFD "\xe2\x90\x9b",
	       DC_SAN_INVALID_UTF8 | DC_SAN_CONTROL);
}

static void
test_stray_bytes(void **state G_GNUC_UNUSED)
{
	CHECKB("\x80", DC_SAN_LINE, FFFD, DC_SAN_INVALID_UTF8);
	CHECKB("x\xbfz", DC_SAN_LINE, "x" FFFD "z", DC_SAN_INVALID_UTF8);
	CHECKB("\xe6\x97\xa5\xa5", DC_SAN_LINE, "\xe6\x97\xa5" FFFD,
	       DC_SAN_INVALID_UTF8);
	/* Latin-1 mail mislabelled as UTF-8. */
	CHECKB("Zo\xeb Ji\xf8\xed", DC_SAN_LINE, "Zo" FFFD " Ji" FFFD FFFD,
	       DC_SAN_INVALID_UTF8);
	CHECKB("\xf5\xf6\xf7\xfd\xfe\xff", DC_SAN_LINE,
	       FFFD FFFD FFFD FFFD FFFD FFFD, DC_SAN_INVALID_UTF8);
}

static void
test_embedded_nul(void **state G_GNUC_UNUSED)
{
	CHECKB("a\0b", DC_SAN_LINE, "a" FFFD "b", DC_SAN_INVALID_UTF8);
	CHECKB("a\0b", DC_SAN_TEXT, "a" FFFD "b", DC_SAN_INVALID_UTF8);
	CHECKB("\0\0", DC_SAN_TEXT, FFFD FFFD, DC_SAN_INVALID_UTF8);
	CHECKB("x\0", DC_SAN_LINE, "x" FFFD, DC_SAN_INVALID_UTF8);
}

static void
test_no_read_past_len(void **state G_GNUC_UNUSED)
{
	/*
	 * san() hands over exactly len bytes: ASan catches any peek past
	 * them, and the byte that would complete the sequence or the CRLF
	 * must not be looked at.
	 */
	CHECK("\xe6\x97\xa5", 2, DC_SAN_LINE, FFFD FFFD, DC_SAN_INVALID_UTF8);
	CHECK("\xf0\x9f\x98\x80", 3, DC_SAN_LINE, FFFD FFFD FFFD,
	      DC_SAN_INVALID_UTF8);
	CHECK("a\r\n", 2, DC_SAN_TEXT, "a\xe2\x90\x8d", DC_SAN_CONTROL);
	CHECK("\xc2\x9b", 1, DC_SAN_LINE, FFFD, DC_SAN_INVALID_UTF8);
}

static void
test_line_mode(void **state G_GNUC_UNUSED)
{
	CHECK("x\ny", -1, DC_SAN_LINE, "x\xe2\x90\x8ay", DC_SAN_CONTROL);
	CHECK("x\ry", -1, DC_SAN_LINE, "x\xe2\x90\x8dy", DC_SAN_CONTROL);
	CHECK("x\r\ny", -1, DC_SAN_LINE, "x\xe2\x90\x8d\xe2\x90\x8ay",
	      DC_SAN_CONTROL);
	/* A folded header's TAB is just a space, nothing worth flagging. */
	CHECK("a\tb\t", -1, DC_SAN_LINE, "a b ", 0);
	CHECK("\x0b\x0c", -1, DC_SAN_LINE, "\xe2\x90\x8b\xe2\x90\x8c",
	      DC_SAN_CONTROL);
}

static void
test_text_mode(void **state G_GNUC_UNUSED)
{
	CHECK("a\nb\n", -1, DC_SAN_TEXT, "a\nb\n", 0);
	CHECK("a\tb", -1, DC_SAN_TEXT, "a\tb", 0);
	CHECK("a\r\nb\r\n", -1, DC_SAN_TEXT, "a\nb\n", 0);
	CHECK("x\ry", -1, DC_SAN_TEXT, "x\xe2\x90\x8dy", DC_SAN_CONTROL);
	CHECK("a\r", -1, DC_SAN_TEXT, "a\xe2\x90\x8d", DC_SAN_CONTROL);
	/* Only the CR right before LF goes. */
	CHECK("a\r\r\n", -1, DC_SAN_TEXT, "a\xe2\x90\x8d\n", DC_SAN_CONTROL);
	CHECK("a\n\r", -1, DC_SAN_TEXT, "a\n\xe2\x90\x8d", DC_SAN_CONTROL);
	/* An overwrite trick: "\r" returns to column 0 to hide "evil". */
	CHECK("evil\rgood\n", -1, DC_SAN_TEXT, "evil\xe2\x90\x8dgood\n",
	      DC_SAN_CONTROL);
	CHECK("\x0b\x0c", -1, DC_SAN_TEXT, "\xe2\x90\x8b\xe2\x90\x8c",
	      DC_SAN_CONTROL);
}

static void
test_flags(void **state G_GNUC_UNUSED)
{
	const unsigned all = DC_SAN_CONTROL | DC_SAN_INVALID_UTF8 |
			     DC_SAN_BIDI | DC_SAN_INVISIBLE;
	unsigned flags = DC_SAN_BIDI;
	char *out;

	/* The four flags are distinct bits. */
	assert_int_equal(all, 0xf);

	/* Or-ed in, never cleared. */
	out = dc_sanitize("plain", -1, DC_SAN_LINE, &flags);
	assert_int_equal(flags, DC_SAN_BIDI);
	g_free(out);
	out = dc_sanitize("\x1b", -1, DC_SAN_LINE, &flags);
	assert_int_equal(flags, DC_SAN_BIDI | DC_SAN_CONTROL);
	g_free(out);

	CHECK("\x1b\xff\xe2\x80\xae\xe2\x80\x8b", -1, DC_SAN_LINE,
	      "\xe2\x90\x9b" FFFD "<U+202E><U+200B>", all);
	CHECK("\xe2\x80\xae", -1, DC_SAN_LINE, "<U+202E>", DC_SAN_BIDI);
	CHECK("\xff", -1, DC_SAN_LINE, FFFD, DC_SAN_INVALID_UTF8);
	CHECK("\xe2\x80\x8b", -1, DC_SAN_LINE, "<U+200B>", DC_SAN_INVISIBLE);
	CHECK("\xc2\x85", -1, DC_SAN_LINE, "<U+0085>", DC_SAN_CONTROL);
}

static void
test_valid_multibyte_untouched(void **state G_GNUC_UNUSED)
{
	static const char *const ok[] = {
		"Ji\xc5\x99\xc3\xad",                 /* Jiří */
		"Zo\xc3\xab",                         /* Zoë */
		"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", /* 日本語 */
		"\xf0\x9f\x98\x80",                   /* 😀 */
		"e\xcc\x81",                          /* e + U+0301 */
		"\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82",
		"\xe0\xa4\x95\xe0\xa4\xbf",           /* Devanagari ki */
		"\xef\xbf\xbd already replaced",
		"Signed-off-by: Ji\xc5\x99\xc3\xad Slab\xc3\xbd "
		"<jiri@example.org> \xf0\x9f\x90\xa7",
	};
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(ok); i++) {
		CHECK(ok[i], -1, DC_SAN_LINE, ok[i], 0);
		CHECK(ok[i], -1, DC_SAN_TEXT, ok[i], 0);
		CHECK(ok[i], strlen(ok[i]), DC_SAN_TEXT, ok[i], 0);
	}
}

static void
test_sanitize_line(void **state G_GNUC_UNUSED)
{
	char *out = dc_sanitize_line("Subj\tect\n\x1b[2J\xe2\x80\xae\xff");

	assert_string_equal(out, "Subj ect\xe2\x90\x8a\xe2\x90\x9b[2J"
				 "<U+202E>" FFFD);
	g_free(out);
}

static void
test_growth(void **state G_GNUC_UNUSED)
{
	/*
	 * Worst-case expansion, 4x for C1 and 3x for single bytes, well past
	 * any initial buffer.
	 */
	enum { N = 100000 };
	char *in = g_malloc(2 * N), *out;
	unsigned flags = 0;
	size_t i;

	memset(in, 0x1b, N);
	out = san(in, N, DC_SAN_LINE, &flags);
	assert_int_equal(strlen(out), 3 * N);
	for (i = 0; i < 3 * N; i += 3)
		assert_memory_equal(out + i, "\xe2\x90\x9b", 3);
	assert_int_equal(flags, DC_SAN_CONTROL);
	g_free(out);

	for (i = 0; i < N; i++) {
		in[2 * i] = (char)0xc2;
		in[2 * i + 1] = (char)0x9b;
	}
	out = san(in, 2 * N, DC_SAN_TEXT, NULL);
	assert_int_equal(strlen(out), 8 * N);
	assert_memory_equal(out, "<U+009B><U+009B>", 16);
	assert_memory_equal(out + 8 * N - 8, "<U+009B>", 8);
	g_free(out);

	memset(in, 0xff, 2 * N);
	out = san(in, 2 * N, DC_SAN_TEXT, NULL);
	assert_int_equal(strlen(out), 6 * N);
	assert_true(g_utf8_validate(out, -1, NULL));
	g_free(out);
	g_free(in);
}

static void
test_display_width(void **state G_GNUC_UNUSED)
{
	assert_int_equal(dc_display_width(NULL), 0);
	assert_int_equal(dc_display_width(""), 0);
	assert_int_equal(dc_display_width("abc"), 3);
	assert_int_equal(dc_display_width("\xe6\x97\xa5\xe6\x9c\xac"), 4);
	assert_int_equal(dc_display_width("e\xcc\x81"), 1);
	assert_int_equal(dc_display_width("\xf0\x9f\x98\x80"), 2);
	assert_int_equal(dc_display_width("Ji\xc5\x99\xc3\xad"), 4);
	/* Fullwidth A, ideographic space. */
	assert_int_equal(dc_display_width("\xef\xbc\xa1\xe3\x80\x80"), 4);
	/* a + two combining marks, then 日 and 😀. */
	assert_int_equal(dc_display_width("a\xcc\x81\xcc\xa3\xe6\x97\xa5"
					  "\xf0\x9f\x98\x80!"),
			 6);
	/* What the sanitizer leaves is plain ASCII or one column. */
	assert_int_equal(dc_display_width("<U+202E>"), 8);
	assert_int_equal(dc_display_width("\xe2\x90\x9b"), 1);
	assert_int_equal(dc_display_width(FFFD), 1);
	/* Stray bytes count like the U+FFFD a terminal draws. */
	assert_int_equal(dc_display_width("x\xffz"), 3);
	assert_int_equal(dc_display_width("\xe6\x97"), 2);
	/* Printable ASCII is counted a byte a column; where it stops, its
	 * last letter still takes the marks after it, and what follows is
	 * counted as before. */
	assert_int_equal(dc_display_width("Rene\xcc\x81 ok"), 7);
	assert_int_equal(dc_display_width("abc\xe6\x97\xa5"), 5);
	assert_int_equal(dc_display_width("x\xcc\x81\xcc\xa3"), 1);
	assert_int_equal(dc_display_width("ab\tc"),
			 2 + dc_display_width("\t") + 1);
}

/* utf8 cut at cols: check the promises, return the width. */
static int
check_cut(const char *utf8, int cols, int ellipsis)
{
	char *out = dc_truncate_width(utf8, cols, ellipsis);
	size_t n = strlen(out);
	int w = dc_display_width(out);

	assert_true(g_utf8_validate(out, -1, NULL));
	assert_true(w <= (cols < 0 ? 0 : cols));
	if (strcmp(out, utf8) != 0) {
		size_t keep = n;

		if (ellipsis && n >= 3 && strcmp(out + n - 3, ELL) == 0)
			keep = n - 3;
		else
			assert_false(ellipsis && cols > 0);
		assert_memory_equal(out, utf8, keep);
		assert_true(keep < strlen(utf8));
		/* Nothing cut between a base and its marks. */
		if (keep > 0)
			assert_false(
			    g_unichar_ismark(g_utf8_get_char(utf8 + keep)));
	}
	g_free(out);
	return w;
}

static void
test_truncate_cjk(void **state G_GNUC_UNUSED)
{
	const char *cjk = "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e"; /* 日本語 */
	const char *mixed = "x\xe6\x97\xa5y\xf0\x9f\x98\x80zz"; /* x日y😀zz */
	char *out;
	int cols;

	out = dc_truncate_width(cjk, 3, 0);
	assert_string_equal(out, "\xe6\x97\xa5");
	g_free(out);
	out = dc_truncate_width(cjk, 5, 0);
	assert_string_equal(out, "\xe6\x97\xa5\xe6\x9c\xac");
	g_free(out);
	out = dc_truncate_width(cjk, 3, 1);
	assert_string_equal(out, "\xe6\x97\xa5" ELL);
	g_free(out);
	out = dc_truncate_width(cjk, 4, 1);
	assert_string_equal(out, "\xe6\x97\xa5" ELL);
	g_free(out);
	out = dc_truncate_width(cjk, 5, 1);
	assert_string_equal(out, "\xe6\x97\xa5\xe6\x9c\xac" ELL);
	g_free(out);
	out = dc_truncate_width(cjk, 6, 1);
	assert_string_equal(out, cjk);
	g_free(out);
	out = dc_truncate_width(cjk, 1, 0);
	assert_string_equal(out, "");
	g_free(out);
	out = dc_truncate_width(cjk, 1, 1);
	assert_string_equal(out, ELL);
	g_free(out);

	for (cols = -2; cols <= 8; cols++) {
		check_cut(cjk, cols, 0);
		check_cut(cjk, cols, 1);
		check_cut(mixed, cols, 0);
		check_cut(mixed, cols, 1);
	}
}

static void
test_truncate_combining(void **state G_GNUC_UNUSED)
{
	const char *e3 = "e\xcc\x81"
			 "e\xcc\x81"
			 "e\xcc\x81"; /* three e + U+0301 */
	const char *ki = "\xe0\xa4\x95\xe0\xa4\xbf\xe0\xa4\x95\xe0\xa4\xbf";
	char *out;
	int cols;

	out = dc_truncate_width(e3, 2, 0);
	assert_string_equal(out, "e\xcc\x81"
				 "e\xcc\x81");
	g_free(out);
	out = dc_truncate_width(e3, 2, 1);
	assert_string_equal(out, "e\xcc\x81" ELL);
	g_free(out);
	out = dc_truncate_width(e3, 3, 1);
	assert_string_equal(out, e3);
	g_free(out);
	/* A spacing vowel sign stays with its consonant. */
	out = dc_truncate_width(ki, 2, 0);
	assert_string_equal(out, "\xe0\xa4\x95\xe0\xa4\xbf");
	g_free(out);
	out = dc_truncate_width(ki, 3, 0);
	assert_string_equal(out, "\xe0\xa4\x95\xe0\xa4\xbf");
	g_free(out);
	for (cols = 0; cols <= 4; cols++) {
		check_cut(e3, cols, 0);
		check_cut(e3, cols, 1);
		check_cut(ki, cols, 0);
		check_cut(ki, cols, 1);
	}
}

static void
test_truncate_edges(void **state G_GNUC_UNUSED)
{
	char *out;

	out = dc_truncate_width("abc", 0, 1);
	assert_string_equal(out, "");
	g_free(out);
	out = dc_truncate_width("abc", -5, 0);
	assert_string_equal(out, "");
	g_free(out);
	out = dc_truncate_width(NULL, 5, 1);
	assert_string_equal(out, "");
	g_free(out);
	out = dc_truncate_width("", 5, 1);
	assert_string_equal(out, "");
	g_free(out);
	out = dc_truncate_width("abc", 3, 1);
	assert_string_equal(out, "abc");
	g_free(out);
	out = dc_truncate_width("abcd", 3, 1);
	assert_string_equal(out, "ab" ELL);
	g_free(out);
	out = dc_truncate_width("abcd", 3, 0);
	assert_string_equal(out, "abc");
	g_free(out);
	out = dc_truncate_width("abcd", 1, 1);
	assert_string_equal(out, ELL);
	g_free(out);
	out = dc_truncate_width("abcd", G_MAXINT, 1);
	assert_string_equal(out, "abcd");
	g_free(out);
}

static void
test_prefix_for_width(void **state G_GNUC_UNUSED)
{
	/* a b 日 本 e+U+0301 z: bytes 1 1 3 3 3 1, columns 1 1 2 2 1 1. */
	const char *s = "ab\xe6\x97\xa5\xe6\x9c\xac"
			"e\xcc\x81z";
	static const size_t want[] = {0, 1, 2, 2, 5, 5, 8, 11, 12, 12};
	int cols;

	for (cols = 0; cols < (int)G_N_ELEMENTS(want); cols++)
		assert_int_equal(dc_prefix_for_width(s, cols), want[cols]);
	assert_int_equal(dc_prefix_for_width(s, -1), 0);
	assert_int_equal(dc_prefix_for_width(NULL, 10), 0);
	assert_int_equal(dc_prefix_for_width("", 10), 0);
	/* A wide character never fits in one column. */
	assert_int_equal(dc_prefix_for_width("\xf0\x9f\x98\x80", 1), 0);
	assert_int_equal(dc_prefix_for_width("\xf0\x9f\x98\x80", 2), 4);
	/* Marks stay with their base: e + two marks is one column. */
	assert_int_equal(dc_prefix_for_width("xe\xcc\x81\xcc\xa3y", 2), 6);
	assert_int_equal(dc_prefix_for_width("xe\xcc\x81\xcc\xa3y", 1), 1);
}

/* xorshift64*: the same buffers on every machine and GLib version. */
static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

static gboolean
is_bidi(gunichar c)
{
	return c == 0x061c || c == 0x200e || c == 0x200f ||
	       (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

static gboolean
is_invisible(gunichar c)
{
	return (c >= 0x200b && c <= 0x200d) || (c >= 0x2060 && c <= 0x2064) ||
	       c == 0xfeff || c == 0x180e || c == 0x2028 || c == 0x2029 ||
	       (c >= 0xfff9 && c <= 0xfffb) || c == 0x00ad ||
	       (c >= 0xe0000 && c <= 0xe007f);
}

/* Does an emoji (or its VS16 or skin tone) end right before p? */
static gboolean
emoji_before(const char *start, const char *p)
{
	gunichar c = g_utf8_get_char(g_utf8_prev_char(p));

	(void)start;
	return c == 0xfe0f || (c >= 0x1f3fb && c <= 0x1f3ff) ||
	       (c >= 0x1f000 && c <= 0x1faff) || (c >= 0x2600 && c <= 0x27bf);
}

/* What the output must be when no flag was set. */
static char *
unflagged(const char *in, size_t n, dc_san_mode_t mode)
{
	GString *s = g_string_sized_new(n);
	size_t i;

	for (i = 0; i < n; i++) {
		if (mode == DC_SAN_LINE && in[i] == '\t')
			g_string_append_c(s, ' ');
		else if (mode == DC_SAN_TEXT && in[i] == '\r' && i + 1 < n &&
			 in[i + 1] == '\n')
			continue;
		else
			g_string_append_c(s, in[i]);
	}
	return g_string_free(s, FALSE);
}

static void
check_random_output(const char *in, size_t n, dc_san_mode_t mode)
{
	unsigned flags = 0;
	char *out = san(in, n, mode, &flags);
	const char *p;
	size_t len = strlen(out), cut;
	int cols;

	assert_true(g_utf8_validate(out, -1, NULL));
	assert_int_equal(flags & ~0xfu, 0);
	for (p = out; *p; p++) {
		unsigned char b = (unsigned char)*p;

		assert_int_not_equal(b, 0x7f);
		if (b < 0x20)
			assert_true(mode == DC_SAN_TEXT &&
				    (b == '\n' || b == '\t'));
	}
	for (p = out; *p; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char(p);

		assert_false(c >= 0x80 && c <= 0x9f);
		assert_false(is_bidi(c));
		/* The joiner of an emoji sequence is the one that stays. */
		if (c == 0x200d && p > out && emoji_before(out, p) &&
		    g_unichar_iswide(g_utf8_get_char(g_utf8_next_char(p))))
			continue;
		assert_false(is_invisible(c));
	}
	if (!flags) {
		char *want = unflagged(in, n, mode);

		assert_string_equal(out, want);
		g_free(want);
	}
	for (cols = 0; cols < 12; cols += 5) {
		cut = dc_prefix_for_width(out, cols);
		assert_true(cut <= len);
		assert_true(g_utf8_validate(out, cut, NULL));
		check_cut(out, cols, 1);
	}
	g_free(out);
}

static void
test_random_buffers(void **state G_GNUC_UNUSED)
{
	static const char *const frag[] = {
		"\x1b", "\x9b", "\xc2\x9b", "\xc2\x85", "\xe2\x80\xae",
		"\xe2\x81\xa6", "\xe2\x80\x8d", "\xef\xbb\xbf", "\r", "\n",
		"\t", "\x7f", "\xf4\x90\x80\x80", "\xed\xa0\x80", "\xc0\xaf",
		"\xe6\x97\xa5", "\xf0\x9f\x98\x80", "e\xcc\x81", "\xe6\x97",
		"\xf3\xa0\x81\x81", "\xc2\xad", "\x07", "\r\n", "Zo\xc3\xab",
	};
	uint64_t seed = 0x5eed2024decafbadULL;
	char buf[96];
	int iter;

	for (iter = 0; iter < 10000; iter++) {
		size_t n = rnd(&seed) % 64, len = 0;

		while (len < n) {
			uint64_t r = rnd(&seed);

			if (r & 1) {
				buf[len++] = (char)(r >> 8);
			} else {
				const char *f =
				    frag[(r >> 8) % G_N_ELEMENTS(frag)];
				size_t k = strlen(f);

				memcpy(buf + len, f, k);
				len += k;
			}
		}
		check_random_output(buf, len, DC_SAN_LINE);
		check_random_output(buf, len, DC_SAN_TEXT);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_and_empty),
		cmocka_unit_test(test_ascii_unchanged),
		cmocka_unit_test(test_len_negative_vs_explicit),
		cmocka_unit_test(test_csi_neutralised),
		cmocka_unit_test(test_osc52_osc8),
		cmocka_unit_test(test_c0_and_del),
		cmocka_unit_test(test_c1_utf8),
		cmocka_unit_test(test_c1_raw_byte),
		cmocka_unit_test(test_bidi_each),
		cmocka_unit_test(test_invisible),
		cmocka_unit_test(test_zwj_in_emoji),
		cmocka_unit_test(test_overlong),
		cmocka_unit_test(test_surrogate),
		cmocka_unit_test(test_above_max),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_stray_bytes),
		cmocka_unit_test(test_embedded_nul),
		cmocka_unit_test(test_no_read_past_len),
		cmocka_unit_test(test_line_mode),
		cmocka_unit_test(test_text_mode),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_valid_multibyte_untouched),
		cmocka_unit_test(test_sanitize_line),
		cmocka_unit_test(test_growth),
		cmocka_unit_test(test_display_width),
		cmocka_unit_test(test_truncate_cjk),
		cmocka_unit_test(test_truncate_combining),
		cmocka_unit_test(test_truncate_edges),
		cmocka_unit_test(test_prefix_for_width),
		cmocka_unit_test(test_random_buffers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
