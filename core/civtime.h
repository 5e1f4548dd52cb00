/* SPDX-License-Identifier: GPL-2.0-only */
/* civtime.h - seconds since the epoch as a UTC date, on both libcs (klibc has no gmtime) */
#ifndef CORE_CIVTIME_H
#define CORE_CIVTIME_H

#include <stddef.h>
#include <stdint.h>

void civtime_format(uint64_t secs, char *buf, size_t len);

#endif
