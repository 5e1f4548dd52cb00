/* SPDX-License-Identifier: GPL-2.0-only */
/* freezecheck.h - what would stop the freeze or the way down, seen before the freeze */
#ifndef SUSPEND_FREEZECHECK_H
#define SUSPEND_FREEZECHECK_H

#include "hibernate.h"
#include "target.h"

int freezecheck_snapshot_state(void);
int freezecheck_snapshot_node(void);
int freezecheck_stuck_readers(void);
void freezecheck_poweroff_mode(const struct hib_opts *o);
int freezecheck_ready(const struct hib_opts *o, const struct hib_target *t);

#endif
