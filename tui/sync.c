// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The shared history in the TUI: the status bar's last sync and what waits
 * to be pushed (core's dc_sync_status(), read again only when cases change
 * or after a sync: no git on a redraw), and :sync, which runs the very
 * dc_sync() of "decorum sync", its progress on the message line.
 */
#include <string.h>

#include "core/base/clock.h"
#include "core/sync/sync.h"
#include "tui/draw.h"
#include "tui/tui.h"

static void
status_reload(dc_tui_t *t)
{
	dc_error_t err = { 0 };

	t->sync_gen = t->generation;
	if (dc_sync_status(t->store, &t->sync, &err) != DC_OK) {
		/* Said once, over no other message; the bar shows nothing. */
		t->sync = (dc_sync_status_t){ 0 };
		if (!t->message->len)
			dc_tui_error(t, "Sync status: %s", err.msg);
	}
}

void
dc_tui_sync_describe(dc_tui_t *t, GString *out)
{
	GDateTime *d;
	char *at;

	if (t->sync_gen != t->generation)
		status_reload(t);
	if (!t->sync.remotes)
		return;
	if (!t->sync.last_sync) {
		g_string_append(out, "never synced");
	} else {
		d = g_date_time_new_from_unix_local(t->sync.last_sync);
		at = g_date_time_format(d, "%Y-%m-%d %H:%M");
		g_string_append_printf(out, "synced %s", at);
		g_free(at);
		g_date_time_unref(d);
	}
	g_string_append_printf(out, ", %" G_GINT64_FORMAT " to push  ",
			       (gint64)t->sync.waiting);
}

struct progress {
	dc_tui_t *t;
	const char *phase; /* the last one drawn */
	gint64 drawn;	   /* when, on the monotonic clock */
};

/* The message line only: the views are not drawn again while the sync
 * holds the store. */
static void
progress(void *data, const char *phase, int done, int total)
{
	struct progress *p = data;
	dc_tui_t *t = p->t;
	gint64 now = g_get_monotonic_time();
	char *count = total ? g_strdup_printf(" %d/%d", done, total)
			    : g_strdup("");
	char *line = g_strdup_printf("sync %s%s", phase, count);

	dc_tui_trace(line);
	g_free(line);
	/* A new phase at once, and its end; counts five times a second. */
	if (!g_strcmp0(p->phase, phase) && now - p->drawn < 200000 &&
	    done < total) {
		g_free(count);
		return;
	}
	p->phase = phase;
	p->drawn = now;
	line = g_strdup_printf("Syncing: %s%s", phase, count);
	dc_draw_fill(t->scr, t->scr->rows - 1, 0, t->scr->cols,
		     DC_ROLE_NORMAL);
	dc_draw_text(t->scr, t->scr->rows - 1, 0, t->scr->cols, line,
		     DC_ROLE_NORMAL);
	if (!t->headless)
		dc_term_flush(t->scr, -1, -1, 0);
	g_free(line);
	g_free(count);
}

void
dc_tui_sync(dc_tui_t *t, const char *remote)
{
	struct progress p = { .t = t };
	dc_sync_result_t r = { 0 };
	dc_error_t err = { 0 };
	char *key = NULL;
	dc_sync_opts_t o = {
		.remote = remote,
		.now = dc_tui_now(t),
		.progress = progress,
		.progress_data = &p,
	};
	dc_status_t st;

	if (!t->store) {
		dc_tui_error(t, "Sync: no case store yet (decorum remote add "
				"NAME URL makes one)");
		return;
	}
	if (dc_sync_key_path(&key, &err) != DC_OK) {
		dc_tui_error(t, "Sync failed: %s", err.msg);
		return;
	}
	o.key_path = key;
	st = dc_sync(t->store, &o, &r, &err);
	g_free(key);
	/* What ssh or age may have written to the terminal goes. */
	t->force = 1;
	/* As = does: imported cases and events show.  A failed sync
	 * applied nothing, unless only its push failed (what it took is
	 * kept then): the views reload either way. */
	dc_tui_refresh(t);
	if (st != DC_OK) {
		dc_tui_error(t, "Sync failed: %s", err.msg);
		return;
	}
	if (!t->message_error)
		dc_tui_message(t,
			       "Synced: %d taken, %d sealed (no key to them), "
			       "%d pushed",
			       r.imported, r.sealed, r.exported);
}
