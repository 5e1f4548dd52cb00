/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * decompress.h - decompress a stream with the host's own tool (zstd, gzip, xz,
 * unlzma, bzip2, lzop, lz4), run as a child fed a byte range of a file through
 * a socket, whose output is read through a pipe within a deadline
 *
 * The tool is chosen by the magic numbers the kernel knows for an initramfs
 * (lib/decompress.c): an initramfs the kernel can unpack, the host that built it
 * has the tool for.  Nothing here prints.
 */
#ifndef SUSPEND_DECOMPRESS_H
#define SUSPEND_DECOMPRESS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* where the tools are looked for: fixed, not the caller's PATH */
#define DECOMPRESS_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

struct decompress_tool {
	const char *format;		/* "zstd", "gzip", ... for the messages */
	const char *argv[4];		/* the program and its options, NULL-terminated */
};

struct decompress {
	pid_t pid;
	int out;			/* the read end of the child's stdout */
	int eof;			/* its end was read */
	int in;				/* our end of the child's stdin, -1 once all is sent */
	int src;			/* the file the range is read from */
	uint64_t in_off, in_end;	/* what is still to send */
	long long deadline_ms;		/* CLOCK_MONOTONIC */
	const struct decompress_tool *tool;
	char bin[256];			/* the program run */
};

/* The tool for a stream starting with @p (@n bytes), or NULL: no format the kernel reads. */
const struct decompress_tool *decompress_detect(const uint8_t *p, size_t n);

/**
 * decompress_start() - run @t on the bytes @off to @end of @fd
 * @dirs: where to look for the program (DECOMPRESS_PATH)
 * @timeout_ms: the whole run's bound, counted from now
 *
 * The bytes are sent to the tool's stdin while its output is read: it sees
 * the end of its input at @end, not at the end of the file.
 * Return: 0; -ENOENT when the program is in none of @dirs; -errno from
 * pipe2(), socketpair() or posix_spawn().
 */
int decompress_start(struct decompress *d, const struct decompress_tool *t, int fd, uint64_t off,
		     uint64_t end, const char *dirs, int timeout_ms);

/* Up to @n bytes of output: the count, 0 at its end, -ETIMEDOUT past the deadline, -errno. */
ssize_t decompress_read(struct decompress *d, void *buf, size_t n);

/**
 * decompress_finish() - end the child and reap it: after the end of its output
 * it gets a second to exit, else (or at once when its output was not read to
 * the end) it is killed, and reaped within another second
 *
 * Return: 0 when it exited with status 0; its exit status (positive) or 128 +
 * the signal that ended it; -ETIME when it could not be reaped.
 */
int decompress_finish(struct decompress *d);

#endif
