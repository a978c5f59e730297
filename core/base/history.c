// SPDX-License-Identifier: GPL-3.0-or-later
/* The / prompt's queries between sessions (see core/base/history.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/history.h"
#include "core/base/safefile.h"

char *
dc_history_path(void)
{
	return g_build_filename(g_get_user_state_dir(), "decorum", "history",
				NULL);
}

static int
is_query(const char *l)
{
	const char *p;

	if (!*l || !g_utf8_validate(l, -1, NULL))
		return 0;
	for (p = l; *p; p = g_utf8_next_char(p))
		if (g_unichar_iscntrl(g_utf8_get_char(p)))
			return 0;
	return 1;
}

dc_status_t
dc_history_load(const char *path, GPtrArray **out, dc_error_t *err)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
	GString *data = g_string_new(NULL);
	char buf[4096], **lines;
	ssize_t n;
	int fd, i;

	*out = a;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		g_string_free(data, TRUE);
		if (e == ENOENT)
			return DC_OK;
		return dc_fail(err, e == ELOOP ? DC_E_DENIED : DC_E_IO,
			       "reading %s: %s", path,
			       e == ELOOP ? "it is a symbolic link" :
					    g_strerror(e));
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0 ||
	       (n < 0 && errno == EINTR))
		if (n > 0)
			g_string_append_len(data, buf, n);
	close(fd);
	lines = g_strsplit(data->str, "\n", -1);
	for (i = 0; lines[i]; i++)
		if (is_query(lines[i]))
			g_ptr_array_add(a, g_strdup(lines[i]));
	g_strfreev(lines);
	g_string_free(data, TRUE);
	while (a->len > DC_HISTORY_KEEP)
		g_ptr_array_remove_index(a, 0);
	return DC_OK;
}

dc_status_t
dc_history_save(const char *path, GPtrArray *queries, dc_error_t *err)
{
	char *dir = g_path_get_dirname(path);
	char *tmp = g_strdup_printf("%s.%ld.tmp", path, (long)getpid());
	GString *data = g_string_new(NULL);
	dc_status_t st = DC_OK;
	guint i;

	i = queries->len > DC_HISTORY_KEEP ? queries->len - DC_HISTORY_KEEP : 0;
	for (; i < queries->len; i++)
		if (is_query(queries->pdata[i]))
			g_string_append_printf(data, "%s\n",
					       (char *)queries->pdata[i]);
	if (g_mkdir_with_parents(dir, 0700) < 0) {
		st = dc_fail(err, DC_E_IO, "creating %s: %s", dir,
			     g_strerror(errno));
		goto out;
	}
	unlink(tmp); /* left by a crash of this process id */
	st = dc_file_create(tmp, data->str, data->len, err);
	/* rename() replaces a symbolic link at path, never what it points
	 * to. */
	if (st == DC_OK && rename(tmp, path) < 0) {
		st = dc_fail(err, DC_E_IO, "writing %s: %s", path,
			     g_strerror(errno));
		unlink(tmp);
	}
out:
	g_string_free(data, TRUE);
	g_free(tmp);
	g_free(dir);
	return st;
}

dc_status_t
dc_history_forget(const char *path, const char *needle, int *dropped,
		  dc_error_t *err)
{
	char *fold = g_utf8_casefold(needle, -1);
	GPtrArray *a = NULL;
	dc_status_t st;
	int n = 0;
	guint i;

	st = dc_history_load(path, &a, err);
	for (i = 0; st == DC_OK && *fold && i < a->len; i++) {
		char *q = g_utf8_casefold(a->pdata[i], -1);

		if (strstr(q, fold)) {
			g_ptr_array_remove_index(a, i--);
			n++;
		}
		g_free(q);
	}
	if (st == DC_OK && n)
		st = dc_history_save(path, a, err);
	if (dropped)
		*dropped = st == DC_OK ? n : 0;
	g_ptr_array_unref(a);
	g_free(fold);
	return st;
}
