/* SPDX-License-Identifier: GPL-2.0-only */
/* imagefile-trust.h - who may write the image file and its folders */
#ifndef SUSPEND_IMAGEFILE_TRUST_H
#define SUSPEND_IMAGEFILE_TRUST_H

#include <stddef.h>
#include <sys/types.h>

#define IMAGEFILE_OWNER		0		/* who may own the file and its directories */

/**
 * imagefile_open_dir() - the folder of image file @path, every folder on the way
 * checked: from / down (symbolic links resolved first, then walked with
 * O_NOFOLLOW), each must be owned by root or @owner and not writable by group
 * or others (a sticky world-writable /tmp neither), so that nobody else can
 * move the file or what leads to it.  @owner is IMAGEFILE_OWNER but in tests.
 * @ret_bad: the folder refused, "" otherwise
 * Return: an O_PATH descriptor of the folder; -EPERM (owned by another user),
 * -EACCES (writable by group or others), -EINVAL (@path not absolute), -errno.
 * Silent.
 */
int imagefile_open_dir(const char *path, uid_t owner, char *ret_bad, size_t len);

/*
 * imagefile_trust_dir() - tests only: take the folders from / down to @dir (a
 * resolved path) as checked, so that a test under any checkout (below /tmp, a
 * group-writable home) checks only the folders it makes.  NULL: check all.
 */
void imagefile_trust_dir(const char *dir);

/**
 * imagefile_open() - open image file @path once, for every later step
 * @flags: O_RDONLY or O_RDWR (O_NOFOLLOW and O_CLOEXEC are added)
 * @owner, @ret_bad: as imagefile_open_dir(); @ret_bad is "" when the file
 * itself is refused
 * The folders are checked (imagefile_open_dir()), then the file: a regular file
 * owned by root (or @owner), without group or other permission bits.
 * Return: the descriptor; -EPERM, -EACCES as above (of the file when @ret_bad
 * is ""); -EINVAL (not a regular file); -ELOOP (a symbolic link); -errno.  Silent.
 */
int imagefile_open(const char *path, int flags, uid_t owner, char *ret_bad, size_t len);

#endif
