// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-confarea.c - the area the next boot's initramfs names when nothing else
 * does (initramfs-tools' RESUME=): fake initramfs images (cpio), a fake /sys
 * and /dev (fakesysfs.h), a fake /proc/swaps and command line.  Taken: a sure
 * RESUME= device name of an active swap area (a swap file with resume_offset=
 * on the command line).  Not taken: RESUME=none, unset, unsure or no device
 * name, a device that is no active swap area, a swap file without
 * resume_offset=, an image without initramfs-tools' hook; resume= on the
 * command line wins, and noresume reads nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "confarea.h"
#include "devname.h"
#include "fakesysfs.h"
#include "image.h"
#include "tap.h"
#include "target.h"

#define U_FS	"5c0ffee0-1111-4222-8333-444455556666"	/* the swap file's filesystem */
#define U_PART	"5c0ffee0-1111-4222-8333-444455558888"	/* a swap partition (udev's link) */
#define U_DISK	"5c0ffee0-1111-4222-8333-444455557777"	/* a device with no swap on it */

static const char *bin = "/usr/lib/torpor/torpor-resume";

static void sh(const char *cmd)
{
	if (system(cmd) != 0)
		die(cmd);
}

/* A swap header carrying @uuid on fake device @rel (as probe.c reads mkswap's) */
static void swap_header(const char *rel, const char *uuid)
{
	size_t len = 16 * 4096;
	uint8_t *b = calloc(1, len);

	if (!b)
		die("calloc");
	b[1024] = 1;				/* version */
	b[1028] = 15;				/* last_page */
	uuid_bytes(uuid, b + 1024 + 12);
	memcpy(b + 4096 - 10, "SWAPSPACE2", 10);
	put_file(rel, b, len);
	free(b);
}

/*
 * Image @name.cpio: torpor-resume of this format, initramfs-tools' hook
 * (@hook) and conf/conf.d/resume holding @conf (NULL: none)
 */
static void image(const char *name, int hook, const char *conf)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd),
		 "t=%s/%s && rm -rf $t && mkdir -p $t/usr/lib/torpor $t/conf/conf.d && "
		 "ln -s usr/lib $t/lib && echo 'MODULES=most' >$t/conf/initramfs.conf && "
		 "printf 'x%s\\0y' >$t%s && chmod 755 $t%s", root, name,
		 TORPOR_RESUME_MARKER, bin, bin);
	sh(cmd);
	if (hook) {
		snprintf(cmd, sizeof(cmd),
			 "t=%s/%s && mkdir -p $t/scripts/local-top && "
			 "printf '#!/bin/sh\\ntorpor=%s\\n' >$t/scripts/local-top/torpor && "
			 "chmod 755 $t/scripts/local-top/torpor", root, name, bin);
		sh(cmd);
	}
	if (conf) {
		snprintf(cmd, sizeof(cmd), "printf '%%s\\n' '%s' >%s/%s/conf/conf.d/resume", conf,
			 root, name);
		sh(cmd);
	}
	snprintf(cmd, sizeof(cmd), "cd %s/%s && find . | LC_ALL=C sort | "
		 "cpio -o -H newc --quiet >%s/%s.cpio", root, name, root, name);
	sh(cmd);
}

/* confarea_find() with command line @line and image @name.cpio */
static enum confarea_result find(const char *line, const char *name, struct confarea *a)
{
	char cmdline[300], path[300];

	snprintf(cmdline, sizeof(cmdline), "%s/cmdline", root);
	snprintf(path, sizeof(path), "%s/%s.cpio", root, name);
	put_text("cmdline", line);
	return confarea_find(cmdline, path, bin, a);
}

int main(void)
{
	char swaps[300], swapfile[300], text[700], line[100];
	struct confarea *a = calloc(1, sizeof(*a));
	enum confarea_result r;
	uint64_t page = 7;
	int oerr = 0;
	struct stat st;
	dev_t fs;

	snprintf(root, sizeof(root), "/tmp/test-confarea.XXXXXX");
	if (!a || !mkdtemp(root) || system("command -v cpio >/dev/null") != 0) {
		printf("not ok 1 - confarea: setup (a directory, cpio)\n");
		return 1;
	}
	devname_root = root;
	/* the swap file's filesystem is a fake device that carries U_FS */
	snprintf(swapfile, sizeof(swapfile), "%s/swapfile", root);
	put_text("swapfile", "not read: its page comes from resume_offset=\n");
	if (stat(swapfile, &st) < 0)
		die("stat");
	fs = st.st_dev;
	/* the page the file begins at, where FIEMAP tells: resume_offset= must say it */
	if (target_file_location(swapfile, &fs, &oerr, &page) != 1 || fs != st.st_dev)
		die("target_file_location");
	if (oerr < 0)
		page = 7;
	snprintf(line, sizeof(line), "root=/dev/vda ro resume_offset=%llu\n",
		 (unsigned long long)page);
	add_block("vdf", NULL, 0, major(fs), minor(fs), 128);
	swap_header("dev/vdf", U_FS);
	add_block("vdg", NULL, 0, 254, 96, 128);
	swap_header("dev/vdg", U_DISK);
	snprintf(swaps, sizeof(swaps), "%s/swaps", root);
	snprintf(text, sizeof(text), "Filename Type Size Used Priority\n%s file 1024 0 -2\n"
		 "%s/dev/swapnode partition 2048 0 -3\n", swapfile, root);
	put_text("swaps", text);
	target_swaps = swaps;

	image("uuid", 1, "RESUME=UUID=" U_FS);
	r = find(line, "uuid", a);
	tap_ok(r == CONFAREA_FOUND && !strcmp(a->spec, "UUID=" U_FS) && a->target.dev == fs &&
	       a->target.is_file && a->target.offset_pages == page &&
	       !strcmp(a->target.swap_path, swapfile) &&
	       !strcmp(a->rep.resume_conf_file, "conf/conf.d/resume"),
	       "confarea: RESUME=UUID= of the active swap file's filesystem, resume_offset= on "
	       "the command line: taken (%d)", r);
	r = find("root=/dev/vda ro\n", "uuid", a);
	tap_ok(r == CONFAREA_NO_OFFSET && !strcmp(a->target.swap_path, swapfile),
	       "confarea: the same swap file without resume_offset=: not taken (%d)", r);
	r = find("root=/dev/vda resume=/dev/vdz resume_offset=7\n", "uuid", a);
	tap_ok(r == CONFAREA_CMDLINE && !a->path[0] && !a->spec,
	       "confarea: resume= on the command line wins, the initramfs is not read (%d)", r);
	r = find("root=/dev/vda noresume resume_offset=7\n", "uuid", a);
	tap_ok(r == CONFAREA_NORESUME && !a->path[0] && !a->spec,
	       "confarea: noresume: the initramfs is not read (%d)", r);

	/* a swap partition: its node must be a block device (mknod needs root) */
	snprintf(text, sizeof(text), "%s/dev/swapnode", root);
	if (geteuid() != 0 || mknod(text, S_IFBLK | 0600, makedev(254, 112)) < 0) {
		tap_ok(1, "confarea: RESUME=UUID= of an active swap partition # SKIP mknod "
		       "needs root");
	} else {
		put_link("../../swapnode", "dev/disk/by-uuid/" U_PART);
		image("part", 1, "RESUME=UUID=" U_PART);
		r = find("root=/dev/vda ro quiet\n", "part", a);
		tap_ok(r == CONFAREA_FOUND && a->target.dev == makedev(254, 112) &&
		       !a->target.is_file && a->target.offset_pages == 0 &&
		       !strcmp(a->target.swap_path, text),
		       "confarea: RESUME=UUID= of an active swap partition: taken (%d)", r);
	}
	image("disk", 1, "RESUME=UUID=" U_DISK);
	r = find(line, "disk", a);
	tap_ok(r == CONFAREA_NOT_SWAP && a->dev == makedev(254, 96) && a->err == TARGET_NONE,
	       "confarea: RESUME= of a device with no active swap area: not taken (%d)", r);
	image("nodev", 1, "RESUME=PARTUUID=00000000-0000-0000-0000-00000000dead");
	r = find("root=/dev/vda\n", "nodev", a);
	tap_ok(r == CONFAREA_NO_DEVICE && a->err < 0,
	       "confarea: RESUME= naming no device here: not taken (%d, %d)", r, a->err);
	image("none", 1, "RESUME=none");
	r = find("root=/dev/vda\n", "none", a);
	tap_ok(r == CONFAREA_NONE, "confarea: RESUME=none: not taken (%d)", r);
	image("unset", 1, NULL);
	r = find("root=/dev/vda\n", "unset", a);
	tap_ok(r == CONFAREA_UNSET, "confarea: no RESUME=: not taken (%d)", r);
	image("unsure", 1, "RESUME=$SWAP");
	r = find("root=/dev/vda\n", "unsure", a);
	tap_ok(r == CONFAREA_UNSURE, "confarea: RESUME=$SWAP, not read here: not taken (%d)", r);
	image("auto", 1, "RESUME=auto");
	r = find("root=/dev/vda\n", "auto", a);
	tap_ok(r == CONFAREA_NOT_NAME, "confarea: RESUME=auto is no device name: not taken (%d)",
	       r);
	image("majmin", 1, "RESUME=254:96");
	r = find("root=/dev/vda\n", "majmin", a);
	tap_ok(r == CONFAREA_NOT_NAME, "confarea: RESUME=MAJ:MIN, a number that can change: not "
	       "taken (%d)", r);
	image("nohook", 0, "RESUME=UUID=" U_FS);
	r = find(line, "nohook", a);
	tap_ok(r == CONFAREA_NOT_ITOOLS,
	       "confarea: no initramfs-tools hook runs torpor-resume: RESUME= not taken (%d)", r);
	r = find("root=/dev/vda\n", "missing", a);
	tap_ok(r == CONFAREA_UNREAD && a->err == -ENOENT,
	       "confarea: the initramfs cannot be read: nothing taken (%d, %d)", r, a->err);

	snprintf(text, sizeof(text), "rm -rf %s", root);
	sh(text);
	free(a);
	return tap_done();
}
