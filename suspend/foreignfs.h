/* SPDX-License-Identifier: GPL-2.0-only */
/* foreignfs.h - does torpor-suspend see every mounted filesystem? (foreignfs.c) */
#ifndef SUSPEND_FOREIGNFS_H
#define SUSPEND_FOREIGNFS_H

#include <stddef.h>

struct mounts;

int mounts_check_sysfs(const char *dir);
int mounts_chrooted(const char *root, const char *init_root);
int mounts_foreign(const struct mounts *m, char *name, size_t len, const char **ret_type);

#endif
