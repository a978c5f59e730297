// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Wrapping message text at display width (core/base/wrap.c): words are
 * kept whole, quoted lines stay quoted, URLs and Message-IDs unbroken.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "core/base/sanitize.h"
#include "core/base/wrap.h"

/* The lines joined with "|", for one comparison per case. */
static char *
wrapped(const char *line, int width)
{
	GPtrArray *l = dc_wrap_line(line, width);
	GString *s = g_string_new(NULL);
	guint i;

	for (i = 0; i < l->len; i++)
		g_string_append_printf(s, "%s%s", i ? "|" : "",
				       (char *)l->pdata[i]);
	g_ptr_array_unref(l);
	return g_string_free(s, FALSE);
}

static void
check_at(const char *line, int width, const char *want, const char *file,
	 int lineno)
{
	char *got = wrapped(line, width);

	_assert_string_equal(got, want, file, lineno);
	g_free(got);
}

#define CHECK(line, width, want) check_at(line, width, want, __FILE__, __LINE__)

static void
test_words(void **state)
{
	(void)state;
	CHECK("", 10, "");
	CHECK("short", 10, "short");
	CHECK("exactly 10", 10, "exactly 10");
	CHECK("the quick brown fox jumps", 10, "the quick|brown fox|jumps");
	/* Spaces at a break go; indentation stays. */
	CHECK("aaaa     bbbb", 6, "aaaa|bbbb");
	CHECK("    indented text here", 12, "    indented|text here");
	/* Only a word wider than the line is broken. */
	CHECK("abcdefghijklmnop", 5, "abcde|fghij|klmno|p");
	CHECK("a abcdefghijkl b", 5, "a|abcde|fghij|kl b");
	CHECK("unchanged", 0, "unchanged");
}

static void
test_quotes(void **state)
{
	(void)state;
	CHECK("> one two three four five", 12,
	      "> one two|> three four|> five");
	CHECK("> > nested quoted words here", 14,
	      "> > nested|> > quoted|> > words here");
	CHECK(">>tight quoting wraps too", 14, ">>tight|>>quoting|>>wraps too");
	/* A prefix that would leave too little room is not repeated. */
	CHECK("> > > > > word word", 12, "> > > > >|word word");
	assert_int_equal(dc_wrap_quote_prefix("> text"), 2);
	assert_int_equal(dc_wrap_quote_prefix("  > > text"), 6);
	assert_int_equal(dc_wrap_quote_prefix(">>text"), 2);
	assert_int_equal(dc_wrap_quote_prefix("text > not"), 0);
	assert_int_equal(dc_wrap_quote_prefix("  text"), 0);
}

static void
test_urls(void **state)
{
	(void)state;
	CHECK("see https://lore.kernel.org/all/20261101.12345-1-someone@"
	      "example.org/ for details",
	      30,
	      "see|https://lore.kernel.org/all/20261101.12345-1-someone@"
	      "example.org/|for details");
	/* One that fits moves to the next line whole. */
	CHECK("read https://x.org/abc now", 20,
	      "read|https://x.org/abc|now");
	CHECK("> quoted (https://example.org/a/very/long/path) here", 20,
	      "> quoted|> (https://example.org/a/very/long/path)|> here");
	/* A Message-ID is not broken either. */
	CHECK("<20261101.very.long.message.id@example.org>", 10,
	      "<20261101.very.long.message.id@example.org>");
	assert_true(dc_wrap_unbreakable("https://a.b/c", 13));
	assert_true(dc_wrap_unbreakable("(http://a.b/c)", 14));
	assert_true(dc_wrap_unbreakable("www.kernel.org", 14));
	assert_true(dc_wrap_unbreakable("<a@b>", 5));
	assert_false(dc_wrap_unbreakable("<ab>", 4));
	assert_false(dc_wrap_unbreakable("foo:bar", 7));
	assert_false(dc_wrap_unbreakable("://x", 4));
	assert_false(dc_wrap_unbreakable("abcdefghijkl", 12));
}

static void
test_wide(void **state)
{
	(void)state;
	/* Wide characters count 2 and may break anywhere between them. */
	CHECK("日本語のテキスト", 6, "日本語|のテキ|スト");
	CHECK("日本", 1, "日|本");
	CHECK("hello 世界 foo", 8, "hello 世|界 foo");
	/* A combining mark stays with its letter. */
	CHECK("cafe\xcc\x81 cafe\xcc\x81 cafe\xcc\x81", 10,
	      "cafe\xcc\x81 cafe\xcc\x81|cafe\xcc\x81");
	CHECK("> 引用された日本語の文章です", 12,
	      "> 引用された|> 日本語の文|> 章です");
}

/* A megabyte without a space (hostile mail): lines of exactly the width. */
static void
test_long_word(void **state)
{
	size_t n = 1 << 20, i;
	char *big = g_malloc(n + 1);
	GPtrArray *l;

	(void)state;
	memset(big, 'x', n);
	big[n] = '\0';
	l = dc_wrap_line(big, 80);
	assert_int_equal(l->len, (n + 79) / 80);
	for (i = 0; i + 1 < l->len; i++)
		assert_int_equal(strlen(l->pdata[i]), 80);
	assert_int_equal(strlen(l->pdata[l->len - 1]), n % 80);
	g_ptr_array_unref(l);
	g_free(big);
}

/* Every line fits, unless it is one unbreakable word; nothing is lost. */
static void
test_fits(void **state)
{
	static const char *const lines[] = {
		"The review said the patch was not worth reading and the "
		"author should stop sending them",
		"> > Quoted text from an earlier reply goes on for a while",
		"山田です。レビューで「こんなパッチは読む価値もない」と書かれました。",
		"a b c d e f g h i j k l m n o p q r s t u v w x y z",
	};
	guint i, j;
	int w;

	(void)state;
	for (i = 0; i < G_N_ELEMENTS(lines); i++)
		for (w = 4; w < 40; w++) {
			GPtrArray *l = dc_wrap_line(lines[i], w);
			GString *words = g_string_new(NULL);
			char **orig = g_strsplit(lines[i], " ", -1);
			GString *want = g_string_new(NULL);

			for (j = 0; j < l->len; j++) {
				const char *p = l->pdata[j];

				assert_true(dc_display_width(p) <= w ||
					    !strchr(p, ' '));
				if (j && dc_wrap_quote_prefix(lines[i]) &&
				    w >= 14)
					p += dc_wrap_quote_prefix(p);
				g_string_append(words, p);
			}
			for (j = 0; orig[j]; j++)
				g_string_append(want, orig[j]);
			/* The same text, spaces and repeated prefixes
			 * aside. */
			g_strdelimit(words->str, " ", '_');
			{
				char **parts = g_strsplit(words->str, "_", -1);
				char *joined = g_strjoinv("", parts);

				assert_string_equal(joined, want->str);
				g_free(joined);
				g_strfreev(parts);
			}
			g_strfreev(orig);
			g_string_free(want, TRUE);
			g_string_free(words, TRUE);
			g_ptr_array_unref(l);
		}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words),  cmocka_unit_test(test_quotes),
		cmocka_unit_test(test_urls),   cmocka_unit_test(test_wide),
		cmocka_unit_test(test_fits),   cmocka_unit_test(test_long_word),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
