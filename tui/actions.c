// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The action table, key names and the key map.  Everything here comes from
 * tui/actions.def: adding an action there adds it to the dispatcher, the
 * help screen, the configuration file and the man page.
 */
#include <string.h>

#include "tui/actions.h"

static const struct action_info {
	const char *name;
	const char *help;
	const char *keys;
} actions[ACT_COUNT] = {
	[ACT_NONE] = { "none", "", "" },
#define ACTION_GROUP(g)
#define ACTION(id, n, h, k) [ACT_##id] = { n, h, k },
#include "tui/actions.def"
#undef ACTION
#undef ACTION_GROUP
};

static const dc_help_row_t help_rows[] = {
#define ACTION_GROUP(g) { ACT_NONE, g },
#define ACTION(id, n, h, k) { ACT_##id, h },
#include "tui/actions.def"
#undef ACTION
#undef ACTION_GROUP
};

static const struct {
	const char *name;
	int key;
} key_names[] = {
	{ "Enter", DC_KEY_ENTER },   { "Space", ' ' },
	{ "Tab", '\t' },	     { "Esc", DC_KEY_ESC },
	{ "Up", DC_KEY_UP },	     { "Down", DC_KEY_DOWN },
	{ "Left", DC_KEY_LEFT },     { "Right", DC_KEY_RIGHT },
	{ "PgUp", DC_KEY_PGUP },     { "PgDn", DC_KEY_PGDN },
	{ "Home", DC_KEY_HOME },     { "End", DC_KEY_END },
	{ "Backspace", DC_KEY_BACKSPACE },
	{ "Delete", DC_KEY_DELETE }, { "Insert", DC_KEY_INSERT },
};

/* Key -> action; a GHashTable keyed by GINT_TO_POINTER(key). */
static GHashTable *keymap;
/* The keys of each action in the order they were bound, for the help. */
static GArray *bound[ACT_COUNT];

const char *
dc_action_name(dc_action_t a)
{
	return a < ACT_COUNT ? actions[a].name : "none";
}

const char *
dc_action_help(dc_action_t a)
{
	return a < ACT_COUNT ? actions[a].help : "";
}

dc_action_t
dc_action_by_name(const char *name)
{
	int a;

	for (a = 1; a < ACT_COUNT; a++)
		if (!strcmp(actions[a].name, name))
			return a;
	return ACT_NONE;
}

int
dc_key_parse(const char *name)
{
	gunichar c;
	guint i;

	if (!name || !*name || !g_utf8_validate(name, -1, NULL))
		return -1;
	for (i = 0; i < G_N_ELEMENTS(key_names); i++)
		if (!g_ascii_strcasecmp(name, key_names[i].name))
			return key_names[i].key;
	if ((name[0] == 'C' || name[0] == 'c') && name[1] == '-' &&
	    name[2] && !name[3] && g_ascii_isalpha(name[2]))
		return DC_KEY_CTRL(g_ascii_toupper(name[2]));
	if ((name[0] == 'F' || name[0] == 'f') && g_ascii_isdigit(name[1])) {
		char *end;
		long n = strtol(name + 1, &end, 10);

		if (!*end && n >= 1 && n <= 63)
			return DC_KEY_F0 + (int)n;
	}
	c = g_utf8_get_char(name);
	if (*g_utf8_next_char(name) || c < 0x21 || c == 0x7f ||
	    !g_unichar_isprint(c))
		return -1;
	return (int)c;
}

const char *
dc_key_name(int key, char buf[static 16])
{
	guint i;

	for (i = 0; i < G_N_ELEMENTS(key_names); i++)
		if (key_names[i].key == key)
			return strcpy(buf, key_names[i].name);
	if (key > DC_KEY_F0 && key < DC_KEY_TIMEOUT)
		snprintf(buf, 16, "F%d", key - DC_KEY_F0);
	else if (key >= 1 && key < 0x20)
		snprintf(buf, 16, "C-%c", key + '@');
	else if (key > 0x20 && key < 0x110000)
		buf[g_unichar_to_utf8((gunichar)key, buf)] = '\0';
	else
		snprintf(buf, 16, "<%d>", key);
	return buf;
}

static void
unbind_action(dc_action_t a)
{
	GHashTableIter it;
	gpointer k, v;

	g_hash_table_iter_init(&it, keymap);
	while (g_hash_table_iter_next(&it, &k, &v))
		if (GPOINTER_TO_INT(v) == (int)a)
			g_hash_table_iter_remove(&it);
}

int
dc_keymap_bind(dc_action_t a, const char *keys, char **why)
{
	char **names = g_strsplit_set(keys ? keys : "", " \t", -1);
	GArray *parsed = g_array_new(FALSE, FALSE, sizeof(int));
	int ok = 1;
	guint i;

	for (i = 0; names[i]; i++) {
		int k;

		if (!*names[i])
			continue;
		k = dc_key_parse(names[i]);
		if (k < 0) {
			if (why)
				*why = g_strdup_printf("unknown key '%s'",
						       names[i]);
			ok = 0;
			break;
		}
		g_array_append_val(parsed, k);
	}
	if (ok) {
		unbind_action(a);
		for (i = 0; i < parsed->len; i++)
			g_hash_table_insert(keymap,
					    GINT_TO_POINTER(g_array_index(
						    parsed, int, i)),
					    GINT_TO_POINTER(a));
		if (bound[a])
			g_array_unref(bound[a]);
		bound[a] = g_array_ref(parsed);
	}
	g_array_unref(parsed);
	g_strfreev(names);
	return ok;
}

void
dc_keymap_init(void)
{
	int a;

	if (keymap)
		g_hash_table_destroy(keymap);
	keymap = g_hash_table_new(NULL, NULL);
	for (a = 1; a < ACT_COUNT; a++)
		dc_keymap_bind(a, actions[a].keys, NULL);
}

dc_action_t
dc_keymap_lookup(int key)
{
	gpointer v;

	if (!keymap)
		dc_keymap_init();
	v = g_hash_table_lookup(keymap, GINT_TO_POINTER(key));
	return v ? GPOINTER_TO_INT(v) : ACT_NONE;
}

char *
dc_keymap_keys(dc_action_t a)
{
	GString *s = g_string_new(NULL);
	char buf[16];
	guint i;

	if (!keymap)
		dc_keymap_init();
	/* A key bound later to another action no longer belongs here. */
	for (i = 0; bound[a] && i < bound[a]->len; i++) {
		int key = g_array_index(bound[a], int, i);

		if (dc_keymap_lookup(key) == a)
			g_string_append_printf(s, "%s%s", s->len ? " " : "",
					       dc_key_name(key, buf));
	}
	return g_string_free(s, FALSE);
}

const dc_help_row_t *
dc_help_rows(int *n)
{
	*n = G_N_ELEMENTS(help_rows);
	return help_rows;
}

/* Escape what roff would take for a request or an escape. */
static void
man_escape(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

void
dc_actions_write_man(FILE *f)
{
	int a;

	fputs(".\\\" Generated from tui/actions.def by "
	      "\"decorum tui --dump-actions man\"; do not edit.\n"
	      ".SH KEYS\n"
	      "In the terminal interface every key below can be rebound in the\n"
	      ".B [keys]\n"
	      "group of the configuration file, by action name\n"
	      "(e.g.\n"
	      ".BR \"move\\-down = j Down\" ).\n",
	      f);
	for (a = 0; a < (int)G_N_ELEMENTS(help_rows); a++) {
		const dc_help_row_t *r = &help_rows[a];

		if (r->act == ACT_NONE) {
			fputs(".SS \"", f);
			man_escape(f, r->text);
			fputs("\"\n", f);
			continue;
		}
		fputs(".TP\n.B \"", f);
		man_escape(f, actions[r->act].keys);
		fputs("\"\n", f);
		man_escape(f, r->text);
		fputs(" (\\fB", f);
		man_escape(f, actions[r->act].name);
		fputs("\\fR)\n", f);
	}
	fputs(".\\\" End of the generated KEYS section.\n", f);
}
