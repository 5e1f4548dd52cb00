// SPDX-License-Identifier: GPL-2.0-only
/*
 * initramfsfind.c - find the initramfs the running kernel booted with: beside
 * the kernel file the boot loader named (BOOT_IMAGE=), else a UKI's, a type 1
 * entry's or kernel-install's of its release (bootentry.c)
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bootentry.h"
#include "initramfsfind.h"

/* NAME of the boot loader's BOOT_IMAGE=.../vmlinuz-NAME (or vmlinux-, kernel-), into @buf */
static int boot_image_name(const char *cmdline, char *buf, size_t len)
{
	static const char *const prefixes[] = { "vmlinuz-", "vmlinux-", "kernel-" };
	const char *p, *end, *b;
	size_t i, n;

	if (!cmdline)
		return -ENOENT;
	for (p = cmdline; (p = strstr(p, "BOOT_IMAGE=")); p++) {
		if (p != cmdline && p[-1] != ' ')
			continue;
		p += 11;
		end = p + strcspn(p, " \n");
		for (b = end; b > p && b[-1] != '/' && b[-1] != ')'; b--)
			;
		for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
			n = strlen(prefixes[i]);
			if ((size_t)(end - b) > n && (size_t)(end - b) < len + n &&
			    !strncmp(b, prefixes[i], n)) {
				snprintf(buf, len, "%.*s", (int)(end - b - (ptrdiff_t)n), b + n);
				return strchr(buf, '/') ? -EINVAL : 0;
			}
		}
		return -ENOENT;
	}
	return -ENOENT;
}

/* Try the generators' names for kernel NAME @name; 0 when one exists */
static int try_names(const char *root, const char *name, char *buf, size_t len, char *tried,
		     size_t tried_len)
{
	static const char *const patterns[] = { "/boot/initrd.img-%s", "/boot/initramfs-%s.img",
						"/boot/initrd-%s" };
	char rel[300];
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++) {
		snprintf(rel, sizeof(rel), patterns[i], name);
		if ((size_t)snprintf(buf, len, "%s%s", root, rel) >= len)
			continue;
		if (stat(buf, &st) == 0 && S_ISREG(st.st_mode))
			return 0;
		bootentry_tried(tried, tried_len, buf);
	}
	return -ENOENT;
}

int initramfs_find(const char *root, const char *release, const char *cmdline, char *buf,
		   size_t len, char *tried, size_t tried_len)
{
	int loader = cmdline && strstr(cmdline, "BOOT_IMAGE=");
	char name[256];

	if (tried_len)
		tried[0] = '\0';
	/* a boot loader that loads a kernel file (GRUB, syslinux) names it: its
	 * initramfs is beside it, by the generators' names (Arch: linux, linux-lts) */
	if (loader && boot_image_name(cmdline, name, sizeof(name)) == 0 && strcmp(name, release) &&
	    try_names(root, name, buf, len, tried, tried_len) == 0)
		return 0;
	if (loader && try_names(root, release, buf, len, tried, tried_len) == 0)
		return 0;
	/* else systemd-boot or the EFI stub: a UKI, then kernel-install's layout */
	if (bootentry_find_uki(root, release, buf, len, tried, tried_len) == 0 ||
	    bootentry_find_entry(root, release, buf, len, tried, tried_len) == 0 ||
	    bootentry_find_initrd(root, release, buf, len, tried, tried_len) == 0)
		return 0;
	return loader ? -ENOENT : try_names(root, release, buf, len, tried, tried_len);
}

int initramfs_find_next(const char *configured, const char *release, char *buf, size_t len,
			char *tried, size_t tried_len)
{
	char *cmdline = NULL;
	size_t cmdline_len = 0;
	FILE *f;
	int r;

	if (configured[0]) {
		snprintf(buf, len, "%s", configured);
		return 0;
	}
	f = fopen("/proc/cmdline", "re");
	if (f && getline(&cmdline, &cmdline_len, f) < 0) {
		free(cmdline);
		cmdline = NULL;
	}
	if (f)
		fclose(f);
	r = initramfs_find("", release, cmdline, buf, len, tried, tried_len);
	free(cmdline);
	return r;
}
