/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hibernate.h - torpor-suspend's hibernation: its main sequence (hibernate.c)
 * and the checks before it that the image file's run reuses (hostcheck.c,
 * areacheck.c, bootready.c)
 */
#ifndef SUSPEND_HIBERNATE_H
#define SUSPEND_HIBERNATE_H

#include <stdint.h>
#include <sys/types.h>

#include "config.h"
#include "packpool.h"

struct hib_opts {
	char resume[256];		/* resume device spec, "" if none */
	uint64_t offset;		/* resume_offset in pages */
	int has_offset;
	enum config_poweroff poweroff;	/* after the commit: shutdown, reboot, platform, hybrid */
	int check_only;			/* --check: resolve and verify, do not hibernate */
	int no_progress;		/* no "saving image: N%" lines */
	enum config_image_size image_size_mode;	/* how /sys/power/image_size is set */
	uint64_t image_size;		/* CONFIG_IMAGE_SIZE_BYTES: the bytes */
	struct pack_setting pack;	/* compression */
	unsigned threads;		/* compression threads, 0 = one per online CPU */
	char initramfs[CONFIG_PATH_MAX];	/* the next boot's initramfs, "" to find it */
	int no_initramfs;		/* --check --no-initramfs: leave it out */
	const char *initramfs_tree;	/* --initramfs-tree: the one being built, NULL */
	int initramfs_checked;		/* the image file's run checked it already */
	int warm_back;			/* after the thaw, bring back what was evicted */
};

struct hib_target;

/* hibernate.c */
int hibernate_run(const struct hib_opts *o);
int hibernate_preflight(const struct hib_opts *o, struct hib_target *t);

/* hostcheck.c */
int hibernate_check_namespaces(void);

/* areacheck.c */
int hibernate_resolve(const struct hib_opts *o, struct hib_target *t);
int hibernate_check_answers(dev_t dev, const char *what);
int hibernate_take_conf_area(struct hib_opts *o, int fallback);

/* bootready.c */
int hibernate_check_next_boot(const struct hib_target *t, const char *spec);
int hibernate_check_initramfs(const struct hib_opts *o, int unnamed, dev_t dev);
uint64_t hibernate_next_initramfs_bytes(void);
struct initramfs_report;
int hibernate_efi_names(const struct initramfs_report *rep);

/* checksay.c */
void hibernate_say_ambiguous(const char *spec);

#endif
