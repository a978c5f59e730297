// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * A message file as mail brings it (core/mail/message.c, GMime): the headers
 * are decoded (RFC 2047, charsets), the MIME tree walked, the body
 * decoded.  No input may crash the parser or hang it, and every field,
 * once through the display sanitizer, is clean: this is the path from a
 * mail file to the screen, the report and the TAB packet.
 */
#include <gmime/gmime.h>

#include "core/mail/message.h"
#include "tests/fuzz/fuzz.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	g_mime_init();
	return 0;
}

static void
show(const char *s, int text)
{
	g_free(fuzz_sanitize_checked(s, text));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	dc_message_t *msg = g_new0(dc_message_t, 1);
	guint i;

	dc_message_parse_bytes(msg, (const char *)data, size);
	FUZZ_ASSERT(msg->body != NULL);
	FUZZ_ASSERT(msg->attachments != NULL);
	show(msg->subject, 0);
	show(msg->from, 0);
	show(msg->to, 0);
	show(msg->cc, 0);
	show(msg->in_reply_to, 0);
	show(msg->body, 1);
	for (i = 0; i < msg->attachments->len; i++) {
		dc_attachment_t *a = msg->attachments->pdata[i];

		show(a->filename, 0);
		show(a->content_type, 0);
	}
	dc_message_free(msg);
	return 0;
}
