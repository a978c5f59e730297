/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Wrapping text for the screen, on display width (core/base/sanitize.h:
 * wide characters count 2 columns).  The input is one line of sanitized
 * text, tabs already expanded.
 *
 * Lines break between words, and between wide (CJK) characters, which
 * need no space around them; a word is broken only when it alone is wider
 * than the line.  A URL or a <message-id> is never broken: one too long
 * for the line gets a line of its own and runs past the width.  A quoted
 * line ("> ", "> > ", ">>") repeats its quote prefix on every line it
 * wraps onto, so that quoted text stays visibly quoted.
 */
#ifndef DC_WRAP_H
#define DC_WRAP_H

#include <stddef.h>

#include <glib.h>

/* The lines (char *, g_free; GPtrArray frees them) that line wraps into at
 * width columns: at least one.  width <= 0: the line as it is. */
GPtrArray *dc_wrap_line(const char *line, int width);

/* Bytes of line's quote prefix (spaces, then '>' each maybe followed by
 * one space); 0 if the line is not quoted. */
size_t dc_wrap_quote_prefix(const char *line);

/* Is the len bytes at word a URL ("scheme://...", "www...", maybe after an
 * opening bracket or quote) or "<x@y>" (a Message-ID or an address)? */
int dc_wrap_unbreakable(const char *word, size_t len);

#endif
