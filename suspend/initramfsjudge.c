// SPDX-License-Identifier: GPL-2.0-only
/*
 * initramfsjudge.c - the verdict on what the walk kept of the initramfs: is
 * torpor-resume at its path, executable and marked with this image format, and
 * does a hook of initramfs-tools, dracut or mkinitcpio run it (initramfs.h)
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "initramfs.h"
#include "initramfsjudge.h"
#include "initramfswalk.h"

/* Does @f's text hold @s?  A hook names the binary it runs. */
static int text_has(const struct file *f, const char *s)
{
	return f && S_ISREG(f->mode) && f->text && strstr(f->text, s);
}

/* mkinitcpio's /config: a HOOKS="..." line that lists torpor */
static int config_runs_torpor(const struct file *f)
{
	const char *p, *end, *w;
	size_t n;

	if (!f || !S_ISREG(f->mode) || !f->text)
		return 0;
	for (p = f->text; p; p = end ? end + 1 : NULL) {
		end = strchr(p, '\n');
		if (strncmp(p, "HOOKS=", 6))
			continue;
		/* the words of the value, quotes and blanks between them */
		for (w = p + 6; w < (end ? end : w + strlen(w)); w += n ? n : 1) {
			n = strcspn(w, "\"' \t\n");
			if (n == 6 && !strncmp(w, "torpor", 6))
				return 1;
		}
		return 0;
	}
	return 0;
}

/* initramfs-tools' ORDER runs the scripts it lists, one "/scripts/DIR/NAME" a line */
static int order_runs_torpor(const struct file *f)
{
	const char *p;

	if (!f || !S_ISREG(f->mode) || !f->text)
		return 0;
	for (p = f->text; (p = strstr(p, "/scripts/local-top/torpor")); p++)
		if ((p == f->text || p[-1] == '\n') && strchr(" \t\n\"", p[25]))
			return 1;
	return 0;
}

/*
 * Is /init a script (the generators' shell init, which runs their shell hooks)?
 * 1, or 0 with what it is instead in @desc: systemd's binary (mkinitcpio's
 * systemd hook copies it there; dracut's systemd module links it), another
 * program, nothing.
 */
static int init_is_script(const struct walk *w, char *desc, size_t len)
{
	const struct file *f = walk_last_at(w, R_INIT, "init");
	char path[CPIO_NAME_MAX] = "init";

	if (f && S_ISREG(f->mode) && f->text_len >= 2 && !memcmp(f->text, "#!", 2))
		return 1;
	if (!f)
		snprintf(desc, len, "missing");
	else if (S_ISLNK(f->mode) && walk_resolve(w, path, sizeof(path)) == 0)
		snprintf(desc, len, "%s/%.60s", ends_with(path, "/systemd") ?
			 "systemd, a link to " : "a link to ", path);
	else if (S_ISREG(f->mode) && f->text_len >= 4 && !memcmp(f->text, "\x7f" "ELF", 4))
		snprintf(desc, len, "a program, not a shell script");
	else
		snprintf(desc, len, "not a shell script");
	return 0;
}

/* dracut's hooks run from its shell /init, or with systemd from dracut-pre-mount.service */
static int dracut_runs_hooks(const struct walk *w, int shell_init)
{
	size_t i;

	if (shell_init)
		return 1;
	for (i = 0; i < w->nr_files; i++)
		if (w->files[i].role == R_DRACUT_UNIT && S_ISREG(w->files[i].mode))
			return 1;
	return 0;
}

/*
 * torpor-restore.service naming @bin: 1 when a TARGET.wants/ link to it (or a
 * copy there) enables it, 0 when it is there but nothing wants it, -1 when no
 * unit names @bin
 */
static int unit_runs(const struct walk *w, const char *bin)
{
	char path[CPIO_NAME_MAX];
	const struct file *f, *u;
	int seen = -1;
	size_t i;

	for (i = 0; i < w->nr_files; i++) {
		f = &w->files[i];
		if (f->role == R_UNIT && text_has(f, bin))
			seen = 0;
		if (f->role != R_UNIT_WANTS)
			continue;
		u = f;
		if (S_ISLNK(f->mode)) {
			snprintf(path, sizeof(path), "%s", f->path);
			u = walk_resolve(w, path, sizeof(path)) < 0 ? NULL :
				walk_last_at(w, R_UNIT, path);
		}
		if (text_has(u, bin))
			return 1;
	}
	return seen;
}

/*
 * With systemd at /init, torpor-restore.service runs @bin (dracut's systemd
 * mode, mkinitcpio's sd-torpor): OK, or HOOK_NOT_RUN when nothing wants it and
 * no other hook was found
 */
static void judge_unit(const struct walk *w, const char *bin, int shell_init,
		       struct initramfs_report *rep)
{
	int r = shell_init ? -1 : unit_runs(w, bin);

	if (r < 0 || (r == 0 && rep->verdict != INITRAMFS_NO_HOOK))
		return;
	rep->unit = 1;
	rep->hook_host = w->hosts & INITRAMFS_HOST_DRACUT ? INITRAMFS_HOST_DRACUT :
		w->hosts & INITRAMFS_HOST_MKINITCPIO ? INITRAMFS_HOST_MKINITCPIO : 0;
	rep->verdict = r ? INITRAMFS_OK : INITRAMFS_HOOK_NOT_RUN;
}

/* Which host's hook runs @bin; sets OK, HOOK_NOT_RUN, NO_SHELL_INIT or NO_HOOK */
static void judge_hooks(const struct walk *w, const char *bin, struct initramfs_report *rep)
{
	const struct file *it = walk_last_at(w, R_ITOOLS_HOOK, "scripts/local-top/torpor");
	const struct file *order = walk_last_at(w, R_ITOOLS_ORDER, "scripts/local-top/ORDER");
	const struct file *cpio = walk_last_at(w, R_CPIO_HOOK, "hooks/torpor");
	const struct file *config = walk_last_at(w, R_CPIO_CONFIG, "config");
	int shell_init = init_is_script(w, rep->init, sizeof(rep->init));
	size_t i;

	rep->verdict = INITRAMFS_NO_HOOK;
	for (i = 0; i < w->nr_files; i++) {
		if (w->files[i].role == R_DRACUT_HOOK && text_has(&w->files[i], bin)) {
			rep->hook_host = INITRAMFS_HOST_DRACUT;
			rep->verdict = dracut_runs_hooks(w, shell_init) ? INITRAMFS_OK :
				INITRAMFS_NO_SHELL_INIT;
			if (rep->verdict == INITRAMFS_OK)
				return;
			break;
		}
	}
	if (text_has(it, bin) && (it->mode & 0111)) {
		rep->hook_host = INITRAMFS_HOST_ITOOLS;
		rep->verdict = !order || !S_ISREG(order->mode) || order_runs_torpor(order) ?
			INITRAMFS_OK : INITRAMFS_HOOK_NOT_RUN;
		if (rep->verdict == INITRAMFS_OK)
			return;
	}
	if (text_has(cpio, bin)) {
		rep->hook_host = INITRAMFS_HOST_MKINITCPIO;
		/* the systemd hook puts systemd at /init: no busybox hook runs */
		rep->verdict = !config_runs_torpor(config) ? INITRAMFS_HOOK_NOT_RUN :
			shell_init ? INITRAMFS_OK : INITRAMFS_NO_SHELL_INIT;
		if (rep->verdict == INITRAMFS_OK)
			return;
	}
	judge_unit(w, bin, shell_init, rep);
}

/* The verdict on what the walk kept */
int initramfs_judge(const struct walk *w, const char *resume_path, struct initramfs_report *rep)
{
	char want[CPIO_NAME_MAX];
	const struct file *f;
	size_t i;

	snprintf(want, sizeof(want), "%s", resume_path);
	walk_normalize(want);
	if (walk_resolve(w, want, sizeof(want)) < 0) {
		rep->verdict = INITRAMFS_NO_RESUME;
		return 0;
	}
	f = walk_last_at(w, R_RESUME, want);
	if (!f) {
		rep->verdict = INITRAMFS_NO_RESUME;
		return 0;
	}
	if (!S_ISREG(f->mode) || !(f->mode & 0111)) {
		rep->verdict = INITRAMFS_NOT_EXECUTABLE;
		return 0;
	}
	rep->formats = f->formats;
	/* a hard link without its data: the data came with another of its names */
	if (!f->marked && f->size == 0 && f->nlink >= 2) {
		for (i = 0; i < w->nr_hard; i++)
			if (w->hard[i].ino == f->ino && w->hard[i].devmajor == f->devmajor &&
			    w->hard[i].devminor == f->devminor)
				rep->formats |= w->hard[i].formats;
	}
	if (!rep->formats) {
		rep->verdict = INITRAMFS_NO_MARKER;
		return 0;
	}
	if (!(rep->formats & (1ull << TORPOR_FORMAT_VERSION))) {
		rep->verdict = INITRAMFS_OTHER_FORMAT;
		return 0;
	}
	judge_hooks(w, resume_path, rep);
	return 0;
}
