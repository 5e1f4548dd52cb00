/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * status.h - torpor-suspend --status: the facts of this machine's setup, read
 * only, gathered by status.c (statusimage.c, statusinitrd.c, logindask.c),
 * judged by statusjudge.c and told by statussay.c, as lines for people or one
 * JSON object
 */
#ifndef SUSPEND_STATUS_H
#define SUSPEND_STATUS_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "confarea.h"
#include "hibernate.h"
#include "image.h"
#include "initramfs.h"
#include "nextboot.h"
#include "target.h"

#define STATUS_INITRD_MAX	16	/* kernels listed; more are counted */
#define STATUS_TEXT_MAX		320	/* the problem, the hint */

/* Where the facts are read: the running system's places, or a test's */
struct status_env {
	const char *cmdline;		/* "/proc/cmdline" */
	const char *boot_dir;		/* "/boot": the initramfs of each installed kernel */
	const char *unit_root;		/* "": prefixed to systemd's unit directories */
	const char *busctl;		/* "busctl", looked up in PATH */
	int logind_timeout_ms;		/* the bound on logind's answer */
	const char *decompress_path;	/* where the initramfs decompressors are: DECOMPRESS_PATH */
	int initrd_budget_ms;		/* the bound on reading all the initramfs files */
	const char *swaps;		/* NULL: "/proc/swaps" */
	int is_root;			/* as root, the area's header and /boot are read */
	time_t now;			/* for the image's age */
};

/* What the swap area's header page holds now */
enum status_image {
	STATUS_IMAGE_UNREAD,		/* not read: needs root, or no area (->image_err) */
	STATUS_IMAGE_NONE,		/* a plain swap signature */
	STATUS_IMAGE_TORPOR,		/* a torpor image, its root and map checked */
	STATUS_IMAGE_DAMAGED,		/* torpor's signature, a root or map that fails its checks */
	STATUS_IMAGE_KERNEL,		/* the kernel's own writer's (or uswsusp's) image */
	STATUS_IMAGE_OTHER,		/* neither swap nor an image */
};

struct status_image_seen {
	enum status_image state;
	int err;			/* UNREAD, DAMAGED: why (-errno) */
	uint32_t version;		/* TORPOR, DAMAGED: the root's format version */
	uint64_t bytes;			/* TORPOR: stored data plus the map */
	uint64_t created;		/* TORPOR: seconds since the epoch */
	char release[TORPOR_UTS_LEN];	/* TORPOR: uname -r of the hibernated kernel */
	int lost;			/* NONE: the last hibernation was not resumed: */
	struct torpor_lost note;	/* its note (image.h), texts NUL-terminated */
};

struct status_initrd {
	char release[TORPOR_UTS_LEN];	/* the kernel it boots; "" when unknown (a UKI) */
	char path[PATH_MAX];
	int err;			/* initramfs_inspect()'s -errno, 0 when judged */
	enum initramfs_verdict verdict;
	uint64_t formats;		/* the torpor-resume there reads format N (bit N) */
	char version[32];		/* its release, from its version line; "" if none */
	unsigned hook_host;
	int unit;
	int uki;
	char resume_conf[256];		/* initramfs-tools' RESUME= (report's) */
	int resume_conf_unsure;
};

struct status {
	int is_root;
	int snapshot_err;		/* /dev/snapshot and /sys/power/disk: 0 or -errno */
	/* the area the next hibernation writes */
	char spec[256];			/* resume= (or the image file), "" for none */
	const char *spec_from;		/* where it was named, in words */
	const char *image_file;		/* the image file, NULL for a swap area */
	int area_err;			/* 0 found; -errno; -ENODEV not an active area */
	struct hib_target area;		/* area_err == 0 */
	/* the area the next boot reads */
	int cmdline_err;		/* reading /proc/cmdline */
	enum nextboot_result next;	/* area_err == 0 */
	struct nextboot nb;
	int next_by_conf;		/* UNNAMED, but initramfs-tools' RESUME= names the area */
	int next_by_efi;		/* UNNAMED, but the EFI variable will (hibernate_efi_names()) */
	int zram_only;			/* every active swap area is zram (none on a disk) */
	int area_by_efi;		/* nothing names it: the only active swap area, for the variable */
	/* the initramfs the next boot runs (initramfs_find_next()), read by the scan */
	int next_seen;			/* it was read (or tried): ->next_err, ->conf.rep */
	int next_err;			/* initramfs_inspect()'s -errno, 0 when read */
	/* its RESUME=, asked when nothing else names the area or the next boot's */
	int by_conf;			/* asked: ->conf_res, ->conf */
	enum confarea_result conf_res;
	struct confarea conf;		/* ->path, ->rep: the next boot's initramfs */
	char conf_from[96];		/* "RESUME= in the initramfs's conf/conf.d/resume" */
	/* the image there now */
	struct status_image_seen image;
	/* each installed kernel's initramfs */
	struct status_initrd initrd[STATUS_INITRD_MAX];
	size_t nr_initrd, initrd_more;
	size_t initrd_orphans;		/* left out: their kernel is not installed */
	int boot_err;			/* reading the boot directory */
	int initrd_unchecked;		/* 'initramfs = none' in torpor.conf: none read */
	/* systemctl hibernate, logind */
	char dropin[PATH_MAX];		/* the torpor-sleep drop-in found, "" for none */
	char can_hibernate[32];		/* logind's answer, "" when none came */
	char logind_why[96];		/* why none came */
	/* the verdict */
	int ready;			/* 1 ready, 0 not (or not known: not root) */
	char problem[STATUS_TEXT_MAX];	/* the first problem, "" when ready */
	char hint[STATUS_TEXT_MAX];	/* its fix */
};

/* status.c */
void status_collect(const struct status_env *env, const struct hib_opts *o, const char *spec_from,
		    const char *image_file, struct status *ret);

/* statusjudge.c */
void status_judge(struct status *s);
const char *status_initrd_words(const struct status_initrd *d);
const char *status_conf_words(const struct status *s, char *buf, size_t len);

/* statusimage.c */
void status_image_read(int fd, uint64_t dev_bytes, uint64_t header_offset, uint32_t page_size,
		       struct status_image_seen *ret);
void status_image_read_dev(dev_t dev, uint64_t offset_pages, uint32_t page_size, unsigned int ms,
			   struct status_image_seen *ret);
/* how the reader opens the area: devname_open(); tests open a file */
extern int (*status_image_open)(dev_t dev, int flags);
/* the bound on reading the area's header and map */
#define STATUS_IMAGE_MS		10000

/* statusinitrd.c */
void status_initrd_scan(const char *boot_dir, const char *only, const char *next,
			const char *tool_dirs, int budget_ms, struct status *s);
/* the bound on reading every initramfs file: each has INITRAMFS_TIMEOUT_MS, all of them this */
#define STATUS_INITRD_BUDGET_MS	(2 * INITRAMFS_TIMEOUT_MS)

/* logindask.c */
int logind_can_hibernate(const char *busctl, int timeout_ms, char *buf, size_t len);

/* statussay.c */
void status_print(FILE *f, const struct status *s, time_t now);
void status_print_json(FILE *f, const struct status *s, time_t now);

#endif
