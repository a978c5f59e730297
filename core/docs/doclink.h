/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The kernel documentation that governs what decorum does: one table of
 * the sections it links (the maintainer guide our series adds to
 * Documentation/process/, and the interpretation document it defers to),
 * the text of a section read from the guide's .rst as installed with
 * decorum, the built HTML when there is one, and a check that every link
 * resolves to an anchor in that HTML.
 *
 * The labels are the series' stable labels (docs/kernel/README.md);
 * Sphinx turns a label's underscores into the anchor's hyphens.
 */
#ifndef DC_DOCLINK_H
#define DC_DOCLINK_H

#include "core/case/case.h"
#include "core/base/status.h"

typedef struct dc_doclink {
	const char *name;   /* "escalation": a case kind, or "guide", ... */
	const char *page;   /* "process/code-of-conduct-maintainer-guide" */
	const char *label;  /* "coc_maintainer_escalation" */
	const char *anchor; /* "coc-maintainer-escalation" */
	const char *url;    /* https://docs.kernel.org/<page>.html#<anchor> */
	const char *title;  /* the section's title, for lists and :ref: */
	int installed;      /* decorum ships page.rst (the series adds it) */
} dc_doclink_t;

/* The table, in the order decorum doc --list shows it. */
const dc_doclink_t *dc_doclinks(int *n);
/* By name; NULL when there is no such entry. */
const dc_doclink_t *dc_doclink_find(const char *name);
/* The section that governs a case kind (never NULL for a valid kind). */
const dc_doclink_t *dc_doclink_for_kind(dc_kind_t k);
/* Its docs.kernel.org address, or NULL for an invalid kind. */
const char *dc_doclink_url(dc_kind_t k);

typedef struct dc_doc_section {
	char *title; /* plain text */
	char *text;  /* the body, RST markup stripped for a terminal */
} dc_doc_section_t;

void dc_doc_section_clear(dc_doc_section_t *s);

/*
 * The section under ".. _label:" in rst: its title and its body up to the
 * next title of the same or a higher level or the next label, whichever
 * comes first.  DC_E_NOT_FOUND when rst has no such label (or no title
 * after it).
 */
dc_status_t dc_doc_section_parse(const char *rst, const char *label,
				 dc_doc_section_t *out, dc_error_t *err);

/*
 * Where the installed kernel documentation sources are: $DECORUM_KERNEL_DOC
 * when set (and nowhere else), else build/kernel-doc beside the running
 * binary (a build tree), else DC_DATADIR/kernel-doc.  The first directory
 * holding page.rst of the link (g_free); DC_E_NOT_FOUND naming where it
 * looked otherwise.
 */
dc_status_t dc_doc_source_dir(const dc_doclink_t *l, char **out,
			      dc_error_t *err);
/* Read the link's section from the installed sources. */
dc_status_t dc_doc_section_load(const dc_doclink_t *l, dc_doc_section_t *out,
				dc_error_t *err);

/*
 * The built HTML (the Sphinx output directory): dir when given, else
 * $DECORUM_KERNEL_DOC_HTML, else the newest Documentation/output of the
 * kernel check's cache (tests/kernel/common.sh) that holds the guide.
 * NULL when none is found (g_free otherwise).
 */
char *dc_doc_html_dir(const char *dir);
/* dir/page.html when it exists (g_free), else NULL. */
char *dc_doc_html_file(const dc_doclink_t *l, const char *dir);

/*
 * Every link of the table: dir/page.html exists and has id="anchor".
 * DC_E_NOT_FOUND naming the first that does not; *checked (may be NULL)
 * counts the links that resolved.
 */
dc_status_t dc_doc_check(const char *dir, int *checked, dc_error_t *err);

#endif
