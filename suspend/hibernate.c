// SPDX-License-Identifier: GPL-2.0-only
/*
 * hibernate.c - torpor-suspend's main sequence and everything it tells the user
 *
 * The order follows Documentation/power/userland-swsusp.rst: resolve and
 * allocate first, mlockall() before FREEZE, act on CREATE_IMAGE's answer, and
 * on any failure free the swap pages, restore the header, UNFREEZE and close,
 * so the system always keeps running.  From before FREEZE until the commit,
 * SIGINT/SIGTERM/SIGHUP/SIGQUIT and Esc on the terminal abort the same way
 * (interrupt.h); from the commit on the signals are ignored.
 */
#include <errno.h>
#include <malloc.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "blockstack.h"
#include "devname.h"
#include "fitcheck.h"
#include "fitsample.h"
#include "fsstamp.h"
#include "fsunique.h"
#include "hibernate.h"
#include "decompress.h"
#include "imagesize.h"
#include "initramfs.h"
#include "interrupt.h"
#include "latecheck.h"
#include "monoclock.h"
#include "mountinfo.h"
#include "mounts.h"
#include "nextboot.h"
#include "msg.h"
#include "progress.h"
#include "restamp.h"
#include "skipsay.h"
#include "snapshot.h"
#include "splash.h"
#include "swaps.h"
#include "sysmem.h"
#include "target.h"
#include "testhook.h"
#include "usage.h"
#include "util.h"
#include "writer.h"

#ifndef LIBEXECDIR
#define LIBEXECDIR "/usr/local/lib/torpor"
#endif
#define RESUME_BIN LIBEXECDIR "/torpor-resume"

#define FIT_BUDGET_NS	(40 * 1000000ull)	/* no sample window starts after 40 ms of CPU */
#define NS_MS(x) ((unsigned long long)((x) / 1000000))

/* the recorded filesystems, read again after the snapshot */
static struct restamp stamps;

/* and read again by the restored process before it thaws */
static struct latecheck late;

/*
 * How long the late check waits for each read (a disk may spin up for seconds
 * after the resume), for all of them, and the pause before its reboot
 */
#define LATE_READ_MS		15000
#define LATE_TOTAL_MS		60000
#define LATE_REBOOT_PAUSE_S	10

/*
 * /proc/sysrq-trigger, opened before the freeze: the late check's reboot goes
 * through SysRq-B (emergency_restart(): no reboot notifier, no device
 * shutdown).  A write by root works whatever kernel.sysrq says: the kernel
 * checks that mask for the keyboard only (drivers/tty/sysrq.c,
 * write_sysrq_trigger() calls __handle_sysrq() with check_mask false).
 */
#define SYSRQ_TRIGGER	"/proc/sysrq-trigger"
static int sysrq_fd = -1;

/* plymouth's client, when its daemon runs */
static struct splash splash;

/* the key is read during this write: the progress line says so */
static int keys_read;

/* the progress line: rewritten in place on a terminal, a line each 10% elsewhere */
static struct progress prog;

/* the estimate made before the freeze, compared with what was written */
static struct fit_estimate fit;

static void show_progress(uint64_t done, uint64_t total)
{
	char line[160];

	if (done == 0)
		progress_start(&prog, "saving image", isatty(2), mono_ms());
	if (progress_line(&prog, done, total, mono_ms(), line, sizeof(line))) {
		if (prog.live)
			msg_live("%s%s", line, keys_read ? ", Esc aborts" : "");
		else
			msg_progress("%s%s", line, keys_read ? ", Esc or Ctrl-C aborts" : "");
	}
	testhook_progress((unsigned long long)progress_pct(done, total));
}

/* Once per block: did a signal or the key ask us to stop? */
static int poll_abort(uint64_t done, uint64_t total)
{
	testhook_block(done * 100 / total);
	return interrupt_check() != 0;
}

/* The point of no return: from here on the abort signals are ignored. */
static int before_root(void)
{
	testhook_before_root();
	return interrupt_commit() != 0;
}

/* What stopped the hibernation, when it was a signal or the key. */
static void say_aborted(void)
{
	int sig = interrupt_pending();

	if (sig > 0)
		msg_info("hibernation aborted by signal %d (%s); the system keeps running", sig,
			 interrupt_signame(sig));
	else
		msg_info("hibernation aborted by key; the system keeps running");
}

/* Print the active swap areas and the resume= value that would pick each one. */
static void hint_swaps(void)
{
	struct swap_entry *sw = NULL;
	size_t n = 0, i;

	(void)swaps_read("/proc/swaps", &sw, &n);
	for (i = 0; i < n; i++) {
		if (!sw[i].is_file)
			msg_hint("active swap partition '%s': add resume=%s to the kernel command line",
				 sw[i].path, sw[i].path);
		else
			msg_hint("active swap file '%s': add resume=<its filesystem's device> and "
				 "resume_offset=<its first page> to the kernel command line "
				 "('torpor-suspend --print-cmdline' prints both)", sw[i].path);
	}
	free(sw);
	if (!n)
		msg_hint("no swap area is active: create one (mkswap), activate it (swapon) and "
			 "name it with resume= on the kernel command line");
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

/**
 * hibernate_check_answers() - refuse an area on a device that stops with the freeze
 * @dev: the swap area's device, or the filesystem's of a swap or image file
 * @what: the area, for the message
 *
 * The image is written after the freeze: on a loop device or nbd (blockstack.c)
 * the first write would wait for ever, with everything frozen; on zram it would
 * be lost at power-off.  The initramfs could not read either.
 * Return: 0, or -EREMOTEIO (reported).
 */
int hibernate_check_answers(dev_t dev, const char *what)
{
	char via[PATH_MAX], name[64];
	int r;

	r = blockstack_of(dev, via, sizeof(via));
	if (r == BLOCKSTACK_ANSWERS)
		return 0;
	devname_name(dev, name, sizeof(name));
	if (r == BLOCKSTACK_STOPS)
		msg_error("cannot hibernate into '%s' on %s: %s does not answer while the system "
			  "is frozen, so the image could not be written, and the initramfs could "
			  "not read it", what, name, via);
	else if (r == BLOCKSTACK_IN_MEMORY)
		msg_error("cannot hibernate into '%s' on %s: %s keeps its data in memory, so the "
			  "image would be gone at power-off", what, name, via);
	else
		msg_error("cannot hibernate into '%s' on %s: sysfs does not show what the device "
			  "is built on (%s), so it may not answer while the system is frozen",
			  what, name, msg_errname(r));
	msg_hint("hibernate into a swap partition, or a swap or image file on a local disk");
	return -EREMOTEIO;
}

/* How to rebuild @path with torpor in it, for the generator(s) of @hosts */
static void hint_rebuild(const struct initramfs_report *rep, const char *release)
{
	unsigned hosts = rep->hook_host ? rep->hook_host : rep->hosts;

	if (rep->verdict == INITRAMFS_NO_SHELL_INIT && hosts == INITRAMFS_HOST_MKINITCPIO) {
		msg_hint("use the busybox hooks in HOOKS of /etc/mkinitcpio.conf ('base udev' "
			 "instead of 'systemd', 'encrypt' instead of 'sd-encrypt'; torpor has no "
			 "systemd-hook support for mkinitcpio yet) and rebuild with 'mkinitcpio -P'");
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

/* What the initramfs lacks, in words; NULL when it is fine */
static const char *initramfs_lacks(const struct initramfs_report *rep, char *buf, size_t len)
{
	char list[64] = "";
	size_t at = 0;
	unsigned v;

	for (v = 1; v < 64; v++)
		if (rep->formats & (1ull << v))
			at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%u", at ? ", " : "",
					       v);
	switch (rep->verdict) {
	case INITRAMFS_OK:
		return NULL;
	case INITRAMFS_NO_RESUME:
		snprintf(buf, len, "it has no %s", RESUME_BIN);
		break;
	case INITRAMFS_NOT_EXECUTABLE:
		snprintf(buf, len, "its %s is not an executable file", RESUME_BIN);
		break;
	case INITRAMFS_NO_MARKER:
		snprintf(buf, len, "its torpor-resume is from an older torpor, which names no image "
			 "format: it cannot read format %d", TORPOR_FORMAT_VERSION);
		break;
	case INITRAMFS_OTHER_FORMAT:
		snprintf(buf, len, "its torpor-resume reads image format %s, not %d (this "
			 "torpor-suspend's): it is from another torpor version", list,
			 TORPOR_FORMAT_VERSION);
		break;
	case INITRAMFS_NO_HOOK:
		snprintf(buf, len, "it has torpor-resume but no hook that runs it (initramfs-tools' "
			 "scripts/local-top/torpor, dracut's pre-mount torpor-pre-mount.sh or "
			 "mkinitcpio's hooks/torpor, naming %s)", RESUME_BIN);
		break;
	case INITRAMFS_HOOK_NOT_RUN:
		snprintf(buf, len, rep->hook_host == INITRAMFS_HOST_ITOOLS ?
			 "its scripts/local-top/torpor is not listed in scripts/local-top/ORDER, so "
			 "it never runs" : "torpor is not in its HOOKS (the image's /config), so "
			 "hooks/torpor never runs");
		break;
	case INITRAMFS_NO_SHELL_INIT:
		snprintf(buf, len, rep->hook_host == INITRAMFS_HOST_MKINITCPIO ?
			 "torpor is in its HOOKS, but its /init is %s: mkinitcpio's systemd hook "
			 "replaced the shell init, and hooks/torpor never runs" :
			 "its /init is %s, and it has no dracut-pre-mount.service (dracut's "
			 "dracut-systemd module) to run dracut's pre-mount hooks: "
			 "torpor-pre-mount.sh never runs", rep->init);
		break;
	}
	return buf;
}

/*
 * The next boot runs the initramfs of this kernel: without a torpor-resume that
 * reads this image format, and the hook that runs it, the image would be lost
 * (discarded by an older torpor-resume, or never looked at).  Before anything
 * changes: 0, or -errno (reported).
 */
int hibernate_check_initramfs(const struct hib_opts *o)
{
	struct initramfs_report rep;
	char path[PATH_MAX], tried[2048], why[400], what[PATH_MAX + 64], *cmdline = NULL;
	struct utsname u;
	size_t cmdline_len = 0;
	double t0 = mono_s();
	FILE *f;
	int r;

	if (o->no_initramfs || o->initramfs_checked)
		return 0;
	if (!strcmp(o->initramfs, CONFIG_INITRAMFS_NONE)) {
		msg_warn("not checking the initramfs the next boot runs ('initramfs = none' in "
			 "torpor.conf): without a torpor-resume for image format %d and the hook "
			 "that runs it, that boot loses the hibernated session",
			 TORPOR_FORMAT_VERSION);
		return 0;
	}
	if (uname(&u) < 0)
		return -errno;
	if (o->initramfs[0]) {
		snprintf(path, sizeof(path), "%s", o->initramfs);
	} else {
		f = fopen("/proc/cmdline", "re");
		if (f && getline(&cmdline, &cmdline_len, f) < 0) {
			free(cmdline);
			cmdline = NULL;
		}
		if (f)
			fclose(f);
		r = initramfs_find("", u.release, cmdline, path, sizeof(path), tried, sizeof(tried));
		free(cmdline);
		if (r < 0) {
			msg_error("cannot find the initramfs that boots kernel %s (tried %s): the next "
				  "boot might not resume", u.release, tried);
			msg_hint("name it, or the unified kernel image that holds it, with "
				 "'initramfs = PATH' in torpor.conf or --initramfs=PATH (is /boot "
				 "or /efi mounted?)");
			return r;
		}
	}
	r = initramfs_inspect(path, RESUME_BIN, DECOMPRESS_PATH, INITRAMFS_TIMEOUT_MS, &rep);
	if (r < 0) {
		msg_error("cannot read initramfs '%s': %s", path, rep.detail[0] ? rep.detail :
			  msg_errname(r));
		if (r == -ENOPKG)
			msg_hint("install %s's package, or name an uncompressed copy with "
				 "'initramfs = PATH' in torpor.conf", rep.compression);
		else if (r == -ENOENT)
			msg_hint("name the initramfs the boot loader loads with 'initramfs = PATH' in "
				 "torpor.conf or --initramfs=PATH");
		return r;
	}
	msg_debug("read initramfs '%s' (%llu MiB, %s, %llu MiB unpacked, %llu entries) in %.0f ms",
		  path, MIB(rep.file_bytes), rep.compression ? rep.compression : "uncompressed",
		  MIB(rep.unpacked_bytes), (unsigned long long)rep.entries, (mono_s() - t0) * 1000);
	snprintf(what, sizeof(what), rep.uki ? "the initramfs in unified kernel image '%s'" :
		 "initramfs '%s'", path);
	if (initramfs_lacks(&rep, why, sizeof(why))) {
		msg_error("%s cannot resume this hibernation: %s; the next boot would lose the "
			  "hibernated session", what, why);
		hint_rebuild(&rep, u.release);
		if (rep.uki)
			msg_hint("then rebuild the unified kernel image with it (kernel-install, "
				 "ukify, or the generator's UKI option)");
		return -ENOEXEC;
	}
	if (o->check_only)
		msg_info("%s has torpor-resume for image format %d and the %s hook", what,
			 TORPOR_FORMAT_VERSION, initramfs_host_name(rep.hook_host));
	return 0;
}

/* Step 1: the swap area, checked before anything else happens (reported). */
int hibernate_resolve(const struct hib_opts *o, struct hib_target *t)
{
	char what[300];
	struct stat st;
	dev_t dev;
	int r;

	if (!o->resume[0]) {
		msg_error("no resume device: neither --resume nor resume= on the kernel command line");
		hint_swaps();
		return -EINVAL;
	}
	r = devname_resolve(o->resume, &dev);
	if (r == -ENOTUNIQ) {
		hibernate_say_ambiguous(o->resume);
		return r;
	}
	snprintf(what, sizeof(what), "resume device '%s'", o->resume);
	skipsay(what);
	if (r < 0) {
		msg_error("cannot find resume device '%s': %s", o->resume, msg_errname(r));
		hint_swaps();
		return r;
	}
	r = target_find(dev, o->has_offset, o->offset, t);
	if (r == -ENOTUNIQ) {
		msg_error("several swap files on '%s': resume_offset= must say which", o->resume);
		return r;
	}
	if (r == -ERANGE) {
		msg_error("resume_offset=%llu does not match swap file '%s' on '%s': it begins at "
			  "page %llu", (unsigned long long)o->offset, t->swap_path, o->resume,
			  (unsigned long long)t->offset_pages);
		msg_hint("set resume_offset=%llu on the kernel command line; --resume-offset and "
			 "torpor.conf may leave it out (torpor-suspend finds a swap file's page "
			 "itself)", (unsigned long long)t->offset_pages);
		return r;
	}
	if (r == -EMEDIUMTYPE) {
		msg_error("cannot compute the offset of swap file '%s' on '%s': its first block is "
			  "not a plain page-aligned extent (inline, compressed, a hole, or a "
			  "filesystem block size below the page size)", t->swap_path, o->resume);
		msg_hint("give it with --resume-offset or resume_offset= (filefrag -v FILE, "
			 "on btrfs: btrfs inspect-internal map-swapfile -r FILE)");
		return r;
	}
	if (r == -EXDEV) {
		msg_error("cannot hibernate into swap file '%s': its btrfs filesystem has several "
			  "devices or a RAID/DUP data profile", t->swap_path);
		msg_hint("a swap file on btrfs must live on a single-device filesystem with the "
			 "single data profile; use a swap partition otherwise");
		return r;
	}
	if (r < 0 && t->swap_path[0]) {
		msg_error("cannot locate swap file '%s' on '%s': %s", t->swap_path, o->resume,
			  r == -ENODEV ? "its filesystem's mount source is not a block device" :
			  msg_errname(r));
		msg_hint("give its page with --resume-offset or resume_offset=");
		return r;
	}
	if (r < 0) {
		msg_error("no active swap area on '%s'%s: %s", o->resume,
			  o->has_offset ? " at that resume_offset" : "", msg_errname(r));
		hint_swaps();
		return r;
	}
	devname_name(dev, t->dev_name, sizeof(t->dev_name));
	r = hibernate_check_answers(dev, t->swap_path);
	if (r < 0)
		return r;
	if (t->is_file) {
		if (stat(t->swap_path, &st) < 0)
			return -errno;
		/* Beware: the image holds all of memory, keys included */
		if (st.st_uid != 0 || (st.st_mode & 077)) {
			msg_error("refusing swap file '%s': it must be owned by root and private",
				  t->swap_path);
			msg_hint("chown root:root '%s' && chmod 600 '%s'", t->swap_path,
				 t->swap_path);
			return -EACCES;
		}
	}
	msg_debug("swap area '%s' on %s, header at page %llu, %llu MiB", t->swap_path,
		  t->dev_name, (unsigned long long)t->offset_pages, MIB(t->swap_bytes));
	return 0;
}

/*
 * The next boot reads resume= and resume_offset= from its command line, not
 * --resume or torpor.conf: they must name the area written (nextboot.c).
 * 0, or -EINVAL (reported).
 */
static int check_next_boot(const struct hib_target *t, const char *spec)
{
	unsigned long long page = t->offset_pages;
	struct nextboot nb;
	char other[64];

	enum nextboot_result res = nextboot_check("/proc/cmdline", t->dev, t->offset_pages, spec,
						  &nb);
	char what[CMDLINE_RESUME_MAX + 48];

	/* a resume= other than @spec was looked up: what that lookup could not read */
	if (res != NEXTBOOT_MALFORMED && res != NEXTBOOT_NORESUME && res != NEXTBOOT_UNNAMED &&
	    strcmp(nb.cl.resume, spec)) {
		snprintf(what, sizeof(what), "the kernel command line's resume=%s", nb.cl.resume);
		skipsay(what);
	}
	switch (res) {
	case NEXTBOOT_AGREES:
	case NEXTBOOT_UNNAMED:
		return 0;
	case NEXTBOOT_MALFORMED:
		msg_error("the kernel command line's %s is malformed: the next boot would "
			  "discard the image", nb.cl.resume_bad ? "resume=" :
			  nb.cl.resume_offset_bad ? "resume_offset=" : nb.cl.malformed);
		break;
	case NEXTBOOT_NORESUME:
		msg_error("the kernel command line has noresume (or nohibernate, hibernate=no): "
			  "the next boot would discard the image");
		msg_hint("reboot without it first");
		return -EINVAL;
	case NEXTBOOT_AMBIGUOUS:
		hibernate_say_ambiguous(nb.cl.resume);
		return -EINVAL;
	case NEXTBOOT_NO_DEVICE:
		msg_error("the kernel command line's resume=%s names no device here (%s), but "
			  "the image would go to %s: the next boot would not find it",
			  nb.cl.resume, msg_errname(nb.err), t->dev_name);
		break;
	case NEXTBOOT_OTHER_DEVICE:
		devname_name(nb.dev, other, sizeof(other));
		msg_error("the kernel command line's resume=%s names %s, but the image would go "
			  "to %s: the next boot would not find it", nb.cl.resume, other,
			  t->dev_name);
		break;
	case NEXTBOOT_NO_OFFSET:
		msg_error("the kernel command line has no resume_offset=, but swap file '%s' "
			  "begins at page %llu of %s: the next boot would not find the image",
			  t->swap_path, page, t->dev_name);
		break;
	case NEXTBOOT_OTHER_OFFSET:
		msg_error("the kernel command line's resume_offset=%llu is not page %llu of %s, "
			  "where '%s' begins: the next boot would not find the image",
			  nb.cl.resume_offset, page, t->dev_name, t->swap_path);
		break;
	}
	msg_hint("make --resume, --resume-offset and torpor.conf name what the kernel command "
		 "line names, or correct the command line ('torpor-suspend --print-cmdline' "
		 "prints it), rebuild the initramfs and reboot");
	return -EINVAL;
}

static int open_device(const struct hib_target *t, uint64_t need)
{
	unsigned long long size;
	int fd, r;

	fd = devname_open(t->dev, O_RDWR | O_DIRECT);
	if (fd == -EINVAL)
		fd = devname_open(t->dev, O_RDWR);
	if (fd < 0) {
		msg_error("cannot open resume device %s: %s", t->dev_name, msg_errname(fd));
		return fd;
	}
	r = devname_size(fd, &size);
	if (r == 0 && size < need)
		r = -ENOSPC;
	if (r < 0) {
		msg_error("resume device %s is smaller than its swap header offset", t->dev_name);
		close(fd);
		return r;
	}
	return fd;
}

static void say_open_error(int r)
{
	switch (r) {
	case -EPERM:
		msg_error("the kernel does not allow hibernation: opening '%s' was refused",
			  SNAPSHOT_PATH);
		msg_hint("Secure Boot lockdown blocks hibernation (see 'dmesg | grep -i lockdown'); "
			 "so do 'nohibernate' and programs using memfd_secret");
		break;
	case -EBUSY:
		msg_error("'%s' is busy: another hibernation or resume is in progress",
			  SNAPSHOT_PATH);
		break;
	case -ENOENT:
	case -ENODEV:
	case -ENXIO:
		msg_error("no '%s': this kernel lacks CONFIG_HIBERNATION_SNAPSHOT_DEV",
			  SNAPSHOT_PATH);
		msg_hint("use a kernel built with CONFIG_HIBERNATION=y and "
			 "CONFIG_HIBERNATION_SNAPSHOT_DEV=y");
		break;
	case -EACCES:
		msg_error("cannot open '%s': permission denied", SNAPSHOT_PATH);
		msg_hint("run torpor-suspend as root");
		break;
	default:
		msg_error("cannot open '%s': %s", SNAPSHOT_PATH, msg_errname(r));
	}
}

/* A filesystem with no stamp: a mount elsewhere before the resume would go unseen. */
static void say_unstamped(const struct mounts_fs *f)
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

static void say_unsynced(const struct mounts_fs *f)
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

/* The mounted filesystems: stamped in fill_identity(), synced after the freeze. */
static struct mounts mounts;

static int collect_mounts(struct torpor_image *img)
{
	char dev[NAME_MAX + 1];
	const char *type;
	uint32_t i;
	int r;

	r = mounts_collect(&mounts);
	if (r < 0) {
		/* without the stamps nothing guards the filesystems, without the list no sync */
		msg_error("cannot record the mounted filesystems from %s: %s", MOUNTINFO_PATH,
			  msg_errname(r));
		return r;
	}
	r = mounts_foreign(&mounts, dev, sizeof(dev), &type);
	if (r == 1) {
		msg_error("/dev/%s (%s) is mounted, but not visible to torpor-suspend (another mount "
			  "namespace, a chroot, or lazily unmounted): torpor can neither sync it nor "
			  "guard it against a mount elsewhere", dev, type);
		msg_hint("unmount it where it is mounted (a container, a service with PrivateMounts=, "
			 "outside the chroot; a lazy unmount ends when its last user closes it), or "
			 "run torpor-suspend where it is mounted too");
		return -EBUSY;
	}
	if (r == -EBADMSG) {
		msg_error("cannot parse line %u of %s: a filesystem mounted there would be neither "
			  "synced nor guarded", mounts.bad_line, MOUNTINFO_PATH);
		msg_hint("please report that line to torpor's authors ('sed -n %up %s')",
			 mounts.bad_line, MOUNTINFO_PATH);
		return r;
	}
	if (r < 0) {
		msg_error("cannot check for filesystems not visible to torpor-suspend in '%s': %s",
			  MOUNTS_SYSFS_FS, r == -EMEDIUMTYPE ? "it is not sysfs" : msg_errname(r));
		msg_hint("mount sysfs on /sys ('mount -t sysfs sysfs /sys') and run torpor-suspend "
			 "on the host, outside any chroot or container");
		return r;
	}
	if (mounts.nr_fs) {
		free(img->fs);
		img->fs = mounts.fs;
		img->meta.nr_fs = mounts.nr_fs;
		mounts.fs = NULL;
	}
	for (i = 0; i < mounts.nr_unstamped; i++)
		say_unstamped(&mounts.unstamped[i]);
	for (i = 0; i < mounts.nr_unsynced; i++)
		say_unsynced(&mounts.unsynced[i]);
	return 0;
}

/*
 * The next boot finds each stamped filesystem by its UUID, reading the
 * devices, and discards the image when a copy (an LVM snapshot, a cloned disk
 * attached) makes that ambiguous: the same lookup now, to refuse instead.
 */
static int check_unique(const struct torpor_image *img)
{
	static const char *const fix[] = {
		[TORPOR_FS_EXT] = "tune2fs -U random DEVICE",
		[TORPOR_FS_BTRFS] = "btrfstune -u DEVICE",
		[TORPOR_FS_XFS] = "xfs_admin -U generate DEVICE",
	};
	char uuid[37], list[200] = "", name[64], mounted[64];
	const struct torpor_fsrec *f;
	struct fsunique_clash c;
	size_t i, at = 0;
	int among = 0, r;

	r = fsunique_check(img->fs, img->meta.nr_fs, skipsay, &c);
	if (r == 0)
		return 0;
	f = &img->fs[c.index];
	fsstamp_uuid_str(f->uuid, uuid);
	devname_name(c.mounted, mounted, sizeof(mounted));
	if (r == -ECHILD) {
		devname_name(c.devs[0], name, sizeof(name));
		msg_error("cannot check that %s filesystem %s is on %s alone: no process to read "
			  "%s could be started: %s", fsstamp_kind_name(f->kind), uuid, mounted,
			  name, msg_errname(c.err));
		msg_hint("a copy there would make the next boot discard the image; hibernate "
			 "again when memory or the process limit is less short");
		return r;
	}
	/* btrfs: every device that shows the same id; else the others, the copies */
	for (i = 0; i < c.n && at < sizeof(list); i++) {
		if (c.devs[i] == c.mounted)
			among = 1;
		if (c.devs[i] == c.mounted && f->kind != TORPOR_FS_BTRFS)
			continue;
		devname_name(c.devs[i], name, sizeof(name));
		at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", at ? ", " : "", name);
	}
	if (f->kind == TORPOR_FS_BTRFS)
		msg_error("btrfs %s (mounted from %s): %s show the same device of it (a copy of "
			  "a disk?): the next boot could not check it and would discard the image",
			  uuid, mounted, list);
	else if (among)
		msg_error("%s filesystem %s mounted from %s is also on %s (a copy: an LVM "
			  "snapshot, a cloned disk?): the next boot could not tell which one was "
			  "mounted and would discard the image", fsstamp_kind_name(f->kind), uuid,
			  mounted, list);
	else
		msg_error("%s filesystem %s is mounted from %s, but the next boot would find it "
			  "on %s and discard the image", fsstamp_kind_name(f->kind), uuid, mounted,
			  list);
	msg_hint("detach the copy or remove the snapshot (or deactivate it: 'lvchange -an "
		 "VG/LV'), or give the copy a UUID of its own ('%s' while it is not mounted), "
		 "then hibernate again", f->kind < sizeof(fix) / sizeof(fix[0]) && fix[f->kind] ?
		 fix[f->kind] : "see its filesystem's tools");
	return -ENOTUNIQ;
}

static int fill_identity(struct torpor_image *img)
{
	struct torpor_meta *m = &img->meta;
	struct utsname u;

	if (uname(&u) == 0) {
		snprintf(m->release, sizeof(m->release), "%s", u.release);
		snprintf(m->kversion, sizeof(m->kversion), "%s", u.version);
		snprintf(m->machine, sizeof(m->machine), "%s", u.machine);
	}
	if (sysmem_present_pages(&m->mem_pages) < 0)
		m->mem_pages = 0;
	m->created = (uint64_t)time(NULL);
	if (collect_mounts(img) < 0)
		return -EIO;
	msg_debug("recorded %u mounted filesystems, %u to sync", m->nr_fs, mounts.nr_sync);
	return check_unique(img);
}

/*
 * Between the kernel's sync in FREEZE and the freeze itself, programs still
 * write; their data sits in the page cache, and so in the snapshot.  Were the
 * power cut while the image is written, it would be lost although the frozen
 * programs saw their writes succeed.  So every filesystem on a local disk is
 * synced now, while only we run: what the snapshot holds is then on disk too.
 * Not FUSE or network filesystems: their servers are frozen, or beyond reach.
 * A failure stops the hibernation: the disk would not agree with the image, and
 * running on, the programs whose data it was hear of the error (fsync reports it).
 */
static int sync_filesystems(void)
{
	double t0 = mono_s();
	uint32_t i = 0;
	int r;

	r = mounts_sync(&mounts, &i);
	if (r < 0) {
		msg_error("syncing %s %s after freezing failed: %s: the disk would not hold what "
			  "the image holds", mounts.sync[i].fstype, mounts.sync[i].where,
			  msg_errname(r));
		msg_hint("'dmesg | tail' names the error; a full filesystem or a failing disk "
			 "must be dealt with first");
		return r;
	}
	msg_debug("synced %u filesystems in %.2f s", mounts.nr_sync, mono_s() - t0);
	return 0;
}

/*
 * The list was made before the freeze (the stamps go into the image's
 * metadata): an ext4, xfs or btrfs mounted since (an automounter, a desktop's
 * disk daemon) would be neither synced nor guarded against a mount elsewhere
 * before the resume.  The kernel lists every one in /sys/fs, whatever the
 * namespace; after the freeze no process can mount another.
 */
static int check_late_mounts(void)
{
	char dev[NAME_MAX + 1];
	const char *type;
	int r;

	r = mounts_foreign(&mounts, dev, sizeof(dev), &type);
	if (r == 1) {
		msg_error("/dev/%s (%s) was mounted while torpor-suspend prepared, after it listed "
			  "the filesystems: it would be neither synced nor guarded against a mount "
			  "elsewhere", dev, type);
		msg_hint("hibernate again");
		return -EBUSY;
	}
	if (r < 0) {
		msg_error("cannot check for filesystems mounted since the list was made: %s",
			  msg_errname(r));
		return r;
	}
	return 0;
}

static void say_save_error(int r, const struct writer *w, const struct hib_target *t,
			   uint64_t avail)
{
	if (r == -ENOSPC) {
		msg_error("not enough swap space on %s: the image needs about %llu MiB, "
			  "%llu MiB were free", t->dev_name, MIB(writer_estimate_bytes(w)),
			  MIB(avail));
		msg_hint("enlarge the swap area, or close programs to make the image smaller");
	} else if (r == -E2BIG) {
		msg_error("swap area on %s too fragmented for the image's map", t->dev_name);
	} else {
		msg_error("writing the image to %s failed: %s", t->dev_name, msg_errname(r));
	}
}

/* Does the sysfs file @path list @word ("[word]" when it is the current one)? */
static int sysfs_lists(const char *path, const char *word)
{
	char buf[256], *p;
	size_t len = strlen(word);
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	for (p = strtok(buf, " \n[]"); p; p = strtok(NULL, " \n[]"))
		if (strlen(p) == len && !memcmp(p, word, len))
			return 1;
	return 0;
}

/* platform and hybrid need the firmware's S4 and S3: say beforehand when they are missing */
static void check_poweroff_mode(const struct hib_opts *o)
{
	if (o->poweroff == CONFIG_POWEROFF_PLATFORM && !sysfs_lists("/sys/power/disk", "platform"))
		msg_warn("--poweroff=platform: the firmware offers no ACPI S4 ('platform' is not "
			 "in /sys/power/disk): torpor-suspend will power off as with shutdown");
	if (o->poweroff == CONFIG_POWEROFF_HYBRID && !sysfs_lists("/sys/power/mem_sleep", "deep"))
		msg_warn("--poweroff=hybrid: this machine has no suspend to RAM (S3, 'deep' in "
			 "/sys/power/mem_sleep): torpor-suspend will power off after saving, as "
			 "with shutdown");
}

/* --check: can /dev/snapshot be used?  Its node and the kernel's state, without opening it. */
static int check_snapshot_device(void)
{
	char state[64] = "";
	struct stat st;
	int fd, n;

	if (stat(SNAPSHOT_PATH, &st) < 0 || !S_ISCHR(st.st_mode)) {
		say_open_error(-ENOENT);
		return -ENOENT;
	}
	fd = open("/sys/power/disk", O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : (int)read(fd, state, sizeof(state) - 1);
	if (fd >= 0)
		close(fd);
	if (n > 0 && strstr(state, "[disabled]")) {
		say_open_error(-EPERM);
		return -EPERM;
	}
	return 0;
}

/*
 * The swap header may name a valid image and could not be put back: thawing now
 * would let programs write to filesystems the image would later be restored over.
 * The image is consistent (data and map were flushed before the root record), so
 * the safe way out is down, never up: power off, else reboot, else halt, else
 * stay frozen.  The next boot resumes the image or finds plain swap.
 */
static void go_down_frozen(void)
{
	msg_error("the swap header may still name the image: not thawing, going down; the next "
		  "boot resumes the image or finds none");
	msg_flush();
	reboot(RB_POWER_OFF);
	reboot(RB_AUTOBOOT);
	reboot(RB_HALT_SYSTEM);
	msg_error("cannot power off, reboot or halt: staying frozen");
	msg_hint("switch the machine off; the image is consistent");
	msg_flush();
	for (;;)
		pause();
}

/*
 * pthread_create() takes a few hundred bytes of heap for each thread (its TLS
 * table) even with our own stack, after the snapshot: keep a locked, untrimmed
 * slack at the top of the heap so that comes from memory already held.
 */
static void keep_heap_slack(void)
{
	void *p;

	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	mallopt(M_TOP_PAD, 1 << 20);
	p = malloc(64 << 10);	/* under the mmap threshold: from the heap itself */
	if (p)
		memset(p, 0, 64 << 10);
	free(p);
}

/* Compression and its threads: --threads=N, else one per online CPU; 1 = no worker. */
static int setup_pack(const struct hib_opts *o, struct writer *w)
{
	struct pack_setting set = o->pack;
	unsigned n = o->threads ? o->threads : pack_default_threads();
	char name[32];
	int r;

	if (set.kind == PACK_LZ4 && set.level < 1)
		set.level = 1;
	r = writer_setup_pack(w, &set, n > 1 ? n : 0);
	pack_setting_name(&w->pack, name, sizeof(name));
	if (r < 0) {
		msg_error("cannot allocate buffers for %u compression threads: %s", n,
			  msg_errname(r));
		msg_hint("give fewer with --threads=N (or threads = N in torpor.conf)");
		return r;
	}
	msg_debug("compression %s on %u thread%s", name, n > 1 ? n : 1, n > 1 ? "s" : "");
	return 0;
}

static size_t trial_pack(void *ctx, const uint8_t *raw, size_t len)
{
	return pack_pool_trial(ctx, raw, len);
}

/* "swap file '/swapfile'" or "/dev/vdb", for messages */
static const char *area_name(const struct hib_target *t, char *buf, size_t len)
{
	if (t->is_file)
		snprintf(buf, len, "swap file '%s'", t->swap_path);
	else
		snprintf(buf, len, "%s", t->dev_name);
	return buf;
}

/*
 * The swap areas the kernel's shrinking swaps out to before @t (zram) or in
 * turn with it, into @in; without /proc/swaps' priorities @t takes it all.
 */
static void set_areas(struct fit_input *in, const struct hib_target *t)
{
	struct swap_entry *sw = NULL;
	size_t n = 0, i;
	int r;

	r = swaps_read("/proc/swaps", &sw, &n);
	if (r == 0)
		r = fitcheck_set_areas(in, sw, n, t->swap_path);
	for (i = 0; r == 0 && i < n; i++)
		msg_debug("swap area '%s': priority %d, %llu MiB free", sw[i].path, sw[i].prio,
			  (sw[i].kib - (sw[i].used_kib < sw[i].kib ? sw[i].used_kib : sw[i].kib)) >>
			  10);
	free(sw);
	if (r < 0)
		msg_debug("no priorities of the swap areas (/proc/swaps: %s): what the kernel "
			  "swaps out counts as %s's", msg_errname(r), t->swap_path);
}

/*
 * What would make the image fit: an image_size (fitcheck_advise()) higher
 * when the kernel's shrinking swaps out to this area what the image would
 * hold compressed, lower when the kernel can drop more cache or swap more out
 * to zram; else more room or less memory in use.
 */
static void hint_fit(const struct fit_input *in, uint64_t avail)
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
 * Will the image fit?  Estimated before the freeze (fitcheck.h), with a
 * sample of memory compressed as the writer will (fitsample.h); refused with
 * the numbers when it cannot, with the margin.  Writing still stops at a full
 * area (the late check): this spares a freeze that cannot succeed.  What
 * cannot be read does not refuse: without /proc/meminfo there is no estimate,
 * without a sample memory counts as incompressible.
 * Return: 0, or -ENOSPC (reported).
 */
static int check_fit(const struct hib_opts *o, struct writer *w, const struct hib_target *t)
{
	struct fit_input in;
	struct fit_sample s;
	char where[PATH_MAX + 16], shrunk[160] = "", used[80] = "";
	uint64_t avail = t->swap_bytes > t->swap_used ? t->swap_bytes - t->swap_used : 0;
	double ratio, t0 = mono_s();
	int r;

	memset(&in, 0, sizeof(in));
	r = fitcheck_read_meminfo(FITCHECK_MEMINFO_PATH, &in.mem);
	if (r < 0) {
		msg_debug("cannot read %s: %s; the image's size is not estimated",
			  FITCHECK_MEMINFO_PATH, msg_errname(r));
		return 0;
	}
	in.page_size = w->ps;
	if (sysmem_present_pages(&in.present) == 0)
		in.present *= w->ps;
	else
		in.present = 0;
	/* locked by mlockall() before the snapshot, so in it */
	in.extra = writer_buffer_bytes(w);
	in.map_bytes = w->meta_cap;
	if (o->has_image_size)
		in.image_size = o->image_size;
	else if (imagesize_read(IMAGESIZE_PATH, &in.image_size) < 0)
		in.image_size = UINT64_MAX;
	r = fitsample_take(FITSAMPLE_KCORE, FITSAMPLE_KPAGEFLAGS, w->block_pages, w->ps,
			   FIT_BUDGET_NS, trial_pack, &w->pool, &s);
	if (r == 0) {
		in.sample_raw = s.raw;
		in.sample_stored = s.stored;
		msg_debug("compression sample: %u blocks of memory in use in %u windows, %llu KiB "
			  "stored in %llu KiB, in %.1f ms (%.1f ms of CPU)", s.blocks, s.windows,
			  (unsigned long long)(s.stored >> 10), (unsigned long long)(s.raw >> 10),
			  s.ns / 1e6, s.cpu_ns / 1e6);
	} else if (r == -ENODATA) {
		msg_debug("no compression sample (%u blocks of memory in use in %u windows, fewer "
			  "than %d, in %.1f ms of CPU): counting memory as incompressible", s.blocks,
			  s.windows, FITSAMPLE_MIN_BLOCKS, s.cpu_ns / 1e6);
	} else {
		msg_debug("no compression sample (%s or %s: %s): counting memory as "
			  "incompressible", FITSAMPLE_KCORE, FITSAMPLE_KPAGEFLAGS, msg_errname(r));
	}
	set_areas(&in, t);
	fitcheck_estimate(&in, &fit);
	ratio = fit.ratio_permille / 1000.0;
	msg_debug("image estimate: %llu MiB in use, %llu MiB in the snapshot (image_size %llu "
		  "MiB), %llu MiB swapped out to shrink it (%llu MiB to this area, %llu MiB of "
		  "zram's copies in the snapshot), ratio %.3f: %llu MiB to write, %llu MiB of swap "
		  "with the swapped, margin %llu MiB; %llu MiB free of %llu MiB; estimated in %.1f "
		  "ms",
		  MIB(fit.in_use), MIB(fit.image), MIB(in.image_size), MIB(fit.swapped),
		  MIB(fit.swapped_here), MIB(fit.pool), ratio, MIB_UP(fit.stored), MIB_UP(fit.need),
		  MIB_UP(fit.margin), MIB(avail), MIB(t->swap_bytes), (mono_s() - t0) * 1000);
	area_name(t, where, sizeof(where));
	if (fitcheck_fits(&fit, avail)) {
		if (o->check_only)
			msg_info("the image needs about %llu MiB of the %llu MiB free on %s",
				 MIB_UP(fit.need), MIB(avail), where);
		return 0;
	}
	if (fit.swapped_here && fit.swapped_here < fit.swapped)
		snprintf(shrunk, sizeof(shrunk), ", and the kernel swaps out about %llu MiB to "
			 "shrink it to image_size, %llu MiB of it to the image's area,",
			 MIB_UP(fit.swapped), MIB_UP(fit.swapped_here));
	else if (fit.swapped_here)
		snprintf(shrunk, sizeof(shrunk), ", and the kernel swaps out about %llu MiB to the "
			 "image's area to shrink it to image_size,", MIB_UP(fit.swapped_here));
	if (t->swap_used)
		snprintf(used, sizeof(used), " (%llu MiB hold swapped-out memory)",
			 MIB_UP(t->swap_used));
	msg_error("the image needs about %llu MiB compressed (%llu MiB of memory in use, "
		  "ratio %.2f)%s and a margin of %llu MiB, but %s has only %llu MiB free%s",
		  MIB_UP(fit.stored), MIB(fit.in_use), ratio, shrunk, MIB_UP(fit.margin), where,
		  MIB(avail), used);
	hint_fit(&in, avail);
	if (testhook_no_fitcheck())
		return 0;
	return -ENOSPC;
}

/*
 * The plain way down after the commit: reboot(2) to power off or reboot.
 * Returns only when neither worked, with the image discarded again (-errno).
 */
static int power_off(const struct hib_opts *o, struct writer *w, const struct hib_target *t)
{
	int reboot_mode = o->poweroff == CONFIG_POWEROFF_REBOOT;
	int r;

	msg_info("%s", reboot_mode ? "rebooting" : "powering off");
	msg_flush();
	if (reboot_mode)
		reboot(RB_AUTOBOOT);
	else
		reboot(RB_POWER_OFF);
	r = -errno;
	msg_error("%s failed: %s", reboot_mode ? "reboot" : "power off", msg_errname(r));
	/* the image is committed: a reboot resumes it as well as a power-off would */
	if (!reboot_mode) {
		msg_info("rebooting instead");
		msg_flush();
		reboot(RB_AUTOBOOT);
		msg_error("reboot failed too: %s", msg_errname(-errno));
	}
	if (writer_abort(w) < 0) {
		msg_error("could not restore the swap header of %s", t->dev_name);
		go_down_frozen();
	}
	msg_info("discarded the image on %s", t->dev_name);
	return r;
}

/*
 * --poweroff=platform: ACPI S4 through the kernel, as its own hibernation does
 * by default.  Returns only when that did not happen; the caller then powers off
 * with reboot(2): the image is committed either way.
 */
static void power_off_platform(int snap_fd)
{
	int r;

	msg_info("powering off through the platform (ACPI S4)");
	msg_flush();
	r = snap_power_off(snap_fd);
	msg_warn("the platform power-off (ACPI S4) failed: %s; powering off without it, "
		 "the next boot resumes the image as well",
		 r == 0 ? "the kernel did not enter it" :
		 r == -ENOSYS ? "the firmware offers no S4" : msg_errname(r));
}

/*
 * --poweroff=hybrid: the image is committed; suspend to RAM, still frozen.  A
 * power loss while suspended leaves the image to resume at the next boot.  On the
 * wake-up (0) the image is invalidated before anything thaws: the original swap
 * signature goes back, the root record is cleared, the page is flushed and the
 * swap slots freed; were that to fail, thawing would leave a valid image behind
 * a running system, so it goes down instead (the image still matches the
 * disks: nothing ran since the snapshot).  Returns 0 after the wake-up, or the
 * error of SNAPSHOT_S2RAM, with the image still committed: then power off.
 */
static int suspend_to_ram(struct writer *w, int snap_fd, const struct hib_target *t,
			  const char *orig_sig)
{
	int r;

	msg_info("suspending to RAM; the image on %s is kept for a power loss", t->dev_name);
	msg_flush();
	r = snap_s2ram(snap_fd);
	if (r < 0) {
		msg_warn("suspend to RAM failed: %s; powering off instead, the next boot "
			 "resumes the image", r == -ENOSYS ?
			 "this machine has no S3 ('deep' in /sys/power/mem_sleep)" :
			 msg_errname(r));
		if (r != -ENOSYS)
			msg_hint("'dmesg | grep -i suspend' names the device that refused");
		return r;
	}
	writer_forget_image(w, orig_sig);
	if (writer_abort(w) < 0) {
		msg_error("woke up from suspend to RAM, but could not invalidate the image on %s "
			  "(restoring its swap signature failed): thawing now would leave a valid "
			  "image behind a running system", t->dev_name);
		go_down_frozen();
	}
	return 0;
}

/* "ext4 UUID on /dev/NAME" of record @i on device @on, for the late check's messages */
static void late_name_on(uint32_t i, uint32_t on, char *buf, size_t len)
{
	char uuid[37], dev[64];
	const struct torpor_fsrec *f = &late.fs[i];

	fsstamp_uuid_str(f->uuid, uuid);
	devname_name(makedev(on >> 20, on & 0xfffff), dev, sizeof(dev));
	snprintf(buf, len, "%s %s on %s", fsstamp_kind_name(f->kind), uuid, dev);
}

/* the same on the device of its record */
static void late_name(uint32_t i, char *buf, size_t len)
{
	late_name_on(i, late.fs[i].dev, buf, len);
}

/* Why the restored system does not thaw, from the late check's outcome @o. */
static void say_late_doubt(enum late_outcome o)
{
	char what[128] = "", how[96];
	int at = __atomic_load_n(&late.at, __ATOMIC_ACQUIRE);

	if (at >= 0)
		late_name_on((uint32_t)at, __atomic_load_n(&late.at_dev, __ATOMIC_ACQUIRE), what,
			     sizeof(what));
	if (o == LATE_MOVED && late.err) {
		msg_error("%s no longer holds that filesystem (reformatted or overwritten since "
			  "hibernation): the restored system must not run", what);
	} else if (o == LATE_MOVED) {
		fsstamp_describe(&late.then, &late.now, how, sizeof(how));
		msg_error("%s was mounted since hibernation (%s): the restored system must not "
			  "run, it would corrupt that filesystem", what, how);
	} else if (o == LATE_TIMEOUT && late.over_total) {
		msg_error("the late check did not end within %d s (reading %s): the filesystems "
			  "cannot be proven unchanged, the restored system must not run",
			  LATE_TOTAL_MS / 1000, at >= 0 ? what : "the swap header");
	} else if (o == LATE_TIMEOUT && at >= 0) {
		msg_error("reading %s did not answer within %d s: it cannot be proven unchanged, "
			  "the restored system must not run", what, LATE_READ_MS / 1000);
	} else if (o == LATE_TIMEOUT) {
		msg_error("reading the swap header did not answer within %d s: the filesystems "
			  "the boot could not see cannot be checked, the restored system must "
			  "not run", LATE_READ_MS / 1000);
	} else if (at < 0) {
		msg_error("cannot read what torpor-resume left in the swap header for the late "
			  "check: %s: the filesystems the boot could not see cannot be checked, "
			  "the restored system must not run", msg_errname(late.err));
	} else if (late.member_gone) {
		msg_error("%s, not present at boot, is gone since hibernation (%s), and other "
			  "devices of that btrfs are there: it cannot be proven unchanged, the "
			  "restored system must not run", what, msg_errname(late.err));
	} else if (late.err == -EIO) {
		msg_error("reading %s failed (EIO), and the device is still there: it cannot be "
			  "proven unchanged, the restored system must not run", what);
	} else if (late.err == -EOPNOTSUPP) {
		msg_error("%s, not present at boot, cannot be read past the kernel's cache (its "
			  "device refused O_DIRECT): it cannot be proven unchanged, the restored "
			  "system must not run", what);
	} else if (late.err == -ENOTUNIQ) {
		msg_error("%s, not present at boot, shows the same device of that btrfs as "
			  "another (a copy of a disk?): the restored system must not run", what);
	} else if (late.err == -EXDEV) {
		msg_error("%s, not present at boot, is a btrfs on %llu devices, and %u of them "
			  "could be read (or they disagree on their number): the others cannot be "
			  "proven unchanged, the restored system must not run", what,
			  (unsigned long long)late.num_devices, late.devices_read);
	} else {
		msg_error("cannot check %s again after the resume: %s: the restored system must "
			  "not run", what, msg_errname(late.err));
	}
}

/*
 * The late check found a doubt: nothing of the restored system may run.  Still
 * frozen, nothing has written any disk since the restore (torpor-resume
 * invalidated the image before it), so a reboot without a sync leaves every
 * filesystem as the other system left it, and the next boot is a normal one.
 * Not reboot(2): its reboot notifiers write (md's writes each array's
 * superblock from the restored, possibly stale, state), and its device
 * shutdown may wait for ever on the device whose read did not answer.  SysRq-B
 * resets at once; reboot(2) only where it could not be had.
 * The reason goes to the console through the kernel log (stderr may be a file,
 * which nothing may write now), with a pause to read it.  Never returns.
 */
static void reboot_unthawed(enum late_outcome o)
{
	struct timespec wait = { LATE_REBOOT_PAUSE_S, 0 };

	msg_kmsg_always();
	say_late_doubt(o);
	msg_hint("the hibernated session is lost: nothing of it ran and no disk was written; "
		 "let the initramfs open every filesystem mounted when hibernating (a separate "
		 "encrypted or LVM volume) so that the boot itself checks it");
	msg_error("rebooting in %d s without resuming", LATE_REBOOT_PAUSE_S);
	msg_flush();
	nanosleep(&wait, NULL);
	if (sysrq_fd >= 0 && write(sysrq_fd, "b", 1) < 0)
		msg_error("cannot reset through %s: %s; rebooting with reboot(2)", SYSRQ_TRIGGER,
			  msg_errname(-errno));
	reboot(RB_AUTOBOOT);
	reboot(RB_POWER_OFF);
	reboot(RB_HALT_SYSTEM);
	msg_error("cannot reboot, power off or halt: staying frozen");
	msg_hint("switch the machine off; the next boot is a normal one");
	msg_flush();
	for (;;)
		pause();
}

/*
 * CREATE_IMAGE returned 0: the image was restored, and everything else is still
 * frozen.  torpor-resume left the filesystems it could not see at boot to this
 * check (latecheck.h); when one moved, or cannot be read in time, the system
 * does not thaw.  Returns only when it may.
 */
static void check_late(void)
{
	char what[128];
	enum late_outcome o = latecheck_run(&late, LATE_READ_MS, LATE_TOTAL_MS);
	unsigned long long ms = NS_MS(late.ns);

	switch (o) {
	case LATE_NO_NOTE:
		msg_debug("no late check: torpor-resume checked every filesystem at boot");
		break;
	case LATE_SAME:
		if (late.unseen)
			msg_info("the %u filesystem%s the boot could not see %s unchanged (%u "
				 "read again in %llu ms)", late.unseen, late.unseen > 1 ? "s" : "",
				 late.unseen > 1 ? "are" : "is", late.checked, ms);
		else
			msg_debug("late check: %u filesystems unchanged, read again in %llu ms",
				  late.checked, ms);
		break;
	case LATE_GONE:
		late_name(late.gone_at, what, sizeof(what));
		msg_warn("%s is gone since hibernation (%s): the resumed system cannot write "
			 "it, its programs get errors there%s", what, msg_errname(late.gone_err),
			 late.gone > 1 ? " (and in others)" : "");
		break;
	default:
		reboot_unthawed(o);
	}
	msg_debug("late check: %llu ms in all, reading the note %llu ms, the stamps %llu ms",
		  ms, NS_MS(late.t_note_ns), NS_MS(late.t_read_ns));
	if (late.lingering)
		msg_warn("torpor-suspend's late check thread was still known to the kernel a "
			 "second after it ended");
}

/* How long the readers killed at a deadline have to end before the freeze. */
#define STUCK_WAIT_MS	1000

/*
 * A reader that the lookups killed at its deadline (a device that does not
 * answer) and that lives on is asleep in the kernel until that device
 * answers (devname_stuck()): SNAPSHOT_FREEZE's sync would wait for it, for
 * ever if the device never answers, and the freezer could not freeze it.
 * Refused now, before anything is frozen, saying why.  One killed a moment
 * ago is given STUCK_WAIT_MS to end.
 */
static int check_stuck_readers(void)
{
	char name[64];
	size_t n;
	dev_t dev = 0;
	pid_t pid = 0;

	n = devname_stuck(STUCK_WAIT_MS, &dev, &pid);
	if (n == 0)
		return 0;
	devname_name(dev, name, sizeof(name));
	msg_error("cannot hibernate: process %d, which torpor-suspend started to read %s, is "
		  "stuck waiting for it (%s did not answer), and the kernel cannot freeze a "
		  "process in that state%s", (int)pid, name, name,
		  n > 1 ? "; so are others, for other devices" : "");
	msg_hint("hibernate again once %s answers or is removed and process %d has ended ('ps "
		 "-o pid,stat,wchan -p %d' shows it in state D until then)", name, (int)pid,
		 (int)pid);
	return -EBUSY;
}

/*
 * A btrfs the initramfs does not see is checked late through every one of its
 * devices (latecheck.c): each must be open before the freeze, and the kernel
 * must list as many as the filesystem has.  Where that cannot be, the session
 * would be lost at the resume (the boot discards the image, or the restored
 * system reboots unthawed): refuse now, saying why.
 */
static int check_btrfs_devices(const struct torpor_image *img)
{
	struct restamp_gap gap;
	char what[128], name[64], uuid[37];
	int i = restamp_btrfs_gap(&stamps, img->fs, 0, &gap);
	uint32_t dev;

	if (i < 0)
		return 0;
	late_name((uint32_t)i, what, sizeof(what));
	fsstamp_uuid_str(img->fs[i].uuid, uuid);
	switch (gap.kind) {
	case RESTAMP_GAP_OPEN:
		dev = stamps.more[gap.member].dev;
		devname_name(makedev(dev >> 20, dev & 0xfffff), name, sizeof(name));
		msg_error("cannot open %s, a device of %s (mounted), to read its stamp after the "
			  "resume: %s: not hibernating", name, what, msg_errname(gap.err));
		break;
	case RESTAMP_GAP_LIST:
		msg_error("cannot list the devices of %s (mounted) in /sys/fs/btrfs/%s/devices: "
			  "%s: not hibernating", what, uuid, msg_errname(gap.err));
		break;
	case RESTAMP_GAP_SUPER:
		msg_error("cannot read the superblock of %s (mounted): not hibernating", what);
		break;
	case RESTAMP_GAP_COUNT:
		msg_error("%s (mounted) has %llu devices, the kernel lists %d (mounted degraded?): "
			  "neither the next boot nor the restored system could prove the missing "
			  "ones unchanged, the session would be lost: not hibernating", what,
			  (unsigned long long)stamps.num_devices[i], stamps.listed[i]);
		msg_hint("replace or remove the missing device ('btrfs replace', 'btrfs device "
			  "remove missing'), or unmount the filesystem before hibernating");
		return -ENODEV;
	case RESTAMP_GAP_MANY:
		msg_error("%s (mounted) has %d devices, more than the %d the restored system can "
			  "read: not hibernating", what, stamps.listed[i], RESTAMP_BTRFS_MAX);
		return -E2BIG;
	}
	msg_hint("a btrfs the initramfs does not see is checked through every device of it "
		 "before the restored system runs: without one, a mount elsewhere before the "
		 "resume could not be seen");
	return gap.err < 0 ? gap.err : -EIO;
}

/*
 * Every recorded filesystem's device must be open before the freeze: without it
 * neither the image's stamp nor the late check after the resume can be read.
 */
static int check_stamp_devices(const struct torpor_image *img)
{
	int i = restamp_unopened(&stamps, 0);
	char what[128];

	late.fs = img->fs;
	if (i < 0)
		return check_btrfs_devices(img);
	late_name((uint32_t)i, what, sizeof(what));
	msg_error("cannot open %s (mounted) to read its stamp after the snapshot and after the "
		  "resume: %s: not hibernating", what, msg_errname(stamps.fd[i]));
	msg_hint("without its stamp a mount elsewhere before the resume could not be seen");
	return stamps.fd[i];
}

/*
 * Step 3: CREATE_IMAGE said 1.  Write, commit, and go down as --poweroff says;
 * returns only on failure (-errno, the image discarded), or 0 with *ret_woke set
 * after --poweroff=hybrid woke up with the image discarded.
 */
static int save_and_power_off(const struct hib_opts *o, struct writer *w, int snap_fd,
			      const struct hib_target *t, const char *orig_sig, int platform,
			      int *ret_woke)
{
	uint64_t stream = 0, avail = 0;
	double t0 = mono_s();
	unsigned long long cpu_all, cpu_own;
	uint32_t failed = 0;
	int r;

	r = restamp_read(&stamps, w->img.fs, w->img.meta.nr_fs, &failed);
	if (r < 0) {
		msg_error("cannot read the mount stamps of %u filesystems again after the snapshot",
			  failed);
		return r;
	}
	r = snap_image_size(snap_fd, &stream);
	if (r < 0) {
		msg_error("cannot get the image size: %s", msg_errname(r));
		return r;
	}
	(void)snap_avail_swap(snap_fd, &avail);
	keys_read = interrupt_keys_start();
	msg_info("saving %llu MiB image to %s (%llu MiB free)%s", MIB(stream), t->dev_name,
		 MIB(avail), keys_read ? "; Esc or Ctrl-C aborts" : "");
	cpu_all = usage_cpu_ms(RUSAGE_SELF);
	cpu_own = usage_cpu_ms(RUSAGE_THREAD);
	r = writer_save(w, snap_fd, stream);
	if (r == 0)
		r = writer_commit(w, orig_sig);
	/* the threads are joined: RUSAGE_SELF has their time */
	cpu_all = usage_cpu_ms(RUSAGE_SELF) - cpu_all;
	cpu_own = usage_cpu_ms(RUSAGE_THREAD) - cpu_own;
	keys_read = 0;
	if (r < 0) {
		if (r != -ECANCELED)
			say_save_error(r, w, t, avail);
		if (writer_abort(w) < 0) {
			msg_error("could not restore the swap header of %s", t->dev_name);
			go_down_frozen();
		}
		return r;
	}
	testhook_committed();
	msg_info("image saved: %llu MiB in memory, %llu MiB written (%llu%%) in %.2f s, "
		 "peak memory %llu KiB, %u compression thread%s", MIB(stream),
		 MIB(w->img.meta.data_pages * w->ps),
		 (unsigned long long)(w->img.meta.data_pages * w->ps * 100 / stream),
		 mono_s() - t0, usage_peak_rss_kib(), w->threads_used ? w->threads_used : 1,
		 w->threads_used > 1 ? "s" : "");
	msg_debug("estimated before the freeze: %llu MiB of data and map at most %llu MiB; "
		  "written: %llu MiB of data, %llu KiB of map", MIB_UP(fit.stored - w->meta_cap),
		  MIB_UP(w->meta_cap), MIB_UP(w->img.meta.data_pages * w->ps),
		  (unsigned long long)(image_meta_bytes(w->img.meta.nr_extents,
							w->img.meta.nr_blocks,
							w->img.meta.nr_fs) >> 10));
	msg_debug("where the time went: reading the snapshot %llu ms, slots %llu ms, waiting for "
		  "compression %llu ms, staging %llu ms, waiting for writes %llu ms; compressing "
		  "%llu ms (all threads), writing %llu ms", NS_MS(w->t_read), NS_MS(w->t_alloc),
		  NS_MS(w->t_wait_pack), NS_MS(w->t_copy), NS_MS(w->t_wait_write),
		  NS_MS(w->t_pack), NS_MS(w->t_write));
	msg_debug("write phase CPU time: %llu ms in all threads, %llu ms in the writer's; the "
		  "commit took %llu ms, %llu ms of it in fdatasync() (%llu flushes before it)",
		  cpu_all, cpu_own, NS_MS(w->t_commit), NS_MS(w->t_sync),
		  (unsigned long long)w->fl.syncs);
	if (w->lingering)
		msg_warn("%u of torpor-suspend's threads were still known to the kernel a second "
			 "after they ended", w->lingering);
	if (o->poweroff == CONFIG_POWEROFF_HYBRID) {
		r = suspend_to_ram(w, snap_fd, t, orig_sig);
		if (r == 0) {
			*ret_woke = 1;
			return 0;
		}
	}
	if (platform)
		power_off_platform(snap_fd);
	return power_off(o, w, t);
}

/* Steps 2-4 with the resources of step 1. */
static int snapshot_sequence(const struct hib_opts *o, struct writer *w,
			     const struct hib_target *t, const char *orig_sig)
{
	int snap_fd, in_suspend = -1, platform = 0, woke = 0, r;

	snap_fd = snap_open(O_RDONLY);
	if (snap_fd < 0) {
		say_open_error(snap_fd);
		return snap_fd;
	}
	r = snap_set_swap_area(snap_fd, t->dev, t->offset_pages);
	if (r < 0) {
		if (r == -ENODEV) {
			msg_error("the kernel rejected swap area %s at page %llu: no active swap "
				  "area of the kernel begins there", t->dev_name,
				  (unsigned long long)t->offset_pages);
			msg_hint("resume_offset= must be the page where '%s' begins on %s "
				 "(filefrag -v, on btrfs: btrfs inspect-internal map-swapfile -r)",
				 t->swap_path, t->dev_name);
		} else {
			msg_error("the kernel rejected swap area %s at page %llu: %s",
				  t->dev_name, (unsigned long long)t->offset_pages,
				  msg_errname(r));
		}
		goto out_close;
	}
	/* before CREATE_IMAGE: the kernel prepares the platform for S4 with the snapshot */
	if (o->poweroff == CONFIG_POWEROFF_PLATFORM) {
		r = snap_platform_support(snap_fd, 1);
		platform = r == 0;
		if (r < 0)
			msg_warn("cannot enable the platform mode (ACPI S4): %s; powering off "
				 "without it", msg_errname(r));
	}
	if (interrupt_pending()) {
		r = -ECANCELED;
		goto out_close;
	}
	msg_info("freezing processes");
	testhook_before_freeze();
	r = snap_freeze(snap_fd);
	if (r < 0) {
		msg_error("freezing processes failed: %s", msg_errname(r));
		msg_hint("'dmesg | tail' names the task that refused to freeze");
		goto out_close;
	}
	r = check_late_mounts();
	if (r < 0)
		goto out_unfreeze;
	r = sync_filesystems();
	if (r < 0)
		goto out_unfreeze;
	if (interrupt_pending()) {
		r = -ECANCELED;
		goto out_unfreeze;
	}
	r = snap_create_image(snap_fd, &in_suspend);
	if (r < 0) {
		msg_error("creating the snapshot failed: %s", msg_errname(r));
		msg_hint("'dmesg | tail' names the device or the memory shortage");
		goto out_unfreeze;
	}
	if (in_suspend) {
		r = save_and_power_off(o, w, snap_fd, t, orig_sig, platform, &woke);
		(void)snap_free(snap_fd);
		if (!woke)
			goto out_unfreeze;
		/* the image is invalid again and its slots are free: thaw */
		interrupt_drain();
		(void)snap_unfreeze(snap_fd);
		close(snap_fd);
		msg_set_quiet(0);
		msg_info("woke up from suspend to RAM, image discarded");
		return 0;
	}
	/* CREATE_IMAGE returned 0: the image was restored and we run again */
	check_late();
	(void)snap_free(snap_fd);
	(void)snap_unfreeze(snap_fd);
	close(snap_fd);
	msg_info("resumed from hibernation");
	return 0;

out_unfreeze:
	/* still frozen: what came since the commit was meant for no one running */
	interrupt_drain();
	(void)snap_unfreeze(snap_fd);
out_close:
	close(snap_fd);
	/* thawed: the last word may go to a log file again */
	msg_set_quiet(0);
	if (r == -ECANCELED || interrupt_pending()) {
		say_aborted();
		return -ECANCELED;
	}
	msg_error("hibernation failed; the system keeps running");
	return r < 0 ? r : -EIO;
}

/* image_size from the options: a preference, so a failure only warns */
static void set_image_size(const struct hib_opts *o, uint64_t *ret_old)
{
	int r;

	if (!o->has_image_size)
		return;
	r = imagesize_swap(IMAGESIZE_PATH, o->image_size, ret_old);
	if (r < 0)
		msg_warn("cannot set %s: %s, ignoring", IMAGESIZE_PATH, msg_errname(r));
	else
		msg_debug("%s: %llu, was %llu", IMAGESIZE_PATH,
			  (unsigned long long)o->image_size, (unsigned long long)*ret_old);
}

/**
 * hibernate_run() - the whole of torpor-suspend
 * Return: 0 when the machine hibernated and has now resumed, -errno after a
 * failure (already reported; the system is running and thawed).
 */
/*
 * In a container the power-off ends only the container (the kernel's reboot()
 * in a child PID namespace kills its init and us at once): closing
 * /dev/snapshot would then thaw a machine whose swap header names the image.
 * And a mount namespace of our own, or a chroot, hides filesystems we must sync
 * and stamp.  Each check fails closed: what cannot be verified is refused.  A
 * root shell on the host reads /proc/1/ns/mnt and /proc/1/root; where they are
 * hidden (an LSM, a sandbox, no /proc) we are in the very place these checks
 * are for.  Only the test build may go on past an EACCES (testhook.h).
 */
#define PROC_PID_INIT_INO	0xEFFFFFFCu

/* The namespace or root @what could not be compared: -errno @r from @path. */
static int say_unverified(const char *what, const char *path, int r)
{
	if ((r == -EACCES || r == -EPERM) && testhook_ns_unreadable(path))
		return 0;
	msg_error("cannot tell whether torpor-suspend runs %s: '%s': %s", what, path,
		  msg_errname(r));
	if (r == -ENOENT)
		msg_hint("mount /proc ('mount -t proc proc /proc') and run torpor-suspend on the "
			 "host, outside any chroot or container");
	else
		msg_hint("run torpor-suspend as root on the host, outside any container, chroot "
			 "or sandbox (one that hides init's /proc entries is refused too)");
	return r;
}

static int same_mount_ns(void)
{
	struct stat self, init;

	if (stat("/proc/self/ns/mnt", &self) < 0)
		return say_unverified("in init's mount namespace", "/proc/self/ns/mnt", -errno);
	if (stat("/proc/1/ns/mnt", &init) < 0)
		return say_unverified("in init's mount namespace", "/proc/1/ns/mnt", -errno);
	if (self.st_ino != init.st_ino || self.st_dev != init.st_dev) {
		msg_error("torpor-suspend runs in a mount namespace other than init's: it "
			  "would not see every mounted filesystem to sync and guard");
		msg_hint("run torpor-suspend in the host's mount namespace (not from a "
			 "service with PrivateMounts= or a container)");
		return -EPERM;
	}
	return 0;
}

/**
 * hibernate_check_namespaces() - refuse in a container, another mount namespace
 * or a chroot, or where that cannot be told
 * Return: 0, or -errno (reported).
 */
int hibernate_check_namespaces(void)
{
	struct stat self;
	int r;

	if (stat("/proc/self/ns/pid", &self) < 0) {
		r = say_unverified("in a PID namespace of its own", "/proc/self/ns/pid", -errno);
		if (r < 0)
			return r;
	} else if (self.st_ino != PROC_PID_INIT_INO) {
		msg_error("torpor-suspend runs in a PID namespace of its own (a container): "
			  "powering off there would end only the container");
		msg_hint("run torpor-suspend on the host, outside any container");
		return -EPERM;
	}
	/* before the mount namespace: a chroot made in one of its own is named as such */
	r = mounts_chrooted("/", "/proc/1/root");
	if (r < 0)
		r = say_unverified("in a chroot", "/proc/1/root", r);
	if (r < 0)
		return r;
	if (r == 1) {
		msg_error("torpor-suspend runs in a chroot (its / is not init's): filesystems "
			  "mounted outside it would be neither synced nor guarded");
		msg_hint("run torpor-suspend outside the chroot, in the host's own root");
		return -EPERM;
	}
	return same_mount_ns();
}

int hibernate_run(const struct hib_opts *o)
{
	struct hib_target t;
	struct writer w;
	struct sysinfo si;
	struct stat st;
	char orig_sig[10];
	uint64_t old_size = UINT64_MAX;
	uint32_t ps = (uint32_t)sysconf(_SC_PAGESIZE);
	int dev_fd, r;

	if (geteuid() != 0) {
		msg_error("hibernating needs root");
		msg_hint("run 'sudo torpor-suspend'");
		return -EPERM;
	}
	r = hibernate_check_namespaces();
	if (r < 0)
		return r;
	memset(&t, 0, sizeof(t));
	r = hibernate_resolve(o, &t);
	if (r == 0)
		r = check_next_boot(&t, o->resume);
	if (r < 0)
		return r;
	r = hibernate_check_initramfs(o);
	if (r < 0)
		return r;
	if (t.offset_pages >= UINT64_MAX / ps - 1) {
		msg_error("resume_offset %llu is beyond any device",
			  (unsigned long long)t.offset_pages);
		return -ERANGE;
	}
	dev_fd = open_device(&t, (t.offset_pages + 1) * ps);
	if (dev_fd < 0)
		return dev_fd;
	if (sysinfo(&si) < 0)
		si.totalram = 0, si.mem_unit = 1;
	r = writer_init(&w, dev_fd, t.offset_pages * ps, ps,
			(uint64_t)si.totalram * si.mem_unit + (64u << 20));
	if (r == -EFBIG) {
		msg_error("this machine has more memory than torpor's image format can describe "
			  "(%llu MiB, at most 1 TiB)", MIB((uint64_t)si.totalram * si.mem_unit));
		goto out_close;
	}
	if (r < 0) {
		msg_error("cannot allocate buffers: %s", msg_errname(r));
		goto out_close;
	}
	r = setup_pack(o, &w);
	if (r < 0)
		goto out_release;
	msg_debug("blocks of %u pages, %llu KiB of buffers and tables", w.block_pages,
		  (unsigned long long)(writer_buffer_bytes(&w) >> 10));
	r = writer_check_header(&w, orig_sig, !o->check_only);
	if (r == -E2BIG) {
		msg_error("the swap header of %s lists more than 128 bad pages: torpor's "
			  "record would overwrite the list", t.dev_name);
		msg_hint("use another swap area, or mkswap this one without -c");
		goto out_release;
	}
	if (r == -EMEDIUMTYPE) {
		msg_error("no swap signature at page %llu of %s: not a swap area",
			  (unsigned long long)t.offset_pages, t.dev_name);
		goto out_release;
	}
	if (r < 0) {
		msg_error("cannot read or write the swap header at page %llu of %s: %s",
			  (unsigned long long)t.offset_pages, t.dev_name, msg_errname(r));
		goto out_release;
	}
	r = check_fit(o, &w, &t);
	if (r < 0)
		goto out_release;
	if (o->check_only) {
		r = check_snapshot_device();
		if (r == 0)
			check_poweroff_mode(o);
		if (r == 0 && t.is_file)
			msg_info("ready to hibernate to swap file '%s' on %s (%llu MiB): "
				 "resume_offset=%llu", t.swap_path, t.dev_name, MIB(t.swap_bytes),
				 (unsigned long long)t.offset_pages);
		else if (r == 0)
			msg_info("ready to hibernate to swap partition '%s' on %s (%llu MiB)",
				 t.swap_path, t.dev_name, MIB(t.swap_bytes));
		goto out_release;
	}
	check_poweroff_mode(o);
	w.progress = o->no_progress ? NULL : show_progress;
	w.poll = poll_abort;
	w.before_root = before_root;
	testhook_init();
	r = fill_identity(&w.img);
	if (r < 0)
		goto out_release;
	r = restamp_open(&stamps, w.img.fs, w.img.meta.nr_fs);
	if (r < 0) {
		msg_error("cannot open the filesystems to stamp: %s", msg_errname(r));
		goto out_release;
	}
	r = check_stamp_devices(&w.img);
	if (r < 0)
		goto out_release;
	r = latecheck_init(&late, &stamps, w.img.fs, w.img.meta.nr_fs, w.img.meta.created,
			   dev_fd, t.offset_pages * ps, ps);
	if (r < 0) {
		msg_error("cannot allocate the late check's buffers: %s", msg_errname(r));
		goto out_release;
	}
	/* torpor-resume leaves what the boot cannot see to the late check only on our word */
	w.img.meta.features |= TORPOR_META_LATE_CHECK;
	/* the last lookup is behind: no reader starts after this */
	r = check_stuck_readers();
	if (r < 0)
		goto out_release;
	if (msg_kmsg_open() < 0)
		msg_debug("cannot open /dev/kmsg: a late check's reason goes to stderr only");
	sysrq_fd = open(SYSRQ_TRIGGER, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (sysrq_fd < 0)
		msg_debug("cannot open %s: %s: a late check's reboot would go through reboot(2), "
			  "whose reboot notifiers may write", SYSRQ_TRIGGER, msg_errname(-errno));
	r = interrupt_install();
	if (r < 0) {
		msg_error("cannot set up the abort signals: %s", msg_errname(r));
		goto out_release;
	}
	set_image_size(o, &old_size);
	/* after the snapshot no mounted filesystem may be written, not even a log file */
	if (fstat(2, &st) == 0 && S_ISREG(st.st_mode))
		msg_set_quiet(1);
	/*
	 * plymouth, when it runs, is frozen with the rest: it says this until the
	 * thaw.  Before mlockall(): nothing is forked from a locked torpor-suspend
	 */
	if (splash_open(&splash, NULL, 500) > 0) {
		(void)splash_message(&splash, "Hibernating: saving memory to disk");
		splash_wait(&splash, 500);
	}
	keep_heap_slack();
	if (mlockall(MCL_CURRENT | MCL_FUTURE) < 0) {
		r = -errno;
		msg_set_quiet(0);
		msg_error("cannot lock torpor-suspend in memory: %s", msg_errname(r));
	} else {
		r = snapshot_sequence(o, &w, &t, orig_sig);
		msg_set_quiet(0);
		munlockall();
	}
	splash_close(&splash, 500);
	if (o->has_image_size && old_size != UINT64_MAX)
		(void)imagesize_swap(IMAGESIZE_PATH, old_size, &old_size);
	interrupt_restore();
out_release:
	if (sysrq_fd >= 0)
		close(sysrq_fd);
	sysrq_fd = -1;
	latecheck_free(&late);
	restamp_close(&stamps);
	mounts_release(&mounts);
	writer_release(&w);
out_close:
	close(dev_fd);
	return r;
}
