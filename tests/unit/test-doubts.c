// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-doubts.c - torpor-resume discards the image whenever it cannot prove a
 * restore safe: its main() (bootargs_main(), with a /proc/cmdline of the
 * test's) and its filesystem checks (fscheck.c) run against a fake /sys and
 * /dev (devname_root) whose devices are regular files.  Never opens
 * /dev/snapshot: every case ends before load_and_restore() (noresume, a doubt,
 * or a check that refuses).
 * Found by the attacker review of issue 8: the hooks' own reading of the
 * command line (quotes, 0xA0, "--"), an ambiguous resume device, a blank in
 * resume_offset=, a btrfs on several devices, an offset past the device.
 * And an image of an older format (issue 9): refused and discarded.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootargs.h"
#include "cmdline.h"
#include "crc32.h"
#include "deadfifo.h"
#include "devname.h"
#include "devwait.h"
#include "fakesysfs.h"
#include "fscheck.h"
#include "image.h"
#include "loader.h"
#include "msg.h"
#include "tap.h"
#include "version.h"

/* A disk in the fake sysfs (fakesysfs.h). */
static void add_dev(const char *name, unsigned int maj, unsigned int min,
		    unsigned long long sectors)
{
	add_block(name, NULL, 0, maj, min, sectors);
}

#define DEV_BYTES (1 << 20)

/* Write @b, DEV_BYTES of it, as the device file @name, and free it. */
static void put_dev_file(const char *name, uint8_t *b)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "dev/%s", name);
	put_file(rel, b, DEV_BYTES);
	free(b);
}

/* A 1 MiB swap area with UUID @uuid whose header page @page holds a torpor root record. */
static void put_image(const char *name, const char *uuid, unsigned int page)
{
	uint8_t *b = calloc(1, DEV_BYTES), *h = b + (size_t)page * 4096;
	struct torpor_root r;

	h[1024] = 1;			/* swap_header version */
	h[1028] = 255;			/* last_page */
	uuid_bytes(uuid, h + 1024 + 12);
	memset(&r, 0, sizeof(r));
	r.version = TORPOR_FORMAT_VERSION;
	r.page_size = 4096;
	r.meta_bytes = sizeof(struct torpor_meta);
	r.meta_hash = 0;
	r.nr_meta_extents = 1;
	r.meta_extents[0].offset = (uint64_t)(page + 1) * 4096;
	r.meta_extents[0].pages = 1;
	memcpy(r.orig_sig, SWAP_SIG, 10);
	image_root_encode(&r, h, 4096);
	put_dev_file(name, b);
}

/* Does device file @name still carry a torpor image at page @page? */
static int has_image(const char *name, unsigned int page)
{
	uint8_t h[4096];
	char p[PATH_MAX];
	int fd;
	ssize_t n;

	snprintf(p, sizeof(p), "%s/dev/%s", root, name);
	fd = open(p, O_RDONLY);
	if (fd < 0)
		die(p);
	n = pread(fd, h, sizeof(h), (off_t)page * 4096);
	close(fd);
	return n == (ssize_t)sizeof(h) && image_classify(h, sizeof(h)) == IMAGE_SIG_TORPOR;
}

/* @bug: the rule was broken */
static void verdict(int bug, const char *what)
{
	tap_ok(!bug, "%s", what);
}

/* torpor-resume's main() with @argv, and @cmdline as /proc/cmdline */
static int run_main(const char *cmdline, int argc, char **argv)
{
	char p[PATH_MAX];
	struct bootargs_env env = { .cmdline_path = p };

	put_text("proc/cmdline", cmdline);
	snprintf(p, sizeof(p), "%s/proc/cmdline", root);
	devwait_reset();
	fflush(stdout);
	return bootargs_main(argc, argv, &env);
}

/* stderr, sent to a file of the fake root while a case runs */
struct capture {
	int fd;				/* the file */
	int saved;			/* stderr before */
};

static void capture_start(struct capture *c)
{
	char log[PATH_MAX];

	snprintf(log, sizeof(log), "%s/stderr", root);
	fflush(stderr);
	c->saved = dup(2);
	c->fd = open(log, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (c->saved < 0 || c->fd < 0 || dup2(c->fd, 2) < 0)
		die(log);
}

/* stderr back; what was said in @text (@len bytes at most), and passed on to stderr */
static void capture_stop(struct capture *c, char *text, size_t len)
{
	ssize_t n;

	fflush(stderr);
	dup2(c->saved, 2);
	close(c->saved);
	n = pread(c->fd, text, len - 1, 0);
	close(c->fd);
	text[n > 0 ? n : 0] = 0;
	fputs(text, stderr);
}

#define UA "1b4e28ba-2fa1-11d2-883f-0016d3cca427"
#define UB "1b4e28ba-2fa1-11d2-883f-0016d3cca428"
#define UC "1b4e28ba-2fa1-11d2-883f-0016d3cca429"
#define UD "1b4e28ba-2fa1-11d2-883f-0016d3cca42a"
#define UF "1b4e28ba-2fa1-11d2-883f-0016d3cca42f"	/* the btrfs fsid */

/*
 * 1. initramfs-tools: init splits /proc/cmdline with the shell, so resume="UUID=.."
 * (quotes as the kernel allows them) reaches the hook as '"UUID=.."', which it passes
 * as --device.  The kernel and cmdline.c read UUID=..; torpor-resume takes the
 * argument, cannot resolve it, and leaves the image even with noresume.
 */
static void case_quoted_device(void)
{
	char *argv[] = { "torpor-resume", "--device=\"UUID=" UA "\"", "--noresume", NULL };
	struct torpor_cmdline cl;

	put_image("vda", UA, 0);
	cmdline_parse("root=/dev/vdz resume=\"UUID=" UA "\" noresume", &cl);
	printf("# cmdline.c reads resume='%s' noresume=%d\n", cl.resume, cl.noresume);
	run_main("root=/dev/vdz resume=\"UUID=" UA "\" noresume", 3, argv);
	verdict(has_image("vda", 0),
		"doubts: resume=\"UUID=...\" noresume, the hook passing the quotes: image discarded");
}

/*
 * 2. The resume device is ambiguous (a copy of the swap disk attached): both
 * carry the image; "continuing boot" with noresume leaves both valid.
 */
static void case_ambiguous_device(void)
{
	char *argv[] = { "torpor-resume", "--device=UUID=" UB, "--noresume", NULL };

	put_image("vdb", UB, 0);
	put_image("vdc", UB, 0);
	run_main("resume=UUID=" UB " noresume", 3, argv);
	verdict(has_image("vdb", 0) || has_image("vdc", 0),
		"doubts: two devices carry the resume UUID, noresume: both images discarded");
}

/*
 * 3. resume_offset=" 8": the kernel's sscanf("%llu") skips the blank and reads 8;
 * cmdline.c finds no leading digit, so it discards at offset 0 only.
 */
static void case_offset_blank(void)
{
	char *argv[] = { "torpor-resume", NULL };
	struct torpor_cmdline cl;

	put_image("vdd", UD, 8);
	cmdline_parse("resume=/dev/vdd resume_offset=\" 8\"", &cl);
	printf("# cmdline.c: has_resume_offset=%d offset=%llu bad=%d\n", cl.has_resume_offset,
	       cl.resume_offset, cl.resume_offset_bad);
	run_main("resume=/dev/vdd resume_offset=\" 8\"", 1, argv);
	verdict(has_image("vdd", 8),
		"doubts: resume_offset=\" 8\" (the kernel reads 8): the image at page 8 is discarded");
}

static void put_le64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/*
 * A device's DEV_BYTES with a btrfs superblock of fsid @fsid, generation @gen,
 * device id @devid of @num_devices.
 */
static uint8_t *btrfs_dev(const char *fsid, uint64_t gen, uint64_t devid, uint64_t num_devices)
{
	uint8_t *b = calloc(1, DEV_BYTES), *sb = b + 65536;

	uuid_bytes(fsid, sb + 0x20);
	memcpy(sb + 0x40, "_BHRfS_M", 8);
	put_le64(sb + 0x48, gen);
	put_le64(sb + 0x88, num_devices);
	put_le64(sb + 0xc9, devid);
	return b;
}

/* Device file @name: device @devid of @num_devices of the btrfs UF, generation @gen. */
static void put_btrfs_dev(const char *name, uint64_t gen, uint64_t devid, uint64_t num_devices)
{
	put_dev_file(name, btrfs_dev(UF, gen, devid, num_devices));
}

static void put_btrfs(const char *name, uint64_t gen)
{
	put_btrfs_dev(name, gen, 1, 1);
}

/* the late check's note fscheck_filesystems() fills */
static struct image_late note;

/* @rec: filesystem @uuid of @kind, recorded with mount count (a btrfs: generation) @count */
static void set_rec(struct torpor_fsrec *rec, uint32_t kind, const char *uuid, uint64_t count)
{
	memset(rec, 0, sizeof(*rec));
	rec->kind = kind;
	uuid_bytes(uuid, rec->uuid);
	rec->mount_count = count;
}

/* fscheck_filesystems() over the image of @l, with a deadline of its own */
static int run_check(const struct loader *l)
{
	devwait_reset();
	fflush(stdout);
	return fscheck_filesystems(l, 0, &note);
}

/* fscheck_filesystems() over an image that recorded @rec alone */
static int check_rec(struct torpor_fsrec *rec)
{
	struct loader l;

	memset(&l, 0, sizeof(l));
	l.img.meta.nr_fs = 1;
	l.img.fs = rec;
	return run_check(&l);
}

/* fscheck_filesystems() over one recorded btrfs UF of generation 100 */
static int check_btrfs_rec(void)
{
	struct torpor_fsrec rec;

	set_rec(&rec, TORPOR_FS_BTRFS, UF, 100);
	return check_rec(&rec);
}

/* A two-device btrfs: unchanged passes; a copy, or a device missing, is a doubt. */
static void case_btrfs_multi(void)
{
	int r;

	put_btrfs_dev("vde", 100, 1, 2);
	put_btrfs_dev("vdf", 100, 2, 2);
	r = check_btrfs_rec();
	tap_ok(r == 0, "doubts: a two-device btrfs, both devices unchanged: passes (%d)", r);
	put_btrfs_dev("vdf", 100, 1, 2);
	r = check_btrfs_rec();
	tap_ok(r == -ENOTUNIQ, "doubts: two devices show device 1 of a btrfs (a copy): refused (%d)",
	       r);
	put_btrfs_dev("vde", 100, 1, 3);
	put_btrfs_dev("vdf", 100, 2, 3);
	r = check_btrfs_rec();
	tap_ok(r == -ENOENT, "doubts: a three-device btrfs with two present: refused (%d)", r);
	put_btrfs_dev("vdf", 100, 2, 2);
	r = check_btrfs_rec();
	tap_ok(r == -EIO, "doubts: btrfs devices that disagree on their number: refused (%d)", r);
}

/*
 * 4. A recorded btrfs filesystem on two devices (a two-device btrfs, or a copy):
 * fscheck_filesystems() warns and goes on without reading either generation.
 */
static void case_btrfs_two_devices(void)
{
	int r;

	put_btrfs("vde", 200);		/* both devices were written since: generation 200 */
	put_btrfs("vdf", 200);
	r = check_btrfs_rec();		/* generation 100 when hibernating */
	verdict(r == 0, "doubts: btrfs on two devices, generation 100 -> 200: refused");
}

/* 5. The same btrfs on one device: the stamp check must (and does) refuse. */
static void case_btrfs_one_device(void)
{
	char p[PATH_MAX];
	int r;

	put_btrfs("vde", 200);		/* written since: generation 200 */
	snprintf(p, sizeof(p), "%s/sys/class/block/vdf", root);
	unlink(p);			/* vdf gone: only vde carries the fsid */
	r = check_btrfs_rec();
	verdict(r != -ESTALE, "doubts: btrfs on one device, generation moved: refused (-ESTALE)");
}

#define UE "1b4e28ba-2fa1-11d2-883f-0016d3cca42e"	/* no device carries it */

/*
 * 5b. Filesystems that no device carries at boot (a /home only the booted
 * system unlocks): left to the late check, not a reason to discard (issue 22).
 * The note holds each with its stamp, flagged unseen, before the ones checked.
 * Old torpor-resume refused the image (-ENOENT).  Only when the image says its
 * writer performs the late check (TORPOR_META_LATE_CHECK): an older
 * torpor-suspend, restored, would thaw without it, so that image is refused.
 */
static void case_unseen(void)
{
	struct torpor_fsrec rec[TORPOR_LATE_MAX + 1];
	struct loader l;
	uint32_t i;
	int r;

	memset(&l, 0, sizeof(l));
	memset(rec, 0, sizeof(rec));
	set_rec(&rec[0], TORPOR_FS_EXT, UE, 7);
	rec[0].mount_time = 1700000000;
	rec[0].write_time = 1700000100 | (1ULL << 32);
	set_rec(&rec[1], TORPOR_FS_BTRFS, UE, 100);
	l.img.meta.nr_fs = 2;
	l.img.meta.created = 1234;
	l.img.fs = rec;
	r = run_check(&l);
	tap_ok(r == -ENOENT, "doubts: the same from an image whose writer does not say it checks "
	       "late (an older torpor-suspend): refused, as before (%d)", r);
	l.img.meta.features = TORPOR_META_LATE_CHECK;
	r = run_check(&l);
	tap_ok(r == 0, "doubts: an ext4 and a btrfs no device carries at boot: left to the late "
	       "check, not refused (%d)", r);
	tap_ok(note.hdr.nr == 2 && note.hdr.nr_fs == 2 && note.hdr.created == 1234 &&
	       note.fs[0].index == 0 && note.fs[0].flags == TORPOR_LATE_UNSEEN &&
	       note.fs[0].mount_count == 7 && note.fs[0].mount_time == 1700000000 &&
	       note.fs[0].write_time == rec[0].write_time && note.fs[1].index == 1 &&
	       note.fs[1].flags == TORPOR_LATE_UNSEEN && note.fs[1].mount_count == 100,
	       "doubts: the note names both, unseen, with the image's stamps");
	for (i = 0; i <= TORPOR_LATE_MAX; i++) {
		rec[i].kind = TORPOR_FS_EXT;
		uuid_bytes(UE, rec[i].uuid);
	}
	l.img.meta.nr_fs = TORPOR_LATE_MAX + 1;
	r = run_check(&l);
	tap_ok(r == -E2BIG, "doubts: %u filesystems not present at boot, more than the note "
	       "holds: refused (%d)", TORPOR_LATE_MAX + 1, r);
}

/*
 * 6. resume_offset beyond 2^52 pages: o->offset * ps wraps in examine(), and the
 * header page at the wrapped offset (here page 0) is taken.  Here with noresume
 * it is only discarded there; without it, that image would be examined.
 */
static void case_offset_wrap(void)
{
	char *argv[] = { "torpor-resume", "--noresume", NULL };

	put_image("vdg", UC, 0);
	/* 2^52 = 4503599627370496 pages = 2^64 bytes: wraps to byte 0 */
	run_main("resume=/dev/vdg resume_offset=4503599627370496", 2, argv);
	verdict(!has_image("vdg", 0),
		"doubts: resume_offset=2^52 is past the device, not page 0: the image at page 0 is untouched");
}

/*
 * 7. An image of format 1 (an older torpor, before the XXH3 checksums): intact,
 * refused for its version with one message that says so, and discarded like any
 * other rejected image, the swap signature put back.
 */
static void case_format1(void)
{
	char *argv[] = { "torpor-resume", NULL };
	char p[PATH_MAX], text[4096];
	uint8_t h[4096], *rec = h + TORPOR_ROOT_OFFSET;
	uint32_t v = 1, size = 1080, crc;
	struct capture c;
	int fd;

	put_image("vdl", UA, 0);
	snprintf(p, sizeof(p), "%s/dev/vdl", root);
	fd = open(p, O_RDWR);
	if (fd < 0 || pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
		die(p);
	/* format 1's root: 1080 bytes, the CRC-32 in its last 4 */
	memcpy(rec + 8, &v, 4);
	memcpy(rec + 12, &size, 4);
	memset(rec + size - 4, 0, 4);
	crc = crc32_update(0, rec, size);
	memcpy(rec + size - 4, &crc, 4);
	if (pwrite(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
		die(p);
	close(fd);
	capture_start(&c);
	run_main("resume=/dev/vdl", 1, argv);
	capture_stop(&c, text, sizeof(text));
	verdict(!strstr(text, "rejected the hibernation image on /dev/vdl: written by an older "
			"torpor in format 1, this torpor reads format 2\n"),
		"doubts: a format 1 image is refused for its version, and the message says so");
	fd = open(p, O_RDONLY);
	if (fd < 0 || pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
		die(p);
	close(fd);
	verdict(has_image("vdl", 0) || memcmp(h + 4096 - 10, SWAP_SIG, 10) ||
		!strstr(text, "discarded the hibernation image on /dev/vdl, continuing boot"),
		"doubts: the format 1 image is discarded (SWAPSPACE2 back), the boot goes on");
}

/*
 * torpor-resume's version heads what it says at boot (the image of case_format1
 * was there), and a boot with no image says nothing at all, not even that.
 */
static void case_banner(void)
{
	char *argv[] = { "torpor-resume", NULL };
	char text[4096];
	struct capture c;

	put_image("vdh", UA, 0);
	capture_start(&c);
	run_main("resume=/dev/vdh noresume", 1, argv);
	capture_stop(&c, text, sizeof(text));
	verdict(strncmp(text, "torpor: " VERSION_LINE("torpor-resume") "\n",
			strlen(VERSION_LINE("torpor-resume")) + 9) ||
		!strstr(text, "noresume given"),
		"doubts: the version line comes first at boot, before the first message");
	capture_start(&c);
	run_main("resume=/dev/vdh", 1, argv);
	capture_stop(&c, text, sizeof(text));
	verdict(text[0] != 0, "doubts: a boot with no image (discarded before) says nothing");
}

/*
 * --dump DEV on a running system describes DEV, never the area that the
 * running system's own resume= names (which it took before).
 */
static void case_dump_device(void)
{
	char dev[PATH_MAX], arg[PATH_MAX + 16], out[8192], want[PATH_MAX + 16];
	char *forms[][4] = {
		{ "torpor-resume", "--dump", dev, "--wait=0" },
		{ "torpor-resume", arg, "--dump", "--wait=0" },
		{ "torpor-resume", "--dump=", "--wait=0", NULL },
	};
	const char *names[] = { "--dump DEV", "--device=DEV --dump", "--dump=DEV" };
	unsigned int i;
	int saved, fd, r;
	ssize_t n;

	snprintf(dev, sizeof(dev), "%s/dev/vdh", root);
	snprintf(arg, sizeof(arg), "--device=%s", dev);
	snprintf(want, sizeof(want), "device=%s\n", dev);
	put_image("vdh", UA, 0);
	for (i = 0; i < 3; i++) {
		char eq[PATH_MAX + 16];

		snprintf(eq, sizeof(eq), "--dump=%s", dev);
		if (i == 2)
			forms[i][1] = eq;
		snprintf(out, sizeof(out), "%s/stdout", root);
		fflush(stdout);
		saved = dup(1);
		fd = open(out, O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (saved < 0 || fd < 0 || dup2(fd, 1) < 0)
			die(out);
		r = run_main("resume=/dev/torpor-test-none resume_offset=3", forms[i][3] ? 4 : 3,
			     forms[i]);
		fflush(stdout);
		dup2(saved, 1);
		close(saved);
		n = pread(fd, out, sizeof(out) - 1, 0);
		close(fd);
		out[n > 0 ? n : 0] = 0;
		/* 1: the test's image has no valid map, but its root record is described */
		tap_ok(r == 1 && !strncmp(out, want, strlen(want)) &&
		       strstr(out, "header_offset=0\n"),
		       "doubts: %s describes DEV, not resume= of the running system (status %d)",
		       names[i], r);
	}
	verdict(!has_image("vdh", 0), "doubts: --dump leaves the image as it was");
}

/*
 * 1b. initramfs-tools: 0xA0 is a space to the kernel, not to the shell: the hook passes
 * --device='/dev/vdi<A0>noresume'; torpor-resume sees noresume in /proc/cmdline but
 * waits for a device that does not exist and leaves the image.
 */
static void case_nbsp_device(void)
{
	char *argv[] = { "torpor-resume", "--device=/dev/vdi\xa0noresume", NULL };

	put_image("vdi", UA, 0);
	run_main("root=/dev/vdz resume=/dev/vdi\xa0noresume", 2, argv);
	verdict(has_image("vdi", 0),
		"doubts: resume=/dev/vdi<0xA0>noresume, the hook passing it whole: image discarded");
}

/*
 * 1c. Both hooks' shell readings go on past "--" (the kernel stops there): with
 * "resume=/dev/vdj noresume -- resume=/dev/vdk" they pass --device=/dev/vdk.
 */
static void case_dashdash_device(void)
{
	char *argv[] = { "torpor-resume", "--device=/dev/vdk", "--noresume", NULL };

	put_image("vdj", UA, 0);
	put_image("vdk", UB, 0);
	run_main("root=/dev/vdz resume=/dev/vdj noresume -- resume=/dev/vdk", 3, argv);
	verdict(has_image("vdj", 0),
		"doubts: resume=/dev/vdj noresume -- resume=/dev/vdk: the image on vdj is discarded");
}

/*
 * 1d. The hook names another area than the command line, and two devices carry
 * it (a copy of a disk): an image on either is a doubt.  Both stayed valid.
 */
static void case_ambiguous_other(void)
{
	char *argv[] = { "torpor-resume", "--device=UUID=" UC, NULL };

	put_image("vdl", UA, 0);
	put_image("vdm", UC, 0);
	put_image("vdn", UC, 0);
	run_main("root=/dev/vdz resume=/dev/vdl noresume", 2, argv);
	verdict(has_image("vdl", 0), "doubts: noresume: the image on the command line's vdl is discarded");
	verdict(has_image("vdm", 0) || has_image("vdn", 0),
		"doubts: the hook names UUID= that two devices carry: both images discarded");
}

/*
 * 8. Devices the lookup for resume= did not read are named (issue 22): here one
 * that udev marks as a multipath path, in debug (a timeout is a warning; the
 * text of each reason is checked in test-devname).  The copy it carries is
 * not read, so the resume device is not ambiguous: noresume discards vdm's image.
 */
static void case_skipped_named(void)
{
	char *argv[] = { "torpor-resume", NULL };
	char text[8192];
	struct capture c;

	put_image("vdm", UD, 0);
	put_image("vdn", UD, 0);
	put_text("run/udev/data/b254:208", "E:DM_MULTIPATH_DEVICE_PATH=1\n");
	capture_start(&c);
	run_main("resume=UUID=" UD " noresume torpor.debug", 1, argv);
	msg_set_debug(0);
	capture_stop(&c, text, sizeof(text));
	verdict(!strstr(text, "skipped /dev/vdn while looking for resume device 'UUID=" UD "': "
			"udev marks it not to be probed (DM_MULTIPATH_DEVICE_PATH=1)\n"),
		"doubts: a device the lookup did not read is named, and why");
	verdict(has_image("vdm", 0) || !has_image("vdn", 0),
		"doubts: the copy udev calls a multipath path is left alone; noresume discards vdm's");
}

/* the process serve_uevent() started, killed should the program wait for ever */
static pid_t server;

static void on_alarm(int sig)
{
	static const char msg[] = "not ok - doubts: torpor-resume waited for ever on a device "
				  "that does not answer (alarm)\n";

	(void)sig;
	(void)!write(1, msg, sizeof(msg) - 1);
	if (server > 0)
		kill(server, SIGKILL);
	_exit(1);
}

/* Serve device @name's uevent (deadfifo.h), the @hang_at'th open never answered. */
static void serve_uevent(const char *name, unsigned int maj, unsigned int min, int hang_at)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/sys/devices/virtual/block/%s/uevent", root, name);
	server = deadfifo_serve(p, name, maj, min, hang_at);
	if (server < 0)
		die(p);
}

static void stop_serving(const char *name)
{
	char p[PATH_MAX];

	deadfifo_stop(server);
	server = 0;
	/* out of sysfs: later lookups do not meet it */
	snprintf(p, sizeof(p), "%s/sys/class/block/%s", root, name);
	unlink(p);
}

/* fscheck_filesystems() over @rec, what it says on stderr in @text */
static int check_said(struct torpor_fsrec *rec, char *text, size_t len)
{
	struct capture c;
	int r;

	capture_start(&c);
	r = check_rec(rec);
	capture_stop(&c, text, len);
	return r;
}

#define UG "1b4e28ba-2fa1-11d2-883f-0016d3cca430"	/* ext4 on vdo */
#define UH "1b4e28ba-2fa1-11d2-883f-0016d3cca431"	/* btrfs on vdp */

/*
 * fscheck_filesystems() over @rec, filesystem @uuid on device @name (@maj:@min,
 * holding @b, which is freed), whose uevent answers the lookup's probe and
 * then never again: 1 when it refused in time (-ETIMEDOUT) and named the
 * device; *@ret its result.
 */
static int refused_unanswered(const char *name, unsigned int maj, unsigned int min, uint8_t *b,
			      struct torpor_fsrec *rec, const char *uuid, int *ret)
{
	char text[4096], want[256];

	add_dev(name, maj, min, DEV_BYTES / 512);
	put_dev_file(name, b);
	serve_uevent(name, maj, min, 2);
	*ret = check_said(rec, text, sizeof(text));
	stop_serving(name);
	snprintf(want, sizeof(want), "torpor: cannot check filesystem %s (mounted when "
		 "hibernating) on /dev/%s: it did not answer within 300 ms: not restoring the "
		 "image\n", uuid, name);
	return *ret == -ETIMEDOUT && strstr(text, want);
}

/*
 * 9. A device that answers the lookup's probe, then not the read of its
 * stamp (issue 22, review item 9): that read was made by torpor-resume itself,
 * which then waited for ever (the alarm stops it).  Now the reader process
 * makes it, within the deadline, and the image is discarded with the device
 * named.  Once for an ext4, once for a btrfs (each device of it is read).
 */
static void case_stamp_no_answer(void)
{
	uint8_t *b = calloc(1, DEV_BYTES);
	struct torpor_fsrec rec;
	int ok, r;

	devname_probe_ms = 300;
	signal(SIGALRM, on_alarm);
	alarm(60);

	b[1024 + 0x38] = 0x53;		/* ext magic 0xef53 */
	b[1024 + 0x39] = 0xef;
	b[1024 + 0x34] = 5;		/* mount count */
	uuid_bytes(UG, b + 1024 + 0x68);
	set_rec(&rec, TORPOR_FS_EXT, UG, 5);
	ok = refused_unanswered("vdo", 254, 224, b, &rec, UG, &r);
	tap_ok(ok, "doubts: an ext4 whose device does not answer the read of its stamp: refused "
	       "within the deadline, the device named (%d)", r);

	set_rec(&rec, TORPOR_FS_BTRFS, UH, 100);
	ok = refused_unanswered("vdp", 254, 240, btrfs_dev(UH, 100, 1, 1), &rec, UH, &r);
	tap_ok(ok, "doubts: a btrfs whose device does not answer the read of its stamp: refused "
	       "within the deadline, the device named (%d)", r);
	alarm(0);
	devname_probe_ms = DEVNAME_PROBE_MS;
}

int main(void)
{
	char name[8];
	unsigned int i;

	snprintf(root, sizeof(root), "/tmp/torpor-review-XXXXXX");
	if (!mkdtemp(root))
		die("mkdtemp");
	devname_root = root;
	mkdirs("dev");
	mkdirs("sys/class/block");
	mkdirs("sys/dev/block");
	for (i = 0; i < 14; i++) {	/* vda to vdn, 254:0 to 254:208 */
		snprintf(name, sizeof(name), "vd%c", 'a' + i);
		add_dev(name, 254, 16 * i, DEV_BYTES / 512);
	}

	case_quoted_device();
	case_nbsp_device();
	case_dashdash_device();
	case_ambiguous_other();
	case_ambiguous_device();
	case_offset_blank();
	case_btrfs_two_devices();
	case_btrfs_multi();
	case_btrfs_one_device();
	case_unseen();
	case_offset_wrap();
	case_format1();
	case_banner();
	case_dump_device();
	case_skipped_named();
	case_stamp_no_answer();
	return tap_done();
}
