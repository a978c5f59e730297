// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Run a fuzz harness once over saved inputs, without libFuzzer: the seeds
 * and the regression inputs of tests/fuzz/ become ordinary tests that gcc
 * builds with ASan and UBSan.  Arguments are files or directories.
 */
#include <dirent.h>
#include <sys/stat.h>

#include "tests/fuzz/fuzz.h"

__attribute__((weak)) int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return 0;
}

static int
run_file(const char *path)
{
	gchar *data = NULL;
	gsize len = 0;
	GError *err = NULL;

	if (!g_file_get_contents(path, &data, &len, &err)) {
		fprintf(stderr, "replay: %s\n", err->message);
		g_error_free(err);
		return 1;
	}
	LLVMFuzzerTestOneInput((const uint8_t *)data, len);
	g_free(data);
	return 0;
}

static int
run_path(const char *path, int *count)
{
	struct stat st;
	GDir *d;
	const char *name;
	GPtrArray *names;
	guint i;
	int bad = 0;

	if (stat(path, &st) != 0) {
		perror(path);
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return run_file(path);
	}
	d = g_dir_open(path, 0, NULL);
	if (!d)
		return 1;
	names = g_ptr_array_new_with_free_func(g_free);
	while ((name = g_dir_read_name(d)))
		g_ptr_array_add(names, g_build_filename(path, name, NULL));
	g_dir_close(d);
	for (i = 0; i < names->len; i++)
		bad |= run_path(names->pdata[i], count);
	g_ptr_array_unref(names);
	return bad;
}

int
main(int argc, char **argv)
{
	int i, bad = 0, count = 0;

	LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++)
		bad |= run_path(argv[i], &count);
	printf("%s: %d inputs replayed\n", argv[0], count);
	return bad;
}
