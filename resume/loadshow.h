/* SPDX-License-Identifier: GPL-2.0-only */
/* loadshow.h - what the user sees while the image loads */
#ifndef RESUME_LOADSHOW_H
#define RESUME_LOADSHOW_H

#include <stdint.h>

#include "loader.h"

void loadshow_progress(uint64_t done, uint64_t total);
void loadshow_start(void);
void loadshow_stop(void);
void loadshow_loaded(const struct loader *l, long long t0, unsigned long long cpu_self,
		     unsigned long long cpu_workers);

#endif
