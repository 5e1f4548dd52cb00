// SPDX-License-Identifier: GPL-2.0-only
/*
 * checksay.c - what the checks before the freeze tell the user when they
 * refuse: what is wrong, in words, and the hint that says what to do about it
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "checksay.h"
#include "devname.h"
#include "fitcheck.h"
#include "hibernate.h"
#include "initramfs.h"
#include "mountinfo.h"
#include "mounts.h"
#include "msg.h"
#include "skipsay.h"
#include "swaps.h"
#include "target.h"
#include "util.h"

/*
 * checksay_hint_swaps() - the active swap areas and the resume= that would pick
 * each one; with @conf, also RESUME= in initramfs-tools' conf.d, but not where
 * zram is all the swap (no partition there to name)
 */
void checksay_hint_swaps(int conf)
{
	struct swap_entry *sw = NULL;
	size_t n = 0, zram = 0, i;

	(void)swaps_read(target_swaps, &sw, &n);
	for (i = 0; i < n; i++) {
		/* zram holds no image (the kernel's hibernation refuses it too) */
		if (!strncmp(sw[i].path, "/dev/zram", 9))
			zram++;
		else if (!sw[i].is_file)
			msg_hint("active swap partition '%s': add resume=%s to the kernel command line",
				 sw[i].path, sw[i].path);
		else
			msg_hint("active swap file '%s': add resume=<its filesystem's device> and "
				 "resume_offset=<its first page> to the kernel command line "
				 "('torpor-suspend --print-cmdline' prints both)", sw[i].path);
	}
	free(sw);
	if (n && zram == n)
		msg_hint("%s", CHECKSAY_ZRAM_HINT);
	else if (!n)
		msg_hint("no swap area is active: create one (mkswap), activate it (swapon) and "
			 "name it with resume= on the kernel command line");
	if (conf && !(n && zram == n))
		msg_hint("or name the swap partition in /etc/initramfs-tools/conf.d/resume "
			 "(RESUME=UUID=...) and run 'update-initramfs -u'");
}

/*
 * resume= names several devices (a copy of a disk, a clone's UUID): the next
 * boot cannot tell which holds the image, so it would discard every one.
 */
void hibernate_say_ambiguous(const char *spec)
{
	char list[160] = "", name[64], what[300];
	dev_t devs[8];
	size_t n = 0, i, at = 0;

	/* by content; udev's link may name yet another */
	if (devname_resolve_all(spec, devs, sizeof(devs) / sizeof(devs[0]), &n) < 0)
		n = 0;
	snprintf(what, sizeof(what), "resume device '%s'", spec);
	skipsay(what);
	for (i = 0; i < n && at < sizeof(list); i++) {
		devname_name(devs[i], name, sizeof(name));
		at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", i ? ", " : "", name);
	}
	if (n < 2 && at < sizeof(list))
		snprintf(list + at, sizeof(list) - at, "%sanother where udev's link points",
			 n ? " and " : "");
	msg_error("resume device '%s' is ambiguous: several devices carry it (%s), and the "
		  "next boot would discard the image rather than guess which one holds it",
		  spec, list);
	msg_hint("if one is a copy (a cloned disk, an attached backup), detach it or give it "
		 "a UUID of its own ('swaplabel -U $(uuidgen) DEVICE' for a swap area, tune2fs "
		 "-U, xfs_admin -U or btrfstune -u for a filesystem); otherwise name the device "
		 "by its /dev/disk/by-id/ or /dev/mapper/ name in resume= on the kernel command "
		 "line, rebuild the initramfs and reboot");
}

/* checksay_hint_rebuild() - how to rebuild the initramfs with torpor in it, for its generator */
void checksay_hint_rebuild(const struct initramfs_report *rep, const char *release)
{
	unsigned hosts = rep->hook_host ? rep->hook_host : rep->hosts;

	if (rep->verdict == INITRAMFS_NO_SHELL_INIT && hosts == INITRAMFS_HOST_MKINITCPIO) {
		msg_hint("put sd-torpor in HOOKS of /etc/mkinitcpio.conf instead of torpor (the "
			 "systemd hook runs no busybox hook) and rebuild with 'mkinitcpio -P'");
	} else if (rep->unit && hosts == INITRAMFS_HOST_MKINITCPIO) {
		msg_hint("rebuild it with 'mkinitcpio -P' with sd-torpor in HOOKS of "
			 "/etc/mkinitcpio.conf");
	} else if (rep->verdict == INITRAMFS_NO_SHELL_INIT) {
		msg_hint("rebuild it with 'dracut -f --kver %s' without omitting the "
			 "dracut-systemd module", release);
	} else if (hosts == INITRAMFS_HOST_ITOOLS) {
		msg_hint("rebuild it with 'update-initramfs -u -k %s' (torpor's hook is in "
			 "initramfs-tools' hooks/torpor)", release);
	} else if (hosts == INITRAMFS_HOST_DRACUT) {
		msg_hint("rebuild it with 'dracut -f --kver %s': dracut adds torpor when resume= "
			 "is on the kernel command line or image_file is set in torpor.conf (else "
			 "add_dracutmodules+=\" torpor \" in /etc/dracut.conf.d/)", release);
	} else if (hosts == INITRAMFS_HOST_MKINITCPIO) {
		msg_hint("put torpor in HOOKS of /etc/mkinitcpio.conf (after block, encrypt and "
			 "lvm2, before filesystems) and rebuild with 'mkinitcpio -P'");
	} else {
		msg_hint("rebuild it with torpor's hook: 'update-initramfs -u -k %s' "
			 "(initramfs-tools), 'dracut -f --kver %s' (dracut: add_dracutmodules+=\" "
			 "torpor \" if resume= is not on the kernel command line), or 'mkinitcpio "
			 "-P' with torpor in HOOKS", release, release);
	}
}

/*
 * checksay_unstamped() - a filesystem with no stamp: a mount elsewhere before the
 * resume would go unseen (a warning)
 */
void checksay_unstamped(const struct mounts_fs *f)
{
	if (f->err == -EREMOTEIO)
		msg_warn("not protected against a mount elsewhere: %s %s on %s: it cannot be "
			 "read while the system is frozen, nor by the initramfs", f->fstype,
			 f->where, f->via ? f->via : "a device served by a process");
	else if (f->err == -EMEDIUMTYPE)
		msg_warn("not protected against a mount elsewhere: %s %s", f->fstype, f->where);
	else
		msg_warn("not protected against a mount elsewhere: %s %s: %s", f->fstype,
			 f->where, msg_errname(f->err));
}

/* checksay_unsynced() - a filesystem that cannot be synced after the freeze (a warning) */
void checksay_unsynced(const struct mounts_fs *f)
{
	if (f->err == -EXDEV)
		msg_warn("cannot sync %s %s after freezing: another filesystem is mounted over "
			 "it", f->fstype, f->where);
	else if (f->err == -EREMOTEIO)
		msg_warn("cannot sync %s %s after freezing: %s does not answer while the system "
			 "is frozen", f->fstype,
			 f->where, f->via ? f->via : "its disk");
	else
		msg_warn("cannot sync %s %s after freezing: %s", f->fstype, f->where,
			 msg_errname(f->err));
}

/*
 * checksay_hint_fit() - what would make the image fit: an image_size
 * (fitcheck_advise()) higher when the kernel's shrinking swaps out to this
 * area what the image would hold compressed, lower when the kernel can drop
 * more cache or swap more out to zram; else more room or less memory in use.
 */
void checksay_hint_fit(const struct fit_input *in, uint64_t avail)
{
	struct fit_input t = *in;
	struct fit_estimate e;
	uint64_t size;

	if (!fitcheck_advise(in, avail, &size)) {
		msg_hint("use a larger swap area or close programs: no image_size makes this "
			 "image fit");
		return;
	}
	if (size > in->image_size) {
		msg_hint("raise image_size to %llu MiB (torpor.conf, or --image-size=%lluM): the "
			 "kernel then swaps out less before the snapshot, which this area would "
			 "take as it is", MIB(size), MIB(size));
		return;
	}
	t.image_size = size;
	fitcheck_estimate(&t, &e);
	msg_hint("lower image_size to %llu MiB (torpor.conf, or --image-size=%lluM): the kernel "
		 "then drops more of its caches%s before the snapshot", MIB(size), MIB(size),
		 e.pool ? " and swaps more out to zram" : e.swapped > e.swapped_here ?
		 " and swaps more out to the swap areas ahead of this one" : "");
}

/*
 * checksay_target() - why target_find() gave no area for the resume device of
 * @o: its result @r (a target_match or -errno), with @t as it left it
 */
void checksay_target(const struct hib_opts *o, const struct hib_target *t, int r)
{
	if (r == TARGET_SEVERAL) {
		msg_error("several swap files on '%s': resume_offset= must say which", o->resume);
	} else if (r == TARGET_OTHER_PAGE) {
		msg_error("resume_offset=%llu does not match swap file '%s' on '%s': it begins at "
			  "page %llu", (unsigned long long)o->offset, t->swap_path, o->resume,
			  (unsigned long long)t->offset_pages);
		msg_hint("set resume_offset=%llu on the kernel command line; --resume-offset and "
			 "torpor.conf may leave it out (torpor-suspend finds a swap file's page "
			 "itself)", (unsigned long long)t->offset_pages);
	} else if (r == -EMEDIUMTYPE) {
		msg_error("cannot compute the offset of swap file '%s' on '%s': its first block is "
			  "not a plain page-aligned extent (inline, compressed, a hole, or a "
			  "filesystem block size below the page size)", t->swap_path, o->resume);
		msg_hint("give it with --resume-offset or resume_offset= (filefrag -v FILE, "
			 "on btrfs: btrfs inspect-internal map-swapfile -r FILE)");
	} else if (r == -EXDEV) {
		msg_error("cannot hibernate into swap file '%s': its btrfs filesystem has several "
			  "devices or a RAID/DUP data profile", t->swap_path);
		msg_hint("a swap file on btrfs must live on a single-device filesystem with the "
			 "single data profile; use a swap partition otherwise");
	} else if (r < 0 && t->swap_path[0]) {
		msg_error("cannot locate swap file '%s' on '%s': %s", t->swap_path, o->resume,
			  r == -ENODEV ? "its filesystem's mount source is not a block device" :
			  msg_errname(r));
		msg_hint("give its page with --resume-offset or resume_offset=");
	} else {
		msg_error("no active swap area on '%s'%s: %s", o->resume,
			  o->has_offset ? " at that resume_offset" : "",
			  msg_errname(r < 0 ? r : -ENODEV));
		checksay_hint_swaps(0);
	}
}

/*
 * checksay_no_fit() - the image would not fit @where: the numbers of @fit (from
 * @in) beside the @avail bytes free on the area of @t, and what would help
 */
void checksay_no_fit(const struct fit_input *in, const struct fit_estimate *fit,
		     const struct hib_target *t, uint64_t avail, const char *where)
{
	char shrunk[160] = "", used[80] = "";
	double ratio = fit->ratio_permille / 1000.0;

	if (fit->swapped_here && fit->swapped_here < fit->swapped)
		snprintf(shrunk, sizeof(shrunk), ", and the kernel swaps out about %llu MiB to "
			 "shrink it to image_size, %llu MiB of it to the image's area,",
			 MIB_UP(fit->swapped), MIB_UP(fit->swapped_here));
	else if (fit->swapped_here)
		snprintf(shrunk, sizeof(shrunk), ", and the kernel swaps out about %llu MiB to the "
			 "image's area to shrink it to image_size,", MIB_UP(fit->swapped_here));
	if (t->swap_used)
		snprintf(used, sizeof(used), " (%llu MiB hold swapped-out memory)",
			 MIB_UP(t->swap_used));
	msg_error("the image needs about %llu MiB compressed (%llu MiB of memory in use, "
		  "ratio %.2f)%s and a margin of %llu MiB, but %s has only %llu MiB free%s",
		  MIB_UP(fit->stored), MIB(fit->in_use), ratio, shrunk, MIB_UP(fit->margin), where,
		  MIB(avail), used);
	checksay_hint_fit(in, avail);
}

/*
 * checksay_foreign() - why mounts_foreign() on @m refused: @r is 1 when
 * /dev/@dev (@type) is mounted where torpor-suspend cannot see it, or
 * (@since_list) was mounted since the list was made; else its -errno
 */
void checksay_foreign(const struct mounts *m, int r, const char *dev, const char *type,
		      int since_list)
{
	if (r == 1 && since_list) {
		msg_error("/dev/%s (%s) was mounted while torpor-suspend prepared, after it listed "
			  "the filesystems: it would be neither synced nor guarded against a mount "
			  "elsewhere", dev, type);
		msg_hint("hibernate again");
	} else if (r == 1) {
		msg_error("/dev/%s (%s) is mounted, but not visible to torpor-suspend (another mount "
			  "namespace, a chroot, or lazily unmounted): torpor can neither sync it nor "
			  "guard it against a mount elsewhere", dev, type);
		msg_hint("unmount it where it is mounted (a container, a service with PrivateMounts=, "
			 "outside the chroot; a lazy unmount ends when its last user closes it), or "
			 "run torpor-suspend where it is mounted too");
	} else if (since_list) {
		msg_error("cannot check for filesystems mounted since the list was made: %s",
			  msg_errname(r));
	} else if (r == -EBADMSG) {
		msg_error("cannot parse line %u of %s: a filesystem mounted there would be neither "
			  "synced nor guarded", m->bad_line, MOUNTINFO_PATH);
		msg_hint("please report that line to torpor's authors ('sed -n %up %s')",
			 m->bad_line, MOUNTINFO_PATH);
	} else {
		msg_error("cannot check for filesystems not visible to torpor-suspend in '%s': %s",
			  MOUNTS_SYSFS_FS, r == -EMEDIUMTYPE ? "it is not sysfs" : msg_errname(r));
		msg_hint("mount sysfs on /sys ('mount -t sysfs sysfs /sys') and run torpor-suspend "
			 "on the host, outside any chroot or container");
	}
}
