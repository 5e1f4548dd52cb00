// SPDX-License-Identifier: GPL-2.0-only
/*
 * initramfstree.c - the initramfs initramfs-tools is building, still a
 * directory (mkinitramfs's DESTDIR, while its hooks run): the RESUME= its /init
 * will take, read by the initramfs judge's own reader from conf/initramfs.conf
 * and conf/conf.d/ (mkinitramfs copies them there before it runs the hooks,
 * and hooks/resume adds conf.d/zz-resume-auto), and whether torpor's boot
 * script is there to read it.  Nothing here prints.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "initramfsjudge.h"
#include "initramfstree.h"
#include "initramfswalk.h"

#define TREE_TEXT_MAX	(64 * 1024)	/* kept of each file, as the walk keeps */

/* @full into a new record of @w as @rel: its mode, size and first TREE_TEXT_MAX bytes */
static int add_file(struct walk *w, const char *full, const char *rel, enum role role)
{
	struct file *f;
	struct stat st;
	ssize_t n;
	int fd;

	if (w->nr_files == WALK_FILES_MAX) {
		w->files_cut = 1;
		return 0;
	}
	/* O_NONBLOCK: a FIFO put there is not waited on */
	fd = open(full, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;	/* /init sources regular files only ([ -f ]) */
	}
	f = &w->files[w->nr_files];
	memset(f, 0, sizeof(*f));
	f->path = strdup(rel);
	f->text = malloc(TREE_TEXT_MAX);
	if (!f->path || !f->text) {
		free(f->path);
		free(f->text);
		close(fd);
		return -ENOMEM;
	}
	n = read(fd, f->text, TREE_TEXT_MAX);
	close(fd);
	f->role = role;
	f->mode = st.st_mode;
	f->size = st.st_size > UINT32_MAX ? UINT32_MAX : (uint32_t)st.st_size;
	f->text_len = n > 0 ? (size_t)n : 0;
	f->seq = ++w->seq;
	w->nr_files++;
	return 0;
}

/* Every file of @dir/conf/conf.d, but those /init's glob leaves out (dot files) */
static int add_conf_d(struct walk *w, const char *dir)
{
	char full[PATH_MAX], rel[NAME_MAX + 16];
	struct dirent *e;
	DIR *d;
	int r = 0;

	snprintf(full, sizeof(full), "%s/conf/conf.d", dir);
	d = opendir(full);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while (r == 0 && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(full, sizeof(full), "%s/conf/conf.d/%s", dir, e->d_name);
		snprintf(rel, sizeof(rel), "conf/conf.d/%s", e->d_name);
		r = add_file(w, full, rel, R_ITOOLS_CONF);
	}
	closedir(d);
	return r;
}

/* torpor's boot script in @dir, executable and naming @resume_path: 1, else 0 */
static int has_boot_script(const char *dir, const char *resume_path)
{
	char full[PATH_MAX];
	struct walk *w = calloc(1, sizeof(*w));
	int ok = 0;

	snprintf(full, sizeof(full), "%s/scripts/local-top/torpor", dir);
	if (w && add_file(w, full, "scripts/local-top/torpor", R_ITOOLS_HOOK) == 0 &&
	    w->nr_files == 1 && (w->files[0].mode & 0111))
		ok = memmem(w->files[0].text, w->files[0].text_len, resume_path,
			    strlen(resume_path)) != NULL;
	if (w)
		walk_free(w);
	free(w);
	return ok;
}

int initramfs_tree_read(const char *dir, const char *resume_path, struct initramfs_report *ret)
{
	char full[PATH_MAX];
	struct walk *w;
	struct stat st;
	int r;

	memset(ret, 0, sizeof(*ret));
	if (stat(dir, &st) < 0) {
		r = -errno;
		snprintf(ret->detail, sizeof(ret->detail), "cannot read directory '%s'", dir);
		return r;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(ret->detail, sizeof(ret->detail), "'%s' is not a directory", dir);
		return -ENOTDIR;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	ret->hosts = INITRAMFS_HOST_ITOOLS;
	ret->verdict = INITRAMFS_NO_HOOK;
	if (has_boot_script(dir, resume_path)) {
		ret->verdict = INITRAMFS_OK;
		ret->hook_host = INITRAMFS_HOST_ITOOLS;
	}
	snprintf(full, sizeof(full), "%s/conf/initramfs.conf", dir);
	r = add_file(w, full, "conf/initramfs.conf", R_ITOOLS_CONF);
	if (r == -ENOENT)
		r = 0;
	if (r == 0)
		r = add_conf_d(w, dir);
	if (r == 0)
		initramfs_resume_conf(w, ret);
	else
		snprintf(ret->detail, sizeof(ret->detail), "cannot read its conf/ files");
	walk_free(w);
	free(w);
	return r;
}
