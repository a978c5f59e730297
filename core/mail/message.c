// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * One message file: decoded headers (RFC 2047 via GMime), text body decoded
 * from its transfer encoding and charset to UTF-8, attachments listed.
 */
#include <fcntl.h>
#include <gmime/gmime.h>
#include <string.h>

#include "core/mail/html.h"
#include "core/mail/message.h"

/* Deeper MIME nesting than this is hostile, not mail. */
#define MAX_MIME_DEPTH 64

struct walk {
	dc_message_t *msg;
	GString *body;
	const char *html_filter; /* NULL: the built-in converter */
};

static void
attachment_add(dc_message_t *msg, const char *name, const char *type,
	       size_t size)
{
	dc_attachment_t *a = g_new0(dc_attachment_t, 1);

	a->filename = g_strdup(name);
	a->content_type = g_strdup(type);
	a->size = size;
	g_ptr_array_add(msg->attachments, a);
}

static void
attachment_free(gpointer p)
{
	dc_attachment_t *a = p;

	g_free(a->filename);
	g_free(a->content_type);
	g_free(a);
}

/* Decode a leaf part's content into a byte array (transfer encoding
 * undone, charset converted to UTF-8 when convert is set). */
static GByteArray *
part_decode(GMimePart *part, int convert)
{
	GMimeDataWrapper *w = g_mime_part_get_content(part);
	GMimeStream *mem, *filt;
	GMimeFilter *f = NULL;
	const char *charset;
	GByteArray *out;

	if (!w)
		return g_byte_array_new();
	mem = g_mime_stream_mem_new();
	filt = g_mime_stream_filter_new(mem);
	charset = g_mime_object_get_content_type_parameter(GMIME_OBJECT(part),
							   "charset");
	if (convert && charset && g_ascii_strcasecmp(charset, "utf-8") &&
	    g_ascii_strcasecmp(charset, "us-ascii"))
		f = g_mime_filter_charset_new(charset, "UTF-8");
	if (f) {
		g_mime_stream_filter_add(GMIME_STREAM_FILTER(filt), f);
		g_object_unref(f);
	}
	g_mime_data_wrapper_write_to_stream(w, filt);
	g_mime_stream_flush(filt);
	/* Take the buffer: the stream frees it otherwise, refs or not. */
	g_mime_stream_mem_set_owner(GMIME_STREAM_MEM(mem), FALSE);
	out = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	g_object_unref(filt);
	g_object_unref(mem);
	return out;
}

/* Unlabelled 8-bit text that is not UTF-8 is nearly always Windows-1252
 * on mailing lists; labelled text was converted.  NULL: as it is. */
static char *
unlabelled_text(GByteArray *bytes, const char *charset)
{
	if (charset ||
	    g_utf8_validate((const char *)bytes->data, bytes->len, NULL))
		return NULL;
	return g_convert((const char *)bytes->data, bytes->len, "UTF-8",
			 "WINDOWS-1252", NULL, NULL, NULL);
}

static void
body_append_text(struct walk *w, const char *text, gssize len)
{
	if (w->body->len && w->body->str[w->body->len - 1] != '\n')
		g_string_append_c(w->body, '\n');
	g_string_append_len(w->body, text, len);
}

static void
body_append(struct walk *w, GByteArray *bytes, const char *charset)
{
	char *conv = unlabelled_text(bytes, charset);

	if (conv)
		body_append_text(w, conv, -1);
	else
		body_append_text(w, (const char *)bytes->data, bytes->len);
	g_free(conv);
}

/* A text/html part as text: through the filter when there is one (the
 * built-in converter when it fails, saying why), else built in. */
static void
html_append(struct walk *w, GByteArray *bytes, const char *charset)
{
	char *conv = unlabelled_text(bytes, charset), *text = NULL;
	const char *html = conv ? conv : (const char *)bytes->data;
	size_t len = conv ? strlen(conv) : bytes->len;
	dc_error_t err = { 0 };

	w->msg->flags |= DC_MSG_HTML;
	if (w->html_filter &&
	    dc_html_filter(w->html_filter, html, len, 0, &text, &err) != DC_OK) {
		char *note = g_strdup_printf("[decorum: %s; the built-in "
					     "converter shows the html]\n\n",
					     err.msg);

		body_append_text(w, note, -1);
		g_free(note);
		dc_error_clear(&err);
	}
	if (!text)
		text = dc_html_to_text(html, len);
	body_append_text(w, text, -1);
	g_free(text);
	g_free(conv);
}

static int
is_attachment(GMimeObject *obj, GMimeContentType *ct)
{
	const char *disp = g_mime_object_get_disposition(obj);

	if (disp && !g_ascii_strcasecmp(disp, "attachment"))
		return 1;
	return !g_mime_content_type_is_type(ct, "text", "*");
}

static void walk_object(struct walk *w, GMimeObject *obj, int depth);

static void
walk_part(struct walk *w, GMimePart *part)
{
	GMimeObject *obj = GMIME_OBJECT(part);
	GMimeContentType *ct = g_mime_object_get_content_type(obj);
	const char *name = g_mime_part_get_filename(part);
	char *type = g_mime_content_type_get_mime_type(ct);
	GByteArray *bytes;

	if (!is_attachment(obj, ct) &&
	    g_mime_content_type_is_type(ct, "text", "plain")) {
		bytes = part_decode(part, 1);
		body_append(w, bytes,
			    g_mime_content_type_get_parameter(ct, "charset"));
	} else if (!is_attachment(obj, ct) &&
		   g_mime_content_type_is_type(ct, "text", "html")) {
		bytes = part_decode(part, 1);
		html_append(w, bytes,
			    g_mime_content_type_get_parameter(ct, "charset"));
	} else {
		bytes = part_decode(part, 0);
		attachment_add(w->msg, name, type, bytes->len);
	}
	g_byte_array_unref(bytes);
	g_free(type);
}

/* The first part of mp of type/subtype, or NULL. */
static GMimeObject *
part_of_type(GMimeMultipart *mp, const char *type, const char *subtype)
{
	int i, n = g_mime_multipart_get_count(mp);

	for (i = 0; i < n; i++) {
		GMimeObject *sub = g_mime_multipart_get_part(mp, i);
		GMimeContentType *ct = g_mime_object_get_content_type(sub);

		if (g_mime_content_type_is_type(ct, type, subtype))
			return sub;
	}
	return NULL;
}

/* In multipart/alternative show the plain text, else the html as text,
 * and list nothing else. */
static GMimeObject *
alternative_pick(GMimeMultipart *mp)
{
	GMimeObject *pick = part_of_type(mp, "text", "plain");

	if (!pick)
		pick = part_of_type(mp, "text", "html");
	if (!pick && g_mime_multipart_get_count(mp) > 0)
		pick = g_mime_multipart_get_part(mp, 0);
	return pick;
}

static void
walk_multipart(struct walk *w, GMimeMultipart *mp, int depth)
{
	GMimeContentType *ct = g_mime_object_get_content_type(GMIME_OBJECT(mp));
	int i, n = g_mime_multipart_get_count(mp);

	if (g_mime_content_type_is_type(ct, "multipart", "alternative")) {
		GMimeObject *pick = alternative_pick(mp);

		if (pick)
			walk_object(w, pick, depth + 1);
		return;
	}
	for (i = 0; i < n; i++)
		walk_object(w, g_mime_multipart_get_part(mp, i), depth + 1);
}

static void
walk_object(struct walk *w, GMimeObject *obj, int depth)
{
	if (depth > MAX_MIME_DEPTH) {
		if (depth == MAX_MIME_DEPTH + 1)
			g_string_append_printf(
				w->body,
				"\n[decorum: MIME nesting deeper than %d "
				"levels not shown]\n",
				MAX_MIME_DEPTH);
		w->msg->flags |= DC_MSG_MALFORMED;
		return;
	}
	if (GMIME_IS_MULTIPART(obj)) {
		walk_multipart(w, GMIME_MULTIPART(obj), depth);
	} else if (GMIME_IS_MESSAGE_PART(obj)) {
		GMimeMessage *inner =
			g_mime_message_part_get_message(GMIME_MESSAGE_PART(obj));

		attachment_add(w->msg, NULL, "message/rfc822", 0);
		if (inner && inner->mime_part)
			walk_object(w, inner->mime_part, depth + 1);
	} else if (GMIME_IS_PART(obj)) {
		walk_part(w, GMIME_PART(obj));
	}
}

static char *
address_list(InternetAddressList *l)
{
	if (!l || internet_address_list_length(l) == 0)
		return NULL;
	return internet_address_list_to_string(l, NULL, FALSE);
}

/*
 * The raw value of header name made valid UTF-8 (each broken sequence a
 * U+FFFD), or NULL when it is absent or already valid.  GMime reads 8-bit
 * bytes that are not UTF-8 as Latin-1, which shows mojibake ("\xff\xfe"
 * as "ÿþ") where the man page promises U+FFFD.
 */
static char *
header_repaired(GMimeMessage *gm, const char *name)
{
	GMimeHeaderList *hl = g_mime_object_get_header_list(GMIME_OBJECT(gm));
	GMimeHeader *h = g_mime_header_list_get_header(hl, name);
	const char *raw = h ? g_mime_header_get_raw_value(h) : NULL;
	char *fixed, *unfolded;

	if (!raw || g_utf8_validate(raw, -1, NULL))
		return NULL;
	fixed = g_utf8_make_valid(raw, -1);
	unfolded = g_mime_utils_header_unfold(fixed);
	g_free(fixed);
	return unfolded;
}

/* An address header as text, invalid bytes shown as U+FFFD. */
static char *
address_header(GMimeMessage *gm, const char *name,
	       InternetAddressList *parsed)
{
	char *fixed = header_repaired(gm, name);
	InternetAddressList *l;
	char *v;

	if (!fixed)
		return address_list(parsed);
	l = internet_address_list_parse(NULL, fixed);
	v = l ? address_list(l) : g_strdup(fixed);
	if (l)
		g_object_unref(l);
	g_free(fixed);
	return v;
}

static void
headers_fill(dc_message_t *msg, GMimeMessage *gm)
{
	const char *v;
	char *fixed;

	g_free(msg->subject);
	fixed = header_repaired(gm, "Subject");
	if (fixed) {
		msg->subject = g_mime_utils_header_decode_text(NULL, fixed);
		g_free(fixed);
	} else {
		v = g_mime_message_get_subject(gm);
		msg->subject = g_strdup(v ? v : "");
	}
	g_free(msg->from);
	msg->from = address_header(gm, "From", g_mime_message_get_from(gm));
	if (!msg->from)
		msg->from = g_strdup("");
	msg->to = address_header(gm, "To", g_mime_message_get_to(gm));
	msg->cc = address_header(gm, "Cc", g_mime_message_get_cc(gm));
	v = g_mime_object_get_header(GMIME_OBJECT(gm), "In-Reply-To");
	msg->in_reply_to = g_strdup(v);
}

/* Parse the message in stream (which this takes over). */
static void
parse_stream(dc_message_t *msg, GMimeStream *stream, const char *html_filter)
{
	GMimeParser *parser;
	GMimeMessage *gm;
	struct walk w = { msg, NULL, html_filter };

	parser = g_mime_parser_new_with_stream(stream);
	gm = g_mime_parser_construct_message(parser, NULL);
	g_object_unref(parser);
	g_object_unref(stream);
	if (!gm) {
		msg->flags |= DC_MSG_MALFORMED;
		msg->body = g_strdup("[decorum: not a parsable message]\n");
		return;
	}
	headers_fill(msg, gm);
	w.body = g_string_new(NULL);
	if (gm->mime_part)
		walk_object(&w, gm->mime_part, 0);
	/* A part's last newline belongs to the MIME boundary after it. */
	if (w.body->len && w.body->str[w.body->len - 1] != '\n')
		g_string_append_c(w.body, '\n');
	msg->body = g_string_free(w.body, FALSE);
	g_object_unref(gm);
}

void
dc_message_parse_file(dc_message_t *msg, const char *path)
{
	dc_message_parse_file_html(msg, path, NULL);
}

void
dc_message_parse_file_html(dc_message_t *msg, const char *path,
			   const char *html_filter)
{
	GError *gerr = NULL;
	gchar *data = NULL;
	gsize len = 0;

	/* Read, not mapped: a file cut short under a map would be SIGBUS. */
	if (!path || !g_file_get_contents(path, &data, &len, &gerr)) {
		if (!msg->attachments)
			msg->attachments =
				g_ptr_array_new_with_free_func(attachment_free);
		msg->flags |= DC_MSG_UNREADABLE;
		msg->body = g_strdup_printf("[decorum: cannot read %s: %s]\n",
					    path ? path : "(no file)",
					    gerr ? gerr->message : "no file");
		g_clear_error(&gerr);
		return;
	}
	dc_message_parse_bytes_html(msg, data, len, html_filter);
	g_free(data);
}

/*
 * Every string GMime hands back is a C string: a NUL byte in a header or a
 * body would silently cut off what follows it, so a hostile sender could
 * hide text from the reader.  Mail has no business carrying NUL bytes
 * (not even 8bit parts may), so each becomes U+FFFD, the sanitizer's mark
 * for a NUL, before parsing.
 */
static GByteArray *
nul_replace(const char *data, size_t len)
{
	GByteArray *b = g_byte_array_sized_new(len + 64);
	const char *p = data, *end = data + len, *nul;

	while ((nul = memchr(p, '\0', end - p))) {
		g_byte_array_append(b, (const guint8 *)p, nul - p);
		g_byte_array_append(b, (const guint8 *)"\xef\xbf\xbd", 3);
		p = nul + 1;
	}
	g_byte_array_append(b, (const guint8 *)p, end - p);
	return b;
}

void
dc_message_parse_bytes(dc_message_t *msg, const char *data, size_t len)
{
	dc_message_parse_bytes_html(msg, data, len, NULL);
}

void
dc_message_parse_bytes_html(dc_message_t *msg, const char *data, size_t len,
			    const char *html_filter)
{
	GByteArray *copy = NULL;

	if (!msg->attachments)
		msg->attachments = g_ptr_array_new_with_free_func(attachment_free);
	if (len && memchr(data, '\0', len)) {
		copy = nul_replace(data, len);
		data = (const char *)copy->data;
		len = copy->len;
	}
	/* The memory stream copies the bytes. */
	parse_stream(msg, g_mime_stream_mem_new_with_buffer(data, len),
		     html_filter);
	if (copy)
		g_byte_array_unref(copy);
}

void
dc_message_free(dc_message_t *msg)
{
	if (!msg)
		return;
	g_free(msg->message_id);
	g_free(msg->filename);
	g_free(msg->from);
	g_free(msg->to);
	g_free(msg->cc);
	g_free(msg->subject);
	g_free(msg->in_reply_to);
	if (msg->tags)
		g_ptr_array_unref(msg->tags);
	g_free(msg->body);
	if (msg->attachments)
		g_ptr_array_unref(msg->attachments);
	g_free(msg);
}
