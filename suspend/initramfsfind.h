/* SPDX-License-Identifier: GPL-2.0-only */
/* initramfsfind.h - find the initramfs the running kernel booted with (initramfsfind.c) */
#ifndef SUSPEND_INITRAMFSFIND_H
#define SUSPEND_INITRAMFSFIND_H

#include <stddef.h>

/**
 * initramfs_find() - the initramfs the running kernel booted with:
 *  1. with BOOT_IMAGE= on @cmdline (GRUB, syslinux load a kernel file), by the
 *     names the generators give it: /boot/initrd.img-NAME (initramfs-tools),
 *     /boot/initramfs-NAME.img (dracut, mkinitcpio), /boot/initrd-NAME (SUSE),
 *     NAME the kernel file's suffix (BOOT_IMAGE=/vmlinuz-NAME: Arch's
 *     vmlinuz-linux boots initramfs-linux.img), then @release;
 *  2. a unified kernel image of @release in EFI/Linux/ (bootentry.h), whose
 *     .initrd section initramfs_inspect() reads;
 *  3. a systemd-boot type 1 entry of @release (bootentry.h);
 *  4. kernel-install's ENTRY-TOKEN/RELEASE/initrd (bootentry.h);
 *  5. without BOOT_IMAGE=, the names of 1 for @release.
 * A stale /boot/initramfs-RELEASE.img is so not taken for the image that
 * systemd-boot or the EFI stub boots.
 * @root: prefixed to every path (tests); "" normally
 * @release: the running kernel's (uname -r)
 * @cmdline: the kernel command line, or NULL
 * @buf: the path found
 * @tried: the paths tried, ", "-separated (for the message when none is there)
 *
 * Return: 0; -ENOENT when none exists.
 */
int initramfs_find(const char *root, const char *release, const char *cmdline, char *buf,
		   size_t len, char *tried, size_t tried_len);

/**
 * initramfs_find_next() - the initramfs the next boot runs: @configured (--initramfs=,
 * torpor.conf's initramfs) when not "", else initramfs_find() for @release (the
 * running kernel's) with /proc/cmdline.  Nothing printed.
 * Return: 0 with the path in @buf; -ENOENT (@tried: where it looked).
 */
int initramfs_find_next(const char *configured, const char *release, char *buf, size_t len,
			char *tried, size_t tried_len);

#endif
