// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * text/html as text (core/mail/html.c): the built-in converter, and the
 * filter command with its bounded read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "core/mail/html.h"

static void
check_at(const char *html, const char *want, const char *file, int line)
{
	char *got = dc_html_to_text(html, strlen(html));

	_assert_string_equal(got, want, file, line);
	g_free(got);
}

#define CHECK(html, want) check_at(html, want, __FILE__, __LINE__)

static void
test_tags_and_paragraphs(void **state)
{
	(void)state;
	CHECK("", "");
	CHECK("plain", "plain\n");
	CHECK("<p>One</p><p>Two</p>", "One\n\nTwo\n");
	CHECK("<html><body><div>a\n   b\tc</div><div>d</div></body></html>",
	      "a b c\nd\n");
	CHECK("line<br>next<br/><br />after", "line\nnext\n\nafter\n");
	CHECK("<b>bold</b> and <i>it</i>alic", "bold and italic\n");
	CHECK("<ul><li>one</li><li>two</li></ul>", "* one\n* two\n");
	CHECK("<pre>  keep\n    this</pre>after", "  keep\n    this\n\nafter\n");
	CHECK("<blockquote><p>quoted text</p><p>more</p></blockquote>mine",
	      "> quoted text\n\n> more\n\nmine\n");
	CHECK("a < b and c<3", "a < b and c<3\n");
	CHECK("<table><tr><td>x</td><td>y</td></tr></table>", "x y\n");
}

static void
test_dropped(void **state)
{
	(void)state;
	CHECK("<head><title>T</title><style>p{color:red}</style></head>"
	      "<body>shown</body>",
	      "shown\n");
	CHECK("a<script type=\"x\">if (a < b) alert(1)</script>b", "ab\n");
	CHECK("a<SCRIPT>x</SCRIPT >b", "ab\n");
	CHECK("a<!-- hidden -->b<!DOCTYPE html>c", "abc\n");
	/* With no end tag, nothing is lost. */
	CHECK("a<style>b", "ab\n");
	CHECK("<head><meta charset=utf-8>no end of head", "no end of head\n");
	/* A quoted '>' does not end a tag. */
	CHECK("<a title=\"x > y\">t</a>", "t\n");
}

static void
test_entities(void **state)
{
	(void)state;
	CHECK("&lt;tag&gt; &amp; &quot;q&quot; &apos;", "<tag> & \"q\" '\n");
	CHECK("&#65;&#x42;&#X43;&#0;&#xD800;&#x110000;",
	      "ABC\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\n");
	CHECK("caf&eacute; &unknown; &amp", "caf&eacute; &unknown; &\n");
	CHECK("a&nbsp;b &mdash; &hellip;", "a\xc2\xa0" "b \xe2\x80\x94 "
	      "\xe2\x80\xa6\n");
	/* Controls come out as they are: the sanitizer shows them. */
	CHECK("x&#27;[2Jy", "x\x1b[2Jy\n");
}

static void
test_links_and_images(void **state)
{
	(void)state;
	CHECK("<a href=\"https://example.org/x\">the report</a>.",
	      "the report <https://example.org/x>.\n");
	CHECK("<a href=\"https://example.org/x\">https://example.org/x</a>",
	      "https://example.org/x\n");
	CHECK("<a href=https://e.org/a?b=1&amp;c=2>e</a>",
	      "e <https://e.org/a?b=1&c=2>\n");
	CHECK("<a href=\"mailto:ada@example.org\">ada@example.org</a>",
	      "ada@example.org\n");
	CHECK("<a href=\"#top\">top</a>", "top\n");
	CHECK("<img src=x alt=\"a chart\"> <img src=y>", "[image: a chart]\n");
}

/* Hostile shapes stay linear and lose nothing: many unclosed <script>s,
 * an unclosed quote, an unclosed comment. */
static void
test_hostile(void **state)
{
	GString *h = g_string_new(NULL);
	char *out;
	int i;

	(void)state;
	for (i = 0; i < 100000; i++)
		g_string_append(h, "<script>x ");
	out = dc_html_to_text(h->str, h->len);
	assert_int_equal(strlen(out), 100000 * 2);
	g_free(out);
	g_string_free(h, TRUE);
	CHECK("before<a title=\"never closed>after", "before\n");
	CHECK("before<!-- never closed", "before\n");
	CHECK("<p>a</p\n>b<P>c", "a\n\nb\n\nc\n");
}

static char *
stand_in(const char *body)
{
	char *path = g_build_filename(g_get_tmp_dir(), "decorum-html-XXXXXX",
				      NULL);
	int fd = g_mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	assert_true(g_file_set_contents(path, body, -1, NULL));
	return path;
}

static void
test_filter(void **state)
{
	dc_error_t err = { 0 };
	char *out = NULL, *script, *cmd;
	static const char html[] = "<p>Hello <b>there</b></p>";

	(void)state;
	/* The html on standard input, the output back as it is. */
	script = stand_in("echo filtered; tr -d '<>/'\n");
	cmd = g_strdup_printf("sh '%s' --an-argument", script);
	assert_int_equal(dc_html_filter(cmd, html, strlen(html), 0, &out,
					&err),
			 DC_OK);
	assert_string_equal(out, "filtered\npHello btherebp");
	g_free(out);
	g_free(cmd);
	/* Words are split without a shell: no expansion, no pipes. */
	cmd = g_strdup("echo $HOME | cat");
	assert_int_equal(dc_html_filter(cmd, html, strlen(html), 0, &out,
					&err),
			 DC_OK);
	assert_string_equal(out, "$HOME | cat\n");
	g_free(out);
	g_free(cmd);
	/* A failing filter, one that is not there, one that cannot parse. */
	assert_int_equal(dc_html_filter("false", html, strlen(html), 0, &out,
					&err),
			 DC_E_IO);
	assert_null(out);
	assert_non_null(strstr(err.msg, "status 1"));
	dc_error_clear(&err);
	assert_int_equal(dc_html_filter("/nonexistent/filter", html,
					strlen(html), 0, &out, &err),
			 DC_E_IO);
	dc_error_clear(&err);
	assert_int_equal(dc_html_filter("sh -c 'unterminated", html,
					strlen(html), 0, &out, &err),
			 DC_E_USAGE);
	dc_error_clear(&err);
	unlink(script);
	g_free(script);
}

/* A filter that never stops writing is read up to the bound and stopped. */
static void
test_filter_bounded(void **state)
{
	dc_error_t err = { 0 };
	char *out = NULL;

	(void)state;
	assert_int_equal(dc_html_filter("yes decorum", "", 0, 100000, &out,
					&err),
			 DC_OK);
	assert_true(g_str_has_prefix(out, "decorum\ndecorum\n"));
	assert_non_null(strstr(out, "[decorum: the html filter's output was "
				    "cut at 100000 bytes]"));
	assert_int_equal(strlen(out), 100000 + strlen("\n[decorum: the html "
						      "filter's output was "
						      "cut at 100000 "
						      "bytes]\n"));
	g_free(out);
	/* A large input does not block on a filter that reads none. */
	{
		size_t n = 1 << 20;
		char *big = g_malloc(n);

		memset(big, 'x', n);
		assert_int_equal(dc_html_filter("echo done", big, n, 0, &out,
						&err),
				 DC_OK);
		assert_string_equal(out, "done\n");
		g_free(out);
		g_free(big);
	}
}

static void
test_choose(void **state)
{
	char *c;

	(void)state;
	assert_null(dc_html_filter_choose("builtin"));
	assert_null(dc_html_filter_choose("  "));
	c = dc_html_filter_choose(" lynx -dump -stdin ");
	assert_string_equal(c, "lynx -dump -stdin");
	g_free(c);
	/* Unset: w3m when it is installed, else the built-in converter. */
	c = dc_html_filter_choose(NULL);
	{
		char *w3m = g_find_program_in_path("w3m");

		if (w3m)
			assert_true(g_str_has_prefix(c, "w3m -dump -T text/html"));
		else
			assert_null(c);
		g_free(w3m);
	}
	g_free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tags_and_paragraphs),
		cmocka_unit_test(test_dropped),
		cmocka_unit_test(test_entities),
		cmocka_unit_test(test_links_and_images),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_filter_bounded),
		cmocka_unit_test(test_choose),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
