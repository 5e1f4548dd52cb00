/* SPDX-License-Identifier: GPL-2.0-only */
/* poweroff.h - the way down after the commit, or down frozen when it cannot be undone */
#ifndef SUSPEND_POWEROFF_H
#define SUSPEND_POWEROFF_H

#include "hibernate.h"
#include "target.h"
#include "writer.h"

void poweroff_frozen(void);
int poweroff_plain(const struct hib_opts *o, struct writer *w, const struct hib_target *t);
void poweroff_platform(int snap_fd);
int poweroff_suspend_to_ram(struct writer *w, int snap_fd, const struct hib_target *t,
			    const char *orig_sig);

#endif
