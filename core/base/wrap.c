// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Wrapping a line of sanitized text at a display width (core/base/wrap.h):
 * between words, between wide characters, the quote prefix repeated, and
 * never inside a URL or a <message-id>.
 */
#include <string.h>

#include "core/base/sanitize.h"
#include "core/base/wrap.h"

/* Below this many columns after the prefix, repeating it costs more of
 * the line than it says. */
#define MIN_QUOTED_TEXT 10

struct tok {
	const char *s;
	size_t len;
	int w;
	int space; /* a run of spaces */
	int wide;  /* one wide character: a break may come before or after */
};

size_t
dc_wrap_quote_prefix(const char *line)
{
	size_t i = 0;

	while (line[i] == ' ')
		i++;
	if (line[i] != '>')
		return 0;
	while (line[i] == '>') {
		i++;
		if (line[i] == ' ')
			i++;
	}
	return i;
}

static int
scheme_url(const char *s, size_t len)
{
	size_t i = 0;

	if (len >= 4 && !g_ascii_strncasecmp(s, "www.", 4))
		return 1;
	while (i < len && (g_ascii_isalnum(s[i]) || s[i] == '+' ||
			   s[i] == '-' || s[i] == '.'))
		i++;
	return i > 0 && g_ascii_isalpha(s[0]) && len - i > 3 &&
	       !strncmp(s + i, "://", 3);
}

int
dc_wrap_unbreakable(const char *word, size_t len)
{
	const char *at;
	size_t i = 0;

	/* A Message-ID (or an address) in angle brackets. */
	if (len > 3 && word[0] == '<' && (at = memchr(word, '@', len)) &&
	    at > word + 1 && memchr(word, '>', len) > (void *)(at + 1))
		return 1;
	/* A URL, maybe after an opening bracket or quote. */
	while (i < len && strchr("<([\"'", word[i]))
		i++;
	return scheme_url(word + i, len - i);
}

static GArray *
tokenize(const char *s)
{
	GArray *toks = g_array_new(FALSE, TRUE, sizeof(struct tok));

	while (*s) {
		int cw;
		size_t n = dc_cluster_next(s, &cw);
		struct tok *last = toks->len ? &g_array_index(toks, struct tok,
							       toks->len - 1) :
					       NULL;
		int space = *s == ' ';

		if (!n)
			break;
		/* Marks and same-kind runs join the token before them. */
		if (last && ((cw == 0 && !space) ||
			     (space && last->space) ||
			     (!space && cw < 2 && !last->space && !last->wide))) {
			last->len += n;
			last->w += cw;
		} else {
			struct tok t = { s, n, cw, space, cw >= 2 };

			g_array_append_val(toks, t);
		}
		s += n;
	}
	return toks;
}

struct out {
	GPtrArray *lines;
	GString *cur;
	int cur_w;
	int has_text;
	const char *prefix; /* repeated on continuation lines */
	size_t prefix_len;
	int prefix_w;
};

static void
flush(struct out *o)
{
	gsize n = o->cur->len;

	while (n > o->prefix_len && o->cur->str[n - 1] == ' ')
		n--;
	g_string_truncate(o->cur, n);
	g_ptr_array_add(o->lines, g_strdup(o->cur->str));
	g_string_truncate(o->cur, 0);
	g_string_append_len(o->cur, o->prefix, o->prefix_len);
	o->cur_w = o->prefix_w;
	o->has_text = 0;
}

static void
put(struct out *o, const char *s, size_t len, int w)
{
	g_string_append_len(o->cur, s, len);
	o->cur_w += w;
	o->has_text = 1;
}

/* A word wider than a line: as much as fits on each line, cluster by
 * cluster (linear: a hostile megabyte without a space costs one pass). */
static void
put_split(struct out *o, const struct tok *t, int width)
{
	const char *p = t->s, *end = t->s + t->len;

	if (o->has_text)
		flush(o);
	while (p < end) {
		int cw;
		size_t n = dc_cluster_next(p, &cw);

		if (!n || p + n > end)
			n = end - p;
		/* At least one cluster a line, even a wide one in one
		 * column. */
		if (o->has_text && o->cur_w + cw > width)
			flush(o);
		put(o, p, n, cw);
		p += n;
	}
}

GPtrArray *
dc_wrap_line(const char *line, int width)
{
	struct out o = { .lines = g_ptr_array_new_with_free_func(g_free) };
	size_t plen = dc_wrap_quote_prefix(line);
	const struct tok *pending = NULL;
	GArray *toks;
	char *pfx;
	guint i;

	if (width <= 0 || dc_display_width(line) <= width) {
		g_ptr_array_add(o.lines, g_strdup(line));
		return o.lines;
	}
	pfx = g_strndup(line, plen);
	o.prefix_w = dc_display_width(pfx);
	g_free(pfx);
	if (width - o.prefix_w < MIN_QUOTED_TEXT) {
		plen = 0;
		o.prefix_w = 0;
	}
	o.prefix = line;
	o.prefix_len = plen;
	o.cur = g_string_new_len(line, plen);
	o.cur_w = o.prefix_w;
	toks = tokenize(line + plen);
	for (i = 0; i < toks->len; i++) {
		const struct tok *t = &g_array_index(toks, struct tok, i);
		int sp = pending && o.has_text ? pending->w : 0;

		if (t->space) {
			/* Indentation stays; spaces at a break go. */
			if (!o.has_text && !o.lines->len) {
				g_string_append_len(o.cur, t->s, t->len);
				o.cur_w += t->w;
			} else {
				pending = t;
			}
			continue;
		}
		if (o.cur_w + sp + t->w <= width) {
			if (sp)
				put(&o, pending->s, pending->len, pending->w);
			put(&o, t->s, t->len, t->w);
		} else if (t->w <= width - o.prefix_w ||
			   dc_wrap_unbreakable(t->s, t->len)) {
			if (o.has_text)
				flush(&o);
			/* An over-long URL runs past the edge on its own
			 * line rather than break. */
			put(&o, t->s, t->len, t->w);
		} else {
			put_split(&o, t, width);
		}
		pending = NULL;
	}
	if (o.has_text || !o.lines->len)
		flush(&o);
	g_array_unref(toks);
	g_string_free(o.cur, TRUE);
	return o.lines;
}
