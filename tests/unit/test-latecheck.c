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

static int fake_read(int fd, uint8_t *buf, uint64_t log_head, struct torpor_fsrec *ret)
{
	int i = fd - FD0;
	char c;

	(void)log_head;
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

static enum late_outcome run(struct latecheck *lc, int timeout_ms)
{
	latecheck_init(lc, &rs, fs, NFS, CREATED, swap_fd, 0, PS);
	lc->read_stamp = fake_read;
	lc->dev_size = fake_size;
	return latecheck_run(lc, timeout_ms);
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
	case_unopened();
	blkio_free(rs.buf, FSSTAMP_READ_BYTES);
	close(swap_fd);
	return tap_done();
}
