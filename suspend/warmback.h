/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * warmback.h - bring back after the thaw what creating the image evicted
 *
 * The kernel shrinks memory to /sys/power/image_size while it creates the
 * image: page cache is dropped and anonymous memory swapped out, and after the
 * resume every program faults it back one page at a time.  Before the freeze
 * warmback_note() notes what the working set holds (warmback-note.c): the
 * resident pages of the files user processes map or hold open (mincore), and
 * the present anonymous pages of each process (/proc/PID/pagemap), into a
 * memfd, bounded in time and size.  After the thaw warmback_start() forks a
 * detached child (warmback-spawn.c) that asks back, at idle priority, what was
 * noted and is gone now (warmback-fill.c): posix_fadvise(WILLNEED) for files,
 * process_madvise(MADV_WILLNEED) for memory now in swap; it stops when someone
 * else's I/O needs the disks, and after WB_RUN_SECONDS.
 *
 * The notes' layout and the pure helpers (run merging, the lines of
 * /proc/PID/maps and /proc/PID/stat, what to bring back) are in warmback.c.
 */
#ifndef SUSPEND_WARMBACK_H
#define SUSPEND_WARMBACK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#define WB_NOTE_MS 1000			/* the note phase's time bound */
#define WB_NOTE_GRACE_MS 500		/* past it, the walk's child is killed */
#define WB_NOTES_MAX (8u << 20)		/* the notes' size bound, bytes */
#define WB_FILES_MAX 16384		/* distinct files noted at most */
#define WB_RUN_SECONDS 60		/* the warm-back's time bound */
#define WB_CHUNK_BYTES (4u << 20)	/* one request: fadvise, process_madvise */
#define WB_GAP_PAGES 8			/* runs this close are noted as one */
#define WB_MAGIC 0x4b424d57u		/* "WMBK" */
#define WB_VERSION 1

/* A run of pages: file pages from @start, or anonymous pages at address @start * page */
struct wb_run {
	uint64_t start;
	uint64_t count;
};

enum wb_kind {
	WB_REC_FILE = 1,
	WB_REC_PROC = 2,
};

/* The memfd begins with this */
struct wb_head {
	uint32_t magic;
	uint32_t version;
	uint64_t used;			/* bytes of the notes, this head included */
	uint32_t page_size;
	uint32_t files;			/* WB_REC_FILE records */
	uint32_t procs;			/* WB_REC_PROC records */
	uint32_t truncated;		/* a bound cut the notes short: WB_CUT_* */
	uint64_t file_pages;		/* resident file pages noted */
	uint64_t anon_pages;		/* present anonymous pages noted */
	uint64_t note_ns;		/* the note phase's time */
};

/* Each record: this, its runs, then (a file) its path; len is a multiple of 8 */
struct wb_rec {
	uint16_t kind;			/* enum wb_kind */
	uint16_t path_len;		/* WB_REC_FILE: the path's bytes, NUL after */
	uint32_t len;			/* the whole record's bytes */
	uint32_t nruns;
	uint32_t pid;			/* WB_REC_PROC */
	uint64_t id;			/* FILE: st_ino (regular), st_rdev (block);
					 * PROC: the start time */
	uint64_t dev;			/* FILE: st_dev; 0 for a block device */
};

enum wb_cut {
	WB_CUT_TIME = 1,
	WB_CUT_SIZE = 2,
	WB_CUT_FILES = 4,
};

/* The notes being written (the parent) or read (the child) */
struct wb_notes {
	int fd;				/* the memfd, -1 when none */
	unsigned char *map;		/* mapped while writing or reading */
	size_t cap;			/* the mapping's bytes */
};

/* warmback.c: the pure parts */
int wb_runs_add(struct wb_run *runs, size_t *n, size_t cap, uint64_t start, uint64_t count,
		uint64_t gap);
int wb_mincore(int fd, uint64_t off, size_t pages, uint32_t ps, unsigned char *vec);
int wb_runs_from_vec(const unsigned char *vec, size_t pages, uint64_t base, int resident,
		     uint64_t gap, struct wb_run *runs, size_t *n, size_t cap, uint64_t *ret_pages);
int wb_runs_from_pagemap(const uint64_t *pm, size_t pages, uint64_t base, int bit,
			 uint64_t gap, struct wb_run *runs, size_t *n, size_t cap,
			 uint64_t *ret_pages);

struct wb_maps_line {
	uint64_t start, end;		/* the range's addresses */
	char perms[5];
	unsigned major, minor;		/* the device */
	uint64_t inode;
	const char *path;		/* into the line: "" for none */
};
int wb_maps_parse(char *line, struct wb_maps_line *ret);
int wb_maps_is_anon(const struct wb_maps_line *m);
int wb_maps_is_file(const struct wb_maps_line *m);
int wb_stat_parse(const char *text, size_t len, uint64_t *ret_start, unsigned long *ret_flags);
int wb_fs_may_hang(const char *fstype);
int wb_open_data(const char *path, struct stat *ret_st);
int wb_notes_create(struct wb_notes *n, size_t cap, uint32_t page_size);
int wb_notes_add(struct wb_notes *n, const struct wb_rec *rec, const struct wb_run *runs,
		 const char *path);
int wb_notes_open(struct wb_notes *n, int fd);
const struct wb_rec *wb_notes_next(const struct wb_notes *n, const struct wb_rec *prev);
void wb_notes_seal(struct wb_notes *n);
void wb_notes_free(struct wb_notes *n);
static inline struct wb_head *wb_head(const struct wb_notes *n)
{
	return (struct wb_head *)n->map;
}
static inline const struct wb_run *wb_rec_runs(const struct wb_rec *r)
{
	return (const struct wb_run *)(r + 1);
}
static inline const char *wb_rec_path(const struct wb_rec *r)
{
	return (const char *)(wb_rec_runs(r) + r->nruns);
}

/* warmback-note.c */
struct wb_note_opts {
	const char *proc;		/* "/proc" */
	pid_t skip_pid;			/* ourselves */
	uint64_t deadline_ns;		/* CLOCK_MONOTONIC */
	size_t max_bytes;		/* WB_NOTES_MAX */
};
int warmback_note(struct wb_notes *n, const struct wb_note_opts *o);
int wb_note_file(struct wb_notes *n, const char *path, const struct wb_note_opts *o);
int wb_note_pid(struct wb_notes *n, pid_t pid, const struct wb_note_opts *o);

/* warmback-fill.c */
struct wb_fill_stats {
	uint64_t file_bytes;		/* asked back */
	uint64_t anon_bytes;
	unsigned files_changed;		/* gone, or another file at the path now */
	unsigned procs_gone;		/* exited, or the pid is another process's */
	int anon_mode;			/* 0 none asked, 1 process_madvise, 2 read
					 * (process_vm_readv), 3 none: no pidfd_open() */
	char stopped[96];		/* why it stopped early, "" if it did not */
};
struct wb_fill_opts {
	const char *proc;		/* "/proc" */
	const char *sys_block;		/* "/sys/dev/block" */
	uint64_t deadline_ns;
	int watch;			/* stop on others' I/O */
	int dry;			/* count only: ask nothing back (the unit tests) */
};
int warmback_fill(const struct wb_notes *n, const struct wb_fill_opts *o, struct wb_fill_stats *s);
int wb_disk_of(const char *proc, dev_t dev, dev_t *ret);
int wb_foreign_io(uint64_t read_bytes, uint64_t write_bytes, uint64_t ours, char *why,
		  size_t len);

/* warmback-spawn.c */
int warmback_take(struct wb_notes *n);
void warmback_start(struct wb_notes *n);
int warmback_child_main(const char *arg);

#endif
