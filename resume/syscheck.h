/* SPDX-License-Identifier: GPL-2.0-only */
/* syscheck.h - can this boot take the image: kernel, memory, nothing mounted, no stuck reader */
#ifndef RESUME_SYSCHECK_H
#define RESUME_SYSCHECK_H

#include "loader.h"

int syscheck_kernel(const struct loader *l, int force);
int syscheck_memory(const struct loader *l);
int syscheck_free_memory(struct loader *l);
int syscheck_nothing_mounted(void);
int syscheck_stuck_readers(void);

#endif
