// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-latecheck.c - the restored torpor-suspend's late check (issue 22): the
 * note torpor-resume left in the swap header page, read back from a file, and
 * each stamp it names through a reader that answers what each case needs: the
 * same stamps thaw, a moved one, a read that does not answer in time, another
 * image's note or a btrfs on several devices not seen at boot do not; a device
 * that is gone thaws.  And a filesystem whose device did not open before the
 * freeze is named (torpor-suspend refuses then).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "blkio.h"
#include "devname.h"
#include "fsstamp.h"
#include "image.h"
#include "latecheck.h"
#include "restamp.h"
#include "tap.h"

#define PS 4096
#define NFS 3
#define NDEV (NFS + 2)		/* devices 3 and 4: record 1's other btrfs devices */
#define CREATED 1700000000ULL
#define FD0 1000		/* fake descriptors: the reader answers by them */

static char swap_path[PATH_MAX];
static int swap_fd;
static struct torpor_fsrec fs[NFS];
static struct restamp rs;
static int fds[NFS];
static uint8_t direct[NFS] = { 1, 1, 1 };

/* what the fake reader answers for device i: an -errno, or the stamp @disk[i] */
static int answer[NDEV];
static struct torpor_fsrec disk[NDEV];
static uint64_t btrfs_devices = 1;
static uint8_t devid[NDEV] = { 1, 1, 1, 2, 3 };	/* a btrfs device's id in its filesystem */
static struct restamp_member members[2] = {
	{ 1, 8u << 20 | 32, FD0 + 3, 1 },
	{ 1, 8u << 20 | 48, FD0 + 4, 1 },
};
static int block_fd[2];		/* the reader of device 2 waits here when answer is 1 */
static unsigned long long capacity[NDEV];	/* what BLKGETSIZE64 answers after an EIO */

static int fake_size(int fd, unsigned long long *ret_bytes)
{
	*ret_bytes = capacity[fd - FD0];
	return 0;
}

/*
 * The deadlines' clock, when a case sets it: it moves only as a read of device
 * i takes delay_ns[i] (a disk spinning up), so that no case depends on timing.
 */
static uint64_t fake_now;
static uint64_t delay_ns[NDEV];
static unsigned int clock_reads;	/* how often the clock was read */
static int hold[NDEV];			/* device i's read ends only once the clock was read
					 * twice since it took its time (or after 5 s) */

static uint64_t fake_clock(void)
{
	__atomic_add_fetch(&clock_reads, 1, __ATOMIC_ACQ_REL);
	return __atomic_load_n(&fake_now, __ATOMIC_ACQUIRE);
}

/* the caller's wait has seen the time device @i took: it judged it */
static void held(int i)
{
	struct timespec ms = { 0, 1000000 };
	unsigned int from = __atomic_load_n(&clock_reads, __ATOMIC_ACQUIRE);
	int n;

	for (n = 0; hold[i] && n < 5000; n++) {
		if (__atomic_load_n(&clock_reads, __ATOMIC_ACQUIRE) - from >= 2)
			break;
		nanosleep(&ms, NULL);
	}
}

static int fake_read(int fd, uint8_t *buf, uint64_t log_head, struct torpor_fsrec *ret)
{
	int i = fd - FD0;
	char c;

	(void)log_head;
	__atomic_add_fetch(&fake_now, delay_ns[i], __ATOMIC_ACQ_REL);
	held(i);
	if (answer[i] == 1 && read(block_fd[0], &c, 1) < 0)
		return -EIO;
	if (answer[i] < 0)
		return answer[i];
	memset(buf, 0, FSSTAMP_READ_BYTES);
	if (disk[i].kind == TORPOR_FS_BTRFS) {
		memcpy(buf + 65536 + 0x40, "_BHRfS_M", 8);
		buf[65536 + 0x88] = (uint8_t)btrfs_devices;
		buf[65536 + 0xc9] = devid[i];
	}
	*ret = disk[i];
	return 0;
}

/* the swap header page with a note naming entries of @flags (-1: no entry), for @created */
static void put_note(uint64_t created, const int *flags)
{
	static struct image_late late;
	uint8_t *page = blkio_alloc(PS);
	uint32_t i;

	memset(page, 0, PS);
	memcpy(page + PS - 10, SWAP_SIG, 10);
	memset(&late, 0, sizeof(late));
	late.hdr.created = created;
	late.hdr.nr_fs = NFS;
	for (i = 0; i < NFS; i++) {
		struct torpor_late_fs *e;

		if (flags[i] < 0)
			continue;
		e = &late.fs[late.hdr.nr++];
		e->index = i;
		e->flags = (uint32_t)flags[i];
		e->mount_count = 10 + i;
		e->mount_time = 20 + i;
		e->write_time = 30 + i;
	}
	if (flags[0] != -2)
		image_late_encode(&late, page, PS);
	if (pwrite(swap_fd, page, PS, 0) != PS)
		exit(2);
	blkio_free(page, PS);
}

/* every device shows what the image recorded */
static void disks_same(void)
{
	uint32_t i;

	for (i = 0; i < NDEV; i++) {
		disk[i] = fs[i < NFS ? i : 1];
		disk[i].mount_count = 10 + (i < NFS ? i : 1);
		disk[i].mount_time = 20 + (i < NFS ? i : 1);
		disk[i].write_time = 30 + (i < NFS ? i : 1);
		answer[i] = 0;
		capacity[i] = 64ull << 20;
	}
	btrfs_devices = 1;
	rs.nr_more = 0;
}

/* the late check with each read given @read_ms, all of them @total_ms */
static enum late_outcome run2(struct latecheck *lc, int read_ms, int total_ms)
{
	latecheck_init(lc, &rs, fs, NFS, CREATED, swap_fd, 0, PS);
	lc->read_stamp = fake_read;
	lc->dev_size = fake_size;
	if (fake_now)
		lc->clock_ns = fake_clock;
	return latecheck_run(lc, read_ms, total_ms);
}

static enum late_outcome run(struct latecheck *lc, int read_ms)
{
	return run2(lc, read_ms, 60000);
}

/* The stamps read again: as recorded, moved, on devices gone or failing. */
static void cases(void)
{
	static const int all[NFS] = { TORPOR_LATE_UNSEEN, 0, 0 };
	static const int none[NFS] = { -2, -1, -1 };
	struct latecheck lc;
	enum late_outcome o;

	disks_same();
	put_note(CREATED, none);
	o = run(&lc, 5000);
	tap_ok(o == LATE_NO_NOTE, "latecheck: no note (an older torpor-resume): thaw (%d)", o);
	latecheck_free(&lc);

	put_note(CREATED, all);
	o = run(&lc, 5000);
	tap_ok(o == LATE_SAME && lc.checked == 3 && lc.unseen == 1 && !lc.lingering,
	       "latecheck: every stamp as recorded: thaw, 3 read, 1 unseen (%d, %u, %u)", o,
	       lc.checked, lc.unseen);
	latecheck_free(&lc);

	disk[0].mount_count++;
	o = run(&lc, 5000);
	tap_ok(o == LATE_MOVED && lc.at == 0 && lc.then.mount_count == 10 &&
	       lc.now.mount_count == 11 && lc.err == 0,
	       "latecheck: the unseen ext4 was mounted since: reboot unthawed (%d)", o);
	latecheck_free(&lc);

	disks_same();
	disk[2].write_time++;
	o = run(&lc, 5000);
	tap_ok(o == LATE_MOVED && lc.at == 2, "latecheck: an xfs checked at boot moved since: "
	       "reboot unthawed (%d)", o);
	latecheck_free(&lc);

	disks_same();
	answer[1] = -EMEDIUMTYPE;
	o = run(&lc, 5000);
	tap_ok(o == LATE_MOVED && lc.at == 1 && lc.err == -EMEDIUMTYPE,
	       "latecheck: a device that no longer holds the filesystem: reboot unthawed (%d)", o);
	latecheck_free(&lc);

	disks_same();
	answer[0] = -ENODEV;
	answer[1] = -ENXIO;
	answer[2] = -EIO;
	capacity[2] = 0;
	o = run(&lc, 5000);
	tap_ok(o == LATE_GONE && lc.gone == 3 && lc.gone_at == 0 && lc.gone_err == -ENODEV,
	       "latecheck: devices gone (ENODEV, ENXIO, EIO with no capacity left): thaw, "
	       "warned (%d)", o);
	latecheck_free(&lc);

	/* a multipath map without queue_if_no_path fails reads while its paths come back */
	disks_same();
	answer[2] = -EIO;
	o = run(&lc, 5000);
	tap_ok(o == LATE_UNCHECKABLE && lc.at == 2 && lc.err == -EIO && lc.gone == 0,
	       "latecheck: a read error (EIO, a short read) on a device still there: reboot "
	       "unthawed (%d)", o);
	latecheck_free(&lc);

	disks_same();
	answer[0] = -ENODEV;
	disk[1].mount_count++;
	o = run(&lc, 5000);
	tap_ok(o == LATE_MOVED && lc.at == 1, "latecheck: one gone, one moved: reboot unthawed (%d)",
	       o);
	latecheck_free(&lc);

	disks_same();
	answer[0] = -ENOMEM;
	o = run(&lc, 5000);
	tap_ok(o == LATE_UNCHECKABLE && lc.at == 0 && lc.err == -ENOMEM,
	       "latecheck: a read that fails otherwise: reboot unthawed (%d)", o);
	latecheck_free(&lc);
}

/* What the late check cannot read, and where that does not matter. */
static void cases_uncheckable(void)
{
	static const int all[NFS] = { TORPOR_LATE_UNSEEN, 0, 0 };
	static const int btrfs_unseen[NFS] = { -1, TORPOR_LATE_UNSEEN, -1 };
	static const int btrfs_seen[NFS] = { -1, 0, -1 };
	struct latecheck lc;
	enum late_outcome o;

	disks_same();
	put_note(CREATED + 1, all);
	o = run(&lc, 5000);
	tap_ok(o == LATE_UNCHECKABLE && lc.at == -1 && lc.err == -ESTALE,
	       "latecheck: another image's note: reboot unthawed (%d)", o);
	latecheck_free(&lc);

	put_note(CREATED, btrfs_unseen);
	btrfs_devices = 2;
	o = run(&lc, 5000);
	tap_ok(o == LATE_UNCHECKABLE && lc.at == 1 && lc.num_devices == 2 && lc.err == -EXDEV,
	       "latecheck: a two-device btrfs not seen at boot: reboot unthawed (%d)", o);
	latecheck_free(&lc);
	put_note(CREATED, btrfs_seen);
	o = run(&lc, 5000);
	tap_ok(o == LATE_SAME, "latecheck: the same btrfs checked at boot: thaw (%d)", o);
	latecheck_free(&lc);

	disks_same();
	put_note(CREATED, all);
	fds[1] = -ENOENT;
	o = run(&lc, 5000);
	tap_ok(o == LATE_UNCHECKABLE && lc.at == 1 && lc.err == -ENOENT,
	       "latecheck: a device never opened: reboot unthawed (%d)", o);
	latecheck_free(&lc);
	fds[1] = FD0 + 1;

	/* a device without O_DIRECT: the kernel's cache would answer */
	direct[1] = 0;
	disk[1].mount_count++;
	o = run(&lc, 5000);
	tap_ok(o == LATE_SAME && lc.checked == 2, "latecheck: a device read through the cache, "
	       "checked at boot: not read again (%d)", o);
	latecheck_free(&lc);
	put_note(CREATED, btrfs_unseen);
	o = run(&lc, 5000);
	tap_ok(o == LATE_UNCHECKABLE && lc.at == 1 && lc.err == -EOPNOTSUPP,
	       "latecheck: the same, not seen at boot: reboot unthawed (%d)", o);
	latecheck_free(&lc);
	direct[1] = 1;
	disks_same();
	put_note(CREATED, all);

	/* the reader of device 2 waits until released: only the deadline can end the wait */
	answer[2] = 1;
	o = run(&lc, 200);
	tap_ok(o == LATE_TIMEOUT && __atomic_load_n(&lc.at, __ATOMIC_ACQUIRE) == 2 &&
	       lc.ns >= 200000000ULL, "latecheck: a read that does not answer: reboot unthawed "
	       "after the deadline (%d, %llu ms)", o, (unsigned long long)(lc.ns / 1000000));
	if (write(block_fd[1], "x", 1) != 1)
		exit(2);
	pthread_join(lc.thread, NULL);
	latecheck_free(&lc);
	answer[2] = 0;
}

/*
 * A btrfs on two devices (record 1 and device 3) the boot did not see: both
 * are read, as torpor-resume reads them at boot (old torpor-suspend read one,
 * and rebooted unthawed whenever the filesystem had more).
 */
static void case_btrfs_devices(void)
{
	static const int unseen[NFS] = { -1, TORPOR_LATE_UNSEEN, -1 };
	struct latecheck lc;
	enum late_outcome o;

	disks_same();
	put_note(CREATED, unseen);
	btrfs_devices = 2;
	rs.nr_more = 1;
	o = run(&lc, 5000);
	tap_ok(o == LATE_SAME && lc.checked == 1 && lc.unseen == 1,
	       "latecheck: a two-device btrfs not seen at boot, both unchanged: thaw (%d, %d)", o,
	       lc.err);
	latecheck_free(&lc);

	disk[3].mount_count++;
	o = run(&lc, 5000);
	tap_ok(o == LATE_MOVED && lc.at == 1 && lc.at_dev == members[0].dev &&
	       lc.now.mount_count == 12, "latecheck: its second device's generation moved: "
	       "reboot unthawed, that device named (%d)", o);
	latecheck_free(&lc);
	disk[3].mount_count--;

	devid[3] = 1;
	o = run(&lc, 5000);
	tap_ok(o == LATE_UNCHECKABLE && lc.err == -ENOTUNIQ, "latecheck: both devices show "
	       "device 1 of it (a copy): reboot unthawed (%d, %d)", o, lc.err);
	latecheck_free(&lc);
	devid[3] = 2;

	answer[3] = -ENODEV;
	o = run(&lc, 5000);
	tap_ok(o == LATE_UNCHECKABLE && lc.member_gone == 1 && lc.err == -ENODEV &&
	       lc.at_dev == members[0].dev, "latecheck: one of its devices gone, the other "
	       "there: reboot unthawed (%d)", o);
	latecheck_free(&lc);

	answer[1] = -ENXIO;
	o = run(&lc, 5000);
	tap_ok(o == LATE_GONE && lc.gone == 1 && lc.gone_at == 1, "latecheck: both of its "
	       "devices gone: thaw, warned (%d)", o);
	latecheck_free(&lc);
	answer[1] = answer[3] = 0;

	btrfs_devices = 3;
	o = run(&lc, 5000);
	tap_ok(o == LATE_UNCHECKABLE && lc.err == -EXDEV && lc.num_devices == 3 &&
	       lc.devices_read == 2, "latecheck: it has three devices, two were listed: reboot "
	       "unthawed (%d)", o);
	latecheck_free(&lc);

	rs.nr_more = 2;
	o = run(&lc, 5000);
	tap_ok(o == LATE_SAME, "latecheck: all three listed and unchanged: thaw (%d, %d)", o,
	       lc.err);
	latecheck_free(&lc);

	members[1].direct = 0;
	o = run(&lc, 5000);
	tap_ok(o == LATE_UNCHECKABLE && lc.err == -EOPNOTSUPP && lc.at_dev == members[1].dev,
	       "latecheck: one of them without O_DIRECT: reboot unthawed (%d)", o);
	latecheck_free(&lc);
	members[1].direct = 1;
	disks_same();
}

/*
 * Disks that each spin up for 8 s after the resume: each read has its own 15 s,
 * the whole check 60 s (old torpor-suspend gave all of them one 15 s and
 * rebooted unthawed); past the whole check's bound, it times out all the same.
 */
static void case_deadlines(void)
{
	static const int all[NFS] = { TORPOR_LATE_UNSEEN, TORPOR_LATE_UNSEEN, 0 };
	struct latecheck lc;
	enum late_outcome o;
	uint32_t i;

	disks_same();
	put_note(CREATED, all);
	fake_now = 1000000000ull;
	for (i = 0; i < NDEV; i++)
		delay_ns[i] = 8000000000ull;
	hold[1] = hold[2] = 1;
	o = run2(&lc, 15000, 60000);
	tap_ok(o == LATE_SAME && lc.checked == 3 && lc.ns == 24000000000ull,
	       "latecheck: three disks that answer after 8 s each: 15 s for each read, thaw "
	       "after 24 s (%d, %llu ms)", o, (unsigned long long)(lc.ns / 1000000));
	if (o == LATE_TIMEOUT)
		pthread_join(lc.thread, NULL);
	latecheck_free(&lc);
	hold[1] = hold[2] = 0;

	/* the third waits once its 8 s have passed, until released: only the bound ends it */
	answer[2] = 1;
	o = run2(&lc, 15000, 20000);
	tap_ok(o == LATE_TIMEOUT && lc.over_total && __atomic_load_n(&lc.at, __ATOMIC_ACQUIRE) == 2,
	       "latecheck: past the whole check's bound (20 s), each read within its own: "
	       "reboot unthawed (%d, %d)", o, lc.over_total);
	if (write(block_fd[1], "x", 1) != 1)
		exit(2);
	pthread_join(lc.thread, NULL);
	latecheck_free(&lc);
	answer[2] = 0;

	delay_ns[1] = 16000000000ull;
	answer[1] = 1;
	o = run2(&lc, 15000, 60000);
	tap_ok(o == LATE_TIMEOUT && !lc.over_total &&
	       __atomic_load_n(&lc.at, __ATOMIC_ACQUIRE) == 1,
	       "latecheck: one read past its own 15 s: reboot unthawed (%d)", o);
	if (write(block_fd[1], "x", 1) != 1)
		exit(2);
	pthread_join(lc.thread, NULL);
	answer[1] = 0;
	latecheck_free(&lc);
	fake_now = 0;
	for (i = 0; i < NDEV; i++)
		delay_ns[i] = 0;
}

/* restamp_open() of a device that does not open: named, so torpor-suspend refuses */
static void case_unopened(void)
{
	struct restamp r;
	struct torpor_fsrec f[2];
	char dir[] = "/tmp/torpor-late-XXXXXX";

	if (!mkdtemp(dir))
		exit(2);
	devname_root = dir;
	memset(f, 0, sizeof(f));
	f[0].kind = f[1].kind = TORPOR_FS_EXT;
	f[0].dev = 254u << 20 | 0;
	f[1].dev = 254u << 20 | 16;
	if (restamp_open(&r, f, 2) < 0)
		exit(2);
	tap_ok(r.fd[0] < 0 && restamp_unopened(&r, 0) == 0 && restamp_unopened(&r, 1) == 1,
	       "latecheck: a device that does not open before the freeze is named (%d)", r.fd[0]);
	restamp_close(&r);
	devname_root = "";
	rmdir(dir);
}

static char tree[64];

/* @text into file @rel of the fake tree, its directories made */
static void put(const char *rel, const void *data, size_t len)
{
	char path[PATH_MAX], *p;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", tree, rel);
	for (p = path + strlen(tree) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		(void)mkdir(path, 0755);
		*p = '/';
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		exit(2);
	close(fd);
}

#define FSID "5e5e5e5e-5e5e-5e5e-5e5e-5e5e5e5e5e5e"	/* uuid bytes 0x5e */

/* device node dev/@name, 254:@minor: a btrfs FSID device @id of @num, generation @gen */
static void put_btrfs_dev(const char *name, unsigned int minor, uint8_t id, uint8_t num,
			  uint8_t gen)
{
	static uint8_t sb[FSSTAMP_READ_BYTES];
	char rel[96], text[64];

	memset(sb, 0, sizeof(sb));
	memset(sb + 65536 + 0x20, 0x5e, 16);
	memcpy(sb + 65536 + 0x40, "_BHRfS_M", 8);
	sb[65536 + 0x48] = gen;
	sb[65536 + 0x88] = num;
	sb[65536 + 0xc9] = id;
	snprintf(rel, sizeof(rel), "dev/%s", name);
	put(rel, sb, sizeof(sb));
	snprintf(rel, sizeof(rel), "sys/fs/btrfs/" FSID "/devices/%s", name);
	put(rel, "", 0);
	snprintf(rel, sizeof(rel), "sys/class/block/%s/dev", name);
	snprintf(text, sizeof(text), "254:%u\n", minor);
	put(rel, text, strlen(text));
	snprintf(rel, sizeof(rel), "sys/dev/block/254:%u/uevent", minor);
	snprintf(text, sizeof(text), "MAJOR=254\nMINOR=%u\nDEVNAME=%s\n", minor, name);
	put(rel, text, strlen(text));
}

/* both devices of the btrfs @f opened, and read by the late check with the real reader */
static void btrfs_read_both(const struct torpor_fsrec *f)
{
	static struct image_late note;
	struct restamp_gap gap;
	struct latecheck lc;
	struct restamp r;
	enum late_outcome o;
	uint8_t *page = blkio_alloc(PS);
	int g;

	if (!page || restamp_open(&r, f, 1) < 0)
		exit(2);
	g = restamp_btrfs_gap(&r, f, 0, &gap);
	tap_ok(r.fd[0] >= 0 && r.listed[0] == 2 && r.num_devices[0] == 2 && r.nr_more == 1 &&
	       r.more[0].dev == (254u << 20 | 32) && r.more[0].fd >= 0 && g == -1,
	       "latecheck: a two-device btrfs: both devices opened before the freeze (%d, %u, %d)",
	       r.listed[0], r.nr_more, g);

	/* the note of an image whose btrfs the boot did not see, generation 100 */
	memset(&note, 0, sizeof(note));
	note.hdr.created = CREATED;
	note.hdr.nr_fs = 1;
	note.hdr.nr = 1;
	note.fs[0].flags = TORPOR_LATE_UNSEEN;
	note.fs[0].mount_count = 100;
	memset(page, 0, PS);
	image_late_encode(&note, page, PS);
	if (pwrite(swap_fd, page, PS, 0) != PS)
		exit(2);
	/* read directly or not, the files answer the same (tmpfs may refuse O_DIRECT) */
	r.direct[0] = r.more[0].direct = 1;
	latecheck_init(&lc, &r, f, 1, CREATED, swap_fd, 0, PS);
	o = latecheck_run(&lc, 5000, 60000);
	tap_ok(o == LATE_SAME, "latecheck: both read with the real reader, unchanged: thaw "
	       "(%d, %d)", o, lc.err);
	latecheck_free(&lc);
	put_btrfs_dev("vdc", 32, 2, 2, 101);
	latecheck_init(&lc, &r, f, 1, CREATED, swap_fd, 0, PS);
	o = latecheck_run(&lc, 5000, 60000);
	tap_ok(o == LATE_MOVED && lc.at_dev == (254u << 20 | 32) && lc.now.mount_count == 101,
	       "latecheck: the second device's generation moved: reboot unthawed (%d)", o);
	latecheck_free(&lc);
	restamp_close(&r);
	blkio_free(page, PS);
}

/* a device of the btrfs @f missing: in the superblock's count, from /dev, from sysfs */
static void btrfs_gaps(const struct torpor_fsrec *f)
{
	struct restamp_gap gap;
	struct restamp r;
	char cmd[160];
	int g;

	put_btrfs_dev("vdb", 16, 1, 3, 100);
	if (restamp_open(&r, f, 1) < 0)
		exit(2);
	g = restamp_btrfs_gap(&r, f, 0, &gap);
	tap_ok(g == 0 && gap.kind == RESTAMP_GAP_COUNT && r.num_devices[0] == 3 && r.listed[0] == 2,
	       "latecheck: three devices, two listed (mounted degraded): refused before the "
	       "freeze (%d, %d)", g, gap.kind);
	restamp_close(&r);
	put_btrfs_dev("vdb", 16, 1, 2, 100);

	snprintf(cmd, sizeof(cmd), "%s/dev/vdc", tree);
	unlink(cmd);
	if (restamp_open(&r, f, 1) < 0)
		exit(2);
	g = restamp_btrfs_gap(&r, f, 0, &gap);
	tap_ok(g == 0 && gap.kind == RESTAMP_GAP_OPEN && gap.err < 0 && gap.member == 0,
	       "latecheck: its second device does not open: refused before the freeze (%d, %d)",
	       g, gap.kind);
	restamp_close(&r);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys/fs/btrfs'", tree);
	if (system(cmd) != 0)
		exit(2);
	if (restamp_open(&r, f, 1) < 0)
		exit(2);
	g = restamp_btrfs_gap(&r, f, 0, &gap);
	tap_ok(g == 0 && gap.kind == RESTAMP_GAP_LIST && gap.err == -ENOENT,
	       "latecheck: sysfs does not list its devices: refused before the freeze (%d, %d)",
	       g, gap.kind);
	restamp_close(&r);
}

/*
 * restamp_open() of a btrfs on two devices (a fake /sys and /dev): both are
 * opened, and the late check reads both with the real reader; where one does
 * not open, sysfs cannot be read, or lists fewer than the superblock counts,
 * restamp_btrfs_gap() names it, and torpor-suspend refuses before the freeze.
 */
static void case_btrfs_open(void)
{
	struct torpor_fsrec f;
	char cmd[160];

	snprintf(tree, sizeof(tree), "/tmp/torpor-late-XXXXXX");
	if (!mkdtemp(tree))
		exit(2);
	devname_root = tree;
	put_btrfs_dev("vdb", 16, 1, 2, 100);
	put_btrfs_dev("vdc", 32, 2, 2, 100);
	memset(&f, 0, sizeof(f));
	f.kind = TORPOR_FS_BTRFS;
	f.dev = 254u << 20 | 16;
	memset(f.uuid, 0x5e, 16);
	btrfs_read_both(&f);
	btrfs_gaps(&f);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree);
	if (system(cmd) != 0)
		exit(2);
	devname_root = "";
}

int main(void)
{
	uint32_t i;

	snprintf(swap_path, sizeof(swap_path), "/tmp/torpor-late-swap-XXXXXX");
	swap_fd = mkstemp(swap_path);
	if (swap_fd < 0 || pipe(block_fd) < 0)
		return 2;
	unlink(swap_path);
	for (i = 0; i < NFS; i++) {
		fs[i].dev = 8u << 20 | i;
		fs[i].kind = i == 0 ? TORPOR_FS_EXT : i == 1 ? TORPOR_FS_BTRFS : TORPOR_FS_XFS;
		memset(fs[i].uuid, 0x40 + (int)i, 16);
		fds[i] = FD0 + (int)i;
	}
	rs.n = NFS;
	rs.fd = fds;
	rs.direct = direct;
	rs.more = members;
	rs.buf = blkio_alloc(FSSTAMP_READ_BYTES);
	cases();
	cases_uncheckable();
	case_btrfs_devices();
	case_deadlines();
	case_unopened();
	case_btrfs_open();
	blkio_free(rs.buf, FSSTAMP_READ_BYTES);
	close(swap_fd);
	return tap_done();
}
