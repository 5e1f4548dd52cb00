// SPDX-License-Identifier: GPL-2.0-only
/*
 * interrupt.c - the abort signals and the abort key (see interrupt.h)
 *
 * The key is read only from a terminal whose foreground process group is ours
 * (never from a console we merely inherited, nor in a background job, nor from
 * a pseudo-terminal, whose other end will be frozen), in
 * non-canonical mode without echo; ISIG stays on, so Ctrl-C arrives as SIGINT.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "interrupt.h"

#define KEY_ESC		0x1b

static const int abort_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NR_ABORT_SIGS	(sizeof(abort_sigs) / sizeof(abort_sigs[0]))

static volatile sig_atomic_t pending;
static struct sigaction old_act[NR_ABORT_SIGS];
static sigset_t old_mask;
static struct sigaction old_pipe;
static sigset_t commit_set;
static int committed;
static int installed;		/* how deep: 2 within an outer install */
/* the outer install's saved state, while an inner one is in place */
static struct {
	struct sigaction act[NR_ABORT_SIGS];
	sigset_t mask;
	struct sigaction pipe;
} outer;
static struct termios old_tio;
static int keys_on;
static int pty_ok;
static int key_hit;

static void on_signal(int sig)
{
	if (!pending)
		pending = sig;
}

/*
 * A signal ignored when we started stays ignored (nohup, a service manager
 * that ignores SIGHUP): whoever started us asked that it not stop us.
 */
static int set_all(void (*handler)(int), int save)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	/* the loops retry after EINTR anyway; restarting is the safer default */
	sa.sa_flags = SA_RESTART;
	sigfillset(&sa.sa_mask);
	for (i = 0; i < NR_ABORT_SIGS; i++) {
		if (save && sigaction(abort_sigs[i], NULL, &old_act[i]) < 0)
			return -errno;
		if (old_act[i].sa_handler == SIG_IGN)
			continue;
		if (sigaction(abort_sigs[i], &sa, NULL) < 0)
			return -errno;
	}
	return 0;
}

/**
 * interrupt_install() - from now on the abort signals set the flag, and the
 * stop signals are blocked.  Return: 0 or -errno (nothing changed then).
 */
int interrupt_install(void)
{
	sigset_t stop;
	size_t i;
	int r;

	if (installed > 1)
		return -EBUSY;
	if (installed) {
		/* nested: keep the outer state, and a signal already caught */
		memcpy(outer.act, old_act, sizeof(old_act));
		outer.mask = old_mask;
		outer.pipe = old_pipe;
	}
	sigemptyset(&stop);
	sigaddset(&stop, SIGTSTP);
	sigaddset(&stop, SIGTTIN);
	sigaddset(&stop, SIGTTOU);
	if (sigprocmask(SIG_BLOCK, &stop, &old_mask) < 0) {
		r = -errno;
		goto fail_outer;
	}
	if (!installed) {
		pending = 0;
		key_hit = 0;
	}
	r = set_all(on_signal, 1);
	/* a closed pipe on stderr gives EPIPE, not a silent death halfway */
	if (r == 0 && sigaction(SIGPIPE, NULL, &old_pipe) < 0)
		r = -errno;
	if (r == 0 && signal(SIGPIPE, SIG_IGN) == SIG_ERR)
		r = -errno;
	if (r < 0) {
		for (i = 0; i < NR_ABORT_SIGS; i++)
			(void)sigaction(abort_sigs[i], &old_act[i], NULL);
		(void)sigprocmask(SIG_SETMASK, &old_mask, NULL);
		goto fail_outer;
	}
	installed++;
	return 0;

fail_outer:
	if (installed) {
		memcpy(old_act, outer.act, sizeof(old_act));
		old_mask = outer.mask;
		old_pipe = outer.pipe;
	}
	return r;
}

/**
 * interrupt_install_hold() - interrupt_install(), and every other signal that
 * could end us is held (blocked) until interrupt_restore(), which delivers it
 * then: an inherited timer's SIGALRM, a SIGUSR1, SIGXCPU.  Not the faults
 * (SIGSEGV and the like: blocked, they kill all the same), nor SIGPIPE, which
 * the install ignores.
 * Return: as interrupt_install().
 */
int interrupt_install_hold(void)
{
	static const int faults[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS,
				      SIGABRT };
	sigset_t hold;
	size_t i;
	int r;

	r = interrupt_install();
	if (r < 0)
		return r;
	sigfillset(&hold);
	for (i = 0; i < NR_ABORT_SIGS; i++)
		sigdelset(&hold, abort_sigs[i]);
	for (i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		sigdelset(&hold, faults[i]);
	/*
	 * ignored from the install to the restore: held, it would stay pending
	 * and be delivered at the restore, which puts its default (death) back
	 */
	sigdelset(&hold, SIGPIPE);
	if (sigprocmask(SIG_BLOCK, &hold, NULL) < 0) {
		r = -errno;
		interrupt_restore();
		return r;
	}
	return 0;
}

/* The abort signal received so far, else INTERRUPT_KEY if the key was seen, else 0. */
int interrupt_pending(void)
{
	return pending ? pending : key_hit ? INTERRUPT_KEY : 0;
}

/* Read the key from a pseudo-terminal too (a test's, whose other end runs). */
void interrupt_keys_on_pty(int on)
{
	pty_ok = on;
}

/* stdin is a terminal and we are its foreground process group */
static int own_terminal(void)
{
	struct stat st;
	pid_t pg;

	if (!isatty(0) || fstat(0, &st) < 0)
		return 0;
	/*
	 * A pseudo-terminal's other end (sudo's, ssh's, a terminal window) is a
	 * process, frozen with the rest: no key would come through.  A console,
	 * a virtual terminal or a serial line it is then.
	 */
	if (!pty_ok && major(st.st_rdev) >= 136 && major(st.st_rdev) <= 143)
		return 0;
	pg = tcgetpgrp(0);
	return pg > 0 && pg == getpgrp();
}

/**
 * interrupt_keys_start() - read the abort key from the terminal from now on
 * Return: 1 when the key is read (say so to the user), 0 when there is no
 * terminal of ours to read it from.
 */
int interrupt_keys_start(void)
{
	struct termios tio;

	if (keys_on)
		return 1;
	if (!own_terminal() || tcgetattr(0, &old_tio) < 0)
		return 0;
	tio = old_tio;
	tio.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	/* Ctrl-S would stop our output, and with it everything, frozen */
	tio.c_iflag &= ~(tcflag_t)IXON;
	tio.c_cc[VMIN] = 0;
	tio.c_cc[VTIME] = 0;
	if (tcsetattr(0, TCSANOW, &tio) < 0)
		return 0;
	keys_on = 1;
	return 1;
}

static void keys_stop(void)
{
	if (!keys_on)
		return;
	(void)tcsetattr(0, TCSANOW, &old_tio);
	keys_on = 0;
}

/* Esc among the bytes waiting on the terminal?  Never blocks. */
static int key_pressed(void)
{
	struct pollfd p = { .fd = 0, .events = POLLIN };
	unsigned char buf[64];
	ssize_t n, i;

	if (key_hit)
		return 1;
	if (!keys_on || poll(&p, 1, 0) <= 0 || !(p.revents & POLLIN))
		return 0;
	n = read(0, buf, sizeof(buf));
	for (i = 0; i < n; i++)
		if (buf[i] == KEY_ESC)
			key_hit = 1;
	return key_hit;
}

/**
 * interrupt_check() - should the write stop?  Polls the key, once per block.
 * Return: the abort signal's number, INTERRUPT_KEY, or 0.
 */
int interrupt_check(void)
{
	if (pending)
		return pending;
	return key_pressed() ? INTERRUPT_KEY : 0;
}

/**
 * interrupt_commit() - the point of no return: the abort signals are ignored
 * from now on, and the key is no longer read.
 * Return: what interrupt_check() says, checked after the signals are ignored,
 * so that one arriving before is seen and none after: nonzero means the
 * commit must not happen.
 */
int interrupt_commit(void)
{
	size_t i;
	int r;

	if (installed) {
		(void)set_all(SIG_IGN, 0);
		/*
		 * Nor may any other signal end us now (an inherited timer's SIGALRM,
		 * ulimit -t's SIGXCPU): closing /dev/snapshot on the way out would
		 * thaw a machine whose swap header names the image.
		 */
		sigfillset(&commit_set);
		for (i = 0; i < NR_ABORT_SIGS; i++)
			sigdelset(&commit_set, abort_sigs[i]);
		committed = sigprocmask(SIG_BLOCK, &commit_set, NULL) == 0;
	}
	r = interrupt_check();
	keys_stop();
	return r;
}

/**
 * interrupt_drain() - drop the signals that came after the commit, while
 * nothing could act on them: call it before the thaw (SNAPSHOT_UNFREEZE), so
 * that what thawed processes send later is delivered as usual.  Only signals
 * that we blocked are taken: one the parent had blocked before we started
 * (inherited, maybe pending since) is not ours to drop.  Once per commit.
 */
void interrupt_drain(void)
{
	struct timespec zero = { 0, 0 };
	sigset_t ours;
	int sig;

	if (!committed)
		return;
	sigemptyset(&ours);
	for (sig = 1; sig < NSIG; sig++)
		if (sigismember(&commit_set, sig) == 1 && sigismember(&old_mask, sig) == 0)
			sigaddset(&ours, sig);
	while (sigtimedwait(&ours, NULL, &zero) > 0)
		;
	committed = 0;
}

/* Back to the signal dispositions, mask and terminal mode from before. */
void interrupt_restore(void)
{
	size_t i;

	keys_stop();
	if (!installed)
		return;
	for (i = 0; i < NR_ABORT_SIGS; i++)
		(void)sigaction(abort_sigs[i], &old_act[i], NULL);
	/* where interrupt_drain() was not called before the thaw */
	interrupt_drain();
	(void)sigaction(SIGPIPE, &old_pipe, NULL);
	(void)sigprocmask(SIG_SETMASK, &old_mask, NULL);
	if (--installed) {
		/* back to the outer install: the abort signals set the flag again */
		memcpy(old_act, outer.act, sizeof(old_act));
		old_mask = outer.mask;
		old_pipe = outer.pipe;
	}
}

/* "SIGINT" and so on, for the signals this module handles. */
const char *interrupt_signame(int sig)
{
	switch (sig) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	case SIGQUIT:
		return "SIGQUIT";
	default:
		return "signal";
	}
}
