// SPDX-License-Identifier: GPL-2.0-only
/*
 * civtime.c - a date for people from seconds since the epoch, in UTC, for
 * lines torpor-resume prints at boot (no time zone is known there)
 */
#include <stdio.h>

#include "civtime.h"

/**
 * civtime_format() - "2026-12-07 05:40 UTC" for @secs since the epoch
 * @secs: any value (read from disk: untrusted); no overflow for any of them
 * @buf, @len: where, cut to fit
 *
 * The proleptic Gregorian calendar counted in eras of 400 years (146097 days),
 * from 0000-03-01 so that the leap day ends a year.
 */
void civtime_format(uint64_t secs, char *buf, size_t len)
{
	uint64_t days = secs / 86400, sod = secs % 86400;
	uint64_t z = days + 719468;	/* days since 0000-03-01 */
	uint64_t era = z / 146097, doe = z % 146097;
	uint64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	uint64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	uint64_t mp = (5 * doy + 2) / 153;
	unsigned int d = (unsigned int)(doy - (153 * mp + 2) / 5 + 1);
	unsigned int m = (unsigned int)(mp < 10 ? mp + 3 : mp - 9);
	uint64_t y = yoe + era * 400 + (m <= 2);

	snprintf(buf, len, "%04llu-%02u-%02u %02u:%02u UTC", (unsigned long long)y, m, d,
		 (unsigned int)(sod / 3600), (unsigned int)(sod % 3600 / 60));
}
