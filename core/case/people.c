// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The people of a case (core/case/people.h): whom the identity scan and the
 * redaction look for.
 */
#include <string.h>

#include "core/mail/lookup.h"
#include "core/case/case.h"
#include "core/case/people.h"

static void
people_from_thread(const dc_thread_t *t, GHashTable *members,
		   dc_identity_set_t *people)
{
	dc_identity_set_t *tmp = dc_identity_set_new();
	guint i, k;

	for (i = 0; i < t->messages->len; i++) {
		const dc_message_t *m = t->messages->pdata[i];

		dc_identity_add_list(tmp, "participant", m->from);
		dc_identity_add_list(tmp, "participant", m->to);
		dc_identity_add_list(tmp, "participant", m->cc);
	}
	for (i = 0; i < dc_identity_count(tmp); i++) {
		const dc_identity_t *id = dc_identity_get(tmp, i);

		if (members && g_hash_table_contains(members, id->address))
			continue;
		if (!id->names->len)
			dc_identity_add(people, id->label, NULL, id->address);
		for (k = 0; k < id->names->len; k++)
			dc_identity_add(people, id->label, id->names->pdata[k],
					id->address);
	}
	dc_identity_set_free(tmp);
}

static void
add_reporter(dc_identity_set_t *reporters, const char *name,
	     const char *address)
{
	char label[32];

	if (dc_identity_find(reporters, address))
		return;
	g_snprintf(label, sizeof(label), "Reporter %c",
		   'A' + MIN(dc_identity_count(reporters), 25));
	dc_identity_add(reporters, label, name, address);
}

/* No reporter recorded: the sender of the thread's oldest message. */
static void
reporter_from_thread(const dc_thread_t *t, dc_identity_set_t *reporters)
{
	const dc_message_t *first = NULL;
	dc_identity_set_t *tmp;
	guint i;

	for (i = 0; i < t->messages->len; i++) {
		const dc_message_t *m = t->messages->pdata[i];

		if (!first || m->date < first->date)
			first = m;
	}
	if (!first)
		return;
	tmp = dc_identity_set_new();
	dc_identity_add_list(tmp, "reporter", first->from);
	for (i = 0; i < dc_identity_count(tmp); i++) {
		const dc_identity_t *id = dc_identity_get(tmp, i);

		add_reporter(reporters,
			     id->names->len ? id->names->pdata[0] : NULL,
			     id->address);
	}
	dc_identity_set_free(tmp);
}

/* The From of each message the case holds as a report, as reporters;
 * with skip_first, of each but the case's first report. */
static dc_status_t
report_senders(dc_mail_t *mail, const dc_case_t *c, int skip_first,
	       dc_identity_set_t *reporters, dc_error_t *err)
{
	guint i, k;

	for (i = 0; mail && c->mail && i < c->mail->len; i++) {
		const dc_store_mail_t *m = c->mail->pdata[i];
		dc_identity_set_t *tmp;
		char *from = NULL;
		dc_status_t st;

		if (g_strcmp0(m->role, "report"))
			continue;
		if (skip_first) {
			skip_first = 0;
			continue;
		}
		st = dc_mail_lookup_from(mail, m->message_id, &from, err);
		if (st != DC_OK)
			return st;
		if (!from)
			continue;
		tmp = dc_identity_set_new();
		dc_identity_add_list(tmp, "reporter", from);
		for (k = 0; k < dc_identity_count(tmp); k++) {
			const dc_identity_t *id = dc_identity_get(tmp, k);

			add_reporter(reporters,
				     id->names->len ? id->names->pdata[0] :
						      NULL,
				     id->address);
		}
		dc_identity_set_free(tmp);
		g_free(from);
	}
	return DC_OK;
}

dc_status_t
dc_case_people(dc_mail_t *mail, const dc_case_t *c, GHashTable *members,
	       dc_identity_set_t *people, dc_identity_set_t *reporters,
	       int *guessed, dc_thread_t **first_thread, dc_error_t *err)
{
	dc_status_t st = DC_OK;
	guint i;

	if (guessed)
		*guessed = 0;
	if (first_thread)
		*first_thread = NULL;
	for (i = 0; c->participants && i < c->participants->len; i++) {
		const dc_participant_t *p = c->participants->pdata[i];

		/* Handlers act for the committee; they are not its
		 * subject. */
		if (!strcmp(p->role, "handler"))
			continue;
		if (people)
			dc_identity_add(people, p->role, p->name, p->address);
		if (reporters && !strcmp(p->role, "reporter"))
			add_reporter(reporters, p->name, p->address);
	}
	/* Every report of the case has a reporter: the first and each
	 * one attached as another report of the incident.  Unless the
	 * committee recorded who reported, they are the reports' senders,
	 * and that is a guess.  A recorded reporter stands for the first
	 * report (whose From may be a list or a forwarder, or the public
	 * thread a maintainer tagged), not for the reports attached later:
	 * their senders are reporters too. */
	if (reporters) {
		guint recorded = dc_identity_count(reporters);

		st = report_senders(mail, c, recorded > 0, reporters, err);
		if (st != DC_OK)
			return st;
		if (guessed && !recorded)
			*guessed = dc_identity_count(reporters) > 0;
	}
	/* The forms a member added by hand belong to whoever has that
	 * address, wherever it was found; a reporter's forms go to the
	 * reporters too, once the reporter is known. */
	for (i = 0; c->aliases && i < c->aliases->len; i++) {
		const dc_alias_t *a = c->aliases->pdata[i];

		if (people)
			dc_identity_add(people, "participant", a->text,
					a->address);
	}
	for (i = 0; mail && i < c->threads->len; i++) {
		int first = reporters && i == 0 &&
			    !dc_identity_count(reporters);
		dc_thread_t *t = NULL;

		if (!people && !first)
			continue;
		st = dc_mail_thread(mail, c->threads->pdata[i], 1, &t, err);
		if (st != DC_OK)
			break;
		if (people)
			people_from_thread(t, members, people);
		if (first) {
			reporter_from_thread(t, reporters);
			if (guessed)
				*guessed = dc_identity_count(reporters) > 0;
		}
		if (first_thread && i == 0)
			*first_thread = t;
		else
			dc_thread_free(t);
	}
	for (i = 0; reporters && c->aliases && i < c->aliases->len; i++) {
		const dc_alias_t *a = c->aliases->pdata[i];

		if (dc_identity_find(reporters, a->address))
			dc_identity_add(reporters, NULL, a->text, a->address);
	}
	return st;
}

static void
copy_identity(dc_identity_set_t *to, const dc_identity_t *id)
{
	guint k;

	if (!id->names->len)
		dc_identity_add(to, id->label, NULL, id->address);
	for (k = 0; k < id->names->len; k++)
		dc_identity_add(to, id->label, id->names->pdata[k],
				id->address);
}

dc_status_t
dc_case_forms(dc_store_t *s, dc_mail_t *mail, const dc_case_t *c,
	      dc_identity_set_t **out, int *guessed, dc_error_t *err)
{
	dc_identity_set_t *people = dc_identity_set_new();
	dc_identity_set_t *reporters = dc_identity_set_new();
	GHashTable *members = NULL;
	dc_status_t st;
	guint i;

	*out = NULL;
	st = dc_member_addresses(s, &members, err);
	if (st == DC_OK)
		st = dc_case_people(mail, c, members, people, reporters,
				    guessed, NULL, err);
	if (st == DC_OK) {
		*out = dc_identity_set_new();
		for (i = 0; i < dc_identity_count(reporters); i++)
			copy_identity(*out, dc_identity_get(reporters, i));
		for (i = 0; i < dc_identity_count(people); i++)
			copy_identity(*out, dc_identity_get(people, i));
	}
	if (members)
		g_hash_table_unref(members);
	dc_identity_set_free(people);
	dc_identity_set_free(reporters);
	return st;
}

dc_status_t
dc_member_addresses(dc_store_t *s, GHashTable **out, dc_error_t *err)
{
	GPtrArray *all = NULL;
	dc_status_t st = dc_store_member_list(s, &all, err);
	guint i;

	*out = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (i = 0; st == DC_OK && i < all->len; i++) {
		const dc_store_member_t *m = all->pdata[i];

		g_hash_table_add(*out, g_ascii_strdown(m->address, -1));
	}
	if (all)
		g_ptr_array_unref(all);
	return st;
}
