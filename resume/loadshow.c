// SPDX-License-Identifier: GPL-2.0-only
/*
 * loadshow.c - what the user sees while the image loads: the progress line,
 * plymouth's messages, and how long the load took
 */
#include <stdio.h>
#include <unistd.h>

#include "loadshow.h"
#include "msg.h"
#include "progress.h"
#include "splash.h"
#include "usage.h"
#include "wallclock.h"

/* the progress line: rewritten in place on a terminal, a line each 10% elsewhere */
static struct progress prog;
/* plymouth's client, when its daemon runs in the initramfs: told each 10% */
static struct splash splash;
static int splash_pct = -100;	/* no message yet: the first call sends one */

/* A loader progress callback: the line, and plymouth each 10%. */
void loadshow_progress(uint64_t done, uint64_t total)
{
	char line[160];
	int pct = progress_pct(done, total);

	if (progress_line(&prog, done, total, wallclock_ms(), line, sizeof(line))) {
		if (prog.live)
			msg_live("%s", line);
		else
			msg_progress("%s", line);
	}
	if (splash.bin && pct / 10 != splash_pct / 10) {
		char text[64];

		snprintf(text, sizeof(text), "Resuming from hibernation: %d%%", pct);
		if (splash_message(&splash, text) == 0)
			splash_pct = pct;
	}
}

/* Start showing the load: plymouth's message, when it runs, and the progress line. */
void loadshow_start(void)
{
	if (splash_open(&splash, NULL, 300) > 0)
		(void)splash_message(&splash, "Resuming from hibernation");
	progress_start(&prog, "loading image", isatty(2), wallclock_ms());
}

/* The load is over: plymouth's client is closed, not left to be frozen. */
void loadshow_stop(void)
{
	splash_close(&splash, 300);
}

/**
 * loadshow_loaded() - say that the image is loaded, and how the load went
 * @l: the loader after a successful loader_feed()
 * @t0: when the load started (wallclock_ms())
 * @cpu_self, @cpu_workers: CPU time (ms) of this process and of the workers during it
 */
void loadshow_loaded(const struct loader *l, long long t0, unsigned long long cpu_self,
		     unsigned long long cpu_workers)
{
	if (l->workers)
		msg_debug("read, checked and decoded by %u worker process%s, %u slots", l->workers,
			  l->workers > 1 ? "es" : "", l->readahead_slots);
	else
		msg_debug("read, checked and decoded synchronously (no worker process)");
	msg_debug("load phase: waiting for the workers %llu ms, feeding the kernel %llu ms; "
		  "reading %llu ms, checking hashes %llu ms, decoding %llu ms (summed over %u "
		  "workers)", (unsigned long long)(l->t_wait_ns / 1000000),
		  (unsigned long long)(l->t_feed_ns / 1000000),
		  (unsigned long long)(l->t_read_ns / 1000000),
		  (unsigned long long)(l->t_hash_ns / 1000000),
		  (unsigned long long)(l->t_decode_ns / 1000000), l->workers);
	msg_debug("load phase CPU time: %llu ms in this process (feeding the kernel included), "
		  "%llu ms in the workers", cpu_self, cpu_workers);
	/*
	 * A worker's own memory is its read buffer and a few pages of stack: the
	 * ring and the tables are ours, shared (its ru_maxrss would count them again)
	 */
	if (l->workers)
		msg_info("image loaded in %lld ms, peak memory %llu KiB and a %llu KiB buffer in "
			 "each of %u worker process%s, restoring", wallclock_ms() - t0,
			 usage_peak_rss_kib(), (unsigned long long)(l->worker_buffer >> 10), l->workers,
			 l->workers == 1 ? "" : "es");
	else
		msg_info("image loaded in %lld ms, peak memory %llu KiB, restoring", wallclock_ms() - t0,
			 usage_peak_rss_kib());
}
