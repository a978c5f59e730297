/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The category of behaviour a report is about, as the committee's
 * published report groups them.  The list is decorum's configuration
 * ([report] categories, separated by ";" or by new lines); without it,
 * the categories the committee's own published reports use:
 *
 *   development-process related
 *   scope and enforcement related
 *   unacceptable behaviour or comments
 *
 * A case's category is an event ("category"), so undo and the history
 * treat it as every other change.
 */
#ifndef DC_CATEGORY_H
#define DC_CATEGORY_H

#include <stdint.h>

#include "core/case/case.h"

/* The categories in force (the configuration at path, NULL: the default
 * file), NULL-terminated (g_strfreev). */
char **dc_category_list(const char *path);
/* The list split from a configuration value (";" or new lines; blanks
 * dropped); the default list for NULL or an empty value (g_strfreev). */
char **dc_category_split(const char *value);
/*
 * The category in list that text names: the same words, ignoring case
 * and surrounding blanks, or a prefix that only one of them has.  NULL
 * when none: DC_E_USAGE in err, with the list.
 */
const char *dc_category_match(char *const *list, const char *text,
			      dc_error_t *err);

/*
 * Set the category of a case from the configured list.  Refused
 * (DC_E_USAGE, the list in the message) for anything else; for a
 * withdrawn case (DC_E_INVALID); and, once a committee member is
 * registered, for an actor who is not an active committee member
 * (DC_E_DENIED).
 */
dc_status_t dc_case_category(dc_store_t *s, int64_t case_id, const char *text,
			     const char *actor, int64_t now, dc_error_t *err);

#endif
