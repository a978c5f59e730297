// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The packet's cover.eml read back with GMime: a multipart/mixed message
 * whose first part is the letter (the question, the rule, the
 * recommendation, the reply-by date) and whose other parts are exactly the
 * other files of the packet, each decoding to the bytes MANIFEST.sha256
 * lists for its name.  The packet is written by core from a notmuch
 * database and a store made here.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <gmime/gmime.h>
#include <notmuch.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "core/case/action.h"
#include "core/case/outcome.h"
#include "core/export/packet.h"
#include "core/mail/anchor.h"

#define T0 INT64_C(1796601600) /* 2026-12-07T00:00:00Z */

struct fx {
	char *dir;
	dc_store_t *s;
	dc_mail_t *mail;
	int64_t case_id;
};

static const char report[] =
	"From: Ines Quartermaine <ines@example.org>\n"
	"To: conduct@kernel.org\n"
	"Subject: Conduct report: remarks in a review\n"
	"Date: Tue, 03 Nov 2026 10:00:00 +0000\n"
	"Message-ID: <report-1@example.org>\n"
	"MIME-Version: 1.0\n"
	"Content-Type: text/plain; charset=utf-8\n\n"
	"The review is at\n"
	"  https://lore.kernel.org/r/review-9@example.net\n";

static const char reply[] =
	"From: Committee Member <cm@example.org>\n"
	"To: Ines Quartermaine <ines@example.org>\n"
	"Subject: Re: Conduct report: remarks in a review\n"
	"Date: Tue, 03 Nov 2026 12:00:00 +0000\n"
	"Message-ID: <reply-1@example.org>\n"
	"In-Reply-To: <report-1@example.org>\n"
	"References: <report-1@example.org>\n\n"
	"Thank you, we are looking into it.\n";

static void
rm_rf(const char *dir)
{
	char *argv[] = { "rm", "-rf", (char *)dir, NULL };

	g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
		     NULL, NULL, NULL);
}

static void
index_mail(const char *dir)
{
	const char *names[] = { "report", "reply" };
	const char *texts[] = { report, reply };
	notmuch_database_t *db = NULL;
	char *msg = NULL;
	guint i;

	assert_int_equal(notmuch_database_create_with_config(dir, "", NULL,
							     &db, &msg),
			 NOTMUCH_STATUS_SUCCESS);
	for (i = 0; i < G_N_ELEMENTS(names); i++) {
		char *p = g_build_filename(dir, names[i], NULL);

		assert_true(g_file_set_contents(p, texts[i], -1, NULL));
		assert_int_equal(notmuch_database_index_file(db, p, NULL, NULL),
				 NOTMUCH_STATUS_SUCCESS);
		g_free(p);
	}
	notmuch_database_destroy(db);
}

static int
setup(void **state)
{
	struct fx *f = g_new0(struct fx, 1);
	dc_mail_opts_t o = { 0 };
	dc_error_t err = { 0 };
	dc_tag_result_t res = { 0 };
	dc_outcome_t out = { .kind = DC_OUTCOME_MEASURE,
			     .what = "no reviews", .scope = "net",
			     .until = T0 + 120 * 86400 };
	char *mail_dir, *db, *thread;

	f->dir = g_dir_make_tmp("test-packet-XXXXXX", NULL);
	assert_non_null(f->dir);
	mail_dir = g_build_filename(f->dir, "mail", NULL);
	assert_int_equal(g_mkdir(mail_dir, 0700), 0);
	index_mail(mail_dir);
	o.db_path = mail_dir;
	assert_int_equal(dc_mail_open(&o, &f->mail, &err), DC_OK);
	db = g_build_filename(f->dir, "decorum.db", NULL);
	assert_int_equal(dc_store_open(db, &f->s, &err), DC_OK);
	thread = dc_anchor_thread_of(dc_mail_notmuch(f->mail),
				     "report-1@example.org");
	assert_non_null(thread);
	if (dc_action_tag(f->s, f->mail, thread, DC_KIND_ESCALATION, NULL,
			  "cm@example.org", T0, &res, &err) != DC_OK)
		fail_msg("tag: %s", err.msg);
	f->case_id = res.case_id;
	assert_int_equal(dc_case_set_state(f->s, f->case_id, "investigating",
					   NULL, "cm@example.org", T0, &err),
			 DC_OK);
	if (dc_case_outcome(f->s, f->case_id, &out, "cm@example.org", T0,
			    &err) != DC_OK)
		fail_msg("outcome: %s", err.msg);
	dc_tag_result_clear(&res);
	g_free(thread);
	g_free(db);
	g_free(mail_dir);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *f = *state;

	dc_mail_close(f->mail);
	dc_store_close(f->s);
	rm_rf(f->dir);
	g_free(f->dir);
	g_free(f);
	return 0;
}

/* MANIFEST.sha256 as name -> hex hash. */
static GHashTable *
manifest(const char *dir)
{
	GHashTable *h = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      g_free);
	char *path = g_build_filename(dir, "MANIFEST.sha256", NULL);
	char *text = NULL, **lines;
	guint i;

	assert_true(g_file_get_contents(path, &text, NULL, NULL));
	lines = g_strsplit(text, "\n", -1);
	for (i = 0; lines[i]; i++) {
		if (!*lines[i])
			continue;
		assert_true(strlen(lines[i]) > 66);
		assert_memory_equal(lines[i] + 64, "  ", 2);
		g_hash_table_insert(h, g_strdup(lines[i] + 66),
				    g_strndup(lines[i], 64));
	}
	g_strfreev(lines);
	g_free(text);
	g_free(path);
	return h;
}

static GMimeMessage *
parse(const char *path)
{
	GMimeStream *st = g_mime_stream_file_open(path, "r", NULL);
	GMimeParser *parser;
	GMimeMessage *m;

	assert_non_null(st);
	parser = g_mime_parser_new_with_stream(st);
	m = g_mime_parser_construct_message(parser, NULL);
	g_object_unref(parser);
	g_object_unref(st);
	assert_non_null(m);
	return m;
}

/* The decoded bytes of a part. */
static GByteArray *
content(GMimePart *part)
{
	GMimeDataWrapper *dw = g_mime_part_get_content(part);
	GMimeStream *mem = g_mime_stream_mem_new();
	GByteArray *b;

	assert_non_null(dw);
	assert_true(g_mime_data_wrapper_write_to_stream(dw, mem) >= 0);
	b = g_byte_array_new();
	g_byte_array_append(b, g_mime_stream_mem_get_byte_array(
				       GMIME_STREAM_MEM(mem))->data,
			    g_mime_stream_mem_get_byte_array(
				    GMIME_STREAM_MEM(mem))->len);
	g_object_unref(mem);
	return b;
}

static char *
write_packet(struct fx *f, int64_t reply_by)
{
	char *dir = g_build_filename(f->dir, "packet", NULL);
	dc_packet_opts_t o = { .case_id = f->case_id, .dir = dir,
			       .actor = "Committee Member <cm@example.org>",
			       .now = T0 + 3600, .reply_by = reply_by };
	dc_error_t err = { 0 };
	unsigned n = 0;

	if (dc_packet_write(f->s, f->mail, &o, &n, &err) != DC_OK)
		fail_msg("packet: %s", err.msg);
	assert_int_equal(n, 2);
	return dir;
}

static void
test_cover_attaches_the_manifest_files(void **state)
{
	struct fx *f = *state;
	char *dir = write_packet(f, 0);
	char *path = g_build_filename(dir, "cover.eml", NULL);
	GHashTable *man = manifest(dir), *seen;
	GMimeMessage *m = parse(path);
	GMimeObject *top = g_mime_message_get_mime_part(m);
	GMimeMultipart *mp;
	GMimeContentType *ct;
	GHashTableIter it;
	gpointer name;
	int n, i;

	assert_true(GMIME_IS_MULTIPART(top));
	ct = g_mime_object_get_content_type(top);
	assert_true(g_mime_content_type_is_type(ct, "multipart", "mixed"));
	mp = GMIME_MULTIPART(top);
	n = g_mime_multipart_get_count(mp);
	/* The letter and one part a file, the cover and manifest aside. */
	assert_int_equal(n, g_hash_table_size(man) - 1 + 1);
	assert_true(GMIME_IS_TEXT_PART(g_mime_multipart_get_part(mp, 0)));
	assert_null(g_mime_part_get_filename(
		GMIME_PART(g_mime_multipart_get_part(mp, 0))));
	seen = g_hash_table_new(g_str_hash, g_str_equal);
	for (i = 1; i < n; i++) {
		GMimeObject *o = g_mime_multipart_get_part(mp, i);
		const char *fn;
		GByteArray *b;
		char *sum;

		assert_true(GMIME_IS_PART(o));
		fn = g_mime_part_get_filename(GMIME_PART(o));
		assert_non_null(fn);
		assert_string_equal(g_mime_object_get_disposition(o),
				    "attachment");
		/* Named in the manifest, once, with these very bytes. */
		assert_non_null(g_hash_table_lookup(man, fn));
		assert_false(g_hash_table_contains(seen, fn));
		g_hash_table_add(seen, (gpointer)fn);
		b = content(GMIME_PART(o));
		sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, b->data,
						  b->len);
		assert_string_equal(sum, g_hash_table_lookup(man, fn));
		g_free(sum);
		g_byte_array_unref(b);
	}
	/* Every file of the manifest but the cover is attached. */
	g_hash_table_iter_init(&it, man);
	while (g_hash_table_iter_next(&it, &name, NULL))
		if (strcmp(name, "cover.eml"))
			assert_true(g_hash_table_contains(seen, name));
	assert_true(g_hash_table_contains(man, "cover.eml"));
	assert_true(g_hash_table_contains(seen, "thread.mbox"));
	assert_true(g_hash_table_contains(seen, "links.txt"));
	g_hash_table_destroy(seen);
	g_hash_table_destroy(man);
	g_object_unref(m);
	g_free(path);
	g_free(dir);
}

static char *
letter(GMimeMessage *m)
{
	GMimeMultipart *mp = GMIME_MULTIPART(g_mime_message_get_mime_part(m));

	return g_mime_text_part_get_text(
		GMIME_TEXT_PART(g_mime_multipart_get_part(mp, 0)));
}

static void
test_cover_letter_states_the_decision(void **state)
{
	struct fx *f = *state;
	char *dir = write_packet(f, 0);
	char *path = g_build_filename(dir, "cover.eml", NULL);
	GMimeMessage *m = parse(path);
	char *text = letter(m);
	const char *rb;

	assert_non_null(strstr(text, "The question put to the TAB"));
	assert_non_null(strstr(text, "Will the TAB implement the remedial "
				     "measure"));
	/* The 6.1 interpretation, word for word. */
	assert_non_null(strstr(text, "\"A decision by the Code of Conduct "
				     "Committee can be overturned by the\n"
				     "  TAB by a two-thirds vote.\""));
	assert_non_null(strstr(text, "Remedial measure (measure)"));
	assert_non_null(strstr(text, "Measure:  no reviews"));
	assert_non_null(strstr(text, "Scope:    net"));
	/* 14 days after the packet's date by default. */
	assert_non_null(strstr(text, "Please reply by 2026-12-21."));
	rb = g_mime_object_get_header(GMIME_OBJECT(m), "Reply-By");
	assert_non_null(rb);
	assert_non_null(strstr(rb, "21 Dec 2026"));
	assert_non_null(strstr(g_mime_message_get_subject(m),
			       "decision requested by 2026-12-21"));
	g_free(text);
	g_object_unref(m);
	g_free(path);
	g_free(dir);
}

static void
test_cover_reply_by_given(void **state)
{
	struct fx *f = *state;
	char *dir = write_packet(f, T0 + 30 * 86400);
	char *path = g_build_filename(dir, "cover.eml", NULL);
	GMimeMessage *m = parse(path);
	char *text = letter(m);

	assert_non_null(strstr(text, "Please reply by 2027-01-06."));
	g_free(text);
	g_object_unref(m);
	g_free(path);
	g_free(dir);
}

static void
test_reply_by_in_the_past_is_refused(void **state)
{
	struct fx *f = *state;
	char *dir = g_build_filename(f->dir, "packet", NULL);
	dc_packet_opts_t o = { .case_id = f->case_id, .dir = dir,
			       .actor = "cm@example.org", .now = T0,
			       .reply_by = T0 - 86400 };
	dc_error_t err = { 0 };

	assert_int_equal(dc_packet_write(f->s, f->mail, &o, NULL, &err),
			 DC_E_USAGE);
	assert_false(g_file_test(dir, G_FILE_TEST_EXISTS));
	dc_error_clear(&err);
	g_free(dir);
}

/* The manifest's own check: each problem named, in its list. */
static void
test_verify_names_each_problem(void **state)
{
	struct fx *f = *state;
	char *dir = write_packet(f, 0);
	char *tl = g_build_filename(dir, "timeline.txt", NULL);
	char *lk = g_build_filename(dir, "links.txt", NULL);
	char *ex = g_build_filename(dir, "extra.txt", NULL);
	GHashTable *man = manifest(dir);
	dc_packet_check_t c = { 0 };
	dc_error_t err = { 0 };

	assert_int_equal(dc_packet_verify(dir, &c, &err), DC_OK);
	assert_int_equal(c.verified, g_hash_table_size(man));
	assert_null(c.missing);
	dc_packet_check_clear(&c);
	assert_true(g_file_set_contents(tl, "edited\n", -1, NULL));
	assert_int_equal(g_unlink(lk), 0);
	assert_true(g_file_set_contents(ex, "x", -1, NULL));
	assert_int_equal(dc_packet_verify(dir, &c, &err), DC_E_DATA);
	assert_int_equal(c.verified, g_hash_table_size(man) - 2);
	assert_int_equal(c.changed->len, 1);
	assert_string_equal(c.changed->pdata[0], "timeline.txt");
	assert_int_equal(c.missing->len, 1);
	assert_string_equal(c.missing->pdata[0], "links.txt");
	assert_int_equal(c.extra->len, 1);
	assert_string_equal(c.extra->pdata[0], "extra.txt");
	dc_packet_check_clear(&c);
	dc_error_clear(&err);
	g_hash_table_destroy(man);
	g_free(tl);
	g_free(lk);
	g_free(ex);
	g_free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_cover_attaches_the_manifest_files, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_cover_letter_states_the_decision, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_cover_reply_by_given,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_reply_by_in_the_past_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_verify_names_each_problem,
						setup, teardown),
	};

	g_mime_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
