// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The identity scan (see privacy.h).  Each identity is compiled once into
 * "needles", byte strings searched with memmem() in a few views of the
 * data: ASCII-lowercased, lowercased with quoted-printable soft breaks
 * removed, raw with line breaks removed (base64), and Unicode case-folded.
 */
#include <gmime/gmime.h>
#include <string.h>
#include <sys/random.h>

#include "core/case/case.h"
#include "core/mail/html.h"
#include "core/privacy/privacy.h"
#include "core/privacy/translit.h"

enum hay {
	HAY_LOWER, /* ASCII-lowercased */
	HAY_QP,    /* lowercased, "=\n" soft breaks removed */
	HAY_B64,   /* case kept, CR and LF removed */
	HAY_FOLD,  /* g_utf8_casefold of NFKC, when the data is UTF-8 */
	/* HTML entities and percent-escapes decoded, default-ignorable
	 * code points dropped, then as HAY_FOLD; searched with the
	 * HAY_FOLD needles. */
	HAY_DECODED,
	/* as HAY_DECODED but NFKC only, ASCII-lowered: its offsets are
	 * those of the decoded text with its case, for the cap needles */
	HAY_CASED,
	HAY_COUNT,
};

typedef struct needle {
	char *bytes;
	size_t len;
	enum hay hay;
	int word; /* must stand as a whole word */
	int cap;  /* found only with a capital in it (dc_word_is_common) */
	guint id;
	guint form_no; /* see dc_identity_hit_t */
	char *form;
} needle_t;

struct dc_identity_set {
	GPtrArray *ids;     /* dc_identity_t * */
	GPtrArray *needles; /* needle_t *, NULL until compiled */
	guint64 serial;     /* see dc_identity_set_serial() */
	gint64 case_id;     /* see dc_identity_set_case() */
	GPtrArray *ignore;  /* lowercased addresses: dc_identity_set_ignore */
	char key[33];       /* see dc_identity_set_key() */
};

static char *ascii_lower(const char *b, size_t len);

G_LOCK_DEFINE_STATIC(serials);
static guint64 last_serial;

static guint64
next_serial(void)
{
	guint64 n;

	G_LOCK(serials);
	n = ++last_serial;
	G_UNLOCK(serials);
	return n;
}

/* 32 hex digits from the kernel's random source (GLib's generator is not
 * meant for secrets); a clock-based value only if that fails. */
static void
random_key(char out[33])
{
	unsigned char b[16];
	size_t got = 0;
	ssize_t r;
	int i;

	while (got < sizeof(b)) {
		r = getrandom(b + got, sizeof(b) - got, 0);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (got < sizeof(b)) {
		guint64 t = (guint64)g_get_real_time() ^ next_serial();

		memcpy(b, &t, sizeof(t));
		memcpy(b + 8, &t, sizeof(t));
	}
	for (i = 0; i < 16; i++)
		g_snprintf(out + 2 * i, 3, "%02x", b[i]);
}

static void
identity_free(gpointer p)
{
	dc_identity_t *id = p;

	g_free(id->label);
	g_ptr_array_unref(id->names);
	g_ptr_array_unref(id->sources);
	g_free(id->address);
	g_free(id);
}

static void
needle_free(gpointer p)
{
	needle_t *n = p;

	g_free(n->bytes);
	g_free(n->form);
	g_free(n);
}

dc_identity_set_t *
dc_identity_set_new(void)
{
	dc_identity_set_t *s = g_new0(dc_identity_set_t, 1);

	s->ids = g_ptr_array_new_with_free_func(identity_free);
	s->ignore = g_ptr_array_new_with_free_func(g_free);
	s->serial = next_serial();
	random_key(s->key);
	return s;
}

dc_identity_set_t *
dc_identity_set_copy(const dc_identity_set_t *from)
{
	dc_identity_set_t *s = dc_identity_set_new();
	guint i, k;

	s->case_id = from->case_id;
	for (i = 0; i < from->ignore->len; i++)
		g_ptr_array_add(s->ignore, g_strdup(from->ignore->pdata[i]));
	for (i = 0; i < from->ids->len; i++) {
		const dc_identity_t *a = from->ids->pdata[i];
		dc_identity_t *id = g_new0(dc_identity_t, 1);

		id->label = g_strdup(a->label);
		id->names = g_ptr_array_new_with_free_func(g_free);
		id->sources = g_ptr_array_new();
		for (k = 0; k < a->names->len; k++)
			g_ptr_array_add(id->names, g_strdup(a->names->pdata[k]));
		/* The sources are static strings (DC_SOURCE_...). */
		for (k = 0; k < a->sources->len; k++)
			g_ptr_array_add(id->sources, a->sources->pdata[k]);
		id->address = g_strdup(a->address);
		id->case_id = a->case_id;
		g_ptr_array_add(s->ids, id);
	}
	return s;
}

const char *
dc_identity_set_key(const dc_identity_set_t *s)
{
	return s->key;
}

guint64
dc_identity_set_serial(const dc_identity_set_t *s)
{
	return s->serial;
}

void
dc_identity_set_free(dc_identity_set_t *s)
{
	if (!s)
		return;
	g_ptr_array_unref(s->ids);
	g_ptr_array_unref(s->ignore);
	if (s->needles)
		g_ptr_array_unref(s->needles);
	g_free(s);
}

void
dc_identity_set_case(dc_identity_set_t *s, gint64 case_id)
{
	s->case_id = case_id;
}

void
dc_identity_set_ignore(dc_identity_set_t *s, const char *address)
{
	guint i;

	if (!address || strlen(address) < 3)
		return;
	for (i = 0; i < s->ignore->len; i++)
		if (!g_ascii_strcasecmp(s->ignore->pdata[i], address))
			return;
	g_ptr_array_add(s->ignore, g_ascii_strdown(address, -1));
}

void
dc_identity_ignore_list(dc_identity_set_t *s, const char *list)
{
	InternetAddressList *l = list ? internet_address_list_parse(NULL, list)
				      : NULL;
	int i, n = l ? internet_address_list_length(l) : 0;

	for (i = 0; i < n; i++) {
		InternetAddress *ia = internet_address_list_get_address(l, i);

		if (INTERNET_ADDRESS_IS_MAILBOX(ia))
			dc_identity_set_ignore(
				s, internet_address_mailbox_get_addr(
					   INTERNET_ADDRESS_MAILBOX(ia)));
	}
	if (l)
		g_object_unref(l);
}

/* data with the committee's own addresses blanked, or NULL when it
 * holds none of them. */
static char *
mask_ignored(const dc_identity_set_t *s, const char *data, size_t len)
{
	char *low = NULL, *out = NULL;
	guint i;

	for (i = 0; i < s->ignore->len; i++) {
		const char *a = s->ignore->pdata[i];
		size_t n = strlen(a);
		char *p;

		/* Never the address of someone the scan looks for. */
		if (dc_identity_find(s, a))
			continue;
		if (!low)
			low = ascii_lower(data, len);
		p = low;
		while ((p = memmem(p, len - (p - low), a, n))) {
			if (!out)
				out = g_memdup2(data, len + 1);
			memset(out + (p - low), ' ', n);
			p += n;
		}
	}
	g_free(low);
	return out;
}

guint
dc_identity_count(const dc_identity_set_t *s)
{
	return s->ids->len;
}

const dc_identity_t *
dc_identity_get(const dc_identity_set_t *s, guint i)
{
	return i < s->ids->len ? s->ids->pdata[i] : NULL;
}

const dc_identity_t *
dc_identity_find(const dc_identity_set_t *s, const char *address)
{
	guint i;

	for (i = 0; address && i < s->ids->len; i++) {
		const dc_identity_t *id = s->ids->pdata[i];

		if (id->address && !g_ascii_strcasecmp(id->address, address))
			return id;
	}
	return NULL;
}

static int
has_name(const dc_identity_t *id, const char *name)
{
	guint i;

	for (i = 0; i < id->names->len; i++)
		if (!g_utf8_collate(id->names->pdata[i], name))
			return 1;
	return 0;
}

const dc_identity_t *
dc_identity_add_form(dc_identity_set_t *s, const char *label,
		     const char *name, const char *address, const char *source)
{
	dc_identity_t *id = (dc_identity_t *)dc_identity_find(s, address);
	char *n = name ? g_strstrip(g_strdup(name)) : NULL;

	if (!id) {
		id = g_new0(dc_identity_t, 1);
		id->label = g_strdup(label);
		id->names = g_ptr_array_new_with_free_func(g_free);
		id->sources = g_ptr_array_new();
		id->address = address ? g_ascii_strdown(address, -1) : NULL;
		id->case_id = s->case_id;
		g_ptr_array_add(s->ids, id);
	}
	if (n && *n && g_utf8_validate(n, -1, NULL) && !has_name(id, n)) {
		/* Every form of the name is one of its names: "Дмитрий
		 * Соколов" signs "Dmitry Sokolov" (core/privacy/translit.h). */
		GPtrArray *latin = dc_name_latin_forms(n);
		guint k;

		g_ptr_array_add(id->names, g_steal_pointer(&n));
		g_ptr_array_add(id->sources, (gpointer)source);
		for (k = 0; k < latin->len; k++)
			if (!has_name(id, latin->pdata[k])) {
				g_ptr_array_add(id->names,
						g_strdup(latin->pdata[k]));
				g_ptr_array_add(id->sources,
						(gpointer)DC_SOURCE_LATIN);
			}
		g_ptr_array_unref(latin);
	}
	g_free(n);
	s->serial = next_serial();
	if (s->needles) {
		g_ptr_array_unref(s->needles);
		s->needles = NULL;
	}
	return id;
}

const dc_identity_t *
dc_identity_add(dc_identity_set_t *s, const char *label, const char *name,
		const char *address)
{
	return dc_identity_add_form(s, label, name, address, NULL);
}

static const char *const public_lists[] = {
	"vger.kernel.org", "lists.linux.dev", "lists.infradead.org",
	"lists.ozlabs.org", "lists.sourceforge.net", "lists.freedesktop.org",
	"kvack.org", NULL,
};

int
dc_address_is_public_list(const char *address)
{
	const char *at = address ? strrchr(address, '@') : NULL;
	int i;

	for (i = 0; at && public_lists[i]; i++)
		if (!g_ascii_strcasecmp(at + 1, public_lists[i]))
			return 1;
	return 0;
}

int
dc_message_is_public(const dc_message_t *m)
{
	char *all = g_strjoin(",", m->to ? m->to : "", m->cc ? m->cc : "",
			      NULL);
	char **parts = g_strsplit_set(all, ",<> \t\r\n", -1);
	int pub = 0;
	guint i;

	for (i = 0; parts[i] && !pub; i++)
		pub = dc_address_is_public_list(parts[i]);
	g_strfreev(parts);
	g_free(all);
	return pub;
}

char *
dc_message_lore_url(const dc_message_t *m)
{
	return m && m->message_id && dc_message_is_public(m) ?
		       dc_lore_url(m->message_id) :
		       NULL;
}

int
dc_domain_is_personal(const char *domain)
{
	static const char *const shared[] = {
		/* the kernel's own */
		"kernel.org", "linux.dev", "linuxfoundation.org", "kvack.org",
		"infradead.org", "ozlabs.org", "freedesktop.org",
		"sourceforge.net", "lore.kernel.org",
		/* big providers */
		"gmail.com", "googlemail.com", "google.com", "yahoo.com",
		"yahoo.co.uk", "yahoo.co.jp", "ymail.com", "outlook.com",
		"hotmail.com", "live.com", "msn.com", "icloud.com", "me.com",
		"mac.com", "aol.com", "protonmail.com", "protonmail.ch",
		"proton.me", "pm.me", "gmx.de", "gmx.net", "gmx.com", "web.de",
		"posteo.de", "mailbox.org", "fastmail.com", "fastmail.fm",
		"zoho.com", "yandex.ru", "yandex.com", "mail.ru", "qq.com",
		"163.com", "126.com", "foxmail.com", "naver.com", "tutanota.com",
		"disroot.org", "riseup.net", "free.fr", "orange.fr",
		"btinternet.com", "comcast.net", "users.noreply.github.com",
		NULL,
	};
	static const char *const reserved[] = {
		"example.com", "example.org", "example.net", NULL,
	};
	static const char *const reserved_tld[] = {
		".invalid", ".test", ".example", ".localhost", ".local", NULL,
	};
	size_t n;
	int i;

	if (!domain || !strchr(domain, '.'))
		return 0;
	n = strlen(domain);
	for (i = 0; shared[i]; i++) {
		size_t k = strlen(shared[i]);

		/* the domain or a host under it (mail.gmail.com) */
		if (!g_ascii_strcasecmp(domain, shared[i]) ||
		    (n > k && domain[n - k - 1] == '.' &&
		     !g_ascii_strcasecmp(domain + n - k, shared[i])))
			return 0;
	}
	for (i = 0; reserved[i]; i++)
		if (!g_ascii_strcasecmp(domain, reserved[i]))
			return 0;
	for (i = 0; reserved_tld[i]; i++) {
		size_t k = strlen(reserved_tld[i]);

		if (n >= k && !g_ascii_strcasecmp(domain + n - k,
						  reserved_tld[i]))
			return 0;
	}
	return 1;
}

int
dc_address_is_person(const char *address)
{
	const char *at = address ? strrchr(address, '@') : NULL;

	if (!at || dc_address_is_public_list(address))
		return 0;
	/* Private lists (lists.linux-foundation.org, ...) are not people. */
	if (!g_ascii_strncasecmp(at + 1, "lists.", 6))
		return 0;
	return g_ascii_strcasecmp(address, "conduct@kernel.org") != 0;
}

void
dc_identity_add_list(dc_identity_set_t *s, const char *label,
		     const char *list)
{
	InternetAddressList *l;
	int i, n;

	if (!list || !*list)
		return;
	l = internet_address_list_parse(NULL, list);
	if (!l)
		return;
	n = internet_address_list_length(l);
	for (i = 0; i < n; i++) {
		InternetAddress *ia = internet_address_list_get_address(l, i);
		const char *addr;

		if (!INTERNET_ADDRESS_IS_MAILBOX(ia))
			continue;
		addr = internet_address_mailbox_get_addr(
			INTERNET_ADDRESS_MAILBOX(ia));
		if (dc_address_is_person(addr))
			dc_identity_add_form(s, label,
					     internet_address_get_name(ia), addr,
					     DC_SOURCE_MAIL);
	}
	g_object_unref(l);
}

GPtrArray *
dc_name_handles(const char *name)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	char *a = g_str_to_ascii(name ? name : "", "C");
	char *low = g_ascii_strdown(a, -1);
	char **w = g_strsplit_set(low, " \t,\"'().", -1);
	GPtrArray *words = g_ptr_array_new();
	static const char *const joins[] = { "", ".", "_", "-" };
	const char *first, *last;
	guint i;

	for (i = 0; w[i]; i++)
		if (*w[i] && g_ascii_isalpha(*w[i]))
			g_ptr_array_add(words, w[i]);
	if (words->len >= 2) {
		first = words->pdata[0];
		last = words->pdata[words->len - 1];
		for (i = 0; i < G_N_ELEMENTS(joins); i++) {
			g_ptr_array_add(out, g_strconcat(first, joins[i], last,
							 NULL));
			g_ptr_array_add(out, g_strconcat(last, joins[i], first,
							 NULL));
		}
		/* "qreporterson", "quentinr": only with a long part. */
		if (strlen(last) >= 5)
			g_ptr_array_add(out, g_strdup_printf("%c%s", *first,
							     last));
		if (strlen(first) >= 5)
			g_ptr_array_add(out, g_strdup_printf("%s%c", first,
							     *last));
	}
	g_ptr_array_unref(words);
	g_strfreev(w);
	g_free(low);
	g_free(a);
	return out;
}

/* ---- compiling needles ------------------------------------------------ */

static void
add_needle(GPtrArray *a, guint id, enum hay hay, int word, const char *b,
	   size_t len, const char *what, const char *enc)
{
	needle_t *n;
	guint i;

	if (len < 3)
		return;
	for (i = 0; i < a->len; i++) {
		n = a->pdata[i];
		if (n->hay == hay && n->word == word && n->len == len &&
		    !memcmp(n->bytes, b, len))
			return;
	}
	n = g_new0(needle_t, 1);
	n->bytes = g_memdup2(b, len);
	n->len = len;
	n->hay = hay;
	n->word = word;
	n->id = id;
	n->form = g_strdup_printf("%s, %s", what, enc);
	g_ptr_array_add(a, n);
}

static char *
ascii_lower(const char *b, size_t len)
{
	char *r = g_malloc(len + 1);
	size_t i;

	for (i = 0; i < len; i++)
		r[i] = g_ascii_tolower(b[i]);
	r[len] = 0;
	return r;
}

/* The base64 characters that only the bytes of b decide, when b starts k
 * bytes into the encoded data. */
static void
add_base64(GPtrArray *a, guint id, const char *b, size_t len,
	   const char *what)
{
	size_t k;

	for (k = 0; k < 3; k++) {
		guchar *buf = g_malloc0(len + k);
		size_t first = (k + 2) / 3 * 4, last = (k + len) / 3 * 4;
		char *enc;

		memcpy(buf + k, b, len);
		enc = g_base64_encode(buf, len + k);
		if (last > first + 3)
			add_needle(a, id, HAY_B64, 0, enc + first,
				   last - first, what, "base64");
		g_free(enc);
		g_free(buf);
	}
}

/* Quoted-printable (space as is) and RFC 2047 Q forms (space as "_" or
 * "=20", and a strict form escaping every non-alphanumeric byte). */
static void
add_qp(GPtrArray *a, guint id, const char *b, size_t len, const char *what,
       int word)
{
	static const char *const space[] = { " ", "_", "=20" };
	int v;

	for (v = 0; v < 4; v++) {
		GString *q = g_string_new(NULL);
		size_t i;

		for (i = 0; i < len; i++) {
			guchar c = b[i];

			if (c == ' ' && v < 3)
				g_string_append(q, space[v]);
			else if (v == 3 ? g_ascii_isalnum(c) :
					  c > 32 && c < 127 && c != '=' &&
						  c != '_' && c != '?')
				g_string_append_c(q, g_ascii_tolower(c));
			else
				g_string_append_printf(q, "=%02x", c);
		}
		add_needle(a, id, HAY_QP, word, q->str, q->len, what,
			   v ? "RFC 2047 Q" : "quoted-printable");
		g_string_free(q, TRUE);
	}
}

/* word: the plain and case-folded forms must stand as whole words (the
 * encoded forms cannot be told apart from their neighbours). */
static void
add_string(GPtrArray *a, guint id, const char *s, const char *what, int word)
{
	char *variants[3] = {
		g_strdup(s),
		g_utf8_strdown(s, -1),
		g_utf8_strup(s, -1),
	};
	char *nfc = g_utf8_normalize(s, -1, G_NORMALIZE_NFKC);
	char *fold = g_utf8_casefold(nfc ? nfc : s, -1);
	int v, cs;

	add_needle(a, id, HAY_FOLD, word, fold, strlen(fold), what,
		   "case-folded");
	for (v = 0; v < 3; v++) {
		for (cs = 0; cs < 2; cs++) {
			gsize blen = 0;
			char *b = cs ? g_convert(variants[v], -1, "ISO-8859-1",
						 "UTF-8", NULL, &blen, NULL) :
				       g_strdup(variants[v]);
			char *low;

			if (!b)
				continue;
			if (!cs)
				blen = strlen(b);
			low = ascii_lower(b, blen);
			add_needle(a, id, HAY_LOWER, word, low, blen, what,
				   cs ? "ISO-8859-1" : "plain");
			add_base64(a, id, b, blen, what);
			add_qp(a, id, b, blen, what, word);
			g_free(low);
			g_free(b);
		}
	}
	for (v = 0; v < 3; v++)
		g_free(variants[v]);
	g_free(fold);
	g_free(nfc);
}

/* Words of a name, on their own: "Rachel" in a signature. */
static int role_word(const char *local);

/*
 * The words of decorum's own export text (the report's and the packet's
 * headings, kinds, states, outcomes, labels).  A word of a name that is
 * one of them ("Sam Escalation", "Carol Committee") is not sought alone,
 * or every report would be refused for its own headings; the whole name
 * and the address still are.
 */
static int
boilerplate_word(const char *w)
{
	static const char *const words[] = {
		"admonition", "admonitions", "against", "abstain", "advice",
		"acknowledged", "amend", "apology", "approval", "block",
		"board", "case", "cases", "change", "chart", "closed",
		"coaching", "code", "column", "committee", "conduct",
		"conflict", "conflicts", "consultation", "consultations",
		"count", "counts", "cover", "days", "dear", "decided",
		"decision", "decisions", "document", "ending", "escalation",
		"escalations", "every", "expiring", "following", "force",
		"interest", "interpretation", "intro", "investigating",
		"kernel", "kind", "kinds", "last", "link", "links", "listed",
		"long", "longer", "manifest", "measure", "measures",
		"members", "message", "messages", "missing", "names", "new",
		"none", "not", "note", "notes", "open", "opened", "outcome",
		"outcomes", "overridden", "overturned", "packet", "pending",
		"per", "period", "person", "previous", "public", "quarter",
		"received", "recommends", "recorded", "recused", "redacted",
		"referral", "rejection", "remedial", "report", "reported",
		"reporter", "reporters", "reports", "requested", "requires",
		"row", "section", "starting", "state", "states", "summary",
		"tab", "tally", "technical", "advisory", "text", "than",
		"the", "these", "thread", "threads", "through", "timeline",
		"title", "trend", "utc", "value", "vote", "votes", "week",
		"weekly", "were", "withheld", "within", "action", "measure",
		/* The published form's (core/export/publish.c): its
		 * sentences, default categories, list and months. */
		"abstaining", "and", "apologise", "approve", "approved",
		"behaviour", "below", "brought", "can", "comments",
		"committee's", "complete", "concern", "content", "cycle",
		"cycles", "details", "development", "did", "education",
		"enforcement", "everyone", "for", "handled", "implementation",
		"incident", "linux", "maintainers", "needed", "one", "other",
		"overturning", "plain", "private", "process", "reached",
		"recommended", "referred", "rejected", "related", "release",
		"request", "resolving", "review", "scope", "still",
		"subject", "takes", "thank", "thirds", "towards", "two",
		"three", "four", "five", "six", "seven", "eight", "nine",
		"unacceptable", "under", "until", "upheld", "vger", "voting",
		"who", "with", "without", "worked", "you", "january",
		"february", "march", "april", "may", "june", "july",
		"august", "september", "october", "november", "december",
		NULL,
	};
	int i;

	for (i = 0; words[i]; i++)
		if (!g_ascii_strcasecmp(w, words[i]))
			return 1;
	return 0;
}

/* The words of name sought alone: 3 letters or more, not the whole
 * name, not a word of decorum's own text; roles: not the committee's
 * words either ("tech-board@": "tech", "board").  "-" splits too:
 * "Rashid" alone from "Al-Rashid". */
static void
name_words(const char *name, int roles, GPtrArray *out)
{
	char **w = g_strsplit_set(name, " \t,\"'()-", -1);
	guint i;

	for (i = 0; w[i]; i++)
		if (g_utf8_strlen(w[i], -1) >= 3 && strcmp(w[i], name) &&
		    !(roles && role_word(w[i])) && !boilerplate_word(w[i]))
			g_ptr_array_add(out, g_strdup(w[i]));
	g_strfreev(w);
}

/* One word needle, as a whole word: case-folded and ASCII-lowered. */
static void
add_word(GPtrArray *a, guint id, const char *w)
{
	char *nfc = g_utf8_normalize(w, -1, G_NORMALIZE_NFKC);
	char *fold = g_utf8_casefold(nfc ? nfc : w, -1);
	char *low = ascii_lower(w, strlen(w));

	add_needle(a, id, HAY_FOLD, 1, fold, strlen(fold), "part of a name",
		   "case-folded word");
	add_needle(a, id, HAY_LOWER, 1, low, strlen(low), "part of a name",
		   "word");
	g_free(low);
	g_free(fold);
	g_free(nfc);
}

/*
 * Local parts that are ordinary words of the committee's trade: on their
 * own ("the conduct committee", "a TAB case") they name nobody, and the
 * whole address is still searched.
 */
static int
role_word(const char *local)
{
	static const char *const words[] = {
		"conduct", "committee", "tab", "reports", "report", "case",
		"cases", "abuse", "security", "postmaster", "info", "admin",
		"contact", "help", "support", "noreply", "no-reply", "board",
		"team", "office", "mail", "list", "lists", NULL,
	};
	int i;

	for (i = 0; words[i]; i++)
		if (!g_ascii_strcasecmp(local, words[i]))
			return 1;
	return 0;
}

static void
form_free(gpointer p)
{
	dc_form_t *f = p;

	g_free(f->text);
	g_free(f);
}

static void
add_form(GPtrArray *out, dc_form_kind_t kind, const char *text,
	 guint name_no, const char *source)
{
	dc_form_t *f;
	guint i;

	if (!text || g_utf8_strlen(text, -1) < 3)
		return;
	for (i = 0; i < out->len; i++) {
		f = out->pdata[i];
		if (f->kind == kind && !strcmp(f->text, text))
			return;
	}
	f = g_new0(dc_form_t, 1);
	f->kind = kind;
	f->text = g_strdup(text);
	f->name_no = name_no;
	f->source = source;
	g_ptr_array_add(out, f);
}

static void
add_word_forms(GPtrArray *out, dc_form_kind_t kind, const char *name,
	       int roles, guint name_no)
{
	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	guint i;

	name_words(name, roles, w);
	for (i = 0; i < w->len; i++)
		add_form(out, kind, w->pdata[i], name_no, NULL);
	g_ptr_array_unref(w);
}

GPtrArray *
dc_identity_forms(const dc_identity_t *id)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(form_free);
	guint j, k;

	if (id->address) {
		const char *at = strrchr(id->address, '@');
		char *local = g_strndup(id->address,
					at ? (gsize)(at - id->address) :
					     strlen(id->address));

		add_form(out, DC_FORM_ADDRESS, id->address, 0, NULL);
		if (at && dc_domain_is_personal(at + 1)) {
			char *dom = g_strdup(at + 1);
			char *dot = strrchr(dom, '.');

			add_form(out, DC_FORM_DOMAIN, dom, 0, NULL);
			/* "reporterson-family dot net" */
			if (dot && dot - dom >= 4) {
				*dot = 0;
				add_form(out, DC_FORM_DOMAIN, dom, 0, NULL);
			}
			g_free(dom);
		}
		/* A whole word: "eve@" is not in "every". */
		if (!role_word(local))
			add_form(out, DC_FORM_LOCAL, local, 0, NULL);
		/* "eleni.papadopoulou": the name in Latin letters, as a
		 * signature may write it. */
		g_strdelimit(local, "._-+", ' ');
		add_word_forms(out, DC_FORM_LOCAL_WORD, local, 1, 0);
		g_free(local);
	}
	for (j = 0; j < id->names->len; j++) {
		GPtrArray *h = dc_name_handles(id->names->pdata[j]);

		add_form(out, DC_FORM_NAME, id->names->pdata[j], j + 1,
			 j < id->sources->len ? id->sources->pdata[j] : NULL);
		add_word_forms(out, DC_FORM_NAME_WORD, id->names->pdata[j], 0,
			       j + 1);
		for (k = 0; k < h->len; k++)
			add_form(out, DC_FORM_HANDLE, h->pdata[k], j + 1, NULL);
		g_ptr_array_unref(h);
	}
	return out;
}

/* Scripts written without spaces between words: a name in them is
 * sought anywhere, not as a whole word. */
int
dc_name_sought_anywhere(const char *name)
{
	const char *p;

	for (p = name; p && *p; p = g_utf8_next_char(p)) {
		GUnicodeScript sc = g_unichar_get_script(g_utf8_get_char(p));

		if (sc == G_UNICODE_SCRIPT_HAN ||
		    sc == G_UNICODE_SCRIPT_HIRAGANA ||
		    sc == G_UNICODE_SCRIPT_KATAKANA ||
		    sc == G_UNICODE_SCRIPT_THAI || sc == G_UNICODE_SCRIPT_LAO ||
		    sc == G_UNICODE_SCRIPT_KHMER)
			return 1;
	}
	return 0;
}

/* Given names and surnames that are also everyday lowercase words. */
static const char *const common_words[] = {
	"will",	  "mark",   "bill",   "rose",	"grace",  "hope",   "faith",
	"joy",	  "may",    "june",   "april",	"august", "frank",  "pat",
	"sue",	  "art",    "dawn",   "guy",	"jack",	  "ray",    "rich",
	"rob",	  "sky",    "summer", "autumn", "winter", "brown",  "black",
	"white",  "green",  "young",  "king",	"long",	  "short",  "small",
	"little", "hall",   "wood",   "stone",	"hill",	  "field",  "ford",
	"rice",	  "cook",   "baker",  "mason",	"hunter", "fisher", "bishop",
	"wells",  "banks",  "lane",   "price",	"cash",	  "chase",  "drew",
	"ivy",	  "lily",   "iris",   "holly",	"heather", "violet", "amber",
	"ruby",	  "pearl",  "crystal", "honor",	"noble",  "earnest", "major",
	"page",	  "bell",   "cross",  "rock",	"storm",  "day",    "fox",
	"wolf",	  "bird",   "swan",   "love",	"gay",	  "hart",   "moss",
	"marsh",  "pool",   "ash",    "gray",	"grey",	  "reed",   "rush",
	"sharp",  "strong", "sweet",  "wise",	"carter", "porter", "turner",
	"walker", "taylor", "miller", "smith",	"penny",  "sandy",  "rusty",
	"sunny",  "buck",   "bob",    "don",	"van",	  "von",    "del",
	"den",	  "bay",    "north",  "south",	"west",	  "east",   "best",
};

int
dc_word_is_common(const char *w)
{
	char *low;
	guint i;
	int hit = 0;

	if (!w || !g_str_is_ascii(w))
		return 0;
	low = g_ascii_strdown(w, -1);
	for (i = 0; !hit && i < G_N_ELEMENTS(common_words); i++)
		hit = !strcmp(low, common_words[i]);
	g_free(low);
	return hit;
}

int
dc_form_is_common(const char *text)
{
	char **w = g_strsplit_set(text ? text : "", " \t._-+", -1);
	guint i, n = 0;
	int all = 1;

	for (i = 0; all && w[i]; i++)
		if (*w[i]) {
			all = dc_word_is_common(w[i]);
			n++;
		}
	g_strfreev(w);
	return all && n > 0;
}

const char *
dc_form_kind_name(dc_form_kind_t kind)
{
	static const char *const names[] = {
		[DC_FORM_ADDRESS] = "address",
		[DC_FORM_DOMAIN] = "personal domain",
		[DC_FORM_LOCAL] = "local part of the address",
		[DC_FORM_LOCAL_WORD] = "word of the address",
		[DC_FORM_NAME] = "name",
		[DC_FORM_NAME_WORD] = "word of a name",
		[DC_FORM_HANDLE] = "name as a handle",
	};

	return kind < G_N_ELEMENTS(names) ? names[kind] : "form";
}

const char *
dc_form_rule(const dc_form_t *f)
{
	if (f->kind == DC_FORM_ADDRESS || f->kind == DC_FORM_DOMAIN)
		return NULL;
	if (dc_name_sought_anywhere(f->text))
		return "anywhere";
	if (f->kind == DC_FORM_NAME || f->kind == DC_FORM_LOCAL ||
	    f->kind == DC_FORM_HANDLE ? dc_form_is_common(f->text) :
					dc_word_is_common(f->text))
		return "only with a capital";
	return NULL;
}

char *
dc_form_describe(const dc_form_t *f)
{
	const char *rule = dc_form_rule(f);

	return g_strdup_printf("%s (%s%s%s%s%s)", f->text,
			       dc_form_kind_name(f->kind),
			       f->source ? ", " : "",
			       f->source ? f->source : "", rule ? ", " : "",
			       rule ? rule : "");
}

/* A form made of common words (dc_form_is_common): sought, as a whole
 * word, only where a capital letter is in it ("Will", "WILL MARK"),
 * in the decoded text with its case. */
static void
add_cap_word(GPtrArray *a, guint id, const char *w)
{
	char *low = g_ascii_strdown(w, -1);
	guint from = a->len;

	add_needle(a, id, HAY_CASED, 1, low, strlen(low), "part of a name",
		   "capitalised word");
	if (a->len > from)
		((needle_t *)a->pdata[from])->cap = 1;
	g_free(low);
}

/* The needles of one form (dc_identity_forms): the forms a committee
 * member sees are the forms searched, by construction. */
static void
compile_form(GPtrArray *a, guint i, const dc_form_t *f)
{
	const char *rule = dc_form_rule(f);
	guint from = a->len, k;

	switch (f->kind) {
	case DC_FORM_ADDRESS:
	case DC_FORM_DOMAIN:
		add_string(a, i, f->text, dc_form_kind_name(f->kind), 1);
		break;
	default:
		/* What the panel says (dc_form_rule) is what is sought. */
		if (rule && !strcmp(rule, "only with a capital"))
			add_cap_word(a, i, f->text);
		else if (f->kind == DC_FORM_LOCAL_WORD ||
			 f->kind == DC_FORM_NAME_WORD)
			add_word(a, i, f->text);
		else
			add_string(a, i, f->text, dc_form_kind_name(f->kind),
				   !rule);
		break;
	}
	for (k = from; k < a->len; k++)
		((needle_t *)a->pdata[k])->form_no = f->name_no;
}

static void
compile(dc_identity_set_t *s)
{
	guint i, j;

	if (s->needles)
		return;
	s->needles = g_ptr_array_new_with_free_func(needle_free);
	for (i = 0; i < s->ids->len; i++) {
		GPtrArray *forms = dc_identity_forms(s->ids->pdata[i]);

		for (j = 0; j < forms->len; j++)
			compile_form(s->needles, i, forms->pdata[j]);
		g_ptr_array_unref(forms);
	}
}

/* ---- identities glued into tokens ------------------------------------ */

/* needle (ASCII-folded) inside hay, when it is long enough to mean
 * someone. */
static int
inside(const char *hay, const char *needle, size_t min)
{
	return needle && strlen(needle) >= min && strstr(hay, needle);
}

static int
words_inside(const char *hay, const char *text, const char *seps)
{
	char *a = g_str_to_ascii(text, "C"), *low = g_ascii_strdown(a, -1);
	char **w = g_strsplit_set(low, seps, -1);
	GString *glued = g_string_new(NULL);
	int hit = 0;
	guint i;

	for (i = 0; w[i]; i++) {
		g_string_append(glued, w[i]);
		if (!role_word(w[i]) && !boilerplate_word(w[i]) &&
		    inside(hay, w[i], 4))
			hit = 1;
	}
	/* "quentinreporterson": the words glued together. */
	if (i > 1 && inside(hay, glued->str, 6))
		hit = 1;
	g_string_free(glued, TRUE);
	g_strfreev(w);
	g_free(low);
	g_free(a);
	return hit;
}

/* The identity glued into token, as its index + 1, or 0. */
static guint
token_identity(const dc_identity_set_t *s, const char *token)
{
	/* An id can carry escapes as any text can ("%71reporterson"). */
	char *norm = dc_text_normalise(token ? token : "");
	char *a = g_str_to_ascii(norm, "C");
	char *hay = g_ascii_strdown(a, -1);
	guint i, j;
	int hit = 0;

	g_free(norm);

	for (i = 0; !hit && i < s->ids->len; i++) {
		const dc_identity_t *id = s->ids->pdata[i];
		const char *at = id->address ? strrchr(id->address, '@') : NULL;

		if (id->address) {
			char *local = g_strndup(id->address,
						at ? (gsize)(at - id->address) :
						     strlen(id->address));

			hit = (!role_word(local) && inside(hay, local, 4)) ||
			      words_inside(hay, local, "._-+") ||
			      (at && dc_domain_is_personal(at + 1) &&
			       inside(hay, at + 1, 4));
			g_free(local);
		}
		for (j = 0; !hit && j < id->names->len; j++)
			hit = words_inside(hay, id->names->pdata[j],
					   " \t,\"'()-.");
	}
	g_free(hay);
	g_free(a);
	return hit ? i : 0;
}

int
dc_identity_in_token(const dc_identity_set_t *s, const char *token)
{
	return token_identity(s, token) != 0;
}

/* Message-IDs, addresses and lore links: every "x@y" token of text, for
 * an identity glued into it ("msg.qreporterson@example.net"), which the
 * word needles cannot see. */
static guint line_of(const GArray *starts, size_t offset);

static int
scan_tokens(const dc_identity_set_t *s, const char *text, size_t len,
	    dc_identity_hit_t *hit, const GArray *starts)
{
	static GRegex *re;
	GMatchInfo *mi = NULL;
	int found = 0;

	if (g_once_init_enter(&re)) {
		GRegex *r = g_regex_new("[^\\s<>\"'(),;:\\[\\]/=]+(?:@|%40)"
					"[A-Za-z0-9.-]+",
					G_REGEX_OPTIMIZE | G_REGEX_RAW, 0, NULL);

		g_once_init_leave(&re, r);
	}
	if (!re || !memchr(text, '@', len) ||
	    !g_regex_match_full(re, text, len, 0, 0, &mi, NULL)) {
		g_match_info_free(mi);
		return 0;
	}
	while (!found && g_match_info_matches(mi)) {
		char *tok = g_match_info_fetch(mi, 0);
		char *dec = g_uri_unescape_string(tok, NULL);
		guint id = token_identity(s, dec ? dec : tok);
		int st, en;

		if (id && hit) {
			g_match_info_fetch_pos(mi, 0, &st, &en);
			hit->identity = id - 1;
			hit->form_no = 0;
			g_strlcpy(hit->form,
				  "identity, inside a Message-ID or address",
				  sizeof(hit->form));
			hit->line = line_of(starts, st);
		}
		found = id != 0;
		g_free(dec);
		g_free(tok);
		g_match_info_next(mi, NULL);
	}
	g_match_info_free(mi);
	return found;
}

/* ---- scanning ------------------------------------------------------- */

/* Whether the character before (back) or at p is a letter or a digit;
 * a byte that is not UTF-8 counts as none, so that the hit stands. */
static int
word_char(const char *hay, const char *p, const char *end, int back)
{
	gunichar c;

	if (back) {
		if (p == hay)
			return 0;
		p = g_utf8_find_prev_char(hay, p);
		if (!p)
			return 0;
	} else if (p >= end) {
		return 0;
	}
	c = g_utf8_get_char_validated(p, end - p);
	if (c == (gunichar)-1 || c == (gunichar)-2)
		return g_ascii_isalnum(*p);
	return g_unichar_isalnum(c);
}

static int
has_capital(const char *p, size_t len)
{
	size_t i;

	for (i = 0; p && i < len; i++)
		if (g_ascii_isupper(p[i]))
			return 1;
	return 0;
}

/* n in hay; cased: the text with its case at the same offsets, for a cap
 * needle (NULL: none can match). */
static const char *
find(const char *hay, size_t hlen, const needle_t *n, const char *cased)
{
	const char *p = hay, *end = hay + hlen;

	if (n->cap && !cased)
		return NULL;
	while (p < end) {
		const char *m = memmem(p, end - p, n->bytes, n->len);

		if (!m)
			return NULL;
		if ((!n->word || (!word_char(hay, m, end, 1) &&
				  !word_char(hay, m + n->len, end, 0))) &&
		    (!n->cap || has_capital(cased + (m - hay), n->len)))
			return m;
		p = m + 1;
	}
	return NULL;
}

/*
 * Each view of the data keeps where each line of the data as written
 * begins in it (starts: size_t offsets, the first line's at 0), so that a
 * hit in a view is named by its line in the file: the line that holds
 * the hit's first byte as written.
 */
static guint
line_of(const GArray *starts, size_t offset)
{
	guint lo = 0, hi = starts ? starts->len : 0;

	/* The last line starting at or before offset. */
	while (hi - lo > 1) {
		guint mid = lo + (hi - lo) / 2;

		if (g_array_index(starts, size_t, mid) <= offset)
			lo = mid;
		else
			hi = mid;
	}
	return lo + 1;
}

static GArray *
new_starts(void)
{
	GArray *a = g_array_new(FALSE, FALSE, sizeof(size_t));
	size_t zero = 0;

	g_array_append_val(a, zero);
	return a;
}

static GArray *
line_starts(const char *data, size_t len)
{
	GArray *a = new_starts();
	size_t i, n;

	for (i = 0; i < len; i++)
		if (data[i] == '\n' && (n = i + 1) < len)
			g_array_append_val(a, n);
	return a;
}

static char *
strip(const char *data, size_t len, int soft_breaks, size_t *out_len,
      GArray **starts)
{
	char *r = g_malloc(len + 1);
	size_t i, o = 0;

	*starts = new_starts();
	for (i = 0; i < len; i++) {
		if (soft_breaks && data[i] == '=' && i + 1 < len &&
		    (data[i + 1] == '\n' ||
		     (data[i + 1] == '\r' && i + 2 < len &&
		      data[i + 2] == '\n'))) {
			i += data[i + 1] == '\r' ? 2 : 1;
			g_array_append_val(*starts, o);
			continue;
		}
		if (soft_breaks || (data[i] != '\r' && data[i] != '\n'))
			r[o++] = soft_breaks ? g_ascii_tolower(data[i]) :
					       data[i];
		if (data[i] == '\n')
			g_array_append_val(*starts, o);
	}
	r[o] = 0;
	*out_len = o;
	return r;
}

static char *decode_text(const char *data, size_t len, size_t *out_len);

/*
 * NFKC then case folding, line by line (neither joins nor splits lines),
 * after decode_text() when decode.  A line that is not UTF-8 is folded
 * with its invalid bytes as U+FFFD; when the data holds no valid UTF-8
 * at all, NULL.
 */
static char *
norm_text(const char *data, size_t len, int decode, int casefold,
	  size_t *out_len, GArray **starts)
{
	GString *o = g_string_sized_new(len + 1);
	const char *p = data, *end = data + len;
	int valid = g_utf8_validate(data, len, NULL);

	*starts = new_starts();
	if (!valid && !decode) {
		g_string_free(o, TRUE);
		*out_len = 0;
		return NULL;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = (nl ? nl : end) - p, dn = n;
		char *line = decode ? decode_text(p, n, &dn) :
				      g_strndup(p, n);
		char *nfc = g_utf8_normalize(line, dn, G_NORMALIZE_NFKC);
		char *fold = !nfc ? NULL :
			     casefold ? g_utf8_casefold(nfc, -1) :
					g_strdup(nfc);

		if (!fold) {
			char *ok = g_utf8_make_valid(line, dn);

			fold = casefold ? g_utf8_casefold(ok, -1) :
					  g_strdup(ok);
			g_free(ok);
		}
		g_string_append(o, fold);
		g_free(fold);
		g_free(nfc);
		g_free(line);
		if (!nl)
			break;
		g_string_append_c(o, '\n');
		p = nl + 1;
		if (p < end)
			g_array_append_val(*starts, o->len);
	}
	*out_len = o->len;
	return g_string_free(o, FALSE);
}

/* Invisible to a reader, so free to hide inside a name: U+00AD, the
 * zero-width characters, joiners, variation selectors, tag characters. */
static char *
fold_text(const char *data, size_t len, int decode, size_t *out_len,
	  GArray **starts)
{
	return norm_text(data, len, decode, 1, out_len, starts);
}

/* Decoded and NFKC, its case kept. */
static char *
cased_text(const char *data, size_t len, size_t *out_len, GArray **starts)
{
	return norm_text(data, len, 1, 0, out_len, starts);
}

static int
ignorable(gunichar c)
{
	return c == 0xad || c == 0x34f || (c >= 0x200b && c <= 0x200f) ||
	       (c >= 0x2060 && c <= 0x2064) || c == 0xfeff ||
	       (c >= 0x180b && c <= 0x180f) || (c >= 0xfe00 && c <= 0xfe0f) ||
	       (c >= 0xe0000 && c <= 0xe0fff);
}

static void
append_unichar(GString *o, gunichar c)
{
	if (c && g_unichar_validate(c) && !ignorable(c))
		g_string_append_unichar(o, c);
}

/* An HTML character reference at p ("&#113;", "&#x52;", "&amp;", with or
 * without the ";"): its code point and length, or 0. */
static size_t
html_entity(const char *p, const char *end, gunichar *c)
{
	static const struct {
		const char *name;
		gunichar c;
	} named[] = {
		{ "amp", '&' },	 { "lt", '<' },	   { "gt", '>' },
		{ "quot", '"' }, { "apos", '\'' }, { "nbsp", ' ' },
		{ "commat", '@' }, { "period", '.' }, { "hyphen", '-' },
		{ "lowbar", '_' }, { "plus", '+' },
	};
	const char *q = p + 1;
	guint64 v = 0;
	size_t i;

	if (q < end && *q == '#') {
		int hex = q + 1 < end && (q[1] == 'x' || q[1] == 'X');
		const char *d = q + 1 + hex, *e = d;

		while (e < end && e - d < 8 &&
		       (hex ? g_ascii_isxdigit(*e) : g_ascii_isdigit(*e))) {
			v = v * (hex ? 16 : 10) +
			    (hex ? g_ascii_xdigit_value(*e) : *e - '0');
			e++;
		}
		if (e == d)
			return 0;
		*c = v > 0x10ffff ? 0xfffd : (gunichar)v;
		return (e < end && *e == ';' ? e + 1 : e) - p;
	}
	for (i = 0; i < G_N_ELEMENTS(named); i++) {
		size_t n = strlen(named[i].name);

		if ((size_t)(end - q) >= n &&
		    !g_ascii_strncasecmp(q, named[i].name, n)) {
			*c = named[i].c;
			return (q + n < end && q[n] == ';' ? n + 1 : n) + 1;
		}
	}
	return 0;
}

/* One pass of HTML character references and percent-escapes over
 * data; 1 when it decoded any. */
static int
unescape_once(const char *data, size_t len, GByteArray *bytes)
{
	const char *p = data, *end = data + len;
	int any = 0;
	gunichar c;

	while (p < end) {
		size_t k;

		if (*p == '&' && (k = html_entity(p, end, &c))) {
			char u[8];
			int n = g_unichar_to_utf8(c, u);

			g_byte_array_append(bytes, (guint8 *)u, n);
			p += k;
			any = 1;
		} else if (*p == '%' && end - p >= 3 &&
			   g_ascii_isxdigit(p[1]) && g_ascii_isxdigit(p[2])) {
			guint8 b = g_ascii_xdigit_value(p[1]) * 16 +
				   g_ascii_xdigit_value(p[2]);

			g_byte_array_append(bytes, &b, 1);
			p += 3;
			any = 1;
		} else {
			g_byte_array_append(bytes, (const guint8 *)p, 1);
			p++;
		}
	}
	return any;
}

/* Escapes within escapes ("%26%23113%3B" is "&#113;" is "q") are undone
 * as a browser fed its own output would: up to so many times. */
#define UNESCAPE_ROUNDS 6

/*
 * The text a browser or a URL decoder would show: HTML character
 * references and percent-escapes decoded (percent-escapes may make UTF-8
 * sequences; escapes of escapes too), default-ignorable code points
 * dropped.  Invalid bytes are kept as Latin-1 so that nothing is lost.
 */
static char *
decode_text(const char *data, size_t len, size_t *out_len)
{
	GByteArray *bytes = g_byte_array_sized_new(len + 1);
	GString *o = g_string_sized_new(len + 1);
	int round = 1, more = unescape_once(data, len, bytes);
	const char *p, *end;
	gunichar c;

	while (more && round++ < UNESCAPE_ROUNDS &&
	       (memchr(bytes->data, '&', bytes->len) ||
		memchr(bytes->data, '%', bytes->len))) {
		GByteArray *next = g_byte_array_sized_new(bytes->len + 1);

		more = unescape_once((const char *)bytes->data, bytes->len,
				     next);
		g_byte_array_unref(bytes);
		bytes = next;
	}
	p = (const char *)bytes->data;
	end = p + bytes->len;
	while (p < end) {
		c = g_utf8_get_char_validated(p, end - p);
		if (c == (gunichar)-1 || c == (gunichar)-2) {
			append_unichar(o, (guchar)*p);
			p++;
			continue;
		}
		append_unichar(o, c);
		p = g_utf8_next_char(p);
	}
	g_byte_array_unref(bytes);
	*out_len = o->len;
	return g_string_free(o, FALSE);
}

char *
dc_text_normalise(const char *text)
{
	size_t n = 0;
	char *dec = decode_text(text ? text : "", text ? strlen(text) : 0, &n);
	char *nfkc = g_utf8_normalize(dec, n, G_NORMALIZE_NFKC);

	if (!nfkc)
		return dec;
	g_free(dec);
	return nfkc;
}

char *
dc_html_normalised(const char *html)
{
	char *text = dc_html_to_text(html ? html : "", html ? strlen(html) : 0);
	char *r = dc_text_normalise(text);

	g_free(text);
	return r;
}

static int
scan_flat(dc_identity_set_t *s, const char *data, size_t len,
	  dc_identity_hit_t *hit)
{
	char *hay[HAY_COUNT] = { 0 }, *masked, *cased;
	size_t hlen[HAY_COUNT] = { 0 };
	GArray *starts[HAY_COUNT] = { 0 };
	int found = 0;
	guint i;

	compile(s);
	if (!s->needles->len)
		return 0;
	/* The committee's own addresses name nobody the scan protects. */
	masked = mask_ignored(s, data, len);
	if (masked)
		data = masked;
	hay[HAY_LOWER] = ascii_lower(data, len);
	hlen[HAY_LOWER] = len;
	starts[HAY_LOWER] = line_starts(data, len);
	hay[HAY_QP] = strip(data, len, 1, &hlen[HAY_QP], &starts[HAY_QP]);
	hay[HAY_B64] = strip(data, len, 0, &hlen[HAY_B64], &starts[HAY_B64]);
	hay[HAY_FOLD] = fold_text(data, len, 0, &hlen[HAY_FOLD],
				  &starts[HAY_FOLD]);
	hay[HAY_DECODED] = fold_text(data, len, 1, &hlen[HAY_DECODED],
				     &starts[HAY_DECODED]);
	cased = cased_text(data, len, &hlen[HAY_CASED], &starts[HAY_CASED]);
	hay[HAY_CASED] = ascii_lower(cased, hlen[HAY_CASED]);
	for (i = 0; i < s->needles->len && !found; i++) {
		const needle_t *n = s->needles->pdata[i];
		enum hay h = n->hay;
		const char *m = NULL;

		if (hay[h])
			m = find(hay[h], hlen[h], n,
				 h == HAY_CASED ? cased : NULL);
		if (!m && h == HAY_FOLD && hay[HAY_DECODED]) {
			h = HAY_DECODED;
			m = find(hay[h], hlen[h], n, NULL);
		}
		if (!m)
			continue;
		found = 1;
		if (hit) {
			hit->identity = n->id;
			hit->form_no = n->form_no;
			g_strlcpy(hit->form, n->form, sizeof(hit->form));
			if (h == HAY_DECODED)
				g_strlcat(hit->form, ", decoded",
					  sizeof(hit->form));
			hit->line = line_of(starts[h], m - hay[h]);
		}
	}
	if (!found)
		found = scan_tokens(s, hay[HAY_DECODED], hlen[HAY_DECODED], hit,
				    starts[HAY_DECODED]);
	if (found && hit)
		g_snprintf(hit->where, sizeof(hit->where), "line %u",
			   hit->line);
	for (i = 0; i < HAY_COUNT; i++) {
		g_free(hay[i]);
		if (starts[i])
			g_array_unref(starts[i]);
	}
	g_free(cased);
	g_free(masked);
	return found;
}

/* ---- mail, decoded --------------------------------------------------- */

/* gzip data as text, or NULL. */
static char *
gunzip_text(const guint8 *b, gsize n)
{
	GConverter *z;
	GInputStream *mem, *in;
	GByteArray *out;
	guint8 buf[4096];
	gssize r = -1;
	char *t = NULL;

	if (n < 2 || b[0] != 0x1f || b[1] != 0x8b)
		return NULL;
	z = G_CONVERTER(g_zlib_decompressor_new(G_ZLIB_COMPRESSOR_FORMAT_GZIP));
	mem = g_memory_input_stream_new_from_data(b, n, NULL);
	in = g_converter_input_stream_new(mem, z);
	out = g_byte_array_new();
	/* A bomb is not read to its end: what is past 16 MiB is unread,
	 * and unread is not clean. */
	while (out->len < 16u << 20 &&
	       (r = g_input_stream_read(in, buf, sizeof(buf), NULL, NULL)) > 0)
		g_byte_array_append(out, buf, r);
	if (r == 0 && out->len < 16u << 20)
		t = g_utf8_make_valid((const char *)out->data, out->len);
	g_byte_array_unref(out);
	g_object_unref(in);
	g_object_unref(mem);
	g_object_unref(z);
	return t;
}

/*
 * One message of the second look, walked part by part: each header
 * value, file name and decoded text is scanned on its own, so that a hit
 * can be named by the message, the part and the line of its decoded
 * text (dc_identity_hit_t.where).
 */
typedef struct mime_walk {
	dc_identity_set_t *set;
	dc_identity_hit_t *hit;
	guint msg_no;	/* 1-based; 0: the data is one message */
	guint msg_line; /* the line of its "From " separator */
	int found;
} mime_walk_t;

/* The part at section path ("" for the message's own headers), for a
 * human: "part 1.2 (text/html)". */
static char *
part_label(GMimeObject *obj, const char *path)
{
	GMimeContentType *ct = g_mime_object_get_content_type(obj);
	char *type, *r;

	if (!*path)
		return g_strdup("");
	type = ct ? g_mime_content_type_get_mime_type(ct) :
		    g_strdup("text/plain");
	r = g_strdup_printf("part %s (%s), ", path, type);
	g_free(type);
	return r;
}

/* Scan text as one piece of the message, named by what ("header
 * Subject", "part 2 (text/html), line"); lines: name the line in it. */
static void
walk_piece(mime_walk_t *w, const char *text, const char *what, int lines)
{
	dc_identity_hit_t h;
	char *n;
	GString *at;

	if (w->found || !text)
		return;
	n = dc_text_normalise(text);
	w->found = scan_flat(w->set, n, strlen(n), w->hit ? &h : NULL);
	g_free(n);
	if (!w->found || !w->hit)
		return;
	at = g_string_new(NULL);
	if (w->msg_no)
		g_string_append_printf(at, "message %u (line %u), ", w->msg_no,
				       w->msg_line);
	g_string_append(at, what);
	if (lines)
		g_string_append_printf(at, " %u", h.line);
	*w->hit = h;
	w->hit->line = w->msg_line;
	g_strlcpy(w->hit->where, at->str, sizeof(w->hit->where));
	g_strlcat(w->hit->form, ", decoded mail", sizeof(w->hit->form));
	g_string_free(at, TRUE);
}

/* A part that is not text and cannot be unpacked: a hit of its own. */
static void
walk_unreadable(mime_walk_t *w, GMimeObject *obj, const char *label)
{
	GMimeContentType *ct = g_mime_object_get_content_type(obj);
	char *type = ct ? g_mime_content_type_get_mime_type(ct) :
			  g_strdup("application/octet-stream");

	w->found = 1;
	if (w->hit) {
		memset(w->hit, 0, sizeof(*w->hit));
		w->hit->identity = G_MAXUINT;
		g_snprintf(w->hit->form, sizeof(w->hit->form),
			   "unreadable, %s", type);
		w->hit->line = w->msg_line;
		if (w->msg_no)
			g_snprintf(w->hit->where, sizeof(w->hit->where),
				   "message %u (line %u), %.*s", w->msg_no,
				   w->msg_line,
				   (int)MAX(strlen(label), 2) - 2, label);
		else
			g_snprintf(w->hit->where, sizeof(w->hit->where),
				   "%.*s", (int)MAX(strlen(label), 2) - 2,
				   label);
	}
	g_free(type);
}

static void
walk_leaf(mime_walk_t *w, GMimePart *part, const char *label)
{
	GMimeDataWrapper *dw = g_mime_part_get_content(part);
	GMimeStream *mem = g_mime_stream_mem_new();
	GByteArray *b;
	char *t, *what;

	if (dw)
		g_mime_data_wrapper_write_to_stream(dw, mem);
	b = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	t = gunzip_text(b->data, b->len);
	if (t) {
		what = g_strdup_printf("%sunpacked, line", label);
		walk_piece(w, t, what, 1);
		g_free(what);
		g_free(t);
	} else if (b->len) {
		walk_unreadable(w, GMIME_OBJECT(part), label);
	}
	g_object_unref(mem);
}

static void walk_object(mime_walk_t *w, GMimeObject *obj, const char *path);

/* The parts of a message's body: a multipart's are path.1, path.2, ...
 * (1, 2, ... at the top), a lone part is path.1 (1). */
static void
walk_body(mime_walk_t *w, GMimeObject *body, const char *path)
{
	int i, n = GMIME_IS_MULTIPART(body) ?
			   g_mime_multipart_get_count(GMIME_MULTIPART(body)) :
			   0;

	if (!GMIME_IS_MULTIPART(body)) {
		char *sub = *path ? g_strconcat(path, ".1", NULL) :
				    g_strdup("1");

		walk_object(w, body, sub);
		g_free(sub);
		return;
	}
	/* The multipart's own headers belong to the message's. */
	for (i = 0; i < n; i++) {
		GMimeObject *c = g_mime_multipart_get_part(GMIME_MULTIPART(body),
							  i);
		char *sub = *path ? g_strdup_printf("%s.%d", path, i + 1) :
				    g_strdup_printf("%d", i + 1);

		walk_object(w, c, sub);
		g_free(sub);
	}
}

static void
walk_headers(mime_walk_t *w, GMimeObject *obj, const char *label)
{
	GMimeHeaderList *hl = g_mime_object_get_header_list(obj);
	int i;

	for (i = 0; hl && i < g_mime_header_list_get_count(hl); i++) {
		GMimeHeader *h = g_mime_header_list_get_header_at(hl, i);
		char *what = g_strdup_printf("%sheader %s", label,
					     g_mime_header_get_name(h));

		walk_piece(w, g_mime_header_get_value(h), what, 0);
		g_free(what);
	}
}

static void
walk_text(mime_walk_t *w, GMimeObject *obj, const char *label)
{
	GMimeContentType *ct = g_mime_object_get_content_type(obj);
	char *t = g_mime_text_part_get_text(GMIME_TEXT_PART(obj));
	int html = t && ct &&
		   !g_ascii_strcasecmp(g_mime_content_type_get_media_subtype(ct),
				       "html");
	char *h = html ? dc_html_normalised(t) : NULL;
	/* "part 2 (text/html), line 3": drop the ", " for " as text". */
	char *what = g_strdup_printf("%.*s%s, line",
				     (int)MAX(strlen(label), 2) - 2, label,
				     html ? " as text" : "");

	walk_piece(w, h ? h : t, what, 1);
	g_free(what);
	g_free(h);
	g_free(t);
}

static void
walk_object(mime_walk_t *w, GMimeObject *obj, const char *path)
{
	GMimeContentType *ct = g_mime_object_get_content_type(obj);
	char *label = part_label(obj, path);
	const char *fn;

	walk_headers(w, obj, label);
	if (ct && (fn = g_mime_content_type_get_parameter(ct, "name"))) {
		char *what = g_strconcat(label, "name", NULL);

		walk_piece(w, fn, what, 0);
		g_free(what);
	}
	if (GMIME_IS_PART(obj) &&
	    (fn = g_mime_part_get_filename(GMIME_PART(obj)))) {
		char *what = g_strconcat(label, "file name", NULL);

		walk_piece(w, fn, what, 0);
		g_free(what);
	}
	if (w->found) {
		;
	} else if (GMIME_IS_MULTIPART(obj)) {
		GMimeMultipart *mp = GMIME_MULTIPART(obj);
		int i;

		for (i = 0; i < g_mime_multipart_get_count(mp); i++) {
			char *sub = g_strdup_printf("%s.%d", path, i + 1);

			walk_object(w, g_mime_multipart_get_part(mp, i), sub);
			g_free(sub);
		}
	} else if (GMIME_IS_MESSAGE_PART(obj)) {
		GMimeMessage *m =
			g_mime_message_part_get_message(GMIME_MESSAGE_PART(obj));
		GMimeObject *body = m ? g_mime_message_get_mime_part(m) : NULL;

		if (m)
			walk_headers(w, GMIME_OBJECT(m), label);
		if (body && !w->found)
			walk_body(w, body, path);
	} else if (GMIME_IS_TEXT_PART(obj)) {
		walk_text(w, obj, label);
	} else if (GMIME_IS_PART(obj)) {
		walk_leaf(w, GMIME_PART(obj), label);
	}
	g_free(label);
}

static void
walk_message(mime_walk_t *w, GMimeMessage *m)
{
	GMimeObject *body = g_mime_message_get_mime_part(m);

	walk_headers(w, GMIME_OBJECT(m), "");
	if (body && GMIME_IS_MULTIPART(body))
		walk_headers(w, body, "");
	if (body && !w->found)
		walk_body(w, body, "");
}

/* Does data look like mail: an mbox, or a message's header? */
static int
looks_like_mail(const char *data, size_t len)
{
	const char *colon, *nl;

	if (len > 5 && !memcmp(data, "From ", 5))
		return 1;
	nl = memchr(data, '\n', len);
	colon = memchr(data, ':', nl ? (size_t)(nl - data) : len);
	return colon && colon > data && !memchr(data, ' ', colon - data) &&
	       memmem(data, len, "\n\n", 2);
}

/*
 * The second look at mail: each message of data parsed, its headers,
 * parameters and parts decoded as a mail program would show them (RFC
 * 2047 and 2231, transfer encodings, charsets with UTF-16, HTML as text,
 * gzip), and scanned as text.  A part that is not text and cannot be
 * unpacked is a hit of its own: nothing unreadable passes as clean.
 */
static int
scan_mail(dc_identity_set_t *s, const char *data, size_t len,
	  dc_identity_hit_t *hit)
{
	GMimeStream *in = g_mime_stream_mem_new_with_buffer(data, len);
	GMimeParser *parser = g_mime_parser_new_with_stream(in);
	int mbox = len > 5 && !memcmp(data, "From ", 5);
	mime_walk_t w = { s, hit, 0, 1, 0 };
	GArray *starts = line_starts(data, len);

	g_mime_parser_set_format(parser, mbox ? GMIME_FORMAT_MBOX :
						GMIME_FORMAT_MESSAGE);
	while (!w.found && !g_mime_parser_eos(parser)) {
		GMimeMessage *m = g_mime_parser_construct_message(parser, NULL);
		gint64 at = mbox ? g_mime_parser_get_mbox_marker_offset(parser) :
				   0;

		if (!m)
			break;
		if (mbox) {
			w.msg_no++;
			w.msg_line = line_of(starts, at > 0 ? (size_t)at : 0);
		}
		walk_message(&w, m);
		g_object_unref(m);
		if (!mbox)
			break;
	}
	g_array_unref(starts);
	g_object_unref(parser);
	g_object_unref(in);
	return w.found;
}

int
dc_identity_scan(dc_identity_set_t *s, const char *data, size_t len,
		 dc_identity_hit_t *hit)
{
	compile(s);
	if (!s->needles->len)
		return 0;
	if (scan_flat(s, data, len, hit))
		return 1;
	return looks_like_mail(data, len) && scan_mail(s, data, len, hit);
}

/* "Reporter A's", "the respondent's", "a participant's". */
static char *
whose(const dc_identity_t *id)
{
	const char *l = id && id->label ? id->label : "participant";

	if (g_ascii_isupper(*l))
		return g_strdup_printf("%s's", l);
	return g_strdup_printf("%s %s's",
			       !strcmp(l, "participant") ? "a" : "the", l);
}

/* "thread.mbox line 14", "thread.mbox, message 3 (line 120), part 2
 * (text/html) as text, line 14" (the case first when known). */
static void
append_where(GString *m, const dc_identity_set_t *s, const char *what,
	     const dc_identity_hit_t *hit)
{
	const dc_identity_t *id = dc_identity_get(s, hit->identity);
	gint64 case_id = id ? id->case_id : s->case_id;

	if (case_id)
		g_string_append_printf(m, "case %" G_GINT64_FORMAT ", ",
				       (gint64)case_id);
	if (!*hit->where)
		g_string_append_printf(m, "%s line %u", what, hit->line);
	else
		g_string_append_printf(m, "%s%s%s", what,
				       g_str_has_prefix(hit->where, "line ") ?
					       " " :
					       ", ",
				       hit->where);
}

char *
dc_identity_hit_describe(const dc_identity_set_t *s, const char *what,
			 const dc_identity_hit_t *hit)
{
	const dc_identity_t *id = dc_identity_get(s, hit->identity);
	const char *comma;
	GString *m = g_string_new(NULL);
	char *who, *kind;

	append_where(m, s, what, hit);
	if (hit->identity == G_MAXUINT) {
		g_string_append_printf(
			m, ": a part the scan cannot read (%s), in which "
			   "anyone could be named. Remove the attachment, or "
			   "export with --include-identities on purpose.",
			hit->form + strlen("unreadable, "));
		return g_string_free(m, FALSE);
	}
	who = whose(id);
	comma = strchr(hit->form, ',');
	kind = g_strndup(hit->form, comma ? (gsize)(comma - hit->form) :
					    strlen(hit->form));
	/* "a participant's name (a word of it ...)" reads better than
	 * "a participant's part of a name". */
	if (!strcmp(kind, "part of a name")) {
		g_free(kind);
		kind = g_strdup("name, a word of it");
	}
	g_string_append_printf(m, ": %s %s", who, kind);
	if (hit->form_no || comma) {
		g_string_append(m, " (");
		if (hit->form_no)
			g_string_append_printf(m, "form %u%s", hit->form_no,
					       comma ? ", " : "");
		if (comma)
			g_string_append(m, comma + 2);
		g_string_append(m, ")");
	}
	/* What to do, for each way out. */
	g_string_append(m, ". Remove it from the note or the mail it is in, "
			   "or remove the attachment that holds it");
	if (id && id->case_id)
		g_string_append_printf(m, "; a form redaction does not know "
				       "can be added with `decorum case alias "
				       "%" G_GINT64_FORMAT " PERSON TEXT`",
				       (gint64)id->case_id);
	g_string_append(m, "; --include-identities writes an identifiable "
			   "export on purpose.");
	g_free(kind);
	g_free(who);
	return g_string_free(m, FALSE);
}

dc_status_t
dc_identity_scan_file(dc_identity_set_t *s, const char *path, int *found,
		      dc_identity_hit_t *hit, dc_error_t *err)
{
	GError *ge = NULL;
	char *data = NULL;
	gsize len = 0;

	*found = 0;
	if (!g_file_get_contents(path, &data, &len, &ge)) {
		dc_fail(err, DC_E_IO, "scanning %s: %s", path, ge->message);
		g_error_free(ge);
		return DC_E_IO;
	}
	*found = dc_identity_scan(s, data, len, hit);
	g_free(data);
	return DC_OK;
}
