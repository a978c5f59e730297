// SPDX-License-Identifier: GPL-3.0-or-later
/* The / prompt's queries between sessions: kept 0600 in a 0700
 * directory, read back as written, bounded, forgotten on erasure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "core/base/history.h"

static char *
tmpdir(void)
{
	char *d = g_dir_make_tmp("decorum-history-XXXXXX", NULL);

	assert_non_null(d);
	return d;
}

static void
rmtree(const char *d)
{
	char *cmd = g_strdup_printf("rm -rf '%s'", d);

	assert_int_equal(system(cmd), 0);
	g_free(cmd);
}

static GPtrArray *
queries(const char *first, ...)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
	const char *q;
	va_list ap;

	va_start(ap, first);
	for (q = first; q; q = va_arg(ap, const char *))
		g_ptr_array_add(a, g_strdup(q));
	va_end(ap);
	return a;
}

static void
test_round_trip(void **state)
{
	char *d = tmpdir();
	char *path = g_build_filename(d, "state", "decorum", "history", NULL);
	char *dir = g_path_get_dirname(path);
	GPtrArray *a = queries("tag:coc/escalation", "from:zoë@example.org",
			       NULL),
		  *b = NULL;
	struct stat st;
	mode_t old = umask(0);

	(void)state;
	/* No file yet: no queries, no error. */
	assert_int_equal(dc_history_load(path, &b, NULL), DC_OK);
	assert_int_equal(b->len, 0);
	g_ptr_array_unref(b);
	assert_int_equal(dc_history_save(path, a, NULL), DC_OK);
	umask(old);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	assert_int_equal(dc_history_load(path, &b, NULL), DC_OK);
	assert_int_equal(b->len, 2);
	assert_string_equal(b->pdata[0], "tag:coc/escalation");
	assert_string_equal(b->pdata[1], "from:zoë@example.org");
	g_ptr_array_unref(b);
	g_ptr_array_unref(a);
	g_free(dir);
	g_free(path);
	rmtree(d);
	g_free(d);
}

static void
test_bounded_and_clean(void **state)
{
	char *d = tmpdir();
	char *path = g_build_filename(d, "history", NULL);
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free), *b = NULL;
	const char *junk = "subject:ok\nbad\033[2J\n\xff\xfe\n\nsubject:also\n";
	int i;

	(void)state;
	for (i = 0; i < DC_HISTORY_KEEP + 10; i++)
		g_ptr_array_add(a, g_strdup_printf("subject:q%d", i));
	assert_int_equal(dc_history_save(path, a, NULL), DC_OK);
	assert_int_equal(dc_history_load(path, &b, NULL), DC_OK);
	assert_int_equal(b->len, DC_HISTORY_KEEP);
	assert_string_equal(b->pdata[0], "subject:q10");
	g_ptr_array_unref(b);
	/* Lines decorum did not write are not queries. */
	assert_true(g_file_set_contents(path, junk, -1, NULL));
	assert_int_equal(dc_history_load(path, &b, NULL), DC_OK);
	assert_int_equal(b->len, 2);
	assert_string_equal(b->pdata[0], "subject:ok");
	assert_string_equal(b->pdata[1], "subject:also");
	g_ptr_array_unref(b);
	g_ptr_array_unref(a);
	g_free(path);
	rmtree(d);
	g_free(d);
}

static void
test_symlink_refused(void **state)
{
	char *d = tmpdir();
	char *path = g_build_filename(d, "history", NULL);
	char *other = g_build_filename(d, "other", NULL);
	GPtrArray *b = NULL;
	dc_error_t err = { 0 };

	(void)state;
	assert_true(g_file_set_contents(other, "subject:x\n", -1, NULL));
	assert_int_equal(symlink(other, path), 0);
	assert_int_equal(dc_history_load(path, &b, &err), DC_E_DENIED);
	assert_non_null(strstr(err.msg, "symbolic link"));
	g_ptr_array_unref(b);
	g_free(other);
	g_free(path);
	rmtree(d);
	g_free(d);
}

static void
test_forget(void **state)
{
	char *d = tmpdir();
	char *path = g_build_filename(d, "history", NULL);
	GPtrArray *a = queries("from:Zoë.Lindqvist@Example.org",
			       "tag:coc/escalation",
			       "to:conduct@kernel.org and "
			       "from:zoë.lindqvist@example.org",
			       NULL),
		  *b = NULL;
	int n = -1;

	(void)state;
	assert_int_equal(dc_history_save(path, a, NULL), DC_OK);
	assert_int_equal(dc_history_forget(path, "ZOË.LINDQVIST@example.org",
					   &n, NULL),
			 DC_OK);
	assert_int_equal(n, 2);
	assert_int_equal(dc_history_load(path, &b, NULL), DC_OK);
	assert_int_equal(b->len, 1);
	assert_string_equal(b->pdata[0], "tag:coc/escalation");
	g_ptr_array_unref(b);
	/* No file: nothing to forget. */
	g_unlink(path);
	assert_int_equal(dc_history_forget(path, "x@example.org", &n, NULL),
			 DC_OK);
	assert_int_equal(n, 0);
	g_ptr_array_unref(a);
	g_free(path);
	rmtree(d);
	g_free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_bounded_and_clean),
		cmocka_unit_test(test_symlink_refused),
		cmocka_unit_test(test_forget),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
