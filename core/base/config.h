/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * decorum's own configuration: a GLib key file at
 * $XDG_CONFIG_HOME/decorum/config (~/.config/decorum/config).
 *
 *   [ui]
 *   default_query = to:conduct@kernel.org or tag:coc/case
 *   [keys]
 *   move-down = j Down
 *   [colors]
 *   escalation = red default bold
 *   [identity]
 *   address = maintainer@example.org
 *   [mime]
 *   html = w3m -dump -T text/html -I UTF-8 -O UTF-8
 *
 * Loading never fails and never exits: a line that cannot be read is left
 * out with a warning naming the file and the line, and the defaults stay in
 * force for whatever it would have set.
 */
#ifndef DC_CONFIG_H
#define DC_CONFIG_H

#include <glib.h>

typedef struct dc_config dc_config_t;

/* path NULL: the default path; a missing file is an empty configuration. */
dc_config_t *dc_config_load(const char *path);
void dc_config_free(dc_config_t *c);
/* Newly allocated default path: $DECORUM_CONFIG when set, else the
 * file above. */
char *dc_config_default_path(void);
const char *dc_config_path(const dc_config_t *c);

/* A value, or NULL when unset (owned by the configuration). */
const char *dc_config_get(const dc_config_t *c, const char *group,
			  const char *key);
/* The keys of a group, in file order (NULL-terminated; owned by c). */
const char *const *dc_config_keys(const dc_config_t *c, const char *group);
/* The line a key was set on, for messages (0 if unknown). */
int dc_config_line(const dc_config_t *c, const char *group, const char *key);

/* Record a warning about a key ("FILE:LINE: [group] key: why"). */
void dc_config_warn(dc_config_t *c, const char *group, const char *key,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Warnings gathered so far (char *), oldest first; owned by c. */
GPtrArray *dc_config_warnings(const dc_config_t *c);

/* One value, stripped, from the file at path (NULL: the default path),
 * or NULL when it is unset or empty (g_free). */
char *dc_config_value(const char *path, const char *group, const char *key);

#endif
