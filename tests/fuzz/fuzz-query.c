// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Queries and ids from the user and from mail (core/mail/mail.c) against a
 * small notmuch database: any search string either fails with a message
 * or lists threads whose fields sanitize clean; a thread id that is not a
 * notmuch id is refused before it can reach a query string; a lore link
 * made from any message id is a plain URL.
 *
 * Input: byte 0 picks the use (search, thread id, lore link), the rest
 * is the string.
 */
#include <stdlib.h>

#include "core/mail/mail.h"
#include "tests/fuzz/fuzz.h"

static dc_mail_t *mail;

/* Two small threads, indexed by the notmuch command once. */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	dc_mail_opts_t o = { 0 };
	dc_error_t err = { 0 };
	char *dir, *cmd, *config, *maildir;
	FILE *f;

	if (g_file_test("/dev/shm", G_FILE_TEST_IS_DIR))
		g_setenv("TMPDIR", "/dev/shm", FALSE);
	dir = g_dir_make_tmp("decorum-fuzz-XXXXXX", NULL);
	maildir = g_build_filename(dir, "mail", NULL);
	config = g_build_filename(dir, "config", NULL);
	cmd = g_strdup_printf("mkdir -p '%s/cur' '%s/new' '%s/tmp'", maildir,
			      maildir, maildir);
	if (system(cmd) != 0)
		abort();
	g_free(cmd);
	f = fopen(config, "w");
	fprintf(f, "[database]\npath=%s\n[user]\nprimary_email=t@example.org\n"
		   "[new]\ntags=inbox\n[search]\nexclude_tags=spam\n",
		maildir);
	fclose(f);
	cmd = g_strdup_printf(
	    "cd '%s/cur' && printf 'From: A <a@example.org>\\nTo: "
	    "conduct@kernel.org\\nSubject: report \\033[2J\\nDate: Tue, 3 Nov "
	    "2026 10:00:00 +0000\\nMessage-ID: <q1@x>\\n\\nhi\\n' >1:2,S && "
	    "printf 'From: B <b@example.org>\\nSubject: Re: report\\nDate: "
	    "Tue, 3 Nov 2026 11:00:00 +0000\\nMessage-ID: <q2@x>\\n"
	    "In-Reply-To: <q1@x>\\n\\nho\\n' >2:2,S && printf 'From: C "
	    "<c@example.org>\\nSubject: other\\nMessage-ID: <q3@x>\\n\\n"
	    "x\\n' >3:2,S && NOTMUCH_CONFIG='%s' notmuch new --quiet",
	    maildir, config);
	if (system(cmd) != 0)
		abort();
	g_free(cmd);
	o.config_path = config;
	if (dc_mail_open(&o, &mail, &err) != DC_OK) {
		fprintf(stderr, "fuzz-query: %s\n", err.msg);
		abort();
	}
	g_free(config);
	g_free(maildir);
	g_free(dir);
	return 0;
}

static void
search(const char *q)
{
	dc_thread_iter_t *it = NULL;
	dc_thread_summary_t ts = { 0 };
	dc_error_t err = { 0 };
	int n = 0;

	if (dc_mail_search(mail, q, DC_SORT_NEWEST_FIRST, &it, &err) != DC_OK) {
		g_free(fuzz_sanitize_checked(err.msg, 0));
		return;
	}
	while (n++ < 5 && dc_thread_iter_next(it, &ts)) {
		g_free(fuzz_sanitize_checked(ts.subject, 0));
		g_free(fuzz_sanitize_checked(ts.authors, 0));
		FUZZ_ASSERT(ts.oldest <= ts.newest);
	}
	dc_thread_summary_clear(&ts);
	dc_thread_iter_free(it);
}

static void
thread(const char *id)
{
	dc_thread_t *t = NULL;
	dc_error_t err = { 0 };
	const char *bare = dc_thread_id_bare(id);
	const char *p;
	int hex = *bare != '\0';

	for (p = bare; *p; p++)
		if (!g_ascii_isxdigit(*p))
			hex = 0;
	if (dc_mail_thread(mail, id, 0, &t, &err) == DC_OK) {
		FUZZ_ASSERT(hex);
		dc_thread_free(t);
	} else {
		g_free(fuzz_sanitize_checked(err.msg, 0));
	}
}

static void
lore(const char *id)
{
	char *url = dc_lore_url(id);
	const char *p;

	char *back;

	FUZZ_ASSERT(g_str_has_prefix(url, "https://lore.kernel.org/r/"));
	/* RFC 3986 path characters only: no space, quote, <>, \, `. */
	for (p = url; *p; p++)
		FUZZ_ASSERT(g_ascii_isalnum(*p) ||
			    strchr("-._~!$&'()*+,;=:@%/", *p));
	back = g_uri_unescape_string(url + strlen("https://lore.kernel.org/r/"),
				     NULL);
	FUZZ_ASSERT(back && strcmp(back, id) == 0);
	g_free(back);
	g_free(url);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (size < 1)
		return 0;
	s = g_strndup((const char *)data + 1, size - 1);
	switch (data[0] % 3) {
	case 0:
		search(s);
		break;
	case 1:
		thread(s);
		break;
	default:
		lore(s);
		break;
	}
	g_free(s);
	return 0;
}
