/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A message decorum writes: a text letter with files attached, as
 * multipart/mixed built by GMime.  Each attachment is base64, so that it
 * decodes to exactly the bytes given (a manifest's hash holds).
 */
#ifndef DC_COMPOSE_H
#define DC_COMPOSE_H

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

typedef struct dc_attach {
	const char *name;    /* the file name it is attached under */
	const char *type;    /* "text/plain", "application/mbox", ... */
	const char *data;
	size_t len;
} dc_attach_t;

typedef struct dc_compose {
	const char *from;     /* address lists, as in a header */
	const char *to;
	const char *subject;  /* UTF-8 */
	const char *message_id; /* without angle brackets */
	int64_t date;
	int64_t reply_by;     /* a Reply-By header (RFC 2156); 0: none */
	const char *text;     /* the letter, UTF-8 */
	const dc_attach_t *attach;
	guint n_attach;
} dc_compose_t;

/*
 * The message (g_free).  With bodies == 0 every attachment is empty:
 * the headers and the letter alone, for an identity scan that has read
 * the attached bytes as files already (and would read their base64 for
 * more than they hold).
 */
char *dc_compose_mixed(const dc_compose_t *c, int bodies);

#endif
