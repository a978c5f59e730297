/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Which message a line of mail text points at: a lore link or a
 * <message-id>, so that Enter on it can open the thread.  Pure text work,
 * no index.
 */
#ifndef DC_LINK_H
#define DC_LINK_H

/*
 * The Message-ID (without angle brackets, g_free) of the first reference
 * in text, or NULL when there is none:
 *   https://lore.kernel.org/LIST/MSGID/..., .../r/MSGID, and the same on
 *   lkml.kernel.org, patch.msgid.link and msgid.link (the MSGID being
 *   the first path segment holding an '@', percent-decoded);
 *   <local@domain>, an '@' between non-empty parts and no space.
 * An address in angle brackets looks like a Message-ID too: the index
 * tells them apart.
 */
char *dc_link_message_id(const char *text);

#endif
