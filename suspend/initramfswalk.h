/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * initramfswalk.h - the initramfs check's record of the entries that matter,
 * kept while the archives stream by (initramfswalk.c): filled by the reader
 * (initramfs.c), looked up by the judge (initramfsjudge.c).  Nothing here prints.
 */
#ifndef SUSPEND_INITRAMFSWALK_H
#define SUSPEND_INITRAMFSWALK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cpio.h"
#include "image.h"

#define WALK_FILES_MAX		64	/* recorded candidates */
#define WALK_HARDLINKS_MAX	4096	/* hard-linked files with a marker */
#define WALK_MARKER_TAIL	32	/* the formats after the prefix, at most */
/*
 * In a file's formats, bit 0 (no image format is 0): it carries EFILOC_MARKER,
 * it reads the EFI variable TorporHibernateLocation (core/efiloc.h)
 */
#define WALK_FORMATS_EFI	(1ull << 0)
#define WALK_VERSION_MAX	32	/* torpor-resume's release, with the NUL */
/* its version line, VERSION_LINE("torpor-resume") (core/version.h) */
#define WALK_VERSION_PREFIX	"torpor-resume "
#define WALK_VERSION_SUFFIX	" (image format "
#define TORPOR_UNIT		"torpor-restore.service"	/* runs it where systemd is /init */

enum role {
	R_RESUME,			/* named torpor-resume */
	R_ITOOLS_HOOK,
	R_ITOOLS_ORDER,
	R_DRACUT_HOOK,
	R_CPIO_HOOK,			/* mkinitcpio's hooks/torpor */
	R_CPIO_CONFIG,			/* mkinitcpio's /config */
	R_INIT,				/* /init: a shell script, or systemd */
	R_DRACUT_UNIT,			/* dracut-pre-mount.service: runs the hooks under systemd */
	R_UNIT,				/* a file or link named torpor-restore.service */
	R_UNIT_WANTS,			/* one in initrd.target.wants/ or .requires/ */
	R_UNIT_DROPIN,			/* torpor-restore.service.d/NAME.conf */
	R_ITOOLS_CONF,			/* conf/initramfs.conf, conf/conf.d/NAME: RESUME= */
};

struct file {
	char *path;			/* normalized: no leading '/', no "." or "//" */
	enum role role;
	uint64_t seq;			/* the entry's number: the last one wins */
	uint32_t mode, nlink, ino, devmajor, devminor, size;
	uint64_t formats;		/* R_RESUME: from the marker */
	int marked;
	char version[WALK_VERSION_MAX];	/* R_RESUME: from its version line, "" if none */
	char *text;			/* the others: the start of the data */
	size_t text_len;
};

struct symlink {
	char *path;
	char *target;
};

struct hardlink {
	uint32_t ino, devmajor, devminor;
	uint64_t formats;
	char version[WALK_VERSION_MAX];
};

struct walk {
	struct file files[WALK_FILES_MAX];
	size_t nr_files;
	int files_cut;			/* more candidates than WALK_FILES_MAX */
	struct symlink *links;
	size_t nr_links, links_cap, links_bytes;
	int links_cut;
	struct hardlink hard[WALK_HARDLINKS_MAX];
	size_t nr_hard;
	unsigned hosts;
	/* the entry whose data comes in now */
	struct file *cur;		/* its record, NULL for a symlink or a hard link */
	int scan;			/* look for the marker in it */
	uint64_t cur_formats;
	int cur_marked;
	char cur_version[WALK_VERSION_MAX];
	/* the longer of a marker and a version line: one cut at a window's end is whole in
	   the next */
	uint8_t carry[sizeof(WALK_VERSION_PREFIX) + WALK_VERSION_MAX + sizeof(WALK_VERSION_SUFFIX)];
	size_t carry_len;
	char target[CPIO_NAME_MAX];	/* a symlink's target, as it comes */
	int is_symlink;
	uint64_t seq;
	int nomem;
};

/* Does @s end with @tail? */
static inline int ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && !strcmp(s + a - b, tail);
}

/* cpio_entry_fn and cpio_data_fn (cpio.h), @ctx a struct walk: what to keep */
int walk_on_entry(void *ctx, const struct cpio_entry *e);
int walk_on_data(void *ctx, const struct cpio_entry *e, const uint8_t *p, size_t n, uint32_t off);

/* Free what the walk kept (not @w itself). */
void walk_free(struct walk *w);

/*
 * walk_normalize() - @s in place: no leading "/" or "./", no "." or empty
 * components, ".." taken lexically (at the top it stays at the top, as in the
 * kernel's walk)
 */
void walk_normalize(char *s);

/*
 * walk_resolve() - follow the image's symlinks in @path (normalized), in place,
 * the last component too; @len is the buffer's size.
 * Return: 0, -ENAMETOOLONG or -ELOOP.
 */
int walk_resolve(const struct walk *w, char *path, size_t len);

/*
 * walk_last_at() - the record of @role whose path leads to @want (normalized
 * and resolved): the last entry of any path that does; NULL when none does
 */
const struct file *walk_last_at(const struct walk *w, enum role role, const char *want);

#endif
