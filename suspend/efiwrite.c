// SPDX-License-Identifier: GPL-2.0-only
/*
 * efiwrite.c - torpor-suspend's side of TorporHibernateLocation: can this boot
 * record the area in an EFI variable, and what it records (core/efiloc.h)
 *
 * Without resume= on the kernel command line, the next boot's torpor-resume
 * finds the area by the variable: written before the freeze (hibernate.c),
 * removed by torpor-resume when it reads it, and by torpor-suspend again after
 * a failure or the resume.  A hibernation that does not write it removes one
 * left behind (efiwrite_settle()): a boot whose initramfs does not read it
 * leaves it, and torpor-resume takes it over the initramfs's RESUME=.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "devname.h"
#include "devread.h"
#include "efiwrite.h"
#include "image.h"
#include "probe.h"
#include "target.h"

#define EFIVARFS_MAGIC 0xde5e81e4u

const char *efiwrite_dir = EFILOC_DIR;

/**
 * efiwrite_usable() - can torpor-suspend write the variable: an EFI boot with
 * efivarfs mounted writable at efiwrite_dir (a test's directory is taken as it is).
 * An ordinary user (--check, --status) cannot write it, root could: the mount's
 * read-only flag decides for that user.
 * Return: 1 or 0.
 */
int efiwrite_usable(void)
{
	struct statfs st;

	if (statfs(efiwrite_dir, &st) < 0 || (st.f_flags & ST_RDONLY) ||
	    (geteuid() == 0 && access(efiwrite_dir, W_OK) < 0))
		return 0;
	return strcmp(efiwrite_dir, EFILOC_DIR) || (unsigned int)st.f_type == EFIVARFS_MAGIC;
}

/**
 * efiwrite_plan() - the location to record for the area @t: its UUID (a swap
 * partition's mkswap UUID, a swap file's filesystem's), its offset, this kernel
 * @ret: the location
 * @ret_spec: "UUID=...", for messages (@len bytes)
 * Return: 0; -ENOENT when the area has no UUID; -ENOTUNIQ when the UUID does not
 * name @t's device alone (a copy of the disk: the next boot would discard the
 * image); -errno from the probe.  Does not log.
 */
int efiwrite_plan(const struct hib_target *t, struct efiloc *ret, char *ret_spec, size_t len)
{
	struct probe_id id;
	struct efiloc l;
	struct utsname u;
	char hex[33];
	dev_t named;
	int r;

	memset(&id, 0, sizeof(id));
	r = devname_probe(t->dev, &id);
	if (r < 0)
		return r;
	if (r == 0 || !id.has_uuid)
		return -ENOENT;
	if (uname(&u) < 0)
		return -errno;
	memset(&l, 0, sizeof(l));
	l.kind = EFILOC_UUID;
	probe_uuid_hex(id.uuid, hex);
	snprintf(l.id, sizeof(l.id), "%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12,
		 hex + 16, hex + 20);
	l.offset_pages = t->offset_pages;
	snprintf(l.release, sizeof(l.release), "%s", u.release);
	l.image_format = TORPOR_FORMAT_VERSION;
	r = efiloc_spec(&l, ret_spec, len);
	if (r < 0)
		return r;
	r = devname_resolve(ret_spec, &named);
	if (r == 0 && named != t->dev)
		r = -ENOTUNIQ;
	if (r < 0)
		return r;
	*ret = l;
	return 0;
}

/**
 * efiwrite_settle() - before the freeze, make the variable say what the next
 * boot must read: @t->efi when @t->efi_location, else nothing (a variable left
 * by an earlier hibernation whose boot did not read it goes)
 * Return: 0 when written, or when there was nothing to remove; 1 when a
 * leftover was removed; -errno (efiloc_write(), efiloc_remove()).  Does not log.
 */
int efiwrite_settle(const struct hib_target *t)
{
	int r;

	if (t->efi_location)
		return efiloc_write(efiwrite_dir, &t->efi);
	r = efiloc_remove(efiwrite_dir);
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	return r < 0 ? r : 1;
}
