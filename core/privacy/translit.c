// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/privacy/translit.h"

#include <string.h>
#include <unicode/utrans.h>
#include <unicode/ustring.h>

/* The schemes, most general first; one that ICU lacks is skipped. */
static const char *const schemes[] = {
	"Any-Latin; Latin-ASCII",
	"Russian-Latin/BGN; Latin-ASCII",
	"Ukrainian-Latin/BGN; Latin-ASCII",
	"Greek-Latin/UNGEGN; Latin-ASCII",
	"Serbian-Latin/BGN; Latin-ASCII",
	/* "Müller" as "Mueller". */
	"Any-Latin; de-ASCII",
	NULL,
};

static UTransliterator *
open_scheme(const char *id)
{
	UChar uid[64];
	UErrorCode e = U_ZERO_ERROR;
	UTransliterator *t;

	u_uastrcpy(uid, id);
	t = utrans_openU(uid, -1, UTRANS_FORWARD, NULL, 0, NULL, &e);
	return U_SUCCESS(e) ? t : NULL;
}

/* Transliterate name with t; NULL on failure (g_free). */
static char *
apply(UTransliterator *t, const char *name)
{
	UErrorCode e = U_ZERO_ERROR;
	int32_t len = 0, cap, limit;
	UChar *u;
	char *out = NULL;
	glong n = 0;
	gunichar2 *u16 = g_utf8_to_utf16(name, -1, NULL, &n, NULL);

	if (!u16 || n > 4096) {
		g_free(u16);
		return NULL;
	}
	cap = (int32_t)n * 4 + 16;
	u = g_new0(UChar, cap);
	memcpy(u, u16, n * sizeof(UChar));
	g_free(u16);
	len = (int32_t)n;
	limit = len;
	utrans_transUChars(t, u, &len, cap, 0, &limit, &e);
	if (U_SUCCESS(e))
		out = g_utf16_to_utf8((const gunichar2 *)u, len, NULL, NULL,
				      NULL);
	g_free(u);
	return out;
}

static int
is_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return 0;
	return 1;
}

static void
add_form(GPtrArray *forms, const char *name, char *f)
{
	guint i;

	g_strstrip(f);
	/* "?" is what g_str_to_ascii() writes for what it cannot spell. */
	if (!*f || !is_ascii(f) || !g_ascii_strcasecmp(f, name) ||
	    (strchr(f, '?') && !strchr(name, '?'))) {
		g_free(f);
		return;
	}
	for (i = 0; i < forms->len; i++)
		if (!g_ascii_strcasecmp(forms->pdata[i], f)) {
			g_free(f);
			return;
		}
	g_ptr_array_add(forms, f);
}

/* "Dmitriy", "Dmitrij" -> "Dmitry" and "Dmitri": how English mail writes
 * the ending. */
static void
add_endings(GPtrArray *forms, const char *name, const char *f)
{
	static const char *const ends[] = { "iy", "ij", "yj", "yy" };
	static const char *const as[] = { "y", "i" };
	char **w = g_strsplit(f, " ", -1);
	guint e, a, i, changed;

	for (a = 0; a < G_N_ELEMENTS(as); a++) {
		GString *o = g_string_new(NULL);

		changed = 0;
		for (i = 0; w[i]; i++) {
			size_t l = strlen(w[i]);
			int done = 0;

			if (i)
				g_string_append_c(o, ' ');
			for (e = 0; e < G_N_ELEMENTS(ends) && !done; e++) {
				if (l > 3 && !g_ascii_strcasecmp(w[i] + l - 2,
								 ends[e])) {
					g_string_append_len(o, w[i], l - 2);
					g_string_append(o, as[a]);
					done = changed = 1;
				}
			}
			if (!done)
				g_string_append(o, w[i]);
		}
		if (changed)
			add_form(forms, name, g_string_free(o, FALSE));
		else
			g_string_free(o, TRUE);
	}
	g_strfreev(w);
}

/*
 * Han, kana and Hangul: a syllable-by-syllable romanization ("li xiao
 * long") is not how the owner writes the name in Latin letters, and its
 * syllables are English words ("long"), so its forms would refuse and
 * redact ordinary text.  A committee member adds the Latin name by hand
 * (case alias).
 */
static int
syllabic(const char *name)
{
	const char *p;

	for (p = name; *p; p = g_utf8_next_char(p)) {
		switch (g_unichar_get_script(g_utf8_get_char(p))) {
		case G_UNICODE_SCRIPT_HAN:
		case G_UNICODE_SCRIPT_HIRAGANA:
		case G_UNICODE_SCRIPT_KATAKANA:
		case G_UNICODE_SCRIPT_HANGUL:
			return 1;
		default:
			break;
		}
	}
	return 0;
}

GPtrArray *
dc_name_latin_forms(const char *name)
{
	static UTransliterator *cache[G_N_ELEMENTS(schemes)];
	static gsize opened;
	GPtrArray *forms = g_ptr_array_new_with_free_func(g_free);
	guint i, n;

	if (!name || is_ascii(name) || !g_utf8_validate(name, -1, NULL) ||
	    syllabic(name))
		return forms;
	/* Opened once, on the first name that needs them (a packet's
	 * redaction may run beside the screen). */
	if (g_once_init_enter(&opened)) {
		for (i = 0; schemes[i]; i++)
			cache[i] = open_scheme(schemes[i]);
		g_once_init_leave(&opened, 1);
	}
	for (i = 0; schemes[i]; i++) {
		char *f = cache[i] ? apply(cache[i], name) : NULL;

		if (f)
			add_form(forms, name, f);
	}
	/* GLib's weaker fallback, for a script ICU's data leaves alone. */
	add_form(forms, name, g_str_to_ascii(name, "C"));
	n = forms->len;
	for (i = 0; i < n; i++)
		add_endings(forms, name, forms->pdata[i]);
	return forms;
}
