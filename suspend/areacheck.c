// SPDX-License-Identifier: GPL-2.0-only
/*
 * areacheck.c - the swap area the image goes to: found from resume= and
 * resume_offset=, on a device that answers while the system is frozen, a swap
 * file private to root; where nothing names it, the one the next boot's
 * initramfs names (hibernate_resolve(), hibernate_check_answers() and
 * hibernate_take_conf_area(), hibernate.h)
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "blockstack.h"
#include "checksay.h"
#include "confarea.h"
#include "devname.h"
#include "efiwrite.h"
#include "hibernate.h"
#include "initramfstree.h"
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

/* where torpor-resume sits in the initramfs: the install's, from the Makefile */
#ifndef LIBEXECDIR
#error "LIBEXECDIR is not defined: add this file to BOOTREADY_OBJS in the Makefile"
#endif
#define NO_RESUME_DEVICE "no resume device: neither --resume nor resume= on the kernel command line"

/* Where the initramfs's RESUME= came from: its /etc/initramfs-tools file when there is one */
static void conf_origin(const struct confarea *a, char *buf, size_t len)
{
	const char *f = a->rep.resume_conf_file;
	char host[128];

	snprintf(host, sizeof(host), "/etc/initramfs-tools/%s", f + (strncmp(f, "conf/", 5) ?
		 0 : 5));
	if (!strncmp(f, "conf/", 5) && access(host, F_OK) == 0)
		snprintf(buf, len, "%s, in initramfs '%s'", host, a->path);
	else
		snprintf(buf, len, "%s in initramfs '%s'", f, a->path);
}

/* Why the initramfs names no area torpor-suspend can take, after NO_RESUME_DEVICE */
static void say_no_conf_area(enum confarea_result res, const struct confarea *a)
{
	const char *v = a->rep.resume_conf, *p = a->path;
	char from[PATH_MAX + 200], name[64];

	conf_origin(a, from, sizeof(from));
	devname_name(a->dev, name, sizeof(name));
	if (res == CONFAREA_UNREAD)
		msg_error(NO_RESUME_DEVICE ", and the initramfs the next boot runs cannot be read "
			  "for its RESUME= (%s%s%s)", p[0] ? p : "not found", p[0] ? ": " : "",
			  a->rep.detail[0] ? a->rep.detail : msg_errname(a->err));
	else if (res == CONFAREA_NOT_ITOOLS)
		msg_error(NO_RESUME_DEVICE ", and initramfs '%s' has no torpor-resume run by "
			  "initramfs-tools' hook, the only one that reads RESUME=", p);
	else if (res == CONFAREA_UNSET)
		msg_error(NO_RESUME_DEVICE ", and initramfs '%s' sets no RESUME=", p);
	else if (res == CONFAREA_NONE)
		msg_error(NO_RESUME_DEVICE ", and the initramfs's RESUME=none (%s) names none",
			  from);
	else if (res == CONFAREA_UNSURE)
		msg_error(NO_RESUME_DEVICE ", and the RESUME= of initramfs '%s' cannot be read here "
			  "(it is computed, quoted or too long)", p);
	else if (res == CONFAREA_NOT_NAME)
		msg_error(NO_RESUME_DEVICE ", and the initramfs's RESUME=%s (%s) is not a device "
			  "name (UUID=, PARTUUID=, LABEL=, PARTLABEL= or /dev/...)", v, from);
	else if (res == CONFAREA_NO_DEVICE)
		msg_error(NO_RESUME_DEVICE ", and the initramfs's RESUME=%s (%s) names no device "
			  "here: %s", v, from, msg_errname(a->err));
	else if (res == CONFAREA_NOT_SWAP)
		msg_error(NO_RESUME_DEVICE ", and the initramfs's RESUME=%s (%s) names %s, which "
			  "is not one active swap area (%s)", v, from, name, a->err < 0 ?
			  msg_errname(a->err) : a->err == TARGET_SEVERAL ? "several swap files" :
			  "no active swap area is there");
	else
		msg_error(NO_RESUME_DEVICE ", and the initramfs's RESUME=%s (%s) names the "
			  "filesystem of swap file '%s', but the kernel command line has no "
			  "resume_offset=, which the next boot needs to find it", v, from,
			  a->target.swap_path);
}

/* The initramfs's RESUME=: of the tree being built (--initramfs-tree), else of the next boot's */
static enum confarea_result find_conf(const struct hib_opts *o, struct confarea *a)
{
	int r;

	if (!o->no_initramfs)
		return confarea_find("/proc/cmdline", o->initramfs, LIBEXECDIR "/torpor-resume", a);
	memset(a, 0, sizeof(*a));
	snprintf(a->path, sizeof(a->path), "%s", o->initramfs_tree);
	r = initramfs_tree_read(o->initramfs_tree, LIBEXECDIR "/torpor-resume", &a->rep);
	return confarea_take("/proc/cmdline", r, a);
}

/*
 * Nothing names the area and the initramfs sets no RESUME=, on an EFI boot: the
 * one active swap area, which the EFI variable will name to the next boot
 * (bootready.c decides whether its initramfs reads it).  0, or -errno (not said).
 */
static int take_only_area(struct hib_opts *o)
{
	struct hib_target t;
	int r;

	memset(&t, 0, sizeof(t));
	r = target_find_only(&t);
	if (r != TARGET_FOUND)
		return r < 0 ? r : -ENODEV;
	snprintf(o->resume, sizeof(o->resume), "%u:%u", major(t.dev), minor(t.dev));
	o->has_offset = t.is_file;
	o->offset = t.offset_pages;
	if (o->check_only)
		msg_info("resume area: the only active swap area, '%s' (nothing names one, and "
			 "the initramfs sets no RESUME=)", t.swap_path);
	else
		msg_debug("resume area: the only active swap area, '%s'", t.swap_path);
	return 0;
}

/**
 * hibernate_take_conf_area() - nothing names the area (no --resume, no resume in
 * torpor.conf, no resume= on the command line): take the active swap area the
 * next boot's initramfs names with RESUME= (confarea.h) into @o->resume
 * @o: the options; @o->resume is "" on entry
 * @fallback: --print-cmdline: an initramfs that names no area is no error, said
 *            with -v only
 *
 * With noresume on the command line, or when the initramfs is not checked
 * (--no-initramfs, 'initramfs = none'), nothing is read (hibernate_resolve()
 * then refuses, as before); but --no-initramfs with --initramfs-tree reads the
 * RESUME= of the tree initramfs-tools is building (initramfstree.h).  The area
 * taken is told in --check and with @fallback, else with -v.  On an EFI boot
 * where the initramfs sets no RESUME= (or its hook is not initramfs-tools'), the
 * one active swap area is taken instead: the EFI variable will name it
 * (bootready.c check_unnamed(): resume= > the initramfs's RESUME= > the EFI variable).
 * Return: 0 when taken; 1 when not (noresume, or @fallback); -EINVAL when the
 * initramfs names no area (reported: what nothing names, and why); for an
 * ordinary user who cannot read the initramfs, -EACCES (said as a warning).
 */
int hibernate_take_conf_area(struct hib_opts *o, int fallback)
{
	struct confarea *a;
	enum confarea_result res;
	char from[PATH_MAX + 200];
	int r = 0;

	/* the initramfs is not read (--no-initramfs, 'initramfs = none'): nothing to take */
	if ((o->no_initramfs && !o->initramfs_tree) || o->initramfs_checked ||
	    !strcmp(o->initramfs, CONFIG_INITRAMFS_NONE))
		return 1;
	a = malloc(sizeof(*a));
	if (!a)
		return -ENOMEM;
	res = find_conf(o, a);
	if (a->spec) {
		snprintf(from, sizeof(from), "the initramfs's RESUME=%s", a->spec);
		skipsay(from);
	}
	conf_origin(a, from, sizeof(from));
	if (res == CONFAREA_FOUND) {
		snprintf(o->resume, sizeof(o->resume), "%s", a->spec);
		if (o->check_only || fallback)
			msg_info("resume area from the initramfs's RESUME=%s (%s)", a->spec, from);
		else
			msg_debug("resume area from the initramfs's RESUME=%s (%s)", a->spec, from);
	} else if (res == CONFAREA_NORESUME || res == CONFAREA_CMDLINE) {
		r = 1;
	} else if (fallback) {
		msg_debug("the initramfs names no resume area: taking the only swap area");
		r = 1;
	} else if ((res == CONFAREA_UNSET || res == CONFAREA_NOT_ITOOLS) && efiwrite_usable() &&
		   take_only_area(o) == 0) {
		r = 0;
	} else if (res == CONFAREA_NO_DEVICE && a->err == -ENOTUNIQ) {
		hibernate_say_ambiguous(a->spec);
		r = -EINVAL;
	} else if (res == CONFAREA_UNREAD && a->err == -EACCES && geteuid() != 0) {
		/* an ordinary user's --check: not known, which is not a failure */
		msg_warn("which area to hibernate into is not known: neither --resume nor resume= "
			 "on the kernel command line names one, and initramfs '%s', whose RESUME= "
			 "may, is readable by root only", a->path);
		r = -EACCES;
	} else {
		say_no_conf_area(res, a);
		checksay_hint_swaps(1);
		r = -EINVAL;
	}
	free(a);
	return r;
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
		msg_error(NO_RESUME_DEVICE);
		checksay_hint_swaps(0);
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
		checksay_hint_swaps(0);
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
