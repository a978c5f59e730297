/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The TUI's actions (generated from tui/actions.def), key names and the key
 * map.  Keys are Unicode code points, or DC_KEY_* above Unicode for the
 * keys that have no character.
 */
#ifndef DC_ACTIONS_H
#define DC_ACTIONS_H

#include <stdio.h>

#include <glib.h>

typedef enum {
	ACT_NONE = 0,
#define ACTION_GROUP(g)
#define ACTION(id, name, help, keys) ACT_##id,
#include "tui/actions.def"
#undef ACTION
#undef ACTION_GROUP
	ACT_COUNT,
} dc_action_t;

enum {
	DC_KEY_BASE = 0x200000,
	DC_KEY_UP,
	DC_KEY_DOWN,
	DC_KEY_LEFT,
	DC_KEY_RIGHT,
	DC_KEY_PGUP,
	DC_KEY_PGDN,
	DC_KEY_HOME,
	DC_KEY_END,
	DC_KEY_BACKSPACE,
	DC_KEY_DELETE,
	DC_KEY_INSERT,
	DC_KEY_RESIZE,
	DC_KEY_F0,	/* DC_KEY_F0 + n: Fn */
	DC_KEY_TIMEOUT = DC_KEY_F0 + 64, /* no key within the poll interval */
	DC_KEY_EOF,			  /* no more input */
};

#define DC_KEY_ENTER '\r'
#define DC_KEY_ESC 0x1b
#define DC_KEY_CTRL(c) ((c) & 0x1f)

const char *dc_action_name(dc_action_t a);
const char *dc_action_help(dc_action_t a);
/* ACT_NONE if there is no action by that name. */
dc_action_t dc_action_by_name(const char *name);

/* Parse a key name ("j", "Enter", "C-L", "PgDn", "F1", "é"); -1 if bad. */
int dc_key_parse(const char *name);
/* The canonical name of a key into buf. */
const char *dc_key_name(int key, char buf[static 16]);

/* The key map: defaults from actions.def, then the [keys] configuration. */
void dc_keymap_init(void);
dc_action_t dc_keymap_lookup(int key);
/*
 * Bind an action to a space-separated list of keys, replacing its default
 * keys; a bad key name leaves the bindings as they were and returns 0 with
 * the reason in why.
 */
int dc_keymap_bind(dc_action_t a, const char *keys, char **why);
/* The keys bound to an action, space separated (g_free). */
char *dc_keymap_keys(dc_action_t a);

/* Rows of the help screen: a group heading has act == ACT_NONE. */
typedef struct dc_help_row {
	dc_action_t act;
	const char *text; /* group heading or help text */
} dc_help_row_t;
/* The rows, in table order; *n receives their number. */
const dc_help_row_t *dc_help_rows(int *n);

/* Write the KEYS section of decorum(1), from the default key map. */
void dc_actions_write_man(FILE *f);

#endif
