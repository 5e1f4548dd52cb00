/* SPDX-License-Identifier: GPL-2.0-only */
/* fscheck.h - was a filesystem the image recorded mounted since? */
#ifndef RESUME_FSCHECK_H
#define RESUME_FSCHECK_H

#include "image.h"
#include "loader.h"

int fscheck_filesystems(const struct loader *l, int wait_seconds, struct image_late *late);

#endif
