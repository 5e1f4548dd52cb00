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
#define CREATED 1700000000ULL
#define FD0 1000		/* fake descriptors: the reader answers by them */

static char swap_path[PATH_MAX];
static int swap_fd;
static struct torpor_fsrec fs[NFS];
static struct restamp rs;
static int fds[NFS];
static uint8_t direct[NFS] = { 1, 1, 1 };

/* what the fake reader answers for device i: an -errno, or the stamp @disk[i] */
static int answer[NFS];
static struct torpor_fsrec disk[NFS];
static uint64_t btrfs_devices = 1;
static int block_fd[2];		/* the reader of device 2 waits here when answer is 1 */
static unsigned long long capacity[NFS];	/* what BLKGETSIZE64 answers after an EIO */

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
static uint64_t delay_ns[NFS];
static unsigned int clock_reads;	/* how often the clock was read */
static int hold[NFS];			/* device i's read ends only once the clock was read
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
		buf[65536 + 0xc9] = 1;
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

	for (i = 0; i < NFS; i++) {
		disk[i] = fs[i];
		disk[i].mount_count = 10 + i;
		disk[i].mount_time = 20 + i;
		disk[i].write_time = 30 + i;
		answer[i] = 0;
		capacity[i] = 64ull << 20;
	}
	btrfs_devices = 1;
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

static void cases(void)
{
	static const int all[NFS] = { TORPOR_LATE_UNSEEN, 0, 0 };
	static const int none[NFS] = { -2, -1, -1 };
	static const int btrfs_unseen[NFS] = { -1, TORPOR_LATE_UNSEEN, -1 };
	static const int btrfs_seen[NFS] = { -1, 0, -1 };
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
	for (i = 0; i < NFS; i++)
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
	for (i = 0; i < NFS; i++)
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
	rs.buf = blkio_alloc(FSSTAMP_READ_BYTES);
	cases();
	case_deadlines();
	case_unopened();
	blkio_free(rs.buf, FSSTAMP_READ_BYTES);
	close(swap_fd);
	return tap_done();
}
