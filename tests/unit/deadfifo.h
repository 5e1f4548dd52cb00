/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * deadfifo.h - a fake device that answers some reads and never others, for
 * the unit tests of core/devname.c's reader process
 *
 * Whoever reads a device in a fake tree (devname_root) opens its uevent first:
 * devname_open() looks up the node's name there.  That uevent becomes a FIFO
 * a child process serves: each open is answered with the uevent text but the
 * @hang_at'th (counted from 1), which gets no word until its reader is gone,
 * as a read of a dead disk never returns.  A fresh FIFO takes the path at each
 * open, so that one reader's open is never taken for the next's.  Nothing
 * here depends on timing: each step waits for the open or the close it needs.
 */
#ifndef TESTS_DEADFIFO_H
#define TESTS_DEADFIFO_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Serve @path (a uevent in the fake tree) for device @name, @maj:@min; the
 * server's pid, which deadfifo_stop() ends, or -1.
 */
static inline pid_t deadfifo_serve(const char *path, const char *name, unsigned int maj,
				   unsigned int min, int hang_at)
{
	char tmp[PATH_MAX + 8], text[256];
	struct pollfd pf;
	pid_t pid;
	int fd, i;

	snprintf(tmp, sizeof(tmp), "%s.new", path);
	snprintf(text, sizeof(text), "MAJOR=%u\nMINOR=%u\nDEVNAME=%s\nDEVTYPE=disk\n", maj, min,
		 name);
	if ((unlink(path) < 0 && errno != ENOENT) || mkfifo(path, 0600) < 0)
		return -1;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid != 0)
		return pid;
	for (i = 1;; i++) {
		fd = open(path, O_WRONLY);
		if (fd < 0 || mkfifo(tmp, 0600) < 0 || rename(tmp, path) < 0)
			_exit(1);
		if (i != hang_at) {
			(void)!write(fd, text, strlen(text));
		} else {
			/* POLLERR: no reader left */
			pf.fd = fd;
			pf.events = 0;
			while (poll(&pf, 1, -1) >= 0 && !(pf.revents & POLLERR))
				;
		}
		close(fd);
	}
}

/* End the server deadfifo_serve() started. */
static inline void deadfifo_stop(pid_t pid)
{
	int st;

	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
}

#endif
