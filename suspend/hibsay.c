// SPDX-License-Identifier: GPL-2.0-only
/*
 * hibsay.c - what a hibernation tells the user from the freeze to the thaw:
 * the progress line, the summary and profile of the save, and why it stopped
 * (aborted, /dev/snapshot refused, the write failed, the late check's doubt)
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "devname.h"
#include "fitgate.h"
#include "fsstamp.h"
#include "hibsay.h"
#include "interrupt.h"
#include "lateguard.h"
#include "monoclock.h"
#include "msg.h"
#include "progress.h"
#include "snapshot.h"
#include "testhook.h"
#include "usage.h"
#include "util.h"

/* the key is read during this write: the progress line says so */
static int keys_read;

/* the progress line: rewritten in place on a terminal, a line each 10% elsewhere */
static struct progress prog;

/* hibsay_keys_read() - whether the key is read during this write, for the progress line */
void hibsay_keys_read(int on)
{
	keys_read = on;
}

/* hibsay_progress() - the writer's progress callback: the progress line */
void hibsay_progress(uint64_t done, uint64_t total)
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

/* hibsay_aborted() - what stopped the hibernation, when it was a signal or the key */
void hibsay_aborted(void)
{
	int sig = interrupt_pending();

	if (sig > 0)
		msg_info("hibernation aborted by signal %d (%s); the system keeps running", sig,
			 interrupt_signame(sig));
	else
		msg_info("hibernation aborted by key; the system keeps running");
}

/* hibsay_open_error() - why /dev/snapshot cannot be used: the -errno @r of its opening */
void hibsay_open_error(int r)
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

/*
 * hibsay_save_error() - why writing the image to @t failed with @r (not an
 * abort), @avail bytes free before
 */
void hibsay_save_error(int r, const struct writer *w, const struct hib_target *t,
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

/**
 * hibsay_saved() - the summary of a save that @w committed: its size, speed
 * and peak memory, then (debug) the estimate, where the time went and the CPU
 * time of the write phase
 * @stream: the snapshot's bytes, @t0: mono_s() at the start of the save,
 * @cpu_all, @cpu_own: CPU ms of all threads and of the writer's in the save
 */
void hibsay_saved(const struct writer *w, uint64_t stream, double t0, unsigned long long cpu_all,
		  unsigned long long cpu_own)
{
	msg_info("image saved: %llu MiB in memory, %llu MiB written (%llu%%) in %.2f s, "
		 "peak memory %llu KiB, %u compression thread%s", MIB(stream),
		 MIB(w->img.meta.data_pages * w->ps),
		 (unsigned long long)(w->img.meta.data_pages * w->ps * 100 / stream),
		 mono_s() - t0, usage_peak_rss_kib(), w->threads_used ? w->threads_used : 1,
		 w->threads_used > 1 ? "s" : "");
	fitgate_say_written(w);
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
}

/*
 * hibsay_fs_name() - "ext4 UUID on /dev/NAME" of record @f on device @on, for the
 * late check's messages
 */
void hibsay_fs_name(const struct torpor_fsrec *f, uint32_t on, char *buf, size_t len)
{
	char uuid[37], dev[64];

	fsstamp_uuid_str(f->uuid, uuid);
	devname_name(makedev(on >> 20, on & 0xfffff), dev, sizeof(dev));
	snprintf(buf, len, "%s %s on %s", fsstamp_kind_name(f->kind), uuid, dev);
}

/*
 * hibsay_late_reason() - why the restored system does not thaw, from @late's
 * outcome @o, as one line into @buf (@len bytes): printed, and kept in the
 * swap header for the next boot (lostnote.h)
 */
void hibsay_late_reason(const struct latecheck *late, enum late_outcome o, char *buf, size_t len)
{
	char what[128] = "", how[96];
	int at = __atomic_load_n(&late->at, __ATOMIC_ACQUIRE);

	if (at >= 0)
		hibsay_fs_name(&late->fs[at], __atomic_load_n(&late->at_dev, __ATOMIC_ACQUIRE),
			       what, sizeof(what));
	if (o == LATE_MOVED && late->err) {
		snprintf(buf, len, "%s no longer holds that filesystem (reformatted or "
			 "overwritten since hibernation): the restored system must not run", what);
	} else if (o == LATE_MOVED) {
		fsstamp_describe(&late->then, &late->now, how, sizeof(how));
		snprintf(buf, len, "%s was mounted since hibernation (%s): the restored system "
			 "must not run, it would corrupt that filesystem", what, how);
	} else if (o == LATE_TIMEOUT && late->over_total) {
		snprintf(buf, len, "the late check did not end within %d s (reading %s): the "
			 "filesystems cannot be proven unchanged, the restored system must not run",
			 LATE_TOTAL_MS / 1000, at >= 0 ? what : "the swap header");
	} else if (o == LATE_TIMEOUT && at >= 0) {
		snprintf(buf, len, "reading %s did not answer within %d s: it cannot be proven "
			 "unchanged, the restored system must not run", what, LATE_READ_MS / 1000);
	} else if (o == LATE_TIMEOUT) {
		snprintf(buf, len, "reading the swap header did not answer within %d s: the "
			 "filesystems the boot could not see cannot be checked, the restored "
			 "system must not run", LATE_READ_MS / 1000);
	} else if (at < 0) {
		snprintf(buf, len, "cannot read what torpor-resume left in the swap header for "
			 "the late check: %s: the filesystems the boot could not see cannot be "
			 "checked, the restored system must not run", msg_errname(late->err));
	} else if (late->member_gone) {
		snprintf(buf, len, "%s, not present at boot, is gone since hibernation (%s), and "
			 "other devices of that btrfs are there: it cannot be proven unchanged, "
			 "the restored system must not run", what, msg_errname(late->err));
	} else if (late->err == -EIO) {
		snprintf(buf, len, "reading %s failed (EIO), and the device is still there: it "
			 "cannot be proven unchanged, the restored system must not run", what);
	} else if (late->err == -EOPNOTSUPP) {
		snprintf(buf, len, "%s, not present at boot, cannot be read past the kernel's "
			 "cache (its device refused O_DIRECT): it cannot be proven unchanged, the "
			 "restored system must not run", what);
	} else if (late->err == -ENOTUNIQ) {
		snprintf(buf, len, "%s, not present at boot, shows the same device of that btrfs "
			 "as another (a copy of a disk?): the restored system must not run", what);
	} else if (late->err == -EXDEV) {
		snprintf(buf, len, "%s, not present at boot, is a btrfs on %llu devices, and %u "
			 "of them could be read (or they disagree on their number): the others "
			 "cannot be proven unchanged, the restored system must not run", what,
			 (unsigned long long)late->num_devices, late->devices_read);
	} else {
		snprintf(buf, len, "cannot check %s again after the resume: %s: the restored "
			 "system must not run", what, msg_errname(late->err));
	}
}

/* hibsay_late_doubt() - hibsay_late_reason() printed, and into @buf */
void hibsay_late_doubt(const struct latecheck *late, enum late_outcome o, char *buf, size_t len)
{
	hibsay_late_reason(late, o, buf, len);
	msg_error("%s", buf);
}

/**
 * hibsay_unwound() - the last word of a hibernation that failed with @r or was
 * aborted, once thawed
 * Return: -ECANCELED when aborted, else @r (-EIO when it is not negative).
 */
int hibsay_unwound(int r)
{
	if (r == -ECANCELED || interrupt_pending()) {
		hibsay_aborted();
		return -ECANCELED;
	}
	msg_error("hibernation failed; the system keeps running");
	return r < 0 ? r : -EIO;
}
