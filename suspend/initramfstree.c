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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "efiloc.h"
#include "initramfsjudge.h"
#include "initramfstree.h"
#include "initramfswalk.h"

#define TREE_TEXT_MAX	(64 * 1024)	/* kept of each file, as the walk keeps */
#define TREE_BIN_MAX	(64u << 20)	/* read of torpor-resume for its EFI marker */

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

/*
 * torpor's boot script in @dir, executable and naming @resume_path: 1, else 0;
 * @ret_efi: 1 when it runs torpor-resume without a device on an EFI boot
 * (it tests for efivarfs, as initramfsjudge.c's EFI_HOOK_TEXT)
 */
static int has_boot_script(const char *dir, const char *resume_path, int *ret_efi)
{
	static const char efi_text[] = "/sys/firmware/efi/efivars";
	char full[PATH_MAX];
	struct walk *w = calloc(1, sizeof(*w));
	int ok = 0;

	*ret_efi = 0;
	snprintf(full, sizeof(full), "%s/scripts/local-top/torpor", dir);
	if (w && add_file(w, full, "scripts/local-top/torpor", R_ITOOLS_HOOK) == 0 &&
	    w->nr_files == 1 && (w->files[0].mode & 0111)) {
		ok = memmem(w->files[0].text, w->files[0].text_len, resume_path,
			    strlen(resume_path)) != NULL;
		*ret_efi = memmem(w->files[0].text, w->files[0].text_len, efi_text,
				  strlen(efi_text)) != NULL;
	}
	if (w)
		walk_free(w);
	free(w);
	return ok;
}

/*
 * Does the torpor-resume the hook copied into @dir at @resume_path carry
 * EFILOC_MARKER (it reads TorporHibernateLocation)?  1 or 0; read in pieces,
 * at most TREE_BIN_MAX bytes, never waiting on anything but a regular file.
 */
static int resume_reads_efi(const char *dir, const char *resume_path)
{
	static const char marker[] = EFILOC_MARKER;	/* with its NUL: version 1 alone */
	const size_t keep = sizeof(marker) - 1;
	char full[PATH_MAX];
	struct stat st;
	uint8_t *buf;
	size_t have = 0, total = 0;
	ssize_t n;
	int fd, found = 0;

	snprintf(full, sizeof(full), "%s%s", dir, resume_path);
	fd = open(full, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return 0;
	buf = malloc(TREE_TEXT_MAX + keep);
	if (!buf || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		free(buf);
		close(fd);
		return 0;
	}
	while (!found && total < TREE_BIN_MAX) {
		n = read(fd, buf + have, TREE_TEXT_MAX);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		total += (size_t)n;
		have += (size_t)n;
		found = memmem(buf, have, marker, sizeof(marker)) != NULL;
		/* a marker cut between two pieces: its start stays for the next */
		if (have > keep) {
			memmove(buf, buf + have - keep, keep);
			have = keep;
		}
	}
	free(buf);
	close(fd);
	return found;
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
	if (has_boot_script(dir, resume_path, &ret->efi_hook)) {
		ret->verdict = INITRAMFS_OK;
		ret->hook_host = INITRAMFS_HOST_ITOOLS;
		ret->efi_resume = resume_reads_efi(dir, resume_path);
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
