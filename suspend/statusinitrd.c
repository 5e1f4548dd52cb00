// SPDX-License-Identifier: GPL-2.0-only
/*
 * statusinitrd.c - torpor-suspend --status: the initramfs of each installed
 * kernel, /boot/initrd.img-RELEASE (initramfs-tools) and
 * /boot/initramfs-RELEASE.img (dracut, mkinitcpio), each judged as --check
 * judges the running kernel's (initramfs_inspect()); without any, the one
 * initramfs_find() finds for the running kernel (a unified kernel image).
 * Nothing here prints.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "decompress.h"
#include "monoclock.h"
#include "status.h"

#ifndef LIBEXECDIR
#define LIBEXECDIR "/usr/local/lib/torpor"
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

/* Where the decompressors are, and the time left for them all */
struct budget {
	const char *tools;
	long long deadline_ms;
};

/* Judge @path into the next entry of @s, within what is left of @b */
static void judge(struct status *s, const char *path, const char *release, const struct budget *b)
{
	struct status_initrd *d;
	struct initramfs_report rep;
	long long left = b->deadline_ms - mono_ms();

	if (s->nr_initrd == STATUS_INITRD_MAX) {
		s->initrd_more++;
		return;
	}
	d = &s->initrd[s->nr_initrd++];
	memset(d, 0, sizeof(*d));
	snprintf(d->path, sizeof(d->path), "%s", path);
	snprintf(d->release, sizeof(d->release), "%s", release);
	if (left <= 0) {
		d->err = -ETIMEDOUT;	/* the others took all the time: not read */
		return;
	}
	d->err = initramfs_inspect(path, LIBEXECDIR "/torpor-resume", b->tools,
				   left < INITRAMFS_TIMEOUT_MS ? (int)left : INITRAMFS_TIMEOUT_MS, &rep);
	if (d->err < 0)
		return;
	d->verdict = rep.verdict;
	d->formats = rep.formats;
	snprintf(d->version, sizeof(d->version), "%s", rep.resume_version);
	d->hook_host = rep.hook_host;
	d->unit = rep.unit;
	d->uki = rep.uki;
	snprintf(d->resume_conf, sizeof(d->resume_conf), "%s", rep.resume_conf);
	d->resume_conf_unsure = rep.resume_conf_unsure;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The running kernel's initramfs, as --check finds it (a UKI, a boot entry) */
static void judge_running(const char *boot_dir, struct status *s, const struct budget *b)
{
	char path[PATH_MAX], tried[2048], *cmdline = NULL;
	struct utsname u;
	size_t cap = 0;
	FILE *f;
	int r;

	if (strcmp(boot_dir, "/boot") || uname(&u) < 0)
		return;
	f = fopen("/proc/cmdline", "re");
	if (f && getline(&cmdline, &cap, f) < 0) {
		free(cmdline);
		cmdline = NULL;
	}
	if (f)
		fclose(f);
	r = initramfs_find("", u.release, cmdline, path, sizeof(path), tried, sizeof(tried));
	free(cmdline);
	if (r == 0)
		judge(s, path, u.release, b);
}

/**
 * status_initrd_scan() - judge each installed kernel's initramfs into @s
 * @boot_dir: where they are ("/boot")
 * @only: the initramfs torpor.conf or --initramfs= names, NULL for all of them
 * @tool_dirs: where the decompressors are (DECOMPRESS_PATH)
 * @budget_ms: the bound on them all (each also has INITRAMFS_TIMEOUT_MS): those
 *             left when it is spent are -ETIMEDOUT, not read
 * @s: ->initrd, ->nr_initrd, ->initrd_more and ->boot_err filled in
 */
void status_initrd_scan(const char *boot_dir, const char *only, const char *tool_dirs,
			int budget_ms, struct status *s)
{
	char rel[TORPOR_UTS_LEN], path[PATH_MAX], **names = NULL, **grown;
	struct budget b = { .tools = tool_dirs, .deadline_ms = mono_ms() + budget_ms };
	size_t n = 0, i;
	struct dirent *e;
	DIR *d;

	s->nr_initrd = s->initrd_more = 0;
	if (only) {
		judge(s, only, "", &b);
		return;
	}
	d = opendir(boot_dir);
	if (!d) {
		s->boot_err = -errno;
		return;
	}
	while ((e = readdir(d)) && n < 4 * STATUS_INITRD_MAX) {
		if (release_of(e->d_name, rel, sizeof(rel)) < 0)
			continue;
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
	if (n == 0)
		judge_running(boot_dir, s, &b);
}
