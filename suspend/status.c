// SPDX-License-Identifier: GPL-2.0-only
/*
 * status.c - torpor-suspend --status: gather the facts of this machine's setup
 * and judge them: the area the next hibernation writes, the one the next boot
 * reads, the image there now, each installed kernel's initramfs, whether
 * systemctl hibernate runs torpor and what logind answers; then the first
 * problem and its fix.
 *
 * Read only: no device is opened for writing, /dev/snapshot is not opened at
 * all, nothing is frozen or changed.  What only root may read (the area's
 * header, often /boot's initramfs files) is left unread for an ordinary user,
 * who is told so.  The checks are --check's own (nextboot.c, initramfs.c,
 * target.c, core/image.c), asked for facts instead of messages.  Nothing here
 * prints but what skipsay and the lookups say with -v.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "blockstack.h"
#include "devname.h"
#include "efiwrite.h"
#include "freezecheck.h"
#include "status.h"
#include "swaps.h"

/* systemd's unit directories, in the order it reads them (systemd.unit(5)) */
static const char *const unit_dirs[] = {
	"/etc/systemd/system", "/run/systemd/system", "/usr/local/lib/systemd/system",
	"/usr/lib/systemd/system", "/lib/systemd/system",
};

/* The image file's area: its filesystem's device and its first page; 0 or -errno */
static int find_file_area(const char *path, int is_root, struct hib_target *t)
{
	struct stat st;
	int oerr = 0, r;
	dev_t dev;
	uint64_t pages = 0;

	if (stat(path, &st) < 0)
		return -errno;
	/* not opened when not a file: a FIFO's open would wait for a writer for ever */
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	r = target_file_location(path, &dev, &oerr, &pages);
	if (r == 0)
		return is_root ? -EIO : -EACCES;
	if (r < 0)
		return r;
	if (oerr < 0)
		return oerr;
	t->dev = dev;
	t->offset_pages = pages;
	t->is_file = 1;
	t->swap_bytes = (uint64_t)st.st_size;
	snprintf(t->swap_path, sizeof(t->swap_path), "%s", path);
	return 0;
}

/* The swap area --resume, torpor.conf or resume= names; 0 or -errno */
static int find_area(const struct hib_opts *o, struct hib_target *t)
{
	dev_t dev;
	int r;

	if (!o->resume[0])
		return -EINVAL;
	r = devname_resolve(o->resume, &dev);
	if (r < 0)
		return r;
	r = target_find(dev, o->has_offset, o->offset, t);
	if (r != TARGET_FOUND)
		return r < 0 ? r : -ENODEV;
	return 0;
}

/* The header page of the area, read (root only) within a bound: a dead disk costs it */
static void read_image(const struct status *s, struct status_image_seen *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->state = STATUS_IMAGE_UNREAD;
	ret->err = s->area_err ? s->area_err : -EACCES;
	if (s->area_err || !s->is_root)
		return;
	status_image_read_dev(s->area.dev, s->area.offset_pages, (uint32_t)sysconf(_SC_PAGESIZE),
			      STATUS_IMAGE_MS, ret);
}

/* The initramfs the next boot runs, as --check finds it; "" when not known */
static void find_next_initrd(const struct status_env *env, const struct hib_opts *o, char *buf,
			     size_t len)
{
	char tried[2048];
	struct utsname u;

	buf[0] = '\0';
	/* a test's boot directory is not where the running kernel's is looked for */
	if (!o->initramfs[0] && strcmp(env->boot_dir, "/boot"))
		return;
	if (uname(&u) < 0 || initramfs_find_next(o->initramfs, u.release, buf, len, tried,
						 sizeof(tried)) < 0)
		buf[0] = '\0';
}

/*
 * The area the next boot's initramfs-tools RESUME= names (confarea.h), from
 * the report the scan kept; not asked when the initramfs is not checked
 */
static void take_conf(const struct status_env *env, struct status *s)
{
	if (s->by_conf || s->initrd_unchecked)
		return;
	s->by_conf = 1;
	s->conf_res = confarea_take(env->cmdline, s->next_seen ? s->next_err : -ENOENT, &s->conf);
	snprintf(s->conf_from, sizeof(s->conf_from), "RESUME= in the initramfs's %s",
		 s->conf.rep.resume_conf_file[0] ? s->conf.rep.resume_conf_file : "conf/");
}

static void area_only(struct status *s);

/* Nothing else names the area: the one RESUME= names, or why none (area_err) */
static void area_from_conf(const struct status_env *env, struct status *s)
{
	take_conf(env, s);
	s->area_err = -EINVAL;
	if (!s->by_conf)
		return;
	if (s->conf.spec && (s->conf_res == CONFAREA_FOUND || s->conf_res == CONFAREA_NOT_SWAP ||
			     s->conf_res == CONFAREA_NO_DEVICE)) {
		snprintf(s->spec, sizeof(s->spec), "%s", s->conf.spec);
		s->spec_from = s->conf_from;
	}
	if (s->conf_res == CONFAREA_FOUND) {
		s->area = s->conf.target;
		s->area_err = 0;
	} else if (s->conf_res == CONFAREA_NOT_SWAP) {
		s->area_err = -ENODEV;
	} else if (s->conf_res == CONFAREA_NO_DEVICE) {
		s->area_err = s->conf.err;
	} else if (s->conf_res == CONFAREA_UNREAD && s->conf.err == -EACCES && !s->is_root) {
		s->area_err = -EACCES;	/* which area it names is not known: said last */
	} else if ((s->conf_res == CONFAREA_UNSET || s->conf_res == CONFAREA_NOT_ITOOLS) &&
		   efiwrite_usable()) {
		area_only(s);
	}
}

/*
 * No RESUME= on an EFI boot: torpor-suspend takes the only active swap area
 * and names it in the EFI variable (areacheck.c take_only_area()); so does --status
 */
static void area_only(struct status *s)
{
	struct hib_target t;
	char via[PATH_MAX];
	int r;

	memset(&t, 0, sizeof(t));
	r = target_find_only(&t);
	/* none or several, or not found: -EINVAL, said with the initramfs's words */
	if (r != TARGET_FOUND && (r != -EACCES || s->is_root))
		return;
	/* zram (Fedora's only swap), a loop device: torpor-suspend refuses it (areacheck.c) */
	if (r == TARGET_FOUND && blockstack_of(t.dev, via, sizeof(via)) != BLOCKSTACK_ANSWERS)
		return;
	s->spec_from = "the only active swap area, named to the next boot in an EFI variable";
	s->area_by_efi = 1;
	if (r == TARGET_FOUND) {
		snprintf(s->spec, sizeof(s->spec), "%.*s", (int)sizeof(s->spec) - 1, t.swap_path);
		s->area = t;
		s->area_err = 0;
	} else {
		s->area_err = -EACCES;	/* a swap file's page: root reads it */
	}
}

/*
 * No resume= on the command line, and RESUME= does not name the area: does the
 * EFI variable, as torpor-suspend writes it (bootready.c, efiwrite.c)?
 */
static int named_by_efi(const struct status_env *env, struct status *s)
{
	struct efiloc l;
	char spec[80];

	take_conf(env, s);
	if (!s->by_conf || !s->next_seen || s->next_err || !hibernate_efi_names(&s->conf.rep))
		return 0;
	/* its UUID must name the area alone: the probe needs root */
	return !env->is_root || efiwrite_plan(&s->area, &l, spec, sizeof(spec)) == 0;
}

/* No resume= on the command line: does the next boot's RESUME= name the area? */
static int named_by_conf(const struct status_env *env, struct status *s)
{
	take_conf(env, s);
	return s->by_conf && s->conf_res == CONFAREA_FOUND && s->conf.target.dev == s->area.dev &&
	       s->conf.target.offset_pages == s->area.offset_pages;
}

/*
 * The torpor-sleep drop-in of systemd-hibernate.service: the first unit
 * directory that has one decides, as in systemd, where a drop-in of the same
 * name in an earlier directory replaces a later one (and one linked to
 * /dev/null, or empty, masks it)
 */
static void find_dropin(const char *root, char *buf, size_t len)
{
	char path[PATH_MAX];
	struct stat st;
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < sizeof(unit_dirs) / sizeof(unit_dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s/systemd-hibernate.service.d/torpor.conf", root,
			 unit_dirs[i]);
		if (stat(path, &st) < 0)
			continue;
		if (S_ISREG(st.st_mode) && st.st_size > 0)
			snprintf(buf, len, "%s", path);
		return;
	}
}

static void ask_logind(const struct status_env *env, struct status *s)
{
	int r = logind_can_hibernate(env->busctl, env->logind_timeout_ms, s->can_hibernate,
				     sizeof(s->can_hibernate));

	if (r == 0)
		return;
	s->can_hibernate[0] = '\0';
	snprintf(s->logind_why, sizeof(s->logind_why), "%s",
		 r == -ENOENT ? "no busctl: systemd is not installed" :
		 r == -ETIMEDOUT ? "no answer in time (D-Bus or logind hangs)" :
		 r == -ECONNREFUSED ? "no answer (no D-Bus, or no logind)" :
		 r == -EACCES ? "logind refuses to tell this user (Access denied: no polkit?); run as root" :
				      "an answer that is not one");
}

/* Is zram all the active swap (Fedora's default)?  Then an image file is the way */
static int zram_only(const char *swaps)
{
	struct swap_entry *sw = NULL;
	size_t n = 0, i;
	int all = 1;

	if (swaps_read(swaps, &sw, &n) < 0 || !n)
		all = 0;
	for (i = 0; i < n; i++)
		if (strncmp(sw[i].path, "/dev/zram", 9))
			all = 0;
	free(sw);
	return all;
}

/**
 * status_collect() - gather the facts of this machine's setup into @ret, then
 * judge them (status_judge())
 * @env: where to read them
 * @o: the options, torpor.conf and resume= from the kernel command line merged in;
 *     when they name no area, the next boot's initramfs-tools RESUME= does
 *     (confarea.h), as for torpor-suspend
 * @spec_from: where the resume device was named, in words
 * @image_file: the image file, NULL for a swap area
 */
void status_collect(const struct status_env *env, const struct hib_opts *o, const char *spec_from,
		    const char *image_file, struct status *ret)
{
	char next[PATH_MAX];
	int r;

	memset(ret, 0, sizeof(*ret));
	ret->is_root = env->is_root;
	ret->snapshot_err = freezecheck_snapshot_state();
	ret->image_file = image_file;
	ret->spec_from = spec_from;
	/* the initramfs first: where nothing else names the area, its RESUME= may */
	if (strcmp(o->initramfs, CONFIG_INITRAMFS_NONE)) {
		find_next_initrd(env, o, next, sizeof(next));
		status_initrd_scan(env->boot_dir, o->initramfs[0] ? o->initramfs : NULL, next,
				   env->decompress_path, env->initrd_budget_ms, ret);
	} else {
		ret->initrd_unchecked = 1;
	}
	snprintf(ret->spec, sizeof(ret->spec), "%s", image_file ? image_file : o->resume);
	if (image_file)
		ret->area_err = find_file_area(image_file, env->is_root, &ret->area);
	else if (o->resume[0])
		ret->area_err = find_area(o, &ret->area);
	else
		area_from_conf(env, ret);
	if (ret->area_err == 0)
		devname_name(ret->area.dev, ret->area.dev_name, sizeof(ret->area.dev_name));
	if (ret->area_err == 0) {
		ret->next = nextboot_check(env->cmdline, ret->area.dev, ret->area.offset_pages,
					   image_file ? o->resume : ret->spec, &ret->nb);
	}
	r = cmdline_read(env->cmdline, &ret->nb.cl);
	ret->cmdline_err = r < 0 ? r : 0;
	read_image(ret, &ret->image);
	if (ret->area_err == 0 && ret->next == NEXTBOOT_UNNAMED)
		ret->next_by_conf = named_by_conf(env, ret);
	if (ret->area_err == 0 && ret->next == NEXTBOOT_UNNAMED && !ret->next_by_conf)
		ret->next_by_efi = named_by_efi(env, ret);
	ret->zram_only = zram_only(env->swaps ? env->swaps : "/proc/swaps");
	find_dropin(env->unit_root, ret->dropin, sizeof(ret->dropin));
	ask_logind(env, ret);
	status_judge(ret);
}
