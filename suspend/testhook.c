// SPDX-License-Identifier: GPL-2.0-only
/*
 * testhook.c - the test build's fault injection (see testhook.h); compiled to
 * nothing without -DTORPOR_TEST_HOOKS
 */
#ifdef TORPOR_TEST_HOOKS
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "msg.h"
#include "testhook.h"

#define POINT_BEFORE_ROOT	(-1)
#define POINT_COMMIT		(-2)
#define MAX_SIGNALS		4

static const char *stall_at;
static struct {
	long point;		/* a percentage, or POINT_* */
	int sig;
} sigs[MAX_SIGNALS];
static int nr_sigs;

static const struct {
	const char *name;
	int sig;
} signames[] = {
	{ "INT", SIGINT }, { "TERM", SIGTERM }, { "HUP", SIGHUP }, { "QUIT", SIGQUIT },
	{ "TSTP", SIGTSTP }, { "TTIN", SIGTTIN }, { "TTOU", SIGTTOU }, { "USR1", SIGUSR1 },
};

static int parse_sig(const char *s)
{
	size_t i;

	if (!strncmp(s, "SIG", 3))
		s += 3;
	for (i = 0; i < sizeof(signames) / sizeof(signames[0]); i++)
		if (!strcmp(s, signames[i].name))
			return signames[i].sig;
	return atoi(s);
}

/* "WHEN:SIG,WHEN:SIG"; a malformed item is reported and skipped */
static void parse_signals(const char *spec)
{
	char buf[128], *item, *save = NULL, *colon;

	snprintf(buf, sizeof(buf), "%s", spec);
	for (item = strtok_r(buf, ",", &save); item && nr_sigs < MAX_SIGNALS;
	     item = strtok_r(NULL, ",", &save)) {
		colon = strchr(item, ':');
		if (!colon || parse_sig(colon + 1) <= 0) {
			msg_warn("test: ignoring TORPOR_TEST_SIGNAL item '%s'", item);
			continue;
		}
		*colon = '\0';
		if (!strcmp(item, "before-root"))
			sigs[nr_sigs].point = POINT_BEFORE_ROOT;
		else if (!strcmp(item, "commit"))
			sigs[nr_sigs].point = POINT_COMMIT;
		else
			sigs[nr_sigs].point = atol(item);
		sigs[nr_sigs++].sig = parse_sig(colon + 1);
	}
}

/* Read the environment, before anything is frozen. */
void testhook_init(void)
{
	const char *s = getenv("TORPOR_TEST_SIGNAL");

	stall_at = getenv("TORPOR_TEST_STALL");
	if (s)
		parse_signals(s);
}

/* Just before FREEZE: TORPOR_TEST_MOUNT=TYPE:DEV:DIR, mounted after the list was made */
void testhook_before_freeze(void)
{
	const char *s = getenv("TORPOR_TEST_MOUNT");
	char buf[256], *dev, *dir;

	if (!s)
		return;
	snprintf(buf, sizeof(buf), "%s", s);
	dev = strchr(buf, ':');
	dir = dev ? strchr(dev + 1, ':') : NULL;
	if (!dir) {
		msg_warn("test: ignoring TORPOR_TEST_MOUNT '%s' (not TYPE:DEV:DIR)", s);
		return;
	}
	*dev++ = '\0';
	*dir++ = '\0';
	if (mount(dev, dir, buf, 0, NULL) < 0)
		msg_warn("test: cannot mount %s on %s (TORPOR_TEST_MOUNT)", dev, dir);
	else
		msg_info("test: mounted %s on %s (TORPOR_TEST_MOUNT)", dev, dir);
}

static void stall(const char *where)
{
	msg_info("test: stalling %s (TORPOR_TEST_STALL)", where);
	msg_flush();
	sleep(120);
}

/* raise() the signals due at @point (each once) */
static void raise_at(long point, const char *where)
{
	int i;

	for (i = 0; i < nr_sigs; i++) {
		if (!sigs[i].sig || (point < 0 ? sigs[i].point != point :
				     sigs[i].point < 0 || point < sigs[i].point))
			continue;
		msg_info("test: raising signal %d %s (TORPOR_TEST_SIGNAL)", sigs[i].sig, where);
		raise(sigs[i].sig);
		sigs[i].sig = 0;
	}
}

/* Each progress line: the percentage stall */
void testhook_progress(unsigned long long pct)
{
	if (stall_at && strcmp(stall_at, "commit") && pct >= strtoull(stall_at, NULL, 10)) {
		stall("while writing");
		stall_at = NULL;
	}
}

/* Each block, before it is read */
void testhook_block(unsigned long long pct)
{
	raise_at((long)pct, "while writing");
}

/* Data and map are on the disk, the root is not */
void testhook_before_root(void)
{
	if (stall_at && !strcmp(stall_at, "commit"))
		stall("before the commit");
	raise_at(POINT_BEFORE_ROOT, "before the root record");
}

/* The root is written and flushed */
void testhook_committed(void)
{
	raise_at(POINT_COMMIT, "after the commit");
}

/*
 * @path (a namespace or init's root) gave EACCES: go on anyway?  Only with
 * TORPOR_TEST_NS_UNREADABLE=allow, for host tests run by a sandbox's root,
 * which must get past this to the checks they are about.  Read here, not in
 * testhook_init(): the namespace checks come first.
 */
int testhook_ns_unreadable(const char *path)
{
	const char *s = getenv("TORPOR_TEST_NS_UNREADABLE");

	if (!s || strcmp(s, "allow"))
		return 0;
	msg_warn("test: cannot read '%s', going on (TORPOR_TEST_NS_UNREADABLE)", path);
	return 1;
}

/* TORPOR_TEST_NO_FITCHECK=1: an image that seems too large is hibernated all the same */
int testhook_no_fitcheck(void)
{
	const char *s = getenv("TORPOR_TEST_NO_FITCHECK");

	if (!s || strcmp(s, "1"))
		return 0;
	msg_warn("test: not refusing, the late check decides (TORPOR_TEST_NO_FITCHECK)");
	return 1;
}
#endif
