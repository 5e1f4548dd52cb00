/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * splash.h - tell plymouth, when its daemon runs, what torpor is doing
 *
 * Through plymouth's own client (`plymouth display-message`), run in a child
 * that is never waited for without a bound: a stuck daemon cannot stall a
 * hibernation or a resume.  Nothing is said to the user from here.
 */
#ifndef CORE_SPLASH_H
#define CORE_SPLASH_H

#include <sys/types.h>

struct splash {
	const char *bin;		/* plymouth's client, NULL: no splash */
	pid_t pid;			/* the client still running, 0: none */
	char text[128];			/* the message shown, for splash_close() */
	int hide_ms;			/* how long the last message's removal may take (0: 200 ms) */
};

/*
 * splash_open() - is a plymouth daemon there to talk to?  Looks for the
 * client in @dirs (a colon-separated list; NULL for the usual /bin, /usr/bin,
 * /sbin and /usr/sbin) and asks the daemon (`plymouth --ping`, at most
 * @timeout_ms).  Returns 1 when it answers (@s then takes messages), 0 when
 * there is no client or no daemon, -errno when the question could not be asked.
 */
int splash_open(struct splash *s, const char *dirs, int timeout_ms);

/*
 * splash_message() - show @text (replacing the last one).  Returns 0, or
 * -EBUSY when the last client has not finished (this message is dropped),
 * -errno when none could be started; 0 without a splash.
 */
int splash_message(struct splash *s, const char *text);

/* splash_wait() - let the last client finish, at most @timeout_ms (then it is killed) */
void splash_wait(struct splash *s, int timeout_ms);

/*
 * splash_close() - end a client that still runs and take the last message
 * off the screen (waiting at most @timeout_ms for that).  The splash is closed
 * after it; safe to call on a closed one.
 */
void splash_close(struct splash *s, int timeout_ms);

#endif
