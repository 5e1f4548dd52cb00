// SPDX-License-Identifier: GPL-2.0-only
/*
 * bootready.c - can the next boot resume the image: its command line names the
 * area written (nextboot.c), its initramfs has a torpor-resume for this image
 * format and the hook that runs it (hibernate_check_next_boot() and
 * hibernate_check_initramfs(), hibernate.h)
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>

#include "checksay.h"
#include "decompress.h"
#include "devname.h"
#include "efiwrite.h"
#include "hibernate.h"
#include "initramfs.h"
#include "initramfstree.h"
#include "monoclock.h"
#include "msg.h"
#include "nextboot.h"
#include "skipsay.h"
#include "target.h"
#include "util.h"

/* where torpor-resume sits in the initramfs: the install's, from the Makefile */
#ifndef LIBEXECDIR
#error "LIBEXECDIR is not defined: add this file to BOOTREADY_OBJS in the Makefile"
#endif
#define RESUME_BIN LIBEXECDIR "/torpor-resume"

/* the files of the initramfs hibernate_check_initramfs() last read; UINT64_MAX: none */
static uint64_t next_unpacked = UINT64_MAX;

/*
 * hibernate_next_initramfs_bytes() - what the next boot's initramfs unpacks
 * to, as hibernate_check_initramfs() read it (image_size = auto's bound,
 * bootroom.h); UINT64_MAX when it read none
 */
uint64_t hibernate_next_initramfs_bytes(void)
{
	return next_unpacked;
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
			 "scripts/local-top/torpor, dracut's pre-mount torpor-pre-mount.sh, "
			 "mkinitcpio's hooks/torpor, or, where /init is a link to systemd, "
			 "torpor-restore.service in a unit directory, not masked, whose "
			 "ExecStart= runs %s and which no drop-in changes)", RESUME_BIN);
		break;
	case INITRAMFS_HOOK_NOT_RUN:
		snprintf(buf, len, rep->unit ?
			 "its torpor-restore.service is wanted by no target (no link in "
			 "initrd.target.wants/), so it never runs" :
			 rep->hook_host == INITRAMFS_HOST_ITOOLS ?
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

/* What initramfs-tools' RESUME= (@rep->resume_conf) says of the area written */
enum conf_match {
	CONF_NAMES,		/* it names @dev */
	CONF_UNSURE,		/* it is not read here ($, quotes inside, ...) */
	CONF_UNSET,		/* not set, or none */
	CONF_OTHER,		/* it names another device, or none here */
};

/* Does RESUME= name @dev?  Says only which devices its lookup skipped. */
static enum conf_match resume_conf_match(const struct initramfs_report *rep, dev_t dev)
{
	const char *v = rep->resume_conf;
	char say[sizeof(rep->resume_conf) + 48];
	dev_t named;
	int r;

	if (rep->resume_conf_unsure)
		return CONF_UNSURE;
	if (!v[0] || !strcmp(v, "none"))
		return CONF_UNSET;
	r = devname_resolve(v, &named);
	snprintf(say, sizeof(say), "the initramfs's RESUME=%s", v);
	skipsay(say);
	return r == 0 && named == dev ? CONF_NAMES : CONF_OTHER;
}

/*
 * initramfs-tools' hook looks for the image on the device the image's own
 * RESUME= names (@rep->resume_conf): it must be @dev, the area written, or that
 * boot never looks at the image, nor discards it.  Says why not (@m, what
 * resume_conf_match() found, is not CONF_NAMES); -EINVAL.
 */
static int say_resume_conf(const struct initramfs_report *rep, const char *what, dev_t dev,
			   enum conf_match m)
{
	const char *v = rep->resume_conf;

	if (m == CONF_UNSURE)
		msg_error("the kernel command line has no resume=, and the RESUME= of initramfs-tools' "
			  "configuration in %s cannot be read here: nothing shows that the next boot "
			  "would look for the image", what);
	else if (m == CONF_UNSET)
		msg_error("the kernel command line has no resume=, and initramfs-tools' "
			  "configuration in %s names no resume device (RESUME=%s): the next boot would "
			  "not look for the image, and the hibernated session would be lost", what,
			  v[0] ? v : "not set");
	else
		msg_error("the kernel command line has no resume=, and initramfs-tools' RESUME=%s "
			  "in %s does not name the area written (device %u:%u): the next boot would "
			  "look elsewhere, and the hibernated session would be lost", v, what,
			  major(dev), minor(dev));
	msg_hint("put resume= (and resume_offset= for a swap file) on the kernel command line "
		 "('torpor-suspend --print-cmdline' prints it), rebuild the initramfs and reboot");
	return -EINVAL;
}

/**
 * hibernate_efi_names() - without resume=, would the EFI variable name the area
 * to the boot of the initramfs @rep (as check_unnamed() lets it, when RESUME=
 * does not name the area)?  An EFI boot where torpor-suspend can write it, a
 * torpor-resume that reads it, a hook that runs it without resume=, and no
 * initramfs-tools RESUME=none (noresume) or RESUME= not read here.  No message.
 * Return: 1 or 0.
 */
int hibernate_efi_names(const struct initramfs_report *rep)
{
	int itools = rep->hook_host == INITRAMFS_HOST_ITOOLS && !rep->unit;

	if (itools && (rep->resume_conf_unsure || !strcmp(rep->resume_conf, "none")))
		return 0;
	return rep->verdict == INITRAMFS_OK && rep->efi_resume && rep->efi_hook &&
	       efiwrite_usable();
}

/*
 * No resume= on the command line (@unnamed): what names the area to the next
 * boot, in this order:
 *  1. initramfs-tools' RESUME= in the initramfs (conf/conf.d/resume, which
 *     torpor's boot script passes as --device), when it names @dev: nothing is
 *     written, and no EFI variable may be left (hibernate.c removes any);
 *  2. on an EFI boot, the EFI variable TorporHibernateLocation (efiwrite.h), when
 *     the initramfs's torpor-resume reads it and its hook runs it without resume=;
 *     torpor-resume then takes the variable over --device; not with RESUME=none
 *     (initramfs-tools' /init makes it noresume, which discards the image) nor a
 *     RESUME= not read here (it may be none);
 *  3. nothing: refused.  torpor-restore.service and the dracut and mkinitcpio
 *     hooks of an older torpor read the command line only.
 * @rep is NULL when the initramfs was not read, @what names it.  0 (1.); 1 when
 * the EFI variable must name the area (2.); or -EINVAL (reported).
 */
static int check_unnamed(const struct initramfs_report *rep, const char *what, dev_t dev)
{
	int itools = rep && rep->hook_host == INITRAMFS_HOST_ITOOLS && !rep->unit;
	enum conf_match m = itools ? resume_conf_match(rep, dev) : CONF_OTHER;

	if (itools && m == CONF_NAMES)
		return 0;
	/*
	 * initramfs-tools' /init turns RESUME=none into noresume, and torpor-resume then
	 * discards the image the variable names; a RESUME= not read here may be none
	 */
	if (itools && (m == CONF_UNSURE || !strcmp(rep->resume_conf, "none")))
		return say_resume_conf(rep, what, dev, m);
	if (rep && efiwrite_usable()) {
		if (rep->efi_resume && rep->efi_hook)
			return 1;
		msg_info("%s: the EFI variable %s would name the area, but %s", what,
			 EFILOC_NAME, !rep->efi_resume ? "its torpor-resume does not read it "
			 "(from an older torpor)" : "its hook does not run torpor-resume without "
			 "resume= (from an older torpor)");
	}
	if (itools)
		return say_resume_conf(rep, what, dev, m);
	if (!rep)
		msg_error("the kernel command line has no resume=, and the initramfs is not "
			  "checked: nothing shows that the next boot would look for the image");
	else if (rep->unit)
		msg_error("the kernel command line has no resume=, and torpor-restore.service in "
			  "%s reads only the command line: the next boot would not look for the "
			  "image, and the hibernated session would be lost", what);
	else
		msg_error("the kernel command line has no resume=, and the %s hook in %s reads "
			  "only the command line: the next boot would not look for the image, and "
			  "the hibernated session would be lost",
			  initramfs_host_name(rep->hook_host), what);
	msg_hint("put resume= (and resume_offset= for a swap file) on the kernel command line "
		 "('torpor-suspend --print-cmdline' prints it), rebuild the initramfs and reboot");
	return -EINVAL;
}

/*
 * --initramfs-tree with no resume= on the command line: the image being built
 * must have torpor's boot script and a RESUME= naming @dev.  0, or -errno (reported).
 */
static int check_tree(const char *tree, dev_t dev)
{
	struct initramfs_report rep;
	char what[PATH_MAX + 40];
	int r;

	r = initramfs_tree_read(tree, RESUME_BIN, &rep);
	if (r < 0) {
		msg_error("cannot read the initramfs being built in '%s': %s (%s)", tree,
			  rep.detail, msg_errname(r));
		return r;
	}
	snprintf(what, sizeof(what), "the initramfs being built in '%s'", tree);
	if (rep.verdict == INITRAMFS_OK)
		return check_unnamed(&rep, what, dev);
	msg_error("the kernel command line has no resume=, and %s has no torpor boot script "
		  "(scripts/local-top/torpor running %s) to read its RESUME=: the next boot would "
		  "not look for the image", what, RESUME_BIN);
	msg_hint("install torpor's initramfs-tools hook ('make install-initramfs-tools'; the "
		 "Debian package has it) and rebuild the initramfs");
	return -EINVAL;
}

/*
 * The next boot runs the initramfs of this kernel: without a torpor-resume that
 * reads this image format, and the hook that runs it, the image would be lost
 * (discarded by an older torpor-resume, or never looked at).  With @unnamed
 * (hibernate_check_next_boot() found no resume=), its hook must also know the
 * device, @dev, without it (check_unnamed()).  Before anything changes: 0; 1 when
 * the next boot finds the area only by the EFI variable, which must then be
 * written (@unnamed only); or -errno (reported).
 */
int hibernate_check_initramfs(const struct hib_opts *o, int unnamed, dev_t dev)
{
	struct initramfs_report rep;
	char path[PATH_MAX], tried[2048], why[400], what[PATH_MAX + 64];
	struct utsname u;
	double t0 = mono_s();
	int r;

	if (o->no_initramfs && o->initramfs_tree && unnamed)
		return check_tree(o->initramfs_tree, dev);
	if (o->no_initramfs || o->initramfs_checked)
		return unnamed ? check_unnamed(NULL, NULL, 0) : 0;
	if (!strcmp(o->initramfs, CONFIG_INITRAMFS_NONE)) {
		if (unnamed)
			return check_unnamed(NULL, NULL, 0);
		msg_warn("not checking the initramfs the next boot runs ('initramfs = none' in "
			 "torpor.conf): without a torpor-resume for image format %d and the hook "
			 "that runs it, that boot loses the hibernated session",
			 TORPOR_FORMAT_VERSION);
		return 0;
	}
	if (uname(&u) < 0)
		return -errno;
	r = initramfs_find_next(o->initramfs, u.release, path, sizeof(path), tried, sizeof(tried));
	if (r < 0) {
		msg_error("cannot find the initramfs that boots kernel %s (tried %s): the next "
			  "boot might not resume", u.release, tried);
		msg_hint("name it, or the unified kernel image that holds it, with "
			 "'initramfs = PATH' in torpor.conf or --initramfs=PATH (is /boot "
			 "or /efi mounted?)");
		return r;
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
	next_unpacked = rep.unpacked_bytes;
	msg_debug("read initramfs '%s' (%llu MiB, %s, %llu MiB unpacked, %llu entries) in %.0f ms",
		  path, MIB(rep.file_bytes), rep.compression ? rep.compression : "uncompressed",
		  MIB(rep.unpacked_bytes), (unsigned long long)rep.entries, (mono_s() - t0) * 1000);
	snprintf(what, sizeof(what), rep.uki ? "the initramfs in unified kernel image '%s'" :
		 "initramfs '%s'", path);
	if (initramfs_lacks(&rep, why, sizeof(why))) {
		msg_error("%s cannot resume this hibernation: %s; the next boot would lose the "
			  "hibernated session", what, why);
		checksay_hint_rebuild(&rep, u.release);
		if (rep.uki)
			msg_hint("then rebuild the unified kernel image with it (kernel-install, "
				 "ukify, or the generator's UKI option)");
		return -ENOEXEC;
	}
	r = unnamed ? check_unnamed(&rep, what, dev) : 0;
	if (r < 0)
		return -EINVAL;
	if (o->check_only && rep.unit)
		msg_info("%s has torpor-resume for image format %d and torpor-restore.service",
			 what, TORPOR_FORMAT_VERSION);
	else if (o->check_only)
		msg_info("%s has torpor-resume for image format %d and the %s hook", what,
			 TORPOR_FORMAT_VERSION, initramfs_host_name(rep.hook_host));
	return r;
}

/*
 * hibernate_check_next_boot() - the next boot reads resume= and resume_offset=
 * from its command line, not --resume or torpor.conf: they must name the area
 * written, @t, found from @spec (nextboot.c).
 * 0; 1 when it names no area (no resume=, or no command line to read): the
 * initramfs must then know the device (hibernate_check_initramfs()'s
 * @unnamed); or -EINVAL (reported).
 */
int hibernate_check_next_boot(const struct hib_target *t, const char *spec)
{
	unsigned long long page = t->offset_pages;
	struct nextboot nb;
	char other[64];

	enum nextboot_result res = nextboot_check("/proc/cmdline", t->dev, t->offset_pages, spec,
						  &nb);
	char what[CMDLINE_RESUME_MAX + 48];

	/* a resume= other than @spec was looked up: what that lookup could not read */
	if (res != NEXTBOOT_MALFORMED && res != NEXTBOOT_NORESUME && nb.cl.resume[0] &&
	    strcmp(nb.cl.resume, spec)) {
		snprintf(what, sizeof(what), "the kernel command line's resume=%s", nb.cl.resume);
		skipsay(what);
	}
	switch (res) {
	case NEXTBOOT_AGREES:
		return 0;
	case NEXTBOOT_UNNAMED:
		return 1;
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
