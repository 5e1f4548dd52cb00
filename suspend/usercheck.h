/* SPDX-License-Identifier: GPL-2.0-only */
/* usercheck.h - torpor-suspend --check run without root: what can be checked, and what not */
#ifndef SUSPEND_USERCHECK_H
#define SUSPEND_USERCHECK_H

#include "hibernate.h"

int usercheck_run(struct hib_opts *o, const char *image_file);

#endif
