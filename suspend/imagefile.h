/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * imagefile.h - the image file, one include for its callers: a swap file on the
 * root filesystem that is swap only while torpor-suspend writes the image into
 * it, for machines that swap to zram alone, which cannot hold an image
 *
 * The kernel cannot hibernate into zram, and many systems swap only to zram.
 * So the file stays inactive: torpor-suspend swapon()s it at the default
 * priority (below every area given one, and below every area activated
 * earlier: zram keeps taking the ordinary swapping), names it with
 * SET_SWAP_AREA, which makes the kernel allocate the image's slots there only,
 * and swapoff()s it again after the resume and after any failure.  The boot
 * side sees a plain swap file (resume= its filesystem, resume_offset= its first
 * page): nothing changes there.
 */
#ifndef SUSPEND_IMAGEFILE_H
#define SUSPEND_IMAGEFILE_H

#include "imagefile-activate.h"
#include "imagefile-check.h"
#include "imagefile-cmdline.h"
#include "imagefile-create.h"
#include "imagefile-discard.h"
#include "imagefile-header.h"
#include "imagefile-hibernate.h"
#include "imagefile-layout.h"
#include "imagefile-open.h"
#include "imagefile-setup.h"
#include "imagefile-trust.h"

#define IMAGEFILE_DEFAULT	"/var/lib/torpor/image"

#endif
