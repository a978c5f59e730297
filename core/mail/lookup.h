/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * One message by its Message-ID, as the notmuch index has it: for
 * resolving the Message-IDs and lore links that mail and notes cite.
 */
#ifndef DC_LOOKUP_H
#define DC_LOOKUP_H

#include <stdint.h>

#include "core/mail/mail.h"

/*
 * 1 when message_id (without angle brackets) is in the index, with its
 * subject (decoded, not sanitized; g_free, may be NULL) and date in
 * *subject and *date (either may be NULL); 0 when it is not.
 */
int dc_mail_lookup(dc_mail_t *m, const char *message_id, char **subject,
		   int64_t *date);

/*
 * The From header of message_id as the index has it (decoded, not
 * sanitized; g_free) in *from, NULL when the message is not in the
 * index; an error when notmuch cannot say.
 */
dc_status_t dc_mail_lookup_from(dc_mail_t *m, const char *message_id,
				char **from, dc_error_t *err);

#endif
