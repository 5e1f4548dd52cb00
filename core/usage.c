// SPDX-License-Identifier: GPL-2.0-only
/* usage.c - this process's resource usage, from getrusage() (see usage.h) */
#include <sys/resource.h>

#include "usage.h"

/* CPU time, user and system, of @who (RUSAGE_SELF, _CHILDREN, _THREAD) in ms; 0 on error */
unsigned long long usage_cpu_ms(int who)
{
	struct rusage ru;

	if (getrusage(who, &ru) < 0)
		return 0;
	return (unsigned long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 +
	       (unsigned long long)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
}

/* The most memory this process has held (KiB on Linux); 0 on error. */
unsigned long long usage_peak_rss_kib(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) == 0 ? (unsigned long long)ru.ru_maxrss : 0;
}
