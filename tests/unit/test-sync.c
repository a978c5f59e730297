// SPDX-License-Identifier: GPL-3.0-or-later
/* The shared log's pieces: envelopes read back as written, the merged
 * order, the signers' windows, and a replay of concurrent state changes
 * that comes out the same whatever order the envelopes arrived in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "core/case/case.h"
#include "core/sync/crypt.h"
#include "core/sync/sync.h"

/* A well-formed ssh-ed25519 public key whose 32 key bytes are all n. */
static char *
fake_key(guchar n)
{
	guchar blob[51] = { 0, 0, 0, 11, 's', 's', 'h', '-', 'e', 'd', '2',
			    '5', '5', '1', '9', 0, 0, 0, 32 };
	char *b64, *r;

	memset(blob + 19, n, 32);
	b64 = g_base64_encode(blob, sizeof blob);
	r = g_strconcat("ssh-ed25519 ", b64, NULL);
	g_free(b64);
	return r;
}

static dc_envelope_t *
env(const char *author, int64_t lamport, int64_t at, const char *type)
{
	dc_envelope_t *e = g_new0(dc_envelope_t, 1);

	e->author = g_strdup(author);
	e->lamport = lamport;
	e->at = at;
	e->type = g_strdup(type);
	e->to = g_strdup(author);
	e->payload = g_strdup("-----BEGIN AGE ENCRYPTED FILE-----\nx\n");
	dc_envelope_write(e);
	return e;
}

static dc_envelope_t *
member_env(const char *author, int64_t lamport, int64_t at,
	   const char *key, const char *role, int64_t joined, int64_t left)
{
	dc_envelope_t *e = env(author, lamport, at, "member");

	e->member_key = g_strdup(key);
	e->role = g_strdup(role);
	e->joined = joined;
	e->left = left;
	dc_envelope_write(e);
	return e;
}

static void
env_free_cb(gpointer p)
{
	dc_envelope_free(p);
}

static void
test_round_trip(void **state)
{
	char *k = fake_key(7), *id = dc_key_id(k);
	dc_envelope_t *e = member_env(id, 3, 1000, k, "committee", 10, 20);
	dc_envelope_t *back = NULL;
	dc_error_t err = { 0 };

	(void)state;
	assert_int_equal(dc_envelope_parse(e->text, &back, &err), DC_OK);
	assert_string_equal(back->hash, e->hash);
	assert_string_equal(back->author, id);
	assert_int_equal(back->lamport, 3);
	assert_int_equal(back->at, 1000);
	assert_null(back->case_gid);
	assert_string_equal(back->member_key, k);
	assert_int_equal(back->joined, 10);
	assert_int_equal(back->left, 20);
	assert_string_equal(back->payload, e->payload);
	dc_envelope_free(back);
	/* One byte more or less is another envelope, or none. */
	assert_int_equal(dc_envelope_parse("decorum-envelope 1\nlamport x\n\n",
					   &back, &err),
			 DC_E_DATA);
	assert_null(back);
	assert_non_null(strstr(err.msg, "is not one decorum writes"));
	dc_envelope_free(e);
	g_free(id);
	g_free(k);
}

/* Version 2: a case's envelope names the data key that seals it; one of
 * version 1, sealed to ssh keys alone, still reads. */
static void
test_case_key(void **state)
{
	dc_envelope_t *e = env("aa", 1, 5, "open"), *back = NULL;
	char *v1, *ref;
	dc_error_t err = { 0 };

	(void)state;
	assert_int_equal(e->version, 2);
	assert_null(dc_envelope_case_key(e));
	e->key = g_strdup("age1example");
	dc_envelope_write(e);
	assert_non_null(strstr(e->text, "\nkey age1example\n"));
	assert_int_equal(dc_envelope_parse(e->text, &back, &err), DC_OK);
	assert_int_equal(back->version, 2);
	assert_string_equal(back->key, "age1example");
	/* An opening is its case: the case's id is its hash. */
	assert_string_equal(dc_envelope_case_key(back), back->hash);
	dc_envelope_free(back);
	g_free(e->type);
	e->type = g_strdup("note");
	e->case_gid = g_strdup("abc");
	dc_envelope_write(e);
	assert_int_equal(dc_envelope_parse(e->text, &back, &err), DC_OK);
	assert_string_equal(dc_envelope_case_key(back), "abc");
	dc_envelope_free(back);
	ref = dc_key_ref("abc");
	assert_string_equal(ref, "refs/decorum/keys/abc");
	g_free(ref);
	/* Version 1 has no key line: one there is not an envelope. */
	v1 = g_strdup(e->text);
	v1[17] = '1';
	assert_int_equal(dc_envelope_parse(v1, &back, &err), DC_E_DATA);
	assert_null(back);
	g_free(v1);
	g_free(e->key);
	e->key = NULL;
	e->version = 1;
	dc_envelope_write(e);
	assert_true(g_str_has_prefix(e->text, "decorum-envelope 1\n"));
	assert_int_equal(dc_envelope_parse(e->text, &back, &err), DC_OK);
	assert_int_equal(back->version, 1);
	assert_null(back->key);
	assert_null(dc_envelope_case_key(back));
	assert_string_equal(back->hash, e->hash);
	dc_envelope_free(back);
	/* A key that is not an age recipient is refused. */
	assert_int_equal(dc_envelope_parse("decorum-envelope 2\nauthor a\n"
					   "lamport 1\nat 1\ncase -\ntype x\n"
					   "to a\nkey ssh-ed25519 AAAA\n\nx",
					   &back, &err),
			 DC_E_DATA);
	dc_envelope_free(e);
}

static void
test_merged_order(void **state)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(env_free_cb);
	GPtrArray *b = g_ptr_array_new();
	guint i;

	(void)state;
	g_ptr_array_add(a, env("aa", 2, 5, "note"));
	g_ptr_array_add(a, env("bb", 1, 9, "note"));
	g_ptr_array_add(a, env("cc", 2, 1, "state"));
	g_ptr_array_add(a, env("dd", 3, 0, "note"));
	for (i = a->len; i > 0; i--)
		g_ptr_array_add(b, a->pdata[i - 1]);
	dc_envelope_sort(a);
	dc_envelope_sort(b);
	for (i = 0; i < a->len; i++)
		assert_ptr_equal(a->pdata[i], b->pdata[i]);
	/* By clock, then by hash, never by time or arrival. */
	assert_int_equal(((dc_envelope_t *)a->pdata[0])->lamport, 1);
	assert_int_equal(((dc_envelope_t *)a->pdata[3])->lamport, 3);
	assert_true(strcmp(((dc_envelope_t *)a->pdata[1])->hash,
			   ((dc_envelope_t *)a->pdata[2])->hash) < 0);
	g_ptr_array_unref(b);
	g_ptr_array_unref(a);
}

static dc_status_t
check(GPtrArray *envs, const char *root, dc_error_t *err)
{
	dc_envelope_sort(envs);
	return dc_envelope_check_signers(envs, root, err);
}

static void
test_signers(void **state)
{
	char *ka = fake_key(1), *kb = fake_key(2), *kt = fake_key(3);
	char *a = dc_key_id(ka), *b = dc_key_id(kb), *t = dc_key_id(kt);
	GPtrArray *envs = g_ptr_array_new_with_free_func(env_free_cb);
	dc_error_t err = { 0 };

	(void)state;
	/* The root admits itself, then a committee member and a TAB one. */
	g_ptr_array_add(envs, member_env(a, 1, 100, ka, "committee", 0, 0));
	g_ptr_array_add(envs, member_env(a, 2, 100, kb, "committee", 50, 500));
	g_ptr_array_add(envs, member_env(a, 3, 100, kt, "tab", 0, 0));
	g_ptr_array_add(envs, env(b, 4, 200, "note"));
	g_ptr_array_add(envs, env(t, 5, 200, "vote"));
	assert_int_equal(check(envs, a, &err), DC_OK);

	/* b writes after its window closed. */
	g_ptr_array_add(envs, env(b, 6, 600, "note"));
	assert_int_equal(check(envs, a, &err), DC_E_DENIED);
	assert_non_null(strstr(err.msg, "outside their membership window"));
	g_ptr_array_remove_index(envs, envs->len - 1);

	/* A TAB member may write but not change the membership. */
	g_ptr_array_add(envs, member_env(t, 7, 200, kt, "committee", 0, 0));
	assert_int_equal(check(envs, a, &err), DC_E_DENIED);
	assert_non_null(strstr(err.msg, "(member)"));
	g_ptr_array_remove_index(envs, envs->len - 1);

	/* Nobody else is the root once the committee has a member. */
	assert_int_equal(check(envs, b, &err), DC_E_DENIED);
	assert_non_null(strstr(err.msg, "is not a member"));
	assert_int_equal(check(envs, NULL, &err), DC_E_DENIED);

	g_ptr_array_unref(envs);
	g_free(a);
	g_free(b);
	g_free(t);
	g_free(ka);
	g_free(kb);
	g_free(kt);
}

static dc_store_event_t *
event(int64_t id, int64_t lamport, const char *actor, const char *type,
      const char *data)
{
	dc_store_event_t *e = g_new0(dc_store_event_t, 1);

	e->id = id;
	e->case_id = 1;
	e->at = 1000 + id;
	e->actor = g_strdup(actor);
	e->type = g_strdup(type);
	e->data = g_strdup(data);
	e->lamport = lamport;
	return e;
}

static void
event_free_cb(gpointer p)
{
	dc_store_event_free(p);
}

static dc_case_t *
replay(GPtrArray *evs)
{
	dc_case_t *c = g_new0(dc_case_t, 1);

	c->id = 1;
	dc_case_replay(c, evs);
	return c;
}

static guint
open_clashes(const dc_case_t *c)
{
	guint i, n = 0;

	for (i = 0; i < c->clashes->len; i++)
		n += !((dc_clash_t *)c->clashes->pdata[i])->resolved;
	return n;
}

static void
test_concurrent_states(void **state)
{
	GPtrArray *evs = g_ptr_array_new_with_free_func(event_free_cb);
	dc_case_t *c;

	(void)state;
	/* Two members move the case from new at once: the merged order
	 * (here by clock) takes the first, and the second is a clash. */
	g_ptr_array_add(evs, event(1, 1, "alice@example.org", "open",
				   "{'kind': <'escalation'>}"));
	g_ptr_array_add(evs, event(2, 2, "alice@example.org", "state",
				   "{'from': <'new'>, 'to': <'closed'>}"));
	g_ptr_array_add(evs, event(3, 3, "bob@example.org", "state",
				   "{'from': <'new'>, 'to': <'acknowledged'>}"));
	c = replay(evs);
	assert_string_equal(c->state, "closed");
	assert_int_equal(open_clashes(c), 1);
	assert_string_equal(((dc_clash_t *)c->clashes->pdata[0])->actor,
			    "bob@example.org");
	assert_string_equal(((dc_clash_t *)c->clashes->pdata[0])->found,
			    "closed");
	assert_int_equal(c->history->len, 3);
	dc_case_free(c);

	/* Resolved, and then moved on from where the merged order has it. */
	g_ptr_array_add(evs, event(4, 4, "bob@example.org", "resolve", "{}"));
	g_ptr_array_add(evs, event(5, 5, "bob@example.org", "state",
				   "{'from': <'closed'>, 'to': <'investigating'>}"));
	c = replay(evs);
	assert_string_equal(c->state, "investigating");
	assert_int_equal(open_clashes(c), 0);
	dc_case_free(c);

	/* Events of a store that never shared are not checked again. */
	((dc_store_event_t *)evs->pdata[2])->lamport = 0;
	g_ptr_array_set_size(evs, 3);
	c = replay(evs);
	assert_string_equal(c->state, "acknowledged");
	assert_int_equal(c->clashes->len, 0);
	dc_case_free(c);
	g_ptr_array_unref(evs);
}

static void
test_same_move_twice(void **state)
{
	GPtrArray *evs = g_ptr_array_new_with_free_func(event_free_cb);
	dc_case_t *c;

	(void)state;
	g_ptr_array_add(evs, event(1, 1, "alice@example.org", "open",
				   "{'kind': <'escalation'>}"));
	g_ptr_array_add(evs, event(2, 2, "alice@example.org", "state",
				   "{'from': <'new'>, 'to': <'acknowledged'>}"));
	g_ptr_array_add(evs, event(3, 3, "bob@example.org", "state",
				   "{'from': <'new'>, 'to': <'acknowledged'>}"));
	c = replay(evs);
	assert_string_equal(c->state, "acknowledged");
	assert_int_equal(c->clashes->len, 0);
	dc_case_free(c);
	g_ptr_array_unref(evs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_case_key),
		cmocka_unit_test(test_merged_order),
		cmocka_unit_test(test_signers),
		cmocka_unit_test(test_concurrent_states),
		cmocka_unit_test(test_same_move_twice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
