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

dc_status_t
dc_mail_lookup_from(dc_mail_t *m, const char *message_id, char **from,
		    dc_error_t *err)
{
	void *db = dc_mail_notmuch(m);
	notmuch_message_t *msg = NULL;
	notmuch_status_t st;
	const char *f;
	int tries = 0;

	*from = NULL;
	if (!m || !message_id || !*message_id)
		return DC_OK;
	do
		st = notmuch_database_find_message(db, message_id, &msg);
	while (st != NOTMUCH_STATUS_SUCCESS && ++tries < DC_NOTMUCH_TRIES &&
	       dc_notmuch_reopen_if_stale(db, st));
	if (st != NOTMUCH_STATUS_SUCCESS)
		return dc_notmuch_fail(err, st, "looking up a report",
				       notmuch_database_status_string(db));
	if (!msg)
		return DC_OK;
	f = notmuch_message_get_header(msg, "from");
	if (f && *f)
		*from = g_strdup(f);
	notmuch_message_destroy(msg);
	return DC_OK;
}
