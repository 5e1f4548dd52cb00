/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lateguard.h - torpor-suspend's side of the late check: the stamped devices
 * opened before the freeze, read again after the snapshot and after the resume
 */
#ifndef SUSPEND_LATEGUARD_H
#define SUSPEND_LATEGUARD_H

#include <stdint.h>

#include "image.h"

/*
 * How long the late check waits for each read (a disk may spin up for seconds
 * after the resume), for all of them, and the pause before its reboot
 */
#define LATE_READ_MS		15000
#define LATE_TOTAL_MS		60000
#define LATE_REBOOT_PAUSE_S	10

int lateguard_open(struct torpor_image *img, int dev_fd, uint64_t header_offset, uint32_t ps);
void lateguard_arm(void);
int lateguard_restamp(struct torpor_image *img);
void lateguard_check(void);
void lateguard_release(void);

#endif
