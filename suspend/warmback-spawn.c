// SPDX-License-Identifier: GPL-2.0-only
/*
 * warmback-spawn.c - the warm-back's two ends in torpor-suspend: the notes
 * taken before the freeze (warmback_take()), and after the thaw a detached
 * child that brings back what they hold (warmback_start()).
 *
 * The child is a grandchild (the parent reaps the child at once), in a session
 * of its own, at nice 19 and idle I/O priority, nothing of it locked, every fd
 * but stdin, stderr and the notes' memfd closed (so never /dev/snapshot,
 * closed anyway before it is forked).  Run by systemd (INVOCATION_ID set), the
 * unit's end would kill it with the rest of the unit's cgroup: it execs
 * torpor-suspend again, under `systemd-run --scope` in a scope of its own,
 * with the memfd inherited (--warm-back-run=FD,FD).  The parent waits, at most
 * READY_MS, until the child is where it stays (a pipe closed), so the unit
 * cannot end first.  SIGALRM ends the child if it ever overstays its deadline.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "monoclock.h"
#include "msg.h"
#include "warmback.h"

#define READY_MS 5000			/* the parent's wait for the child to settle */
#define FD_NOTES 3			/* the child's fds */
#define FD_READY 4
#define FD_EXE 5
#define IOPRIO_CLASS_IDLE 3
#define IOPRIO_CLASS_SHIFT 13
#define IOPRIO_WHO_PROCESS 1

/**
 * warmback_take() - note the working set (warmback_note()), bounded by
 * WB_NOTE_MS (and WB_NOTE_GRACE_MS for a walk stuck in the kernel) and
 * WB_NOTES_MAX, before the freeze
 * @n: the notes, or fd -1 when none were taken
 *
 * A failure only means no warm-back: said at debug level.
 * Return: 0 or -errno.
 */
int warmback_take(struct wb_notes *n)
{
	struct wb_note_opts o = {
		.proc = "/proc", .skip_pid = getpid(), .max_bytes = WB_NOTES_MAX,
	};
	const struct wb_head *h;
	struct rusage ru;
	int r;

	o.deadline_ns = mono_ns() + WB_NOTE_MS * 1000000ull;
	r = warmback_note(n, &o);
	if (r < 0) {
		msg_debug("warm-back: cannot note the working set: %s; no warm-back",
			  msg_errname(r));
		return r;
	}
	h = msg_debug_enabled() ? mmap(NULL, sizeof(*h), PROT_READ, MAP_SHARED, n->fd, 0) :
				  MAP_FAILED;
	if (h != MAP_FAILED) {
		/* the walk's child's peak (at least): its buffers; the notes are a memfd */
		getrusage(RUSAGE_CHILDREN, &ru);
		msg_debug("warm-back: noted %u files (%llu MiB resident) and %u processes "
			  "(%llu MiB present) in %llu ms, %llu KiB of notes, peak RSS %ld KiB"
			  "%s%s%s",
			  h->files, (unsigned long long)(h->file_pages * h->page_size >> 20),
			  h->procs, (unsigned long long)(h->anon_pages * h->page_size >> 20),
			  (unsigned long long)(h->note_ns / 1000000),
			  (unsigned long long)((h->used + 1023) >> 10), ru.ru_maxrss,
			  h->truncated & WB_CUT_TIME ? ", cut short: time" : "",
			  h->truncated & WB_CUT_SIZE ? ", cut short: size" : "",
			  h->truncated & WB_CUT_FILES ? ", cut short: files" : "");
		munmap((void *)h, sizeof(*h));
	}
	return 0;
}

/* Low priority, nothing locked, the default signals, stdout on /dev/null */
static void settle(void)
{
	sigset_t all;
	int s, fd;

	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	for (s = 1; s < NSIG; s++)
		if (s != SIGKILL && s != SIGSTOP)
			signal(s, SIG_DFL);
	munlockall();
	(void)setpriority(PRIO_PROCESS, 0, 19);
	(void)syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0,
		      IOPRIO_CLASS_IDLE << IOPRIO_CLASS_SHIFT);
	/* no one waits for our stdout to close: only stderr says anything */
	fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		close(fd);
	}
}

/* Every fd above @keep closed */
static void close_above(int keep)
{
	int fd;

	if (syscall(SYS_close_range, keep + 1, ~0u, 0) == 0)
		return;
	for (fd = keep + 1; fd < 4096; fd++)
		close(fd);
}

/* Ask back what the notes in @fd hold, and say what was done */
static int fill_and_say(int fd)
{
	struct wb_fill_opts o = { .proc = "/proc", .sys_block = "/sys/dev/block", .watch = 1 };
	struct wb_fill_stats s;
	struct wb_notes n;
	double t0 = mono_s();
	int r;

	o.deadline_ns = mono_ns() + WB_RUN_SECONDS * 1000000000ull;
	alarm(WB_RUN_SECONDS + 30);
	r = wb_notes_open(&n, fd);
	if (r < 0) {
		msg_debug("warm-back: cannot read the notes: %s", msg_errname(r));
		return 1;
	}
	r = warmback_fill(&n, &o, &s);
	wb_notes_free(&n);
	if (r < 0) {
		msg_debug("warm-back: %s", msg_errname(r));
		return 1;
	}
	msg_info("warm-back: %llu MiB of files and %llu MiB of memory brought back in %.1f s%s%s",
		 (unsigned long long)(s.file_bytes >> 20), (unsigned long long)(s.anon_bytes >> 20),
		 mono_s() - t0, s.stopped[0] ? ", stopped: " : "", s.stopped);
	msg_debug("warm-back: %u files gone or changed, %u processes gone; memory by %s",
		  s.files_changed, s.procs_gone,
		  s.anon_mode == 1 ? "process_madvise()" :
		  s.anon_mode == 2 ? "reading it (no process_madvise())" :
		  s.anon_mode == 3 ? "nothing (no pidfd_open())" : "nothing asked");
	return 0;
}

static const char *find_systemd_run(void)
{
	static const char *const paths[] = { "/usr/bin/systemd-run", "/bin/systemd-run" };
	size_t i;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (access(paths[i], X_OK) == 0)
			return paths[i];
	return NULL;
}

/* Under systemd: torpor-suspend again, in a scope of its own.  Returns on failure only. */
static void exec_in_scope(void)
{
	const char *run = find_systemd_run();
	char unit[64], exe[32], arg[48];
	int fd;

	if (!run || !getenv("INVOCATION_ID"))
		return;
	/* our own binary by fd: systemd-run execs it whatever its path is now */
	fd = open("/proc/self/exe", O_RDONLY);
	if (fd < 0 || dup2(fd, FD_EXE) < 0)
		return;
	if (fd != FD_EXE)
		close(fd);
	snprintf(unit, sizeof(unit), "--unit=torpor-warm-back-%d", (int)getpid());
	snprintf(exe, sizeof(exe), "/proc/self/fd/%d", FD_EXE);
	snprintf(arg, sizeof(arg), "--warm-back-run=%d,%d", FD_NOTES, FD_READY);
	execl(run, run, "--scope", "--quiet", "--collect", unit,
	      "--description=torpor: warm-back after the resume", "--", exe, arg,
	      msg_debug_enabled() ? "-v" : NULL, (char *)NULL);
	close(FD_EXE);
}

/* The grandchild: settle, move out of the unit under systemd, fill; never returns */
static void child(int notes_fd, int ready_fd)
{
	int a, b;

	setsid();
	settle();
	/* out of the way first: either may be the other's new number */
	a = fcntl(notes_fd, F_DUPFD, 10);
	b = fcntl(ready_fd, F_DUPFD, 10);
	if (a < 0 || b < 0 || dup2(a, FD_NOTES) < 0 || dup2(b, FD_READY) < 0)
		_exit(1);
	close_above(FD_READY);
	/* SIGALRM's default ends us: past any bound, even in systemd-run */
	alarm(WB_RUN_SECONDS + 60);
	exec_in_scope();
	close(FD_READY);
	_exit(fill_and_say(FD_NOTES));
}

/**
 * warmback_start() - after the thaw, with /dev/snapshot closed: the detached
 * child that brings back what @n holds (none when its fd is -1); the notes are
 * freed here.  Waits at most READY_MS, for the child to leave the parent's
 * unit under systemd.  Silent but for -v.
 */
void warmback_start(struct wb_notes *n)
{
	struct pollfd p;
	int ready[2];
	pid_t pid;

	if (n->fd < 0)
		return;
	if (pipe2(ready, O_CLOEXEC) < 0)
		goto out;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(ready[0]);
		if (fork() == 0)
			child(n->fd, ready[1]);
		_exit(0);
	}
	close(ready[1]);
	if (pid < 0) {
		msg_debug("warm-back: cannot fork: %s", msg_errname(-errno));
	} else {
		/* the child only forks and exits */
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		p.fd = ready[0];
		p.events = POLLIN;
		(void)poll(&p, 1, READY_MS);
	}
	close(ready[0]);
out:
	wb_notes_free(n);
}

/**
 * warmback_child_main() - torpor-suspend --warm-back-run=NOTES,READY: the
 * warm-back child after its exec under systemd-run.  Says the parent may go
 * (closes READY), then fills.  Return: the exit status.
 */
int warmback_child_main(const char *arg)
{
	int notes_fd, ready_fd;
	char end;

	if (sscanf(arg, "%d,%d%c", &notes_fd, &ready_fd, &end) != 2 || notes_fd < 3 ||
	    ready_fd < 3 || notes_fd == ready_fd) {
		msg_error("invalid --warm-back-run '%s': not two file descriptors", arg);
		return 2;
	}
	close(ready_fd);
	settle();
	return fill_and_say(notes_fd);
}
