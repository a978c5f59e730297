/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * text/html as text, for messages that have no text/plain part: through a
 * filter command ([mime] html, e.g. "w3m -dump -T text/html") or the
 * built-in converter.  The result is text like any body: NOT sanitized
 * (whoever shows it passes it through dc_sanitize()).
 */
#ifndef DC_HTML_H
#define DC_HTML_H

#include <stddef.h>

#include "core/base/status.h"

/* How much of a filter's output is read before it is stopped. */
#define DC_HTML_FILTER_MAX (4u << 20)

/*
 * The built-in converter (g_free): tags stripped, the content of script,
 * style, head and template dropped, comments dropped, character
 * references decoded (invalid ones as U+FFFD), white space collapsed
 * outside <pre>, paragraphs and line breaks kept, blockquotes as "> "
 * lines, list items as "* ", a link's address after its text when they
 * differ, an image's alt text.
 */
char *dc_html_to_text(const char *html, size_t len);

/*
 * Run cmd (split into words as a shell would, but run without one) with
 * the len bytes of html on its standard input, and return its standard
 * output in *out (g_free).  Up to max bytes are read (0:
 * DC_HTML_FILTER_MAX); a filter that writes more is killed and *out ends
 * with a note.  There is no time limit.  DC_E_USAGE for a command that
 * cannot be parsed, DC_E_IO when it cannot be run or exits with failure.
 */
dc_status_t dc_html_filter(const char *cmd, const char *html, size_t len,
			   size_t max, char **out, dc_error_t *err);

/*
 * The html filter for a [mime] html setting: "builtin" or "" for the
 * built-in converter (NULL returned), another value as it is, and, when
 * unset, "w3m -dump -T text/html" if w3m is on the PATH (g_free).
 */
char *dc_html_filter_choose(const char *setting);

#endif
