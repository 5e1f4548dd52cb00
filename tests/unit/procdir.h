/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * procdir.h - count what a /proc directory lists, for the unit tests
 *
 * A process's descriptors (/proc/PID/fd) or threads (/proc/self/task): the
 * entries of the directory but "." and "..".
 */
#ifndef TESTS_PROCDIR_H
#define TESTS_PROCDIR_H

#include <dirent.h>
#include <stdio.h>
#include <sys/types.h>

/* Entries of directory @path; -1 when it cannot be read. */
static inline int dir_entries(const char *path)
{
	struct dirent *e;
	DIR *d = opendir(path);
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* Open descriptors of process @pid; -1 when they cannot be read. */
static inline int count_fds(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	return dir_entries(path);
}

#endif
