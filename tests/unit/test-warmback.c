// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-warmback.c - the warm-back's pure parts (runs, maps and stat lines,
 * the notes' records and bounds, the I/O rule) and, against this kernel, the
 * note and fill of one file (mincore after POSIX_FADV_DONTNEED) and of this
 * process's own memory (pagemap), with the checks that keep the fill off a
 * file or a process that is not the one noted.  Needs no root, no swap and no
 * /dev/snapshot.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "monoclock.h"
#include "tap.h"
#include "warmback.h"

static void test_runs(void)
{
	struct wb_run r[4];
	size_t n = 0;
	int ok;

	ok = wb_runs_add(r, &n, 4, 10, 5, 0) == 0 && wb_runs_add(r, &n, 4, 15, 5, 0) == 0 &&
	     n == 1 && r[0].start == 10 && r[0].count == 10;
	tap_ok(ok, "warmback: adjacent runs are one");
	ok = wb_runs_add(r, &n, 4, 22, 3, 2) == 0 && n == 1 && r[0].count == 15;
	ok = ok && wb_runs_add(r, &n, 4, 28, 1, 2) == 0 && n == 2 && r[1].start == 28;
	tap_ok(ok, "warmback: a gap within the tolerance is merged, a wider one is not");
	ok = wb_runs_add(r, &n, 4, 28, 0, 2) == 0 && n == 2 &&
	     wb_runs_add(r, &n, 4, 27, 1, 0) == 0 && n == 3;
	tap_ok(ok, "warmback: empty runs are nothing; a run before the last is not merged");
	ok = wb_runs_add(r, &n, 4, 100, 1, 0) == 0 && n == 4 &&
	     wb_runs_add(r, &n, 4, 200, 1, 0) == -ENOSPC && n == 4 &&
	     wb_runs_add(r, &n, 4, 101, 7, 0) == 0 && r[3].count == 8;
	tap_ok(ok, "warmback: full runs refuse a new run, still extend the last");
}

static void test_vec(void)
{
	unsigned char vec[12] = { 1, 1, 0, 0, 0, 1, 3, 0, 1, 0, 0, 0 };
	uint64_t pm[6] = { 1ull << 63, 1ull << 63, 1ull << 62, 0, 1ull << 62 | 5, 1ull << 63 };
	struct wb_run r[8];
	uint64_t pages;
	size_t n = 0;
	int ok;

	ok = wb_runs_from_vec(vec, 12, 100, 1, 0, r, &n, 8, &pages) == 0 && n == 3 &&
	     pages == 5 && r[0].start == 100 && r[0].count == 2 && r[1].start == 105 &&
	     r[1].count == 2 && r[2].start == 108 && r[2].count == 1;
	tap_ok(ok, "warmback: resident runs of a mincore vector (bit 0 only)");
	n = 0;
	ok = wb_runs_from_vec(vec, 12, 100, 1, 3, r, &n, 8, &pages) == 0 && n == 1 &&
	     r[0].start == 100 && r[0].count == 9 && pages == 5;
	tap_ok(ok, "warmback: resident runs with a gap tolerance of 3 are one");
	n = 0;
	ok = wb_runs_from_vec(vec, 12, 0, 0, 0, r, &n, 8, &pages) == 0 && n == 3 && pages == 7 &&
	     r[0].start == 2 && r[0].count == 3 && r[1].start == 7 && r[2].start == 9 &&
	     r[2].count == 3;
	tap_ok(ok, "warmback: what to bring back: the pages not resident now");
	n = 0;
	ok = wb_runs_from_vec(vec, 12, 0, 0, 0, r, &n, 2, &pages) == -ENOSPC && n == 2;
	tap_ok(ok, "warmback: runs from a vector stop when full");
	n = 0;
	ok = wb_runs_from_pagemap(pm, 6, 50, 63, 0, r, &n, 8, &pages) == 0 && n == 2 &&
	     r[0].start == 50 && r[0].count == 2 && r[1].start == 55 && pages == 3;
	tap_ok(ok, "warmback: present runs of pagemap entries (bit 63)");
	n = 0;
	ok = wb_runs_from_pagemap(pm, 6, 50, 62, 0, r, &n, 8, &pages) == 0 && n == 2 &&
	     r[0].start == 52 && r[1].start == 54 && pages == 2;
	tap_ok(ok, "warmback: swapped runs of pagemap entries (bit 62)");
}

static int maps(const char *text, struct wb_maps_line *m)
{
	static char line[512];

	snprintf(line, sizeof(line), "%s", text);
	return wb_maps_parse(line, m);
}

static void test_maps(void)
{
	struct wb_maps_line m;
	int ok;

	ok = maps("7f3a1c000000-7f3a1c021000 r-xp 00002000 fe:01 1311 /usr/lib/x86_64-linux-gnu/"
		  "libc.so.6\n", &m) == 0 && m.start == 0x7f3a1c000000ull &&
	     m.end == 0x7f3a1c021000ull && !strcmp(m.perms, "r-xp") && m.inode == 1311 &&
	     !strcmp(m.path, "/usr/lib/x86_64-linux-gnu/libc.so.6") && wb_maps_is_file(&m) &&
	     m.major == 0xfe && m.minor == 1 &&
	     !wb_maps_is_anon(&m);
	tap_ok(ok, "warmback: maps: a library's line, a file");
	ok = maps("55d0c8a5e000-55d0c8a7f000 rw-p 00000000 00:00 0                          [heap]",
		  &m) == 0 && wb_maps_is_anon(&m) && !wb_maps_is_file(&m);
	ok = ok && maps("7ffd5e2f0000-7ffd5e311000 rw-p 00000000 00:00 0   [stack]", &m) == 0 &&
	     wb_maps_is_anon(&m);
	ok = ok && maps("7f3a1c100000-7f3a1c200000 rw-p 00000000 00:00 0 ", &m) == 0 &&
	     wb_maps_is_anon(&m) && !m.path[0];
	ok = ok && maps("7f3a1c100000-7f3a1c200000 rw-p 00000000 00:00 0", &m) == 0 &&
	     wb_maps_is_anon(&m);
	ok = ok && maps("7f3a1c100000-7f3a1c200000 rw-p 00000000 00:00 0   [anon:jit]", &m) == 0 &&
	     wb_maps_is_anon(&m);
	tap_ok(ok, "warmback: maps: heap, stack, nameless and named anonymous memory");
	ok = maps("7f3a1c100000-7f3a1c200000 rw-s 00000000 00:01 77 /dev/zero (deleted)",
		  &m) == 0 &&
	     !wb_maps_is_anon(&m) && !wb_maps_is_file(&m);
	ok = ok && maps("7f3a1c100000-7f3a1c200000 ---p 00000000 00:00 0 ", &m) == 0 &&
	     !wb_maps_is_anon(&m);
	ok = ok && maps("ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0  [vsyscall]",
			&m) == 0 && !wb_maps_is_anon(&m);
	ok = ok && maps("7fff1000-7fff3000 r--p 00000000 00:00 0  [vvar]", &m) == 0 &&
	     !wb_maps_is_anon(&m);
	ok = ok && maps("7f00-7f10 r--p 0 08:01 12 /tmp/a file (deleted)", &m) == 0 &&
	     !wb_maps_is_file(&m);
	tap_ok(ok, "warmback: maps: shared, guard, vsyscall, vvar and deleted are left out");
	ok = maps("7f00-7f10 r--p 0 08:01 12 /srv/a b c", &m) == 0 &&
	     !strcmp(m.path, "/srv/a b c") && wb_maps_is_file(&m);
	tap_ok(ok, "warmback: maps: a path with spaces is whole");
	ok = maps("", &m) < 0 && maps("7f00 r--p 0 08:01 12 /a", &m) < 0 &&
	     maps("7f10-7f00 r--p 0 08:01 12 /a", &m) < 0 &&
	     maps("7f00-7f10 r--p 0 08:01 x /a", &m) < 0 &&
	     maps("7f00-7f10 r-p 0 08:01 12 /a", &m) < 0 &&
	     maps("7f00-7f10 r--p 0 0801 12 /a", &m) < 0 &&
	     maps("7f00-7G10 r--p 0 08:01 12 /a", &m) < 0 &&
	     maps("11111111111111111-7f10 r--p 0 08:01 12 /a", &m) < 0 &&
	     maps("7f00-7f10 r--p 0 08:01 12x /a", &m) < 0;
	tap_ok(ok, "warmback: maps: malformed lines are refused");
}

static int stat_bad(const char *line)
{
	unsigned long flags;
	uint64_t start;

	return wb_stat_parse(line, strlen(line), &start, &flags) < 0;
}

static void test_stat(void)
{
	static const char good[] = "1234 (a) b) c) S 1 1234 1234 0 -1 4194560 120 0 0 0 3 1 0 0 "
				   "20 0 1 0 98765 12345 100 18446744073709551615";
	static const char kthread[] = "2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 20 0 1 "
				      "0 13 0 0";
	uint64_t start = 0;
	unsigned long flags = 0;
	int ok;

	ok = wb_stat_parse(good, sizeof(good) - 1, &start, &flags) == 0 && start == 98765 &&
	     flags == 4194560 && !(flags & 0x00200000);
	tap_ok(ok, "warmback: stat: start time and flags, a name with ') ' in it");
	ok = wb_stat_parse(kthread, sizeof(kthread) - 1, &start, &flags) == 0 && start == 13 &&
	     (flags & 0x00200000);
	tap_ok(ok, "warmback: stat: a kernel thread's flags have PF_KTHREAD");
	ok = stat_bad("1 (x) S 1 2 3") &&
	     stat_bad("1 x S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 0 0 1 0 5") &&
	     wb_stat_parse(good, 40, &start, &flags) < 0 &&
	     stat_bad("1 (x) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 0 0 1 0 z") &&
	     stat_bad("1 (x) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 0 0 1 0 99999999999999999999");
	tap_ok(ok, "warmback: stat: short, nameless, cut and bad lines are refused");
}

static void test_notes(void)
{
	struct wb_run runs[3] = { { 0, 4 }, { 10, 2 }, { 100, 1 } };
	struct wb_rec rec = { .kind = WB_REC_FILE, .nruns = 3, .id = 77, .dev = 0x801 };
	struct wb_rec prec = { .kind = WB_REC_PROC, .nruns = 1, .pid = 42, .id = 9999 };
	const struct wb_rec *r1, *r2;
	struct wb_notes n, rd;
	struct wb_rec *w;
	char longpath[5000];
	int ok, fd;

	if (wb_notes_create(&n, 4096, 4096) < 0) {
		tap_ok(0, "warmback: notes: memfd_create: %s", strerror(errno));
		return;
	}
	ok = wb_notes_add(&n, &rec, runs, "/srv/data") == 0 &&
	     wb_notes_add(&n, &prec, runs, NULL) == 0;
	memset(longpath, 'a', sizeof(longpath) - 1);
	longpath[sizeof(longpath) - 1] = '\0';
	ok = ok && wb_notes_add(&n, &rec, runs, longpath) == -ENAMETOOLONG;
	rec.nruns = 400;
	ok = ok && wb_notes_add(&n, &rec, runs, "/x") == -ENOSPC;
	rec.nruns = 3;
	ok = ok && wb_head(&n)->files == 1 && wb_head(&n)->procs == 1 &&
	     wb_head(&n)->file_pages == 7 && wb_head(&n)->anon_pages == 4;
	tap_ok(ok, "warmback: notes: records added; a long path and a record too big refused");
	wb_notes_seal(&n);
	fd = dup(n.fd);
	ok = wb_notes_open(&rd, fd) == 0;
	r1 = ok ? wb_notes_next(&rd, NULL) : NULL;
	r2 = r1 ? wb_notes_next(&rd, r1) : NULL;
	ok = r1 && r2 && !wb_notes_next(&rd, r2) && r1->kind == WB_REC_FILE && r1->nruns == 3 &&
	     r1->id == 77 && r1->dev == 0x801 && !strcmp(wb_rec_path(r1), "/srv/data") &&
	     wb_rec_runs(r1)[1].start == 10 && r2->kind == WB_REC_PROC && r2->pid == 42 &&
	     r2->id == 9999 && wb_rec_runs(r2)[0].count == 4 && rd.cap == wb_head(&rd)->used;
	tap_ok(ok, "warmback: notes: sealed to their size, read back through another fd");
	wb_notes_free(&rd);

	/* a damaged record ends the walk there */
	n.map = mmap(NULL, n.cap, PROT_READ | PROT_WRITE, MAP_SHARED, n.fd, 0);
	if (n.map == MAP_FAILED) {
		tap_ok(0, "warmback: notes: mmap: %s", strerror(errno));
		n.map = NULL;
		wb_notes_free(&n);
		return;
	}
	w = (struct wb_rec *)(n.map + sizeof(struct wb_head));
	w->nruns = 1000;
	ok = wb_notes_open(&rd, dup(n.fd)) == 0 && !wb_notes_next(&rd, NULL);
	wb_notes_free(&rd);
	w->nruns = 3;
	w->len += 8;
	ok = ok && wb_notes_open(&rd, dup(n.fd)) == 0 && !wb_notes_next(&rd, NULL);
	wb_notes_free(&rd);
	w->len -= 8;
	((char *)wb_rec_path(w))[w->path_len] = 'x';
	ok = ok && wb_notes_open(&rd, dup(n.fd)) == 0 && !wb_notes_next(&rd, NULL);
	wb_notes_free(&rd);
	((char *)wb_rec_path(w))[w->path_len] = '\0';
	w->kind = 7;
	ok = ok && wb_notes_open(&rd, dup(n.fd)) == 0 && !wb_notes_next(&rd, NULL);
	wb_notes_free(&rd);
	w->kind = WB_REC_FILE;
	wb_head(&n)->used += 4096;
	ok = ok && wb_notes_open(&rd, dup(n.fd)) == -EBADMSG;
	wb_head(&n)->used -= 4096;
	wb_head(&n)->magic = 0;
	ok = ok && wb_notes_open(&rd, dup(n.fd)) == -EBADMSG;
	tap_ok(ok, "warmback: notes: runs past the record, a wrong length, an unended path, an "
	       "unknown kind, a size past the memfd, a wrong magic: refused");
	wb_notes_free(&n);
}

/* What the note leaves alone, and what it opens */
static void test_open(const char *dir)
{
	char path[4200];
	struct stat st;
	int fd, ok;

	ok = wb_fs_may_hang("nfs4") && wb_fs_may_hang("fuse.sshfs") && wb_fs_may_hang("cifs") &&
	     wb_fs_may_hang("virtiofs") && !wb_fs_may_hang("ext4") && !wb_fs_may_hang("btrfs") &&
	     !wb_fs_may_hang("fusefoo") && !wb_fs_may_hang("overlay");
	tap_ok(ok, "warmback: network filesystems and FUSE are left alone, local ones are not");
	snprintf(path, sizeof(path), "%s/test-warmback.fifo", dir);
	unlink(path);
	if (mkfifo(path, 0600) < 0) {
		tap_ok(0, "warmback: mkfifo %s: %s", path, strerror(errno));
		return;
	}
	/* a FIFO opened for reading with no writer would block without O_NONBLOCK */
	fd = wb_open_data(path, &st);
	ok = fd == -ENODATA && wb_open_data(dir, &st) == -ENODATA &&
	     wb_open_data("/nonexistent/x", &st) == -ENOENT;
	if (fd >= 0)
		close(fd);
	unlink(path);
	fd = wb_open_data("/proc/self/exe", &st);
	ok = ok && fd >= 0 && S_ISREG(st.st_mode) && (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDONLY;
	if (fd >= 0)
		close(fd);
	tap_ok(ok, "warmback: only regular files and block devices are opened, read-only");
}

static void test_foreign(void)
{
	char why[96] = "";
	int ok;

	ok = !wb_foreign_io(64 << 20, 1 << 20, 64 << 20, why, sizeof(why)) &&
	     !wb_foreign_io(100 << 20, 0, 80 << 20, why, sizeof(why));
	tap_ok(ok, "warmback: I/O: our own reads and a little writing go on");
	ok = wb_foreign_io(0, 8 << 20, 0, why, sizeof(why)) &&
	     !strcmp(why, "others wrote 8 MiB");
	tap_ok(ok, "warmback: I/O: others writing 8 MiB stops it (%s)", why);
	ok = wb_foreign_io(50 << 20, 0, 10 << 20, why, sizeof(why)) &&
	     !strcmp(why, "others read 40 MiB") &&
	     !wb_foreign_io(90 << 20, 0, 45 << 20, why, sizeof(why));
	tap_ok(ok, "warmback: I/O: others reading more than we ask stops it, less does not");
}

/* A 4 MiB file where the tests run (not tmpfs: its pages cannot be dropped); fd or -1 */
static int data_file(const char *dir, const char *name, char *path, size_t len)
{
	static char buf[1 << 20];
	int fd, i;

	snprintf(path, len, "%s/%s", dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	memset(buf, 0x5a, sizeof(buf));
	for (i = 0; i < 4; i++)
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			goto fail;
	if (fsync(fd) < 0)
		goto fail;
	return fd;
fail:
	close(fd);
	unlink(path);
	return -1;
}

/* Pages [@from, @to) of @fd resident: read without readahead */
static void read_pages(int fd, long ps, int from, int to)
{
	char page[65536];
	int i;

	for (i = from; i < to; i++)
		if (pread(fd, page, (size_t)ps, (off_t)i * ps) < 0)
			break;
}

static int resident(int fd, long ps, int from, int to)
{
	unsigned char vec[1024];
	void *p = mmap(NULL, 4 << 20, PROT_READ, MAP_SHARED, fd, 0);
	int i, n = 0;

	if (p == MAP_FAILED)
		return -1;
	if (mincore(p, 4 << 20, vec) == 0)
		for (i = from; i < to; i++)
			n += vec[i] & 1;
	munmap(p, 4 << 20);
	return n;
}

/*
 * As resident(), once the reads asked for have completed: mincore() counts a
 * page only when it is up to date, and WILLNEED only starts the reads.  Bounded
 * by 10 s, for a few hundred KiB.
 */
static int wait_resident(int fd, long ps, int from, int to)
{
	int i, n = 0;

	for (i = 0; i < 1000 && (n = resident(fd, ps, from, to)) >= 0 && n < to - from; i++)
		usleep(10000);
	return n;
}

/* mincore() after FADV_DONTNEED: the note keeps what was read, the fill asks for what went */
static void test_file_kernel(const char *dir)
{
	struct wb_note_opts no = { .proc = "/proc", .max_bytes = 1 << 16 };
	struct wb_fill_opts fo = { .proc = "/proc", .sys_block = "/sys/dev/block" };
	long ps = sysconf(_SC_PAGESIZE);
	int pages = (int)((4 << 20) / ps), ok, fd;
	const struct wb_run *runs;
	const struct wb_rec *r;
	struct wb_fill_stats s;
	struct wb_notes n, rd;
	struct statfs sf;
	char path[4096], path2[4096];
	int fd2;

	if (statfs(dir, &sf) == 0 && (sf.f_type == TMPFS_MAGIC || sf.f_type == RAMFS_MAGIC)) {
		tap_ok(1, "warmback: kernel: note and fill of a file # SKIP %s is tmpfs", dir);
		return;
	}
	fd = data_file(dir, "test-warmback.data", path, sizeof(path));
	if (fd < 0) {
		tap_ok(0, "warmback: kernel: cannot write a file in %s: %s", dir, strerror(errno));
		return;
	}
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	read_pages(fd, ps, 0, pages / 4);
	read_pages(fd, ps, pages / 2, pages * 3 / 4);
	ok = resident(fd, ps, 0, pages) == pages / 2;
	tap_ok(ok, "warmback: kernel: half the file resident after DONTNEED and reads (%d of %d)",
	       resident(fd, ps, 0, pages), pages);

	no.deadline_ns = mono_ns() + 5000000000ull;
	ok = wb_notes_create(&n, no.max_bytes, (uint32_t)ps) == 0 &&
	     wb_note_file(&n, path, &no) == 0;
	r = ok ? wb_notes_next(&n, NULL) : NULL;
	runs = r ? wb_rec_runs(r) : NULL;
	ok = r && r->kind == WB_REC_FILE && !strcmp(wb_rec_path(r), path) && r->nruns == 2 &&
	     runs[0].start == 0 && runs[0].count == (uint64_t)pages / 4 &&
	     runs[1].start == (uint64_t)pages / 2 && runs[1].count == (uint64_t)pages / 4;
	tap_ok(ok, "warmback: kernel: the note holds the two resident runs, by mincore()");

	/* the first quarter evicted: the fill asks back exactly that */
	(void)posix_fadvise(fd, 0, (off_t)(pages / 8) * ps, POSIX_FADV_DONTNEED);
	wb_notes_seal(&n);
	fo.deadline_ns = mono_ns() + 5000000000ull;
	fo.dry = 1;
	ok = wb_notes_open(&rd, dup(n.fd)) == 0 && warmback_fill(&rd, &fo, &s) == 0 &&
	     s.file_bytes == (uint64_t)(pages / 8) * ps && !s.files_changed && !s.stopped[0];
	tap_ok(ok, "warmback: kernel: what to bring back: the %d pages evicted since (%llu KiB)",
	       pages / 8, (unsigned long long)(s.file_bytes >> 10));
	fo.dry = 0;
	ok = warmback_fill(&rd, &fo, &s) == 0 && s.file_bytes == (uint64_t)(pages / 8) * ps &&
	     wait_resident(fd, ps, 0, pages / 4) == pages / 4 &&
	     resident(fd, ps, pages / 4, pages / 2) == 0;
	tap_ok(ok, "warmback: kernel: the fill brings them back (WILLNEED), nothing else");
	wb_notes_free(&rd);

	/* another file at the path now (made while the first lives: another inode): left alone */
	fd2 = data_file(dir, "test-warmback.new", path2, sizeof(path2));
	ok = fd2 >= 0 && rename(path2, path) == 0;
	close(fd);
	fd = fd2;
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	ok = ok && wb_notes_open(&rd, dup(n.fd)) == 0 && warmback_fill(&rd, &fo, &s) == 0 &&
	     s.files_changed == 1 && s.file_bytes == 0 && resident(fd, ps, 0, pages) == 0;
	tap_ok(ok, "warmback: kernel: another file at the noted path is not touched");
	wb_notes_free(&rd);
	wb_notes_free(&n);
	if (fd >= 0)
		close(fd);
	unlink(path);
}

/* This process's own memory: present runs by pagemap; a start time that differs: untouched */
static void test_anon_kernel(void)
{
	struct wb_note_opts no = { .proc = "/proc", .max_bytes = 1 << 20 };
	struct wb_fill_opts fo = { .proc = "/proc", .sys_block = "/sys/dev/block" };
	long ps = sysconf(_SC_PAGESIZE);
	uint64_t base, got[2][2] = { { 0 } }, a, b;
	struct wb_rec *w = NULL;
	const struct wb_rec *r;
	struct wb_fill_stats s;
	struct wb_notes n, rd;
	unsigned char *p;
	uint32_t i;
	int k = 0, ok;

	p = mmap(NULL, 64 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		tap_ok(0, "warmback: kernel: mmap: %s", strerror(errno));
		return;
	}
	(void)madvise(p, 64 * ps, MADV_NOHUGEPAGE);
	for (i = 0; i < 16; i++)
		p[i * ps] = p[(32 + i) * ps] = 1;
	base = (uint64_t)(uintptr_t)p / (uint64_t)ps;
	no.deadline_ns = mono_ns() + 5000000000ull;
	ok = wb_notes_create(&n, no.max_bytes, (uint32_t)ps) == 0 &&
	     wb_note_pid(&n, getpid(), &no) == 0;
	r = ok ? wb_notes_next(&n, NULL) : NULL;
	/* the runs clipped to the mapping: other mappings may lie next to it */
	for (i = 0; r && i < r->nruns; i++) {
		a = wb_rec_runs(r)[i].start;
		b = a + wb_rec_runs(r)[i].count;
		a = a < base ? base : a;
		b = b > base + 64 ? base + 64 : b;
		if (a < b && k < 2) {
			got[k][0] = a - base;
			got[k++][1] = b - base;
		} else if (a < b) {
			k++;
		}
	}
	ok = r && r->kind == WB_REC_PROC && r->pid == (uint32_t)getpid() && k == 2 &&
	     got[0][0] == 0 && got[0][1] == 16 && got[1][0] == 32 && got[1][1] == 48;
	tap_ok(ok, "warmback: kernel: pagemap: the touched pages are the runs noted (%d runs: "
	       "%llu-%llu, %llu-%llu)", k, (unsigned long long)got[0][0],
	       (unsigned long long)got[0][1], (unsigned long long)got[1][0],
	       (unsigned long long)got[1][1]);
	wb_notes_seal(&n);
	fo.deadline_ns = mono_ns() + 5000000000ull;
	ok = r && wb_notes_open(&rd, dup(n.fd)) == 0 && warmback_fill(&rd, &fo, &s) == 0 &&
	     !s.procs_gone && s.anon_bytes == 0;
	tap_ok(ok, "warmback: kernel: the same process, nothing in swap: nothing asked");
	wb_notes_free(&rd);
	/* the pid reused by another process: another start time */
	n.map = mmap(NULL, n.cap, PROT_READ | PROT_WRITE, MAP_SHARED, n.fd, 0);
	if (n.map != MAP_FAILED)
		w = (struct wb_rec *)(n.map + sizeof(struct wb_head));
	else
		n.map = NULL;
	if (w)
		w->id++;
	ok = w && wb_notes_open(&rd, dup(n.fd)) == 0 && warmback_fill(&rd, &fo, &s) == 0 &&
	     s.procs_gone == 1 && s.anon_bytes == 0;
	tap_ok(ok, "warmback: kernel: a pid whose start time differs is never touched");
	wb_notes_free(&rd);
	wb_notes_free(&n);
	munmap(p, 64 * ps);
}

/*
 * warmback_start(): the child keeps no descriptor but stderr and its own (a
 * pipe held across the call sees its end closed as soon as the call returns:
 * the child is still there, its stderr a full pipe it waits to write its line
 * to), and says its line on stderr when done.  INVOCATION_ID is unset: no
 * systemd-run here.
 */
static void test_spawn(void)
{
	struct wb_note_opts no = { .proc = "/proc", .max_bytes = 1 << 16 };
	static const char want[] = "torpor: warm-back: 0 MiB of files and 0 MiB of memory "
				   "brought back in ";
	int errp[2], held[2], saved, ok, got = 0;
	char buf[512] = "", filler[512];
	struct pollfd p;
	struct wb_notes n;
	ssize_t r;
	int i, x;

	unsetenv("INVOCATION_ID");
	memset(filler, 'x', sizeof(filler));
	no.deadline_ns = mono_ns() + 5000000000ull;
	if (wb_notes_create(&n, no.max_bytes, (uint32_t)sysconf(_SC_PAGESIZE)) < 0 ||
	    wb_note_pid(&n, getpid(), &no) < 0 || pipe(errp) < 0 || pipe(held) < 0) {
		tap_ok(0, "warmback: spawn: setup: %s", strerror(errno));
		return;
	}
	wb_notes_seal(&n);
	/* stderr full: the child's line waits until we read */
	fcntl(errp[1], F_SETFL, O_NONBLOCK);
	while (write(errp[1], filler, sizeof(filler)) > 0)
		;
	fcntl(errp[1], F_SETFL, 0);
	fflush(stdout);
	saved = dup(2);
	dup2(errp[1], 2);
	close(errp[1]);
	warmback_start(&n);
	dup2(saved, 2);
	close(saved);
	close(held[1]);
	p.fd = held[0];
	p.events = POLLIN;
	ok = poll(&p, 1, 0) == 1 && (p.revents & POLLHUP) && n.fd == -1;
	tap_ok(ok, "warmback: spawn: the child holds none of our descriptors once started");
	close(held[0]);
	/* the filler, its line, then EOF when it exits: bounded by 20 s */
	for (i = 0; i < 200; i++) {
		p.fd = errp[0];
		if (poll(&p, 1, 100) <= 0)
			continue;
		r = read(errp[0], buf + got, sizeof(buf) - 1 - (size_t)got);
		if (r <= 0)
			break;
		got += (int)r;
		/* the filler's bytes are all 'x': drop them */
		for (x = 0; x < got && buf[x] == 'x'; x++)
			;
		memmove(buf, buf + x, (size_t)(got - x));
		got -= x;
	}
	buf[got] = '\0';
	close(errp[0]);
	ok = !strncmp(buf, want, strlen(want)) && strchr(buf, '\n') == buf + got - 1;
	tap_ok(ok, "warmback: spawn: the child says one line when done: %.*s",
	       got > 0 ? got - 1 : 0, buf);
}

/* The whole walk over /proc: bounded, and its notes read back whole */
static void test_walk(void)
{
	struct wb_note_opts no = { .proc = "/proc", .skip_pid = getpid(), .max_bytes = 1 << 20 };
	const struct wb_rec *r;
	struct wb_notes n, rd;
	uint64_t end = sizeof(struct wb_head);
	unsigned recs = 0;
	int ok;

	no.deadline_ns = mono_ns();
	ok = warmback_note(&n, &no) == 0 && wb_notes_open(&rd, dup(n.fd)) == 0 &&
	     (wb_head(&rd)->truncated & WB_CUT_TIME) && !wb_notes_next(&rd, NULL);
	tap_ok(ok, "warmback: walk: a deadline already past notes nothing and says so");
	wb_notes_free(&rd);
	wb_notes_free(&n);

	no.deadline_ns = mono_ns() + 2000000000ull;
	no.max_bytes = 4096;
	ok = warmback_note(&n, &no) == 0 && wb_notes_open(&rd, dup(n.fd)) == 0;
	for (r = ok ? wb_notes_next(&rd, NULL) : NULL; r; r = wb_notes_next(&rd, r)) {
		recs++;
		end += r->len;
	}
	ok = ok && end == wb_head(&rd)->used && wb_head(&rd)->used <= 4096 &&
	     recs == wb_head(&rd)->files + wb_head(&rd)->procs;
	tap_ok(ok, "warmback: walk: 4 KiB of notes at most, every record whole (%u records, %s)",
	       recs, ok && (wb_head(&rd)->truncated & WB_CUT_SIZE) ? "cut short" : "all");
	wb_notes_free(&rd);
	wb_notes_free(&n);
}

/* The truncated field of the notes in memfd @fd, or 0 */
static uint32_t wb_head_of_fd(int fd)
{
	struct wb_notes rd;
	uint32_t t = 0;

	if (wb_notes_open(&rd, dup(fd)) == 0)
		t = wb_head(&rd)->truncated;
	wb_notes_free(&rd);
	return t;
}

/*
 * A read of /proc that never returns (/proc/PID/maps waits on the process's
 * mmap lock, held by a task stuck in D state; a path leads into a FUSE mount
 * whose daemon does not answer): the walk still ends by its deadline plus
 * WB_NOTE_GRACE_MS.  A fake /proc whose maps is a FIFO no one writes: its
 * open never returns.  Run in a child that SIGALRM ends after 20 s.
 */
static void test_walk_stuck(const char *dir)
{
	struct wb_note_opts no = { .max_bytes = 1 << 16 };
	char root[4200], path[4300];
	static const char stat_line[] =
		"4242 (stuck) S 1 4242 4242 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 777 0 0\n";
	struct wb_notes n;
	int status = 0, fd, ok;
	pid_t pid;

	snprintf(root, sizeof(root), "%s/test-warmback.proc", dir);
	snprintf(path, sizeof(path), "%s/4242", root);
	mkdir(root, 0700);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/4242/stat", root);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ok = fd >= 0 && write(fd, stat_line, sizeof(stat_line) - 1) == sizeof(stat_line) - 1;
	if (fd >= 0)
		close(fd);
	snprintf(path, sizeof(path), "%s/4242/maps", root);
	unlink(path);
	if (!ok || mkfifo(path, 0600) < 0) {
		tap_ok(0, "warmback: walk: stuck: setup %s: %s", root, strerror(errno));
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		alarm(20);
		no.proc = root;
		no.deadline_ns = mono_ns() + 200000000ull;
		if (warmback_note(&n, &no) < 0)
			_exit(2);
		_exit(n.fd >= 0 && (wb_head_of_fd(n.fd) & WB_CUT_TIME) ? 0 : 3);
	}
	ok = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	     WEXITSTATUS(status) == 0;
	tap_ok(ok, "warmback: walk: a read of /proc that never returns: the walk ends, cut "
	       "short by time (%s %d)", WIFSIGNALED(status) ? "signal" : "exit",
	       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	unlink(path);
	snprintf(path, sizeof(path), "%s/4242/stat", root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/4242", root);
	rmdir(path);
	rmdir(root);
}

/* A block device node to stand behind a mountinfo line: made (root), else one of /dev's */
static int block_node(const char *dir, char *path, size_t len, struct stat *st)
{
	struct dirent *e;
	DIR *d;

	snprintf(path, len, "%s/test-warmback.blk", dir);
	unlink(path);
	if (mknod(path, S_IFBLK | 0600, makedev(7, 200)) == 0 && stat(path, st) == 0)
		return 1;
	d = opendir("/dev");
	while (d && (e = readdir(d))) {
		snprintf(path, len, "/dev/%s", e->d_name);
		if (stat(path, st) == 0 && S_ISBLK(st->st_mode)) {
			closedir(d);
			return 0;
		}
	}
	if (d)
		closedir(d);
	path[0] = '\0';
	return -1;
}

/*
 * The disk under a filesystem with an anonymous st_dev (btrfs, 0:N): found by
 * its mount's source, so the warm-back watches it for others' I/O
 */
static void test_disk_of(const char *dir)
{
	char root[4200], path[4300], node[4200], line[4600], abs[PATH_MAX];
	struct stat st;
	dev_t disk = 0;
	int made, fd, ok;

	/* a mount's source is an absolute path */
	if (!realpath(dir, abs)) {
		tap_ok(0, "warmback: disk: realpath %s: %s", dir, strerror(errno));
		return;
	}
	made = block_node(abs, node, sizeof(node), &st);
	if (made < 0) {
		tap_ok(0, "warmback: disk: no block device to name in a mountinfo line");
		return;
	}
	snprintf(root, sizeof(root), "%s/test-warmback.mproc", dir);
	snprintf(path, sizeof(path), "%s/self", root);
	mkdir(root, 0700);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/self/mountinfo", root);
	snprintf(line, sizeof(line),
		 "22 1 0:21 / /proc rw,nosuid - proc proc rw\n"
		 "30 1 0:77 / /home rw,relatime shared:1 - btrfs %s rw,space_cache=v2\n"
		 "31 1 0:78 / /tmp rw - tmpfs tmpfs rw\n", node);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ok = fd >= 0 && write(fd, line, strlen(line)) == (ssize_t)strlen(line);
	if (fd >= 0)
		close(fd);
	ok = ok && wb_disk_of(root, makedev(0, 77), &disk) == 0 && disk == st.st_rdev;
	ok = ok && wb_disk_of(root, makedev(0, 78), &disk) == -ENODEV &&
	     wb_disk_of(root, makedev(0, 79), &disk) == -ENODEV &&
	     wb_disk_of(root, makedev(8, 1), &disk) == 0 && disk == makedev(8, 1);
	tap_ok(ok, "warmback: disk: btrfs's 0:77 is its source's disk; tmpfs and unknown have "
	       "none; 8:1 is itself");
	unlink(path);
	snprintf(path, sizeof(path), "%s/self", root);
	rmdir(path);
	rmdir(root);
	if (made)
		unlink(node);
}

/*
 * A walk that ends early returns then, not at its deadline: the child's end is
 * waited for, however its closing of the pipe and its reaping interleave.
 * Twenty walks over an empty /proc, deadline 30 s away each: all within 10 s.
 */
static void test_walk_quick(const char *dir)
{
	struct wb_note_opts no = { .max_bytes = 1 << 16 };
	char root[4200];
	struct wb_notes n;
	uint64_t t0, worst = 0, t;
	int i, ok = 1;

	snprintf(root, sizeof(root), "%s/test-warmback.empty", dir);
	mkdir(root, 0700);
	no.proc = root;
	for (i = 0; i < 20 && ok; i++) {
		t0 = mono_ns();
		no.deadline_ns = t0 + 30000000000ull;
		ok = warmback_note(&n, &no) == 0;
		t = mono_ns() - t0;
		worst = t > worst ? t : worst;
		ok = ok && t < 10000000000ull;
		wb_notes_free(&n);
	}
	rmdir(root);
	tap_ok(ok, "warmback: walk: an empty /proc is walked at once, not at the deadline "
	       "(slowest of 20: %llu ms)", (unsigned long long)(worst / 1000000));
}

int main(int argc, char **argv)
{
	char dir[4096], *slash;

	snprintf(dir, sizeof(dir), "%s", argc > 0 ? argv[0] : ".");
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	test_runs();
	test_vec();
	test_maps();
	test_stat();
	test_notes();
	test_foreign();
	test_open(dir);
	test_file_kernel(dir);
	test_anon_kernel();
	test_spawn();
	test_walk();
	test_walk_stuck(dir);
	test_walk_quick(dir);
	test_disk_of(dir);
	return tap_done();
}
