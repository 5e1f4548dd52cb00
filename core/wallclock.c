// SPDX-License-Identifier: GPL-2.0-only
/* wallclock.c - the time of day in ms and ns (gettimeofday: klibc has no clock_gettime) */
#include <stddef.h>
#include <sys/time.h>

#include "wallclock.h"

long long wallclock_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (long long)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

uint64_t wallclock_ns(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
}
