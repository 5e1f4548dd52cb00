/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * latecheck.h - the restored torpor-suspend reads the filesystems' stamps again
 * before it thaws
 *
 * torpor-resume cannot check a filesystem the initramfs does not see (a /home
 * that systemd-cryptsetup unlocks after the switch to the real root, an LVM
 * volume it does not activate, a USB disk): it leaves it to this check, and
 * writes the image's stamps into the swap header page as it invalidates the
 * image (image.h, struct torpor_late).  When CREATE_IMAGE returns 0 in the
 * restored system, everything but this process is still frozen and the
 * devices exist again as they were at hibernation: the note is read back
 * through the swap device's descriptor and each stamp it names through the
 * descriptors restamp_open() opened before the freeze, into its buffer; no
 * path is looked up and nothing is allocated.
 *
 * The reads run on a thread of their own (started like the flusher's, with a
 * stack allocated before the freeze: the freezing task's threads are not
 * frozen), one after another, and the caller gives each read at most @read_ms
 * and the whole check at most @total_ms: a device that does not answer must
 * not hold the machine for ever, and disks that each spin up for seconds after
 * the resume must not add up to a reboot.  The thread is joined and seen
 * released before latecheck_run() returns, except after a timeout (then the
 * caller reboots without thawing; a thread stuck in a read is no matter then).
 */
#ifndef SUSPEND_LATECHECK_H
#define SUSPEND_LATECHECK_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "image.h"
#include "monoclock.h"
#include "restamp.h"

enum late_outcome {
	LATE_NO_NOTE = 0,	/* no note: an older torpor-resume checked every one at boot */
	LATE_SAME,		/* every stamp named is as the image recorded it: thaw */
	LATE_GONE,		/* the others the same, a device is gone (ENODEV, ENXIO,
				 * or EIO with no capacity left): the resumed system
				 * cannot write it either: thaw */
	LATE_MOVED,		/* one was mounted since, or holds another filesystem:
				 * reboot without thawing */
	LATE_TIMEOUT,		/* a read did not answer in time: reboot without thawing */
	LATE_UNCHECKABLE,	/* the note cannot be read or is another image's, a device
				 * was never opened or fails reads, or a btrfs not seen at
				 * boot cannot be proven whole (a device of it gone, a copy,
				 * fewer than it has): reboot without thawing */
};

struct latecheck {
	/* set by latecheck_init(), before the freeze */
	const struct restamp *rs;
	const struct torpor_fsrec *fs;	/* the table as before the freeze: dev, kind, uuid */
	uint32_t nr_fs;
	uint64_t created;		/* the image's meta.created */
	int dev_fd;			/* the swap device, and where its header page is */
	uint64_t header_offset;
	uint32_t ps;
	uint8_t *page;			/* ps bytes, touched */
	int page_read;			/* page holds the header page as read now (atomic) */
	void *stack;			/* the thread's, touched */
	size_t stack_bytes;
	struct image_late note;		/* the note as read */
	/* the reader, fsstamp_read_buf(); tests replace it */
	int (*read_stamp)(int fd, uint8_t *buf, uint64_t log_head, struct torpor_fsrec *ret);
	/* the device's capacity after an EIO, devname_size(); tests replace it */
	int (*dev_size)(int fd, unsigned long long *ret_bytes);
	/* the clock of the deadlines, mono_ns(); tests replace it */
	uint64_t (*clock_ns)(void);
	/* the outcome, valid after latecheck_run() */
	enum late_outcome outcome;
	enum late_outcome result;	/* the thread's answer */
	int at;				/* the record read last or deciding, -1: the note (atomic) */
	uint32_t at_dev;		/* its device read last or deciding (atomic): a btrfs's
					 * may be another than the record's */
	uint64_t read_t0;		/* when the read under way began (atomic) */
	int over_total;			/* LATE_TIMEOUT: the whole check's bound ended it */
	int err;			/* its -errno */
	uint32_t gone_at;		/* LATE_GONE: the first gone one, and its -errno */
	int gone_err;
	struct torpor_fsrec then, now;	/* LATE_MOVED: the image's stamp and the disk's */
	uint64_t num_devices;		/* LATE_UNCHECKABLE for a btrfs: how many it has, */
	uint32_t devices_read;		/* how many of them were read, */
	uint32_t member_gone;		/* how many are gone (err: the first one's -errno) */
	uint32_t checked, unseen, gone;	/* entries read, of them not seen at boot, gone */
	uint64_t ns;			/* how long the check took */
	uint64_t t_note_ns, t_read_ns;	/* of it, reading the note, reading the stamps */
	int lingering;			/* the thread was still known a second after it ended */
	int done;			/* the thread finished (atomic) */
	pid_t tid;			/* its kernel id */
	pthread_t thread;
};

int latecheck_init(struct latecheck *lc, const struct restamp *rs,
		   const struct torpor_fsrec *fs, uint32_t nr_fs, uint64_t created, int dev_fd,
		   uint64_t header_offset, uint32_t ps);
enum late_outcome latecheck_run(struct latecheck *lc, int read_ms, int total_ms);
void latecheck_free(struct latecheck *lc);

#endif
