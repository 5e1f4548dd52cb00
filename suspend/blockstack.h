/* SPDX-License-Identifier: GPL-2.0-only */
/* blockstack.h - which block devices answer while the system is frozen */
#ifndef SUSPEND_BLOCKSTACK_H
#define SUSPEND_BLOCKSTACK_H

#include <stddef.h>
#include <sys/types.h>

int blockstack_name(const char *sysroot, dev_t dev, char *buf, size_t len);
int blockstack_served(const char *sysroot, const char *name, char *via, size_t len);
int blockstack_frozen_ok(dev_t dev, char *via, size_t len);

#endif
