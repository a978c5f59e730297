// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The kernel documentation behind each action (core/docs/doclink.h): the one
 * table of links, a small reader for the RST of the guide our series adds,
 * and the check that every link resolves in the built HTML.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "core/docs/doclink.h"
#include "datadir.h"

#define GUIDE "process/code-of-conduct-maintainer-guide"
#define INTERP "process/code-of-conduct-interpretation"
#define KDOC "https://docs.kernel.org/"

/* Kinds first, by their dc_kind_name(). */
static const dc_doclink_t links[] = {
	{ "admonition", GUIDE, "coc_maintainer_admonition",
	  "coc-maintainer-admonition",
	  KDOC GUIDE ".html#coc-maintainer-admonition",
	  "Responding yourself", 1 },
	{ "escalation", GUIDE, "coc_maintainer_escalation",
	  "coc-maintainer-escalation",
	  KDOC GUIDE ".html#coc-maintainer-escalation",
	  "Reporting to the Code of Conduct Committee", 1 },
	{ "tab", GUIDE, "coc_maintainer_tab_consultation",
	  "coc-maintainer-tab-consultation",
	  KDOC GUIDE ".html#coc-maintainer-tab-consultation",
	  "Asking for advice", 1 },
	{ "guide", GUIDE, "coc_maintainer_guide", "coc-maintainer-guide",
	  KDOC GUIDE ".html#coc-maintainer-guide",
	  "Conduct problems: a guide for maintainers", 1 },
	/* Reports and votes follow it (core/export/report.c, core/case/vote.h); its
	 * source is the kernel's, not ours, so only the link ships. */
	{ "interpretation", INTERP, "code_of_conduct_interpretation",
	  "code-of-conduct-interpretation",
	  KDOC INTERP ".html#code-of-conduct-interpretation",
	  "Linux Kernel Contributor Covenant Code of Conduct Interpretation",
	  0 },
};

const dc_doclink_t *
dc_doclinks(int *n)
{
	*n = G_N_ELEMENTS(links);
	return links;
}

const dc_doclink_t *
dc_doclink_find(const char *name)
{
	guint i;

	for (i = 0; name && i < G_N_ELEMENTS(links); i++)
		if (!strcmp(links[i].name, name))
			return &links[i];
	return NULL;
}

const dc_doclink_t *
dc_doclink_for_kind(dc_kind_t k)
{
	return k < DC_KIND_COUNT ? dc_doclink_find(dc_kind_name(k)) : NULL;
}

const char *
dc_doclink_url(dc_kind_t k)
{
	const dc_doclink_t *l = dc_doclink_for_kind(k);

	return l ? l->url : NULL;
}

void
dc_doc_section_clear(dc_doc_section_t *s)
{
	g_clear_pointer(&s->title, g_free);
	g_clear_pointer(&s->text, g_free);
}

/* ---- reading RST ------------------------------------------------------- */

/* A title: its block's lines and its level (adornment styles are levels
 * in the order a document first uses them). */
typedef struct title {
	int text;  /* the title's own line */
	int first; /* the overline, or text */
	int last;  /* the underline */
	int level;
} title_t;

typedef struct rst {
	char **lines;
	int n;
	GArray *titles; /* title_t, in order */
	int *title_at;	/* per line: index into titles of a block's first
			 * line, else -1 */
	const char *self_label;
} rst_t;

static int
is_blank(const char *s)
{
	for (; *s; s++)
		if (!g_ascii_isspace(*s))
			return 0;
	return 1;
}

/* A line of one repeated punctuation character (RST's adornments). */
static int
adornment(const char *s)
{
	size_t i, n = strlen(s);

	if (n < 2 || !strchr("=-~^\"'`:.*+#_<>", s[0]))
		return 0;
	for (i = 1; i < n; i++)
		if (s[i] != s[0])
			return 0;
	return s[0];
}

/* ".. _label:" gives label (g_free), else NULL. */
static char *
label_of(const char *s)
{
	size_t n;

	while (*s == ' ')
		s++;
	if (strncmp(s, ".. _", 4))
		return NULL;
	s += 4;
	n = strlen(s);
	if (n < 2 || s[n - 1] != ':' || s[0] == '_')
		return NULL;
	return g_strndup(s, n - 1);
}

static void
rst_scan(rst_t *r, const char *text)
{
	GArray *styles = g_array_new(FALSE, FALSE, sizeof(int));
	int i;

	r->lines = g_strsplit(text, "\n", -1);
	r->n = (int)g_strv_length(r->lines);
	for (i = 0; i < r->n; i++)
		g_strchomp(r->lines[i]);
	r->titles = g_array_new(FALSE, FALSE, sizeof(title_t));
	r->title_at = g_new(int, r->n + 1);
	for (i = 0; i <= r->n; i++)
		r->title_at[i] = -1;
	for (i = 0; i + 1 < r->n; i++) {
		const char *s = r->lines[i];
		int under, over = 0, style;
		title_t t = { i, i, i + 1, 0 };
		guint k;

		if (is_blank(s) || s[0] == ' ' || adornment(s) ||
		    !(under = adornment(r->lines[i + 1])))
			continue;
		if (i > 0 && adornment(r->lines[i - 1])) {
			if (r->lines[i - 1][0] != under)
				continue;
			over = 1;
			t.first = i - 1;
		} else if (i > 0 && !is_blank(r->lines[i - 1])) {
			continue; /* a paragraph's last line, not a title */
		}
		style = under | over << 8;
		for (k = 0; k < styles->len; k++)
			if (g_array_index(styles, int, k) == style)
				break;
		if (k == styles->len)
			g_array_append_val(styles, style);
		t.level = (int)k;
		r->title_at[t.first] = (int)r->titles->len;
		g_array_append_val(r->titles, t);
		i++;
	}
	g_array_free(styles, TRUE);
}

static void
rst_free(rst_t *r)
{
	g_strfreev(r->lines);
	g_array_free(r->titles, TRUE);
	g_free(r->title_at);
}

/* The title that the label on line li names, or NULL. */
static const title_t *
title_after(const rst_t *r, int li)
{
	char *l;
	int i;

	for (i = li + 1; i < r->n; i++) {
		if (is_blank(r->lines[i]))
			continue;
		if ((l = label_of(r->lines[i]))) {
			g_free(l);
			continue;
		}
		break;
	}
	if (i >= r->n || r->title_at[i] < 0)
		return NULL;
	return &g_array_index(r->titles, title_t, r->title_at[i]);
}

/* The title of a label: ours (the table), then the document's own. */
static char *
ref_title(const rst_t *r, const char *label)
{
	const title_t *t;
	guint i;

	for (i = 0; i < G_N_ELEMENTS(links); i++)
		if (!strcmp(links[i].label, label))
			return g_strdup(links[i].title);
	for (i = 0; (int)i < r->n; i++) {
		char *l = label_of(r->lines[i]);
		int same = l && !strcmp(l, label);

		g_free(l);
		if (same && (t = title_after(r, (int)i)))
			return g_strdup(r->lines[t->text]);
	}
	if (!strcmp(label, "code_of_conduct"))
		return g_strdup("Contributor Covenant Code of Conduct");
	return g_strdelimit(g_strdup(label), "_", ' ');
}

/* :role:`text <target>` gives text; :ref:`label` the label's title. */
static gboolean
eval_role(const GMatchInfo *m, GString *out, gpointer data)
{
	char *role = g_match_info_fetch(m, 1);
	char *body = g_match_info_fetch(m, 2);
	char *lt = strrchr(body, '<');
	size_t n = strlen(body);

	if (lt && n && body[n - 1] == '>') {
		*lt = 0;
		g_strstrip(body);
		if (*body) {
			g_string_append(out, body);
		} else {
			body[n - 1] = 0;
			g_string_append(out, lt + 1);
		}
	} else if (!strcmp(role, "ref")) {
		char *t = ref_title(data, g_strstrip(body));

		g_string_append(out, t);
		g_free(t);
	} else {
		g_string_append(out, body);
	}
	g_free(role);
	g_free(body);
	return FALSE;
}

/* `text <url>`_ gives "text (url)". */
static gboolean
eval_link(const GMatchInfo *m, GString *out, gpointer data)
{
	char *text = g_match_info_fetch(m, 1);
	char *url = g_match_info_fetch(m, 2);

	g_strstrip(text);
	if (!*text || !strcmp(text, url))
		g_string_append(out, url);
	else
		g_string_append_printf(out, "%s (%s)", text, url);
	g_free(text);
	g_free(url);
	return FALSE;
}

static char *
replace(char *s, const char *pattern, const char *with,
	GRegexEvalCallback eval, gpointer data)
{
	GRegex *re = g_regex_new(pattern, G_REGEX_OPTIMIZE, 0, NULL);
	char *t;

	t = eval ? g_regex_replace_eval(re, s, -1, 0, 0, eval, data, NULL) :
		   g_regex_replace(re, s, -1, 0, with, 0, NULL);
	g_regex_unref(re);
	if (!t)
		return s;
	g_free(s);
	return t;
}

/* Inline markup away; the text stays. */
static char *
strip_inline(char *s, rst_t *r)
{
	s = replace(s, ":(?:[a-z]+:)?([a-z]+):`([^`]+)`", NULL, eval_role, r);
	s = replace(s, "``([^`]+)``", "\\1", NULL, NULL);
	s = replace(s, "`([^`<]*?)\\s*<([^>`]+)>`__?", NULL, eval_link, NULL);
	s = replace(s, "`([^`]+)`_{0,2}", "\\1", NULL, NULL);
	s = replace(s, "\\*\\*([^*\\n]+)\\*\\*", "\\1", NULL, NULL);
	s = replace(s, "(?<![\\w*])\\*([^*\\s](?:[^*\\n]*[^*\\s])?)\\*(?![\\w*])",
		    "\\1", NULL, NULL);
	return replace(s, "\\\\([^\\w\\s])", "\\1", NULL, NULL);
}

static int
indent_of(const char *s)
{
	int i = 0;

	while (s[i] == ' ')
		i++;
	return i;
}

/* A body line, with "::" (a literal block follows) made plain. */
static void
add_line(GString *out, const char *s)
{
	size_t n = strlen(s);

	if (n >= 2 && !strcmp(s + n - 2, "::")) {
		if ((size_t)indent_of(s) == n - 2)
			return;
		if (n >= 3 && s[n - 3] == ' ')
			n -= 3;
		else
			n -= 1;
	}
	g_string_append_len(out, s, (gssize)n);
	g_string_append_c(out, '\n');
}

/* Lines [from, to) as terminal text: nested titles kept plain, comments
 * and directive lines dropped. */
static char *
body_text(rst_t *r, int from, int to)
{
	GString *out = g_string_new(NULL);
	int i, skip = -1;
	char *s, **ls, **p;

	for (i = from; i < to; i++) {
		const char *l = r->lines[i];

		if (skip >= 0) {
			if (is_blank(l) || indent_of(l) > skip)
				continue;
			skip = -1;
		}
		if (r->title_at[i] >= 0) {
			const title_t *t = &g_array_index(
				r->titles, title_t, r->title_at[i]);
			const char *tt = r->lines[t->text];
			glong w = g_utf8_strlen(tt, -1);

			g_string_append_printf(out, "%s\n", tt);
			while (w-- > 0)
				g_string_append_c(out, r->lines[t->last][0]);
			g_string_append_c(out, '\n');
			i = t->last;
			continue;
		}
		if (!strncmp(l + indent_of(l), "..", 2) &&
		    (l[indent_of(l) + 2] == ' ' || !l[indent_of(l) + 2])) {
			/* A comment hides its indented block; a directive's
			 * content stays (its ":option:" lines do not). */
			if (!strstr(l, "::"))
				skip = indent_of(l);
			continue;
		}
		if (g_regex_match_simple("^\\s+:[a-z-]+:( |$)", l, 0, 0) &&
		    i > from && strstr(r->lines[i - 1], "::"))
			continue;
		add_line(out, l);
	}
	s = strip_inline(g_string_free(out, FALSE), r);
	/* No runs of blank lines, none at either end. */
	ls = g_strsplit(s, "\n", -1);
	g_free(s);
	out = g_string_new(NULL);
	for (p = ls; *p; p++) {
		if (is_blank(*p) && (!out->len || (p[1] && is_blank(p[1]))))
			continue;
		g_string_append_printf(out, "%s\n", is_blank(*p) ? "" : *p);
	}
	g_strfreev(ls);
	while (out->len >= 2 && out->str[out->len - 1] == '\n' &&
	       out->str[out->len - 2] == '\n')
		g_string_truncate(out, out->len - 1);
	return g_string_free(out, FALSE);
}

dc_status_t
dc_doc_section_parse(const char *text, const char *label,
		     dc_doc_section_t *out, dc_error_t *err)
{
	rst_t r = { 0 };
	const title_t *t = NULL;
	int i, end;
	char *l;

	memset(out, 0, sizeof(*out));
	rst_scan(&r, text ? text : "");
	for (i = 0; i < r.n && !t; i++) {
		l = label_of(r.lines[i]);
		if (l && !strcmp(l, label) && !(t = title_after(&r, i))) {
			g_free(l);
			rst_free(&r);
			return dc_fail(err, DC_E_NOT_FOUND,
				       "label %s is not followed by a title",
				       label);
		}
		g_free(l);
	}
	if (!t) {
		rst_free(&r);
		return dc_fail(err, DC_E_NOT_FOUND, "no label %s", label);
	}
	for (end = t->last + 1; end < r.n; end++) {
		int k = r.title_at[end];

		if (k >= 0 && g_array_index(r.titles, title_t, k).level <=
				      t->level)
			break;
		if ((l = label_of(r.lines[end]))) {
			g_free(l);
			break;
		}
	}
	out->title = strip_inline(g_strdup(r.lines[t->text]), &r);
	out->text = body_text(&r, t->last + 1, end);
	rst_free(&r);
	return DC_OK;
}

/* ---- where the files are ------------------------------------------------ */

static char *
rst_path(const char *dir, const dc_doclink_t *l)
{
	char *name = g_strconcat(l->page, ".rst", NULL);
	char *p = g_build_filename(dir, name, NULL);

	g_free(name);
	return p;
}

/* build/kernel-doc of the source tree the running binary was built in:
 * beside ./decorum, or, for a binary built inside build/ itself (such as
 * build/san/decorum), in that build/ folder. */
static char *
beside(const char *exe)
{
	char *dir = g_path_get_dirname(exe), *r;
	const char *b = g_strrstr(dir, "/build/");

	if (b)
		r = g_strdup_printf("%.*s/build/kernel-doc", (int)(b - dir),
				    dir);
	else
		r = g_build_filename(dir, "build", "kernel-doc", NULL);
	g_free(dir);
	return r;
}

dc_status_t
dc_doc_source_dir(const dc_doclink_t *l, char **out, dc_error_t *err)
{
	const char *env = getenv("DECORUM_KERNEL_DOC");
	char *dirs[3] = { 0 }, *exe, *p;
	dc_status_t st = DC_E_NOT_FOUND;
	int i, n = 0;

	*out = NULL;
	if (!l->installed)
		return dc_fail(err, DC_E_NOT_FOUND,
			       "%s.rst is the kernel's and is not installed "
			       "with decorum: read %s",
			       l->page, l->url);
	if (env && *env) {
		dirs[n++] = g_strdup(env);
	} else {
		exe = g_file_read_link("/proc/self/exe", NULL);
		if (exe) {
			dirs[n++] = beside(exe);
			g_free(exe);
		}
		dirs[n++] = g_strdup(DC_DATADIR "/kernel-doc");
	}
	for (i = 0; i < n && st != DC_OK; i++) {
		p = rst_path(dirs[i], l);
		if (g_file_test(p, G_FILE_TEST_IS_REGULAR)) {
			*out = g_strdup(dirs[i]);
			st = DC_OK;
		}
		g_free(p);
	}
	if (st != DC_OK)
		dc_fail(err, st, "%s.rst not found in %s%s%s (installed by "
			"make install; $DECORUM_KERNEL_DOC points elsewhere)",
			l->page, dirs[0], n > 1 ? " or " : "",
			n > 1 ? dirs[n - 1] : "");
	for (i = 0; i < n; i++)
		g_free(dirs[i]);
	return st;
}

dc_status_t
dc_doc_section_load(const dc_doclink_t *l, dc_doc_section_t *out,
		    dc_error_t *err)
{
	GError *ge = NULL;
	char *dir, *path, *text;
	dc_status_t st;

	memset(out, 0, sizeof(*out));
	if ((st = dc_doc_source_dir(l, &dir, err)) != DC_OK)
		return st;
	path = rst_path(dir, l);
	g_free(dir);
	if (!g_file_get_contents(path, &text, NULL, &ge)) {
		st = dc_fail(err, DC_E_IO, "%s", ge->message);
		g_error_free(ge);
		g_free(path);
		return st;
	}
	st = dc_doc_section_parse(text, l->label, out, err);
	if (st != DC_OK)
		dc_fail_prefix(err, "%s", path);
	g_free(text);
	g_free(path);
	return st;
}

char *
dc_doc_html_file(const dc_doclink_t *l, const char *dir)
{
	char *name = g_strconcat(l->page, ".html", NULL);
	char *p = g_build_filename(dir, name, NULL);

	g_free(name);
	if (g_file_test(p, G_FILE_TEST_IS_REGULAR))
		return p;
	g_free(p);
	return NULL;
}

static int
newest_first(const void *a, const void *b)
{
	return strverscmp(*(char *const *)b, *(char *const *)a);
}

/* <cache>/<version>/docs/Documentation/output, newest version first. */
static char *
cached_html(void)
{
	const char *env = getenv("DECORUM_KERNEL_CACHE");
	char *cache = env && *env ?
			      g_strdup(env) :
			      g_build_filename(g_get_user_cache_dir(),
					       "decorum", "kernel", NULL);
	GPtrArray *vers = g_ptr_array_new_with_free_func(g_free);
	char *found = NULL, *f;
	struct dirent *e;
	DIR *d = opendir(cache);
	guint i;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			g_ptr_array_add(vers, g_strdup(e->d_name));
	if (d)
		closedir(d);
	if (vers->len)
		qsort(vers->pdata, vers->len, sizeof(char *), newest_first);
	for (i = 0; i < vers->len && !found; i++) {
		char *dir = g_build_filename(cache, vers->pdata[i], "docs",
					     "Documentation", "output", NULL);

		if ((f = dc_doc_html_file(&links[0], dir))) {
			g_free(f);
			found = dir;
		} else {
			g_free(dir);
		}
	}
	g_ptr_array_unref(vers);
	g_free(cache);
	return found;
}

char *
dc_doc_html_dir(const char *dir)
{
	const char *env = getenv("DECORUM_KERNEL_DOC_HTML");

	if (dir && *dir)
		return g_strdup(dir);
	if (env && *env)
		return g_strdup(env);
	return cached_html();
}

dc_status_t
dc_doc_check(const char *dir, int *checked, dc_error_t *err)
{
	guint i;
	int ok = 0;

	for (i = 0; i < G_N_ELEMENTS(links); i++) {
		const dc_doclink_t *l = &links[i];
		char *f = dc_doc_html_file(l, dir), *html = NULL, *id;
		int found;

		if (!f) {
			if (checked)
				*checked = ok;
			return dc_fail(err, DC_E_NOT_FOUND,
				       "%s (%s): no %s.html in %s", l->url,
				       l->name, l->page, dir);
		}
		id = g_strdup_printf("id=\"%s\"", l->anchor);
		found = g_file_get_contents(f, &html, NULL, NULL) &&
			strstr(html, id);
		g_free(html);
		g_free(id);
		if (!found) {
			dc_fail(err, DC_E_NOT_FOUND,
				"%s (%s): no anchor #%s in %s", l->url, l->name,
				l->anchor, f);
			g_free(f);
			if (checked)
				*checked = ok;
			return DC_E_NOT_FOUND;
		}
		g_free(f);
		ok++;
	}
	if (checked)
		*checked = ok;
	return DC_OK;
}
