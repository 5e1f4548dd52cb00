/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bootentry.h - the files a boot loader of the Boot Loader Specification
 * (systemd-boot, and kernel-install's layouts) boots for a kernel release
 *
 *  - a unified kernel image (UKI) in EFI/Linux/ of the ESP or XBOOTLDR
 *    partition (/efi, /boot, /boot/efi), whose .uname section holds the
 *    release (or, without one, whose .linux kernel's header does);
 *  - a type 1 loader entry (loader/entries/ *.conf) whose kernel is of the
 *    release: its last initrd (the main one, after microcode), or its UKI;
 *    the entry systemd-boot booted (LoaderEntrySelected) first, then the
 *    default of loader.conf, then any, by name;
 *  - kernel-install's type 1 layout: $BOOT/ENTRY-TOKEN/RELEASE/initrd, the
 *    entry token from /etc/kernel/entry-token, else the machine ID
 *    (/etc/machine-id).
 *
 * Everything read is untrusted (pefile.h).  Nothing here prints.
 */
#ifndef SUSPEND_BOOTENTRY_H
#define SUSPEND_BOOTENTRY_H

#include <stddef.h>
#include <stdint.h>

#define BOOTENTRY_UKI_MAX	256	/* files looked at in one EFI/Linux/ */

/**
 * bootentry_uki_release() - the kernel release of the UKI open at @fd
 * @size: the file's size
 * @buf: the release, NUL-terminated
 *
 * Return: 0; -ENOEXEC when it is no PE file; -ENOENT when it has neither a
 * .uname section nor a .linux kernel whose header names its release; -EBADMSG
 * (a malformed PE file); -errno from pread(); -ENOMEM.
 */
int bootentry_uki_release(int fd, uint64_t size, char *buf, size_t len);

/**
 * bootentry_find_uki() - the UKI of kernel @release: the first by name, in
 * @root/efi, then @root/boot, then @root/boot/efi, each EFI/Linux/ *.efi
 * @buf: its path
 * @tried: the directories looked in are appended to it, ", "-separated
 *
 * Return: 0; -ENOENT when there is none.
 */
int bootentry_find_uki(const char *root, const char *release, char *buf, size_t len, char *tried,
		       size_t tried_len);

/**
 * bootentry_find_initrd() - kernel-install's initrd of @release:
 * ENTRY-TOKEN/RELEASE/initrd under @root/efi, @root/boot, @root/boot/efi
 * @buf: its path
 * @tried: the paths tried are appended to it
 *
 * Return: 0; -ENOENT when there is none (or no entry token nor machine ID).
 */
int bootentry_find_initrd(const char *root, const char *release, char *buf, size_t len,
			  char *tried, size_t tried_len);

/**
 * bootentry_find_entry() - the initramfs of @release's type 1 loader entry, in
 * @root/efi, @root/boot, @root/boot/efi's loader/entries/
 * @buf: its path (an initrd, or a UKI)
 * @tried: the directories looked in are appended to it
 *
 * Return: 0; -ENOENT when no entry boots @release.
 */
int bootentry_find_entry(const char *root, const char *release, char *buf, size_t len,
			 char *tried, size_t tried_len);

/* Append @s to the ", "-separated list @tried (cut when full) */
void bootentry_tried(char *tried, size_t tried_len, const char *s);

#endif
