// SPDX-License-Identifier: GPL-3.0-or-later
/* Which cases to list (see core/case/filter.h). */
#include <stdlib.h>
#include <string.h>

#include "core/base/choice.h"
#include "core/case/filter.h"

#define DAY 86400

/* The filter words: the states, then the kinds, then open and all. */
static const char *const words[] = {
	"open",	      "closed",	    "new",	  "acknowledged",
	"investigating", "decided", "admonition", "escalation",
	"tab",	      "all",	    NULL,
};

const char *const *
dc_case_filter_words(void)
{
	return words;
}

/* The bit of a state in dc_case_states(). */
static unsigned
state_bit(const char *state)
{
	int i = dc_choice_find(dc_case_states(), -1, state);

	return i < 0 ? 0 : 1u << i;
}

static unsigned
open_states(void)
{
	const char *const *st = dc_case_states();
	unsigned m = 0;
	int i;

	for (i = 0; st[i]; i++)
		if (strcmp(st[i], "closed"))
			m |= 1u << i;
	return m;
}

/* "30d" or "30": 1 with *days. */
static int
parse_age(const char *w, int *days)
{
	char *end;
	long n;

	if (!g_ascii_isdigit(*w))
		return 0;
	n = strtol(w, &end, 10);
	if (*end == 'd')
		end++;
	if (*end || n < 1 || n > 100000)
		return 0;
	*days = (int)n;
	return 1;
}

dc_status_t
dc_case_filter_word(dc_case_filter_t *f, const char *word, dc_error_t *err)
{
	dc_kind_t k;
	int i, days;
	char *list;
	const char *w;

	if (parse_age(word, &days)) {
		f->since_days = days;
		return DC_OK;
	}
	i = dc_choice_resolve(words, -1, word);
	if (i < 0) {
		GPtrArray *m = dc_choice_matches(words, -1, word);
		dc_status_t st;

		g_ptr_array_add(m, NULL);
		list = dc_choice_list(i == -2 ? (const char *const *)m->pdata :
						words,
				      -1);
		if (i == -2)
			st = dc_fail(err, DC_E_USAGE, "'%s' could be %s", word,
				     list);
		else
			st = dc_fail(err, DC_E_USAGE,
				     "unknown filter '%s' (%s, or an age in "
				     "days such as 30d)",
				     word, list);
		g_ptr_array_unref(m);
		g_free(list);
		return st;
	}
	w = words[i];
	if (!strcmp(w, "all"))
		*f = (dc_case_filter_t){ 0 };
	else if (!strcmp(w, "open"))
		f->states |= open_states();
	else if (dc_kind_parse(w, &k, NULL) == DC_OK)
		f->kinds |= 1u << k;
	else
		f->states |= state_bit(w);
	return DC_OK;
}

dc_status_t
dc_case_filter_parse(dc_case_filter_t *f, const char *text, dc_error_t *err)
{
	dc_case_filter_t n = { 0 };
	char **w = g_strsplit_set(text ? text : "", " \t", -1);
	dc_status_t st = DC_OK;
	int i;

	for (i = 0; w[i] && st == DC_OK; i++)
		if (*w[i])
			st = dc_case_filter_word(&n, w[i], err);
	g_strfreev(w);
	if (st == DC_OK)
		*f = n;
	return st;
}

char *
dc_case_filter_describe(const dc_case_filter_t *f)
{
	const char *const *st = dc_case_states();
	GString *s = g_string_new(NULL);
	unsigned open = open_states(), states = f->states;
	int i;

	if ((states & open) == open) {
		g_string_append(s, "open");
		states &= ~open;
	}
	for (i = 0; st[i]; i++)
		if (states & (1u << i))
			g_string_append_printf(s, "%s%s", s->len ? " " : "",
					       st[i]);
	for (i = 0; i < DC_KIND_COUNT; i++)
		if (f->kinds & (1u << i))
			g_string_append_printf(s, "%s%s", s->len ? " " : "",
					       dc_kind_name(i));
	if (f->since_days)
		g_string_append_printf(s, "%s%dd", s->len ? " " : "",
				       f->since_days);
	return g_string_free(s, FALSE);
}

int
dc_case_filter_match(const dc_case_filter_t *f, const dc_case_t *c,
		     int64_t now)
{
	if (!f)
		return 1;
	/* A state no filter word names (withdrawn) passes only "all". */
	if (f->states && !(f->states & state_bit(c->state)))
		return 0;
	if (f->kinds && !(f->kinds & (1u << c->kind)))
		return 0;
	if (f->since_days &&
	    c->created_at < now - (int64_t)f->since_days * DAY)
		return 0;
	return 1;
}

static gint
by_activity(gconstpointer a, gconstpointer b)
{
	const dc_case_t *x = *(dc_case_t *const *)a;
	const dc_case_t *y = *(dc_case_t *const *)b;

	if (x->updated_at != y->updated_at)
		return x->updated_at > y->updated_at ? -1 : 1;
	return x->id > y->id ? -1 : x->id < y->id;
}

dc_status_t
dc_case_list_filtered(dc_store_t *s, const dc_case_filter_t *f,
		      int withdrawn, int order, int64_t now, GPtrArray **out,
		      dc_error_t *err)
{
	GPtrArray *all = NULL;
	dc_status_t st;
	guint i;

	*out = NULL;
	st = withdrawn ? dc_case_list_all(s, &all, err) :
			 dc_case_list(s, &all, err);
	if (st != DC_OK)
		return st;
	for (i = all->len; i > 0; i--)
		if (!dc_case_filter_match(f, all->pdata[i - 1], now))
			g_ptr_array_remove_index(all, i - 1);
	if (order == DC_CASES_BY_ACTIVITY)
		g_ptr_array_sort(all, by_activity);
	*out = all;
	return DC_OK;
}
