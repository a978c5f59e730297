// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * No identity survives in any decoding.  The input chooses a form of a
 * fictional reporter's identity (address, local part, name, surname), a
 * case, up to three layers of text encoding (HTML character references,
 * percent-escapes, fullwidth letters, invisible characters between the
 * letters) and where in a message it hides (a header in RFC 2047 B or Q,
 * a quoted-printable or base64 body, an HTML part, an RFC 2231 file name,
 * the From and Reply-To display names, X-Original-From, a Message-ID);
 * its other bytes are text around it.  The message is redacted as a
 * packet redacts it (dc_redact_message) and scanned as the packet is
 * before it is written (dc_identity_scan): either the scan refuses
 * (redaction fails closed) or a judge of this file's own, which decodes
 * the output with GMime and then undoes every layer above, must find no
 * form of the identity.
 */
#include <gmime/gmime.h>
#include <locale.h>

#include "core/privacy/privacy.h"
#include "core/privacy/redact.h"
#include "tests/fuzz/fuzz.h"

static dc_identity_set_t *set;

static const char *const forms[] = {
	"quentin.reporterson@example.net",
	"quentin.reporterson",
	"Quentin Reporterson",
	"Reporterson",
};
/* What the judge looks for, case-folded, once the text is decoded. */
static const char *const sought[] = {
	"reporterson",
	"quentin.reporterson",
};

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	setlocale(LC_ALL, "C.UTF-8");
	g_mime_init();
	set = dc_identity_set_new();
	dc_identity_add(set, "Reporter A", "Quentin Reporterson",
			"quentin.reporterson@example.net");
	return 0;
}

/* ---- the layers --------------------------------------------------------- */

static char *
cased(const char *s, unsigned how)
{
	char *r = g_strdup(s);
	size_t i;

	for (i = 0; r[i]; i++)
		if (how == 1)
			r[i] = g_ascii_toupper(r[i]);
		else if (how == 2)
			r[i] = g_ascii_tolower(r[i]);
		else if (how == 3 && i % 2)
			r[i] = g_ascii_toupper(r[i]);
	return r;
}

/* One layer over s (ASCII or UTF-8), g_free. */
static char *
layer(const char *s, unsigned which)
{
	GString *o = g_string_new(NULL);
	const char *p;

	for (p = s; *p; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char(p);

		switch (which) {
		case 1: /* &#NNN; */
			g_string_append_printf(o, "&#%u;", c);
			break;
		case 2: /* &#xHH; */
			g_string_append_printf(o, "&#x%X;", c);
			break;
		case 3: /* percent-escapes of the UTF-8 bytes */
		{
			const char *q;

			for (q = p; q < g_utf8_next_char(p); q++)
				g_string_append_printf(o, "%%%02X",
						       (unsigned char)*q);
			break;
		}
		case 4: /* fullwidth letters and digits: NFKC folds them */
			if (c > 0x20 && c < 0x7f)
				g_string_append_unichar(o, c - 0x21 + 0xff01);
			else
				g_string_append_unichar(o, c);
			break;
		case 5: /* a soft hyphen between letters */
			g_string_append_unichar(o, c);
			if (p[1])
				g_string_append_unichar(o, 0x00ad);
			break;
		case 6: /* a zero-width space between letters */
			g_string_append_unichar(o, c);
			if (p[1])
				g_string_append_unichar(o, 0x200b);
			break;
		default:
			g_string_append_unichar(o, c);
		}
	}
	return g_string_free(o, FALSE);
}

/* ---- the message ------------------------------------------------------ */

static char *
b64(const char *s)
{
	return g_base64_encode((const guchar *)s, strlen(s));
}

static char *
qp(const char *s)
{
	GString *o = g_string_new(NULL);
	int col = 0;

	for (; *s; s++) {
		unsigned char c = *s;

		if (col > 70) {
			g_string_append(o, "=\n");
			col = 0;
		}
		if (c == '\n') {
			g_string_append_c(o, '\n');
			col = 0;
		} else if (c == '=' || c < 32 || c > 126) {
			g_string_append_printf(o, "=%02X", c);
			col += 3;
		} else {
			g_string_append_c(o, c);
			col++;
		}
	}
	return g_string_free(o, FALSE);
}

static char *
rfc2047(const char *s, int q)
{
	GString *o = g_string_new(NULL);
	char *e;

	if (!q) {
		e = b64(s);
		g_string_append_printf(o, "=?UTF-8?B?%s?=", e);
		g_free(e);
		return g_string_free(o, FALSE);
	}
	g_string_append(o, "=?UTF-8?Q?");
	for (; *s; s++) {
		unsigned char c = *s;

		if (g_ascii_isalnum(c))
			g_string_append_c(o, c);
		else if (c == ' ')
			g_string_append_c(o, '_');
		else
			g_string_append_printf(o, "=%02X", c);
	}
	g_string_append(o, "?=");
	return g_string_free(o, FALSE);
}

static char *
rfc2231(const char *s)
{
	GString *o = g_string_new("UTF-8''");

	for (; *s; s++) {
		unsigned char c = *s;

		if (g_ascii_isalnum(c) || c == '.')
			g_string_append_c(o, c);
		else
			g_string_append_printf(o, "%%%02X", c);
	}
	return g_string_free(o, FALSE);
}

/* Filler: the input's bytes as printable ASCII words. */
static char *
filler(const uint8_t *d, size_t n)
{
	GString *o = g_string_new(NULL);
	size_t i;

	for (i = 0; i < n && i < 200; i++) {
		unsigned char c = d[i];

		g_string_append_c(o, c % 7 == 0 ? ' ' : 'a' + c % 26);
	}
	return g_string_free(o, FALSE);
}

static char *
message(unsigned where, const char *hidden, const char *before,
	const char *after)
{
	const char *head = "From: Committee <conduct@kernel.org>\n"
			   "To: tech-board@lists.linux-foundation.org\n"
			   "Date: Tue, 01 Dec 2026 10:00:00 +0000\n";
	char *text = g_strdup_printf("%s %s %s\n", before, hidden, after);
	char *e = NULL, *m;

	switch (where % 10) {
	case 0:
		e = rfc2047(hidden, 0);
		m = g_strdup_printf("%sSubject: %s %s\nMessage-ID: "
				    "<f@example.org>\n\nbody\n",
				    head, before, e);
		break;
	case 1:
		e = rfc2047(hidden, 1);
		m = g_strdup_printf("%sSubject: %s\nMessage-ID: "
				    "<f@example.org>\n\n%s\n",
				    head, e, after);
		break;
	case 2:
		e = qp(text);
		m = g_strdup_printf("%sSubject: s\nMessage-ID: <f@example.org>"
				    "\nMIME-Version: 1.0\nContent-Type: "
				    "text/plain; charset=utf-8\n"
				    "Content-Transfer-Encoding: "
				    "quoted-printable\n\n%s",
				    head, e);
		break;
	case 3:
		e = b64(text);
		m = g_strdup_printf("%sSubject: s\nMessage-ID: <f@example.org>"
				    "\nMIME-Version: 1.0\nContent-Type: "
				    "text/plain; charset=utf-8\n"
				    "Content-Transfer-Encoding: base64\n\n%s\n",
				    head, e);
		break;
	case 4:
	{
		char *html = g_strdup_printf("<html><body><p>%s <b>%s</b> "
					     "%s</p></body></html>",
					     before, hidden, after);

		e = b64(html);
		g_free(html);
		m = g_strdup_printf(
		    "%sSubject: s\nMessage-ID: <f@example.org>\n"
		    "MIME-Version: 1.0\nContent-Type: multipart/alternative; "
		    "boundary=BB\n\n--BB\nContent-Type: text/plain\n\n%s\n"
		    "--BB\nContent-Type: text/html; charset=utf-8\n"
		    "Content-Transfer-Encoding: base64\n\n%s\n--BB--\n",
		    head, before, e);
		break;
	}
	case 5:
		e = rfc2231(hidden);
		m = g_strdup_printf(
		    "%sSubject: s\nMessage-ID: <f@example.org>\n"
		    "MIME-Version: 1.0\nContent-Type: multipart/mixed; "
		    "boundary=BB\n\n--BB\nContent-Type: text/plain\n\n%s\n"
		    "--BB\nContent-Type: text/plain; name*=%s\n"
		    "Content-Disposition: attachment; filename*=%s\n\n"
		    "log\n--BB--\n",
		    head, before, e, e);
		break;
	case 6:
		e = rfc2047(hidden, where & 16);
		m = g_strdup_printf("From: %s <someone@example.org>\n"
				    "To: conduct@kernel.org\nSubject: s\n"
				    "Message-ID: <f@example.org>\n\n%s\n",
				    e, before);
		break;
	case 7:
		e = rfc2047(hidden, where & 16);
		m = g_strdup_printf("%sReply-To: %s <x@example.org>\n"
				    "Subject: s\nMessage-ID: <f@example.org>"
				    "\n\n%s\n",
				    head, e, after);
		break;
	case 8:
		m = g_strdup_printf("%sX-Original-From: %s\nSubject: s\n"
				    "Message-ID: <f@example.org>\n\n%s\n",
				    head, hidden, before);
		break;
	default:
	{
		/* A Message-ID (and the reply naming it) made of the
		 * address's local part, as git send-email makes them. */
		char *id = g_strdup_printf("20261201.%s.%s", after[0] ? "x" :
							     "y",
					   hidden);

		m = g_strdup_printf("%sSubject: s\nMessage-ID: <%s>\n"
				    "In-Reply-To: <%s>\nReferences: <%s>\n\n"
				    "%s\n",
				    head, id, id, id, before);
		g_free(id);
	}
	}
	g_free(e);
	g_free(text);
	return m;
}

/* ---- the judge ------------------------------------------------------ */

/* &#NNN; &#xHH; and percent-escapes, once each (g_free). */
static char *
unescape(const char *s)
{
	GString *o = g_string_new(NULL);

	while (*s) {
		char *end = NULL;
		unsigned long c;

		if (s[0] == '&' && s[1] == '#') {
			int hex = s[2] == 'x' || s[2] == 'X';

			c = strtoul(s + 2 + hex, &end, hex ? 16 : 10);
			if (end && *end == ';' && end > s + 2 + hex && c &&
			    c < 0x110000 && g_unichar_validate(c)) {
				g_string_append_unichar(o, c);
				s = end + 1;
				continue;
			}
		}
		if (s[0] == '%' && g_ascii_isxdigit(s[1]) &&
		    g_ascii_isxdigit(s[2])) {
			g_string_append_c(o, g_ascii_xdigit_value(s[1]) * 16 +
						     g_ascii_xdigit_value(s[2]));
			s += 3;
			continue;
		}
		g_string_append_c(o, *s++);
	}
	return g_string_free(o, FALSE);
}

/* Invisible characters out, NFKC, case folded (g_free). */
static char *
fold(const char *s)
{
	GString *o = g_string_new(NULL);
	char *valid = g_utf8_make_valid(s, -1), *n, *f;
	const char *p;

	for (p = valid; *p; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char(p);

		if (c == 0x00ad || (c >= 0x200b && c <= 0x200f) ||
		    c == 0x2060 || c == 0xfeff || c == 0x034f)
			continue;
		g_string_append_unichar(o, c);
	}
	g_free(valid);
	n = g_utf8_normalize(o->str, -1, G_NORMALIZE_NFKC);
	g_string_free(o, TRUE);
	f = g_utf8_casefold(n ? n : "", -1);
	g_free(n);
	return f;
}

/* Does any sought form show in text, decoded up to four times over? */
static int
shows(const char *text)
{
	char *cur = g_strdup(text);
	int round, hit = 0;
	size_t i;

	for (round = 0; round < 4 && !hit; round++) {
		char *f = fold(cur), *next;

		for (i = 0; i < G_N_ELEMENTS(sought); i++)
			if (strstr(f, sought[i]))
				hit = 1;
		next = unescape(f);
		g_free(f);
		g_free(cur);
		cur = next;
	}
	g_free(cur);
	return hit;
}

static int
header_shows(GMimeObject *o)
{
	GMimeHeaderList *hl = g_mime_object_get_header_list(o);
	int i, n = hl ? g_mime_header_list_get_count(hl) : 0, hit = 0;

	for (i = 0; i < n && !hit; i++) {
		GMimeHeader *h = g_mime_header_list_get_header_at(hl, i);
		const char *raw = g_mime_header_get_raw_value(h);
		char *dec = g_mime_utils_header_decode_text(NULL, raw ? raw : "");

		hit = shows(raw ? raw : "") || shows(dec);
		g_free(dec);
	}
	return hit;
}

static int
part_shows(GMimeObject *o)
{
	int hit = header_shows(o);

	if (!hit && GMIME_IS_MULTIPART(o)) {
		int i, n = g_mime_multipart_get_count(GMIME_MULTIPART(o));

		for (i = 0; i < n && !hit; i++)
			hit = part_shows(
			    g_mime_multipart_get_part(GMIME_MULTIPART(o), i));
	} else if (!hit && GMIME_IS_MESSAGE_PART(o)) {
		GMimeMessage *m =
		    g_mime_message_part_get_message(GMIME_MESSAGE_PART(o));

		hit = m && part_shows(GMIME_OBJECT(m));
	} else if (!hit && GMIME_IS_TEXT_PART(o)) {
		char *t = g_mime_text_part_get_text(GMIME_TEXT_PART(o));
		const char *name = g_mime_part_get_filename(GMIME_PART(o));

		hit = (t && shows(t)) || (name && shows(name));
		g_free(t);
	} else if (!hit && GMIME_IS_PART(o)) {
		const char *name = g_mime_part_get_filename(GMIME_PART(o));

		hit = name && shows(name);
	}
	if (!hit && GMIME_IS_MESSAGE(o))
		hit = part_shows(g_mime_message_get_mime_part(GMIME_MESSAGE(o)));
	return hit;
}

static int
judge_finds(const char *out, size_t len)
{
	GMimeStream *st = g_mime_stream_mem_new_with_buffer(out, len);
	GMimeParser *p = g_mime_parser_new_with_stream(st);
	GMimeMessage *m = g_mime_parser_construct_message(p, NULL);
	int hit = shows(out);

	if (!hit && m)
		hit = part_shows(GMIME_OBJECT(m));
	if (m)
		g_object_unref(m);
	g_object_unref(p);
	g_object_unref(st);
	return hit;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	dc_identity_hit_t hit;
	dc_error_t err = { 0 };
	char *hidden, *before, *after, *msg, *out = NULL;
	size_t out_len = 0, half;
	unsigned k;

	if (size < 6)
		return 0;
	hidden = cased(forms[data[0] % G_N_ELEMENTS(forms)], data[1] % 4);
	for (k = 2; k < 5; k++) {
		char *next = layer(hidden, data[k] % 8);

		g_free(hidden);
		hidden = next;
	}
	half = (size - 6) / 2;
	before = filler(data + 6, half);
	after = filler(data + 6 + half, size - 6 - half);
	msg = message(data[5], hidden, before, after);
	if (dc_redact_message(msg, strlen(msg), set, &out, &out_len, &err) ==
		    DC_OK &&
	    !dc_identity_scan(set, out, out_len, &hit)) {
		if (judge_finds(out, out_len)) {
			fprintf(stderr, "--- in:\n%s\n--- out:\n%s\n", msg, out);
			FUZZ_ASSERT(!"an identity survived redaction and scan");
		}
	}
	g_free(out);
	g_free(msg);
	g_free(before);
	g_free(after);
	g_free(hidden);
	return 0;
}
