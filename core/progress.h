/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * progress.h - the progress line of both programs: percent, MiB done of the
 * total, MiB/s; when it is due and what it says (the caller prints it)
 */
#ifndef CORE_PROGRESS_H
#define CORE_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

struct progress {
	const char *what;		/* "saving image" */
	int live;			/* one line rewritten (a terminal), else a line each 10% */
	long long t0_ms;		/* when the work started */
	long long last_ms;		/* the last line's time */
	int last_pct;			/* the last line's percent, -1 before the first */
};

/* Live updates at most this often (the last one, at 100%, always) */
#define PROGRESS_LIVE_MS 250

void progress_start(struct progress *p, const char *what, int live, long long now_ms);

/*
 * progress_line() - is a line due at @done of @total bytes, at @now_ms?
 * Returns 1 with the line in @buf ("saving image: 42% (430 of 1024 MiB,
 * 180 MiB/s)"), 0 when none is due.  Live: each PROGRESS_LIVE_MS and at the
 * end; otherwise each ten per cent.  The MiB/s is over the time since
 * progress_start().
 */
int progress_line(struct progress *p, uint64_t done, uint64_t total, long long now_ms,
		  char *buf, size_t len);

/* The percent of @done in @total (0 when @total is 0), never above 100 */
int progress_pct(uint64_t done, uint64_t total);

#endif
