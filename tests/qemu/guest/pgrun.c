// SPDX-License-Identifier: GPL-2.0-only
/*
 * pgrun: run a command in a process group of its own, as a job-control shell does.
 *
 * Usage: pgrun COMMAND [ARG...]; exits with COMMAND's status (128+N for signal N).
 *
 * The guest's /init is PID 1, and the kernel discards SIGTSTP, SIGTTIN and SIGTTOU
 * for a child of PID 1 (its process group is orphaned).  Under pgrun the command's
 * group has a parent (pgrun) in another group of the same session, as under a
 * login shell, so those signals stop it unless it blocks them.
 * Built statically with gcc for the test initramfs.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	pid_t pid;
	int st;

	if (argc < 2) {
		fprintf(stderr, "usage: pgrun COMMAND [ARG...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("pgrun: fork");
		return 1;
	}
	if (pid == 0) {
		setpgid(0, 0);
		execvp(argv[1], argv + 1);
		perror("pgrun: exec");
		_exit(127);
	}
	setpgid(pid, pid);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
