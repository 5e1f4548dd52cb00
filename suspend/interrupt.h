/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * interrupt.h - how a hibernation in progress is aborted: by a signal or a key
 *
 * From interrupt_install() (before FREEZE) to interrupt_commit() (just before
 * the root record is written), SIGINT, SIGTERM, SIGHUP and SIGQUIT only set a
 * flag, which the write loop polls: it then discards the image and thaws.  From
 * interrupt_commit() on they are ignored: the image is valid, power-off follows.
 * SIGTSTP, SIGTTIN and SIGTTOU stay blocked all the time: a stopped
 * torpor-suspend would leave the machine frozen.  From interrupt_commit() on,
 * every other signal is blocked too; interrupt_drain() drops those that came
 * meanwhile (before the thaw), interrupt_restore() puts everything back (after
 * a failure, or in the process that was restored).
 *
 * One install may be nested in another (the image file is swapon()ed under an
 * outer one, interrupt_install_hold(), which also holds every other signal
 * until its restore, so that no signal can end torpor-suspend with the file
 * active):
 * the inner one keeps a signal the outer one caught, and its
 * interrupt_restore() goes back to the outer one's state, where the abort
 * signals set the flag again.
 */
#ifndef SUSPEND_INTERRUPT_H
#define SUSPEND_INTERRUPT_H

#define INTERRUPT_KEY	(-1)	/* interrupt_pending(): Esc on the terminal */

int interrupt_install(void);
int interrupt_install_hold(void);
int interrupt_pending(void);
int interrupt_keys_start(void);
void interrupt_keys_on_pty(int on);
int interrupt_check(void);
int interrupt_commit(void);
void interrupt_drain(void);
void interrupt_restore(void);
const char *interrupt_signame(int sig);

#endif
