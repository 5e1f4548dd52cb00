/* SPDX-License-Identifier: GPL-2.0-only */
/* util.h - the small macros both programs use: array length, bytes to MiB */
#ifndef CORE_UTIL_H
#define CORE_UTIL_H

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* whole MiB in @x bytes, rounded down (MIB) or up (MIB_UP), for messages */
#define MIB(x)		((unsigned long long)((x) >> 20))
#define MIB_UP(x)	((unsigned long long)(((x) + (1u << 20) - 1) >> 20))

#endif
