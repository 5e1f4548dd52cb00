/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tap.h - the tiny TAP emitter every unit test uses
 *
 * Each test program prints "ok N - what" or "not ok N - what" per check and
 * returns tap_done(), which is non-zero when anything failed.  The runner
 * (tests/unit/run.sh) sums the lines of all programs.
 */
#ifndef TESTS_TAP_H
#define TESTS_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_n, tap_failed;

static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	return cond;
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
