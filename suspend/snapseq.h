/* SPDX-License-Identifier: GPL-2.0-only */
/* snapseq.h - steps 2-4 of a hibernation: freeze, snapshot, save and go down, or thaw */
#ifndef SUSPEND_SNAPSEQ_H
#define SUSPEND_SNAPSEQ_H

#include "hibernate.h"
#include "target.h"
#include "writer.h"

int snapseq_run(const struct hib_opts *o, struct writer *w, const struct hib_target *t,
		const char *orig_sig);

#endif
