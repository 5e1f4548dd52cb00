/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bootroom.h - the largest image the next boot can restore: its memory, less
 * what its kernel, its initramfs and their programs hold, less what the
 * restore itself takes (bootroom.c)
 */
#ifndef SUSPEND_BOOTROOM_H
#define SUSPEND_BOOTROOM_H

#include <stdint.h>

/* the boot kernel's own, a busybox /init's and torpor-resume's: measured (bootroom.c) */
#define BOOTROOM_KERNEL_BYTES	(48ull << 20)
/* udev, systemd and the modules they load in a generator's image: measured (bootroom.c) */
#define BOOTROOM_PROGRAMS_BYTES	(32ull << 20)

uint64_t bootroom_image_max(uint64_t mem_total, uint64_t present, uint64_t initramfs_bytes,
			    uint32_t page_size);

#endif
