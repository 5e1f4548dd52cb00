// SPDX-License-Identifier: GPL-2.0-only
/*
 * warmback-fill.c - after the thaw, ask back what the notes hold and is gone
 * now: for each noted file still at its path (the same device and inode),
 * the pages of its noted runs that mincore() says are not resident, with
 * posix_fadvise(WILLNEED); for each noted process still alive (the same start
 * time, checked again once a pidfd holds it), the pages of its noted runs that
 * pagemap says are in swap (bit 62), with process_madvise(MADV_WILLNEED); where
 * the kernel lacks it, by reading them with process_vm_readv().  Requests of at
 * most WB_CHUNK_BYTES; between them the disks the pages come from are watched
 * (/sys/dev/block/M:m/stat): it stops when others read or write there (
 * wb_foreign_io()), and at the deadline.  Nothing here writes to any disk.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "monoclock.h"
#include "mountinfo.h"
#include "warmback.h"

#define WIN_PAGES 16384u		/* mincore() window */
#define PM_PAGES 8192u			/* pagemap entries read at once */
#define MISS_MAX 4096u			/* missing runs of one window */
#define IOV_MAX_WB 512u			/* ranges of one process_madvise() */
#define WATCH_MAX 8			/* disks watched */
#define WINDOW_NS 1000000000ull		/* the I/O watch's window */
#define OTHERS_WRITE (8ull << 20)	/* bytes others write in a window: stop */
#define OTHERS_READ (32ull << 20)	/* bytes others read in a window (and more than we): stop */
#ifndef MADV_WILLNEED
#define MADV_WILLNEED 3
#endif

struct watch {
	char stat[WATCH_MAX][PATH_MAX];	/* each disk's stat file */
	char name[WATCH_MAX][32];
	int n;
	uint64_t rd[WATCH_MAX], wr[WATCH_MAX];	/* bytes at the window's start */
	uint64_t t0;			/* the window's start */
	uint64_t ours, ours_prev;	/* bytes asked in this window and the one before */
};

struct fill {
	const struct wb_fill_opts *o;
	struct wb_fill_stats *s;
	uint32_t ps;
	struct watch w;
	unsigned char *vec;
	uint64_t *pm;
	struct wb_run *miss;
	struct iovec *iov;
	size_t niov;
	uint64_t iov_bytes;
	void *scratch;			/* process_vm_readv()'s landing place */
	uint64_t fadv_pages;		/* one posix_fadvise() of the file now filled */
	int stop;
};

/*
 * wb_foreign_io() - whether others' I/O needs the disks: in one window, the
 * disks read @read_bytes and wrote @write_bytes while we asked for @ours.  We
 * never write; our reads are at most what we asked (the requests are exact
 * ranges).  1 with the reason in @why, else 0.
 */
int wb_foreign_io(uint64_t read_bytes, uint64_t write_bytes, uint64_t ours, char *why,
		  size_t len)
{
	uint64_t others = read_bytes > ours ? read_bytes - ours : 0;

	if (write_bytes >= OTHERS_WRITE) {
		snprintf(why, len, "others wrote %llu MiB",
			 (unsigned long long)(write_bytes >> 20));
		return 1;
	}
	if (others >= OTHERS_READ && others > ours) {
		snprintf(why, len, "others read %llu MiB", (unsigned long long)(others >> 20));
		return 1;
	}
	return 0;
}

/* Bytes read and written so far by the disk whose stat file is @path; 0 or -errno */
static int disk_bytes(const char *path, uint64_t *ret_rd, uint64_t *ret_wr)
{
	unsigned long long v[7];
	char buf[256];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
		   &v[5], &v[6]) != 7)
		return -EINVAL;
	*ret_rd = (uint64_t)v[2] * 512;
	*ret_wr = (uint64_t)v[6] * 512;
	return 0;
}

/*
 * The disks under /sys/dev/block/M:m's directory @dir, added to the watch:
 * a partition's whole disk, a device mapper's or md's slaves, so I/O is seen
 * once, where it lands.
 */
static void watch_dir(struct watch *w, const char *dir, int depth)
{
	char path[PATH_MAX + 320], real[PATH_MAX], *slash;
	struct dirent *e;
	DIR *d;
	int i, any = 0;

	if (depth > 4 || !realpath(dir, real))
		return;
	snprintf(path, sizeof(path), "%s/slaves", real);
	d = opendir(path);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/slaves/%s", real, e->d_name);
		watch_dir(w, path, depth + 1);
		any = 1;
	}
	if (d)
		closedir(d);
	if (any)
		return;
	snprintf(path, sizeof(path), "%s/partition", real);
	if (access(path, F_OK) == 0 && (slash = strrchr(real, '/')))
		*slash = '\0';
	for (i = 0; i < w->n; i++)
		if (!strncmp(w->stat[i], real, strlen(real)) && w->stat[i][strlen(real)] == '/')
			return;
	if (w->n >= WATCH_MAX)
		return;
	snprintf(w->stat[w->n], sizeof(w->stat[0]), "%.*s/stat", PATH_MAX - 8, real);
	slash = strrchr(real, '/');
	snprintf(w->name[w->n], sizeof(w->name[0]), "%.31s", slash ? slash + 1 : real);
	if (disk_bytes(w->stat[w->n], &w->rd[w->n], &w->wr[w->n]) == 0)
		w->n++;
}

/*
 * wb_disk_of() - the block device under st_dev @dev: @dev itself, or for an
 * anonymous one (btrfs, 0:N) the source of its mount in @proc/self/mountinfo
 * when that is a block device.  0, or -ENODEV (tmpfs, overlay, none found).
 */
int wb_disk_of(const char *proc, dev_t dev, dev_t *ret)
{
	struct mountinfo_reader rd;
	struct mountinfo_entry e;
	char path[64];
	struct stat st;
	int r, found = -ENODEV;

	if (major(dev)) {
		*ret = dev;
		return 0;
	}
	snprintf(path, sizeof(path), "%s/self/mountinfo", proc);
	if (mountinfo_open(&rd, path) < 0)
		return -ENODEV;
	while (found && (r = mountinfo_next(&rd, &e)) != 0) {
		if (r < 0 && r != -EINVAL && r != -E2BIG)
			break;
		if (r < 0 || e.major || e.minor != minor(dev) || e.source[0] != '/')
			continue;
		/* one filesystem, many mounts: the first one whose source is a disk */
		if (stat(e.source, &st) == 0 && S_ISBLK(st.st_mode)) {
			*ret = st.st_rdev;
			found = 0;
		}
	}
	mountinfo_close(&rd);
	return found;
}

static void watch_dev(struct fill *f, dev_t dev)
{
	char dir[PATH_MAX];

	if (!f->o->watch || wb_disk_of(f->o->proc, dev, &dev) < 0)
		return;
	snprintf(dir, sizeof(dir), "%s/%u:%u", f->o->sys_block, major(dev), minor(dev));
	watch_dir(&f->w, dir, 0);
}

/* The swap areas' disks: where the memory comes back from */
static void watch_swaps(struct fill *f)
{
	char path[64], line[512], *sp;
	struct stat st;
	FILE *sw;

	snprintf(path, sizeof(path), "%s/swaps", f->o->proc);
	sw = fopen(path, "re");
	if (!sw)
		return;
	while (fgets(line, sizeof(line), sw)) {
		sp = strchr(line, ' ');
		if (line[0] != '/' || !sp)
			continue;
		*sp = '\0';
		if (stat(line, &st) == 0)
			watch_dev(f, S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev);
	}
	fclose(sw);
}

/* After @bytes more were asked for: the deadline, and once a window, the disks */
static void account(struct fill *f, uint64_t bytes)
{
	struct watch *w = &f->w;
	uint64_t now = mono_ns(), rd = 0, wr = 0, r1, w1;
	int i;

	w->ours += bytes;
	if (now > f->o->deadline_ns) {
		snprintf(f->s->stopped, sizeof(f->s->stopped), "time limit (%d s)", WB_RUN_SECONDS);
		f->stop = 1;
		return;
	}
	if (!w->n || now - w->t0 < WINDOW_NS)
		return;
	for (i = 0; i < w->n; i++) {
		if (disk_bytes(w->stat[i], &r1, &w1) < 0)
			continue;
		rd += r1 - w->rd[i];
		wr += w1 - w->wr[i];
		w->rd[i] = r1;
		w->wr[i] = w1;
	}
	/* what we asked in the window before may be read in this one */
	if (wb_foreign_io(rd, wr, w->ours + w->ours_prev, f->s->stopped, sizeof(f->s->stopped))) {
		size_t l = strlen(f->s->stopped);

		snprintf(f->s->stopped + l, sizeof(f->s->stopped) - l, " on %s%s", w->name[0],
			 w->n > 1 ? " and others" : "");
		f->stop = 1;
	}
	w->ours_prev = w->ours;
	w->ours = 0;
	w->t0 = now;
}

/* The pages of @fd in [@start, @start + @count) that are not resident, asked back */
static void fill_range(struct fill *f, int fd, uint64_t start, uint64_t count)
{
	uint64_t off, len, got, b, l, at;
	size_t m, i;

	for (off = start; off < start + count && !f->stop; off += len) {
		len = start + count - off < WIN_PAGES ? start + count - off : WIN_PAGES;
		if (wb_mincore(fd, off, len, f->ps, f->vec) < 0)
			return;
		m = 0;
		(void)wb_runs_from_vec(f->vec, len, off, 0, 0, f->miss, &m, MISS_MAX, &got);
		for (i = 0; i < m && !f->stop; i++) {
			for (b = 0; b < f->miss[i].count && !f->stop; b += l) {
				l = f->miss[i].count - b;
				if (l > f->fadv_pages)
					l = f->fadv_pages;
				at = (f->miss[i].start + b) * f->ps;
				if (!f->o->dry)
					(void)posix_fadvise(fd, (off_t)at, (off_t)(l * f->ps),
							    POSIX_FADV_WILLNEED);
				f->s->file_bytes += l * f->ps;
				account(f, l * f->ps);
			}
		}
	}
}

/* A number from a sysfs file; 0 when none */
static uint64_t sys_u64(const char *path)
{
	unsigned long long v = 0;
	FILE *fp = fopen(path, "re");

	if (fp) {
		if (fscanf(fp, "%llu", &v) != 1)
			v = 0;
		fclose(fp);
	}
	return v;
}

/*
 * The pages one WILLNEED of a file on @dev reads: kernels before 6.16 or so cut
 * it to the larger of the device's readahead and its largest request (bdi
 * ra_pages, io_pages).  128 KiB where the device does not say; at most
 * WB_CHUNK_BYTES.
 */
static uint64_t fadv_pages(const struct fill *f, dev_t dev)
{
	static const char *const up[] = { "", "/.." };
	uint64_t kb = 0, ra, mx;
	char path[128];
	size_t i;

	for (i = 0; i < 2 && !kb; i++) {
		snprintf(path, sizeof(path), "%s/%u:%u%s/queue/read_ahead_kb", f->o->sys_block,
			 major(dev), minor(dev), up[i]);
		ra = sys_u64(path);
		snprintf(path, sizeof(path), "%s/%u:%u%s/queue/max_sectors_kb", f->o->sys_block,
			 major(dev), minor(dev), up[i]);
		mx = sys_u64(path);
		kb = ra > mx ? ra : mx;
	}
	if (!kb)
		kb = 128;
	if (kb > WB_CHUNK_BYTES >> 10)
		kb = WB_CHUNK_BYTES >> 10;
	return kb * 1024 / f->ps ? kb * 1024 / f->ps : 1;
}

/* One noted file, if it is still the same file at its path */
static void fill_file(struct fill *f, const struct wb_rec *r)
{
	const struct wb_run *runs = wb_rec_runs(r);
	uint64_t size = 0, pages;
	struct stat st;
	uint32_t i;
	int fd;

	fd = wb_open_data(wb_rec_path(r), &st);
	if (fd < 0) {
		f->s->files_changed++;
		return;
	}
	if ((r->dev ? !S_ISREG(st.st_mode) || (uint64_t)st.st_dev != r->dev ||
		      (uint64_t)st.st_ino != r->id :
		      !S_ISBLK(st.st_mode) || (uint64_t)st.st_rdev != r->id)) {
		f->s->files_changed++;
		close(fd);
		return;
	}
	size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
	if (S_ISBLK(st.st_mode))
		size = (uint64_t)lseek(fd, 0, SEEK_END);
	pages = (size + f->ps - 1) / f->ps;
	watch_dev(f, S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev);
	f->fadv_pages = fadv_pages(f, S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev);
	for (i = 0; i < r->nruns && !f->stop; i++) {
		if (runs[i].start >= pages)
			break;
		fill_range(f, fd, runs[i].start,
			   runs[i].count < pages - runs[i].start ? runs[i].count :
			   pages - runs[i].start);
	}
	close(fd);
}

/* @pid's start time now, or 0 when it is gone or unreadable */
static uint64_t start_of(const char *proc, uint32_t pid)
{
	char path[64], buf[1024];
	unsigned long flags;
	uint64_t start;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "%s/%u/stat", proc, pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	len = read(fd, buf, sizeof(buf));
	close(fd);
	if (len <= 0 || wb_stat_parse(buf, (size_t)len, &start, &flags) < 0)
		return 0;
	return start;
}

/*
 * The ranges gathered, asked back in the process @pidfd holds (@pid, its
 * start time @start): process_madvise(), else reading them.  -1 to give up on it.
 */
static int flush_iov(struct fill *f, int pidfd, const struct wb_rec *r)
{
	struct iovec local;
	ssize_t n = 0;
	size_t i;

	if (!f->niov)
		return 0;
	if (f->o->dry) {
		n = 0;
	} else if (f->s->anon_mode < 2) {
		n = syscall(SYS_process_madvise, pidfd, f->iov, f->niov, MADV_WILLNEED, 0);
		if (n < 0 && (errno == ENOSYS || errno == EINVAL || errno == EPERM) &&
		    !f->s->anon_mode)
			f->s->anon_mode = 2;
		else if (n >= 0)
			f->s->anon_mode = 1;
	}
	/* no process_madvise(): read the pages, which swaps them in; the pid checked again */
	if (!f->o->dry && f->s->anon_mode == 2) {
		for (i = 0; i < f->niov && f->scratch; i++) {
			if (start_of(f->o->proc, r->pid) != r->id)
				return -1;
			local.iov_base = f->scratch;
			local.iov_len = f->iov[i].iov_len;
			n = process_vm_readv((pid_t)r->pid, &local, 1, &f->iov[i], 1, 0);
			if (n < 0)
				break;
		}
	}
	f->s->anon_bytes += f->iov_bytes;
	account(f, f->iov_bytes);
	f->niov = 0;
	f->iov_bytes = 0;
	return n < 0 && (errno == ESRCH || errno == ENOMEM) ? -1 : 0;
}

/* The swapped pages of [@start, @start + @count) (pages of the address space) gathered */
static int fill_anon_run(struct fill *f, int pm_fd, int pidfd, const struct wb_rec *r,
			 uint64_t start, uint64_t count)
{
	uint64_t off, len, got, b, l, at;
	size_t m, i;
	ssize_t n;

	for (off = start; off < start + count && !f->stop; off += len) {
		len = start + count - off < PM_PAGES ? start + count - off : PM_PAGES;
		n = pread(pm_fd, f->pm, len * 8, (off_t)(off * 8));
		if (n <= 0)
			return 0;
		len = (uint64_t)n / 8;
		m = 0;
		(void)wb_runs_from_pagemap(f->pm, len, off, 62, 0, f->miss, &m, MISS_MAX, &got);
		for (i = 0; i < m && !f->stop; i++) {
			for (b = 0; b < f->miss[i].count && !f->stop; b += l) {
				l = f->miss[i].count - b;
				if (l > WB_CHUNK_BYTES / f->ps)
					l = WB_CHUNK_BYTES / f->ps;
				at = (f->miss[i].start + b) * f->ps;
				f->iov[f->niov].iov_base = (void *)(uintptr_t)at;
				f->iov[f->niov].iov_len = l * f->ps;
				f->niov++;
				f->iov_bytes += l * f->ps;
				if ((f->niov == IOV_MAX_WB || f->iov_bytes >= WB_CHUNK_BYTES) &&
				    flush_iov(f, pidfd, r) < 0)
					return -1;
			}
		}
	}
	return 0;
}

/* One noted process, if it is still the same process */
static void fill_proc(struct fill *f, const struct wb_rec *r)
{
	const struct wb_run *runs = wb_rec_runs(r);
	char path[64];
	int pidfd, pm_fd;
	uint32_t i;

	if (start_of(f->o->proc, r->pid) != r->id) {
		f->s->procs_gone++;
		return;
	}
	if (f->s->anon_mode == 3)
		return;
	pidfd = (int)syscall(SYS_pidfd_open, (pid_t)r->pid, 0);
	if (pidfd < 0) {
		/* before 5.3: no way to hold the process while it is advised, so no memory */
		if (errno == ENOSYS)
			f->s->anon_mode = 3;
		else
			f->s->procs_gone++;
		return;
	}
	/* held by the pidfd now: the process checked is the one advised */
	if (start_of(f->o->proc, r->pid) != r->id) {
		f->s->procs_gone++;
		close(pidfd);
		return;
	}
	snprintf(path, sizeof(path), "%s/%u/pagemap", f->o->proc, r->pid);
	pm_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (pm_fd >= 0) {
		for (i = 0; i < r->nruns && !f->stop; i++)
			if (fill_anon_run(f, pm_fd, pidfd, r, runs[i].start, runs[i].count) < 0)
				break;
		if (!f->stop)
			(void)flush_iov(f, pidfd, r);
		f->niov = 0;
		f->iov_bytes = 0;
		close(pm_fd);
	}
	close(pidfd);
}

/**
 * warmback_fill() - ask back what the notes @n hold and is gone now
 * @o: /proc, /sys/dev/block, the deadline, whether to watch the disks, dry
 * @s: what was asked for, skipped, and why it stopped early
 *
 * Memory first (its faults cost one swap read each), then files.
 * Return: 0, or -ENOMEM.  Silent.
 */
int warmback_fill(const struct wb_notes *n, const struct wb_fill_opts *o, struct wb_fill_stats *s)
{
	const struct wb_rec *r;
	struct fill f;
	int pass, rc = 0;

	memset(s, 0, sizeof(*s));
	memset(&f, 0, sizeof(f));
	f.o = o;
	f.s = s;
	f.ps = wb_head(n)->page_size;
	f.vec = malloc(WIN_PAGES);
	f.pm = malloc(PM_PAGES * sizeof(*f.pm));
	f.miss = malloc(MISS_MAX * sizeof(*f.miss));
	f.iov = malloc(IOV_MAX_WB * sizeof(*f.iov));
	f.scratch = malloc(WB_CHUNK_BYTES);
	if (!f.vec || !f.pm || !f.miss || !f.iov) {
		rc = -ENOMEM;
		goto out;
	}
	f.w.t0 = mono_ns();
	if (o->watch)
		watch_swaps(&f);
	for (pass = WB_REC_PROC; pass >= WB_REC_FILE && !f.stop; pass--)
		for (r = wb_notes_next(n, NULL); r && !f.stop; r = wb_notes_next(n, r))
			if (r->kind == pass && pass == WB_REC_PROC)
				fill_proc(&f, r);
			else if (r->kind == pass)
				fill_file(&f, r);
out:
	free(f.vec);
	free(f.pm);
	free(f.miss);
	free(f.iov);
	free(f.scratch);
	return rc;
}
