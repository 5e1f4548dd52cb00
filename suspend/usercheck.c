// SPDX-License-Identifier: GPL-2.0-only
/*
 * usercheck.c - torpor-suspend --check run by an ordinary user
 *
 * The whole check reads the swap area's header, the devices' stamps, the next
 * boot's initramfs and the host's namespaces: root's.  An ordinary user gets
 * what needs no root (the kernel's support, a resume device or image file
 * named, an active swap area), a plain list of what was left out, and the
 * command that checks it all (never the one that hibernates).  Where only the
 * initramfs's RESUME= names the area, the user reads it when the initramfs is
 * readable (initramfs-tools makes it 0644 unless UMASK is set; dracut 0600),
 * else is told that only root can know the area.
 */
#include <errno.h>
#include <stdlib.h>

#include "checksay.h"
#include "freezecheck.h"
#include "msg.h"
#include "swaps.h"
#include "usercheck.h"

/* An active swap area, from /proc/swaps (readable by all); 0, or -errno (reported). */
static int check_swap_active(void)
{
	struct swap_entry *sw = NULL;
	size_t n = 0;
	int r;

	r = swaps_read("/proc/swaps", &sw, &n);
	free(sw);
	if (r < 0) {
		msg_error("cannot read '/proc/swaps': %s", msg_errname(r));
		return r;
	}
	if (n == 0) {
		msg_error("no swap area is active: the image is written to an active one");
		msg_hint("activate it with 'swapon -a' (and list it in /etc/fstab)");
		return -ENODEV;
	}
	msg_info("%zu swap area%s active", n, n > 1 ? "s are" : " is");
	return 0;
}

/**
 * usercheck_run() - --check without root: the checks that need none, then
 * which ones were left out
 * @o: the options, resume= from the kernel command line merged in; the
 *     initramfs's RESUME= goes to ->resume when nothing else names the area
 *     and this user can read the initramfs (hibernate_take_conf_area())
 * @image_file: the image file given, NULL for none
 *
 * Never opens a device or /dev/snapshot.
 * Return: -EPERM when every check made passed (the rest needs root), another
 * -errno when one failed; both reported.  Never 0: the check is not complete.
 */
int usercheck_run(struct hib_opts *o, const char *image_file)
{
	int r = 0, conf = 1;

	msg_info("checking as an ordinary user: only what needs no root");
	if (freezecheck_snapshot_node() < 0)
		r = -ENOTSUP;
	else
		msg_info("the kernel supports hibernation (/dev/snapshot is there, not disabled)");
	/* -EINVAL: no area, reported; -EACCES: only root can read the initramfs, said */
	if (!image_file && !o->resume[0])
		conf = hibernate_take_conf_area(o, 0);
	if (image_file) {
		msg_info("image file '%s' named", image_file);
	} else if (!o->resume[0] && conf == -EACCES) {
		;	/* said: only root can read the RESUME= that may name it */
	} else if (!o->resume[0]) {
		if (conf != -EINVAL) {
			msg_error("no resume device: neither --resume nor resume= on the kernel "
				  "command line");
			checksay_hint_swaps(0);
		}
		r = -EINVAL;
	} else {
		msg_info("resume device '%s' named", o->resume);
		if (check_swap_active() < 0)
			r = -ENODEV;
	}
	msg_warn("not checked, as they need root: the namespaces and chroot, %s, the space "
		 "for the image, the next boot's command line and initramfs",
		 image_file ? "the image file and its swap header" : conf == -EACCES ?
		 "the resume device the initramfs's RESUME= names, its swap area and header" :
		 "that the resume device is an active swap area and its header");
	msg_hint("run 'sudo torpor-suspend --check' for the whole check (it changes nothing)");
	return r < 0 ? r : -EPERM;
}
