// SPDX-License-Identifier: GPL-2.0-only
/*
 * msg.c - message output shared by torpor-suspend and torpor-resume
 *
 * One prefix, one errno table (klibc built without errlist prints "error N"
 * for strerror(), so both builds use this table and print the same text), and
 * an optional copy of every non-debug line in the kernel log.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "msg.h"

static int kmsg_fd = -1;
static int kmsg_spare = -1;	/* msg_kmsg_open()'s, for msg_kmsg_always() */
static int kmsg_always;		/* copy to the kernel log even while quiet */
static int debug_on;
static int quiet;
static const char *banner;	/* msg_set_banner()'s line, until it is said */

/**
 * msg_init() - set up output
 * @use_kmsg: also copy lines to /dev/kmsg (the resume side: its console output
 *            may scroll away before anyone reads it)
 */
void msg_init(int use_kmsg)
{
	if (use_kmsg && kmsg_fd < 0)
		kmsg_fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC | O_NOCTTY);
}

/**
 * msg_kmsg_open() - open /dev/kmsg now, for a msg_kmsg_always() later (after a
 * freeze, where no path should be looked up)
 * Return: 0 or -errno.
 */
int msg_kmsg_open(void)
{
	if (kmsg_spare < 0)
		kmsg_spare = open("/dev/kmsg", O_WRONLY | O_CLOEXEC | O_NOCTTY);
	return kmsg_spare < 0 ? -errno : 0;
}

/*
 * msg_kmsg_always() - from now on copy every line but the progress and debug
 * ones to the kernel log, also while quiet (stderr a file nothing may write):
 * the kernel prints it on the console
 */
void msg_kmsg_always(void)
{
	if (kmsg_fd < 0)
		kmsg_fd = kmsg_spare;
	kmsg_always = 1;
}

void msg_set_debug(int on)
{
	debug_on = on;
}

int msg_debug_enabled(void)
{
	return debug_on;
}

/*
 * msg_set_banner() - say @line (an info line) before the first line said from
 * now on, and never when nothing is: torpor-resume's version at boot, where a
 * boot with no image says nothing
 */
void msg_set_banner(const char *line)
{
	banner = line;
}

/* the lines said while quiet (not the progress lines), for msg_set_quiet(0) */
static char held[4096];
static size_t held_len;
static int held_dropped;

static void write_all(int fd, const char *p, int n);

/*
 * msg_set_quiet() - hold every line from now on; msg_set_quiet(0) writes out
 * what was held (the errors and warnings of a hibernation that failed while
 * quiet).  torpor-suspend uses it while the image is written when stderr is a
 * file: after the snapshot nothing may touch a mounted filesystem.  Where the
 * buffer is full, the oldest lines make room.
 */
void msg_set_quiet(int on)
{
	quiet = on;
	if (!on && held_dropped) {
		static const char more[] = MSG_PREFIX ": (earlier lines not shown)\n";

		write_all(2, more, (int)sizeof(more) - 1);
		held_dropped = 0;
	}
	if (!on && held_len) {
		write_all(2, held, (int)held_len);
		held_len = 0;
	}
}

/*
 * Drain the console before handing the boot back, as kinit does.  Only a
 * terminal that is not our controlling one (the initramfs' /dev/console), or
 * whose foreground process group we are: in a background job tcdrain() would
 * raise SIGTTOU.
 */
void msg_flush(void)
{
	pid_t pg;

	if (!isatty(2))
		return;
	pg = tcgetpgrp(2);
	if (pg < 0 ? errno == ENOTTY : pg == getpgrp())
		tcdrain(2);
}

/* the whole line, even when a signal interrupts the write */
static void write_all(int fd, const char *p, int n)
{
	ssize_t w;

	while (n > 0) {
		w = write(fd, p, (size_t)n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (int)w;
	}
}

/* a live line is on the terminal, without its newline: its length */
static int live_len;

static void end_live(void)
{
	if (live_len) {
		write_all(2, "\n", 1);
		live_len = 0;
	}
}

/* the line @line (@n bytes) in the kernel log, when it is open, at syslog priority @prio */
static void to_kmsg(int prio, const char *line, int n)
{
	char kline[1040];
	int m;

	if (kmsg_fd < 0 || prio >= 7)
		return;
	m = snprintf(kline, sizeof(kline), "<%d>%.*s", prio, n, line);
	if (m > 0)
		(void)!write(kmsg_fd, kline, (size_t)m < sizeof(kline) ? (size_t)m : sizeof(kline) - 1);
}

static void emit(int prio, const char *tag, const char *fmt, va_list ap);

/* the banner, at info level, or at debug level before a debug line */
static void say_banner(int prio, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(prio >= 7 ? 7 : 6, "", fmt, ap);
	va_end(ap);
}

static void emit(int prio, const char *tag, const char *fmt, va_list ap)
{
	char line[1024];
	int n, m;

	if (quiet && prio >= 7)
		return;
	if (!quiet)
		end_live();
	if (banner) {
		const char *b = banner;

		banner = NULL;
		say_banner(prio, "%s", b);
	}
	n = snprintf(line, sizeof(line), "%s: %s", MSG_PREFIX, tag);
	if (n < 0 || (size_t)n >= sizeof(line))
		return;
	m = vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	if (m < 0)
		return;
	n = strlen(line);
	if (n < (int)sizeof(line) - 1)
		line[n++] = '\n';
	line[n] = '\0';
	if (quiet && kmsg_always)
		to_kmsg(prio, line, n);
	if (quiet) {
		/* the newest lines matter most (the cause of a failure comes last) */
		while (held_len && held_len + n > sizeof(held)) {
			char *nl = memchr(held, '\n', held_len);
			size_t cut = nl ? (size_t)(nl - held) + 1 : held_len;

			memmove(held, held + cut, held_len - cut);
			held_len -= cut;
			held_dropped = 1;
		}
		if (held_len + n <= sizeof(held)) {
			memcpy(held + held_len, line, n);
			held_len += n;
		}
		return;
	}
	write_all(2, line, n);
	to_kmsg(prio, line, n);
}

#define DEFINE_MSG(name, prio, tag)				\
void name(const char *fmt, ...)					\
{								\
	va_list ap;						\
								\
	va_start(ap, fmt);					\
	emit(prio, tag, fmt, ap);				\
	va_end(ap);						\
}

DEFINE_MSG(msg_error, 3, "")
DEFINE_MSG(msg_warn, 4, "warning: ")
DEFINE_MSG(msg_info, 6, "")
DEFINE_MSG(msg_hint, 6, "hint: ")
/* progress lines stay off the kernel log (priority 7 is never copied there) */
DEFINE_MSG(msg_progress, 7, "")

/*
 * msg_live() - a progress line that replaces the last one on a terminal
 * (carriage return, padded over the longer line before it); the next message
 * of any kind starts on a line of its own.  Never in the kernel log.
 */
void msg_live(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n, m;

	if (quiet)
		return;
	line[0] = '\r';
	n = snprintf(line + 1, sizeof(line) - 1, "%s: ", MSG_PREFIX) + 1;
	va_start(ap, fmt);
	m = vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	va_end(ap);
	if (m < 0)
		return;
	n = strlen(line);
	m = n - 1;			/* the visible length */
	while (n < (int)sizeof(line) - 1 && n - 1 < live_len)
		line[n++] = ' ';
	write_all(2, line, n);
	live_len = m ? m : 1;
}

/* msg_live_end() - end a live line with its newline (nothing when none is open) */
void msg_live_end(void)
{
	if (!quiet)
		end_live();
}

void msg_debug(const char *fmt, ...)
{
	va_list ap;

	if (!debug_on)
		return;
	va_start(ap, fmt);
	emit(7, "debug: ", fmt, ap);
	va_end(ap);
}

static const struct {
	int err;
	const char *text;
} errnames[] = {
	{ EPERM, "operation not permitted" },
	{ ENOENT, "no such file or directory" },
	{ EINTR, "interrupted" },
	{ EIO, "input/output error" },
	{ ENXIO, "no such device or address" },
	{ E2BIG, "argument list too long" },
	{ EBADF, "bad file descriptor" },
	{ EAGAIN, "resource temporarily unavailable" },
	{ ENOMEM, "out of memory" },
	{ EACCES, "permission denied" },
	{ EFAULT, "bad address" },
	{ ENOTBLK, "block device required" },
	{ EBUSY, "device or resource busy" },
	{ EEXIST, "file exists" },
	{ ENODEV, "no such device" },
	{ ENOTDIR, "not a directory" },
	{ EISDIR, "is a directory" },
	{ EINVAL, "invalid argument" },
	{ ENOTTY, "inappropriate ioctl for device" },
	{ ETXTBSY, "text file busy" },
	{ EFBIG, "file too large" },
	{ ENOSPC, "no space left on device" },
	{ EROFS, "read-only file system" },
	{ ERANGE, "result out of range" },
	{ ENOSYS, "function not implemented" },
	{ ENODATA, "no data available" },
	{ EOVERFLOW, "value too large" },
	{ EBADMSG, "bad message" },
	{ EPROTO, "protocol error" },
	{ ETIMEDOUT, "timed out" },
	{ EMEDIUMTYPE, "wrong medium type" },
	{ ESTALE, "stale" },
	{ ENOTUNIQ, "name not unique" },
	{ ELOOP, "too many symbolic links" },
	{ EXDEV, "different kernel" },
};

/* Text for an errno value, positive or negative. */
const char *msg_errname(int err)
{
	static char unknown[32];
	size_t i;

	if (err < 0)
		err = -err;
	for (i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (errnames[i].err == err)
			return errnames[i].text;
	snprintf(unknown, sizeof(unknown), "error %d", err);
	return unknown;
}
