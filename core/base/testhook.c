// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Test hooks (core/base/testhook.h).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/testhook.h"

void
dc_test_crash_point(const char *point)
{
	const char *v = getenv("DECORUM_TEST_CRASH");

	if (v && !strcmp(v, point))
		raise(SIGKILL);
}
