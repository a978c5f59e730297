// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * links.txt: every lore link and Message-ID that the case's mail and
 * notes cite, once each, and whether the notmuch index holds the message
 * (its subject and date) or not; then the lore links of the case's own
 * list mail.  A TAB member follows them without searching.
 *
 * A Message-ID is the one in a link (lore.kernel.org/LIST/ID,
 * lkml.kernel.org/r/ID, patch.msgid.link/ID) or an angle-bracketed id on
 * a line that says it is one ("Message-ID:", "In-Reply-To:",
 * "References:", "msgid") or that the index knows: "Name <address>" is
 * not one.
 *
 * Redacted, an id that names a reporter is the redaction's stand-in,
 * a link that does is left out, and every field the identity scan still
 * flags is replaced by a placeholder: fail closed, whatever the
 * redaction missed.
 */
#include <string.h>

#include "core/base/sanitize.h"
#include "core/export/packet-build.h"
#include "core/mail/lookup.h"
#include "core/privacy/redact.h"

#define MAX_ID 250 /* longer is no Message-ID anyone cites */

typedef struct cite {
	char *id;  /* Message-ID without brackets, or NULL (a link only) */
	char *url; /* the first link cited for it, or NULL */
	GPtrArray *where; /* char *: where it was cited, once each */
} cite_t;

typedef struct found {
	int in_index;
	char *subject;
	int64_t date;
} found_t;

typedef struct cites {
	dc_packet_build_t *p;
	dc_mail_t *mail;
	GPtrArray *list;   /* cite_t *, in the order first cited */
	GHashTable *by;    /* id, or the url of a link without one */
	GHashTable *index; /* id -> found_t *: notmuch asked once an id */
} cites_t;

static void
cite_free(gpointer data)
{
	cite_t *c = data;

	g_free(c->id);
	g_free(c->url);
	g_ptr_array_unref(c->where);
	g_free(c);
}

static void
found_free(gpointer data)
{
	found_t *f = data;

	g_free(f->subject);
	g_free(f);
}

static const found_t *
lookup(cites_t *cs, const char *id)
{
	found_t *f = g_hash_table_lookup(cs->index, id);

	if (!f) {
		f = g_new0(found_t, 1);
		f->in_index = dc_mail_lookup(cs->mail, id, &f->subject,
					     &f->date);
		g_hash_table_insert(cs->index, g_strdup(id), f);
	}
	return f;
}

static void
cite_add(cites_t *cs, const char *id, const char *url, const char *where)
{
	const char *key = id ? id : url;
	cite_t *c = g_hash_table_lookup(cs->by, key);

	if (!c) {
		c = g_new0(cite_t, 1);
		c->id = g_strdup(id);
		c->where = g_ptr_array_new_with_free_func(g_free);
		g_ptr_array_add(cs->list, c);
		g_hash_table_insert(cs->by, g_strdup(key), c);
	}
	if (!c->url && url)
		c->url = g_strdup(url);
	if (!dc_str_array_has(c->where, where))
		g_ptr_array_add(c->where, g_strdup(where));
}

static int
is_id(const char *s, size_t n)
{
	const char *at = memchr(s, '@', n);
	size_t i;

	if (!n || n > MAX_ID || !at || at == s || at == s + n - 1)
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] <= ' ' || s[i] == '<' || s[i] == '>' ||
		    s[i] == 0x7f)
			return 0;
	return !g_strstr_len(s, n, "://") && g_ascii_strncasecmp(s, "mailto:",
								  7);
}

/* The Message-ID in a link's path, or NULL (g_free). */
static char *
url_id(const char *url)
{
	static const struct {
		const char *host;
		int segment; /* which path segment is the id */
	} hosts[] = {
		{ "lore.kernel.org/", 1 },
		{ "lkml.kernel.org/", 1 },
		{ "patch.msgid.link/", 0 },
		{ "msgid.link/", 0 },
	};
	const char *path = strstr(url, "://");
	char **segs, *id = NULL;
	guint i, n;

	if (!path)
		return NULL;
	path += 3;
	for (i = 0; i < G_N_ELEMENTS(hosts); i++)
		if (!g_ascii_strncasecmp(path, hosts[i].host,
					 strlen(hosts[i].host)))
			break;
	if (i == G_N_ELEMENTS(hosts))
		return NULL;
	segs = g_strsplit_set(path + strlen(hosts[i].host), "/?#", -1);
	n = g_strv_length(segs);
	if ((guint)hosts[i].segment < n) {
		const char *seg = segs[hosts[i].segment];

		id = g_uri_unescape_string(seg, NULL);
		if (!id || !is_id(id, strlen(id))) {
			g_free(id);
			id = NULL;
		}
	}
	g_strfreev(segs);
	return id;
}

static int
url_host_known(const char *url)
{
	static const char *const hosts[] = {
		"lore.kernel.org/", "lkml.kernel.org/", "patch.msgid.link/",
		"msgid.link/",
	};
	const char *h = strstr(url, "://");
	guint i;

	for (i = 0; h && i < G_N_ELEMENTS(hosts); i++)
		if (!g_ascii_strncasecmp(h + 3, hosts[i], strlen(hosts[i])))
			return 1;
	return 0;
}

static int
url_char(unsigned char c)
{
	return c > ' ' && c != 0x7f && !strchr("<>\"'`()[]{}|\\^", c);
}

static void
scan_links(cites_t *cs, const char *text, const char *where)
{
	const char *p = text;

	while ((p = strstr(p, "http"))) {
		const char *q = p;
		char *url, *id;

		if (strncmp(p, "https://", 8) && strncmp(p, "http://", 7)) {
			p += 4;
			continue;
		}
		while (url_char(*q))
			q++;
		while (q > p && strchr(".,;:!?", q[-1]))
			q--;
		url = g_strndup(p, q - p);
		p = q;
		if (!url_host_known(url)) {
			g_free(url);
			continue;
		}
		id = url_id(url);
		cite_add(cs, id, url, where);
		g_free(id);
		g_free(url);
	}
}

/* Does the line up to s say that what follows is a Message-ID? */
static int
says_id(const char *line, const char *s)
{
	static const char *const words[] = {
		"message-id", "message id", "msgid", "in-reply-to",
		"references",
	};
	char *pre = g_ascii_strdown(line, s - line);
	int yes = 0;
	guint i;

	for (i = 0; i < G_N_ELEMENTS(words) && !yes; i++)
		yes = strstr(pre, words[i]) != NULL;
	g_free(pre);
	return yes;
}

static void
scan_ids(cites_t *cs, const char *text, const char *where)
{
	const char *line = text, *p;

	for (p = text; *p; p++) {
		const char *gt;
		char *id;

		if (*p == '\n') {
			line = p + 1;
			continue;
		}
		if (*p != '<')
			continue;
		for (gt = p + 1; *gt && *gt != '>' && *gt != '\n' &&
				 gt - p <= MAX_ID + 1;
		     gt++)
			;
		if (*gt != '>' || !is_id(p + 1, gt - p - 1))
			continue;
		id = g_strndup(p + 1, gt - p - 1);
		if (says_id(line, p) || lookup(cs, id)->in_index)
			cite_add(cs, id, NULL, where);
		g_free(id);
		p = gt;
	}
}

static void
scan(cites_t *cs, const char *text, const char *where)
{
	if (!text)
		return;
	scan_links(cs, text, where);
	scan_ids(cs, text, where);
}

/* A field of links.txt as it may leave: sanitized; when redacting, also
 * redacted, and a placeholder for whatever the scan still flags. */
static char *
field(cites_t *cs, const char *text, const char *placeholder)
{
	dc_packet_build_t *p = cs->p;
	dc_identity_hit_t hit;
	char *c;

	if (!p->o->redact)
		return dc_sanitize_line(text);
	c = dc_packet_clean(p, text);
	if (dc_identity_in_token(p->reporters, c) ||
	    dc_identity_scan(p->reporters, c, strlen(c), &hit)) {
		g_free(c);
		c = g_strdup(placeholder);
	}
	return c;
}

/* The id as the packet shows it: the redaction's stand-in when it
 * names a reporter. */
static char *
shown_id(cites_t *cs, const char *id)
{
	char *r, *f;

	if (!cs->p->o->redact)
		return dc_sanitize_line(id);
	r = dc_redact_msgid(id, cs->p->reporters);
	f = field(cs, r, "(a Message-ID left out: it names a reporter)");
	g_free(r);
	return f;
}

static void
cite_text(cites_t *cs, GString *out, const cite_t *c)
{
	dc_packet_build_t *p = cs->p;
	guint i;

	if (c->url) {
		/* A link is its id spelled out: no stand-in can replace it
		 * in a URL that still works. */
		char *u = p->o->redact && c->id &&
				  dc_identity_in_token(p->reporters, c->id) ?
			g_strdup("(a link left out: its Message-ID names a "
				 "reporter)") :
			field(cs, c->url, "(a link left out: it names a "
					  "reporter)");

		g_string_append_printf(out, "%s\n", u);
		g_free(u);
	}
	if (c->id) {
		const found_t *f = lookup(cs, c->id);
		char *id = shown_id(cs, c->id);

		g_string_append_printf(out, "%sMessage-ID: <%s>\n",
				       c->url ? "  " : "", id);
		if (f->in_index) {
			char *subj = field(cs, f->subject ? f->subject :
						       "(no subject)",
					   "(subject left out: it names a "
					   "reporter)");
			char *d = dc_packet_day(f->date);

			g_string_append_printf(out, "  in index: %s / %s\n",
					       subj, d ? d : "no date");
			g_free(subj);
			g_free(d);
		} else {
			g_string_append(out, "  not in index\n");
		}
		g_free(id);
	} else {
		g_string_append(out, "  (a link to no single message)\n");
	}
	g_string_append(out, "  cited in: ");
	for (i = 0; i < c->where->len; i++)
		g_string_append_printf(out, "%s%s", i ? ", " : "",
				       (char *)c->where->pdata[i]);
	g_string_append(out, "\n\n");
}

/* Where: the citing message by (shown) Message-ID, or a note by day. */
static char *
where_message(cites_t *cs, const char *id)
{
	char *s = shown_id(cs, id), *w = g_strdup_printf("message <%s>", s);

	g_free(s);
	return w;
}

dc_status_t
dc_packet_add_links(dc_packet_build_t *p, dc_mail_t *mail, dc_error_t *err)
{
	GString *out = dc_packet_add_file(p, "links.txt");
	cites_t cs = { .p = p, .mail = mail };
	guint i;

	cs.list = g_ptr_array_new_with_free_func(cite_free);
	cs.by = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	cs.index = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					 found_free);
	for (i = 0; i < p->bodies->len; i++) {
		char *w = where_message(&cs, p->body_ids->pdata[i]);

		scan(&cs, p->bodies->pdata[i], w);
		g_free(w);
	}
	for (i = 0; i < p->c->notes->len; i++) {
		const dc_note_t *n = p->c->notes->pdata[i];
		char *d = dc_packet_iso(n->at);
		char *w = g_strdup_printf("a note of %s", d);

		scan(&cs, n->text, w);
		g_free(w);
		g_free(d);
	}
	g_string_append_printf(out, "Cited in the case's mail and notes: %u "
			       "link%s and Message-ID%s\n\n", cs.list->len,
			       cs.list->len == 1 ? "" : "s",
			       cs.list->len == 1 ? "" : "s");
	for (i = 0; i < cs.list->len; i++)
		cite_text(&cs, out, cs.list->pdata[i]);
	g_string_append(out, "The case's own messages on lore:\n");
	g_string_append(out, *p->links->str ? p->links->str :
			     "  none (no message of the case went to a "
			     "public list)\n");
	g_ptr_array_unref(cs.list);
	g_hash_table_destroy(cs.by);
	g_hash_table_destroy(cs.index);
	return DC_OK;
}
