// SPDX-License-Identifier: GPL-2.0-only
/*
 * decompress.c - run the host's decompressor for a stream, read its output
 * within a deadline
 *
 * A tool, not a library: the host that built its initramfs with zstd or xz has
 * that tool (its generator ran it), and torpor-suspend links no more than lz4.
 * The child gets a socket as its stdin (we send it the range of the file, with
 * MSG_NOSIGNAL: a tool that quits early costs no SIGPIPE), a pipe as stdout,
 * /dev/null as stderr, a fixed environment and the signals a new program
 * expects; it is killed at the deadline, so that a stuck or endless
 * decompressor cannot hold up the hibernation for ever.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "decompress.h"
#include "monoclock.h"

#define SEND_CHUNK	(64 * 1024)

/* the tool's whole environment: the caller's (XZ_DEFAULTS, ZSTD_NBTHREADS, GZIP,
 * a locale) could make it fail or read the stream differently */
static char *const tool_env[] = { "PATH=" DECOMPRESS_PATH, "LC_ALL=C", NULL };

static const struct {
	uint8_t magic[6];
	size_t len;
	struct decompress_tool tool;
} formats[] = {
	{ { 0x1f, 0x8b }, 2, { "gzip", { "gzip", "-dc", NULL } } },
	{ { 0x1f, 0x9e }, 2, { "gzip", { "gzip", "-dc", NULL } } },
	{ { 'B', 'Z', 'h' }, 3, { "bzip2", { "bzip2", "-dc", NULL } } },
	{ { 0x5d, 0x00, 0x00 }, 3, { "lzma", { "unlzma", "-c", NULL } } },
	{ { 0xfd, '7', 'z', 'X', 'Z', 0x00 }, 6, { "xz", { "xz", "-dc", NULL } } },
	{ { 0x89, 'L', 'Z', 'O' }, 4, { "lzo", { "lzop", "-dc", NULL } } },
	{ { 0x02, 0x21, 0x4c, 0x18 }, 4, { "lz4", { "lz4", "-dc", NULL } } },
	{ { 0x28, 0xb5, 0x2f, 0xfd }, 4, { "zstd", { "zstd", "-dcq", NULL } } },
};

const struct decompress_tool *decompress_detect(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (n >= formats[i].len && !memcmp(p, formats[i].magic, formats[i].len))
			return &formats[i].tool;
	return NULL;
}

/* @name in one of the directories @dirs, into @buf; 0 or -ENOENT */
static int find_tool(const char *dirs, const char *name, char *buf, size_t len)
{
	const char *p = dirs, *end;
	size_t n;

	while (*p) {
		end = strchr(p, ':');
		n = end ? (size_t)(end - p) : strlen(p);
		if (n && (size_t)snprintf(buf, len, "%.*s/%s", (int)n, p, name) < len &&
		    access(buf, X_OK) == 0)
			return 0;
		if (!end)
			break;
		p = end + 1;
	}
	return -ENOENT;
}

/* The child's standard streams and signals; 0 or -errno */
static int spawn(struct decompress *d, int in_fd, int out_fd)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, all;
	int r;

	sigemptyset(&none);
	sigfillset(&all);
	r = -posix_spawn_file_actions_init(&fa);
	if (r < 0)
		return r;
	r = -posix_spawnattr_init(&at);
	if (r < 0)
		goto out_fa;
	r = -posix_spawn_file_actions_adddup2(&fa, in_fd, 0);
	if (!r)
		r = -posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	if (!r)
		r = -posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	/* torpor-suspend blocks or ignores some signals: the tool gets the defaults */
	if (!r)
		r = -posix_spawnattr_setsigmask(&at, &none);
	if (!r)
		r = -posix_spawnattr_setsigdefault(&at, &all);
	if (!r)
		r = -posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	if (!r)
		r = -posix_spawn(&d->pid, d->bin, &fa, &at, (char *const *)d->tool->argv,
				  tool_env);
	posix_spawnattr_destroy(&at);
out_fa:
	posix_spawn_file_actions_destroy(&fa);
	return r;
}

int decompress_start(struct decompress *d, const struct decompress_tool *t, int fd, uint64_t off,
		     uint64_t end, const char *dirs, int timeout_ms)
{
	int p[2], s[2], r;

	memset(d, 0, sizeof(*d));
	d->out = -1;
	d->in = -1;
	d->pid = -1;
	d->tool = t;
	d->src = fd;
	d->in_off = off;
	d->in_end = end;
	r = find_tool(dirs, t->argv[0], d->bin, sizeof(d->bin));
	if (r < 0)
		return r;
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, s) < 0) {
		r = -errno;
		close(p[0]);
		close(p[1]);
		return r;
	}
	d->deadline_ms = mono_ms() + timeout_ms;
	r = spawn(d, s[1], p[1]);
	close(p[1]);
	close(s[1]);
	if (r < 0) {
		close(p[0]);
		close(s[0]);
		d->pid = -1;
		return r;
	}
	d->out = p[0];
	d->in = s[0];
	return 0;
}

/* Send the tool what its socket takes now; 0, or -errno from the file */
static int send_some(struct decompress *d)
{
	uint8_t buf[SEND_CHUNK];
	uint64_t want = d->in_end - d->in_off;
	ssize_t n, sent;

	n = pread(d->src, buf, want < sizeof(buf) ? (size_t)want : sizeof(buf), (off_t)d->in_off);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	if (n == 0)
		d->in_end = d->in_off;	/* the file is shorter: its end is the input's */
	sent = n ? send(d->in, buf, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT) : 0;
	if (sent > 0)
		d->in_off += (uint64_t)sent;
	/* the tool is gone (it stopped reading): its status tells */
	if (sent < 0 && errno != EAGAIN && errno != EINTR)
		d->in_end = d->in_off;
	if (d->in_off == d->in_end) {
		close(d->in);
		d->in = -1;
	}
	return 0;
}

ssize_t decompress_read(struct decompress *d, void *buf, size_t n)
{
	struct pollfd pfd[2] = { { .fd = d->out, .events = POLLIN },
				 { .fd = -1, .events = POLLOUT } };
	long long left;
	ssize_t got;
	int r;

	for (;;) {
		left = d->deadline_ms - mono_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		if (d->in >= 0 && d->in_off == d->in_end) {
			close(d->in);
			d->in = -1;
		}
		pfd[1].fd = d->in;
		r = poll(pfd, 2, left > 1000 ? 1000 : (int)left);
		if (r < 0 && errno != EINTR)
			return -errno;
		if (r <= 0)
			continue;
		if (pfd[1].revents) {
			r = send_some(d);
			if (r < 0)
				return r;
		}
		if (!pfd[0].revents)
			continue;
		got = read(d->out, buf, n);
		if (got == 0)
			d->eof = 1;
		if (got >= 0)
			return got;
		if (errno != EINTR && errno != EAGAIN)
			return -errno;
	}
}

int decompress_finish(struct decompress *d)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int status = 0, i;
	pid_t r = 0;

	if (d->out >= 0)
		close(d->out);
	d->out = -1;
	if (d->in >= 0)
		close(d->in);
	d->in = -1;
	if (d->pid <= 0)
		return 0;
	/* a tool whose output ended exits at once; one still going is killed */
	for (i = 0; i < (d->eof ? 100 : 1); i++) {
		r = waitpid(d->pid, &status, WNOHANG);
		if (r != 0 && !(r < 0 && errno == EINTR))
			break;
		nanosleep(&ts, NULL);
	}
	if (r == 0) {
		kill(d->pid, SIGKILL);
		for (i = 0; i < 100 && r == 0; i++) {
			nanosleep(&ts, NULL);
			r = waitpid(d->pid, &status, WNOHANG);
		}
	}
	d->pid = -1;
	if (r <= 0)
		return -ETIME;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
