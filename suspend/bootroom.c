// SPDX-License-Identifier: GPL-2.0-only
/*
 * bootroom.c - the largest image the next boot can restore (bootroom.h)
 *
 * The restore needs a free page for every page of the image, and its tables
 * (core/restoreneed.h), at the moment torpor-resume starts the load: the boot
 * kernel, the unpacked initramfs (it stays in memory as the rootfs) and the
 * programs that run before torpor-resume hold the rest.  Measured in QEMU
 * (tests/qemu/48-bootmem.sh: Debian's 6.12, 640 MiB, MemTotal 589 MiB, busybox
 * /init), MemTotal less MemFree when the resume step starts, beside the files
 * of the initramfs as cpio counts them: 21 to 43 MiB with 25 MiB of files on
 * a tmpfs rootfs (it varies from boot to boot), 27 to 38 MiB with 247 to 262
 * MiB on a ramfs one, 37 MiB with 342 MiB.  The boot kernel counts for
 * BOOTROOM_KERNEL_BYTES, the files for a sixteenth more than their size
 * (their pages' tables), which covers each.  A generator's image runs more
 * before torpor-resume (udev, systemd, plymouth): with 1 GiB (MemTotal 967
 * MiB), when torpor-resume checks, initramfs-tools' uses 40 MiB beside 23 MiB
 * of files (tests/qemu/10-itools-roundtrip.sh), dracut's with systemd 70 MiB
 * beside 30 MiB (25-dracut-systemd.sh): BOOTROOM_PROGRAMS_BYTES covers that
 * with 12 MiB to spare; plymouth, or more udev workers, would take more.
 */
#include "bootroom.h"
#include "restoreneed.h"

/**
 * bootroom_image_max() - the largest image, in bytes, a boot restores whose
 * initramfs unpacks to @initramfs_bytes (its files, as cpio counts them)
 * @mem_total: MemTotal, the memory the next boot's kernel manages too
 * @present: present memory (the kernel's bitmaps cover it), bytes
 *
 * Return: bytes, whole pages; 0 when that boot has no room for any image.
 */
uint64_t bootroom_image_max(uint64_t mem_total, uint64_t present, uint64_t initramfs_bytes,
			    uint32_t page_size)
{
	uint64_t hold = BOOTROOM_KERNEL_BYTES + BOOTROOM_PROGRAMS_BYTES;
	uint64_t pages, pfn_page = page_size / 8;

	if (initramfs_bytes >= mem_total)
		return 0;
	hold += initramfs_bytes + initramfs_bytes / 16;
	if (hold >= mem_total)
		return 0;
	pages = restoreneed_max_pages(mem_total - hold, present / page_size, page_size);
	/* torpor-resume counts the PFN pages' capacity: up to one PFN page's worth more */
	return pages > pfn_page ? (pages - pfn_page) * page_size : 0;
}
