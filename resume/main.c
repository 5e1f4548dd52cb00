// SPDX-License-Identifier: GPL-2.0-only
/*
 * torpor-resume - restore a hibernated system from the initramfs
 *
 * Usage: torpor-resume [--device=DEV] [--offset=N] [--wait=SECONDS] [--noresume]
 *                      [--force] [--dump] [-v]
 *
 * With no arguments it reads resume=, resume_offset=, noresume, torpor.force,
 * torpor.wait= and torpor.debug from /proc/cmdline.  Steps:
 *  1. no resume device configured: exit 0 at once;
 *  2. wait (bounded) for the device, read the swap header: no torpor image,
 *     exit 0 quietly;
 *  3. check the whole header and map, the kernel and the memory size;
 *  4. invalidate the image on disk, then feed it to /dev/snapshot, verifying
 *     each block first, FREEZE and ATOMIC_RESTORE (which does not return);
 *  5. on any problem: one message on the console and in the kernel log, the
 *     image left invalidated, exit 0 so that the boot goes on normally.
 * Exit 2 is a usage error; --dump prints the image description and changes nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"
#include "msg.h"
#include "restore.h"

#define DEFAULT_WAIT 5

static void usage(void)
{
	fprintf(stderr,
		"usage: torpor-resume [--device=DEV] [--offset=N] [--wait=SECONDS]\n"
		"                     [--noresume] [--force] [--dump] [-v]\n"
		"Restore a torpor hibernation image; run from the initramfs.\n"
		"Defaults come from resume=, resume_offset=, noresume, torpor.wait=,\n"
		"torpor.force and torpor.debug on the kernel command line.\n");
}

static int parse_num(const char *s, unsigned long long *ret)
{
	char *end;

	errno = 0;
	*ret = strtoull(s, &end, 10);
	return (errno || end == s || *end || *s == '-') ? -EINVAL : 0;
}

/* Returns 0, or 2 for a usage error. */
static int parse_args(int argc, char **argv, struct restore_opts *o)
{
	unsigned long long v;
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strncmp(a, "--device=", 9)) {
			snprintf(o->device, sizeof(o->device), "%s", a + 9);
		} else if (!strncmp(a, "--offset=", 9)) {
			if (parse_num(a + 9, &v) < 0)
				goto bad;
			o->offset = v;
		} else if (!strncmp(a, "--wait=", 7)) {
			if (parse_num(a + 7, &v) < 0 || v > 3600)
				goto bad;
			o->wait_seconds = (int)v;
		} else if (!strcmp(a, "--noresume")) {
			o->noresume = 1;
		} else if (!strcmp(a, "--force")) {
			o->force = 1;
		} else if (!strcmp(a, "--dump")) {
			o->dump = 1;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			msg_set_debug(1);
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage();
			exit(0);
		} else {
			goto bad;
		}
	}
	return 0;
bad:
	msg_error("invalid argument '%s'", argv[i]);
	usage();
	return 2;
}

int main(int argc, char **argv)
{
	struct restore_opts o;
	struct torpor_cmdline cl;
	int r;

	memset(&o, 0, sizeof(o));
	o.wait_seconds = -1;
	msg_init(1);
	r = cmdline_read("/proc/cmdline", &cl);
	if (r == -EINVAL) {
		/* a bad value may hide a noresume: restoring could be the wrong thing */
		msg_error("cannot parse resume parameters on the kernel command line, not resuming");
		msg_hint("check resume=, resume_offset= and torpor.* in /proc/cmdline");
		msg_flush();
		return 0;
	}
	if (r == 0) {
		snprintf(o.device, sizeof(o.device), "%s", cl.resume);
		o.offset = cl.resume_offset;
		o.noresume = cl.noresume;
		o.force = cl.force;
		o.wait_seconds = cl.wait_seconds;
		msg_set_debug(cl.debug);
	}
	r = parse_args(argc, argv, &o);
	if (r)
		return r;
	if (o.wait_seconds < 0)
		o.wait_seconds = DEFAULT_WAIT;
	r = restore_run(&o);
	msg_flush();
	/* the boot always goes on; only --dump reports failure in its status */
	return o.dump && r < 0 ? 1 : 0;
}
