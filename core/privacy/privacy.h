/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Identities and the identity scan.  Before an export leaves decorum, its
 * bytes are searched for every participant's name and address in every
 * form a mail program might have written them in:
 *
 *   plain, ASCII-lowercased and Unicode case-folded (so "ZOË" finds "Zoë"),
 *   the address's local part alone (3 characters or more),
 *   each word of a name (3 or more) as a whole word,
 *   UTF-8 and ISO-8859-1 bytes,
 *   base64 of each at the 3 byte alignments (line breaks ignored), which
 *   covers base64 bodies and RFC 2047 B words,
 *   quoted-printable (soft line breaks ignored) and RFC 2047 Q words
 *   ("_" or "=20" for a space),
 *
 * each of the encoded forms for the identity as written, lowercased and
 * uppercased.  The report refuses to write and the packet fails when the
 * scan finds anything.
 */
#ifndef DC_PRIVACY_H
#define DC_PRIVACY_H

#include <glib.h>
#include <stddef.h>

#include "core/mail/mail.h"
#include "core/base/status.h"
#include "store/store.h"

typedef struct dc_identity {
	char *label;   /* "Reporter A", "participant 3": safe to print */
	GPtrArray *names; /* display names (char *), may be empty */
	/* Where each name was found (const char *, static, or NULL when
	 * unknown), parallel to names: one of the DC_SOURCE_ words. */
	GPtrArray *sources;
	char *address; /* lowercased */
	gint64 case_id; /* the case it was found in, 0 when unknown */
} dc_identity_t;

typedef struct dc_identity_set dc_identity_set_t;

dc_identity_set_t *dc_identity_set_new(void);
void dc_identity_set_free(dc_identity_set_t *s);
/* The same people, names, sources and ignored addresses, as they are:
 * nothing derived again (no Latin forms made), a serial and a key of
 * its own. */
dc_identity_set_t *dc_identity_set_copy(const dc_identity_set_t *from);
/*
 * Add a person (address may be NULL when only a name is known).  A known
 * address is merged: a name is added to it.  Returns the identity.
 */
const dc_identity_t *dc_identity_add(dc_identity_set_t *s, const char *label,
				     const char *name, const char *address);
/* Where a name was found, for dc_identity_add_form() and the case panel. */
#define DC_SOURCE_MAIL "mail headers"
#define DC_SOURCE_RECORDED "recorded"
#define DC_SOURCE_ALIAS "added by hand"
#define DC_SOURCE_LATIN "Latin form"
#define DC_SOURCE_SIGNATURE "signature"
#define DC_SOURCE_ATTRIBUTION "attribution"
#define DC_SOURCE_SALUTATION "salutation"
/* dc_identity_add(), saying where the name was found (source: one of
 * the DC_SOURCE_ strings, or NULL).  The Latin forms of the name are
 * added as DC_SOURCE_LATIN. */
const dc_identity_t *dc_identity_add_form(dc_identity_set_t *s,
					  const char *label, const char *name,
					  const char *address,
					  const char *source);

/*
 * Every form of a person that the identity scan looks for, and that the
 * redaction replaces: what the case panel and `decorum case people`
 * show, so that a human can see what will be redacted.  The scan
 * compiles its needles from this list and nothing else.
 */
typedef enum dc_form_kind {
	DC_FORM_ADDRESS,    /* the whole address */
	DC_FORM_DOMAIN,     /* its domain, when personal */
	DC_FORM_LOCAL,      /* its local part, as a whole word */
	DC_FORM_LOCAL_WORD, /* a word of the local part ("eleni") */
	DC_FORM_NAME,       /* a name, in any script, or its Latin form */
	DC_FORM_NAME_WORD,  /* a word of a name, as a whole word */
	DC_FORM_HANDLE,     /* a name glued ("qreporterson") */
} dc_form_kind_t;

typedef struct dc_form {
	dc_form_kind_t kind;
	char *text;
	guint name_no;	    /* 1-based name it comes from, 0: the address */
	const char *source; /* for a DC_FORM_NAME: where it was found */
} dc_form_t;

/* The forms of id (dc_form_t *, unique per kind); g_ptr_array_unref. */
GPtrArray *dc_identity_forms(const dc_identity_t *id);
/* Every form is sought as a whole word over the normalised text: the
 * alias "Quen" is not in "frequent", "eve@" not in "every".  A name in a
 * script written without spaces (Han, kana, Thai) is sought anywhere. */
int dc_name_sought_anywhere(const char *name);
/*
 * A word of a name or an address that is an everyday lowercase word
 * ("will", "mark"): alone it is sought only where it holds a capital
 * ("Will", "WILL"), so that "I will mark the thread" stays; the address,
 * a capitalised part and the name with any capital are still found.
 * dc_form_is_common: every word of text is one (then the same holds).
 */
int dc_word_is_common(const char *w);
int dc_form_is_common(const char *text);
/* How f is sought beyond the whole word: "only with a capital",
 * "anywhere", or NULL. */
const char *dc_form_rule(const dc_form_t *f);
/* "Quen (name, added by hand)", for the case panel and `case people`:
 * mail text, to be sanitized before the screen (g_free). */
char *dc_form_describe(const dc_form_t *f);
/* "address", "personal domain", "word of a name", ... */
const char *dc_form_kind_name(dc_form_kind_t kind);
guint dc_identity_count(const dc_identity_set_t *s);
/* The case the identities added from now on belong to, for the
 * messages of a refusal (dc_identity_hit_describe). */
void dc_identity_set_case(dc_identity_set_t *s, gint64 case_id);
/* An address of the committee (a registered member, the one acting, the
 * committee's own): the scan does not look inside it, so that "Eve
 * Example" is not found in carol@example.org. */
void dc_identity_set_ignore(dc_identity_set_t *s, const char *address);
/* dc_identity_set_ignore() for each address of list ("A <a@x>, b@y"). */
void dc_identity_ignore_list(dc_identity_set_t *s, const char *list);
/* A number no other set and no other state of this set ever has (it
 * changes with every dc_identity_add): what a cache of work derived from
 * the set is keyed by. */
guint64 dc_identity_set_serial(const dc_identity_set_t *s);
/* A random key of the set (32 hex digits), made when it was: what a
 * redaction derives its stand-ins for Message-IDs from, so that they are
 * the same throughout one packet and cannot be guessed back. */
const char *dc_identity_set_key(const dc_identity_set_t *s);
/* Does token (a Message-ID, a URL, a file name) hold one of the set's
 * people glued in: a local part, a word of an address or a name (four
 * letters or more), a whole name without its spaces, a personal domain?
 * Substrings count, case and accents aside. */
int dc_identity_in_token(const dc_identity_set_t *s, const char *token);
const dc_identity_t *dc_identity_get(const dc_identity_set_t *s, guint i);
/* The identity with this address (any case), or NULL. */
const dc_identity_t *dc_identity_find(const dc_identity_set_t *s,
				      const char *address);
/* Add every person in an address list ("A <a@x>, b@y"), skipping mailing
 * lists and role addresses (dc_address_is_person). */
void dc_identity_add_list(dc_identity_set_t *s, const char *label,
			  const char *list);

typedef struct dc_identity_hit {
	guint identity; /* index into the set */
	char form[64];  /* "address, base64", "name, case-folded", ... */
	guint form_no;  /* 1-based index of the name, 0: not a name */
	/* The line of the data as written where the hit starts: in an
	 * encoded form (base64, quoted-printable, an entity) the line that
	 * holds its first encoded byte.  For a hit that only the decoded
	 * mail shows (a part's body, an RFC 2047 header), the line of the
	 * message's "From " separator (1 for a lone message). */
	guint line;
	/* Where, for a human: "line 14"; or, inside decoded mail, "message
	 * 3 (line 120), part 1.2 (text/html, as text), line 14", "message
	 * 3 (line 120), header Subject", "message 1 (line 1), part 2
	 * (application/pdf), file name".  Parts are numbered as IMAP
	 * sections (RFC 3501): the parts of a multipart 1, 2, ..., nested
	 * ones 1.1, 1.2; a line of a part is a line of its decoded text. */
	char where[192];
} dc_identity_hit_t;

/* 1 and *hit when any identity shows in data, else 0. */
int dc_identity_scan(dc_identity_set_t *s, const char *data, size_t len,
		     dc_identity_hit_t *hit);
/*
 * What a refusal says about a hit, for a log or a terminal: the case,
 * where (what, e.g. "report" or "thread.mbox", and hit->where), whose (the
 * person's label or role, never the identity) and which form, then what
 * to do: "case 3, thread.mbox line 41: Reporter A's name (form 2,
 * base64). ...".  Free with g_free.
 */
char *dc_identity_hit_describe(const dc_identity_set_t *s, const char *what,
			       const dc_identity_hit_t *hit);
/* Scan a file; *found as above.  DC_E_IO when it cannot be read. */
dc_status_t dc_identity_scan_file(dc_identity_set_t *s, const char *path,
				  int *found, dc_identity_hit_t *hit,
				  dc_error_t *err);

/* text as a reader sees it: HTML character references and
 * percent-escapes decoded, default-ignorable code points dropped, NFKC
 * (g_free).  What redaction works on, so that "&#81;uentin" is found. */
char *dc_text_normalise(const char *text);
/* The text of an HTML document as core/mail/html.c converts it for the
 * screen (tags, comments, scripts and styles dropped, entities decoded,
 * a link's address kept), then dc_text_normalise() (g_free). */
char *dc_html_normalised(const char *html);

/* The handles a name of two words or more makes (ASCII, lowercased):
 * first and last name glued or joined by ".", "_", "-", either way
 * round, and initial plus surname ("qreporterson"); g_ptr_array_unref. */
GPtrArray *dc_name_handles(const char *name);

/* Public kernel lists archived on lore (vger, lists.linux.dev, ...). */
int dc_address_is_public_list(const char *address);
/* Did m go to a public list (To or Cc)?  Only such mail is on lore. */
int dc_message_is_public(const dc_message_t *m);
/* m's lore link when it went to a public list, else NULL: private mail
 * to the committee is on no archive, and its link would show its
 * Message-ID, which can name the sender (g_free). */
char *dc_message_lore_url(const dc_message_t *m);
/* A domain that names its people: not a big mail provider, not the
 * kernel's own hosts, not one reserved for documentation (RFC 2606). */
int dc_domain_is_personal(const char *domain);
/* Not a list, not a role address such as conduct@kernel.org. */
int dc_address_is_person(const char *address);

#endif
