// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Running git and age (core/sync/proc.h).
 */
#include <gio/gio.h>
#include <string.h>

#include "core/base/safefile.h"
#include "core/sync/proc.h"

static char *
bytes_text(GBytes *b, gsize *len)
{
	gsize n = 0;
	const char *d = b ? g_bytes_get_data(b, &n) : NULL;
	char *r = g_malloc(n + 1);

	if (n)
		memcpy(r, d, n);
	r[n] = '\0';
	if (len)
		*len = n;
	return r;
}

static dc_status_t
exited(dc_proc_t *p, GSubprocess *sp, dc_error_t *err)
{
	const char *nl;

	p->status = g_subprocess_get_if_exited(sp)
			    ? g_subprocess_get_exit_status(sp)
			    : 128 + g_subprocess_get_term_sig(sp);
	if (!p->status || p->may_fail)
		return DC_OK;
	nl = strchr(p->errs, '\n');
	if (p->what)
		return dc_fail(err, DC_E_IO, "%s failed (exit %d)%s%.*s",
			       p->what, p->status, *p->errs ? ": " : "",
			       (int)(nl ? nl - p->errs
					: (int)strlen(p->errs)),
			       p->errs);
	return dc_fail(err, DC_E_IO, "%s %s failed (exit %d)%s%.*s",
		       p->argv[0], p->argv[1] ? p->argv[1] : "", p->status,
		       *p->errs ? ": " : "",
		       (int)(nl ? nl - p->errs : (int)strlen(p->errs)),
		       p->errs);
}

dc_status_t
dc_proc_run(dc_proc_t *p, dc_error_t *err)
{
	GSubprocessLauncher *l = g_subprocess_launcher_new(
		G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
		G_SUBPROCESS_FLAGS_STDERR_PIPE);
	GBytes *bin = NULL, *bout = NULL, *berr = NULL;
	GSubprocess *sp;
	GError *e = NULL;
	dc_status_t st = DC_OK;
	char *raw;
	int i, fd;

	for (i = 0; p->env && p->env[i]; i++) {
		char **kv = g_strsplit(p->env[i], "=", 2);

		g_subprocess_launcher_setenv(l, kv[0], kv[1] ? kv[1] : "",
					     TRUE);
		g_strfreev(kv);
	}
	if (p->fd3) {
		fd = dc_memfd("decorum-key", p->fd3, strlen(p->fd3));
		if (fd < 0) {
			g_object_unref(l);
			return dc_fail(err, DC_E_IO,
				       "cannot hand a key to %s",
				       p->argv[0]);
		}
		g_subprocess_launcher_take_fd(l, fd, 3);
	}
	sp = g_subprocess_launcher_spawnv(l, p->argv, &e);
	g_object_unref(l);
	if (!sp) {
		st = dc_fail(err, DC_E_IO, "cannot run %s: %s", p->argv[0],
			     e->message);
		g_error_free(e);
		return st;
	}
	/* The pipe is there in any case: an empty stdin is one. */
	bin = p->in ? g_bytes_new(p->in, p->in_len < 0 ? strlen(p->in)
						      : (gsize)p->in_len)
		    : g_bytes_new(NULL, 0);
	if (!g_subprocess_communicate(sp, bin, NULL, &bout, &berr, &e)) {
		st = dc_fail(err, DC_E_IO, "%s: %s", p->argv[0], e->message);
		g_error_free(e);
	} else {
		p->out = bytes_text(bout, &p->out_len);
		raw = bytes_text(berr, NULL);
		p->errs = g_utf8_make_valid(raw, -1);
		g_free(raw);
		st = exited(p, sp, err);
	}
	if (bin)
		g_bytes_unref(bin);
	if (bout)
		g_bytes_unref(bout);
	if (berr)
		g_bytes_unref(berr);
	g_object_unref(sp);
	return st;
}

void
dc_proc_clear(dc_proc_t *p)
{
	if (p->out)
		memset(p->out, 0, p->out_len);
	g_clear_pointer(&p->out, g_free);
	g_clear_pointer(&p->errs, g_free);
}
