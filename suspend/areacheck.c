// SPDX-License-Identifier: GPL-2.0-only
/*
 * areacheck.c - the swap area the image goes to: found from resume= and
 * resume_offset=, on a device that answers while the system is frozen, a swap
 * file private to root (hibernate_resolve() and hibernate_check_answers(),
 * hibernate.h)
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>

#include "blockstack.h"
#include "checksay.h"
#include "devname.h"
#include "hibernate.h"
#include "msg.h"
#include "skipsay.h"
#include "target.h"
#include "util.h"

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

/*
 * Step 1: the swap area, checked before anything else happens.
 * Return: 0, or -errno (reported).
 */
int hibernate_resolve(const struct hib_opts *o, struct hib_target *t)
{
	char what[300];
	struct stat st;
	dev_t dev;
	int r;

	if (!o->resume[0]) {
		msg_error("no resume device: neither --resume nor resume= on the kernel command line");
		checksay_hint_swaps();
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
		checksay_hint_swaps();
		return r;
	}
	r = target_find(dev, o->has_offset, o->offset, t);
	if (r != TARGET_FOUND) {
		checksay_target(o, t, r);
		return r < 0 ? r : -ENODEV;
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
