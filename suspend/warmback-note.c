// SPDX-License-Identifier: GPL-2.0-only
/*
 * warmback-note.c - before the freeze, note what the working set holds: for
 * every user process, the resident pages (mincore) of the files it maps or
 * holds open, regular files and block devices, each file once; and its present
 * anonymous pages (/proc/PID/pagemap bit 63), with the process's start time so
 * a reused pid is never touched after.  Files on tmpfs and the like are left
 * out: their pages are never dropped, only swapped.
 *
 * Bounded: o->deadline_ns, o->max_bytes of notes, WB_FILES_MAX files; a bound
 * reached cuts the notes short (wb_head.truncated) and is no error.  Nothing
 * here writes to any disk.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "monoclock.h"
#include "mountinfo.h"
#include "warmback.h"

#define WIN_PAGES 16384u		/* mincore() window: 64 MiB of 4 KiB pages */
#define PM_PAGES 8192u			/* pagemap entries read at once: 64 KiB */
#define RUNS_MAX 65536u			/* runs of one file or one process */
#define SEEN_SLOTS (2 * WB_FILES_MAX)	/* open addressing, at most half full */
#define ANON_VMA_MAX (16ull << 30)	/* larger anonymous mappings are reservations */
#ifndef PF_KTHREAD
#define PF_KTHREAD 0x00200000
#endif

struct seen {
	uint64_t dev;			/* UINT64_MAX: an empty slot */
	uint64_t id;
};

#define HANG_MAX 64
/* A mount of a filesystem that may hang: its files are left alone */
struct hang {
	unsigned major, minor;
	char point[256];
};

struct ctx {
	struct wb_notes *n;
	const struct wb_note_opts *o;
	uint32_t ps;
	struct wb_run *fruns;		/* one file's runs */
	struct wb_run *aruns;		/* one process's runs */
	unsigned char *vec;
	uint64_t *pm;
	struct seen *seen;		/* NULL: no dedupe (one file noted alone) */
	unsigned nseen;
	struct hang *hang;		/* the mounts to leave alone */
	size_t nhang;
	int done;			/* a bound was reached: stop */
};

static void cut(struct ctx *c, int why)
{
	wb_head(c->n)->truncated |= (uint32_t)why;
	c->done = 1;
}

static int late(struct ctx *c)
{
	if (!c->done && mono_ns() > c->o->deadline_ns)
		cut(c, WB_CUT_TIME);
	return c->done;
}

/* 1 when (@dev, @id) was seen before (and now it is); -ENOSPC when the table is full */
static int seen(struct ctx *c, uint64_t dev, uint64_t id)
{
	uint64_t h = (dev * 0x9e3779b97f4a7c15ull) ^ (id * 0xc2b2ae3d27d4eb4full);
	size_t i = (size_t)(h >> 40) % SEEN_SLOTS;

	if (!c->seen)
		return 0;
	while (c->seen[i].dev != UINT64_MAX) {
		if (c->seen[i].dev == dev && c->seen[i].id == id)
			return 1;
		i = (i + 1) % SEEN_SLOTS;
	}
	if (c->nseen >= WB_FILES_MAX)
		return -ENOSPC;
	c->seen[i].dev = dev;
	c->seen[i].id = id;
	c->nseen++;
	return 0;
}

/* Filesystems whose pages are never dropped for an image (swapped at most), or not data */
static int volatile_fs(int fd)
{
	struct statfs sf;

	if (fstatfs(fd, &sf) < 0)
		return 1;
	switch ((unsigned long)sf.f_type) {
	case TMPFS_MAGIC:
	case RAMFS_MAGIC:
	case PROC_SUPER_MAGIC:
	case SYSFS_MAGIC:
	case DEVPTS_SUPER_MAGIC:
	case CGROUP_SUPER_MAGIC:
	case CGROUP2_SUPER_MAGIC:
	case DEBUGFS_MAGIC:
	case TRACEFS_MAGIC:
	case SECURITYFS_MAGIC:
	case BPF_FS_MAGIC:
	case HUGETLBFS_MAGIC:
	case PSTOREFS_MAGIC:
	case EFIVARFS_MAGIC:
		return 1;
	}
	return 0;
}

/* The runs a record can hold in the room the notes have left */
static size_t runs_room(const struct ctx *c)
{
	uint64_t room = c->n->cap - wb_head(c->n)->used;

	room = room > sizeof(struct wb_rec) + 8 ? (room - sizeof(struct wb_rec) - 8) /
						   sizeof(struct wb_run) : 0;
	return room < RUNS_MAX ? (size_t)room : RUNS_MAX;
}

/* The resident pages of @fd (@pages long) into c->fruns: their number */
static size_t resident_runs(struct ctx *c, int fd, uint64_t pages)
{
	size_t n = 0, cap = runs_room(c);
	uint64_t off, len, got;

	for (off = 0; off < pages && !late(c); off += len) {
		len = pages - off < WIN_PAGES ? pages - off : WIN_PAGES;
		if (wb_mincore(fd, off, len, c->ps, c->vec) < 0)
			break;
		if (wb_runs_from_vec(c->vec, len, off, 1, WB_GAP_PAGES, c->fruns, &n, cap,
				     &got) < 0) {
			cut(c, WB_CUT_SIZE);
			break;
		}
	}
	return n;
}

/* @path lies under a mount whose filesystem may hang (wb_fs_may_hang()) */
static int under_hanging(const struct ctx *c, const char *path)
{
	size_t i, l;

	for (i = 0; i < c->nhang; i++) {
		l = strlen(c->hang[i].point);
		if (!strncmp(path, c->hang[i].point, l) &&
		    (path[l] == '/' || !path[l] || (l == 1 && c->hang[i].point[0] == '/')))
			return 1;
	}
	return 0;
}

static int dev_hangs(const struct ctx *c, unsigned major, unsigned minor)
{
	size_t i;

	for (i = 0; i < c->nhang; i++)
		if (c->hang[i].major == major && c->hang[i].minor == minor)
			return 1;
	return 0;
}

/* The file at @path, once: its resident runs as a record.  0, or -errno for a bound */
static int note_file(struct ctx *c, const char *path)
{
	struct wb_rec rec = { .kind = WB_REC_FILE };
	uint64_t size = 0;
	struct stat st;
	size_t n;
	int fd, r;

	if (under_hanging(c, path))
		return 0;
	fd = wb_open_data(path, &st);
	if (fd < 0)
		return 0;
	rec.dev = S_ISREG(st.st_mode) ? (uint64_t)st.st_dev : 0;
	rec.id = S_ISREG(st.st_mode) ? (uint64_t)st.st_ino : (uint64_t)st.st_rdev;
	r = seen(c, rec.dev, rec.id);
	if (r == -ENOSPC)
		cut(c, WB_CUT_FILES);
	if (r)
		goto out;
	if (S_ISREG(st.st_mode)) {
		if (volatile_fs(fd))
			goto out;
		size = (uint64_t)st.st_size;
	} else if (ioctl(fd, BLKGETSIZE64, &size) < 0) {
		goto out;
	}
	n = resident_runs(c, fd, (size + c->ps - 1) / c->ps);
	if (n) {
		rec.nruns = (uint32_t)n;
		r = wb_notes_add(c->n, &rec, c->fruns, path);
		if (r == -ENOSPC)
			cut(c, WB_CUT_SIZE);
	}
out:
	close(fd);
	return 0;
}

/* The present pages of [@start, @end) from pagemap @pm_fd into c->aruns (@n) */
static void anon_runs(struct ctx *c, int pm_fd, uint64_t start, uint64_t end, size_t *n)
{
	uint64_t first = start / c->ps, pages = (end - start) / c->ps, off, len, got;
	ssize_t r;

	for (off = 0; off < pages && !late(c); off += len) {
		len = pages - off < PM_PAGES ? pages - off : PM_PAGES;
		r = pread(pm_fd, c->pm, len * 8, (off_t)((first + off) * 8));
		if (r <= 0)
			return;
		len = (uint64_t)r / 8;
		if (wb_runs_from_pagemap(c->pm, len, first + off, 63, WB_GAP_PAGES, c->aruns, n,
					 runs_room(c), &got) < 0) {
			cut(c, WB_CUT_SIZE);
			return;
		}
	}
}

/* The start time of @pid, and whether it is a kernel thread; 0 or -errno */
static int pid_start(const char *proc, pid_t pid, uint64_t *ret_start, int *ret_kthread)
{
	char path[64], buf[1024];
	unsigned long flags;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "%s/%d/stat", proc, (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = read(fd, buf, sizeof(buf));
	close(fd);
	if (len <= 0)
		return -EIO;
	if (wb_stat_parse(buf, (size_t)len, ret_start, &flags) < 0)
		return -EINVAL;
	*ret_kthread = (flags & PF_KTHREAD) != 0;
	return 0;
}

/* The open regular files and block devices of @pid */
static void note_fds(struct ctx *c, pid_t pid)
{
	char dir[64], target[4096];
	struct dirent *e;
	ssize_t len;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/%d/fd", c->o->proc, (int)pid);
	d = opendir(dir);
	if (!d)
		return;
	while (!late(c) && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		len = readlinkat(dirfd(d), e->d_name, target, sizeof(target) - 1);
		if (len <= 0 || target[0] != '/')
			continue;
		target[len] = '\0';
		/* a deleted file: nothing to open it by after the resume */
		if (len > 10 && !strcmp(target + len - 10, " (deleted)"))
			continue;
		(void)note_file(c, target);
	}
	closedir(d);
}

/* One process: its mapped files (@files), its anonymous pages, its open files */
static int note_pid(struct ctx *c, pid_t pid, int files)
{
	struct wb_rec rec = { .kind = WB_REC_PROC, .pid = (uint32_t)pid };
	char path[64], *line = NULL, last[4096] = "";
	struct wb_maps_line m;
	size_t cap = 0, n = 0;
	int kthread = 0, pm_fd, r;
	FILE *f;

	r = pid_start(c->o->proc, pid, &rec.id, &kthread);
	if (r < 0 || kthread)
		return r;
	snprintf(path, sizeof(path), "%s/%d/maps", c->o->proc, (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	snprintf(path, sizeof(path), "%s/%d/pagemap", c->o->proc, (int)pid);
	pm_fd = open(path, O_RDONLY | O_CLOEXEC);
	while (!late(c) && getline(&line, &cap, f) > 0) {
		if (wb_maps_parse(line, &m) < 0)
			continue;
		if (files && wb_maps_is_file(&m) && strcmp(m.path, last) &&
		    !dev_hangs(c, m.major, m.minor)) {
			snprintf(last, sizeof(last), "%s", m.path);
			(void)note_file(c, m.path);
		} else if (pm_fd >= 0 && wb_maps_is_anon(&m) && m.end - m.start <= ANON_VMA_MAX) {
			anon_runs(c, pm_fd, m.start, m.end, &n);
		}
	}
	free(line);
	fclose(f);
	if (pm_fd >= 0)
		close(pm_fd);
	if (files)
		note_fds(c, pid);
	if (n) {
		rec.nruns = (uint32_t)n;
		if (wb_notes_add(c->n, &rec, c->aruns, NULL) == -ENOSPC)
			cut(c, WB_CUT_SIZE);
	}
	return 0;
}

/* Every file left alone: the walk notes memory only */
static void hang_all(struct ctx *c)
{
	c->hang[0].major = c->hang[0].minor = UINT32_MAX;
	snprintf(c->hang[0].point, sizeof(c->hang[0].point), "/");
	c->nhang = 1;
}

/*
 * The mounts of filesystems that may hang, from our mountinfo; when it cannot
 * be read whole, or a mount point is too long to keep, every file is left alone.
 */
static void find_hanging(struct ctx *c)
{
	struct mountinfo_reader rd;
	struct mountinfo_entry e;
	int r;

	if (mountinfo_open(&rd, MOUNTINFO_PATH) < 0) {
		hang_all(c);
		return;
	}
	while ((r = mountinfo_next(&rd, &e)) != 0) {
		if (r < 0 && r != -EINVAL && r != -E2BIG) {
			hang_all(c);
			break;
		}
		if (r < 0 || !wb_fs_may_hang(e.fstype))
			continue;
		if (c->nhang >= HANG_MAX || strlen(e.mount_point) >= sizeof(c->hang[0].point)) {
			hang_all(c);
			break;
		}
		c->hang[c->nhang].major = e.major;
		c->hang[c->nhang].minor = e.minor;
		snprintf(c->hang[c->nhang].point, sizeof(c->hang[0].point), "%s", e.mount_point);
		c->nhang++;
	}
	mountinfo_close(&rd);
}

static void ctx_free(struct ctx *c)
{
	free(c->hang);
	free(c->fruns);
	free(c->aruns);
	free(c->vec);
	free(c->pm);
	free(c->seen);
}

static int ctx_init(struct ctx *c, struct wb_notes *n, const struct wb_note_opts *o, int dedupe)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->n = n;
	c->o = o;
	c->ps = wb_head(n)->page_size;
	c->fruns = malloc(RUNS_MAX * sizeof(*c->fruns));
	c->aruns = malloc(RUNS_MAX * sizeof(*c->aruns));
	c->vec = malloc(WIN_PAGES);
	c->pm = malloc(PM_PAGES * sizeof(*c->pm));
	c->hang = calloc(HANG_MAX, sizeof(*c->hang));
	if (dedupe)
		c->seen = malloc(SEEN_SLOTS * sizeof(*c->seen));
	if (!c->hang || !c->fruns || !c->aruns || !c->vec || !c->pm || (dedupe && !c->seen)) {
		ctx_free(c);
		return -ENOMEM;
	}
	for (i = 0; dedupe && i < SEEN_SLOTS; i++)
		c->seen[i].dev = UINT64_MAX;
	find_hanging(c);
	return 0;
}

/*
 * wb_note_file() / wb_note_pid() - one file (its resident runs), or one
 * process's anonymous memory (its present runs), added to @n.  0 or -errno.
 * For the unit tests: warmback_note() walks every process.
 */
int wb_note_file(struct wb_notes *n, const char *path, const struct wb_note_opts *o)
{
	struct ctx c;
	int r;

	r = ctx_init(&c, n, o, 0);
	if (r == 0)
		r = note_file(&c, path);
	ctx_free(&c);
	return r;
}

int wb_note_pid(struct wb_notes *n, pid_t pid, const struct wb_note_opts *o)
{
	struct ctx c;
	int r;

	r = ctx_init(&c, n, o, 0);
	if (r == 0)
		r = note_pid(&c, pid, 0);
	ctx_free(&c);
	return r;
}

/* The walk over every process, into @n (created); in the child warmback_note() forks */
static int note_walk(struct wb_notes *n, const struct wb_note_opts *o)
{
	pid_t self = getpid();
	struct dirent *e;
	struct ctx c;
	char *end;
	long pid;
	DIR *d;
	int r;

	r = ctx_init(&c, n, o, 1);
	if (r < 0)
		return r;
	d = opendir(o->proc);
	if (!d) {
		r = -errno;
		ctx_free(&c);
		return r;
	}
	while (!late(&c) && (e = readdir(d))) {
		pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 0 || pid == o->skip_pid || pid == self)
			continue;
		(void)note_pid(&c, (pid_t)pid, 1);
	}
	closedir(d);
	ctx_free(&c);
	return 0;
}

/*
 * Wait for the child @pid until CLOCK_MONOTONIC @until_ns, on @fd (its end of
 * a pipe, closed when it exits); 1 when it ended and was reaped (its status in
 * *@ret_status), else 0
 */
static int reap_by(pid_t pid, int fd, uint64_t until_ns, int *ret_status)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint64_t now;
	int r;

	for (;;) {
		r = waitpid(pid, ret_status, WNOHANG);
		if (r == pid)
			return 1;
		if (r < 0 && errno != EINTR)
			return 0;
		now = mono_ns();
		if (now >= until_ns)
			return 0;
		/*
		 * POLLHUP once it exits: its files are closed before it becomes a
		 * zombie, so waitpid() may not find it yet; from then on, a look
		 * each millisecond
		 */
		if (poll(&p, 1, p.fd < 0 ? 1 : (int)((until_ns - now + 999999) / 1000000)) < 0 &&
		    errno != EINTR)
			return 0;
		if (p.revents)
			p.fd = -1;
	}
}

/**
 * warmback_note() - note the working set of every user process
 * @n: the notes, made here (wb_notes_create(), @o->max_bytes); sealed after
 * @o: /proc, the pid to leave out (ourselves), the deadline
 *
 * The walk runs in a child: one read of /proc/PID/maps may wait on a
 * process's mmap lock, one open() on a FUSE daemon or a network server, for
 * as long as they take.  The child is killed WB_NOTE_GRACE_MS past the
 * deadline; what it noted until then is kept (each record is counted in
 * wb_head.used only once whole).  When it cannot be reaped in another
 * WB_NOTE_GRACE_MS, nothing is kept.
 *
 * Return: 0 (a bound reached is no error: wb_head.truncated says which), or
 * -errno when there are no notes (@n empty; -ETIMEDOUT: the child is stuck).
 * Silent.
 */
int warmback_note(struct wb_notes *n, const struct wb_note_opts *o)
{
	uint64_t t0 = mono_ns(), grace = WB_NOTE_GRACE_MS * 1000000ull;
	int done[2], status = 0, r;
	pid_t pid;

	r = wb_notes_create(n, o->max_bytes, (uint32_t)sysconf(_SC_PAGESIZE));
	if (r < 0)
		return r;
	if (pipe2(done, O_CLOEXEC) < 0) {
		r = -errno;
		goto fail;
	}
	/* no fflush(NULL): the child leaves by _exit(), and a stuck stdout would hold us */
	pid = fork();
	if (pid < 0) {
		r = -errno;
		close(done[0]);
		close(done[1]);
		goto fail;
	}
	if (pid == 0) {
		close(done[0]);
		(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
		r = note_walk(n, o);
		_exit(r < 0 ? -r & 0xff : 0);
	}
	close(done[1]);
	if (!reap_by(pid, done[0], o->deadline_ns + grace, &status)) {
		kill(pid, SIGKILL);
		if (!reap_by(pid, done[0], mono_ns() + grace, &status)) {
			/* in an uninterruptible wait still: its notes may change under us */
			close(done[0]);
			r = -ETIMEDOUT;
			goto fail;
		}
		wb_head(n)->truncated |= WB_CUT_TIME;
	}
	close(done[0]);
	if (WIFEXITED(status) && WEXITSTATUS(status)) {
		r = -WEXITSTATUS(status);
		goto fail;
	}
	wb_head(n)->note_ns = mono_ns() - t0;
	wb_notes_seal(n);
	return 0;
fail:
	wb_notes_free(n);
	return r;
}
