// SPDX-License-Identifier: GPL-2.0-only
/*
 * poweroff.c - the way down after the commit: power off or reboot, through the
 * platform (ACPI S4) or with a suspend to RAM first when asked; and down, still
 * frozen, when the swap header cannot be put back
 */
#include <errno.h>
#include <sys/reboot.h>
#include <unistd.h>

#include "config.h"
#include "msg.h"
#include "poweroff.h"
#include "snapshot.h"

/*
 * poweroff_frozen() - down without thawing: never returns
 *
 * The swap header may name a valid image and could not be put back: thawing now
 * would let programs write to filesystems the image would later be restored over.
 * The image is consistent (data and map were flushed before the root record), so
 * the safe way out is down, never up: power off, else reboot, else halt, else
 * stay frozen.  The next boot resumes the image or finds plain swap.
 */
void poweroff_frozen(void)
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
 * poweroff_plain() - the plain way down after the commit: reboot(2) to power
 * off or reboot.  Returns only when neither worked, with the image discarded again (-errno).
 */
int poweroff_plain(const struct hib_opts *o, struct writer *w, const struct hib_target *t)
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
		poweroff_frozen();
	}
	msg_info("discarded the image on %s", t->dev_name);
	return r;
}

/*
 * poweroff_platform() - --poweroff=platform: ACPI S4 through the kernel, as
 * its own hibernation does by default.  Returns only when that did not happen;
 * the caller then powers off with reboot(2): the image is committed either way.
 */
void poweroff_platform(int snap_fd)
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
 * poweroff_suspend_to_ram() - --poweroff=hybrid: the image is committed;
 * suspend to RAM, still frozen.  A power loss while suspended leaves the image
 * to resume at the next boot.  On the wake-up (0) the image is invalidated
 * before anything thaws: the original swap signature goes back, the root
 * record is cleared, the page is flushed and the swap slots freed; were that
 * to fail, thawing would leave a valid image behind a running system, so it
 * goes down instead (the image still matches the disks: nothing ran since the
 * snapshot).  Returns 0 after the wake-up, or the error of SNAPSHOT_S2RAM,
 * with the image still committed: then power off.
 */
int poweroff_suspend_to_ram(struct writer *w, int snap_fd, const struct hib_target *t,
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
		poweroff_frozen();
	}
	return 0;
}
