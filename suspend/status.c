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
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "devname.h"
#include "freezecheck.h"
#include "status.h"

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

/* The swap area resume= (or --resume, torpor.conf) names; 0 or -errno */
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

/*
 * No resume= on the command line: initramfs-tools' hook then reads its own
 * RESUME=, in the running kernel's initramfs; 1 when it names the area.
 */
static int named_by_conf(const struct status *s)
{
	struct utsname u;
	dev_t dev;
	size_t i;

	if (uname(&u) < 0)
		return 0;
	for (i = 0; i < s->nr_initrd; i++) {
		const struct status_initrd *d = &s->initrd[i];

		if (d->err || strcmp(d->release, u.release) || d->hook_host != INITRAMFS_HOST_ITOOLS ||
		    d->unit || d->resume_conf_unsure || !d->resume_conf[0] ||
		    !strcmp(d->resume_conf, "none"))
			continue;
		return devname_resolve(d->resume_conf, &dev) == 0 && dev == s->area.dev;
	}
	return 0;
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
				      "an answer that is not one");
}

/**
 * status_collect() - gather the facts of this machine's setup into @ret, then
 * judge them (status_judge())
 * @env: where to read them
 * @o: the options, torpor.conf and resume= from the kernel command line merged in
 * @spec_from: where the resume device was named, in words
 * @image_file: the image file, NULL for a swap area
 */
void status_collect(const struct status_env *env, const struct hib_opts *o, const char *spec_from,
		    const char *image_file, struct status *ret)
{
	int r;

	memset(ret, 0, sizeof(*ret));
	ret->is_root = env->is_root;
	ret->snapshot_err = freezecheck_snapshot_state();
	ret->image_file = image_file;
	ret->spec_from = spec_from;
	snprintf(ret->spec, sizeof(ret->spec), "%s", image_file ? image_file : o->resume);
	ret->area_err = image_file ? find_file_area(image_file, env->is_root, &ret->area) :
				     find_area(o, &ret->area);
	if (ret->area_err == 0)
		devname_name(ret->area.dev, ret->area.dev_name, sizeof(ret->area.dev_name));
	if (ret->area_err == 0) {
		ret->next = nextboot_check(env->cmdline, ret->area.dev, ret->area.offset_pages,
					   o->resume, &ret->nb);
	}
	r = cmdline_read(env->cmdline, &ret->nb.cl);
	ret->cmdline_err = r < 0 ? r : 0;
	read_image(ret, &ret->image);
	if (strcmp(o->initramfs, CONFIG_INITRAMFS_NONE))
		status_initrd_scan(env->boot_dir, o->initramfs[0] ? o->initramfs : NULL,
				   env->decompress_path, env->initrd_budget_ms, ret);
	else
		ret->initrd_unchecked = 1;
	if (ret->area_err == 0 && ret->next == NEXTBOOT_UNNAMED)
		ret->next_by_conf = named_by_conf(ret);
	find_dropin(env->unit_root, ret->dropin, sizeof(ret->dropin));
	ask_logind(env, ret);
	status_judge(ret);
}
