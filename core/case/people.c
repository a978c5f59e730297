// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The people of a case (core/case/people.h): whom the identity scan and the
 * redaction look for.
 */
#include <string.h>

#include "core/mail/lookup.h"
#include "core/case/case.h"
#include "core/case/people.h"

/* id's names into to, each with where it was found. */
static void
copy_identity(dc_identity_set_t *to, const dc_identity_t *id)
{
	guint k;

	if (!id->names->len)
		dc_identity_add(to, id->label, NULL, id->address);
	for (k = 0; k < id->names->len; k++)
		dc_identity_add_form(to, id->label, id->names->pdata[k],
				     id->address,
				     k < id->sources->len ? id->sources->pdata[k] :
							    NULL);
}

/* ---- names the mail's text gives its people ------------------------- */

/* Words that close a mail or a line and look like a name at the end of
 * one ("Thanks", "Best"), and titles: never someone's name alone. */
static int
closing_word(const char *w)
{
	static const char *const words[] = {
		"thanks",  "thank",	"regards", "best",	 "cheers",
		"sincerely", "greetings", "kind",	 "warm",	 "yours",
		"bye",	   "later",	"ciao",	   "love",	 "hello",
		"hi",	   "dear",	"all",	   "everyone", "team",
		"mr",	   "mrs",	"ms",	   "mx",	 "dr",
		"prof",	   "sent",	"from",	   "the",	 "and",
	};
	char *low = g_utf8_strdown(w, -1);
	size_t n = strlen(low);
	guint i;
	int hit = 0;

	while (n && strchr(".,!:;", low[n - 1]))
		low[--n] = 0;
	for (i = 0; !hit && i < G_N_ELEMENTS(words); i++)
		hit = !strcmp(low, words[i]);
	g_free(low);
	return hit;
}

/* A person's name as mail writes it in a signature or an attribution:
 * one to four words, each starting with a capital letter ("Quentin
 * Reporterson", "Q. Reporterson", "Дмитрий"), nothing else; not a
 * closing word ("Thanks,") nor a sentence ending in a full stop. */
static int
looks_like_name(const char *t)
{
	static GRegex *re;
	size_t n = t ? strlen(t) : 0;
	char **w;
	int ok;
	guint i;

	if (g_once_init_enter(&re)) {
		GRegex *r = g_regex_new(
			"^\\p{Lu}[\\p{L}'\u2019.-]*(?:[ ]\\p{Lu}[\\p{L}'\u2019.-]*){0,3}$",
			G_REGEX_OPTIMIZE, 0, NULL);

		g_once_init_leave(&re, r);
	}
	if (!re || !t || g_utf8_strlen(t, -1) < 3 ||
	    g_utf8_strlen(t, -1) > 48 || !g_regex_match(re, t, 0, NULL))
		return 0;
	/* "Report." is a sentence; "Q." an initial. */
	if (t[n - 1] == '.' && (n < 2 || g_ascii_islower(t[n - 2]) ||
				(n > 2 && g_ascii_isalpha(t[n - 3]))))
		return 0;
	w = g_strsplit(t, " ", -1);
	ok = 1;
	for (i = 0; ok && w[i]; i++)
		ok = !closing_word(w[i]);
	g_strfreev(w);
	return ok;
}

/* The one person of set that a list ("A <a@x>, conduct@...") names, or
 * NULL: the committee and lists in it do not count.  seen (may be NULL)
 * keeps the answers for set's addresses as they are: a thread's mail
 * names the same few lists again and again, and parsing one makes the
 * Latin forms of every name in it. */
static char *
sole_person(const dc_identity_set_t *set, GHashTable *seen, const char *list)
{
	dc_identity_set_t *tmp;
	char *r = NULL;
	gpointer kept;
	guint i, n = 0;

	if (seen && list &&
	    g_hash_table_lookup_extended(seen, list, NULL, &kept))
		return g_strdup(kept);
	tmp = dc_identity_set_new();
	dc_identity_add_list(tmp, "x", list);
	for (i = 0; i < dc_identity_count(tmp); i++) {
		const char *a = dc_identity_get(tmp, i)->address;

		if (!dc_identity_find(set, a))
			continue;
		n++;
		g_free(r);
		r = g_strdup(a);
	}
	dc_identity_set_free(tmp);
	if (n != 1)
		g_clear_pointer(&r, g_free);
	if (seen && list)
		g_hash_table_insert(seen, g_strdup(list), g_strdup(r));
	return r;
}

/* name as a form of the person of set with address, if set has one. */
static void
name_for(dc_identity_set_t *set, const char *address, const char *name,
	 const char *source)
{
	const dc_identity_t *id = dc_identity_find(set, address);
	char *n = g_strstrip(g_strdup(name));

	if (id && looks_like_name(n))
		dc_identity_add_form(set, id->label, n, address, source);
	g_free(n);
}

/* The message of t that In-Reply-To header value names ("<id>"). */
static const dc_message_t *
message_by_id(const dc_thread_t *t, const char *header)
{
	char *id = header ? g_strstrip(g_strdup(header)) : NULL;
	const dc_message_t *r = NULL;
	size_t n;
	guint i;

	if (id && *id == '<') {
		memmove(id, id + 1, strlen(id));
		n = strcspn(id, ">");
		id[n] = 0;
	}
	for (i = 0; id && !r && i < t->messages->len; i++) {
		const dc_message_t *m = t->messages->pdata[i];

		if (!g_strcmp0(m->message_id, id))
			r = m;
	}
	g_free(id);
	return r;
}

/* The capitalised words that end text ("1 Dec 2026 Quentin Reporterson"
 * gives "Quentin Reporterson"), at most four. */
static char *
trailing_name(const char *text)
{
	char **w = g_strsplit(text, " ", -1);
	guint n = g_strv_length(w), from = n;
	char *r;

	while (from > 0 && n - from < 4 && *w[from - 1] &&
	       g_unichar_isupper(g_utf8_get_char(w[from - 1])))
		from--;
	r = from < n ? g_strjoinv(" ", w + from) : NULL;
	g_strfreev(w);
	return r;
}

/*
 * "On Tue, 1 Dec 2026, Quentin Reporterson <q@x> wrote:" names q@x;
 * without the address it names the sender of the message replied to.
 */
static void
attribution(dc_identity_set_t *set, GHashTable *seen, const dc_thread_t *t,
	    const dc_message_t *m, const char *line)
{
	static GRegex *re;
	GMatchInfo *mi = NULL;

	if (g_once_init_enter(&re)) {
		GRegex *r = g_regex_new(
			"^(?:On .*?(?:, |\\d ))?\"?([^<>\",]+?)\"?\\s*"
			"(?:<([^<>\\s]+@[^<>\\s]+)>\\s*)?(?:wrote|writes):\\s*$",
			G_REGEX_OPTIMIZE, 0, NULL);

		g_once_init_leave(&re, r);
	}
	if (re && g_regex_match(re, line, 0, &mi)) {
		char *name = g_match_info_fetch(mi, 1);
		char *addr = g_match_info_fetch(mi, 2);
		char *who = trailing_name(name);
		const dc_message_t *parent = message_by_id(t, m->in_reply_to);
		char *from = NULL;

		if ((!addr || !*addr) && parent)
			from = sole_person(set, seen, parent->from);
		if (who && addr && *addr)
			name_for(set, addr, who, DC_SOURCE_ATTRIBUTION);
		else if (who && from)
			name_for(set, from, who, DC_SOURCE_ATTRIBUTION);
		g_free(from);
		g_free(who);
		g_free(addr);
		g_free(name);
	}
	g_match_info_free(mi);
}

/* "Hi Quen," / "Dear Mr Reporterson," opening mail to one person. */
static void
salutation(dc_identity_set_t *set, GHashTable *seen, const dc_message_t *m,
	   const char *line)
{
	static GRegex *re;
	GMatchInfo *mi = NULL;
	char *to;

	if (g_once_init_enter(&re)) {
		GRegex *r = g_regex_new(
			"^(?:Hi|Hello|Hey|Dear|Good (?:morning|afternoon|"
			"evening))\\s+(?:(?:Mr|Mrs|Ms|Mx|Dr|Prof)\\.?\\s+)?"
			"(\\p{Lu}[\\p{L}'\u2019-]+(?: \\p{Lu}[\\p{L}'\u2019-]+)?)"
			"\\s*[,!.:]?\\s*$",
			G_REGEX_OPTIMIZE, 0, NULL);

		g_once_init_leave(&re, r);
	}
	if (!re || !g_regex_match(re, line, 0, &mi)) {
		g_match_info_free(mi);
		return;
	}
	to = sole_person(set, seen, m->to);
	if (to) {
		char *name = g_match_info_fetch(mi, 1);

		name_for(set, to, name, DC_SOURCE_SALUTATION);
		g_free(name);
	}
	g_free(to);
	g_match_info_free(mi);
}

/* A sign-off: the first line after "-- " that looks like a name, or,
 * without "-- ", the message's last line when it does. */
static void
signature(dc_identity_set_t *set, GHashTable *seen, const dc_message_t *m,
	  char **lines, guint after, guint until)
{
	char *from = sole_person(set, seen, m->from);
	guint i;

	for (i = after; from && i < until && i < after + 3; i++) {
		char *l = g_strstrip(g_strdup(lines[i]));

		if (*l) {
			name_for(set, from, l, DC_SOURCE_SIGNATURE);
			g_free(l);
			break;
		}
		g_free(l);
	}
	g_free(from);
}

static void
names_in_message(dc_identity_set_t *set, GHashTable *seen,
		 const dc_thread_t *t, const dc_message_t *m)
{
	char **lines = g_strsplit(m->body, "\n", -1);
	guint k, last = 0;
	int first = 1;

	for (k = 0; lines[k]; k++) {
		char *l = lines[k];

		g_strchomp(l);
		if (!strcmp(l, "--")) {
			/* "-- " chomped */
			signature(set, seen, m, lines, k + 1, G_MAXUINT);
			g_strfreev(lines);
			return;
		}
		if (*l == '>')
			continue;
		if (*l)
			last = k;
		attribution(set, seen, t, m, l);
		if (first && *l) {
			salutation(set, seen, m, l);
			first = 0;
		}
	}
	/* "Thanks,\nDmitry Sokolov" with no "-- " above it. */
	if (last > 0)
		signature(set, seen, m, lines, last, last + 1);
	g_strfreev(lines);
}

/*
 * The names that the text of the thread's mail gives the people of set:
 * signatures, attributions and salutations.  Only people set has already
 * (by address) get them: the text says how they are called, not who
 * else there is.
 */
static void
names_from_text(const dc_thread_t *t, dc_identity_set_t *set)
{
	/* Only names are added from here on, never an address: what
	 * sole_person found stays true to the end. */
	GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, g_free);
	guint i;

	for (i = 0; t && i < t->messages->len; i++) {
		const dc_message_t *m = t->messages->pdata[i];

		if (m->body)
			names_in_message(set, seen, t, m);
	}
	g_hash_table_destroy(seen);
}

static void
people_from_thread(const dc_thread_t *t, GHashTable *members,
		   dc_identity_set_t *people)
{
	dc_identity_set_t *tmp = dc_identity_set_new();
	guint i;

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
		copy_identity(people, id);
	}
	dc_identity_set_free(tmp);
}

static void
add_reporter(dc_identity_set_t *reporters, const char *name,
	     const char *address, const char *source)
{
	char label[32];

	if (dc_identity_find(reporters, address))
		return;
	g_snprintf(label, sizeof(label), "Reporter %c",
		   'A' + MIN(dc_identity_count(reporters), 25));
	dc_identity_add_form(reporters, label, name, address, source);
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
			     id->address, DC_SOURCE_MAIL);
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
				     id->address, DC_SOURCE_MAIL);
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
	GPtrArray *threads = NULL;
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
			dc_identity_add_form(people, p->role, p->name,
					     p->address, DC_SOURCE_RECORDED);
		if (reporters && !strcmp(p->role, "reporter"))
			add_reporter(reporters, p->name, p->address,
				     DC_SOURCE_RECORDED);
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
			dc_identity_add_form(people, "participant", a->text,
					     a->address, DC_SOURCE_ALIAS);
	}
	/* Each thread is kept to the end, for the names in its text. */
	if (mail && c->threads->len)
		threads = g_ptr_array_new();
	for (i = 0; mail && i < c->threads->len; i++) {
		int first = reporters && i == 0 &&
			    !dc_identity_count(reporters);
		dc_thread_t *t = NULL;

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
		g_ptr_array_add(threads, t);
	}
	for (i = 0; reporters && c->aliases && i < c->aliases->len; i++) {
		const dc_alias_t *a = c->aliases->pdata[i];

		if (dc_identity_find(reporters, a->address))
			dc_identity_add_form(reporters, NULL, a->text,
					     a->address, DC_SOURCE_ALIAS);
	}
	/* Last, when every person is known: the names the text gives. */
	for (i = 0; threads && i < threads->len; i++) {
		dc_thread_t *t = threads->pdata[i];

		if (people)
			names_from_text(t, people);
		if (reporters)
			names_from_text(t, reporters);
		if (!first_thread || t != *first_thread)
			dc_thread_free(t);
	}
	if (threads)
		g_ptr_array_unref(threads);
	return st;
}

/* The reporters, then the other people, as dc_case_forms gives them. */
static dc_status_t
forms_compute(dc_mail_t *mail, const dc_case_t *c, GHashTable *members,
	      dc_identity_set_t **out, int *guessed, dc_error_t *err)
{
	dc_identity_set_t *people = dc_identity_set_new();
	dc_identity_set_t *reporters = dc_identity_set_new();
	dc_status_t st;
	guint i;

	*out = NULL;
	st = dc_case_people(mail, c, members, people, reporters, guessed, NULL,
			    err);
	if (st == DC_OK) {
		*out = dc_identity_set_new();
		for (i = 0; i < dc_identity_count(reporters); i++)
			copy_identity(*out, dc_identity_get(reporters, i));
		for (i = 0; i < dc_identity_count(people); i++)
			copy_identity(*out, dc_identity_get(people, i));
	}
	dc_identity_set_free(people);
	dc_identity_set_free(reporters);
	return st;
}

/* ---- the forms of a case, kept ---------------------------------------- */

/*
 * dc_case_forms reads every message of the case's threads with its body
 * (for the names in signatures, attributions and salutations): on a
 * thread of 1,000 messages, a thread open, which the case panel paid on
 * each cursor move onto the case.  Its answer is a function of the case
 * as passed (its participants, aliases, mail and threads), the
 * registered members and the notmuch database at one revision, and of
 * nothing else; so it is kept under a key made of exactly those, read
 * anew at each call.  Whatever changes the answer changes the key: an
 * alias or a participant added here or by another process (the case
 * the caller reads again from the store holds it), a member, an erasure,
 * the thread cache moved by a sync (no event says so: hence the inputs
 * themselves rather than the last event id), and new mail in a thread
 * (notmuch new commits, and the revision moves with every commit).
 */
#define FORMS_KEPT 16

typedef struct kept_forms {
	char *key;
	dc_identity_set_t *set;
	int guessed;
	guint64 used; /* kept_clock at the last use, for the eviction */
} kept_forms_t;

static GMutex kept_lock;
static GPtrArray *kept; /* kept_forms_t * */
static guint64 kept_clock;
static guint64 kept_computed;

static void
kept_free(gpointer p)
{
	kept_forms_t *k = p;

	g_free(k->key);
	dc_identity_set_free(k->set);
	g_free(k);
}

/* v into k so that no two lists of values give the same key. */
static void
key_add(GString *k, const char *v)
{
	if (v)
		g_string_append_printf(k, "%zu:%s;", strlen(v), v);
	else
		g_string_append(k, "-;");
}

static char *
forms_key(dc_store_t *s, dc_mail_t *mail, const dc_case_t *c,
	  GHashTable *members)
{
	GString *k = g_string_new(NULL);
	GList *addrs = g_hash_table_get_keys(members), *l;
	char *uuid = NULL;
	guint i;

	key_add(k, dc_store_path(s));
	if (mail) {
		unsigned long rev = dc_mail_version(mail, &uuid);

		key_add(k, dc_mail_db_path(mail));
		key_add(k, uuid);
		g_string_append_printf(k, "r%lu;", rev);
		g_free(uuid);
	} else {
		g_string_append(k, "nomail;");
	}
	g_string_append_printf(k, "c%" G_GINT64_FORMAT ";", (gint64)c->id);
	for (i = 0; c->participants && i < c->participants->len; i++) {
		const dc_participant_t *p = c->participants->pdata[i];

		g_string_append(k, "p");
		key_add(k, p->role);
		key_add(k, p->name);
		key_add(k, p->address);
	}
	for (i = 0; c->aliases && i < c->aliases->len; i++) {
		const dc_alias_t *a = c->aliases->pdata[i];

		g_string_append(k, "a");
		key_add(k, a->text);
		key_add(k, a->address);
	}
	for (i = 0; c->mail && i < c->mail->len; i++) {
		const dc_store_mail_t *m = c->mail->pdata[i];

		g_string_append(k, "m");
		key_add(k, m->message_id);
		key_add(k, m->role);
		key_add(k, m->scope);
		key_add(k, m->thread_id);
	}
	for (i = 0; c->threads && i < c->threads->len; i++) {
		g_string_append(k, "t");
		key_add(k, c->threads->pdata[i]);
	}
	addrs = g_list_sort(addrs, (GCompareFunc)strcmp);
	for (l = addrs; l; l = l->next) {
		g_string_append(k, "M");
		key_add(k, l->data);
	}
	g_list_free(addrs);
	return g_string_free(k, FALSE);
}

/* A copy of what is kept under key, or NULL. */
static dc_identity_set_t *
kept_get(const char *key, int *guessed)
{
	dc_identity_set_t *r = NULL;
	guint i;

	g_mutex_lock(&kept_lock);
	for (i = 0; kept && !r && i < kept->len; i++) {
		kept_forms_t *k = kept->pdata[i];

		if (strcmp(k->key, key))
			continue;
		k->used = ++kept_clock;
		r = dc_identity_set_copy(k->set);
		if (guessed)
			*guessed = k->guessed;
	}
	g_mutex_unlock(&kept_lock);
	return r;
}

/* Keep a copy of set under key, in place of the least recently used
 * when FORMS_KEPT are kept already. */
static void
kept_put(char *key, const dc_identity_set_t *set, int guessed)
{
	kept_forms_t *k = g_new0(kept_forms_t, 1);
	guint i, old = 0;

	k->key = key;
	k->set = dc_identity_set_copy(set);
	k->guessed = guessed;
	g_mutex_lock(&kept_lock);
	if (!kept)
		kept = g_ptr_array_new_with_free_func(kept_free);
	k->used = ++kept_clock;
	kept_computed++;
	if (kept->len >= FORMS_KEPT) {
		for (i = 1; i < kept->len; i++)
			if (((kept_forms_t *)kept->pdata[i])->used <
			    ((kept_forms_t *)kept->pdata[old])->used)
				old = i;
		g_ptr_array_remove_index_fast(kept, old);
	}
	g_ptr_array_add(kept, k);
	g_mutex_unlock(&kept_lock);
}

guint64
dc_case_forms_computed(void)
{
	guint64 n;

	g_mutex_lock(&kept_lock);
	n = kept_computed;
	g_mutex_unlock(&kept_lock);
	return n;
}

dc_status_t
dc_case_forms(dc_store_t *s, dc_mail_t *mail, const dc_case_t *c,
	      dc_identity_set_t **out, int *guessed, dc_error_t *err)
{
	GHashTable *members = NULL;
	dc_identity_set_t *set = NULL;
	char *key;
	int g = 0;
	dc_status_t st;

	*out = NULL;
	if (guessed)
		*guessed = 0;
	st = dc_member_addresses(s, &members, err);
	if (st != DC_OK) {
		g_hash_table_unref(members);
		return st;
	}
	key = forms_key(s, mail, c, members);
	*out = kept_get(key, guessed);
	if (*out) {
		g_free(key);
		g_hash_table_unref(members);
		return DC_OK;
	}
	st = forms_compute(mail, c, members, &set, &g, err);
	g_hash_table_unref(members);
	if (st != DC_OK) {
		/* A failure (notmuch locked, a file gone) is not kept. */
		g_free(key);
		return st;
	}
	kept_put(key, set, g);
	if (guessed)
		*guessed = g;
	*out = set;
	return DC_OK;
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
