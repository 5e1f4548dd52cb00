// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-interrupt.c - the abort signals, the stop signals and the abort key
 *
 * In this process: SIGINT and friends only set the flag until interrupt_commit(),
 * are ignored after it, SIGTSTP/SIGTTIN/SIGTTOU stay pending instead of stopping
 * us, and interrupt_restore() puts the dispositions back.  In a child that owns a
 * pseudo-terminal: Esc typed on it aborts, other keys do not, the terminal mode
 * comes back; a background job neither reads the key nor stops in msg_flush().
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "interrupt.h"
#include "msg.h"
#include "tap.h"

static int disposition(int sig, void (*h)(int))
{
	struct sigaction sa;

	return sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == h;
}

/* a pending (blocked) @sig, taken off so that unblocking cannot deliver it */
static int take_pending(int sig)
{
	struct timespec zero = { 0, 0 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	return sigtimedwait(&set, NULL, &zero) == sig;
}

static volatile sig_atomic_t usr1_seen;

static void on_usr1(int sig)
{
	usr1_seen++;
}

/*
 * interrupt_drain() drops, once, what came between the commit and the thaw, and
 * only signals that we blocked: one the parent had blocked (pending from before
 * we started, or sent meanwhile) stays pending for it, and one that comes after
 * the drain (after the thaw) is delivered when interrupt_restore() unblocks it.
 */
static void test_drain(void)
{
	sigset_t usr2, mask;

	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr2, NULL);	/* as a parent may have */
	raise(SIGUSR2);				/* pending before we start */
	signal(SIGUSR1, on_usr1);
	usr1_seen = 0;
	tap_ok(interrupt_install() == 0 && interrupt_commit() == 0, "drain: install and commit");
	raise(SIGALRM);				/* while frozen: ours to drop */
	interrupt_drain();
	tap_ok(!take_pending(SIGALRM), "drain: a signal after the commit is dropped by the drain");
	raise(SIGUSR1);				/* after the thaw */
	tap_ok(usr1_seen == 0, "drain: a signal after the drain stays blocked until the restore");
	interrupt_restore();
	tap_ok(usr1_seen == 1, "drain: and is then delivered, not dropped");
	tap_ok(take_pending(SIGUSR2),
	       "drain: a signal the parent had blocked, pending from before, is left pending");

	tap_ok(interrupt_install() == 0 && interrupt_commit() == 0, "drain: install and commit again");
	raise(SIGUSR2);				/* blocked by the parent, sent while frozen */
	raise(SIGALRM);
	interrupt_restore();			/* no drain before: restore drains */
	tap_ok(!take_pending(SIGALRM) && take_pending(SIGUSR2),
	       "drain: interrupt_restore() alone drops ours, keeps the parent's blocked one");
	sigprocmask(SIG_SETMASK, NULL, &mask);
	tap_ok(sigismember(&mask, SIGUSR2) && !sigismember(&mask, SIGALRM),
	       "drain: the parent's mask comes back");
	sigprocmask(SIG_UNBLOCK, &usr2, NULL);
	signal(SIGUSR1, SIG_DFL);
}

/*
 * Nested installs (the image file's swapon under an outer one): a signal the
 * outer one caught survives the inner install, the inner restore goes back to
 * the outer state (the flag again, not death), the outer restore to the start.
 */
static void test_nested(void)
{
	sigset_t mask;

	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	tap_ok(interrupt_install() == 0, "nested: the outer install");
	raise(SIGTERM);				/* between the swapon and hibernate_run() */
	tap_ok(interrupt_install() == 0 && interrupt_pending() == SIGTERM,
	       "nested: a signal caught by the outer install is kept by the inner one");
	tap_ok(interrupt_install() == -EBUSY, "nested: a third install is refused");
	tap_ok(interrupt_commit() == SIGTERM, "nested: and cancels the commit");
	interrupt_restore();
	tap_ok(!disposition(SIGTERM, SIG_DFL) && !disposition(SIGTERM, SIG_IGN) &&
	       !disposition(SIGINT, SIG_DFL) && !disposition(SIGINT, SIG_IGN) &&
	       disposition(SIGPIPE, SIG_IGN),
	       "nested: the inner restore goes back to the outer handlers, not the defaults");
	raise(SIGINT);				/* while the file is put away: the flag, no death */
	tap_ok(interrupt_pending() == SIGTERM, "nested: after the inner restore a signal is caught");
	sigprocmask(SIG_SETMASK, NULL, &mask);
	tap_ok(sigismember(&mask, SIGTSTP), "nested: the stop signals stay blocked until the outer restore");
	interrupt_restore();
	sigprocmask(SIG_SETMASK, NULL, &mask);
	tap_ok(disposition(SIGTERM, SIG_DFL) && disposition(SIGINT, SIG_DFL) &&
	       disposition(SIGPIPE, SIG_DFL) && !sigismember(&mask, SIGTSTP),
	       "nested: the outer restore puts back the dispositions and mask of the start");
	tap_ok(interrupt_install() == 0 && interrupt_pending() == 0,
	       "nested: a new outer install starts with nothing pending");
	interrupt_restore();
}

/*
 * The image file's outer install holds every other signal until its restore
 * (interrupt_install_hold()): a SIGUSR1 or SIGALRM that would end torpor-suspend
 * with the file an active swap area waits, through the inner install, commit,
 * drain and restore, and the outer restore delivers it; the abort signals still
 * only set the flag, and the faults are not held.
 */
static void test_hold(void)
{
	sigset_t mask;
	char c = 0;
	int p[2], st = 0;
	pid_t pid;

	signal(SIGUSR1, on_usr1);
	signal(SIGTERM, SIG_DFL);
	usr1_seen = 0;
	tap_ok(interrupt_install_hold() == 0, "hold: the outer install");
	raise(SIGUSR1);
	tap_ok(usr1_seen == 0, "hold: another signal waits");
	raise(SIGTERM);
	tap_ok(interrupt_pending() == SIGTERM, "hold: an abort signal still only sets the flag");
	sigprocmask(SIG_SETMASK, NULL, &mask);
	tap_ok(sigismember(&mask, SIGALRM) && sigismember(&mask, SIGXCPU) &&
	       sigismember(&mask, SIGUSR2) && !sigismember(&mask, SIGSEGV) &&
	       !sigismember(&mask, SIGBUS) && !sigismember(&mask, SIGINT) &&
	       !sigismember(&mask, SIGTERM),
	       "hold: SIGALRM, SIGXCPU, SIGUSR2 held; the faults and abort signals not");
	raise(SIGPIPE);
	tap_ok(!sigismember(&mask, SIGPIPE) && !take_pending(SIGPIPE),
	       "hold: SIGPIPE is ignored, not held (held, the restore would deliver it)");
	tap_ok(interrupt_install() == 0 && interrupt_commit() == SIGTERM,
	       "hold: the inner install and commit (refused: SIGTERM came)");
	interrupt_drain();
	interrupt_restore();
	tap_ok(usr1_seen == 0, "hold: the inner drain and restore leave it waiting");
	interrupt_restore();
	tap_ok(usr1_seen == 1, "hold: the outer restore delivers it");
	sigprocmask(SIG_SETMASK, NULL, &mask);
	tap_ok(!sigismember(&mask, SIGALRM) && !sigismember(&mask, SIGUSR1),
	       "hold: the mask of the start comes back");
	signal(SIGUSR1, SIG_DFL);

	/* a signal whose default ends the process: alive until the restore */
	if (pipe(p) < 0) {
		tap_ok(0, "hold: pipe");
		return;
	}
	pid = fork();
	if (pid == 0) {
		signal(SIGALRM, SIG_DFL);
		if (interrupt_install_hold() < 0)
			_exit(3);
		raise(SIGALRM);
		(void)!write(p[1], "a", 1);
		interrupt_restore();
		_exit(0);
	}
	close(p[1]);
	tap_ok(pid > 0 && read(p[0], &c, 1) == 1 && c == 'a' && waitpid(pid, &st, 0) == pid &&
	       WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM,
	       "hold: a SIGALRM under the hold is survived, and ends the process at the restore");
	close(p[0]);
}

static void test_signals(void)
{
	sigset_t mask;

	/* whatever the runner left us (nohup ignores SIGHUP), start from the defaults */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	tap_ok(interrupt_install() == 0, "interrupt_install");
	tap_ok(interrupt_check() == 0, "nothing pending at first");
	raise(SIGINT);
	tap_ok(interrupt_pending() == SIGINT && interrupt_check() == SIGINT,
	       "SIGINT sets the flag and does not kill");
	raise(SIGTERM);
	tap_ok(interrupt_pending() == SIGINT, "the first abort signal is the one reported");
	raise(SIGTSTP);
	tap_ok(take_pending(SIGTSTP), "SIGTSTP is blocked: pending, we did not stop");
	raise(SIGTTIN);
	raise(SIGTTOU);
	tap_ok(take_pending(SIGTTIN) && take_pending(SIGTTOU), "SIGTTIN and SIGTTOU are blocked");
	tap_ok(interrupt_commit() == SIGINT, "a signal before the commit cancels it");
	interrupt_restore();
	tap_ok(disposition(SIGINT, SIG_DFL) && disposition(SIGTERM, SIG_DFL) &&
	       disposition(SIGHUP, SIG_DFL) && disposition(SIGQUIT, SIG_DFL),
	       "interrupt_restore puts the dispositions back");
	sigprocmask(SIG_SETMASK, NULL, &mask);
	tap_ok(!sigismember(&mask, SIGTSTP) && !sigismember(&mask, SIGTTOU),
	       "interrupt_restore unblocks the stop signals");

	tap_ok(interrupt_install() == 0 && interrupt_pending() == 0,
	       "a second install starts with no signal");
	raise(SIGPIPE);
	tap_ok(disposition(SIGPIPE, SIG_IGN) && interrupt_pending() == 0,
	       "SIGPIPE (stderr a closed pipe) neither kills nor aborts: EPIPE instead");
	tap_ok(interrupt_commit() == 0, "no signal: the commit goes on");
	tap_ok(disposition(SIGTERM, SIG_IGN) && disposition(SIGINT, SIG_IGN) &&
	       disposition(SIGHUP, SIG_IGN) && disposition(SIGQUIT, SIG_IGN),
	       "after the commit the abort signals are ignored");
	raise(SIGTERM);
	raise(SIGHUP);
	tap_ok(interrupt_pending() == 0, "SIGTERM and SIGHUP after the commit change nothing");
	raise(SIGALRM);
	raise(SIGPIPE);
	tap_ok(take_pending(SIGALRM), "after the commit no other signal (SIGALRM) ends us");
	raise(SIGUSR1);
	interrupt_restore();
	tap_ok(disposition(SIGTERM, SIG_DFL), "and are restored after");
	tap_ok(!take_pending(SIGUSR1), "what came after the commit is dropped, not delivered later");

	test_drain();
	test_nested();

	/* nohup: an abort signal ignored when we start stays ignored, and is no abort */
	signal(SIGHUP, SIG_IGN);
	tap_ok(interrupt_install() == 0 && disposition(SIGHUP, SIG_IGN) &&
	       !disposition(SIGINT, SIG_DFL), "a signal ignored at start stays ignored");
	raise(SIGHUP);
	tap_ok(interrupt_pending() == 0, "and does not abort");
	interrupt_restore();
	tap_ok(disposition(SIGHUP, SIG_IGN) && disposition(SIGINT, SIG_DFL),
	       "interrupt_restore leaves it ignored");
	signal(SIGHUP, SIG_DFL);
}

/* wait until fd 0 has input (the pty moves bytes asynchronously) */
static int input_ready(void)
{
	struct pollfd p = { .fd = 0, .events = POLLIN };

	return poll(&p, 1, 10000) == 1;
}

/* a background job of the terminal: no key, and msg_flush() must not stop it */
static int background_job(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		setpgid(0, 0);
		if (interrupt_keys_start() != 0)
			_exit(1);
		msg_flush();
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, WUNTRACED) != pid)
		return 20;
	if (WIFSTOPPED(st)) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		return 21;	/* tcdrain() raised SIGTTOU */
	}
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 22;
}

/* In a new session with the pty slave as controlling terminal; 0 or the failed step. */
static int pty_child(int master, const char *slave)
{
	struct termios tio;
	int fd, r;

	if (setsid() < 0)
		return 1;
	fd = open(slave, O_RDWR);	/* a session leader's first tty: its controlling one */
	if (fd < 0 || dup2(fd, 0) < 0 || dup2(fd, 2) < 0)
		return 2;
	if (tcgetpgrp(0) != getpgrp())
		return 3;
	if (interrupt_keys_start() != 0)
		return 11;	/* a pty's other end is frozen in a hibernation: no key */
	interrupt_keys_on_pty(1);
	if (interrupt_install() < 0 || interrupt_keys_start() != 1)
		return 4;
	if (tcgetattr(0, &tio) < 0 || (tio.c_lflag & (ICANON | ECHO)))
		return 5;
	if (interrupt_check() != 0)
		return 6;
	if (write(master, "ab\n", 3) != 3 || !input_ready() || interrupt_check() != 0)
		return 7;	/* other keys do not abort */
	if (write(master, "x\033", 2) != 2)
		return 8;
	while (interrupt_check() == 0 && input_ready())
		;	/* until the Esc is read (or nothing comes for 10 s) */
	if (interrupt_check() != INTERRUPT_KEY)
		return 8;
	if (interrupt_pending() != INTERRUPT_KEY || interrupt_commit() != INTERRUPT_KEY)
		return 9;
	interrupt_restore();
	if (tcgetattr(0, &tio) < 0 || !(tio.c_lflag & ICANON) || !(tio.c_lflag & ECHO))
		return 10;
	r = background_job();
	if (r)
		return r;
	msg_flush();	/* the foreground drains, and returns */
	return 0;
}

static void test_key(void)
{
	int master, st;
	char *slave;
	pid_t pid;

	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0 ||
	    !(slave = ptsname(master))) {
		tap_ok(0, "pseudo-terminal: %s", strerror(errno));
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(pty_child(master, slave));
	st = -1;
	if (pid > 0)
		waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "no key from a pseudo-terminal by default; on our terminal Esc aborts, other keys do not, the mode comes back; a "
	       "background job neither reads keys nor stops in msg_flush (failed step: %d)",
	       WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	close(master);
}

int main(void)
{
	test_signals();
	test_hold();
	test_key();
	return tap_done();
}
