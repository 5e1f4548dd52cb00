/* SPDX-License-Identifier: GPL-2.0-only */
/* wallclock.h - the time of day in ms and ns, on both libcs (klibc has no clock_gettime) */
#ifndef CORE_WALLCLOCK_H
#define CORE_WALLCLOCK_H

#include <stdint.h>

/*
 * gettimeofday(): microsecond resolution, and it may step; callers that
 * bound a wait treat a step back as time spent.
 */
long long wallclock_ms(void);
uint64_t wallclock_ns(void);

#endif
