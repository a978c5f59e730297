// SPDX-License-Identifier: GPL-3.0-or-later
/* Replies: notmuch reply, sendmail, notmuch insert (see core/mail/reply.h). */
#include <errno.h>
#include <glib/gstdio.h>
#include <gmime/gmime.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/safefile.h"
#include "core/mail/reply.h"

/* ---- running a command --------------------------------------------------- */

static void
read_all(int fd, GString *out)
{
	char buf[65536];
	ssize_t n;

	for (;;) {
		n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		g_string_append_len(out, buf, n);
	}
}

/* The first line of what a command said on stderr, for a message. */
static char *
first_line(GString *s)
{
	char *l = g_strndup(s->str, strcspn(s->str, "\n"));

	return g_strstrip(l);
}

/*
 * Run argv (searched in PATH) with envp (NULL: ours), input on its
 * standard input, its standard output into *out (may be NULL: dropped).
 * Standard input and error are anonymous files, so neither side can wait
 * on the other.  what names the command in messages.
 */
static dc_status_t
run(char **argv, char **envp, const char *input, char **out,
    const char *what, dc_error_t *err)
{
	GError *gerr = NULL;
	GString *o = g_string_new(NULL), *e = g_string_new(NULL);
	int in = dc_memfd("decorum-in", input ? input : "",
			input ? strlen(input) : 0);
	int errfd = dc_memfd("decorum-err", "", 0), outfd = -1, status = 0;
	dc_status_t st = DC_OK;
	GPid pid;

	if (in < 0 || errfd < 0) {
		st = dc_fail(err, DC_E_IO, "%s: %s", what, g_strerror(errno));
		goto out;
	}
	if (!g_spawn_async_with_pipes_and_fds(
		    NULL, (const char *const *)argv, (const char *const *)envp,
		    G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
		    in, -1, errfd, NULL, NULL, 0, &pid, NULL, &outfd, NULL,
		    &gerr)) {
		st = dc_fail(err, DC_E_IO, "%s: %s", what, gerr->message);
		g_clear_error(&gerr);
		goto out;
	}
	read_all(outfd, o);
	close(outfd);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	g_spawn_close_pid(pid);
	if (lseek(errfd, 0, SEEK_SET) == 0)
		read_all(errfd, e);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		char *l = first_line(e);

		st = dc_fail(err, DC_E_IO, "%s %s %d%s%s", what,
			     WIFEXITED(status) ? "exited with status" :
						 "was killed by signal",
			     WIFEXITED(status) ? WEXITSTATUS(status) :
						 WTERMSIG(status),
			     *l ? ": " : "", l);
		g_free(l);
	}
out:
	if (in >= 0)
		close(in);
	if (errfd >= 0)
		close(errfd);
	if (st == DC_OK && out)
		*out = g_string_free(o, FALSE);
	else
		g_string_free(o, TRUE);
	g_string_free(e, TRUE);
	return st;
}

/* "notmuch" and its options for opts; *envp the environment it needs. */
static GPtrArray *
notmuch_argv(const dc_mail_opts_t *opts, char ***envp)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);

	*envp = g_get_environ();
	g_ptr_array_add(a, g_strdup("notmuch"));
	if (opts && opts->db_path) {
		/* A bare database, as dc_mail_open opens it. */
		g_ptr_array_add(a, g_strdup("--config="));
		*envp = g_environ_setenv(*envp, "NOTMUCH_DATABASE",
					 opts->db_path, TRUE);
	} else if (opts && opts->config_path) {
		g_ptr_array_add(a, g_strconcat("--config=", opts->config_path,
					       NULL));
	}
	if (opts && opts->profile)
		*envp = g_environ_setenv(*envp, "NOTMUCH_PROFILE",
					 opts->profile, TRUE);
	return a;
}

/* ---- the draft ------------------------------------------------------------ */

dc_status_t
dc_reply_fill(const char *tmpl, int64_t case_id, const char *subject,
	      char **out, dc_error_t *err)
{
	GString *s = g_string_new(NULL);
	const char *p = tmpl ? tmpl : "";

	*out = NULL;
	while (*p) {
		const char *end;
		char *name;

		if (!strncmp(p, "{{", 2) || !strncmp(p, "}}", 2)) {
			g_string_append_c(s, *p);
			p += 2;
			continue;
		}
		if (*p != '{' || !(end = strchr(p, '}'))) {
			g_string_append_c(s, *p++);
			continue;
		}
		name = g_strndup(p + 1, end - p - 1);
		if (!strcmp(name, "case") && case_id > 0) {
			g_string_append_printf(s, "%" G_GINT64_FORMAT,
					       (gint64)case_id);
		} else if (!strcmp(name, "case")) {
			g_free(name);
			g_string_free(s, TRUE);
			return dc_fail(err, DC_E_INVALID,
				       "the template names {case}, and the "
				       "thread has no case");
		} else if (!strcmp(name, "subject")) {
			g_string_append(s, subject ? subject : "");
		} else {
			dc_status_t st = dc_fail(err, DC_E_USAGE,
						 "the template has {%s}; it "
						 "may use {case}, {subject}, "
						 "{{ and }}",
						 name);

			g_free(name);
			g_string_free(s, TRUE);
			return st;
		}
		g_free(name);
		p = end + 1;
	}
	*out = g_string_free(s, FALSE);
	return DC_OK;
}

/* The first mailbox of value (an address header's, decoded), or NULL. */
static InternetAddressMailbox *
first_mailbox(const char *value)
{
	InternetAddressList *l = value ? internet_address_list_parse(NULL,
								   value)
				       : NULL;
	InternetAddressMailbox *mb = NULL;
	int i;

	for (i = 0; l && i < internet_address_list_length(l) && !mb; i++) {
		InternetAddress *a = internet_address_list_get_address(l, i);

		if (INTERNET_ADDRESS_IS_MAILBOX(a))
			mb = g_object_ref(INTERNET_ADDRESS_MAILBOX(a));
	}
	if (l)
		g_object_unref(l);
	return mb;
}

/* The end of the header (with its folded lines) that starts at p. */
static const char *
header_end(const char *p)
{
	const char *nl;

	while ((nl = strchr(p, '\n')) && (nl[1] == ' ' || nl[1] == '\t'))
		p = nl + 1;
	return nl ? nl + 1 : p + strlen(p);
}

char *
dc_reply_from(const char *draft, const char *from)
{
	const char *sep = strstr(draft, "\n\n"), *line = draft, *end = NULL;
	InternetAddressMailbox *want, *had = NULL, *mb;
	const char *name;
	GString *out;
	char *value, *s;

	dc_mail_gmime_hold();
	want = from && strchr(from, '@') ? first_mailbox(from) : NULL;
	if (!want || !sep)
		goto keep;
	/* The From header of the head, if any. */
	while (line && line <= sep) {
		if (!g_ascii_strncasecmp(line, "From:", 5)) {
			end = header_end(line);
			break;
		}
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	if (end) {
		value = g_strndup(line + 5, end - line - 5);
		had = first_mailbox(value);
		g_free(value);
	}
	name = internet_address_get_name(INTERNET_ADDRESS(want));
	if ((!name || !*name) && had)
		name = internet_address_get_name(INTERNET_ADDRESS(had));
	mb = INTERNET_ADDRESS_MAILBOX(internet_address_mailbox_new(
		name, internet_address_mailbox_get_addr(want)));
	s = internet_address_to_string(INTERNET_ADDRESS(mb), NULL, FALSE);
	out = g_string_new(NULL);
	if (end) {
		g_string_append_len(out, draft, line - draft);
		g_string_append_printf(out, "From: %s\n", s);
		g_string_append(out, end);
	} else {
		g_string_append_printf(out, "From: %s\n%s", s, draft);
	}
	g_free(s);
	g_object_unref(mb);
	if (had)
		g_object_unref(had);
	g_object_unref(want);
	return g_string_free(out, FALSE);
keep:
	if (want)
		g_object_unref(want);
	return g_strdup(draft);
}

dc_status_t
dc_reply_draft(const dc_mail_opts_t *opts, const char *message_id,
	       const char *ack, const char *from, char **out, dc_error_t *err)
{
	char **envp = NULL, *text = NULL, *body;
	GPtrArray *a;
	dc_status_t st;
	GString *d;

	*out = NULL;
	if (!message_id || !*message_id)
		return dc_fail(err, DC_E_USAGE, "no message to reply to");
	a = notmuch_argv(opts, &envp);
	g_ptr_array_add(a, g_strdup("reply"));
	g_ptr_array_add(a, dc_mail_id_query(message_id));
	g_ptr_array_add(a, NULL);
	st = run((char **)a->pdata, envp, NULL, &text, "notmuch reply", err);
	g_ptr_array_unref(a);
	g_strfreev(envp);
	if (st != DC_OK)
		return st;
	body = strstr(text, "\n\n");
	if (!*text || !body) {
		g_free(text);
		return dc_fail(err, DC_E_NOT_FOUND,
			       "notmuch reply found no message <%s>",
			       message_id);
	}
	d = g_string_new_len(text, body - text + 2);
	if (ack && *ack) {
		g_string_append(d, ack);
		if (!g_str_has_suffix(ack, "\n"))
			g_string_append_c(d, '\n');
		g_string_append_c(d, '\n');
	}
	g_string_append(d, body + 2);
	g_free(text);
	*out = dc_reply_from(d->str, from);
	g_string_free(d, TRUE);
	return DC_OK;
}

dc_status_t
dc_reply_draft_write(const char *text, char **path, dc_error_t *err)
{
	GError *gerr = NULL;
	char *dir = g_dir_make_tmp("decorum-reply-XXXXXX", &gerr);
	char *p;
	dc_status_t st;

	*path = NULL;
	if (!dir) {
		st = dc_fail(err, DC_E_IO, "a directory for the draft: %s",
			     gerr->message);
		g_clear_error(&gerr);
		return st;
	}
	p = g_build_filename(dir, "reply.eml", NULL);
	st = dc_file_create(p, text, strlen(text), err);
	if (st != DC_OK) {
		g_rmdir(dir);
		g_free(p);
	} else {
		*path = p;
	}
	g_free(dir);
	return st;
}

void
dc_reply_draft_remove(const char *path)
{
	char *dir;

	if (!path)
		return;
	dir = g_path_get_dirname(path);
	g_unlink(path);
	g_rmdir(dir);
	g_free(dir);
}

/* ---- sending ---------------------------------------------------------------- */

void
dc_reply_sent_clear(dc_reply_sent_t *r)
{
	g_clear_pointer(&r->message_id, g_free);
	g_clear_pointer(&r->in_reply_to, g_free);
	g_clear_pointer(&r->not_stored, g_free);
	g_clear_pointer(&r->not_recorded, g_free);
}

static int
has_addresses(GMimeMessage *m, GMimeAddressType t)
{
	InternetAddressList *l = g_mime_message_get_addresses(m, t);

	return l && internet_address_list_length(l) > 0;
}

/* The domain of the first From address, for a new Message-ID. */
static char *
from_domain(GMimeMessage *m)
{
	InternetAddressList *l = g_mime_message_get_from(m);
	InternetAddress *a;
	const char *addr, *at;

	if (!l || internet_address_list_length(l) < 1)
		return g_strdup("localhost");
	a = internet_address_list_get_address(l, 0);
	if (!INTERNET_ADDRESS_IS_MAILBOX(a))
		return g_strdup("localhost");
	addr = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(a));
	at = addr ? strrchr(addr, '@') : NULL;
	return g_strdup(at && at[1] ? at + 1 : "localhost");
}

/* The draft as a message to send: its headers (Content-* left to GMime),
 * a text/plain UTF-8 body, a Message-ID and a Date.  NULL when its
 * headers cannot be read. */
static GMimeMessage *
build(const char *draft, int64_t now, dc_error_t *err)
{
	const char *sep = strstr(draft, "\n\n");
	char *head = sep ? g_strndup(draft, sep - draft + 1) : g_strdup(draft);
	const char *text = sep ? sep + 2 : "";
	GMimeStream *st = g_mime_stream_mem_new_with_buffer(head,
							   strlen(head));
	GMimeParser *p = g_mime_parser_new_with_stream(st);
	GMimeMessage *in = g_mime_parser_construct_message(p, NULL), *m;
	GMimeHeaderList *hl;
	GMimeTextPart *body;
	int i, n;

	g_object_unref(p);
	g_object_unref(st);
	g_free(head);
	if (!in) {
		dc_fail(err, DC_E_USAGE, "the draft's headers cannot be read");
		return NULL;
	}
	m = g_mime_message_new(TRUE);
	hl = g_mime_object_get_header_list(GMIME_OBJECT(in));
	n = g_mime_header_list_get_count(hl);
	for (i = 0; i < n; i++) {
		GMimeHeader *h = g_mime_header_list_get_header_at(hl, i);
		const char *name = g_mime_header_get_name(h);
		const char *value = g_mime_header_get_value(h);

		if (!g_ascii_strncasecmp(name, "Content-", 8) ||
		    !g_ascii_strcasecmp(name, "MIME-Version"))
			continue;
		g_mime_object_append_header(GMIME_OBJECT(m), name,
					    value ? value : "", "utf-8");
	}
	g_object_unref(in);
	if (!g_mime_message_get_message_id(m)) {
		char *dom = from_domain(m);
		char *id = g_mime_utils_generate_message_id(dom);

		g_mime_message_set_message_id(m, id);
		g_free(id);
		g_free(dom);
	}
	if (!g_mime_message_get_date(m)) {
		GDateTime *d = g_date_time_new_from_unix_utc(now);

		g_mime_message_set_date(m, d);
		g_date_time_unref(d);
	}
	body = g_mime_text_part_new_with_subtype("plain");
	g_mime_text_part_set_text(body, text);
	g_mime_text_part_set_charset(body, "utf-8");
	g_mime_part_set_content_encoding(
		GMIME_PART(body),
		g_mime_part_get_best_content_encoding(
			GMIME_PART(body), GMIME_ENCODING_CONSTRAINT_7BIT));
	g_mime_message_set_mime_part(m, GMIME_OBJECT(body));
	g_object_unref(body);
	return m;
}

/* An In-Reply-To header's Message-ID, without angle brackets. */
static char *
replied_id(GMimeMessage *m)
{
	const char *v = g_mime_object_get_header(GMIME_OBJECT(m),
						 "In-Reply-To");
	GMimeReferences *r = v ? g_mime_references_parse(NULL, v) : NULL;
	char *id = NULL;

	if (r && g_mime_references_length(r) > 0)
		id = g_strdup(g_mime_references_get_message_id(r, 0));
	if (r)
		g_mime_references_free(r);
	return id;
}

/* The draft as the message to send (*text, g_free), its Message-ID and
 * the one it answers into r; GMime is set up for it. */
static dc_status_t
compose(const char *draft, int64_t now, char **text, dc_reply_sent_t *r,
	dc_error_t *err)
{
	GMimeMessage *m;
	dc_status_t st = DC_OK;

	*text = NULL;
	/* Set up in one place (core/mail/mail.c). */
	dc_mail_gmime_hold();
	m = build(draft, now, err);
	if (!m) {
		st = DC_E_USAGE;
	} else if (!has_addresses(m, GMIME_ADDRESS_TYPE_TO) &&
		   !has_addresses(m, GMIME_ADDRESS_TYPE_CC) &&
		   !has_addresses(m, GMIME_ADDRESS_TYPE_BCC)) {
		st = dc_fail(err, DC_E_USAGE,
			     "the reply has no recipient (To, Cc or Bcc): "
			     "nothing was sent");
	} else {
		*text = g_mime_object_to_string(GMIME_OBJECT(m), NULL);
		r->message_id = g_strdup(g_mime_message_get_message_id(m));
		r->in_reply_to = replied_id(m);
	}
	if (m)
		g_object_unref(m);
	return st;
}

dc_status_t
dc_reply_can_send(const dc_config_t *cfg, dc_error_t *err)
{
	const char *cmd = cfg ? dc_config_get(cfg, "mail", "sendmail") : NULL;
	GError *gerr = NULL;
	char **argv = NULL;
	dc_status_t st;

	if (!cmd || strspn(cmd, " \t") == strlen(cmd))
		return dc_fail(err, DC_E_USAGE,
			       "no [mail] sendmail command in %s (e.g. "
			       "\"sendmail = msmtp -t\"): nothing is sent",
			       cfg ? dc_config_path(cfg) : "the configuration");
	if (!g_shell_parse_argv(cmd, NULL, &argv, &gerr)) {
		st = dc_fail(err, DC_E_USAGE,
			     "%s:%d: [mail] sendmail: %s; nothing is sent",
			     dc_config_path(cfg),
			     dc_config_line(cfg, "mail", "sendmail"),
			     gerr->message);
		g_clear_error(&gerr);
		return st;
	}
	g_strfreev(argv);
	return DC_OK;
}

dc_status_t
dc_reply_send(const dc_config_t *cfg, const dc_mail_opts_t *opts,
	      const char *draft, int64_t now, dc_reply_sent_t *r,
	      dc_error_t *err)
{
	const char *cmd = cfg ? dc_config_get(cfg, "mail", "sendmail") : NULL;
	const char *folder = cfg ? dc_config_get(cfg, "mail", "sent_folder")
				 : NULL;
	GError *gerr = NULL;
	GPtrArray *a;
	char **argv = NULL, **envp = NULL, *text;
	dc_error_t e2 = { 0 };
	dc_status_t st;

	memset(r, 0, sizeof *r);
	st = dc_reply_can_send(cfg, err);
	if (st != DC_OK)
		return st;
	if (!g_shell_parse_argv(cmd, NULL, &argv, &gerr)) {
		st = dc_fail(err, DC_E_USAGE, "[mail] sendmail: %s",
			     gerr->message);
		g_clear_error(&gerr);
		return st;
	}
	st = compose(draft, now, &text, r, err);
	if (st != DC_OK) {
		g_strfreev(argv);
		return st;
	}
	st = run(argv, NULL, text, NULL, argv[0], err);
	g_strfreev(argv);
	if (st != DC_OK) {
		g_free(text);
		dc_reply_sent_clear(r);
		return st;
	}
	/* Sent: a copy that cannot be stored is said, not failed. */
	a = notmuch_argv(opts, &envp);
	g_ptr_array_add(a, g_strdup("insert"));
	if (folder && *folder) {
		g_ptr_array_add(a, g_strconcat("--folder=", folder, NULL));
		g_ptr_array_add(a, g_strdup("--create-folder"));
	}
	g_ptr_array_add(a, g_strdup("+sent"));
	g_ptr_array_add(a, NULL);
	if (run((char **)a->pdata, envp, text, NULL, "notmuch insert",
		&e2) != DC_OK)
		r->not_stored = g_strdup(e2.msg);
	dc_error_clear(&e2);
	g_ptr_array_unref(a);
	g_strfreev(envp);
	g_free(text);
	return DC_OK;
}
