// SPDX-License-Identifier: GPL-3.0-or-later
/* One message by Message-ID (see core/mail/lookup.h). */
#include <notmuch.h>

#include "core/mail/lookup.h"

int
dc_mail_lookup(dc_mail_t *m, const char *message_id, char **subject,
	       int64_t *date)
{
	notmuch_message_t *msg = NULL;
	const char *subj;

	if (subject)
		*subject = NULL;
	if (date)
		*date = 0;
	if (!m || !message_id || !*message_id ||
	    notmuch_database_find_message(dc_mail_notmuch(m), message_id,
					  &msg) != NOTMUCH_STATUS_SUCCESS ||
	    !msg)
		return 0;
	subj = notmuch_message_get_header(msg, "subject");
	if (subject && subj && *subj)
		*subject = g_strdup(subj);
	if (date)
		*date = notmuch_message_get_date(msg);
	notmuch_message_destroy(msg);
	return 1;
}
