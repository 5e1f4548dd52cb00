/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hibsay.h - what a hibernation tells the user from the freeze to the thaw:
 * progress, summary, and why it stopped
 */
#ifndef SUSPEND_HIBSAY_H
#define SUSPEND_HIBSAY_H

#include <stddef.h>
#include <stdint.h>

#include "image.h"
#include "latecheck.h"
#include "target.h"
#include "writer.h"

#define NS_MS(x) ((unsigned long long)((x) / 1000000))

void hibsay_progress(uint64_t done, uint64_t total);
void hibsay_keys_read(int on);
void hibsay_aborted(void);
void hibsay_open_error(int r);
void hibsay_save_error(int r, const struct writer *w, const struct hib_target *t,
		       uint64_t avail);
void hibsay_saved(const struct writer *w, uint64_t stream, double t0, unsigned long long cpu_all,
		  unsigned long long cpu_own);
void hibsay_fs_name(const struct torpor_fsrec *f, uint32_t on, char *buf, size_t len);
void hibsay_late_reason(const struct latecheck *late, enum late_outcome o, char *buf, size_t len);
void hibsay_late_doubt(const struct latecheck *late, enum late_outcome o, char *buf, size_t len);
int hibsay_unwound(int r);

#endif
