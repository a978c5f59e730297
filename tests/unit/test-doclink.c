// SPDX-License-Identifier: GPL-3.0-or-later
/* The kernel documentation links: sections out of RST, the anchor check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "core/docs/doclink.h"

/* Three levels (= - ~), an overlined title, labels at two levels. */
static const char fixture[] =
	".. SPDX-License-Identifier: GPL-2.0\n"
	"\n"
	".. _top:\n"
	"\n"
	"=========\n"
	"The guide\n"
	"=========\n"
	"\n"
	"Intro text, see :ref:`the second <second>` and :ref:`first`.\n"
	"\n"
	".. _first:\n"
	"\n"
	"First part\n"
	"----------\n"
	"\n"
	"First body with ``code`` and *emphasis* and **strong**.\n"
	"\n"
	".. note::\n"
	"\n"
	"   A note's text stays.\n"
	"\n"
	".. a comment that\n"
	"   goes on for two lines\n"
	"\n"
	"Nested\n"
	"~~~~~~\n"
	"\n"
	"Nested body, `a link <https://example.org/>`_.  An example::\n"
	"\n"
	"   literal\n"
	"\n"
	"Second level again\n"
	"------------------\n"
	"\n"
	"Not part of first.\n"
	"\n"
	".. _second:\n"
	"\n"
	"Second part\n"
	"-----------\n"
	"\n"
	"Second body.\n"
	"\n"
	".. _deep:\n"
	"\n"
	"Deep\n"
	"~~~~\n"
	"\n"
	"Deep body.\n"
	"\n"
	"========\n"
	"Next top\n"
	"========\n"
	"\n"
	"Outside.\n";

static void
test_nested_sections(void **state)
{
	dc_doc_section_t s;
	dc_error_t err = { 0 };

	(void)state;
	assert_int_equal(dc_doc_section_parse(fixture, "first", &s, &err),
			 DC_OK);
	assert_string_equal(s.title, "First part");
	assert_non_null(strstr(s.text, "First body with code and emphasis "
					"and strong."));
	assert_non_null(strstr(s.text, "A note's text stays."));
	assert_null(strstr(s.text, "comment"));
	assert_null(strstr(s.text, ".."));
	assert_non_null(strstr(s.text, "Nested\n~~~~~~\n"));
	assert_non_null(strstr(s.text, "a link (https://example.org/).  An "
					"example:\n"));
	assert_non_null(strstr(s.text, "   literal"));
	/* A title of the same level ends it. */
	assert_null(strstr(s.text, "Second level again"));
	assert_null(strstr(s.text, "Not part of first"));
	dc_doc_section_clear(&s);

	/* A label ends it, even before a deeper title. */
	assert_int_equal(dc_doc_section_parse(fixture, "second", &s, &err),
			 DC_OK);
	assert_string_equal(s.text, "Second body.\n");
	dc_doc_section_clear(&s);

	/* A title of a higher level ends a deep one. */
	assert_int_equal(dc_doc_section_parse(fixture, "deep", &s, &err),
			 DC_OK);
	assert_string_equal(s.text, "Deep body.\n");
	dc_doc_section_clear(&s);

	/* An overlined title; :ref: gives the text or the target's title. */
	assert_int_equal(dc_doc_section_parse(fixture, "top", &s, &err),
			 DC_OK);
	assert_string_equal(s.title, "The guide");
	assert_string_equal(s.text, "Intro text, see the second and First "
				    "part.\n");
	dc_doc_section_clear(&s);

	assert_int_equal(dc_doc_section_parse(fixture, "nope", &s, &err),
			 DC_E_NOT_FOUND);
	assert_null(s.text);
	assert_int_equal(dc_doc_section_parse("Text\n\n.. _x:\n\nplain\n",
					      "x", &s, &err),
			 DC_E_NOT_FOUND);
}

static void
test_table(void **state)
{
	const dc_doclink_t *l;
	int n, i;

	(void)state;
	assert_string_equal(dc_doclink_url(DC_KIND_ESCALATION),
			    "https://docs.kernel.org/process/"
			    "code-of-conduct-maintainer-guide.html"
			    "#coc-maintainer-escalation");
	assert_string_equal(dc_doclink_for_kind(DC_KIND_TAB)->label,
			    "coc_maintainer_tab_consultation");
	assert_null(dc_doclink_url(DC_KIND_COUNT));
	l = dc_doclinks(&n);
	for (i = 0; i < n; i++) {
		/* Sphinx's anchor for a label: underscores become hyphens. */
		char *a = g_strdelimit(g_strdup(l[i].label), "_", '-');
		char *u = g_strdup_printf("https://docs.kernel.org/%s.html#%s",
					  l[i].page, l[i].anchor);

		assert_string_equal(a, l[i].anchor);
		assert_string_equal(u, l[i].url);
		g_free(a);
		g_free(u);
	}
}

/* A Sphinx-like output directory with every anchor but skip. */
static char *
html_dir(const char *skip)
{
	char *dir = g_dir_make_tmp("doclink-XXXXXX", NULL);
	const dc_doclink_t *l;
	int n, i;

	l = dc_doclinks(&n);
	for (i = 0; i < n; i++) {
		char *f = g_strdup_printf("%s/%s.html", dir, l[i].page);
		char *d = g_path_get_dirname(f), *old = NULL, *body;

		g_mkdir_with_parents(d, 0700);
		g_file_get_contents(f, &old, NULL, NULL);
		body = g_strdup_printf("%s<section id=\"%s\">\n",
				       old ? old : "<html>\n",
				       skip && !strcmp(skip, l[i].anchor) ?
					       "other" :
					       l[i].anchor);
		g_file_set_contents(f, body, -1, NULL);
		g_free(body);
		g_free(old);
		g_free(d);
		g_free(f);
	}
	return dir;
}

static void
rm_rf(const char *dir)
{
	char *cmd = g_strdup_printf("rm -rf '%s'", dir);

	assert_int_equal(system(cmd), 0);
	g_free(cmd);
}

static void
test_check(void **state)
{
	dc_error_t err = { 0 };
	char *dir = html_dir(NULL);
	int n, ok;

	(void)state;
	dc_doclinks(&n);
	assert_int_equal(dc_doc_check(dir, &ok, &err), DC_OK);
	assert_int_equal(ok, n);
	rm_rf(dir);
	g_free(dir);

	dir = html_dir("coc-maintainer-escalation");
	assert_int_equal(dc_doc_check(dir, &ok, &err), DC_E_NOT_FOUND);
	assert_non_null(strstr(err.msg, "#coc-maintainer-escalation"));
	assert_int_equal(ok, 1); /* admonition, then escalation fails */
	rm_rf(dir);
	g_free(dir);

	assert_int_equal(dc_doc_check("/nonexistent", &ok, &err),
			 DC_E_NOT_FOUND);
	assert_non_null(strstr(err.msg, "code-of-conduct-maintainer-guide"));
}

static void
test_load_installed(void **state)
{
	dc_doc_section_t s;
	dc_error_t err = { 0 };
	char *dir = g_dir_make_tmp("doclink-XXXXXX", NULL);
	char *p = g_strdup_printf("%s/process", dir), *f;

	(void)state;
	g_mkdir_with_parents(p, 0700);
	f = g_strdup_printf("%s/code-of-conduct-maintainer-guide.rst", p);
	g_file_set_contents(f, fixture, -1, NULL);
	g_file_set_contents(f,
			    ".. _coc_maintainer_escalation:\n\nEsc\n---\n\n"
			    "Body.\n",
			    -1, NULL);
	g_setenv("DECORUM_KERNEL_DOC", dir, TRUE);
	assert_int_equal(dc_doc_section_load(dc_doclink_find("escalation"),
					     &s, &err),
			 DC_OK);
	assert_string_equal(s.title, "Esc");
	assert_string_equal(s.text, "Body.\n");
	dc_doc_section_clear(&s);
	/* Not installed: the interpretation is the kernel's. */
	assert_int_equal(dc_doc_section_load(dc_doclink_find("interpretation"),
					     &s, &err),
			 DC_E_NOT_FOUND);
	g_setenv("DECORUM_KERNEL_DOC", "/nonexistent", TRUE);
	assert_int_equal(dc_doc_section_load(dc_doclink_find("escalation"),
					     &s, &err),
			 DC_E_NOT_FOUND);
	assert_non_null(strstr(err.msg, "/nonexistent"));
	g_unsetenv("DECORUM_KERNEL_DOC");
	rm_rf(dir);
	g_free(f);
	g_free(p);
	g_free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nested_sections),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_load_installed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
