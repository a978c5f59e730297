/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Parsing one message file with GMime (internal to core). */
#ifndef DC_MESSAGE_H
#define DC_MESSAGE_H

#include "core/mail/mail.h"

/*
 * Fill the header fields, body and attachments of msg from the file at
 * path.  Problems are recorded in msg->flags and in the body text, never
 * returned: one broken message must not hide the rest of its thread.
 */
void dc_message_parse_file(dc_message_t *msg, const char *path);

/* The same for a message held in memory (for tests and fuzzing). */
void dc_message_parse_bytes(dc_message_t *msg, const char *data, size_t len);

/* The same with a text/html part shown through html_filter, a command
 * line ([mime] html; core/mail/html.h); NULL: the built-in converter. */
void dc_message_parse_file_html(dc_message_t *msg, const char *path,
				const char *html_filter);
void dc_message_parse_bytes_html(dc_message_t *msg, const char *data,
				 size_t len, const char *html_filter);

/* Free everything msg holds, and msg. */
void dc_message_free(dc_message_t *msg);

#endif
