// SPDX-License-Identifier: GPL-3.0-or-later
/* A letter with files attached, built by GMime (see core/mail/compose.h). */
#include <gmime/gmime.h>
#include <string.h>

#include "core/mail/compose.h"

static void
add_addresses(GMimeMessage *m, GMimeAddressType type, const char *list)
{
	InternetAddressList *l = list ? internet_address_list_parse(NULL, list)
				      : NULL;

	if (l) {
		internet_address_list_append(g_mime_message_get_addresses(m,
									 type),
					     l);
		g_object_unref(l);
	}
}

static GMimeObject *
attachment(const dc_attach_t *a, int bodies)
{
	char **t = g_strsplit(a->type ? a->type : "application/octet-stream",
			      "/", 2);
	GMimePart *part = g_mime_part_new_with_type(
		t[0], t[1] ? t[1] : "octet-stream");
	GMimeStream *st = g_mime_stream_mem_new_with_buffer(
		bodies ? a->data : "", bodies ? a->len : 0);
	GMimeDataWrapper *dw = g_mime_data_wrapper_new_with_stream(
		st, GMIME_CONTENT_ENCODING_DEFAULT);

	g_mime_part_set_content(part, dw);
	if (!strcmp(t[0], "text"))
		g_mime_object_set_content_type_parameter(GMIME_OBJECT(part),
							 "charset", "utf-8");
	g_mime_object_set_disposition(GMIME_OBJECT(part),
				      GMIME_DISPOSITION_ATTACHMENT);
	g_mime_part_set_filename(part, a->name);
	g_mime_part_set_content_encoding(part, GMIME_CONTENT_ENCODING_BASE64);
	g_object_unref(dw);
	g_object_unref(st);
	g_strfreev(t);
	return GMIME_OBJECT(part);
}

static void
set_date_header(GMimeMessage *m, const char *name, int64_t t)
{
	GDateTime *d = g_date_time_new_from_unix_utc(t);
	char *s = g_date_time_format(d, "%a, %d %b %Y %H:%M:%S +0000");

	g_mime_object_set_header(GMIME_OBJECT(m), name, s, NULL);
	g_free(s);
	g_date_time_unref(d);
}

char *
dc_compose_mixed(const dc_compose_t *c, int bodies)
{
	GMimeMessage *m = g_mime_message_new(TRUE);
	GMimeMultipart *mixed = g_mime_multipart_new_with_subtype("mixed");
	GMimeTextPart *body = g_mime_text_part_new_with_subtype("plain");
	GDateTime *d = g_date_time_new_from_unix_utc(c->date);
	char *out;
	guint i;

	add_addresses(m, GMIME_ADDRESS_TYPE_FROM, c->from);
	add_addresses(m, GMIME_ADDRESS_TYPE_TO, c->to);
	g_mime_message_set_subject(m, c->subject, "utf-8");
	g_mime_message_set_date(m, d);
	if (c->message_id)
		g_mime_message_set_message_id(m, c->message_id);
	if (c->reply_by)
		set_date_header(m, "Reply-By", c->reply_by);
	g_mime_text_part_set_text(body, c->text);
	g_mime_text_part_set_charset(body, "utf-8");
	g_mime_part_set_content_encoding(
		GMIME_PART(body),
		g_mime_part_get_best_content_encoding(
			GMIME_PART(body), GMIME_ENCODING_CONSTRAINT_7BIT));
	g_mime_multipart_add(mixed, GMIME_OBJECT(body));
	for (i = 0; i < c->n_attach; i++) {
		GMimeObject *a = attachment(&c->attach[i], bodies);

		g_mime_multipart_add(mixed, a);
		g_object_unref(a);
	}
	g_mime_message_set_mime_part(m, GMIME_OBJECT(mixed));
	out = g_mime_object_to_string(GMIME_OBJECT(m), NULL);
	g_object_unref(body);
	g_object_unref(mixed);
	g_object_unref(m);
	g_date_time_unref(d);
	return out;
}
