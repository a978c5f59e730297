// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Message references in mail text (core/mail/link.h).
 */
#include <string.h>

#include <glib.h>

#include "core/mail/link.h"

/* The archives whose paths name a message by its Message-ID. */
static const char *const hosts[] = {
	"lore.kernel.org",
	"lkml.kernel.org",
	"patch.msgid.link",
	"msgid.link",
};

static int
known_host(const char *h, size_t n)
{
	guint i;

	for (i = 0; i < G_N_ELEMENTS(hosts); i++)
		if (strlen(hosts[i]) == n && !g_ascii_strncasecmp(h, hosts[i], n))
			return 1;
	return 0;
}

/* A Message-ID as found between brackets or in a path: not empty on
 * either side of its '@', no space or bracket. */
static char *
plausible(char *id)
{
	char *at;

	if (id[0] == '<' && id[1] && id[strlen(id) - 1] == '>') {
		memmove(id, id + 1, strlen(id));
		id[strlen(id) - 1] = '\0';
	}
	at = strchr(id, '@');
	if (!at || at == id || !at[1] || strpbrk(id, " \t<>"))
		g_clear_pointer(&id, g_free);
	return id;
}

/* The URL at p (which starts "http://" or "https://"); its length in *len. */
static char *
from_url(const char *p, size_t *len)
{
	const char *host, *path, *end;
	char **segs, *id = NULL;
	size_t n = strcspn(p, " \t<>\"'`");
	guint i;

	/* Punctuation after a URL in a sentence is not part of it. */
	while (n && strchr(".,;:!?)]}", p[n - 1]))
		n--;
	*len = n ? n : 1;
	host = strstr(p, "://") + 3;
	end = p + n;
	if (host >= end)
		return NULL;
	path = memchr(host, '/', end - host);
	if (!path || !known_host(host, path - host))
		return NULL;
	{
		char *rest = g_strndup(path + 1, end - path - 1);

		rest[strcspn(rest, "?#")] = '\0';
		segs = g_strsplit(rest, "/", -1);
		g_free(rest);
	}
	for (i = 0; segs[i] && !id; i++) {
		char *dec = g_uri_unescape_string(segs[i], NULL);

		if (dec && strchr(dec, '@'))
			id = plausible(dec);
		else
			g_free(dec);
	}
	g_strfreev(segs);
	return id;
}

char *
dc_link_message_id(const char *text)
{
	const char *p = text;

	if (!text)
		return NULL;
	while (*p) {
		size_t len = 1;
		char *id = NULL;

		if (!g_ascii_strncasecmp(p, "https://", 8) ||
		    !g_ascii_strncasecmp(p, "http://", 7)) {
			id = from_url(p, &len);
		} else if (*p == '<') {
			size_t n = strcspn(p + 1, "<> \t");

			if (p[1 + n] == '>' && !g_strstr_len(p + 1, n, "://")) {
				id = plausible(g_strndup(p + 1, n));
				len = n + 2;
			}
		}
		if (id)
			return id;
		p += len;
	}
	return NULL;
}
