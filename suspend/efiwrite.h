/* SPDX-License-Identifier: GPL-2.0-only */
/* efiwrite.h - torpor-suspend's side of TorporHibernateLocation (core/efiloc.h) */
#ifndef SUSPEND_EFIWRITE_H
#define SUSPEND_EFIWRITE_H

#include "efiloc.h"

struct hib_target;

/* where efivarfs is: EFILOC_DIR; tests name a plain directory */
extern const char *efiwrite_dir;

int efiwrite_usable(void);
int efiwrite_settle(const struct hib_target *t);
int efiwrite_plan(const struct hib_target *t, struct efiloc *ret, char *ret_spec, size_t len);

#endif
