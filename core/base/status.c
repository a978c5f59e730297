// SPDX-License-Identifier: GPL-3.0-or-later
#include <stdio.h>
#include <string.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))

#include "status.h"

dc_status_t
dc_fail(dc_error_t *err, dc_status_t st, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return st;
	err->status = st;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return st;
}

dc_status_t
dc_fail_prefix(dc_error_t *err, const char *fmt, ...)
{
	char buf[sizeof(err->msg)];
	size_t n;
	va_list ap;

	if (!err)
		return DC_E_DATA;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	n = strlen(buf);
	if (n + 2 < sizeof(buf)) {
		memcpy(buf + n, ": ", 3);
		n += 2;
		memcpy(buf + n, err->msg, MIN(strlen(err->msg) + 1,
					      sizeof(buf) - n));
		buf[sizeof(buf) - 1] = '\0';
	}
	memcpy(err->msg, buf, sizeof(buf));
	return err->status;
}

void
dc_error_clear(dc_error_t *err)
{
	if (err) {
		err->status = DC_OK;
		err->msg[0] = '\0';
	}
}

const char *
dc_status_name(dc_status_t st)
{
	switch (st) {
	case DC_OK:
		return "ok";
	case DC_E_USAGE:
		return "usage";
	case DC_E_NOT_FOUND:
		return "not found";
	case DC_E_DATA:
		return "data error";
	case DC_E_IO:
		return "I/O error";
	case DC_E_LOCKED:
		return "locked";
	case DC_E_DENIED:
		return "denied";
	case DC_E_INVALID:
		return "invalid";
	case DC_E_NOMEM:
		return "out of memory";
	}
	return "unknown";
}

int
dc_status_exit_code(dc_status_t st)
{
	switch (st) {
	case DC_OK:
		return DC_EXIT_OK;
	case DC_E_NOT_FOUND:
		return DC_EXIT_NOT_FOUND;
	case DC_E_USAGE:
		return DC_EXIT_USAGE;
	case DC_E_DENIED:
		return DC_EXIT_DENIED;
	case DC_E_LOCKED:
		return DC_EXIT_LOCKED;
	case DC_E_INVALID:
	case DC_E_DATA:
	case DC_E_IO:
	case DC_E_NOMEM:
		break;
	}
	return DC_EXIT_DATA;
}
