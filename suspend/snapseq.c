// SPDX-License-Identifier: GPL-2.0-only
/*
 * snapseq.c - steps 2-4 of a hibernation: open /dev/snapshot, freeze, create
 * the image, then save it and go down, or check and thaw after the resume; on
 * any failure unwind to a running, thawed system
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "config.h"
#include "hibsay.h"
#include "interrupt.h"
#include "lateguard.h"
#include "monoclock.h"
#include "mountguard.h"
#include "msg.h"
#include "poweroff.h"
#include "snapseq.h"
#include "snapshot.h"
#include "testhook.h"
#include "usage.h"
#include "util.h"

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
	int keys, r;

	r = lateguard_restamp(&w->img);
	if (r < 0)
		return r;
	r = snap_image_size(snap_fd, &stream);
	if (r < 0) {
		msg_error("cannot get the image size: %s", msg_errname(r));
		return r;
	}
	(void)snap_avail_swap(snap_fd, &avail);
	keys = interrupt_keys_start();
	hibsay_keys_read(keys);
	msg_info("saving %llu MiB image to %s (%llu MiB free)%s", MIB(stream), t->dev_name,
		 MIB(avail), keys ? "; Esc or Ctrl-C aborts" : "");
	cpu_all = usage_cpu_ms(RUSAGE_SELF);
	cpu_own = usage_cpu_ms(RUSAGE_THREAD);
	r = writer_save(w, snap_fd, stream);
	if (r == 0)
		r = writer_commit(w, orig_sig);
	/* the threads are joined: RUSAGE_SELF has their time */
	cpu_all = usage_cpu_ms(RUSAGE_SELF) - cpu_all;
	cpu_own = usage_cpu_ms(RUSAGE_THREAD) - cpu_own;
	hibsay_keys_read(0);
	if (r < 0) {
		if (r != -ECANCELED)
			hibsay_save_error(r, w, t, avail);
		if (writer_abort(w) < 0) {
			msg_error("could not restore the swap header of %s", t->dev_name);
			poweroff_frozen();
		}
		return r;
	}
	testhook_committed();
	hibsay_saved(w, stream, t0, cpu_all, cpu_own);
	if (o->poweroff == CONFIG_POWEROFF_HYBRID) {
		r = poweroff_suspend_to_ram(w, snap_fd, t, orig_sig);
		if (r == 0) {
			*ret_woke = 1;
			return 0;
		}
	}
	if (platform)
		poweroff_platform(snap_fd);
	return poweroff_plain(o, w, t);
}

/*
 * Step 2: name the area @t to the kernel, and for --poweroff=platform ask for
 * the platform mode (*@ret_platform), before CREATE_IMAGE.  0, or -errno
 * (reported).
 */
static int set_swap_area(const struct hib_opts *o, int snap_fd, const struct hib_target *t,
			 int *ret_platform)
{
	int r;

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
		return r;
	}
	/* before CREATE_IMAGE: the kernel prepares the platform for S4 with the snapshot */
	if (o->poweroff == CONFIG_POWEROFF_PLATFORM) {
		r = snap_platform_support(snap_fd, 1);
		*ret_platform = r == 0;
		if (r < 0)
			msg_warn("cannot enable the platform mode (ACPI S4): %s; powering off "
				 "without it", msg_errname(r));
	}
	return 0;
}

/*
 * Frozen: no filesystem mounted since the list, every one synced, no abort
 * asked, then CREATE_IMAGE (*@ret_in_suspend).  0, or -errno (reported, but
 * -ECANCELED); the caller unfreezes.
 */
static int create_image(int snap_fd, int *ret_in_suspend)
{
	int r;

	r = mountguard_check_late();
	if (r < 0)
		return r;
	r = mountguard_sync();
	if (r < 0)
		return r;
	if (interrupt_pending())
		return -ECANCELED;
	r = snap_create_image(snap_fd, ret_in_suspend);
	if (r < 0) {
		msg_error("creating the snapshot failed: %s", msg_errname(r));
		msg_hint("'dmesg | tail' names the device or the memory shortage");
		return r;
	}
	return 0;
}

/**
 * snapseq_run() - steps 2-4 with the resources of step 1 (hibernate.c)
 * @o: the options, @w: the writer, its image recorded, @t: the swap area,
 * @orig_sig: the swap signature its header had
 *
 * Call with torpor-suspend locked in memory.
 * Return: 0 after the resume (or the wake-up of --poweroff=hybrid), -ECANCELED
 * when aborted, or -errno; reported, the system running and thawed.
 */
int snapseq_run(const struct hib_opts *o, struct writer *w, const struct hib_target *t,
		const char *orig_sig)
{
	int snap_fd, in_suspend = -1, platform = 0, woke = 0, r;

	snap_fd = snap_open(O_RDONLY);
	if (snap_fd < 0) {
		hibsay_open_error(snap_fd);
		return snap_fd;
	}
	r = set_swap_area(o, snap_fd, t, &platform);
	if (r < 0)
		goto out_close;
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
	r = create_image(snap_fd, &in_suspend);
	if (r < 0)
		goto out_unfreeze;
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
	lateguard_check();
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
	return hibsay_unwound(r);
}
