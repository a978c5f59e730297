// SPDX-License-Identifier: GPL-3.0-or-later
#include <gmime/gmime.h>
#include <string.h>

#include "core/privacy/redact.h"

static const char *const dropped[] = {
	"Received", "Authentication-Results", "DKIM-Signature",
	"Return-Path", "X-Original-To", "Delivered-To", "X-Received",
	"Received-SPF", "X-Google-DKIM-Signature", "X-Envelope-From",
	"X-Original-Sender", "X-Originating-IP", NULL,
};

/* Is name (a header's) in the NULL-terminated list, case aside? */
static int
name_in(const char *const *list, const char *name)
{
	int i;

	for (i = 0; list[i]; i++)
		if (!g_ascii_strcasecmp(name, list[i]))
			return 1;
	return 0;
}

int
dc_redact_drops_header(const char *name)
{
	return !g_ascii_strncasecmp(name, "ARC-", 4) || name_in(dropped, name);
}

static char *
slug(const char *label)
{
	char *s = g_ascii_strdown(label, -1);

	g_strdelimit(s, " ", '-');
	return s;
}

char *
dc_redact_msgid(const char *id, const dc_identity_set_t *set)
{
	const char *key = dc_identity_set_key(set);
	char *mac;
	char *out;

	if (!id || !dc_identity_in_token(set, id))
		return g_strdup(id ? id : "");
	/* A reporter's own address stays the address step's. */
	if (dc_identity_find(set, id))
		return g_strdup(id);
	mac = g_compute_hmac_for_string(G_CHECKSUM_SHA256, (const guchar *)key,
					strlen(key), id, -1);
	out = g_strdup_printf("redacted.%.20s@redacted.invalid", mac);
	g_free(mac);
	return out;
}

/* "<id>" tokens and lore links in text: the Message-IDs in them that
 * hold someone, rewritten as dc_redact_msgid() does, before the name
 * steps could leave half of one. */
static char *
redact_ids_in_text(const char *t, const dc_identity_set_t *set)
{
	static GRegex *re;
	GMatchInfo *mi = NULL;
	GString *o = NULL;
	size_t last = 0;

	if (g_once_init_enter(&re)) {
		GRegex *r = g_regex_new(
			"(?:<|(?:https?://)?lore\\.kernel\\.org/(?:[^/\\s]+/)?"
			"(?:r/)?)([^<>\\s/@]+(?:@|%40)[^<>\\s/]+)",
			G_REGEX_OPTIMIZE | G_REGEX_CASELESS, 0, NULL);

		g_once_init_leave(&re, r);
	}
	if (!re || !strchr(t, '@') || !g_regex_match(re, t, 0, &mi)) {
		g_match_info_free(mi);
		return NULL;
	}
	while (g_match_info_matches(mi)) {
		int s0, e0;
		char *id = g_match_info_fetch(mi, 1), *dec, *red;

		g_match_info_fetch_pos(mi, 1, &s0, &e0);
		dec = g_uri_unescape_string(id, NULL);
		red = dc_redact_msgid(dec ? dec : id, set);
		if (strcmp(red, dec ? dec : id)) {
			if (!o)
				o = g_string_new(NULL);
			g_string_append_len(o, t + last, s0 - last);
			g_string_append(o, red);
			last = e0;
		}
		g_free(red);
		g_free(dec);
		g_free(id);
		g_match_info_next(mi, NULL);
	}
	g_match_info_free(mi);
	if (!o)
		return NULL;
	g_string_append(o, t + last);
	return g_string_free(o, FALSE);
}

/* The pattern of needle: any case; whole words only when word. */
static char *
needle_pattern(const char *needle, int word)
{
	char *esc = g_regex_escape_string(needle, -1);
	char *pat = word ? g_strdup_printf("(?<![\\p{L}\\p{N}])%s"
					   "(?![\\p{L}\\p{N}])", esc) :
			   g_strdup(esc);

	g_free(esc);
	return pat;
}

/*
 * What redaction does with one identity set, compiled once: the
 * replacements in order, and one alternation of all their patterns.  A
 * packet redacts every header and part of every message with the same
 * set; building and compiling the patterns each time was most of the
 * cost of a redaction.  The last plan is kept, keyed by the set's
 * serial, which changes whenever the set does.
 */
typedef struct step {
	GRegex *re;
	char *with;
	int cap; /* replaced only when the match holds a capital */
} step_t;

typedef struct plan {
	gint ref;
	guint64 serial;
	GArray *steps;	/* step_t */
	GArray *tidy;	/* step_t: fragments of labels made into one */
	GRegex *any;	/* NULL: none, or it did not compile (search all) */
	GString *pats;	/* while building: the alternation */
} plan_t;

static void
step_clear(gpointer p)
{
	step_t *st = p;

	g_regex_unref(st->re);
	g_free(st->with);
}

static void
plan_unref(plan_t *pl)
{
	if (!pl || !g_atomic_int_dec_and_test(&pl->ref))
		return;
	g_array_unref(pl->steps);
	g_array_unref(pl->tidy);
	if (pl->any)
		g_regex_unref(pl->any);
	g_free(pl);
}

/* cap: see step_t; step() sets it for a form of common words
 * (dc_form_is_common), which stays where it is all in lowercase. */
static void
step_full(plan_t *pl, const char *needle, int word, int cap,
	  const char *with)
{
	char *pat;
	step_t st;

	if (!needle || g_utf8_strlen(needle, -1) < 3)
		return;
	st.cap = cap;
	pat = needle_pattern(needle, word);
	g_string_append_printf(pl->pats, "%s(?:%s)", pl->pats->len ? "|" : "",
			       pat);
	st.re = g_regex_new(pat, G_REGEX_CASELESS | G_REGEX_OPTIMIZE, 0, NULL);
	st.with = g_strdup(with);
	if (st.re)
		g_array_append_val(pl->steps, st);
	else
		g_free(st.with);
	g_free(pat);
}

static void
step(plan_t *pl, const char *needle, int word, const char *with)
{
	step_full(pl, needle, word, word && dc_form_is_common(needle), with);
}

/*
 * The name an address spells: "eleni.papadopoulou" is how a signature
 * writes "Eleni Papadopoulou" in Latin letters even when the From:
 * header has her name in Greek.  The phrase, then each word of it.
 */
static void
redact_local_words(plan_t *pl, const dc_identity_t *id)
{
	const char *at;
	char *local, **w;
	guint k;

	if (!id->address)
		return;
	at = strrchr(id->address, '@');
	local = g_strndup(id->address, at ? (gsize)(at - id->address) :
					    strlen(id->address));
	g_strdelimit(local, "._-+", ' ');
	if (strchr(local, ' ')) {
		step(pl, local, 1, id->label);
		w = g_strsplit(local, " ", -1);
		for (k = 0; w[k]; k++)
			step(pl, w[k], 1, id->label);
		g_strfreev(w);
	}
	g_free(local);
}

static void
tidy_step(plan_t *pl, char *pat, const char *label)
{
	step_t st;

	st.re = g_regex_new(pat, G_REGEX_OPTIMIZE, 0, NULL);
	st.with = g_strdup(label);
	if (st.re)
		g_array_append_val(pl->tidy, st);
	else
		g_free(st.with);
	g_free(pat);
}

/*
 * A name replaced word by word leaves the label's fragments: "Hamid
 * Al-Rashid (Hamid bin Rashid)" became "Reporter A (Reporter A
 * Al-Reporter A)".  What is left of a name is one label: a short particle
 * glued to it ("Al-", "d'"), labels with particles between them, and a
 * label repeating itself in parentheses.
 */
static void
tidy_steps(plan_t *pl, const char *label)
{
	char *l = g_regex_escape_string(label, -1);

	tidy_step(pl, g_strdup_printf("(?<![\\p{L}\\p{N}])\\p{L}{1,3}"
				      "[-'\u2019]%s(?![\\p{L}\\p{N}])", l),
		  label);
	tidy_step(pl, g_strdup_printf("%s(?:[\\s.-]+(?:\\p{L}{1,3}"
				      "[\\s'\u2019-]+){0,2}%s)+"
				      "(?![\\p{L}\\p{N}])", l, l),
		  label);
	tidy_step(pl, g_strdup_printf("%s\\s*\\(\\s*%s\\s*\\)", l, l), label);
	g_free(l);
}

/* The handles a name makes, glued or joined: "qreporterson",
 * "quentinreporterson", "quentin.reporterson", "quentin_reporterson". */
static void
handle_steps(plan_t *pl, const char *name, const char *slug_)
{
	GPtrArray *h = dc_name_handles(name);
	guint i;

	for (i = 0; i < h->len; i++)
		step(pl, h->pdata[i], 1, slug_);
	g_ptr_array_unref(h);
}

static plan_t *
plan_build(const dc_identity_set_t *set)
{
	plan_t *pl = g_new0(plan_t, 1);
	guint i, j, k;

	pl->ref = 1;
	pl->serial = dc_identity_set_serial(set);
	pl->steps = g_array_new(FALSE, FALSE, sizeof(step_t));
	g_array_set_clear_func(pl->steps, step_clear);
	pl->tidy = g_array_new(FALSE, FALSE, sizeof(step_t));
	g_array_set_clear_func(pl->tidy, step_clear);
	pl->pats = g_string_new(NULL);
	for (i = 0; i < dc_identity_count(set); i++) {
		const dc_identity_t *id = dc_identity_get(set, i);
		char *s = slug(id->label);
		char *addr = g_strconcat(s, "@redacted.invalid", NULL);
		char *local = NULL;

		if (id->address) {
			const char *at = strrchr(id->address, '@');

			step(pl, id->address, 1, addr);
			/* "reporter-a at n01se.net": her own domain. */
			if (at && dc_domain_is_personal(at + 1)) {
				char *dom = g_strdup(at + 1);
				char *dot = strrchr(dom, '.');

				step_full(pl, dom, 1, 0, "redacted.invalid");
				/* "reporterson-family dot net" */
				if (dot) {
					*dot = 0;
					step_full(pl, dom, 1, 0, "redacted");
				}
				g_free(dom);
			}
			local = g_strndup(id->address,
					  at ? (gsize)(at - id->address) :
					       strlen(id->address));
		}
		/* Whole names before the local part, which can be a word
		 * of them ("alice" in "Alice Quux"). */
		for (j = 0; j < id->names->len; j++)
			step(pl, id->names->pdata[j],
			     !dc_name_sought_anywhere(id->names->pdata[j]),
			     id->label);
		step(pl, local, 1, s);
		g_free(local);
		for (j = 0; j < id->names->len; j++)
			handle_steps(pl, id->names->pdata[j], s);
		for (j = 0; j < id->names->len; j++) {
			char **w = g_strsplit_set(id->names->pdata[j],
						  " \t,\"'()-", -1);

			for (k = 0; w[k]; k++)
				step(pl, w[k], 1, id->label);
			g_strfreev(w);
		}
		redact_local_words(pl, id);
		tidy_steps(pl, id->label);
		g_free(addr);
		g_free(s);
	}
	if (pl->steps->len)
		pl->any = g_regex_new(pl->pats->str,
				      G_REGEX_CASELESS | G_REGEX_OPTIMIZE, 0,
				      NULL);
	g_string_free(pl->pats, TRUE);
	pl->pats = NULL;
	return pl;
}

G_LOCK_DEFINE_STATIC(last_plan);
static plan_t *last_plan;

static plan_t *
plan_get(const dc_identity_set_t *set)
{
	guint64 serial = dc_identity_set_serial(set);
	plan_t *pl = NULL, *old = NULL;

	G_LOCK(last_plan);
	if (last_plan && last_plan->serial == serial) {
		pl = last_plan;
		g_atomic_int_inc(&pl->ref);
	}
	G_UNLOCK(last_plan);
	if (pl)
		return pl;
	pl = plan_build(set);
	g_atomic_int_inc(&pl->ref);
	G_LOCK(last_plan);
	old = last_plan;
	last_plan = pl;
	G_UNLOCK(last_plan);
	plan_unref(old);
	return pl;
}

/* A cap step's match all in lowercase is kept ("I will mark"). */
static gboolean
replace_cap(const GMatchInfo *mi, GString *out, gpointer with)
{
	char *m = g_match_info_fetch(mi, 0);
	const char *p;
	int cap = 0;

	for (p = m; p && *p && !cap; p = g_utf8_next_char(p))
		cap = g_unichar_isupper(g_utf8_get_char(p));
	g_string_append(out, cap ? (const char *)with : m);
	g_free(m);
	return FALSE;
}

/*
 * Most headers and parts name nobody: one search for any needle first,
 * and the needles one by one only when it finds something.  Exact: when
 * no needle matches the text, no replacement changes it, so no later
 * needle can match either.
 */
static void
apply(GArray *steps, char **t)
{
	guint i;

	for (i = 0; i < steps->len; i++) {
		step_t *st = &g_array_index(steps, step_t, i);
		char *r = st->cap ? g_regex_replace_eval(st->re, *t, -1, 0, 0,
							 replace_cap,
							 st->with, NULL) :
				    g_regex_replace_literal(st->re, *t, -1, 0,
							    st->with, 0, NULL);

		if (r) {
			g_free(*t);
			*t = r;
		}
	}
}

char *
dc_redact_text(const char *text, const dc_identity_set_t *set)
{
	char *valid = g_utf8_make_valid(text ? text : "", -1);
	/* Matched as a reader sees it: "&#81;uentin", "%71%2E..." and
	 * names with invisible characters inside are names too. */
	char *t = dc_text_normalise(valid);
	char *ids;
	plan_t *pl;

	g_free(valid);
	ids = redact_ids_in_text(t, set);

	if (ids) {
		g_free(t);
		t = ids;
	}
	pl = plan_get(set);

	if (pl->steps->len && (!pl->any || g_regex_match(pl->any, t, 0, NULL))) {
		apply(pl->steps, &t);
		apply(pl->tidy, &t);
	}
	plan_unref(pl);
	return t;
}

/* ---- messages ------------------------------------------------------- */

static void
redact_addresses(InternetAddressList *l, const dc_identity_set_t *set)
{
	int i, n = l ? internet_address_list_length(l) : 0;

	for (i = 0; i < n; i++) {
		InternetAddress *ia = internet_address_list_get_address(l, i);
		InternetAddressMailbox *mb;
		const dc_identity_t *id;
		char *s, *addr;

		if (INTERNET_ADDRESS_IS_GROUP(ia)) {
			redact_addresses(internet_address_group_get_members(
						 INTERNET_ADDRESS_GROUP(ia)),
					 set);
			continue;
		}
		mb = INTERNET_ADDRESS_MAILBOX(ia);
		id = dc_identity_find(set, internet_address_mailbox_get_addr(mb));
		if (!id) {
			/* Someone else: a reporter's name may still be in
			 * the display name ("X via Y"). */
			const char *name = internet_address_get_name(ia);
			const char *a = internet_address_mailbox_get_addr(mb);

			if (name) {
				s = dc_redact_text(name, set);
				if (strcmp(s, name))
					internet_address_set_name(ia, s);
				g_free(s);
			}
			/* Another address of a reporter (Reply-To, a second
			 * account): the same stand-in wherever it is. */
			if (a && dc_identity_in_token(set, a)) {
				s = dc_redact_msgid(a, set);
				internet_address_mailbox_set_addr(mb, s);
				g_free(s);
			}
			continue;
		}
		s = slug(id->label);
		addr = g_strconcat(s, "@redacted.invalid", NULL);
		internet_address_set_name(ia, id->label);
		internet_address_mailbox_set_addr(mb, addr);
		g_free(addr);
		g_free(s);
	}
}

static int
is_address_header(const char *name)
{
	static const char *const names[] = { "From", "To", "Cc", "Bcc",
					     "Reply-To", "Sender", NULL };

	return name_in(names, name);
}

static int
is_msgid_header(const char *name)
{
	static const char *const names[] = { "Message-ID", "In-Reply-To",
					     "References", "Resent-Message-ID",
					     NULL };

	return name_in(names, name);
}

/* Message-IDs that hold someone, rewritten the same way in every header
 * and message of the packet, so that threading still works in it. */
static void
redact_msgid_header(GMimeObject *obj, GMimeHeader *h,
		    const dc_identity_set_t *set)
{
	GMimeReferences *refs =
		g_mime_references_parse(NULL, g_mime_header_get_raw_value(h));
	GString *v = g_string_new(NULL);
	int i, n = refs ? g_mime_references_length(refs) : 0, changed = 0;

	for (i = 0; i < n; i++) {
		const char *id = g_mime_references_get_message_id(refs, i);
		char *red = dc_redact_msgid(id, set);

		changed |= strcmp(red, id) != 0;
		g_string_append_printf(v, "%s<%s>", i ? " " : "", red);
		g_free(red);
	}
	if (changed && GMIME_IS_MESSAGE(obj) &&
	    !g_ascii_strcasecmp(g_mime_header_get_name(h), "Message-ID")) {
		/* Without its brackets: GMime adds them. */
		char *bare = g_strndup(v->str + 1, v->len - 2);

		g_mime_message_set_message_id(GMIME_MESSAGE(obj), bare);
		g_free(bare);
	} else if (changed) {
		g_mime_header_set_value(h, NULL, v->str, NULL);
	}
	if (refs)
		g_mime_references_free(refs);
	g_string_free(v, TRUE);
}

static void
redact_headers(GMimeObject *obj, const dc_identity_set_t *set)
{
	GMimeHeaderList *hl = g_mime_object_get_header_list(obj);
	int i;

	for (i = g_mime_header_list_get_count(hl) - 1; i >= 0; i--) {
		GMimeHeader *h = g_mime_header_list_get_header_at(hl, i);
		const char *name = g_mime_header_get_name(h);
		const char *raw;
		char *dec, *red;

		if (dc_redact_drops_header(name)) {
			g_mime_header_list_remove_at(hl, i);
			continue;
		}
		if (GMIME_IS_MESSAGE(obj) && is_address_header(name))
			continue;
		if (is_msgid_header(name)) {
			redact_msgid_header(obj, h, set);
			continue;
		}
		if (!g_ascii_strcasecmp(name, "Content-Type") ||
		    !g_ascii_strcasecmp(name, "Content-Disposition"))
			continue;
		raw = g_mime_header_get_raw_value(h);
		if (!raw)
			continue;
		dec = g_mime_utils_header_decode_text(NULL, raw);
		red = dc_redact_text(dec, set);
		if (strcmp(dec, red)) {
			char *v = g_strstrip(red);

			g_mime_header_set_value(h, NULL, v, "utf-8");
		}
		g_free(red);
		g_free(dec);
	}
}

static GMimeObject *redact_object(GMimeObject *obj,
				  const dc_identity_set_t *set);

static void
redact_message(GMimeMessage *m, const dc_identity_set_t *set)
{
	static const GMimeAddressType types[] = {
		GMIME_ADDRESS_TYPE_SENDER, GMIME_ADDRESS_TYPE_FROM,
		GMIME_ADDRESS_TYPE_REPLY_TO, GMIME_ADDRESS_TYPE_TO,
		GMIME_ADDRESS_TYPE_CC, GMIME_ADDRESS_TYPE_BCC,
	};
	GMimeObject *body, *r;
	guint i;

	for (i = 0; i < G_N_ELEMENTS(types); i++)
		redact_addresses(g_mime_message_get_addresses(m, types[i]),
				 set);
	redact_headers(GMIME_OBJECT(m), set);
	body = g_mime_message_get_mime_part(m);
	if (body && (r = redact_object(body, set))) {
		g_mime_message_set_mime_part(m, r);
		g_object_unref(r);
	}
}

/* The file name and the name parameter, decoded (RFC 2047, RFC 2231)
 * by GMime, redacted, and encoded again when they changed. */
static void
redact_params(GMimeObject *obj, const dc_identity_set_t *set)
{
	GMimeContentType *ct = g_mime_object_get_content_type(obj);
	GMimeContentDisposition *cd =
		g_mime_object_get_content_disposition(obj);
	const char *v;
	char *r;

	if (ct && (v = g_mime_content_type_get_parameter(ct, "name"))) {
		r = dc_redact_text(v, set);
		if (strcmp(r, v))
			g_mime_object_set_content_type_parameter(obj, "name", r);
		g_free(r);
	}
	if (cd && (v = g_mime_content_disposition_get_parameter(cd,
								 "filename"))) {
		r = dc_redact_text(v, set);
		if (strcmp(r, v))
			g_mime_object_set_content_disposition_parameter(
				obj, "filename", r);
		g_free(r);
	}
}

static GMimeTextPart *
new_text_part(const char *text)
{
	GMimeTextPart *tp = g_mime_text_part_new_with_subtype("plain");

	g_mime_text_part_set_text(tp, text);
	return tp;
}

/*
 * What redaction cannot read is not copied: nothing unreadable passes as
 * clean.  The stub says what it was, so that the TAB knows it exists and
 * can ask for it.
 */
static GMimeObject *
stub(GMimePart *part)
{
	GMimeContentType *ct = g_mime_object_get_content_type(GMIME_OBJECT(part));
	GMimeDataWrapper *dw = g_mime_part_get_content(part);
	GMimeStream *mem = g_mime_stream_mem_new();
	GByteArray *bytes;
	char *type = ct ? g_mime_content_type_get_mime_type(ct) :
			  g_strdup("application/octet-stream");
	char *sum, *text;
	GMimeTextPart *tp;

	if (dw)
		g_mime_data_wrapper_write_to_stream(dw, mem);
	bytes = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, bytes->data,
					  bytes->len);
	text = g_strdup_printf(
		"[decorum: an attachment that redaction cannot read was not "
		"copied.\n type: %s\n size: %u bytes\n SHA-256: %s\n"
		"Ask the committee for it if the TAB needs it.]\n",
		type, bytes->len, sum);
	tp = new_text_part(text);
	g_free(text);
	g_free(sum);
	g_free(type);
	g_object_unref(mem);
	return GMIME_OBJECT(tp);
}

static GMimeObject *
redact_text_part(GMimeTextPart *tp, const dc_identity_set_t *set)
{
	GMimeContentEncoding enc =
		g_mime_part_get_content_encoding(GMIME_PART(tp));
	GMimeContentType *ct = g_mime_object_get_content_type(GMIME_OBJECT(tp));
	char *text = g_mime_text_part_get_text(tp);
	char *red;

	if (!text)
		return stub(GMIME_PART(tp));
	/* HTML is redacted as the text a reader sees: entities and tags can
	 * hide a name from a search of the markup. */
	if (ct && !g_ascii_strcasecmp(g_mime_content_type_get_media_subtype(ct),
				      "html")) {
		char *plain = dc_html_normalised(text);
		char *note = dc_redact_text(plain, set);
		char *body = g_strconcat("[decorum: an HTML part, as text]\n\n",
					 note, NULL);
		GMimeTextPart *n = new_text_part(body);

		g_free(body);
		g_free(note);
		g_free(plain);
		g_free(text);
		return GMIME_OBJECT(n);
	}
	red = dc_redact_text(text, set);
	if (strcmp(text, red)) {
		g_mime_text_part_set_text(tp, red);
		/* Keep the transfer encoding the sender chose (base64 stays
		 * base64), unless 7bit can no longer carry the text. */
		if (enc != GMIME_CONTENT_ENCODING_DEFAULT &&
		    !(enc == GMIME_CONTENT_ENCODING_7BIT &&
		      !g_str_is_ascii(red)))
			g_mime_part_set_content_encoding(GMIME_PART(tp), enc);
	}
	g_free(red);
	g_free(text);
	return NULL;
}

/* obj redacted in place, or its replacement (a new reference). */
static GMimeObject *
redact_object(GMimeObject *obj, const dc_identity_set_t *set)
{
	int i;

	redact_headers(obj, set);
	redact_params(obj, set);
	if (GMIME_IS_MULTIPART(obj)) {
		GMimeMultipart *mp = GMIME_MULTIPART(obj);

		for (i = 0; i < g_mime_multipart_get_count(mp); i++) {
			GMimeObject *r = redact_object(
				g_mime_multipart_get_part(mp, i), set);

			if (r) {
				g_mime_multipart_replace(mp, i, r);
				g_object_unref(r);
			}
		}
	} else if (GMIME_IS_MESSAGE_PART(obj)) {
		GMimeMessage *m =
			g_mime_message_part_get_message(GMIME_MESSAGE_PART(obj));

		if (m)
			redact_message(m, set);
	} else if (GMIME_IS_TEXT_PART(obj)) {
		return redact_text_part(GMIME_TEXT_PART(obj), set);
	} else if (GMIME_IS_PART(obj)) {
		return stub(GMIME_PART(obj));
	}
	return NULL;
}

dc_status_t
dc_redact_message(const char *data, size_t len, const dc_identity_set_t *set,
		  char **out, size_t *out_len, dc_error_t *err)
{
	GMimeStream *in = g_mime_stream_mem_new_with_buffer(data, len);
	GMimeParser *parser = g_mime_parser_new_with_stream(in);
	GMimeMessage *m = g_mime_parser_construct_message(parser, NULL);
	char *text;

	g_object_unref(parser);
	g_object_unref(in);
	*out = NULL;
	if (!m)
		return dc_fail(err, DC_E_DATA,
			       "a message of the case could not be parsed "
			       "for redaction");
	redact_message(m, set);
	text = g_mime_object_to_string(GMIME_OBJECT(m), NULL);
	g_object_unref(m);
	*out = text;
	*out_len = strlen(text);
	return DC_OK;
}
