/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * devnum.h - device numbers written as text: "MAJ:MIN", as sysfs and resume=
 * write them, and the kernel's bare hex form
 */
#ifndef CORE_DEVNUM_H
#define CORE_DEVNUM_H

#include <sys/types.h>

/**
 * devnum_parse_majmin() - "MAJ:MIN" in strict decimal
 * @s: the text, NUL-terminated
 * @ret: the device number, written on success only
 *
 * Return: 0, or -EINVAL unless the major fits 12 bits and the minor 20.
 */
int devnum_parse_majmin(const char *s, dev_t *ret);

/**
 * devnum_parse_hex() - the kernel's bare hex form, new_encode_dev() of the number
 * @s: e.g. "fe10" (254:16), "0x" allowed, at most 8 digits
 * @ret: the device number, written on success only
 *
 * Return: 0, or -EINVAL (also for 0).
 */
int devnum_parse_hex(const char *s, dev_t *ret);

#endif
