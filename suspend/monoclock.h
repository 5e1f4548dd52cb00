/* SPDX-License-Identifier: GPL-2.0-only */
/* monoclock.h - CLOCK_MONOTONIC in ns, ms and seconds, for stage times and deadlines */
#ifndef SUSPEND_MONOCLOCK_H
#define SUSPEND_MONOCLOCK_H

#include <stdint.h>

uint64_t mono_ns(void);
long long mono_ms(void);
double mono_s(void);

#endif
