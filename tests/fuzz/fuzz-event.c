// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The event encoding (core/case/event.c): the canonical encoding hashed into
 * the chain and the payload parser.  Any field may hold any bytes a user
 * or a mail could put there; the hash must stay a SHA-256 in hex, be the
 * same every time, and change when a byte moves from one field to the
 * next (the encoding is length-prefixed, so no value can imitate a field
 * boundary).  Payloads in GVariant text form must parse or be refused,
 * never crash, and a parsed payload must print back to what parses to the
 * same value, as the store keeps it.
 *
 * Input: 16 bytes of case id and time, then actor, type, data_sha256,
 * prev_hash and data separated by NUL bytes.
 */
#include "core/case/event.h"
#include "tests/fuzz/fuzz.h"

static char *
take(const uint8_t **p, const uint8_t *end)
{
	const uint8_t *nul = memchr(*p, 0, end - *p);
	const uint8_t *stop = nul ? nul : end;
	char *s = g_strndup((const char *)*p, stop - *p);

	*p = nul ? nul + 1 : end;
	return s;
}

static int
is_hex64(const char *h)
{
	int i;

	for (i = 0; i < 64; i++)
		if (!g_ascii_isxdigit(h[i]) || g_ascii_isupper(h[i]))
			return 0;
	return h[64] == '\0';
}

static void
check_hash(dc_store_event_t *ev)
{
	char *h1 = dc_event_hash(ev), *h2 = dc_event_hash(ev), *h3;
	size_t alen = strlen(ev->actor);
	char *actor = ev->actor, *type = ev->type;

	FUZZ_ASSERT(is_hex64(h1));
	FUZZ_ASSERT(strcmp(h1, h2) == 0);
	/* Move the last byte of actor to the front of type. */
	if (alen > 0) {
		ev->actor = g_strndup(actor, alen - 1);
		ev->type = g_strdup_printf("%c%s", actor[alen - 1], type);
		h3 = dc_event_hash(ev);
		FUZZ_ASSERT(strcmp(h1, h3) != 0);
		g_free(h3);
		g_free(ev->actor);
		g_free(ev->type);
		ev->actor = actor;
		ev->type = type;
	}
	/* Another time is another event. */
	ev->at ^= 1;
	h3 = dc_event_hash(ev);
	FUZZ_ASSERT(strcmp(h1, h3) != 0);
	ev->at ^= 1;
	g_free(h3);
	g_free(h1);
	g_free(h2);
}

static void
check_payload(dc_store_event_t *ev)
{
	GVariant *v = dc_event_data(ev), *again;
	char *text, *s;

	s = dc_event_data_string(ev, ev->actor);
	g_free(s);
	if (!v)
		return;
	FUZZ_ASSERT(g_variant_is_of_type(v, G_VARIANT_TYPE("a{sv}")));
	text = g_variant_print(v, TRUE);
	again = g_variant_parse(G_VARIANT_TYPE("a{sv}"), text, NULL, NULL,
				NULL);
	FUZZ_ASSERT(again != NULL);
	FUZZ_ASSERT(g_variant_equal(v, again));
	g_variant_unref(again);
	g_free(text);
	g_variant_unref(v);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	dc_store_event_t ev = { 0 };

	if (size < 16)
		return 0;
	memcpy(&ev.case_id, p, 8);
	memcpy(&ev.at, p + 8, 8);
	p += 16;
	ev.actor = take(&p, end);
	ev.type = take(&p, end);
	ev.data_sha256 = take(&p, end);
	ev.prev_hash = take(&p, end);
	ev.data = p < end ? take(&p, end) : NULL;

	check_hash(&ev);
	check_payload(&ev);

	g_free(ev.actor);
	g_free(ev.type);
	g_free(ev.data_sha256);
	g_free(ev.prev_hash);
	g_free(ev.data);
	return 0;
}
