// SPDX-License-Identifier: GPL-2.0-only
/*
 * efiloc.c - TorporHibernateLocation: the one encoder and parser of the EFI
 * variable that names the resume area (format: efiloc.h), and its file in efivarfs
 *
 * Like systemd's HibernateLocation (255), but torpor's own variable, in a fixed
 * binary layout with a CRC: what torpor-resume reads at boot is untrusted input.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "crc32.h"
#include "efiloc.h"
#include "le.h"

#define F_MAGIC		0
#define F_VERSION	8
#define F_SIZE		10
#define F_KIND		12
#define F_FORMAT	13
#define F_ZERO		14
#define F_OFFSET	16
#define F_ID		24
#define F_RELEASE	72
#define F_CRC		140
#define MAGIC		"TORPORHL"

_Static_assert(F_ID + sizeof(((struct efiloc *)0)->id) == F_RELEASE, "id field");
_Static_assert(F_RELEASE + sizeof(((struct efiloc *)0)->release) == F_CRC, "release field");
_Static_assert(F_CRC + 4 == EFILOC_SIZE, "variable size");

/* A UUID's text: hex digits and dashes (GUIDs, "SSSSSSSS-PP", 16-digit ids) */
static int id_ok(const char *s, size_t max)
{
	size_t n = strnlen(s, max);

	if (!n || n == max || n != strspn(s, "0123456789abcdefABCDEF-"))
		return 0;
	return 1;
}

/* A kernel release: printable, no blank, as uname -r prints it */
static int release_ok(const char *s, size_t max)
{
	size_t i, n = strnlen(s, max);

	if (!n || n == max)
		return 0;
	for (i = 0; i < n; i++)
		if (s[i] <= ' ' || s[i] > '~')
			return 0;
	return 1;
}

/* Is the field @p of @n bytes a string with nothing but NULs after it? */
static int zero_tail(const uint8_t *p, size_t n)
{
	size_t i = strnlen((const char *)p, n);

	for (; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static int fields_ok(const struct efiloc *l)
{
	return (l->kind == EFILOC_UUID || l->kind == EFILOC_PARTUUID) &&
	       id_ok(l->id, sizeof(l->id)) && release_ok(l->release, sizeof(l->release)) &&
	       l->image_format >= 1 && l->image_format <= 255;
}

/**
 * efiloc_encode() - the efivarfs file's bytes for @l: attributes word, then data
 * @l: what to record
 * @out: EFILOC_FILE_SIZE bytes
 * Return: 0, or -EINVAL when a field is out of range (empty, too long, a bad character).
 */
int efiloc_encode(const struct efiloc *l, uint8_t out[EFILOC_FILE_SIZE])
{
	uint8_t *d = out + 4;

	if (!fields_ok(l))
		return -EINVAL;
	memset(out, 0, EFILOC_FILE_SIZE);
	put_le32(out, EFILOC_ATTRS);
	memcpy(d + F_MAGIC, MAGIC, 8);
	put_le16(d + F_VERSION, EFILOC_VERSION);
	put_le16(d + F_SIZE, EFILOC_SIZE);
	d[F_KIND] = (uint8_t)l->kind;
	d[F_FORMAT] = (uint8_t)l->image_format;
	put_le64(d + F_OFFSET, l->offset_pages);
	memcpy(d + F_ID, l->id, strlen(l->id));
	memcpy(d + F_RELEASE, l->release, strlen(l->release));
	put_le32(d + F_CRC, crc32_update(0, d, F_CRC));
	return 0;
}

/**
 * efiloc_decode() - check and read the efivarfs file's bytes
 * @buf: the file's content, attributes word first
 * @len: its length
 * @ret: written only on success
 * Return: 0; -EMSGSIZE for a wrong length; -EBADMSG for bad attributes, magic,
 * CRC or field; -EPROTO for another version of the format.
 */
int efiloc_decode(const uint8_t *buf, size_t len, struct efiloc *ret)
{
	const uint8_t *d = buf + 4;
	struct efiloc l;

	/* another version may have another size: say which */
	if (len >= 4 + F_SIZE && !memcmp(d + F_MAGIC, MAGIC, 8) &&
	    get_le16(d + F_VERSION) != EFILOC_VERSION)
		return -EPROTO;
	if (len != EFILOC_FILE_SIZE || get_le16(d + F_SIZE) != EFILOC_SIZE)
		return -EMSGSIZE;
	if ((get_le32(buf) & EFILOC_ATTRS) != EFILOC_ATTRS || memcmp(d + F_MAGIC, MAGIC, 8))
		return -EBADMSG;
	if (get_le32(d + F_CRC) != crc32_update(0, d, F_CRC) || get_le16(d + F_ZERO) ||
	    !zero_tail(d + F_ID, sizeof(l.id)) || !zero_tail(d + F_RELEASE, sizeof(l.release)))
		return -EBADMSG;
	memset(&l, 0, sizeof(l));
	l.kind = d[F_KIND];
	l.image_format = d[F_FORMAT];
	l.offset_pages = get_le64(d + F_OFFSET);
	memcpy(l.id, d + F_ID, sizeof(l.id));
	memcpy(l.release, d + F_RELEASE, sizeof(l.release));
	if (!fields_ok(&l))
		return -EBADMSG;
	*ret = l;
	return 0;
}

/**
 * efiloc_spec() - the resume= spec the location names: "UUID=..." or "PARTUUID=..."
 * Return: 0, or -ENAMETOOLONG when @len is too small.
 */
int efiloc_spec(const struct efiloc *l, char *out, size_t len)
{
	int n = snprintf(out, len, "%s=%s", l->kind == EFILOC_PARTUUID ? "PARTUUID" : "UUID",
			 l->id);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static void path_of(const char *dir, char *out, size_t len)
{
	snprintf(out, len, "%s/%s", dir, EFILOC_NAME);
}

/**
 * efiloc_read() - read and check the variable in efivarfs directory @dir
 * Return: 0; -ENOENT when there is none; a read error; or efiloc_decode()'s.
 */
int efiloc_read(const char *dir, struct efiloc *ret)
{
	uint8_t buf[EFILOC_FILE_SIZE + 1];
	char path[512];
	ssize_t n;
	size_t got = 0;
	int fd;

	path_of(dir, path, sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	/* one byte more than the format: a longer variable is not ours */
	while (got < sizeof(buf)) {
		n = read(fd, buf + got, sizeof(buf) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			n = -errno;
			close(fd);
			return (int)n;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	return efiloc_decode(buf, got, ret);
}

/* efivarfs makes its files immutable: clear the flag so the file can go */
static void clear_immutable(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	int flags;

	if (fd < 0)
		return;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & FS_IMMUTABLE_FL)) {
		flags &= ~FS_IMMUTABLE_FL;
		(void)ioctl(fd, FS_IOC_SETFLAGS, &flags);
	}
	close(fd);
}

/**
 * efiloc_remove() - delete the variable from efivarfs directory @dir
 * Return: 0 when removed; -ENOENT when there was none; -errno.
 */
int efiloc_remove(const char *dir)
{
	char path[512];

	path_of(dir, path, sizeof(path));
	clear_immutable(path);
	if (unlink(path) < 0)
		return -errno;
	return 0;
}

/**
 * efiloc_write() - set the variable in efivarfs directory @dir to @l, replacing any,
 * and read it back
 * Return: 0; -EINVAL for a field out of range; -EIO when what is read back differs;
 * -errno.  On failure no variable is left behind (unless it cannot be removed).
 */
int efiloc_write(const char *dir, const struct efiloc *l)
{
	uint8_t buf[EFILOC_FILE_SIZE];
	struct efiloc back;
	char path[512];
	ssize_t n;
	int fd, r;

	r = efiloc_encode(l, buf);
	if (r < 0)
		return r;
	r = efiloc_remove(dir);
	if (r < 0 && r != -ENOENT)
		return r;
	path_of(dir, path, sizeof(path));
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	/* efivarfs takes the whole variable in one write() */
	n = write(fd, buf, sizeof(buf));
	r = n < 0 ? -errno : (size_t)n != sizeof(buf) ? -EIO : 0;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0)
		r = efiloc_read(dir, &back);
	if (r == 0 && (back.kind != l->kind || back.offset_pages != l->offset_pages ||
		       back.image_format != l->image_format || strcmp(back.id, l->id) ||
		       strcmp(back.release, l->release)))
		r = -EIO;
	if (r < 0)
		(void)efiloc_remove(dir);
	return r;
}
