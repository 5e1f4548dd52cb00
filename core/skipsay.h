/* SPDX-License-Identifier: GPL-2.0-only */
/* skipsay.h - tell the user which devices the last name lookup did not read */
#ifndef CORE_SKIPSAY_H
#define CORE_SKIPSAY_H

#include <stddef.h>

/*
 * The devices the last lookup, for @what, did not read (devname_skipped()):
 * one that did not answer may carry what was looked for, and a process stuck
 * reading it would keep a freeze from completing.  Each is a warning; those
 * udev keeps from probes are said in debug only.  The first 8 are named.
 */
void skipsay(const char *what);

struct devname_skip;
#define SKIPSAY_MAX 8

/* The same for @n skips kept from an earlier lookup (@k holds up to SKIPSAY_MAX). */
void skipsay_list(const char *what, const struct devname_skip *k, size_t n);

#endif
