// SPDX-License-Identifier: GPL-3.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/safefile.h"

static dc_status_t
sys_fail(dc_error_t *err, const char *what, const char *path)
{
	return dc_fail(err, errno == EEXIST || errno == ELOOP ? DC_E_DENIED :
							      DC_E_IO,
		       "%s %s: %s", what, path,
		       errno == ELOOP ? "it is a symbolic link" :
				       g_strerror(errno));
}

dc_status_t
dc_file_create(const char *path, const char *data, size_t len,
	       dc_error_t *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC,
		      0600);
	size_t done = 0;

	if (fd < 0)
		return sys_fail(err, "creating", path);
	/* The mode given to open() passes through the umask; this does not. */
	if (fchmod(fd, 0600) < 0)
		goto fail;
	while (done < len) {
		ssize_t n = write(fd, data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto fail;
		done += n;
	}
	if (fsync(fd) < 0)
		goto fail;
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	return DC_OK;
fail:
	sys_fail(err, "writing", path);
	if (fd >= 0)
		close(fd);
	unlink(path);
	return err ? err->status : DC_E_IO;
}

static dc_status_t
refuse_existing(const char *target, dc_error_t *err)
{
	struct stat st;

	if (lstat(target, &st) == 0)
		return dc_fail(err, DC_E_DENIED, "%s already exists%s; "
			       "decorum never overwrites an export",
			       target, S_ISLNK(st.st_mode) ?
				       " (a symbolic link)" : "");
	if (errno != ENOENT)
		return sys_fail(err, "checking", target);
	return DC_OK;
}

dc_status_t
dc_dir_begin(const char *target, char **tmp, dc_error_t *err)
{
	char *dir = g_path_get_dirname(target);
	char *base = g_path_get_basename(target);
	dc_status_t st;

	*tmp = NULL;
	st = refuse_existing(target, err);
	if (st == DC_OK) {
		*tmp = g_strdup_printf("%s/.%s.XXXXXX", dir, base);
		if (!mkdtemp(*tmp) || chmod(*tmp, 0700) < 0) {
			st = sys_fail(err, "creating a directory beside",
				      target);
			g_free(*tmp);
			*tmp = NULL;
		}
	}
	g_free(dir);
	g_free(base);
	return st;
}

static int
sync_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), r;

	if (fd < 0)
		return -1;
	r = fsync(fd);
	close(fd);
	return r;
}

dc_status_t
dc_dir_commit(const char *tmp, const char *target, dc_error_t *err)
{
	char *parent = g_path_get_dirname(target);
	dc_status_t st = DC_OK;
	int r;

	if (sync_path(tmp) < 0) {
		st = sys_fail(err, "syncing", tmp);
		goto out;
	}
	r = renameat2(AT_FDCWD, tmp, AT_FDCWD, target, RENAME_NOREPLACE);
	if (r < 0 && (errno == EINVAL || errno == ENOSYS)) {
		/* No RENAME_NOREPLACE on this file system: check, then
		 * rename; a directory cannot replace a file or a non-empty
		 * directory, and the check refuses everything else. */
		st = refuse_existing(target, err);
		if (st != DC_OK)
			goto out;
		r = rename(tmp, target);
	}
	if (r < 0) {
		st = sys_fail(err, "renaming the export to", target);
		goto out;
	}
	if (sync_path(parent) < 0)
		st = sys_fail(err, "syncing", parent);
out:
	g_free(parent);
	return st;
}

void
dc_dir_abort(const char *tmp)
{
	DIR *d;
	struct dirent *de;

	if (!tmp)
		return;
	d = opendir(tmp);
	while (d && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		unlinkat(dirfd(d), de->d_name, 0);
	}
	if (d)
		closedir(d);
	rmdir(tmp);
}

int
dc_memfd(const char *name, const char *data, size_t len)
{
	int fd = memfd_create(name, MFD_CLOEXEC);
	size_t done = 0;

	if (fd < 0)
		return -1;
	while (done < len) {
		ssize_t w = write(fd, data + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			return -1;
		}
		done += w;
	}
	if (lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}
