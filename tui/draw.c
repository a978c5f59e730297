// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The draw layer and the terminal backend: the only file that includes
 * curses.  Strings reach the screen model through dc_draw_text() (which
 * sanitizes them), and the screen model reaches the terminal through
 * dc_term_flush().
 */
#include <curses.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "core/base/sanitize.h"
#include "tui/actions.h"
#include "tui/draw.h"

/* ---- drawing into the screen model ------------------------------------- */

/* Is the character at p something the sanitizer put in place of what it
 * removed: a control picture, U+FFFD, or part of "<U+XXXX>"? */
static void
mark_replaced(const char *s, guint8 *mark)
{
	const char *p = s;

	while (*p) {
		gunichar c = g_utf8_get_char(p);
		const char *next = g_utf8_next_char(p);

		if ((c >= 0x2400 && c <= 0x2421) || c == 0xfffd) {
			memset(mark + (p - s), 1, next - p);
		} else if (!strncmp(p, "<U+", 3)) {
			const char *q = p + 3;

			while (g_ascii_isxdigit(*q))
				q++;
			if (*q == '>' && q - p >= 7) {
				memset(mark + (p - s), 1, q + 1 - p);
				next = q + 1;
			}
		}
		p = next;
	}
}

static void
put_cell(dc_screen_t *s, int y, int x, const char *ch, int len, int w,
	 dc_role_t role)
{
	dc_cell_t *c = dc_screen_cell(s, y, x), *n;

	if (!c)
		return;
	/* Overwriting half of a wide character blanks the other half. */
	if (c->width == 0 && x > 0) {
		dc_cell_t *p = dc_screen_cell(s, y, x - 1);

		strcpy(p->text, " ");
		p->width = 1;
	}
	n = dc_screen_cell(s, y, x + 1);
	if (c->width == 2 && w == 1 && n) {
		strcpy(n->text, " ");
		n->width = 1;
	}
	memcpy(c->text, ch, len);
	c->text[len] = '\0';
	c->width = w;
	c->role = role;
	if (w == 2 && n) {
		if (n->width == 2) {
			dc_cell_t *nn = dc_screen_cell(s, y, x + 2);

			if (nn) {
				strcpy(nn->text, " ");
				nn->width = 1;
			}
		}
		n->text[0] = '\0';
		n->width = 0;
		n->role = role;
		n->selected = c->selected;
	}
}

static int
put_string(dc_screen_t *s, int y, int x, int width, const char *str,
	   const guint8 *mark, dc_role_t role)
{
	const char *p = str;
	int col = 0;
	int last = -1; /* column of the previous character, for combining */

	while (*p && col < width) {
		const char *next = g_utf8_next_char(p);
		char one[8];
		int len = next - p, w;
		dc_role_t r = mark && mark[p - str] ? DC_ROLE_MARKER : role;

		memcpy(one, p, len);
		one[len] = '\0';
		w = dc_display_width(one);
		if (w == 0) {
			dc_cell_t *c = last >= 0 ? dc_screen_cell(s, y, last) :
						   NULL;

			if (c && strlen(c->text) + len < sizeof(c->text))
				strcat(c->text, one);
		} else if (col + w <= width) {
			put_cell(s, y, x + col, one, len, w, r);
			last = x + col;
			col += w;
		} else {
			break;
		}
		p = next;
	}
	return col;
}

int
dc_draw_text(dc_screen_t *s, int y, int x, int width, const char *utf8,
	     dc_role_t role)
{
	char *san, *cut;
	guint8 *mark;
	int used;

	if (x >= s->cols || y >= s->rows || y < 0 || width <= 0)
		return 0;
	if (x + width > s->cols)
		width = s->cols - x;
	san = dc_sanitize(utf8, -1, DC_SAN_LINE, NULL);
	cut = dc_display_width(san) > width ? dc_truncate_width(san, width, 1) :
					     g_strdup(san);
	mark = g_malloc0(strlen(cut) + 1);
	mark_replaced(cut, mark);
	used = put_string(s, y, x, width, cut, mark, role);
	g_free(mark);
	g_free(cut);
	g_free(san);
	return used;
}

int
dc_draw_printf(dc_screen_t *s, int y, int x, int width, dc_role_t role,
	       const char *fmt, ...)
{
	va_list ap;
	char *text;
	int n;

	va_start(ap, fmt);
	text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	n = dc_draw_text(s, y, x, width, text, role);
	g_free(text);
	return n;
}

void
dc_draw_fill(dc_screen_t *s, int y, int x, int width, dc_role_t role)
{
	int i;

	for (i = 0; i < width; i++)
		put_cell(s, y, x + i, " ", 1, 1, role);
}

void
dc_draw_select(dc_screen_t *s, int y, int x, int width)
{
	int i;

	for (i = 0; i < width; i++) {
		dc_cell_t *c = dc_screen_cell(s, y, x + i);

		if (c)
			c->selected = 1;
	}
}

/* ---- the terminal ------------------------------------------------------ */

struct role_style {
	short fg, bg; /* -1: the terminal's default */
	attr_t attrs;
};

/* With colours, and without (NO_COLOR, monochrome terminals). */
static struct role_style color_style[DC_ROLE_COUNT] = {
	[DC_ROLE_NORMAL] = { -1, -1, 0 },
	[DC_ROLE_TITLE] = { COLOR_WHITE, COLOR_BLUE, A_BOLD },
	[DC_ROLE_STATUS] = { COLOR_BLACK, COLOR_CYAN, 0 },
	[DC_ROLE_CURSOR] = { COLOR_BLACK, COLOR_YELLOW, 0 },
	[DC_ROLE_DATE] = { COLOR_BLUE, -1, 0 },
	[DC_ROLE_AUTHOR] = { COLOR_GREEN, -1, 0 },
	[DC_ROLE_SUBJECT] = { -1, -1, 0 },
	[DC_ROLE_TAGS] = { COLOR_CYAN, -1, 0 },
	[DC_ROLE_ADMONITION] = { COLOR_YELLOW, -1, A_BOLD },
	[DC_ROLE_ESCALATION] = { COLOR_RED, -1, A_BOLD },
	[DC_ROLE_TAB] = { COLOR_MAGENTA, -1, A_BOLD },
	[DC_ROLE_HEADER] = { COLOR_YELLOW, -1, 0 },
	[DC_ROLE_QUOTE] = { COLOR_CYAN, -1, 0 },
	[DC_ROLE_MARKER] = { COLOR_WHITE, COLOR_RED, A_BOLD },
	[DC_ROLE_GROUP] = { -1, -1, A_BOLD | A_UNDERLINE },
	[DC_ROLE_ERROR] = { COLOR_RED, -1, A_BOLD },
	[DC_ROLE_PENDING] = { COLOR_YELLOW, COLOR_CYAN, A_BOLD },
};

static const attr_t mono_attrs[DC_ROLE_COUNT] = {
	[DC_ROLE_TITLE] = A_REVERSE | A_BOLD,
	[DC_ROLE_STATUS] = A_REVERSE,
	[DC_ROLE_CURSOR] = A_REVERSE,
	[DC_ROLE_ADMONITION] = A_BOLD,
	[DC_ROLE_ESCALATION] = A_BOLD,
	[DC_ROLE_TAB] = A_BOLD,
	[DC_ROLE_HEADER] = A_BOLD,
	[DC_ROLE_QUOTE] = A_DIM,
	[DC_ROLE_MARKER] = A_UNDERLINE | A_BOLD,
	[DC_ROLE_GROUP] = A_BOLD | A_UNDERLINE,
	[DC_ROLE_ERROR] = A_BOLD,
	[DC_ROLE_PENDING] = A_REVERSE | A_BOLD,
};

static int use_color;
static attr_t role_attr[DC_ROLE_COUNT];

static int
parse_color(const char *w, short *out)
{
	static const char *const names[] = { "black", "red",	 "green",
					      "yellow", "blue",	 "magenta",
					      "cyan",  "white" };
	char *end;
	long n;
	int i;

	if (!strcmp(w, "default")) {
		*out = -1;
		return 1;
	}
	for (i = 0; i < 8; i++)
		if (!strcmp(w, names[i])) {
			*out = i;
			return 1;
		}
	n = strtol(w, &end, 10);
	if (*w && !*end && n >= 0 && n < 256) {
		*out = n;
		return 1;
	}
	return 0;
}

int
dc_term_set_color(dc_role_t role, const char *spec, char **why)
{
	char **words = g_strsplit_set(spec, " \t", -1);
	struct role_style st = { -1, -1, 0 };
	int ncolors = 0, ok = 1, i;

	for (i = 0; words[i] && ok; i++) {
		const char *w = words[i];
		short c;

		if (!*w)
			continue;
		if (!strcmp(w, "bold"))
			st.attrs |= A_BOLD;
		else if (!strcmp(w, "reverse"))
			st.attrs |= A_REVERSE;
		else if (!strcmp(w, "underline"))
			st.attrs |= A_UNDERLINE;
		else if (!strcmp(w, "dim"))
			st.attrs |= A_DIM;
		else if (!strcmp(w, "normal"))
			;
		else if (ncolors < 2 && parse_color(w, &c))
			*(ncolors++ ? &st.bg : &st.fg) = c;
		else {
			ok = 0;
			if (why)
				*why = g_strdup_printf(
					"'%s' is not a colour (black, red, "
					"green, yellow, blue, magenta, cyan, "
					"white, default, 0-255) or an attribute "
					"(bold, reverse, underline, dim, "
					"normal)",
					w);
		}
	}
	g_strfreev(words);
	if (ok)
		color_style[role] = st;
	return ok;
}

int
dc_term_open(void)
{
	const char *nc = getenv("NO_COLOR");
	int r;

	if (!initscr())
		return 0;
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	meta(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	use_color = has_colors() && !(nc && *nc);
	if (use_color) {
		start_color();
		use_default_colors();
	}
	for (r = 0; r < DC_ROLE_COUNT; r++) {
		const struct role_style *st = &color_style[r];

		if (!use_color) {
			role_attr[r] = mono_attrs[r];
			continue;
		}
		role_attr[r] = st->attrs;
		if ((st->fg >= 0 || st->bg >= 0) && r + 1 < COLOR_PAIRS &&
		    st->fg < COLORS && st->bg < COLORS) {
			init_pair(r + 1, st->fg, st->bg);
			role_attr[r] |= COLOR_PAIR(r + 1);
		}
	}
	return 1;
}

void
dc_term_close(void)
{
	if (!isendwin())
		endwin();
}

void
dc_term_size(int *rows, int *cols)
{
	getmaxyx(stdscr, *rows, *cols);
}

void
dc_term_flush(const dc_screen_t *s, int cy, int cx, int force)
{
	int y, x;

	if (force)
		clearok(curscr, TRUE);
	for (y = 0; y < s->rows; y++) {
		move(y, 0);
		for (x = 0; x < s->cols; x++) {
			const dc_cell_t *c = &s->cells[y * s->cols + x];
			attr_t a;

			if (c->width == 0)
				continue;
			a = role_attr[c->role];
			if (c->selected)
				a = role_attr[DC_ROLE_CURSOR] |
				    (c->role == DC_ROLE_MARKER ? A_UNDERLINE :
								 0);
			attrset(a);
			if (x + c->width > s->cols)
				mvaddstr(y, x, " ");
			else
				mvaddstr(y, x, c->text);
		}
	}
	attrset(A_NORMAL);
	if (cy >= 0) {
		move(cy, cx);
		curs_set(1);
	} else {
		curs_set(0);
	}
	refresh();
}

static int
map_key(int rc, wint_t wc)
{
	if (rc == ERR)
		return DC_KEY_TIMEOUT;
	if (rc == KEY_CODE_YES) {
		switch (wc) {
		case KEY_UP: return DC_KEY_UP;
		case KEY_DOWN: return DC_KEY_DOWN;
		case KEY_LEFT: return DC_KEY_LEFT;
		case KEY_RIGHT: return DC_KEY_RIGHT;
		case KEY_PPAGE: return DC_KEY_PGUP;
		case KEY_NPAGE: return DC_KEY_PGDN;
		case KEY_HOME: return DC_KEY_HOME;
		case KEY_END: return DC_KEY_END;
		case KEY_BACKSPACE: return DC_KEY_BACKSPACE;
		case KEY_DC: return DC_KEY_DELETE;
		case KEY_IC: return DC_KEY_INSERT;
		case KEY_ENTER: return DC_KEY_ENTER;
		case KEY_RESIZE: return DC_KEY_RESIZE;
		default:
			if (wc > KEY_F0 && wc < KEY_F(64))
				return DC_KEY_F0 + (int)(wc - KEY_F0);
			return DC_KEY_TIMEOUT;
		}
	}
	if (wc == '\n')
		return DC_KEY_ENTER;
	if (wc == 0x7f || wc == 0x08)
		return DC_KEY_BACKSPACE;
	return (int)wc;
}

int
dc_term_getkey(int timeout_ms)
{
	wint_t wc = 0;
	int rc;

	timeout(timeout_ms);
	rc = get_wch(&wc);
	return map_key(rc, wc);
}

void
dc_term_leave(void)
{
	def_prog_mode();
	endwin();
}

void
dc_term_enter(void)
{
	reset_prog_mode();
	clearok(curscr, TRUE);
	refresh();
}

void
dc_term_suspend(void)
{
	void (*old)(int);

	dc_term_leave();
	old = signal(SIGTSTP, SIG_DFL);
	raise(SIGTSTP);
	signal(SIGTSTP, old);
	dc_term_enter();
}
