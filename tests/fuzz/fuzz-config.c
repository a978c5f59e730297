// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * decorum's configuration file (core/base/config.c) and what the TUI makes of
 * it: key bindings (tui/actions.c) and colours (tui/draw.c).  Loading
 * never fails; every warning, which the help screen shows, is clean once
 * sanitized; a binding that was accepted lists keys whose names parse
 * back.
 */
#include <unistd.h>

#include "core/base/config.h"
#include "tui/actions.h"
#include "tui/draw.h"
#include "tests/fuzz/fuzz.h"

static char *path;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* tmpfs when there is one: a file is written per input. */
	char *dir;

	if (g_file_test("/dev/shm", G_FILE_TEST_IS_DIR))
		g_setenv("TMPDIR", "/dev/shm", FALSE);
	dir = g_dir_make_tmp("decorum-fuzz-XXXXXX", NULL);
	path = g_build_filename(dir, "config", NULL);
	g_free(dir);
	return 0;
}

static void
bind_keys(dc_config_t *c)
{
	const char *const *keys = dc_config_keys(c, "keys");
	int i;

	dc_keymap_init();
	for (i = 0; keys[i]; i++) {
		dc_action_t a = dc_action_by_name(keys[i]);
		const char *v = dc_config_get(c, "keys", keys[i]);
		char *why = NULL, *bound, **names;
		int k;

		if (a == ACT_NONE || !v)
			continue;
		if (!dc_keymap_bind(a, v, &why)) {
			FUZZ_ASSERT(why != NULL);
			g_free(fuzz_sanitize_checked(why, 0));
			g_free(why);
			continue;
		}
		bound = dc_keymap_keys(a);
		names = g_strsplit(bound, " ", -1);
		for (k = 0; names[k]; k++)
			if (*names[k])
				FUZZ_ASSERT(dc_key_parse(names[k]) != -1);
		g_strfreev(names);
		g_free(bound);
	}
}

static void
set_colors(dc_config_t *c)
{
	const char *const *keys = dc_config_keys(c, "colors");
	int i;

	for (i = 0; keys[i]; i++) {
		char *why = NULL;

		if (!dc_term_set_color(DC_ROLE_PENDING,
				       dc_config_get(c, "colors", keys[i]),
				       &why)) {
			g_free(fuzz_sanitize_checked(why, 0));
			g_free(why);
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	dc_config_t *c;
	GPtrArray *w;
	guint i;
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	c = dc_config_load(path);
	FUZZ_ASSERT(c != NULL);
	bind_keys(c);
	set_colors(c);
	w = dc_config_warnings(c);
	for (i = 0; i < w->len; i++)
		g_free(fuzz_sanitize_checked(w->pdata[i], 0));
	dc_config_get(c, "ui", "default_query");
	dc_config_line(c, "identity", "address");
	dc_config_free(c);
	return 0;
}
