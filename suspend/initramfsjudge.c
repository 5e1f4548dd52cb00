// SPDX-License-Identifier: GPL-2.0-only
/*
 * initramfsjudge.c - the verdict on what the walk kept of the initramfs: is
 * torpor-resume at its path, executable and marked with this image format, and
 * does a hook of initramfs-tools, dracut or mkinitcpio run it (initramfs.h)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "initramfs.h"
#include "initramfsjudge.h"
#include "initramfswalk.h"
#include "util.h"

/*
 * A shell hook that runs torpor-resume without resume= on an EFI boot (where it
 * may read TorporHibernateLocation) tests for this directory; older hooks
 * returned without a device
 */
#define EFI_HOOK_TEXT	"/sys/firmware/efi/efivars"

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

/* systemd's unit directories in the initramfs, the first one's unit wins */
static const char *const unit_dirs[] = {
	"etc/systemd/system", "run/systemd/system", "usr/local/lib/systemd/system",
	"usr/lib/systemd/system", "lib/systemd/system",
};

/* @dir/@name, with the image's symlinks followed (the last component's with @last) */
static int unit_path(const struct walk *w, const char *dir, const char *name, int last,
		     char *path, size_t len)
{
	snprintf(path, len, "%s", dir);
	if (walk_resolve(w, path, len) < 0 || strlen(path) + strlen(name) + 2 > len)
		return -ENAMETOOLONG;
	strcat(path, "/");
	strcat(path, name);
	return last ? walk_resolve(w, path, len) : 0;
}

/* Is the first @n bytes of @dir, resolved, one of systemd's unit directories? */
static int is_unit_dir(const struct walk *w, const char *dir, size_t n)
{
	char want[CPIO_NAME_MAX], path[CPIO_NAME_MAX];
	size_t i;

	snprintf(want, sizeof(want), "%.*s", (int)n, dir);
	if (walk_resolve(w, want, sizeof(want)) < 0)
		return 0;
	for (i = 0; i < ARRAY_SIZE(unit_dirs); i++) {
		snprintf(path, sizeof(path), "%s", unit_dirs[i]);
		if (walk_resolve(w, path, sizeof(path)) == 0 && !strcmp(path, want))
			return 1;
	}
	return 0;
}

/*
 * The unit systemd loads: the first unit directory's torpor-restore.service,
 * followed to the file it links to; NULL when none is there, it is masked (a
 * link to /dev/null), or it links to what the walk did not keep
 */
static const struct file *unit_file(const struct walk *w)
{
	char path[CPIO_NAME_MAX];
	const struct file *f;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(unit_dirs); i++) {
		if (unit_path(w, unit_dirs[i], TORPOR_UNIT, 0, path, sizeof(path)) < 0)
			return NULL;
		if (!walk_last_at(w, R_UNIT, path))
			continue;
		if (unit_path(w, unit_dirs[i], TORPOR_UNIT, 1, path, sizeof(path)) < 0)
			return NULL;
		f = walk_last_at(w, R_UNIT, path);
		return f && S_ISREG(f->mode) ? f : NULL;
	}
	return NULL;
}

/* Does the command @v (an ExecStart= value) run @bin, past systemd's prefixes? */
static int runs_bin(const char *v, const char *bin)
{
	size_t n = strlen(bin);

	v += strspn(v, "-@:+!|");
	return !strncmp(v, bin, n) && strchr(" \t\r\n", v[n]);
}

/*
 * The ExecStart= lines of [Service] in @text, applied to @state: 0 no command,
 * 1 only commands that run @bin, -1 another command too (which may fail first,
 * or be all that runs).  "ExecStart=" alone empties the list, as in systemd.
 */
static int exec_state(const char *text, const char *bin, int state)
{
	const char *p, *v;
	int service = 0;

	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		p += strspn(p, " \t");
		if (*p == '[')
			service = !strncmp(p, "[Service]", 9);
		if (!service || strncmp(p, "ExecStart", 9))
			continue;
		v = p + 9 + strspn(p + 9, " \t");
		if (*v++ != '=')
			continue;
		v += strspn(v, " \t");
		if (strchr("\r\n", *v))
			state = 0;
		else if (state >= 0)
			state = runs_bin(v, bin) ? 1 : -1;
	}
	return state;
}

/*
 * Can a drop-in's @text keep the unit from running its ExecStart=: a condition
 * or assertion in [Unit] (Condition*=, Assert*=: the unit is skipped or fails),
 * or in [Service] a command before it (ExecStartPre=, ExecCondition=: one that
 * fails stops it)?  The unit's own ConditionPathExists= is not a drop-in's.
 */
static int may_skip(const char *text)
{
	static const char *const keys[] = { "Condition", "Assert", "ExecStartPre", "ExecCondition" };
	const char *p;
	int section = 0;	/* 1 [Unit], 2 [Service] */
	size_t i;

	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		p += strspn(p, " \t");
		if (*p == '[') {
			section = !strncmp(p, "[Unit]", 6) ? 1 : !strncmp(p, "[Service]", 9) ? 2 : 0;
			continue;
		}
		for (i = section == 2 ? 2 : 0; section && i < (section == 1 ? 2 : 4); i++)
			if (!strncmp(p, keys[i], strlen(keys[i])))
				return 1;
	}
	return 0;
}

/*
 * Does every drop-in of the unit keep it running only @bin?  A drop-in may set
 * ExecStart= (dracut's host-only one does: "ExecStart=" then torpor-resume with
 * --device=); it is taken as the last one applied, so it must leave only @bin,
 * and add nothing that can skip it (may_skip()).  Drop-ins anywhere in the
 * image count, and ones that are links (not read).
 */
static int dropins_keep(const struct walk *w, const char *bin)
{
	const struct file *f;
	size_t i;

	for (i = 0; i < w->nr_files; i++) {
		f = &w->files[i];
		if (f->role != R_UNIT_DROPIN)
			continue;
		if (!S_ISREG(f->mode) || (f->text && (exec_state(f->text, bin, 1) != 1 ||
						      may_skip(f->text))))
			return 0;
	}
	return 1;
}

/* A link named torpor-restore.service in a unit directory's initrd.target.wants/ */
static int unit_wanted(const struct walk *w)
{
	char path[CPIO_NAME_MAX];
	const struct file *f;
	const char *end;
	size_t i;

	for (i = 0; i < w->nr_files; i++) {
		f = &w->files[i];
		if (f->role != R_UNIT_WANTS)
			continue;
		/* DIR/initrd.target.wants/torpor-restore.service: DIR, before the last two */
		end = strrchr(f->path, '/');
		while (end && end > f->path && end[-1] != '/')
			end--;
		if (!end || end == f->path || !is_unit_dir(w, f->path, (size_t)(end - f->path - 1)))
			continue;
		/* the link's name is the unit's; one that leads to another unit is not it */
		snprintf(path, sizeof(path), "%s", f->path);
		if (!S_ISLNK(f->mode) ||
		    (walk_resolve(w, path, sizeof(path)) == 0 && ends_with(path, "/" TORPOR_UNIT)))
			return 1;
	}
	return 0;
}

/*
 * torpor-restore.service that runs @bin: 1 when initrd.target wants it, 0 when
 * nothing does, -1 when the unit systemd loads does not run only @bin (or is
 * masked, or a drop-in changes its ExecStart=)
 */
static int unit_runs(const struct walk *w, const char *bin)
{
	const struct file *u = unit_file(w);

	if (!u || !u->text || exec_state(u->text, bin, 0) != 1 || !dropins_keep(w, bin))
		return -1;
	return unit_wanted(w);
}

/* Is /init a link to systemd (dracut's systemd module, mkinitcpio's systemd hook)? */
static int init_is_systemd(const struct walk *w)
{
	const struct file *f = walk_last_at(w, R_INIT, "init");
	char path[CPIO_NAME_MAX] = "init";

	return f && S_ISLNK(f->mode) && walk_resolve(w, path, sizeof(path)) == 0 &&
	       ends_with(path, "/systemd");
}

/*
 * With systemd at /init, torpor-restore.service runs @bin (dracut's systemd
 * mode, mkinitcpio's sd-torpor): OK, or HOOK_NOT_RUN when nothing wants it and
 * no other hook was found
 */
static void judge_unit(const struct walk *w, const char *bin, struct initramfs_report *rep)
{
	int r = init_is_systemd(w) ? unit_runs(w, bin) : -1;

	if (r < 0 || (r == 0 && rep->verdict != INITRAMFS_NO_HOOK))
		return;
	rep->unit = 1;
	/* it runs torpor-resume whatever the command line says */
	rep->efi_hook = 1;
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
			rep->efi_hook = text_has(&w->files[i], EFI_HOOK_TEXT);
			rep->verdict = dracut_runs_hooks(w, shell_init) ? INITRAMFS_OK :
				INITRAMFS_NO_SHELL_INIT;
			if (rep->verdict == INITRAMFS_OK)
				return;
			break;
		}
	}
	if (text_has(it, bin) && (it->mode & 0111)) {
		rep->hook_host = INITRAMFS_HOST_ITOOLS;
		rep->efi_hook = text_has(it, EFI_HOOK_TEXT);
		rep->verdict = !order || !S_ISREG(order->mode) || order_runs_torpor(order) ?
			INITRAMFS_OK : INITRAMFS_HOOK_NOT_RUN;
		if (rep->verdict == INITRAMFS_OK)
			return;
	}
	if (text_has(cpio, bin)) {
		rep->hook_host = INITRAMFS_HOST_MKINITCPIO;
		rep->efi_hook = text_has(cpio, EFI_HOOK_TEXT);
		/* the systemd hook puts systemd at /init: no busybox hook runs */
		rep->verdict = !config_runs_torpor(config) ? INITRAMFS_HOOK_NOT_RUN :
			shell_init ? INITRAMFS_OK : INITRAMFS_NO_SHELL_INIT;
		if (rep->verdict == INITRAMFS_OK)
			return;
	}
	judge_unit(w, bin, rep);
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * One line of a configuration file, @s (@n bytes): a RESUME= assignment (maybe
 * after "export") into @rep, 1; a line that names RESUME otherwise (a condition,
 * a function) leaves it unsure.  Comments and other lines do nothing, 0.
 */
static int resume_line(const char *s, size_t n, struct initramfs_report *rep)
{
	const char *v;
	size_t i = 0, vn;

	while (i < n && is_blank(s[i]))
		i++;
	if (i == n || s[i] == '#' || !memmem(s + i, n - i, "RESUME", 6))
		return 0;
	if (n - i > 6 && !strncmp(s + i, "export", 6) && is_blank(s[i + 6]))
		for (i += 6; i < n && is_blank(s[i]); i++)
			;
	if (n - i < 7 || strncmp(s + i, "RESUME=", 7)) {
		rep->resume_conf_unsure = 1;
		return 0;
	}
	v = s + i + 7;
	vn = n - i - 7;
	while (vn && (is_blank(v[vn - 1]) || v[vn - 1] == '\r'))
		vn--;
	if (vn >= 2 && (v[0] == '"' || v[0] == '\'') && v[vn - 1] == v[0]) {
		v++;
		vn -= 2;
	}
	rep->resume_conf_unsure = vn >= sizeof(rep->resume_conf);
	for (i = 0; i < vn; i++)
		if (is_blank(v[i]) || strchr("$`\\\"';&|<>(){}*?[", v[i]) || !v[i])
			rep->resume_conf_unsure = 1;
	if (vn >= sizeof(rep->resume_conf))
		vn = sizeof(rep->resume_conf) - 1;
	memcpy(rep->resume_conf, v, vn);
	rep->resume_conf[vn] = '\0';
	return 1;
}

/* The RESUME= of one configuration file @f, its last assignment */
static void resume_file(const struct file *f, struct initramfs_report *rep)
{
	const char *p, *nl;

	if (!S_ISREG(f->mode) || !f->text)
		return;
	for (p = f->text; p < f->text + f->text_len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(f->text + f->text_len - p));
		if (!nl)
			nl = f->text + f->text_len;
		if (resume_line(p, (size_t)(nl - p), rep))
			snprintf(rep->resume_conf_file, sizeof(rep->resume_conf_file), "%s",
				 f->path);
	}
	if (f->text_len < f->size)
		rep->resume_conf_unsure = 1;	/* longer than what the walk keeps */
}

/*
 * initramfs-tools' /init sources conf/initramfs.conf, then each file of conf/conf.d/ in
 * name order, and takes RESUME= from them when the command line has no
 * resume= (hooks/resume writes it there, from /etc/initramfs-tools/conf.d/resume
 * or the largest swap partition it found): the device torpor's boot script reads.
 * Also read for the tree initramfs-tools is building (initramfstree.c).
 */
void initramfs_resume_conf(const struct walk *w, struct initramfs_report *rep)
{
	const struct file *d[WALK_FILES_MAX], *f;
	size_t i, j, n = 0;

	f = walk_last_at(w, R_ITOOLS_CONF, "conf/initramfs.conf");
	if (f)
		resume_file(f, rep);
	for (i = 0; i < w->nr_files; i++) {
		f = &w->files[i];
		if (f->role != R_ITOOLS_CONF || strcmp(f->path, "conf/initramfs.conf") == 0)
			continue;
		for (j = n++; j > 0 && strcmp(d[j - 1]->path, f->path) > 0; j--)
			d[j] = d[j - 1];
		d[j] = f;
	}
	for (i = 0; i < n; i++)
		resume_file(d[i], rep);
	if (w->files_cut)
		rep->resume_conf_unsure = 1;	/* a file not kept may set it */
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
	memcpy(rep->resume_version, f->version, sizeof(rep->resume_version));
	/* a hard link without its data: the data came with another of its names */
	if (!f->marked && f->size == 0 && f->nlink >= 2) {
		for (i = 0; i < w->nr_hard; i++)
			if (w->hard[i].ino == f->ino && w->hard[i].devmajor == f->devmajor &&
			    w->hard[i].devminor == f->devminor) {
				rep->formats |= w->hard[i].formats;
				if (w->hard[i].version[0])
					memcpy(rep->resume_version, w->hard[i].version,
					       sizeof(rep->resume_version));
			}
	}
	rep->efi_resume = !!(rep->formats & WALK_FORMATS_EFI);
	rep->formats &= ~WALK_FORMATS_EFI;
	if (!rep->formats) {
		rep->verdict = INITRAMFS_NO_MARKER;
		return 0;
	}
	if (!(rep->formats & (1ull << TORPOR_FORMAT_VERSION))) {
		rep->verdict = INITRAMFS_OTHER_FORMAT;
		return 0;
	}
	judge_hooks(w, resume_path, rep);
	if (rep->hook_host == INITRAMFS_HOST_ITOOLS)
		initramfs_resume_conf(w, rep);
	return 0;
}
