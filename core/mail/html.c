// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * text/html as text (core/mail/html.h): the built-in converter and the
 * filter command.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>

#include "core/base/safefile.h"
#include "core/mail/html.h"

/* ---- the built-in converter --------------------------------------------- */

struct conv {
	GString *out;
	int pre;	  /* inside <pre> */
	int quote;	  /* <blockquote> depth */
	int breaks;	  /* line breaks waiting: 1 a line, 2 a paragraph */
	int space;	  /* white space waiting */
	int line_start;	  /* nothing on the current line yet */
	char *href;	  /* the open <a>'s address */
	gsize link_start; /* where its text began in out */
};

static const struct {
	const char *name;
	gunichar c;
} entities[] = {
	{ "amp", '&' },	       { "lt", '<' },	       { "gt", '>' },
	{ "quot", '"' },       { "apos", '\'' },     { "nbsp", 0xa0 },
	{ "copy", 0xa9 },      { "reg", 0xae },	     { "trade", 0x2122 },
	{ "hellip", 0x2026 },  { "mdash", 0x2014 },  { "ndash", 0x2013 },
	{ "lsquo", 0x2018 },   { "rsquo", 0x2019 },  { "ldquo", 0x201c },
	{ "rdquo", 0x201d },   { "laquo", 0xab },    { "raquo", 0xbb },
	{ "bull", 0x2022 },    { "middot", 0xb7 },   { "euro", 0x20ac },
	{ "shy", 0xad },       { "zwj", 0x200d },    { "zwnj", 0x200c },
	{ "lrm", 0x200e },     { "rlm", 0x200f },    { "times", 0xd7 },
	{ "deg", 0xb0 },
};

/* The character reference at p ("&...") into *c; its length, or 0. */
static size_t
entity(const char *p, const char *end, gunichar *c)
{
	const char *q = p + 1;
	guint i;

	if (q < end && *q == '#') {
		guint64 v = 0;
		int hex = q + 1 < end && (q[1] == 'x' || q[1] == 'X');
		const char *d = q + 1 + hex;

		for (q = d; q < end && (hex ? g_ascii_isxdigit(*q) :
					     g_ascii_isdigit(*q));
		     q++)
			if (v <= 0x10ffff)
				v = v * (hex ? 16 : 10) +
				    (hex ? (guint64)g_ascii_xdigit_value(*q) :
					   (guint64)(*q - '0'));
		if (q == d)
			return 0;
		*c = v == 0 || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff) ?
			     0xfffd :
			     (gunichar)v;
		return (q < end && *q == ';' ? q + 1 : q) - p;
	}
	for (i = 0; i < G_N_ELEMENTS(entities); i++) {
		size_t n = strlen(entities[i].name);

		if ((size_t)(end - q) >= n && !strncmp(q, entities[i].name, n)) {
			*c = entities[i].c;
			q += n;
			return (q < end && *q == ';' ? q + 1 : q) - p;
		}
	}
	return 0;
}

/* The text with its character references decoded (g_free). */
static char *
decode(const char *p, const char *end)
{
	GString *s = g_string_new(NULL);

	while (p < end) {
		gunichar c;
		size_t n = *p == '&' ? entity(p, end, &c) : 0;

		if (n) {
			g_string_append_unichar(s, c);
			p += n;
		} else {
			g_string_append_c(s, *p++);
		}
	}
	return g_string_free(s, FALSE);
}

static void
newline(struct conv *cv)
{
	g_string_append_c(cv->out, '\n');
	cv->line_start = 1;
}

/* Before something visible: the breaks and the space waiting, and the
 * quote prefix of a new line. */
static void
settle(struct conv *cv)
{
	int i;

	if (cv->out->len)
		for (i = 0; i < cv->breaks; i++)
			newline(cv);
	if (cv->breaks)
		cv->space = 0;
	cv->breaks = 0;
	if (cv->line_start) {
		for (i = 0; i < cv->quote; i++)
			g_string_append(cv->out, "> ");
		cv->line_start = 0;
		cv->space = 0;
	}
	if (cv->space)
		g_string_append_c(cv->out, ' ');
	cv->space = 0;
}

static void
put_text(struct conv *cv, const char *s)
{
	for (; *s; s++) {
		if (cv->pre && *s == '\n') {
			cv->breaks = 0;
			newline(cv);
			continue;
		}
		if (!cv->pre && strchr(" \t\n\r\f", *s)) {
			if (!cv->line_start || cv->breaks == 0)
				cv->space = 1;
			continue;
		}
		settle(cv);
		g_string_append_c(cv->out, *s);
	}
}

static void
want_break(struct conv *cv, int n)
{
	if (cv->breaks < n)
		cv->breaks = n;
	cv->space = 0;
}

static int
is_tag(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (!g_ascii_strcasecmp(name, *list))
			return 1;
	return 0;
}

/* The value of attribute attr in a tag's text (g_free), or NULL. */
static char *
attribute(const char *p, const char *end, const char *attr)
{
	size_t an = strlen(attr);

	while (p < end) {
		const char *name, *v, *ve;

		while (p < end && !g_ascii_isalpha(*p))
			p++;
		name = p;
		while (p < end && (g_ascii_isalnum(*p) || *p == '-'))
			p++;
		if (p == name)
			break;
		while (p < end && *p == ' ')
			p++;
		if (p >= end || *p != '=')
			continue;
		for (p++; p < end && *p == ' '; p++)
			;
		if (p < end && (*p == '"' || *p == '\'')) {
			char qc = *p++;

			v = p;
			ve = memchr(p, qc, end - p);
			if (!ve)
				ve = end;
			p = ve < end ? ve + 1 : end;
		} else {
			v = p;
			while (p < end && !g_ascii_isspace(*p))
				p++;
			ve = p;
		}
		if ((size_t)(p - name) > an && !g_ascii_strncasecmp(name, attr, an) &&
		    (name[an] == '=' || name[an] == ' '))
			return decode(v, ve);
	}
	return NULL;
}

static void
link_end(struct conv *cv)
{
	const char *href = cv->href, *text;

	if (!href)
		return;
	text = cv->out->str + MIN(cv->link_start, cv->out->len);
	if (!g_ascii_strncasecmp(href, "mailto:", 7))
		href += 7;
	if ((!g_ascii_strncasecmp(cv->href, "http", 4) ||
	     !g_ascii_strncasecmp(cv->href, "mailto:", 7)) &&
	    !strstr(text, href)) {
		char *a = g_strdup_printf(" <%s>", href);

		settle(cv);
		g_string_append(cv->out, a + (cv->out->len &&
					      cv->out->str[cv->out->len - 1] ==
						      ' '));
		g_free(a);
	}
	g_clear_pointer(&cv->href, g_free);
}

/* Never shown.  (Not <head>: a message without </head> would be dropped
 * whole; its <title> and <style> go on their own.) */
static const char *const dropped[] = { "script", "style", "title",
				       "template", NULL };
static const char *const paragraphs[] = { "p", "h1", "h2", "h3", "h4", "h5",
					  "h6", "ul", "ol", "dl", "table",
					  "hr", "address", "figure", NULL };
static const char *const lines[] = { "div", "tr", "dt", "dd", "section",
				     "article", "header", "footer", "nav",
				     "aside", "main", "form", "caption",
				     "center", NULL };

/* A tag: name, whether it closes, its attribute text. */
static void
tag(struct conv *cv, const char *name, int closing, const char *attrs,
    const char *end)
{
	if (!g_ascii_strcasecmp(name, "br")) {
		cv->breaks = MIN(cv->breaks + 1, 2);
		cv->space = 0;
		return;
	}
	if (!g_ascii_strcasecmp(name, "blockquote")) {
		want_break(cv, 2);
		if (closing)
			cv->quote = MAX(cv->quote - 1, 0);
		else
			cv->quote++;
		return;
	}
	if (!g_ascii_strcasecmp(name, "pre")) {
		want_break(cv, 2);
		cv->pre = closing ? MAX(cv->pre - 1, 0) : cv->pre + 1;
		return;
	}
	if (!g_ascii_strcasecmp(name, "li")) {
		want_break(cv, 1);
		if (!closing)
			put_text(cv, "* ");
		return;
	}
	if (!g_ascii_strcasecmp(name, "td") || !g_ascii_strcasecmp(name, "th")) {
		if (!closing)
			cv->space = 1;
		return;
	}
	if (!g_ascii_strcasecmp(name, "a")) {
		if (closing) {
			link_end(cv);
		} else {
			g_free(cv->href);
			cv->href = attribute(attrs, end, "href");
			cv->link_start = cv->out->len;
		}
		return;
	}
	if (!g_ascii_strcasecmp(name, "img") && !closing) {
		char *alt = attribute(attrs, end, "alt");

		if (alt && *g_strstrip(alt)) {
			char *s = g_strdup_printf("[image: %s]", alt);

			put_text(cv, s);
			g_free(s);
		}
		g_free(alt);
		return;
	}
	if (is_tag(name, paragraphs))
		want_break(cv, 2);
	else if (is_tag(name, lines))
		want_break(cv, 1);
}

/* Past the end tag of name (case-insensitive) from p, or NULL when there
 * is none: then what follows is shown rather than lost. */
static const char *
skip_to_end_tag(const char *p, const char *end, const char *name)
{
	size_t n = strlen(name);

	for (; p + n + 2 <= end; p++)
		if (p[0] == '<' && p[1] == '/' &&
		    !g_ascii_strncasecmp(p + 2, name, n) &&
		    (p + n + 2 == end || !g_ascii_isalnum(p[n + 2]))) {
			const char *gt = memchr(p, '>', end - p);

			return gt ? gt + 1 : end;
		}
	return NULL;
}

/* The end of a tag starting at p ('<'), quotes respected. */
static const char *
tag_end(const char *p, const char *end)
{
	char q = 0;

	for (p++; p < end; p++) {
		if (q) {
			if (*p == q)
				q = 0;
		} else if (*p == '"' || *p == '\'') {
			q = *p;
		} else if (*p == '>') {
			return p + 1;
		}
	}
	return end;
}

/* Lines without trailing blanks, at most one empty line in a row, none
 * at the start or the end; a final newline. */
static char *
tidy(const char *s)
{
	char **lines_ = g_strsplit(s, "\n", -1);
	GString *out = g_string_new(NULL);
	int blank = 0, i;

	for (i = 0; lines_[i]; i++) {
		char *l = g_strchomp(lines_[i]);

		if (!*l || !strcmp(l, ">")) {
			blank = out->len > 0;
			continue;
		}
		if (blank)
			g_string_append(out, "\n");
		blank = 0;
		g_string_append_printf(out, "%s\n", l);
	}
	g_strfreev(lines_);
	return g_string_free(out, FALSE);
}

char *
dc_html_to_text(const char *html, size_t len)
{
	struct conv cv = { .out = g_string_new(NULL), .line_start = 1 };
	const char *p = html, *end = html + len;
	GHashTable *no_end = g_hash_table_new_full(g_str_hash, g_str_equal,
						   g_free, NULL);
	char *r;

	while (p < end) {
		const char *lt = memchr(p, '<', end - p), *te;
		char *text, name[16];
		size_t n;
		int closing;

		if (!lt)
			lt = end;
		text = decode(p, lt);
		put_text(&cv, text);
		g_free(text);
		if (lt >= end)
			break;
		p = lt;
		if (end - p >= 4 && !strncmp(p, "<!--", 4)) {
			const char *c = g_strstr_len(p + 4, end - p - 4, "-->");

			p = c ? c + 3 : end;
			continue;
		}
		closing = p + 1 < end && p[1] == '/';
		te = p + 1 + closing;
		if (te < end && (*te == '!' || *te == '?')) {
			p = tag_end(p, end);
			continue;
		}
		for (n = 0; te + n < end && n + 1 < sizeof(name) &&
			    g_ascii_isalnum(te[n]);
		     n++)
			name[n] = g_ascii_tolower(te[n]);
		name[n] = '\0';
		if (!n || !g_ascii_isalpha(name[0])) {
			/* A lone '<' is text. */
			put_text(&cv, "<");
			p++;
			continue;
		}
		{
			const char *attrs = te + n, *gt = tag_end(p, end);

			tag(&cv, name, closing, attrs,
			    gt > attrs && gt[-1] == '>' ? gt - 1 : gt);
			p = gt;
		}
		if (!closing && is_tag(name, dropped) &&
		    !g_hash_table_contains(no_end, name)) {
			const char *after = skip_to_end_tag(p, end, name);

			/* Never look again for an end tag that is not there:
			 * a thousand <script>s must not cost a thousand
			 * passes. */
			if (after)
				p = after;
			else
				g_hash_table_add(no_end, g_strdup(name));
		}
	}
	link_end(&cv);
	g_hash_table_destroy(no_end);
	r = tidy(cv.out->str);
	g_string_free(cv.out, TRUE);
	return r;
}

/* ---- the filter command ------------------------------------------------- */

/* Read fd to its end or max bytes; 1 if there was more. */
static int
read_bounded(int fd, size_t max, GString *out)
{
	char buf[65536];

	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return 0;
		if (out->len + r > max) {
			g_string_append_len(out, buf, max - out->len);
			return 1;
		}
		g_string_append_len(out, buf, r);
	}
}

dc_status_t
dc_html_filter(const char *cmd, const char *html, size_t len, size_t max,
	       char **out, dc_error_t *err)
{
	GError *gerr = NULL;
	GString *text;
	char **argv = NULL;
	int in, outfd = -1, status = 0, cut;
	GPid pid;

	*out = NULL;
	if (!max)
		max = DC_HTML_FILTER_MAX;
	if (!cmd || !g_shell_parse_argv(cmd, NULL, &argv, &gerr)) {
		dc_fail(err, DC_E_USAGE, "html filter '%s': %s", cmd ? cmd : "",
			gerr ? gerr->message : "no command");
		g_clear_error(&gerr);
		return DC_E_USAGE;
	}
	/* The html in an anonymous file for the filter's standard input:
	 * no pipe to keep fed, so neither side can wait on the other. */
	in = dc_memfd("decorum-html", html, len);
	if (in < 0) {
		g_strfreev(argv);
		return dc_fail(err, DC_E_IO, "html filter: %s",
			       g_strerror(errno));
	}
	if (!g_spawn_async_with_pipes_and_fds(
		    NULL, (const char *const *)argv, NULL,
		    G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD |
			    G_SPAWN_STDERR_TO_DEV_NULL,
		    NULL, NULL, in, -1, -1, NULL, NULL, 0, &pid, NULL, &outfd,
		    NULL, &gerr)) {
		dc_fail(err, DC_E_IO, "html filter '%s': %s", argv[0],
			gerr->message);
		g_clear_error(&gerr);
		close(in);
		g_strfreev(argv);
		return DC_E_IO;
	}
	close(in);
	text = g_string_new(NULL);
	cut = read_bounded(outfd, max, text);
	if (cut)
		kill(pid, SIGKILL);
	close(outfd);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	g_spawn_close_pid(pid);
	if (!cut && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		dc_fail(err, DC_E_IO, "html filter '%s' %s %d", argv[0],
			WIFEXITED(status) ? "exited with status" :
					    "was killed by signal",
			WIFEXITED(status) ? WEXITSTATUS(status) :
					    WTERMSIG(status));
		g_string_free(text, TRUE);
		g_strfreev(argv);
		return DC_E_IO;
	}
	if (cut)
		g_string_append_printf(text,
				       "\n[decorum: the html filter's output "
				       "was cut at %zu bytes]\n",
				       max);
	g_strfreev(argv);
	*out = g_string_free(text, FALSE);
	return DC_OK;
}

char *
dc_html_filter_choose(const char *setting)
{
	char *w3m;

	if (setting) {
		char *s = g_strstrip(g_strdup(setting));

		if (!*s || !strcmp(s, "builtin"))
			g_clear_pointer(&s, g_free);
		return s;
	}
	w3m = g_find_program_in_path("w3m");
	if (!w3m)
		return NULL;
	g_free(w3m);
	/* The part is handed over in UTF-8, and the body is UTF-8. */
	return g_strdup("w3m -dump -T text/html -I UTF-8 -O UTF-8");
}
