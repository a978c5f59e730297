/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The packet while it is built (internal to core/export/packet*.c): its
 * files in memory, in write order, and what every file's builder needs.
 * packet.c holds the frame (the mbox, decisions, conflicts, the final
 * scan, the atomic write); one file a builder beside it:
 *
 *   packet-timeline.c  timeline.txt and timeline.json
 *   packet-links.c     links.txt
 *   packet-cover.c     cover.eml, a MIME message with the files attached
 *   packet-manifest.c  MANIFEST.sha256 and its check (dc_packet_verify)
 */
#ifndef DC_PACKET_BUILD_H
#define DC_PACKET_BUILD_H

#include <glib.h>

#include "core/case/case.h"
#include "core/case/vote.h"
#include "core/export/packet.h"
#include "core/mail/anchor.h"
#include "core/privacy/privacy.h"

/* Where the packet goes unless --to says otherwise: the TAB's list. */
#define TAB_LIST "tech-board@lists.linux-foundation.org"

typedef struct dc_packet_build {
	const dc_packet_opts_t *o;
	dc_case_t *c;
	GPtrArray *names; /* file names, in write order */
	GPtrArray *datas; /* GString * */
	GString *links;   /* the lore links of the case's own mail */
	GPtrArray *bodies;   /* char *: each message's decoded text */
	GPtrArray *body_ids; /* char *: its Message-ID */
	unsigned messages;
	dc_anchor_state_t *mail; /* the case's mail as notmuch has it now */
	dc_identity_set_t *reporters;
	int guessed; /* no reporter recorded: the oldest sender taken */
	char *cover_scan; /* the cover without its attachments' bytes */
	int tab_members;  /* the TAB's size now (0: none recorded) */
} dc_packet_build_t;

/* A new, empty file of the packet. */
GString *dc_packet_add_file(dc_packet_build_t *p, const char *name);
/* "2026-10-09T08:15:00Z" and "2026-10-09" (NULL for 0), g_free. */
char *dc_packet_iso(int64_t t);
char *dc_packet_day(int64_t t);
/* Free text of the handlers or of mail: redacted when asked, then
 * sanitized to one line (NULL for NULL), g_free. */
char *dc_packet_clean(dc_packet_build_t *p, const char *text);
/* Should the timeline show event h (--final leaves undone events and
 * their undoing out)? */
int dc_packet_shows_event(const dc_packet_build_t *p, const dc_history_t *h);

dc_status_t dc_packet_add_timeline(dc_packet_build_t *p, dc_store_t *s,
				   dc_error_t *err);
dc_status_t dc_packet_add_links(dc_packet_build_t *p, dc_mail_t *mail,
				dc_error_t *err);
/* cover.eml, with every file added so far attached. */
void dc_packet_add_cover(dc_packet_build_t *p);
/* How the TAB's votes are counted: the tab.overturn_rule setting. */
dc_vote_rule_t dc_packet_vote_rule(void);
/* MANIFEST.sha256 over every file added so far: add it last. */
void dc_packet_add_manifest(dc_packet_build_t *p);

#endif
