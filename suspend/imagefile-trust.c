// SPDX-License-Identifier: GPL-2.0-only
/*
 * imagefile-trust.c - who may write the image file and the folders that lead to
 * it: root (or the owner a test gives), and nobody else
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "imagefile-trust.h"

/* May @st (a folder, or the file when @file) hold the image?  0, -EPERM, -EACCES */
static int owner_mode_ok(const struct stat *st, uid_t owner, int file)
{
	if (st->st_uid != 0 && st->st_uid != owner)
		return -EPERM;
	if (st->st_mode & (file ? 077 : 022))
		return -EACCES;
	return 0;
}

/* tests: the folders from / down to this one are taken as checked (NULL: none) */
static const char *trusted_dir;

void imagefile_trust_dir(const char *dir)
{
	trusted_dir = dir;
}

/* Is @dir (a resolved path) the trusted folder or one above it? */
static int trusted(const char *dir)
{
	size_t n = strlen(dir);

	if (!trusted_dir)
		return 0;
	if (!strcmp(dir, "/"))
		return 1;
	return !strncmp(trusted_dir, dir, n) && (trusted_dir[n] == '/' || !trusted_dir[n]);
}

int imagefile_open_dir(const char *path, uid_t owner, char *ret_bad, size_t len)
{
	char dir[PATH_MAX], real[PATH_MAX], *slash, *comp, *save = NULL;
	struct stat st;
	int fd, nfd, r;

	ret_bad[0] = '\0';
	if (path[0] != '/')
		return -EINVAL;
	if ((size_t)snprintf(dir, sizeof(dir), "%s", path) >= sizeof(dir))
		return -ENAMETOOLONG;
	slash = strrchr(dir, '/');
	*(slash == dir ? slash + 1 : slash) = '\0';
	if (!realpath(dir, real))
		return -errno;
	fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	snprintf(dir, sizeof(dir), "/");
	comp = strtok_r(real, "/", &save);
	for (;;) {
		r = fstat(fd, &st) < 0 ? -errno : trusted(dir) ? 0 : owner_mode_ok(&st, owner, 0);
		if (r < 0) {
			snprintf(ret_bad, len, "%s", dir);
			close(fd);
			return r;
		}
		if (!comp)
			return fd;
		nfd = openat(fd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		r = -errno;
		close(fd);
		if (nfd < 0)
			return r;
		fd = nfd;
		snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "%s%s",
			 strcmp(dir, "/") ? "/" : "", comp);
		comp = strtok_r(NULL, "/", &save);
	}
}

int imagefile_open(const char *path, int flags, uid_t owner, char *ret_bad, size_t len)
{
	const char *base = strrchr(path, '/');
	struct stat st;
	int dfd, fd, r;

	dfd = imagefile_open_dir(path, owner, ret_bad, len);
	if (dfd < 0)
		return dfd;
	/* O_NONBLOCK: a FIFO put there must not hang us; it is refused below */
	fd = openat(dfd, base ? base + 1 : path, flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	r = -errno;
	close(dfd);
	if (fd < 0)
		return r;
	if (fstat(fd, &st) < 0)
		r = -errno;
	else if (!S_ISREG(st.st_mode))
		r = -EINVAL;
	else
		r = owner_mode_ok(&st, owner, 1);
	if (r == 0 && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0)
		r = -errno;
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}
