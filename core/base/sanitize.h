/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The one sanitizer.  Every string that comes from mail (headers, bodies,
 * names, attachment names, message ids, notmuch tags) passes through
 * dc_sanitize() before it reaches a terminal or an export.  The result is
 * always valid UTF-8 with nothing a terminal would interpret, and whatever
 * was replaced stays visible:
 *
 *   C0 controls and DEL     -> Control Pictures (ESC -> U+241B "␛",
 *                              DEL -> U+2421)
 *   C1 controls (U+0080-9F) -> "<U+009B>"
 *   bidi overrides, embeddings, isolates and marks (U+061C, U+200E-200F,
 *   U+202A-202E, U+2066-2069)
 *                           -> "<U+202E>"
 *   zero-width and other invisible format characters: U+200B-200D (a ZWJ
 *   hides inside words; only the joiner of an emoji ZWJ sequence, an
 *   emoji with its U+FE0F or skin tone before it and an emoji after it,
 *   passes, so that a family or a flag stays one picture), U+2060-2065,
 *   U+206A-206F, U+FEFF, U+180E, U+2028-2029, U+FFF9-FFFB, U+00AD soft
 *   hyphen (invisible in most terminals, so "Jo<SHY>hn" prints as "John"),
 *   Hangul fillers U+115F, U+1160, U+3164, U+FFA0 (blank names), tags
 *   U+E0000-E007F (invisible ASCII), U+1BCA0-1BCA3, U+1D173-1D17A
 *                           -> "<U+200B>"
 *   bytes that are not valid UTF-8 (overlong forms, surrogates, > U+10FFFF,
 *   truncated sequences, stray continuation bytes, NUL)
 *                           -> U+FFFD "�" per bad byte: a broken
 *                              sequence of three bytes gives three
 *
 * Variation selectors and the visible prepended marks (U+0600-0605, ...)
 * pass through.
 *
 * In DC_SAN_LINE mode (subjects, names, one-line fields) newlines and
 * carriage returns become control pictures too and a TAB becomes a space.
 * In DC_SAN_TEXT mode (bodies) "\n" and "\t" are kept, a "\r" before "\n" is
 * dropped silently, and every other control is replaced as above.
 * A replaced newline or carriage return sets DC_SAN_CONTROL; a TAB turned
 * into a space and a dropped "\r" set nothing; NUL sets DC_SAN_INVALID_UTF8
 * (no C string holds one, so it is corruption, not a control).
 */
#ifndef DC_SANITIZE_H
#define DC_SANITIZE_H

#include <stddef.h>
#include <sys/types.h>

typedef enum {
	DC_SAN_LINE,
	DC_SAN_TEXT,
} dc_san_mode_t;

/* What dc_sanitize() replaced; or-ed into *flags. */
enum {
	DC_SAN_CONTROL = 1 << 0,      /* C0, DEL or C1 control */
	DC_SAN_INVALID_UTF8 = 1 << 1, /* bytes that were not valid UTF-8 */
	DC_SAN_BIDI = 1 << 2,         /* bidi override, embedding, isolate, mark */
	DC_SAN_INVISIBLE = 1 << 3,    /* zero-width and other invisible chars */
};

/*
 * Return a newly allocated (g_free) sanitized copy of the len bytes at in
 * (len < 0: NUL-terminated).  in == NULL gives "".  flags may be NULL.
 */
char *dc_sanitize(const char *in, ssize_t len, dc_san_mode_t mode,
		  unsigned *flags);

/* Shorthand for dc_sanitize(in, -1, DC_SAN_LINE, NULL). */
char *dc_sanitize_line(const char *in);

/*
 * Display width helpers for sanitized (valid UTF-8) strings: wide (CJK,
 * emoji) characters count 2 columns, combining and zero-width ones 0 (an
 * emoji ZWJ sequence is one cluster, never cut, counted as ncurses counts
 * its parts), and
 * so do "\n" and "\t": split lines and expand tabs before measuring.  A
 * stray invalid byte counts 1, like the U+FFFD a terminal draws for it.
 * NULL counts 0.
 */
int dc_display_width(const char *utf8);

/*
 * Newly allocated copy of utf8 cut to at most cols display columns, never in
 * the middle of a character or before its combining marks.  When something
 * was cut and ellipsis is non-zero the last column holds "…" (a wide
 * character that does not fit before it leaves one more column empty).
 * cols <= 0 gives "".
 */
char *dc_truncate_width(const char *utf8, int cols, int ellipsis);

/*
 * Byte length of the longest prefix of utf8 that fits in cols columns (for
 * wrapping long lines at display width), never ending inside a character or
 * before its combining marks.  0 when cols <= 0 or when even the first
 * character does not fit (a wide one in one column): a wrapping caller must
 * then force at least one character onto the line to make progress.
 */
size_t dc_prefix_for_width(const char *utf8, int cols);

/*
 * Byte length of the first cluster of utf8 (a character with its combining
 * marks, an emoji sequence) and its display width in *cols, as
 * dc_display_width() counts it; 0 at the end of the string.
 */
size_t dc_cluster_next(const char *utf8, int *cols);

#endif
