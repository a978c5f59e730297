// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The one sanitizer, and display-width helpers for its output.
 *
 * dc_sanitize() runs on every row of an index listing and on every body we
 * show, so it is a single pass over the input: bytes that need no change are
 * not copied one by one but flushed as whole spans, and the output buffer is
 * sized for the common case (nothing replaced) up front.
 *
 * UTF-8 is decoded here rather than with g_utf8_get_char_validated() because
 * the replacement rule is per byte: a bad lead byte becomes one U+FFFD and
 * decoding resumes at the very next byte, so a truncated or corrupt sequence
 * yields one U+FFFD for each of its bytes and can never swallow a following
 * valid character (or a following newline).
 */
#include <string.h>

#include <glib.h>

#include "core/base/sanitize.h"

/* UTF-8 of U+FFFD, U+2421 (DEL picture) and U+2026 (ellipsis). */
#define REPLACEMENT "\xef\xbf\xbd"
#define DEL_PICTURE "\xe2\x90\xa1"
#define ELLIPSIS    "\xe2\x80\xa6"

struct obuf {
	char *p;
	size_t len;
	size_t cap;
};

static void
ob_grow(struct obuf *o, size_t extra)
{
	size_t cap = o->cap;

	/* Always keep one byte spare for the terminating NUL. */
	while (cap - o->len <= extra)
		cap *= 2;
	o->p = g_realloc(o->p, cap);
	o->cap = cap;
}

static inline void
ob_put(struct obuf *o, const void *bytes, size_t n)
{
	if (o->cap - o->len <= n)
		ob_grow(o, n);
	memcpy(o->p + o->len, bytes, n);
	o->len += n;
}

/* "<U+202E>": visible, greppable, and pure ASCII whatever the font. */
static void
ob_put_codepoint(struct obuf *o, gunichar c)
{
	static const char hex[] = "0123456789ABCDEF";
	char buf[16];
	int digits = c > 0xfffff ? 6 : c > 0xffff ? 5 : 4;
	int k = 0;

	buf[k++] = '<';
	buf[k++] = 'U';
	buf[k++] = '+';
	while (digits--)
		buf[k++] = hex[(c >> (4 * digits)) & 0xf];
	buf[k++] = '>';
	ob_put(o, buf, k);
}

/*
 * Decode one well-formed UTF-8 sequence (Unicode table 3-7) from the n > 0
 * bytes at s.  Return its length, or 0 when s[0] does not start one: stray
 * continuation bytes, overlong forms, surrogates, values above U+10FFFF and
 * sequences cut short by the end of the buffer.
 */
static inline size_t
utf8_decode(const unsigned char *s, size_t n, gunichar *cp)
{
	unsigned char b = s[0], lo = 0x80, hi = 0xbf;
	gunichar c;
	size_t k, i;

	if (b < 0x80) {
		*cp = b;
		return 1;
	}
	if (b < 0xc2)
		return 0;
	if (b < 0xe0) {
		k = 2;
		c = b & 0x1f;
	} else if (b < 0xf0) {
		k = 3;
		c = b & 0x0f;
		if (b == 0xe0)
			lo = 0xa0; /* overlong */
		else if (b == 0xed)
			hi = 0x9f; /* surrogates */
	} else if (b < 0xf5) {
		k = 4;
		c = b & 0x07;
		if (b == 0xf0)
			lo = 0x90; /* overlong */
		else if (b == 0xf4)
			hi = 0x8f; /* above U+10FFFF */
	} else {
		return 0;
	}
	if (n < k || s[1] < lo || s[1] > hi)
		return 0;
	c = (c << 6) | (s[1] & 0x3f);
	for (i = 2; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	*cp = c;
	return k;
}

/*
 * Extended_Pictographic, as far as emoji ZWJ sequences need it: the emoji
 * blocks of plane 1 (without the regional indicators and the skin tone
 * modifiers, which only follow an emoji) and the older symbols that have
 * an emoji presentation.  Used only to keep a joiner between two emoji.
 */
static inline gboolean
pictographic(gunichar c)
{
	if (c >= 0x1f000)
		return (c <= 0x1faff && !(c >= 0x1f1e6 && c <= 0x1f1ff) &&
			!(c >= 0x1f3fb && c <= 0x1f3ff)) ||
		       (c >= 0x1fc00 && c <= 0x1fffd);
	return c == 0xa9 || c == 0xae || c == 0x203c || c == 0x2049 ||
	       c == 0x2122 || c == 0x2139 || (c >= 0x2194 && c <= 0x21aa) ||
	       (c >= 0x231a && c <= 0x23ff) || (c >= 0x25aa && c <= 0x25fe) ||
	       (c >= 0x2600 && c <= 0x27bf) || c == 0x2934 || c == 0x2935 ||
	       (c >= 0x2b05 && c <= 0x2b55) || c == 0x3030 || c == 0x303d ||
	       c == 0x3297 || c == 0x3299;
}

/* What may stand between an emoji and the joiner after it. */
static inline gboolean
emoji_extend(gunichar c)
{
	return c == 0xfe0f || (c >= 0x1f3fb && c <= 0x1f3ff);
}

/*
 * Is the ZWJ at s (3 bytes, n in all) the joiner of an emoji sequence:
 * does an emoji (with its extenders) end right before it, and an emoji
 * follow?  Between letters it stays marked: there it hides in words.
 */
static inline gboolean
emoji_joiner(const unsigned char *s, size_t n, gboolean after_emoji)
{
	gunichar next;

	return after_emoji && n > 3 && utf8_decode(s + 3, n - 3, &next) &&
	       pictographic(next);
}

/*
 * Which DC_SAN_* flag a well-formed non-ASCII code point needs, or 0 when it
 * may pass through.  An explicit list rather than g_unichar_type() so that
 * what we hide does not change with the GLib version, and so that the
 * visible prepended format marks (U+0600-0605 and friends) stay untouched.
 */
static inline unsigned
classify(gunichar c)
{
	if (c <= 0x9f)
		return DC_SAN_CONTROL;
	if (c < 0x2000) {
		/*
		 * U+00AD soft hyphen: invisible in most terminals, so it can
		 * make two names that print alike compare different.
		 * U+115F/U+1160 Hangul fillers: blank "names".
		 */
		if (c == 0xad || c == 0x115f || c == 0x1160 || c == 0x180e)
			return DC_SAN_INVISIBLE;
		/*
		 * The other default-ignorable code points (Unicode's
		 * DerivedCoreProperties): U+034F combining grapheme joiner,
		 * U+17B4/U+17B5 Khmer inherent vowels, U+180B-180F Mongolian
		 * variation selectors.
		 */
		if (c == 0x34f || c == 0x17b4 || c == 0x17b5 ||
		    (c >= 0x180b && c <= 0x180f))
			return DC_SAN_INVISIBLE;
		if (c == 0x61c)
			return DC_SAN_BIDI;
		return 0;
	}
	if (c < 0x2070) {
		/*
		 * U+200D ZWJ is marked too, although emoji sequences use it:
		 * terminals disagree about the width of joined emoji, which
		 * breaks ncurses column arithmetic, and ZWJ/ZWNJ also hide
		 * inside words to defeat search and comparison.
		 */
		if (c >= 0x200b && c <= 0x200d)
			return DC_SAN_INVISIBLE;
		if (c == 0x200e || c == 0x200f)
			return DC_SAN_BIDI;
		if (c == 0x2028 || c == 0x2029)
			return DC_SAN_INVISIBLE;
		if (c >= 0x202a && c <= 0x202e)
			return DC_SAN_BIDI;
		if (c >= 0x2066 && c <= 0x2069)
			return DC_SAN_BIDI;
		/* U+2060-2065 and the deprecated U+206A-206F. */
		if (c >= 0x2060)
			return DC_SAN_INVISIBLE;
		return 0;
	}
	/* U+2800 braille blank: a blank "name" like the Hangul filler. */
	if (c < 0xfe00)
		return c == 0x3164 || c == 0x2800 ? DC_SAN_INVISIBLE : 0;
	if (c < 0x10000) {
		/*
		 * Variation selectors U+FE00-FE0E change nothing a reader
		 * sees in names; U+FE0F (emoji presentation) is left to the
		 * emoji it follows.  U+FFF0-FFF8 are reserved ignorables.
		 */
		if (c <= 0xfe0e || c == 0xfeff || c == 0xffa0 ||
		    (c >= 0xfff0 && c <= 0xfffb))
			return DC_SAN_INVISIBLE;
		return 0;
	}
	/*
	 * Shorthand format controls, musical format controls, the tag
	 * characters, which can carry a whole invisible ASCII text, the
	 * variation selectors supplement U+E0100-E01EF and the rest of the
	 * reserved default-ignorable plane-14 block up to U+E0FFF.
	 */
	if ((c >= 0x1bca0 && c <= 0x1bca3) || (c >= 0x1d173 && c <= 0x1d17a) ||
	    (c >= 0xe0000 && c <= 0xe0fff))
		return DC_SAN_INVISIBLE;
	return 0;
}

char *
dc_sanitize(const char *in, ssize_t len, dc_san_mode_t mode, unsigned *flags)
{
	const unsigned char *s = (const unsigned char *)in;
	unsigned char pic[3] = {0xe2, 0x90, 0x80};
	struct obuf o;
	size_t n, i = 0, start = 0;
	/* Where the last emoji (and its extenders) ended, for ZWJ. */
	size_t emoji_end = (size_t)-1;
	unsigned f = 0;

	if (!in)
		return g_strdup("");
	n = len < 0 ? strlen(in) : (size_t)len;

	o.len = 0;
	o.cap = n + n / 8 + 32;
	o.p = g_malloc(o.cap);

	while (i < n) {
		unsigned char b = s[i];
		unsigned cls = 0;
		gunichar c;
		size_t k;

		if (b >= 0x20 && b < 0x7f) {
			i++;
			continue;
		}
		if (b >= 0x80) {
			k = utf8_decode(s + i, n - i, &c);
			if (k && (pictographic(c) ||
				  (emoji_extend(c) && emoji_end == i)))
				emoji_end = i + k;
			if (k && c == 0x200d &&
			    emoji_joiner(s + i, n - i, emoji_end == i)) {
				i += k;
				continue;
			}
			if (k && !(cls = classify(c))) {
				i += k;
				continue;
			}
			ob_put(&o, s + start, i - start);
			if (k) {
				ob_put_codepoint(&o, c);
				f |= cls;
				i += k;
			} else {
				ob_put(&o, REPLACEMENT, 3);
				f |= DC_SAN_INVALID_UTF8;
				i++;
			}
			start = i;
			continue;
		}

		/* Control characters: C0, DEL, and the NUL that len let in. */
		if (mode == DC_SAN_TEXT && (b == '\n' || b == '\t')) {
			i++;
			continue;
		}
		ob_put(&o, s + start, i - start);
		if (b == 0) {
			/*
			 * No C string can hold a NUL, so it is corruption
			 * rather than a control someone typed.
			 */
			ob_put(&o, REPLACEMENT, 3);
			f |= DC_SAN_INVALID_UTF8;
		} else if (b == '\t' && mode == DC_SAN_LINE) {
			ob_put(&o, " ", 1);
		} else if (b == '\r' && mode == DC_SAN_TEXT && i + 1 < n &&
			   s[i + 1] == '\n') {
			/* CRLF is just a line ending: nothing to show. */
		} else if (b == 0x7f) {
			ob_put(&o, DEL_PICTURE, 3);
			f |= DC_SAN_CONTROL;
		} else {
			pic[2] = 0x80 + b;
			ob_put(&o, pic, 3);
			f |= DC_SAN_CONTROL;
		}
		start = ++i;
	}
	ob_put(&o, s + start, n - start);
	o.p[o.len] = '\0';
	if (flags)
		*flags |= f;
	return o.p;
}

char *
dc_sanitize_line(const char *in)
{
	return dc_sanitize(in, -1, DC_SAN_LINE, NULL);
}

/*
 * Columns one character takes.  Controls count 0: only "\n" and "\t" survive
 * sanitizing and callers split lines and expand tabs before measuring.
 */
static inline int
char_width(gunichar c)
{
	if (c < 0x7f)
		return c >= 0x20;
	if (c <= 0x9f)
		return 0;
	if (g_unichar_iszerowidth(c))
		return 0;
	if (g_unichar_iswide(c))
		return 2;
	return 1;
}

/* Does c belong to the character before it (accents, vowel signs, jamo)? */
static inline gboolean
attaches(gunichar c)
{
	return g_unichar_ismark(c) || g_unichar_iszerowidth(c);
}

/*
 * Length and width of the cluster at s[0..n): one character and the marks
 * that follow it.  A byte that is not UTF-8 (the caller should have
 * sanitized) is a cluster of its own, one column wide like the U+FFFD a
 * terminal would draw for it.
 */
static inline size_t
cluster(const unsigned char *s, size_t n, int *width)
{
	gboolean emoji;
	gunichar c;
	size_t i, k;

	/* Fast path: ASCII followed by ASCII or the end. */
	if (s[0] < 0x80 && (n == 1 || s[1] < 0x80)) {
		*width = char_width(s[0]);
		return 1;
	}
	k = utf8_decode(s, n, &c);
	if (!k) {
		*width = 1;
		return 1;
	}
	*width = char_width(c);
	emoji = pictographic(c);
	for (i = k; i < n && s[i] >= 0x80; i += k) {
		k = utf8_decode(s + i, n - i, &c);
		if (!k)
			break;
		if (emoji && c == 0x200d && emoji_joiner(s + i, n - i, TRUE)) {
			/* The joiner and the emoji it joins: one cluster,
			 * as wide as ncurses counts its parts. */
			utf8_decode(s + i + 3, n - i - 3, &c);
			*width += char_width(c);
			k = 3 + g_unichar_to_utf8(c, NULL);
			continue;
		}
		if (!attaches(c) && !(emoji && emoji_extend(c)))
			break;
		*width += char_width(c);
	}
	return i;
}

static size_t
prefix_width(const unsigned char *s, size_t n, int cols, int *width)
{
	size_t i = 0, k;
	int w = 0, cw;

	if (cols <= 0) {
		*width = 0;
		return 0;
	}
	while (i < n) {
		k = cluster(s + i, n - i, &cw);
		if (cw > cols - w)
			break;
		w += cw;
		i += k;
	}
	*width = w;
	return i;
}

int
dc_display_width(const char *utf8)
{
	const unsigned char *s = (const unsigned char *)utf8;
	size_t n, i = 0;
	int w = 0, cw;

	if (!utf8)
		return 0;
	/* Printable ASCII, most of what is measured: a column a byte.
	 * Where it stops, the last of it starts the first cluster (it may
	 * carry combining marks). */
	while (s[i] >= 0x20 && s[i] < 0x7f)
		i++;
	if (!s[i])
		return i > G_MAXINT ? G_MAXINT : (int)i;
	if (i > 0)
		i--;
	if (i > G_MAXINT)
		return G_MAXINT;
	w = (int)i;
	n = i + strlen(utf8 + i);
	while (i < n) {
		i += cluster(s + i, n - i, &cw);
		if (cw > G_MAXINT - w)
			return G_MAXINT;
		w += cw;
	}
	return w;
}

char *
dc_truncate_width(const char *utf8, int cols, int ellipsis)
{
	const unsigned char *s = (const unsigned char *)utf8;
	size_t n, end;
	char *out;
	int w;

	if (!utf8 || cols <= 0)
		return g_strdup("");
	n = strlen(utf8);
	end = prefix_width(s, n, cols, &w);
	if (end == n)
		return g_strndup(utf8, n);
	if (!ellipsis)
		return g_strndup(utf8, end);

	end = prefix_width(s, n, cols - 1, &w);
	out = g_malloc(end + sizeof(ELLIPSIS));
	memcpy(out, utf8, end);
	memcpy(out + end, ELLIPSIS, sizeof(ELLIPSIS));
	return out;
}

size_t
dc_cluster_next(const char *utf8, int *cols)
{
	size_t n;
	int w = 0;

	if (!utf8 || !*utf8) {
		*cols = 0;
		return 0;
	}
	/* Bounded: a caller walks a long line cluster by cluster.  A longer
	 * run of marks goes on as clusters of width 0. */
	n = cluster((const unsigned char *)utf8, strnlen(utf8, 256), &w);
	*cols = w;
	return n;
}

size_t
dc_prefix_for_width(const char *utf8, int cols)
{
	int w;

	if (!utf8)
		return 0;
	return prefix_width((const unsigned char *)utf8, strlen(utf8), cols,
			    &w);
}
