/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * checksay.h - what the checks before the freeze tell the user when they
 * refuse, and what to do about it
 */
#ifndef SUSPEND_CHECKSAY_H
#define SUSPEND_CHECKSAY_H

#include <stdint.h>

#include "fitcheck.h"
#include "hibernate.h"
#include "initramfs.h"
#include "mounts.h"
#include "target.h"

/* the fix where zram is all the swap (it holds no image): --check's and torpor status's */
#define CHECKSAY_ZRAM_HINT "zram is the only swap: hibernate into an image file; 'sudo " \
	"torpor-suspend --setup-image-file' makes it and prints the resume= words for the " \
	"kernel command line"

void checksay_hint_swaps(int conf);
void checksay_hint_rebuild(const struct initramfs_report *rep, const char *release);
void checksay_hint_fit(const struct fit_input *in, uint64_t avail);
void checksay_target(const struct hib_opts *o, const struct hib_target *t, int r);
void checksay_no_fit(const struct fit_input *in, const struct fit_estimate *fit,
		     const struct hib_target *t, uint64_t avail, const char *where);
void checksay_unstamped(const struct mounts_fs *f);
void checksay_unsynced(const struct mounts_fs *f);
void checksay_foreign(const struct mounts *m, int r, const char *dev, const char *type,
		      int since_list);

#endif
