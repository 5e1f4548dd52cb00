/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mountguard.h - the mounted filesystems of a hibernation: listed and stamped
 * before the freeze, looked for again and synced after it
 */
#ifndef SUSPEND_MOUNTGUARD_H
#define SUSPEND_MOUNTGUARD_H

#include "image.h"

int mountguard_record(struct torpor_image *img);
int mountguard_check_late(void);
int mountguard_sync(void);
void mountguard_release(void);

#endif
