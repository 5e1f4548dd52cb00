// SPDX-License-Identifier: GPL-2.0-only
/*
 * warmback.c - the warm-back's notes (a memfd of records: warmback.h) and its
 * pure helpers: runs of pages from a mincore() vector or pagemap entries, the
 * lines of /proc/PID/maps and /proc/PID/stat
 *
 * The notes are read back by the child after the resume, possibly after an
 * exec: every record is checked against the notes' bounds before it is used.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "warmback.h"

/*
 * wb_runs_add() - add pages [@start, @start + @count) to the runs @runs (@n
 * of @cap), in ascending order: merged into the last run when they begin
 * within @gap pages of its end.  0, or -ENOSPC when a new run does not fit.
 */
int wb_runs_add(struct wb_run *runs, size_t *n, size_t cap, uint64_t start, uint64_t count,
		uint64_t gap)
{
	struct wb_run *last = *n ? &runs[*n - 1] : NULL;

	if (!count)
		return 0;
	if (last && start >= last->start && start <= last->start + last->count + gap) {
		if (start + count > last->start + last->count)
			last->count = start + count - last->start;
		return 0;
	}
	if (*n >= cap)
		return -ENOSPC;
	runs[*n].start = start;
	runs[*n].count = count;
	(*n)++;
	return 0;
}

/*
 * wb_mincore() - which of the @pages pages of @fd from page @off (pages of
 * @ps bytes) are resident, into @vec (mincore()'s vector): the file is mapped
 * only to be looked at, never touched, so nothing is faulted in.  0 or -errno.
 */
int wb_mincore(int fd, uint64_t off, size_t pages, uint32_t ps, unsigned char *vec)
{
	size_t len = pages * ps;
	void *p;
	int r = 0;

	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)(off * ps));
	if (p == MAP_FAILED)
		return -errno;
	if (mincore(p, len, vec) < 0)
		r = -errno;
	munmap(p, len);
	return r;
}

/*
 * wb_runs_from_vec() - the pages of a mincore() vector @vec (@pages, the first
 * one page @base) that are resident (@resident 1) or not (0), added as runs
 * (wb_runs_add(), @gap); how many in *@ret_pages.  0, or -ENOSPC when the runs
 * are full (those up to there are added).
 */
int wb_runs_from_vec(const unsigned char *vec, size_t pages, uint64_t base, int resident,
		     uint64_t gap, struct wb_run *runs, size_t *n, size_t cap, uint64_t *ret_pages)
{
	size_t i = 0, j;

	*ret_pages = 0;
	while (i < pages) {
		if ((vec[i] & 1) != resident) {
			i++;
			continue;
		}
		for (j = i; j < pages && (vec[j] & 1) == resident; j++)
			;
		if (wb_runs_add(runs, n, cap, base + i, j - i, gap) < 0)
			return -ENOSPC;
		*ret_pages += j - i;
		i = j;
	}
	return 0;
}

/*
 * wb_runs_from_pagemap() - as wb_runs_from_vec() for /proc/PID/pagemap
 * entries @pm: the pages with bit @bit set (63 present, 62 swapped).
 */
int wb_runs_from_pagemap(const uint64_t *pm, size_t pages, uint64_t base, int bit,
			 uint64_t gap, struct wb_run *runs, size_t *n, size_t cap,
			 uint64_t *ret_pages)
{
	uint64_t mask = 1ull << bit;
	size_t i = 0, j;

	*ret_pages = 0;
	while (i < pages) {
		if (!(pm[i] & mask)) {
			i++;
			continue;
		}
		for (j = i; j < pages && (pm[j] & mask); j++)
			;
		if (wb_runs_add(runs, n, cap, base + i, j - i, gap) < 0)
			return -ENOSPC;
		*ret_pages += j - i;
		i = j;
	}
	return 0;
}

/* Hex digits at *@s into @ret, up to @end; 0 or -EINVAL */
static int hex(char **s, char end, uint64_t *ret)
{
	uint64_t v = 0;
	char *p = *s;
	int d, any = 0;

	for (; *p && *p != end; p++, any = 1) {
		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else
			return -EINVAL;
		if (v >> 60)
			return -EINVAL;
		v = v << 4 | (uint64_t)d;
	}
	if (!any || *p != end)
		return -EINVAL;
	*s = p + 1;
	*ret = v;
	return 0;
}

/*
 * wb_maps_parse() - one line of /proc/PID/maps ("start-end perms offset
 * maj:min inode   path"), its end of line cut off in place.  0 or -EINVAL.
 */
int wb_maps_parse(char *line, struct wb_maps_line *ret)
{
	struct wb_maps_line m;
	uint64_t skip, maj, min;
	char *p = line, *e;

	memset(&m, 0, sizeof(m));
	e = strchr(line, '\n');
	if (e)
		*e = '\0';
	if (hex(&p, '-', &m.start) < 0 || hex(&p, ' ', &m.end) < 0 || m.end < m.start)
		return -EINVAL;
	if (strlen(p) < 5 || p[4] != ' ')
		return -EINVAL;
	memcpy(m.perms, p, 4);
	p += 5;
	if (hex(&p, ' ', &skip) < 0 || hex(&p, ':', &maj) < 0 || hex(&p, ' ', &min) < 0 ||
	    maj > 0xfff || min > 0xfffff)
		return -EINVAL;
	m.major = (unsigned)maj;
	m.minor = (unsigned)min;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (m.inode > UINT64_MAX / 10 - 1)
			return -EINVAL;
		m.inode = m.inode * 10 + (uint64_t)(*p - '0');
	}
	if (*p && *p != ' ')
		return -EINVAL;
	while (*p == ' ')
		p++;
	m.path = p;
	*ret = m;
	return 0;
}

/* A private, readable anonymous mapping: no file, the heap, a stack, a named one */
int wb_maps_is_anon(const struct wb_maps_line *m)
{
	if (m->perms[0] != 'r' || m->perms[3] != 'p' || m->inode)
		return 0;
	return !m->path[0] || !strcmp(m->path, "[heap]") || !strncmp(m->path, "[stack", 6) ||
	       !strncmp(m->path, "[anon:", 6);
}

/* A mapping of a file by its path, not deleted since */
int wb_maps_is_file(const struct wb_maps_line *m)
{
	static const char deleted[] = " (deleted)";
	size_t n = strlen(m->path), d = sizeof(deleted) - 1;

	if (m->path[0] != '/' || !m->inode)
		return 0;
	return n < d || strcmp(m->path + n - d, deleted);
}

/*
 * wb_stat_parse() - from /proc/PID/stat (@text, @len bytes): the start time
 * (field 22, clock ticks since boot) and the flags (field 9).  The command
 * name (field 2) may hold spaces and parentheses: the fields are counted from
 * the last ')'.  0 or -EINVAL.
 */
int wb_stat_parse(const char *text, size_t len, uint64_t *ret_start, unsigned long *ret_flags)
{
	const char *p = NULL, *end = text + len;
	uint64_t v, flags = 0;
	size_t i;
	int field;

	for (i = len; i > 0; i--)
		if (text[i - 1] == ')') {
			p = text + i;
			break;
		}
	if (!p)
		return -EINVAL;
	/* after ')': " S ppid ..." is field 3 on */
	for (field = 3; field <= 22; field++) {
		if (p >= end || *p != ' ')
			return -EINVAL;
		p++;
		if (field == 3) {
			if (p >= end || *p == ' ')
				return -EINVAL;
			p++;
			continue;
		}
		v = 0;
		if (p < end && *p == '-')
			p++;	/* tty_nr, tpgid may be -1; unused */
		if (p >= end || *p < '0' || *p > '9')
			return -EINVAL;
		for (; p < end && *p >= '0' && *p <= '9'; p++) {
			if (v > UINT64_MAX / 10 - 1)
				return -EINVAL;
			v = v * 10 + (uint64_t)(*p - '0');
		}
		if (field == 9)
			flags = v;
	}
	*ret_start = v;
	*ret_flags = (unsigned long)flags;
	return 0;
}

/*
 * wb_fs_may_hang() - a filesystem type whose stat(), open() or mincore() may
 * wait on a server or a user-space daemon (network filesystems, FUSE): the
 * note leaves its files alone.
 */
int wb_fs_may_hang(const char *fstype)
{
	static const char *const types[] = {
		"fuse", "fuseblk", "nfs", "nfs4", "cifs", "smb3", "smbfs", "ceph", "9p", "afs",
		"virtiofs", "glusterfs", "lustre", "gfs2", "ocfs2", "ncpfs", "coda", "orangefs",
	};
	size_t i;

	if (!strncmp(fstype, "fuse.", 5))
		return 1;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(fstype, types[i]))
			return 1;
	return 0;
}

/*
 * wb_open_data() - a regular file or a block device at @path, read-only; its
 * stat in @ret_st.  Looked at by O_PATH first, and opened through that very
 * inode, so nothing else found at the path (a FIFO, a tape) is ever opened.
 * fd, or -errno (-ENODATA: neither kind).
 */
int wb_open_data(const char *path, struct stat *ret_st)
{
	char self[64];
	int pfd, fd;

	pfd = open(path, O_PATH | O_CLOEXEC);
	if (pfd < 0)
		return -errno;
	if (fstat(pfd, ret_st) < 0 || (!S_ISREG(ret_st->st_mode) && !S_ISBLK(ret_st->st_mode))) {
		close(pfd);
		return -ENODATA;
	}
	snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
	fd = open(self, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOATIME);
	if (fd < 0 && errno == EPERM)
		fd = open(self, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		fd = -errno;
	close(pfd);
	return fd;
}

/* Empty notes of at most @cap bytes in a memfd, mapped for writing; 0 or -errno */
int wb_notes_create(struct wb_notes *n, size_t cap, uint32_t page_size)
{
	struct wb_head *h;
	int r;

	n->map = NULL;
	n->cap = cap;
	n->fd = memfd_create("torpor-warm-back", MFD_CLOEXEC);
	if (n->fd < 0)
		return -errno;
	if (ftruncate(n->fd, (off_t)cap) < 0)
		goto fail;
	/* pages are taken as they are written: the memfd stays as small as the notes */
	n->map = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_SHARED, n->fd, 0);
	if (n->map == MAP_FAILED) {
		n->map = NULL;
		goto fail;
	}
	h = wb_head(n);
	h->magic = WB_MAGIC;
	h->version = WB_VERSION;
	h->used = sizeof(*h);
	h->page_size = page_size;
	return 0;
fail:
	r = -errno;
	close(n->fd);
	n->fd = -1;
	return r;
}

static size_t rec_len(const struct wb_rec *rec)
{
	size_t len = sizeof(*rec) + (size_t)rec->nruns * sizeof(struct wb_run);

	if (rec->kind == WB_REC_FILE)
		len += (size_t)rec->path_len + 1;
	return (len + 7) & ~(size_t)7;
}

/*
 * wb_notes_add() - append the record @rec (kind, pid, id, dev, nruns; len and
 * path_len are set here), its runs and, for a file, @path.  0, or -ENOSPC
 * when it does not fit, -ENAMETOOLONG for a path over 4095 bytes.
 */
int wb_notes_add(struct wb_notes *n, const struct wb_rec *rec, const struct wb_run *runs,
		 const char *path)
{
	struct wb_head *h = wb_head(n);
	struct wb_rec r = *rec;
	unsigned char *p;
	size_t plen = path ? strlen(path) : 0, len, i;
	uint64_t pages = 0;

	if (plen > 4095)
		return -ENAMETOOLONG;
	r.path_len = (uint16_t)plen;
	len = rec_len(&r);
	if (r.nruns > (n->cap >> 4) || len > n->cap - h->used)
		return -ENOSPC;
	r.len = (uint32_t)len;
	p = n->map + h->used;
	memset(p, 0, len);
	memcpy(p, &r, sizeof(r));
	memcpy(p + sizeof(r), runs, (size_t)r.nruns * sizeof(*runs));
	if (r.kind == WB_REC_FILE)
		memcpy(p + sizeof(r) + (size_t)r.nruns * sizeof(*runs), path, plen);
	for (i = 0; i < r.nruns; i++)
		pages += runs[i].count;
	if (r.kind == WB_REC_FILE) {
		h->files++;
		h->file_pages += pages;
	} else {
		h->procs++;
		h->anon_pages += pages;
	}
	/* counted last: a writer killed before this leaves the notes whole */
	__atomic_store_n(&h->used, h->used + len, __ATOMIC_RELEASE);
	return 0;
}

/* Done writing: the memfd cut to the notes' size, unmapped (nothing of it locked) */
void wb_notes_seal(struct wb_notes *n)
{
	size_t used;

	if (!n->map)
		return;
	used = (size_t)wb_head(n)->used;
	munmap(n->map, n->cap);
	n->map = NULL;
	if (ftruncate(n->fd, (off_t)used) == 0)
		n->cap = used;
}

/* The notes in memfd @fd, mapped read-only and checked; 0 or -errno (-EBADMSG: not ours) */
int wb_notes_open(struct wb_notes *n, int fd)
{
	const struct wb_head *h;
	struct stat st;

	n->fd = fd;
	n->map = NULL;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (st.st_size < (off_t)sizeof(*h) || st.st_size > (off_t)WB_NOTES_MAX)
		return -EBADMSG;
	n->cap = (size_t)st.st_size;
	n->map = mmap(NULL, n->cap, PROT_READ, MAP_PRIVATE, fd, 0);
	if (n->map == MAP_FAILED) {
		n->map = NULL;
		return -errno;
	}
	h = wb_head(n);
	if (h->magic != WB_MAGIC || h->version != WB_VERSION || h->used < sizeof(*h) ||
	    h->used > n->cap || !h->page_size || (h->page_size & (h->page_size - 1))) {
		munmap(n->map, n->cap);
		n->map = NULL;
		return -EBADMSG;
	}
	return 0;
}

/*
 * wb_notes_next() - the record after @prev (NULL: the first); NULL at the end
 * or at the first record that is not whole, or not well formed.
 */
const struct wb_rec *wb_notes_next(const struct wb_notes *n, const struct wb_rec *prev)
{
	const struct wb_head *h = wb_head(n);
	const struct wb_rec *r;
	size_t off, room;

	off = prev ? (size_t)((const unsigned char *)prev - n->map) + prev->len : sizeof(*h);
	if (off > h->used || h->used - off < sizeof(*r))
		return NULL;
	r = (const struct wb_rec *)(n->map + off);
	room = (size_t)h->used - off;
	if (r->len > room || r->len < sizeof(*r) || (r->len & 7) ||
	    (r->kind != WB_REC_FILE && r->kind != WB_REC_PROC) ||
	    r->nruns > (r->len - sizeof(*r)) / sizeof(struct wb_run) || rec_len(r) != r->len)
		return NULL;
	if (r->kind == WB_REC_FILE && wb_rec_path(r)[r->path_len] != '\0')
		return NULL;
	return r;
}

/* Unmap and close; the notes are empty after */
void wb_notes_free(struct wb_notes *n)
{
	if (n->map)
		munmap(n->map, n->cap);
	n->map = NULL;
	if (n->fd >= 0)
		close(n->fd);
	n->fd = -1;
}
