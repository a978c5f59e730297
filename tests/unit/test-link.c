// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Message references in mail text (core/mail/link.c): lore links and
 * <message-id>s, which Enter in a thread follows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <glib.h>

#include "core/mail/link.h"

static void
check_at(const char *text, const char *want, const char *file, int line)
{
	char *got = dc_link_message_id(text);

	if (!want)
		_assert_true(got == NULL, got ? got : "NULL", file, line);
	else
		_assert_string_equal(got ? got : "(none)", want, file, line);
	g_free(got);
}

#define CHECK(text, want) check_at(text, want, __FILE__, __LINE__)

static void
test_lore(void **state)
{
	(void)state;
	CHECK("https://lore.kernel.org/lkml/20260929120211.4127-3-zoe@"
	      "example.com/T/#u",
	      "20260929120211.4127-3-zoe@example.com");
	CHECK("Link: https://lore.kernel.org/r/abc.123@example.org",
	      "abc.123@example.org");
	CHECK("see https://lore.kernel.org/all/x@y.org/.", "x@y.org");
	CHECK("(https://lore.kernel.org/netdev/x@y.org/)", "x@y.org");
	CHECK("https://lkml.kernel.org/r/k@l.m", "k@l.m");
	CHECK("https://patch.msgid.link/p@q.r", "p@q.r");
	/* Percent-encoded as dc_lore_url() writes them, brackets too. */
	CHECK("https://lore.kernel.org/r/a%2Bb%40c@example.org",
	      "a+b@c@example.org");
	CHECK("https://lore.kernel.org/r/%3Cm@n.o%3E", "m@n.o");
	CHECK("https://LORE.kernel.org/r/m@n.o?x=1", "m@n.o");
	/* Another site, or a lore page that names no message. */
	CHECK("https://example.org/r/m@n.o", NULL);
	CHECK("https://lore.kernel.org/lkml/", NULL);
	CHECK("https://lore.kernel.org", NULL);
}

static void
test_brackets(void **state)
{
	(void)state;
	CHECK("the earlier thread at <20260911043230.45616-1-priya.r@"
	      "example.com>.",
	      "20260911043230.45616-1-priya.r@example.com");
	CHECK("Message-ID: <m@n>", "m@n");
	CHECK("<no at sign>", NULL);
	CHECK("<@example.org>", NULL);
	CHECK("<x@>", NULL);
	CHECK("a <b c@d> e", NULL);
	CHECK("<https://example.org/x@y>", NULL);
	/* The first reference wins. */
	CHECK("<first@a.b> then https://lore.kernel.org/r/second@a.b",
	      "first@a.b");
	CHECK("https://lore.kernel.org/r/first@a.b then <second@a.b>",
	      "first@a.b");
	CHECK("", NULL);
	CHECK(NULL, NULL);
	CHECK("plain text, no reference", NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lore),
		cmocka_unit_test(test_brackets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
