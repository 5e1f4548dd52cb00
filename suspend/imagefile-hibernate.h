/* SPDX-License-Identifier: GPL-2.0-only */
/* imagefile-hibernate.h - hibernating into the image file */
#ifndef SUSPEND_IMAGEFILE_HIBERNATE_H
#define SUSPEND_IMAGEFILE_HIBERNATE_H

#include "hibernate.h"

/**
 * imagefile_hibernate_run() - hibernate into the image file @path
 * @o: the options; the resume device and offset are replaced by the file's
 *
 * Before anything is activated: the namespace and chroot checks, the file and
 * its folders (imagefile_open()), the options and the kernel command line
 * (imagefile_check_resume(), imagefile_cmdline_check()), and an image that no
 * boot consumed is invalidated (imagefile_header_check()).
 * swapon(2) the file (by /proc/self/fd/N of the descriptor checked) unless it
 * is active already (at the default, lowest
 * priority: zram stays preferred for ordinary swapping), hibernate_run() into
 * it, swapoff(2) it again after the resume and after any failure.  A file that
 * was active before is left active.  With @discard (discard_after_resume),
 * then the file's pages (all but its header) are discarded where the device
 * can, else overwritten with zeroes, so that memory contents do not stay on
 * disk; a failure there is reported and does not change the result.
 * Return: hibernate_run()'s, or -errno (reported).
 */
int imagefile_hibernate_run(const struct hib_opts *o, const char *path, int discard);

#endif
