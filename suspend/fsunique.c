// SPDX-License-Identifier: GPL-2.0-only
/*
 * fsunique.c - each stamped filesystem where the next boot will look for it
 *
 * torpor-resume finds each recorded filesystem by its UUID, reading the
 * devices (resume/fscheck.c fscheck_filesystems()): an ext or xfs one must be on
 * exactly one device, and each device of a btrfs one must be a different
 * device of it (check_btrfs()).  A copy (an LVM snapshot of the root, a cloned
 * disk attached) makes it discard the image, and the session is lost.  So the
 * same lookup is made before the freeze, while torpor-suspend can still refuse.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "devname.h"
#include "fsstamp.h"
#include "fsunique.h"

/* struct torpor_fsrec's device number: major << 20 | minor */
static dev_t rec_dev(uint32_t key)
{
	return makedev(key >> 20, key & 0xfffff);
}

/*
 * Did the last lookup leave a device unread for want of a reader process?
 * Then @c names it (the only device in it) and why: 1; else 0.
 */
static int no_reader(struct fsunique_clash *c)
{
	struct devname_skip k[16];
	size_t n = devname_skipped(k, 16), i;

	for (i = 0; i < n && i < 16; i++) {
		if (k[i].reason != DEVNAME_SKIP_NOREADER)
			continue;
		c->devs[0] = k[i].dev;
		c->n = 1;
		c->err = k[i].err;
		return 1;
	}
	return 0;
}

/*
 * Keep in @c only the devices that show the same btrfs device id as another
 * (a copy); FSUNIQUE_COPY when there are such, FSUNIQUE_ALONE when each is a
 * device of its own, FSUNIQUE_UNREAD when one could not be read for want of a
 * reader process (no_reader()).  Each
 * id is read as check_btrfs() reads it, by the lookups' reader process: one
 * that does not answer is named to @after_lookup(@what), and left out.
 */
static enum fsunique_result btrfs_copies(struct fsunique_clash *c,
					 void (*after_lookup)(const char *what), const char *what)
{
	uint64_t ids[FSUNIQUE_DEVS_MAX];
	int ok[FSUNIQUE_DEVS_MAX], dup[FSUNIQUE_DEVS_MAX];
	struct devname_stamp st;
	size_t i, j, n = 0;

	for (i = 0; i < c->n; i++) {
		ok[i] = devname_read_stamp(c->devs[i], FSSTAMP_NO_LOG_HEAD, &st) == 0 &&
			st.rec.kind == TORPOR_FS_BTRFS;
		ids[i] = ok[i] ? st.btrfs_devid : 0;
		dup[i] = 0;
		if (after_lookup)
			after_lookup(what);
		if (no_reader(c))
			return FSUNIQUE_UNREAD;
	}
	for (i = 0; i < c->n; i++)
		for (j = i + 1; j < c->n; j++)
			if (ok[i] && ok[j] && ids[i] == ids[j])
				dup[i] = dup[j] = 1;
	for (i = 0; i < c->n; i++)
		if (dup[i])
			c->devs[n++] = c->devs[i];
	c->n = n;
	return n > 0 ? FSUNIQUE_COPY : FSUNIQUE_ALONE;
}

/* fsunique_check() of filesystem @f, @c's index set; @c filled but for FSUNIQUE_ALONE */
static enum fsunique_result check_one(const struct torpor_fsrec *f,
				      void (*after_lookup)(const char *what),
				      struct fsunique_clash *c)
{
	char uuid[37], spec[48], what[64];
	int r;

	fsstamp_uuid_str(f->uuid, uuid);
	snprintf(spec, sizeof(spec), "UUID=%s", uuid);
	snprintf(what, sizeof(what), "filesystem %s", uuid);
	c->mounted = rec_dev(f->dev);
	r = devname_resolve_all(spec, c->devs, FSUNIQUE_DEVS_MAX, &c->n);
	if (after_lookup)
		after_lookup(what);
	if (no_reader(c))
		return FSUNIQUE_UNREAD;
	if (r < 0 || c->n == 0)
		return FSUNIQUE_ALONE;
	if (f->kind == TORPOR_FS_BTRFS)
		return c->n < 2 ? FSUNIQUE_ALONE : btrfs_copies(c, after_lookup, what);
	return c->n == 1 && c->devs[0] == c->mounted ? FSUNIQUE_ALONE : FSUNIQUE_COPY;
}

/**
 * fsunique_check() - would the next boot find each filesystem of @fs on its own?
 * @fs: the stamps (mounts_collect())
 * @nr_fs: how many
 * @after_lookup: called after each lookup with what was looked for, so that
 *                the caller can name the devices it skipped (devname_skipped())
 * @ret: the first one that it would not find alone, unless FSUNIQUE_ALONE is returned
 *
 * An ext or xfs filesystem must be on exactly one device, by content, and that
 * the one it is mounted from; no two devices of a btrfs may show the same
 * device id.  One that no device shows by content is left to the boot's wait.
 * A device that could not be read for want of a reader process (fork() or
 * pipe() failed: memory or a process limit short) might carry a copy that the
 * next boot, able to read it, would find: that is a failure too.
 * Return: FSUNIQUE_ALONE (0); FSUNIQUE_COPY with *@ret; FSUNIQUE_UNREAD with
 * *@ret naming that device alone and, in its err, the -errno of fork() or
 * pipe().
 */
enum fsunique_result fsunique_check(const struct torpor_fsrec *fs, uint32_t nr_fs,
		   void (*after_lookup)(const char *what), struct fsunique_clash *ret)
{
	struct fsunique_clash c;
	enum fsunique_result r;
	uint32_t i;

	for (i = 0; i < nr_fs; i++) {
		memset(&c, 0, sizeof(c));
		c.index = i;
		r = check_one(&fs[i], after_lookup, &c);
		if (r != FSUNIQUE_ALONE) {
			*ret = c;
			return r;
		}
	}
	return FSUNIQUE_ALONE;
}
