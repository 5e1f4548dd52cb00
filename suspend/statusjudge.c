// SPDX-License-Identifier: GPL-2.0-only
/*
 * statusjudge.c - torpor-suspend --status: the verdict on the facts, ready or
 * not, and the first problem with its fix.  The order is the order a new user
 * fixes things in: the kernel, the area, the next boot's command line, the
 * initramfs, systemctl hibernate, logind; last, what only root could see.
 * Nothing here prints.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "checksay.h"
#include "msg.h"
#include "status.h"

#define CMDLINE_HINT "add it to the kernel command line ('sudo torpor-suspend --print-cmdline' " \
	"prints resume= for the active swap area), rebuild the initramfs and reboot"
#define REBUILD_HINT "install torpor's hook for your initramfs generator and rebuild every " \
	"initramfs: 'sudo update-initramfs -u -k all' (dracut: 'sudo dracut --regenerate-all " \
	"--force', mkinitcpio: 'sudo mkinitcpio -P')"

__attribute__((format(printf, 3, 4)))
static int problem(struct status *s, const char *hint, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->problem, sizeof(s->problem), fmt, ap);
	va_end(ap);
	snprintf(s->hint, sizeof(s->hint), "%s", hint);
	return 1;
}

static int judge_kernel(struct status *s)
{
	if (s->snapshot_err == -ENOENT)
		return problem(s, "boot a kernel built with CONFIG_HIBERNATION=y",
			       "this kernel has no hibernation support (no /dev/snapshot)");
	if (s->snapshot_err)
		return problem(s, "boot without 'nohibernate' (with Secure Boot, the kernel's "
			       "lockdown forbids hibernation)",
			       "the kernel disabled hibernation ('[disabled]' in /sys/power/disk)");
	return 0;
}

/**
 * status_conf_words() - why the next boot's RESUME= gave no area, in words
 * for "no swap area is named ...; <words>"; "" when it was not asked
 */
const char *status_conf_words(const struct status *s, char *buf, size_t len)
{
	const char *v = s->conf.rep.resume_conf;

	buf[0] = '\0';
	if (!s->by_conf)
		return buf;
	switch (s->conf_res) {
	case CONFAREA_UNREAD:
		if (s->conf.err == -ENOENT && !s->conf.path[0])
			snprintf(buf, len, "no initramfs found for the next boot, for its RESUME=");
		else
			snprintf(buf, len, "the next boot's initramfs cannot be read for its "
				 "RESUME= (%s)", msg_errname(s->conf.err));
		break;
	case CONFAREA_NOT_ITOOLS:
		snprintf(buf, len, "the next boot's initramfs has no torpor hook of "
			 "initramfs-tools, the only one that reads RESUME=");
		break;
	case CONFAREA_UNSET:
		snprintf(buf, len, "no RESUME= in the initramfs");
		break;
	case CONFAREA_NONE:
		snprintf(buf, len, "RESUME=none in the initramfs");
		break;
	case CONFAREA_UNSURE:
		snprintf(buf, len, "the initramfs's RESUME= cannot be read here");
		break;
	case CONFAREA_NOT_NAME:
		snprintf(buf, len, "the initramfs's RESUME=%s is no device name", v);
		break;
	case CONFAREA_NO_OFFSET:
		snprintf(buf, len, "the initramfs's RESUME=%s names swap file '%s', and the kernel "
			 "command line has no resume_offset=", v, s->conf.target.swap_path);
		break;
	default:
		break;	/* the command line decides, or an area was named */
	}
	return buf;
}

static int judge_area(struct status *s)
{
	char why[STATUS_TEXT_MAX];

	if (s->area_err == 0)
		return 0;
	if (s->area_err == -EACCES && !s->is_root)
		return 0;	/* said last, with what else needs root */
	if (s->area_err == -EINVAL && !s->image_file &&
	    (s->nb.cl.resume_bad || s->nb.cl.resume_offset_bad))
		return problem(s, "correct it on the kernel command line, rebuild the initramfs "
			       "and reboot", "the kernel command line's %s is malformed: the next "
			       "boot would discard the image", s->nb.cl.resume_bad ? "resume=" :
			       "resume_offset=");
	/* zram holds no image: where it is all the swap, the image file is the fix */
	if (s->area_err == -EINVAL && !s->image_file)
		return problem(s, s->zram_only ?
			       CHECKSAY_ZRAM_HINT " (torpor-suspend(8))" :
			       "add resume= for an active swap area to the kernel command line "
			       "('sudo torpor-suspend --print-cmdline' prints it), rebuild the "
			       "initramfs and reboot",
			       "no swap area is named for the image: no resume= on the kernel "
			       "command line, no resume in torpor.conf%s%s",
			       status_conf_words(s, why, sizeof(why))[0] ? ", " : "", why);
	if (s->image_file && s->area_err == -ENOENT)
		return problem(s, "make it with 'sudo torpor-suspend --setup-image-file'",
			       "the image file '%s' does not exist", s->image_file);
	if (s->image_file)
		return problem(s, "'sudo torpor-suspend --check' says more",
			       "the image file '%s' cannot be placed: %s", s->image_file,
			       msg_errname(s->area_err));
	if (s->area_err == -ENODEV)
		return problem(s, "activate it with 'sudo swapon -a' (and list it in /etc/fstab)",
			       "'%s' is not an active swap area", s->spec);
	return problem(s, "name an active swap area ('swapon --show' lists them)",
		       "cannot find the swap area '%s': %s", s->spec, msg_errname(s->area_err));
}

static int judge_next_boot(struct status *s)
{
	if (s->area_err || s->next == NEXTBOOT_AGREES || s->next_by_conf || s->next_by_efi)
		return 0;
	switch (s->next) {
	case NEXTBOOT_UNNAMED:
		return problem(s, CMDLINE_HINT, "the kernel command line has no resume=: the "
			       "next boot would not look for the image");
	case NEXTBOOT_NORESUME:
		return problem(s, "reboot without it", "the kernel command line has noresume "
			       "(or nohibernate, hibernate=no): the next boot would discard the image");
	case NEXTBOOT_MALFORMED:
		return problem(s, "correct it on the kernel command line and reboot",
			       "a malformed parameter on the kernel command line (%s): the next "
			       "boot would discard the image", s->nb.cl.malformed[0] ?
			       s->nb.cl.malformed : "resume=");
	default:
		return problem(s, "make torpor.conf name what the kernel command line names, or "
			       CMDLINE_HINT, "the next boot reads another area than the next "
			       "hibernation writes (resume=%s): the image would be lost",
			       s->nb.cl.resume);
	}
}

/* The initramfs line's verdict, in a few words */
const char *status_initrd_words(const struct status_initrd *d)
{
	switch (d->verdict) {
	case INITRAMFS_OK:
		return "ok";
	case INITRAMFS_NO_RESUME:
		return "no torpor-resume";
	case INITRAMFS_NOT_EXECUTABLE:
		return "torpor-resume is not executable";
	case INITRAMFS_NO_MARKER:
		return "torpor-resume too old (it names no image format)";
	case INITRAMFS_OTHER_FORMAT:
		return "torpor-resume of another image format";
	case INITRAMFS_NO_HOOK:
		return "torpor-resume, but no hook that runs it";
	case INITRAMFS_HOOK_NOT_RUN:
	case INITRAMFS_NO_SHELL_INIT:
		return "torpor-resume, but its hook never runs";
	}
	return "?";
}

static int judge_initrd(struct status *s)
{
	const struct status_initrd *d;
	size_t i;

	if (s->initrd_unchecked)
		return problem(s, "have it checked: remove 'initramfs = none' from torpor.conf, or "
			       "run 'sudo torpor-suspend --check --initramfs=PATH' with its path",
			       "the initramfs is not checked ('initramfs = none' in torpor.conf): "
			       "whether the next boot runs torpor-resume is not known");
	if (s->boot_err && !(s->boot_err == -EACCES && !s->is_root))
		return problem(s, "mount /boot", "cannot read the boot directory: %s",
			       msg_errname(s->boot_err));
	for (i = 0; i < s->nr_initrd; i++) {
		d = &s->initrd[i];
		if (d->err == -EACCES && !s->is_root)
			continue;
		if (d->err)
			return problem(s, "'sudo torpor-suspend --check' says more",
				       "cannot read initramfs '%s': %s", d->path, msg_errname(d->err));
		if (d->verdict != INITRAMFS_OK)
			return problem(s, REBUILD_HINT, "the initramfs of kernel %s has %s: a boot "
				       "of it loses the image", d->release[0] ? d->release : d->path,
				       status_initrd_words(d));
	}
	if (s->nr_initrd == 0 && !s->boot_err)
		return problem(s, REBUILD_HINT, "no initramfs found (initrd.img-* or "
			       "initramfs-*.img in /boot, or a unified kernel image)");
	return 0;
}

static int judge_systemd(struct status *s)
{
	if (!s->dropin[0])
		return problem(s, "install torpor's systemd drop-ins ('sudo make install-systemd'; "
			       "the Debian package has them), then 'sudo systemctl daemon-reload'",
			       "systemctl hibernate runs the kernel's writer, not torpor");
	if (!strcmp(s->can_hibernate, "no") || !strcmp(s->can_hibernate, "na"))
		return problem(s, "'journalctl -b -u systemd-logind' says why; torpor's "
			       "torpor-logind-generator lets logind offer an image file",
			       "logind answers CanHibernate=%s: desktops and systemctl hibernate "
			       "refuse to hibernate", s->can_hibernate);
	return 0;
}

/* What an ordinary user could not read, in words; 1 when anything */
static int judge_unread(struct status *s)
{
	char what[200] = "";
	size_t i;
	int at = 0;

	if (s->is_root)
		return 0;
	if (s->area_err == -EACCES && !s->spec[0] && s->by_conf)
		at += snprintf(what + at, sizeof(what) - (size_t)at, "which area the initramfs's "
			       "RESUME= names, ");
	else if (s->area_err == -EACCES)
		at += snprintf(what + at, sizeof(what) - (size_t)at, "where the %s lies, ",
			       s->image_file ? "image file" : "swap file");
	at += snprintf(what + at, sizeof(what) - (size_t)at, "the image on the area");
	for (i = 0; i < s->nr_initrd; i++)
		if (s->initrd[i].err == -EACCES)
			break;
	if (i < s->nr_initrd || s->boot_err == -EACCES)
		snprintf(what + at, sizeof(what) - (size_t)at, ", the initramfs files");
	return problem(s, "run 'sudo torpor status' to see it all (it changes nothing)",
		       "not known: run as root to see %s", what);
}

/**
 * status_judge() - set @s->ready, and the first problem and its fix
 * @s: the facts (status_collect())
 */
void status_judge(struct status *s)
{
	s->problem[0] = s->hint[0] = '\0';
	s->ready = !(judge_kernel(s) || judge_area(s) || judge_next_boot(s) || judge_initrd(s) ||
		     judge_systemd(s) || judge_unread(s));
}
