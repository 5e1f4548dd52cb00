// SPDX-License-Identifier: GPL-2.0-only
/*
 * statusinitrd.c - torpor-suspend --status: the initramfs of each installed
 * kernel, /boot/initrd.img-RELEASE (initramfs-tools) and
 * /boot/initramfs-RELEASE.img (dracut, mkinitcpio), each judged as --check
 * judges the running kernel's (initramfs_inspect()), and the one the next boot
 * runs, as --check finds it (the caller's initramfs_find_next(): a unified
 * kernel image, a boot entry's), when it is not among them.  The next boot's
 * report is kept whole, for its RESUME= (confarea.h).  Nothing here prints.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "decompress.h"
#include "monoclock.h"
#include "status.h"

/* where torpor-resume sits in the initramfs: the install's, from the Makefile */
#ifndef LIBEXECDIR
#error "LIBEXECDIR is not defined: add this file to BOOTREADY_OBJS in the Makefile"
#endif

/* The kernel release an initramfs file name gives; 0, or -EINVAL for another file */
static int release_of(const char *name, char *buf, size_t size)
{
	size_t n = strlen(name);

	if (!strncmp(name, "initrd.img-", 11) && n > 11 && n - 11 < size) {
		memcpy(buf, name + 11, n - 11 + 1);
		return 0;
	}
	if (!strncmp(name, "initramfs-", 10) && n > 14 && !strcmp(name + n - 4, ".img") &&
	    n - 14 < size) {
		memcpy(buf, name + 10, n - 14);
		buf[n - 14] = '\0';
		return 0;
	}
	return -EINVAL;
}

/* Where the decompressors are, the time left for them all, the next boot's initramfs */
struct budget {
	const char *tools;
	long long deadline_ms;
	const char *next;
};

/* Judge @path into the next entry of @s, within what is left of @b */
static void judge(struct status *s, const char *path, const char *release, const struct budget *b)
{
	struct status_initrd *d;
	struct initramfs_report *rep = &s->conf.rep, own;
	long long left = b->deadline_ms - mono_ms();
	int is_next = b->next && !strcmp(path, b->next), err;

	if (s->nr_initrd == STATUS_INITRD_MAX && !is_next) {
		s->initrd_more++;
		return;
	}
	if (!is_next)
		rep = &own;
	if (left > INITRAMFS_TIMEOUT_MS)
		left = INITRAMFS_TIMEOUT_MS;
	/* the others took all the time: not read */
	err = left <= 0 ? -ETIMEDOUT :
	      initramfs_inspect(path, LIBEXECDIR "/torpor-resume", b->tools, (int)left, rep);
	if (is_next) {
		s->next_seen = 1;
		s->next_err = err;
		snprintf(s->conf.path, sizeof(s->conf.path), "%s", path);
	}
	if (s->nr_initrd == STATUS_INITRD_MAX) {
		s->initrd_more++;
		return;
	}
	d = &s->initrd[s->nr_initrd++];
	memset(d, 0, sizeof(*d));
	snprintf(d->path, sizeof(d->path), "%s", path);
	snprintf(d->release, sizeof(d->release), "%s", release);
	d->err = err;
	if (d->err < 0)
		return;
	d->verdict = rep->verdict;
	d->formats = rep->formats;
	snprintf(d->version, sizeof(d->version), "%s", rep->resume_version);
	d->hook_host = rep->hook_host;
	d->unit = rep->unit;
	d->uki = rep->uki;
	snprintf(d->resume_conf, sizeof(d->resume_conf), "%s", rep->resume_conf);
	d->resume_conf_unsure = rep->resume_conf_unsure;
}

/*
 * Whether the kernel of release @rel is installed: @boot_dir/vmlinuz-@rel
 * (Debian, Fedora, Arch's vmlinuz-linux; Arch's -fallback image is the same
 * kernel's).  An initramfs whose kernel is gone (initrd.img-R.old-dkms, a
 * removed kernel's leftover) is no boot's, and is not judged.
 */
static int kernel_installed(const char *boot_dir, const char *rel)
{
	char path[PATH_MAX];
	size_t n = strlen(rel);
	struct stat st;

	snprintf(path, sizeof(path), "%s/vmlinuz-%s", boot_dir, rel);
	if (lstat(path, &st) == 0)
		return 1;
	if (n > 9 && !strcmp(rel + n - 9, "-fallback")) {
		snprintf(path, sizeof(path), "%s/vmlinuz-%.*s", boot_dir, (int)(n - 9), rel);
		return lstat(path, &st) == 0;
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The next boot's initramfs, @b->next, when the scan did not meet it (a UKI, a boot entry's) */
static void judge_next(struct status *s, const struct budget *b, int only)
{
	struct utsname u;

	if (!b->next || s->next_seen)
		return;
	judge(s, b->next, only || uname(&u) < 0 ? "" : u.release, b);
}

/**
 * status_initrd_scan() - judge each installed kernel's initramfs into @s
 * @boot_dir: where they are ("/boot")
 * @only: the initramfs torpor.conf or --initramfs= names, NULL for all of them
 * @next: the one the next boot runs (initramfs_find_next()), NULL when not
 *        known: judged too when not among them; its report goes to
 *        @s->conf.rep (->next_seen, ->next_err)
 * @tool_dirs: where the decompressors are (DECOMPRESS_PATH)
 * @budget_ms: the bound on them all (each also has INITRAMFS_TIMEOUT_MS): those
 *             left when it is spent are -ETIMEDOUT, not read
 * @s: ->initrd, ->nr_initrd, ->initrd_more and ->boot_err filled in
 */
void status_initrd_scan(const char *boot_dir, const char *only, const char *next,
			const char *tool_dirs, int budget_ms, struct status *s)
{
	char rel[TORPOR_UTS_LEN], path[PATH_MAX], **names = NULL, **grown;
	struct budget b = { .tools = tool_dirs, .deadline_ms = mono_ms() + budget_ms,
			    .next = next && next[0] ? next : NULL };
	size_t n = 0, i;
	struct dirent *e;
	int kernels = 0;
	DIR *d;

	s->nr_initrd = s->initrd_more = s->initrd_orphans = 0;
	if (only) {
		judge(s, only, "", &b);
		judge_next(s, &b, 1);
		return;
	}
	d = opendir(boot_dir);
	if (!d) {
		s->boot_err = -errno;
		judge_next(s, &b, 0);
		return;
	}
	/* where kernels are not kept beside (no vmlinuz-* at all), every initramfs counts */
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "vmlinuz-", 8))
			kernels = 1;
	rewinddir(d);
	while ((e = readdir(d)) && n < 4 * STATUS_INITRD_MAX) {
		if (release_of(e->d_name, rel, sizeof(rel)) < 0)
			continue;
		if (kernels && !kernel_installed(boot_dir, rel)) {
			s->initrd_orphans++;
			continue;
		}
		grown = realloc(names, (n + 1) * sizeof(*names));
		if (!grown)
			break;
		names = grown;
		names[n] = strdup(e->d_name);
		if (names[n])
			n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		(void)release_of(names[i], rel, sizeof(rel));
		snprintf(path, sizeof(path), "%s/%s", boot_dir, names[i]);
		judge(s, path, rel, &b);
		free(names[i]);
	}
	free(names);
	judge_next(s, &b, 0);
}
