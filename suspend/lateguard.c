// SPDX-License-Identifier: GPL-2.0-only
/*
 * lateguard.c - torpor-suspend's side of the late check (latecheck.h): every
 * stamped filesystem's device opened before the freeze, the stamps read again
 * after the snapshot, and after the resume, still frozen, the filesystems the
 * boot could not see checked again, or a reboot without thawing
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "blockstack.h"
#include "devname.h"
#include "fsstamp.h"
#include "hibsay.h"
#include "latecheck.h"
#include "lateguard.h"
#include "lostnote.h"
#include "msg.h"
#include "restamp.h"

/* the recorded filesystems, read again after the snapshot */
static struct restamp stamps;

/* and read again by the restored process before it thaws */
static struct latecheck late;

/* why it did not thaw, kept in the swap header page for the next boot */
static struct lostnote lost;
static int lost_on_md;		/* no note: the area is on md RAID, or that is not known */

/*
 * /proc/sysrq-trigger, opened before the freeze: the late check's reboot goes
 * through SysRq-B (emergency_restart(): no reboot notifier, no device
 * shutdown).  A write by root works whatever kernel.sysrq says: the kernel
 * checks that mask for the keyboard only (drivers/tty/sysrq.c,
 * write_sysrq_trigger() calls __handle_sysrq() with check_mask false).
 */
#define SYSRQ_TRIGGER	"/proc/sysrq-trigger"
static int sysrq_fd = -1;

/* "ext4 UUID on /dev/NAME" of record @i on the device of its record */
static void late_name(uint32_t i, char *buf, size_t len)
{
	hibsay_fs_name(&late.fs[i], late.fs[i].dev, buf, len);
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
	static char reason[TORPOR_LOST_REASON_LEN];
	struct timespec wait = { LATE_REBOOT_PAUSE_S, 0 };
	const uint8_t *page = NULL;
	int r;

	msg_kmsg_always();
	hibsay_late_doubt(&late, o, reason, sizeof(reason));
	/*
	 * The console is all that shows the reason, and the reset ends it: keep it
	 * where the next boot looks (lostnote.h), in the header page the late check
	 * read, bounded; the reset goes on whatever the write does.
	 */
	if (__atomic_load_n(&late.page_read, __ATOMIC_ACQUIRE))
		page = late.page;
	r = lost_on_md ? -EREMOTEIO : lostnote_write(&lost, page, reason, (uint64_t)time(NULL),
						     LOSTNOTE_MS);
	if (r == -EREMOTEIO)
		msg_warn("not keeping the reason in the swap header for the next boot: the swap "
			 "area is on md RAID (or that is not known), where a write would have md "
			 "write its superblock from the restored state");
	else if (r == -ENODATA || r == -EEXIST)
		msg_warn("cannot keep the reason in the swap header for the next boot: the page "
			 "was %s", r == -ENODATA ? "not read" : "no swap header");
	else if (r < 0)
		msg_warn("cannot keep the reason in the swap header for the next boot: %s",
			 msg_errname(r));
	msg_hint("the hibernated session is lost: nothing of it ran and no filesystem was written; "
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
 * lateguard_check() - CREATE_IMAGE returned 0: the image was restored, and
 * everything else is still frozen.  torpor-resume left the filesystems it
 * could not see at boot to this check (latecheck.h); when one moved, or cannot
 * be read in time, the system does not thaw.  Returns only when it may.
 */
void lateguard_check(void)
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

/**
 * lateguard_open() - open every stamped filesystem's device of @img and the
 * late check's buffers, before the freeze
 * @img: the image, its filesystems recorded (mountguard_record())
 * @dev_fd: the swap device, @header_offset: where its header page is,
 * @ps: the page size
 *
 * Marks @img for the late check: torpor-resume leaves to it what the boot
 * cannot see.
 * Return: 0, or -errno (reported).
 */
int lateguard_open(struct torpor_image *img, int dev_fd, uint64_t header_offset, uint32_t ps)
{
	struct stat st;
	int r;

	r = restamp_open(&stamps, img->fs, img->meta.nr_fs);
	if (r < 0) {
		msg_error("cannot open the filesystems to stamp: %s", msg_errname(r));
		return r;
	}
	r = check_stamp_devices(img);
	if (r < 0)
		return r;
	r = latecheck_init(&late, &stamps, img->fs, img->meta.nr_fs, img->meta.created,
			   dev_fd, header_offset, ps);
	/*
	 * Not on md RAID (or when that is not known): a write to an array makes md
	 * write its superblock, from the restored state, which may be stale, and
	 * the unthawed reset exists so that nothing is written then
	 */
	lost_on_md = fstat(dev_fd, &st) < 0 || blockstack_of_has_md(S_ISBLK(st.st_mode) ?
								    st.st_rdev : st.st_dev) != 0;
	if (r == 0 && !lost_on_md)
		r = lostnote_init(&lost, dev_fd, header_offset, ps, img->meta.created,
				  img->meta.release);
	if (r < 0) {
		msg_error("cannot allocate the late check's buffers: %s", msg_errname(r));
		return r;
	}
	/* torpor-resume leaves what the boot cannot see to the late check only on our word */
	img->meta.features |= TORPOR_META_LATE_CHECK;
	return 0;
}

/**
 * lateguard_arm() - the ways out of a failed late check, opened before the
 * freeze: /dev/kmsg for its reason, SysRq for its reboot (debug lines when not)
 */
void lateguard_arm(void)
{
	if (msg_kmsg_open() < 0)
		msg_debug("cannot open /dev/kmsg: a late check's reason goes to stderr only");
	sysrq_fd = open(SYSRQ_TRIGGER, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (sysrq_fd < 0)
		msg_debug("cannot open %s: %s: a late check's reboot would go through reboot(2), "
			  "whose reboot notifiers may write", SYSRQ_TRIGGER, msg_errname(-errno));
}

/**
 * lateguard_restamp() - read the stamps of @img's filesystems again after the
 * snapshot, into @img
 * Return: 0, or -errno (reported).
 */
int lateguard_restamp(struct torpor_image *img)
{
	uint32_t failed = 0;
	int r;

	r = restamp_read(&stamps, img->fs, img->meta.nr_fs, &failed);
	if (r < 0) {
		msg_error("cannot read the mount stamps of %u filesystems again after the snapshot",
			  failed);
		return r;
	}
	return 0;
}

/* lateguard_release() - close what lateguard_open() and lateguard_arm() opened */
void lateguard_release(void)
{
	if (sysrq_fd >= 0)
		close(sysrq_fd);
	sysrq_fd = -1;
	lostnote_free(&lost);
	latecheck_free(&late);
	restamp_close(&stamps);
}
