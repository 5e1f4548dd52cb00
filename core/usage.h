/* SPDX-License-Identifier: GPL-2.0-only */
/* usage.h - this process's resource usage, for the lines both programs print */
#ifndef CORE_USAGE_H
#define CORE_USAGE_H

unsigned long long usage_cpu_ms(int who);
unsigned long long usage_peak_rss_kib(void);

#endif
