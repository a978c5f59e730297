/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Latin forms of a name written in another script, as its owner or a
 * correspondent may write it: "Дмитрий Соколов" signs "Dmitry Sokolov".
 * ICU's "Any-Latin; Latin-ASCII" is the field's standard transliteration;
 * the BGN/PCGN and UNGEGN romanizations and the common English endings
 * ("-iy", "-ij" as "-y" and "-i") give the spellings people use.  The
 * identity scan and the redaction look for every one of them.  Names in
 * Han, kana or Hangul get none (see translit.c): their Latin names come
 * from the mail or from a committee member (case alias).
 */
#ifndef DC_TRANSLIT_H
#define DC_TRANSLIT_H

#include <glib.h>

/* The ASCII forms of name (char *, g_free, unique), without name itself;
 * empty for a name that is ASCII already. */
GPtrArray *dc_name_latin_forms(const char *name);

#endif
