/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * confarea.h - the swap area the next boot's initramfs names itself, when
 * nothing else does: initramfs-tools' RESUME= (confarea.c)
 */
#ifndef SUSPEND_CONFAREA_H
#define SUSPEND_CONFAREA_H

#include <limits.h>
#include <stdint.h>

#include "initramfs.h"
#include "target.h"

enum confarea_result {
	CONFAREA_FOUND,		/* ->spec names ->target, an active swap area */
	CONFAREA_CMDLINE,	/* the command line has resume=: it names the area, not read */
	CONFAREA_NORESUME,	/* the command line has noresume: not read */
	CONFAREA_UNREAD,	/* the initramfs was not found or read: ->err */
	CONFAREA_NOT_ITOOLS,	/* no torpor-resume run by initramfs-tools' hook (->rep) */
	CONFAREA_UNSET,		/* RESUME= is not set */
	CONFAREA_NONE,		/* RESUME=none */
	CONFAREA_UNSURE,	/* RESUME= is not read here ($, quotes inside, too long) */
	CONFAREA_NOT_NAME,	/* RESUME= is no device name (auto, a MAJ:MIN, ...) */
	CONFAREA_NO_DEVICE,	/* it names no device here: ->err (-ENOTUNIQ: several) */
	CONFAREA_NOT_SWAP,	/* it names ->dev, no active swap area: ->err, a target_match */
	CONFAREA_NO_OFFSET,	/* a swap file (->target), and no resume_offset= */
};

struct confarea {
	char path[PATH_MAX];		/* the initramfs read */
	struct initramfs_report rep;	/* what it holds; ->rep.resume_conf is the spec */
	const char *spec;		/* FOUND, NO_DEVICE, NOT_SWAP, NO_OFFSET: RESUME='s value */
	dev_t dev;			/* NOT_SWAP: the device it names */
	int err;			/* UNREAD, NO_DEVICE: -errno; NOT_SWAP: target_find()'s */
	struct hib_target target;	/* FOUND, NO_OFFSET: the area */
};

/**
 * confarea_find() - the area the next boot looks at when its command line has
 * no resume=: initramfs-tools' RESUME=, which torpor's boot script passes to
 * torpor-resume (hook/scripts/local-top/torpor), with resume_offset= from the
 * command line (initramfs-tools reads no offset from its configuration)
 * @cmdline_path: "/proc/cmdline" (tests: a file); unreadable: no resume=
 * @initramfs: the next boot's initramfs, "" to find the running kernel's
 *             (initramfs_find_next())
 * @resume_bin: where torpor-resume is installed
 * @ret: what was found
 *
 * Reads the initramfs only when the command line has neither resume= nor
 * noresume.  RESUME= is taken only when it is sure (initramfsjudge.c reads it)
 * and a device name the boot resolves: UUID=, PARTUUID=, LABEL=, PARTLABEL=,
 * or /dev/...  Nothing printed.
 * Return: the outcome; never fails otherwise.
 */
enum confarea_result confarea_find(const char *cmdline_path, const char *initramfs,
				   const char *resume_bin, struct confarea *ret);

#endif
