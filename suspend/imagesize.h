/* SPDX-License-Identifier: GPL-2.0-only */
/* imagesize.h - the kernel's preferred image size, /sys/power/image_size */
#ifndef SUSPEND_IMAGESIZE_H
#define SUSPEND_IMAGESIZE_H

#include <stdint.h>

#define IMAGESIZE_PATH "/sys/power/image_size"

/**
 * imagesize_swap() - write @bytes to the knob at @path, return the old value
 * @path: normally IMAGESIZE_PATH
 * @bytes: the new value: the kernel frees memory (page cache first) until the
 *         snapshot is at most this big, if it can; 0 means as small as possible
 * @ret_old: the value before, written on success only
 *
 * Return: 0 or -errno (-EINVAL when the old value cannot be read as a number).
 */
int imagesize_swap(const char *path, uint64_t bytes, uint64_t *ret_old);

/**
 * imagesize_read() - the knob's value at @path, in bytes
 * Return: 0 or -errno (-EINVAL when it is not a number).
 */
int imagesize_read(const char *path, uint64_t *ret);

#endif
