// SPDX-License-Identifier: GPL-2.0-only
/*
 * progress.c - when the progress line is due and what it says
 *
 * Integers only: klibc's printf has no floating point.
 */
#include <stdio.h>

#include "progress.h"

void progress_start(struct progress *p, const char *what, int live, long long now_ms)
{
	p->what = what;
	p->live = live;
	p->t0_ms = now_ms;
	p->last_ms = now_ms;
	p->last_pct = -1;
}

int progress_pct(uint64_t done, uint64_t total)
{
	if (!total)
		return 0;
	if (done >= total)
		return 100;
	/* no overflow for any image below 2^57 bytes */
	return (int)(done * 100 / total);
}

static int due(const struct progress *p, int pct, long long now_ms)
{
	if (pct == p->last_pct)
		return 0;
	if (p->last_pct < 0 || pct == 100)
		return 1;
	if (p->live)
		return now_ms - p->last_ms >= PROGRESS_LIVE_MS;
	return pct / 10 != p->last_pct / 10;
}

int progress_line(struct progress *p, uint64_t done, uint64_t total, long long now_ms,
		  char *buf, size_t len)
{
	int pct = progress_pct(done, total);
	long long ms = now_ms - p->t0_ms;
	unsigned long long rate;

	if (!due(p, pct, now_ms))
		return 0;
	p->last_pct = pct;
	p->last_ms = now_ms;
	/* MiB/s = bytes * 1000 / ms / 2^20, in 64 bits: bytes / 2^10 first */
	rate = ms > 0 ? (unsigned long long)((done >> 10) * 1000 / (uint64_t)ms) >> 10 : 0;
	snprintf(buf, len, "%s: %d%% (%llu of %llu MiB, %llu MiB/s)", p->what, pct,
		 (unsigned long long)(done >> 20), (unsigned long long)((total + (1 << 20) - 1) >> 20),
		 rate);
	return 1;
}
