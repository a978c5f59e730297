// SPDX-License-Identifier: GPL-3.0-or-later
/* The emitter formats and the identity scan's encodings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <gmime/gmime.h>
#include <string.h>

#include "core/export/emit.h"
#include "core/privacy/privacy.h"

static char *
render(const char *fmt)
{
	static const dc_emit_column_t cols[] = { { "n", "N", 1 },
						 { "s", "S", 0 } };
	static const char *row[] = { "1", "a,\"b\"|*x*" };
	static const char *row2[] = { "2", NULL };
	static const char *const labels[] = { "w1", "w2" };
	static const int64_t values[] = { 0, 4 };
	dc_emit_count_t counts[] = { { "k", "Key", 3, NULL } };
	GPtrArray *rows = g_ptr_array_new();
	const dc_emit_ops_t *ops;
	dc_emit_t *e;

	assert_int_equal(dc_emit_find(fmt, &ops, NULL), DC_OK);
	e = dc_emit_new(ops);
	g_ptr_array_add(rows, row);
	g_ptr_array_add(rows, row2);
	dc_emit_begin(e, "doc", "Title");
	dc_emit_section(e, "sec", "Section");
	dc_emit_counts(e, "counts", NULL, counts, 1);
	dc_emit_table(e, "table", NULL, cols, 2, rows);
	dc_emit_chart(e, "chart", NULL, labels, values, 2);
	dc_emit_end(e);
	g_ptr_array_unref(rows);
	return dc_emit_finish(e);
}

static void
test_formats(void **state)
{
	char *s;

	s = render("csv");
	assert_non_null(strstr(s, "sec,table,1,s,\"a,\"\"b\"\"|*x*\"\r\n"));
	assert_non_null(strstr(s, "sec,counts,k,count,3\r\n"));
	assert_non_null(strstr(s, "sec,table,2,s,\r\n"));
	g_free(s);
	s = render("md");
	assert_non_null(strstr(s, "| 1 | a,\"b\"\\|\\*x\\* |"));
	assert_non_null(strstr(s, "| 2 | - |"));
	assert_non_null(strstr(s, "```\n  ▁█"));
	g_free(s);
	s = render("json");
	assert_non_null(strstr(s, "\"n\": 1"));
	assert_non_null(strstr(s, "\"s\": null"));
	assert_non_null(strstr(s, "\"k\": 3"));
	g_free(s);
	s = render("text");
	assert_non_null(strstr(s, "Title\n=====\n"));
	assert_non_null(strstr(s, "  ▁█\n"));
	g_free(s);
	assert_int_equal(dc_emit_find("pdf", NULL, NULL), DC_E_USAGE);
}

static int
found(dc_identity_set_t *s, const char *data)
{
	return dc_identity_scan(s, data, strlen(data), NULL);
}

static void
test_identity_forms(void **state)
{
	dc_identity_set_t *s = dc_identity_set_new();
	const char *addr = "rachel.abernathy@example.net";
	char *b;
	int k;

	dc_identity_add(s, "Reporter A", "Zoë Abernathy-Quill", addr);
	/* "Zoe" is how ASCII-only mail writes "Zoë" (core/privacy/translit.h);
	 * a longer word is someone else. */
	assert_true(found(s, "nothing to see here, Zoe"));
	assert_false(found(s, "nothing to see here, Zoey"));
	assert_true(found(s, "mail RACHEL.ABERNATHY@EXAMPLE.NET now"));
	assert_true(found(s, "from rachel.abernathy"));
	assert_true(found(s, "ZOË ABERNATHY-QUILL"));
	assert_true(found(s, "Thanks,\n  Zoë\n"));
	assert_false(found(s, "Zoëy"));
	for (k = 0; k < 3; k++) {
		/* The address at each byte offset inside a base64 body,
		 * broken into short lines. */
		char *plain = g_strdup_printf("%.*sHello from %s, bye",
					      k, "xyz", addr);
		GString *wrapped = g_string_new(NULL);
		const char *p;

		b = g_base64_encode((const guchar *)plain, strlen(plain));
		for (p = b; *p; p++) {
			g_string_append_c(wrapped, *p);
			if ((p - b) % 8 == 7)
				g_string_append(wrapped, "\r\n");
		}
		assert_true(found(s, wrapped->str));
		g_string_free(wrapped, TRUE);
		g_free(b);
		g_free(plain);
	}
	assert_true(found(s, "From: =?UTF-8?Q?Zo=C3=AB_Abernathy-Quill?= <x@y>"));
	assert_true(found(s, "From: =?iso-8859-1?q?zo=eb_abernathy-quill?="));
	b = g_base64_encode((const guchar *)"Zoë Abernathy-Quill", 20);
	{
		char *w = g_strdup_printf("From: =?UTF-8?B?%s?= <x@y>", b);

		assert_true(found(s, w));
		g_free(w);
	}
	g_free(b);
	assert_true(found(s, "rachel.aber=\nnathy@example.net"));
	dc_identity_set_free(s);
}

/* Forms a browser or URL decoder shows, and invisible padding. */
static void
test_identity_decoded(void **state)
{
	dc_identity_set_t *s = dc_identity_set_new();

	dc_identity_add(s, "Reporter A", "Quentin Reporterson",
			"q.reporterson@example.net");
	assert_true(found(s, "<a href=\"mailto:&#113;&#46;&#114;&#101;"
			     "&#112;&#111;&#114;&#116;&#101;&#114;&#115;"
			     "&#111;&#110;&#64;example.net\">x</a>"));
	assert_true(found(s, "&#x52;&#x65;&#x70;&#x6f;rterson said"));
	assert_true(found(s, "Dear &#81;uentin,"));
	assert_true(found(s, "mailto:%71%2E%72%65porterson%40example.net"));
	assert_true(found(s, "Que\xe2\x80\x8bntin wrote"));
	assert_true(found(s, "\xef\xbc\xb1uentin")); /* fullwidth Q */
	assert_false(found(s, "Quentins are &amp; were %20 fine"));
	assert_false(found(s, "&#81;uentinx"));
	dc_identity_set_free(s);
}

/* Local parts that are common words name nobody on their own. */
static void
test_identity_words(void **state)
{
	dc_identity_set_t *s = dc_identity_set_new();

	dc_identity_add(s, "participant", NULL, "eve@example.org");
	dc_identity_add(s, "participant", NULL, "committee@example.org");
	dc_identity_add(s, "participant", NULL, "case@example.org");
	assert_false(found(s, "every case goes to the committee"));
	assert_true(found(s, "Eve said so"));
	assert_true(found(s, "write to committee@example.org"));
	assert_true(found(s, "ZXZlQGV4YW1wbGUub3Jn")); /* base64 of eve@... */
	dc_identity_add(s, "participant", NULL, "zed@n01se.net");
	dc_identity_add(s, "participant", NULL, "case@gmail.com");
	assert_true(found(s, "reporter-a at n01se.net"));
	assert_false(found(s, "at gmail.com or xn01se.network"));
	dc_identity_set_free(s);
}

static void
test_lists_are_not_people(void **state)
{
	dc_identity_set_t *s = dc_identity_set_new();

	dc_identity_add_list(s, "p",
			     "Ann Example <ann@example.org>, "
			     "netdev@vger.kernel.org, conduct@kernel.org, "
			     "tech-board@lists.linux-foundation.org");
	assert_int_equal(dc_identity_count(s), 1);
	assert_true(dc_address_is_public_list("linux-mm@vger.kernel.org"));
	assert_false(dc_address_is_public_list("ann@example.org"));
	dc_identity_set_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_identity_forms),
		cmocka_unit_test(test_identity_decoded),
		cmocka_unit_test(test_identity_words),
		cmocka_unit_test(test_lists_are_not_people),
	};

	g_mime_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
