// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The Latin forms of a name in another script (core/privacy/translit.c),
 * and the redaction and identity scan that find a reporter by them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "core/privacy/privacy.h"
#include "core/privacy/redact.h"
#include "core/privacy/translit.h"

static int
has_form(GPtrArray *f, const char *want)
{
	guint i;

	for (i = 0; i < f->len; i++)
		if (!strcmp(f->pdata[i], want))
			return 1;
	return 0;
}

static void
test_forms(void **state)
{
	GPtrArray *f = dc_name_latin_forms("Дмитрий Соколов");

	(void)state;
	assert_true(has_form(f, "Dmitrij Sokolov")); /* ICU Any-Latin */
	assert_true(has_form(f, "Dmitriy Sokolov")); /* BGN/PCGN */
	assert_true(has_form(f, "Dmitry Sokolov"));  /* English mail */
	assert_false(has_form(f, "Дмитрий Соколов"));
	g_ptr_array_unref(f);

	f = dc_name_latin_forms("Ελένη Παπαδοπούλου");
	assert_true(has_form(f, "Eleni Papadopoulou"));
	g_ptr_array_unref(f);

	f = dc_name_latin_forms("Jürgen Straße");
	assert_true(has_form(f, "Jurgen Strasse"));
	assert_true(has_form(f, "Juergen Strasse"));
	g_ptr_array_unref(f);

	/* Nothing for a name that is ASCII, no "???" for what cannot be
	 * spelled, nothing for invalid UTF-8. */
	f = dc_name_latin_forms("Alice Quux");
	assert_int_equal(f->len, 0);
	g_ptr_array_unref(f);
	f = dc_name_latin_forms("Ürün ☃");
	assert_false(has_form(f, "Urun ?"));
	g_ptr_array_unref(f);
	/* Syllable romanizations would redact "long" in any text. */
	f = dc_name_latin_forms("李小龙");
	assert_int_equal(f->len, 0);
	g_ptr_array_unref(f);
	f = dc_name_latin_forms("bad \xff");
	assert_int_equal(f->len, 0);
	g_ptr_array_unref(f);
}

/* The reporter writes in Cyrillic and signs in Latin letters; the
 * committee answers "Hi Dmitry,". */
static void
test_redacts_latin_forms(void **state)
{
	dc_identity_set_t *set = dc_identity_set_new();
	const char *mail = "Hi Dmitry,\n\nthanks.\n\n> Regards,\n> Dmitry Sokolov\n";
	dc_identity_hit_t hit;
	char *out;

	(void)state;
	dc_identity_add(set, "Reporter A", "Дмитрий Соколов",
			"dsokolov@example.net");
	assert_true(dc_identity_scan(set, mail, strlen(mail), &hit));
	out = dc_redact_text(mail, set);
	assert_null(strstr(out, "Dmitr"));
	assert_null(strstr(out, "Sokolov"));
	assert_non_null(strstr(out, "Hi Reporter A,"));
	assert_false(dc_identity_scan(set, out, strlen(out), &hit));
	g_free(out);
	dc_identity_set_free(set);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_redacts_latin_forms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
