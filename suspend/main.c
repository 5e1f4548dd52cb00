// SPDX-License-Identifier: GPL-2.0-only
/*
 * torpor-suspend - hibernate this machine into its swap area
 *
 * Usage: torpor-suspend [--resume=DEV] [--resume-offset=N] [--reboot] [--check] [-v]
 *
 * Steps:
 *  1. resolve everything first: the resume device and offset (arguments, else
 *     resume= / resume_offset= from /proc/cmdline, where a malformed one is an
 *     error, exit 1), the active swap area there,
 *     the swap header page, this kernel's identity; allocate every buffer;
 *  2. mlockall(), open /dev/snapshot read-only, SET_SWAP_AREA, FREEZE,
 *     CREATE_IMAGE;
 *  3. CREATE_IMAGE said 1: write the image (data, meta, flush, root, flush) and
 *     power off (or reboot);  it said 0: we were just restored: FREE, UNFREEZE,
 *     report, exit 0;
 *  4. any failure before power-off: discard what was written, unfreeze, say
 *     what failed, exit 1.  So does SIGINT, SIGTERM, SIGHUP or SIGQUIT, or Esc
 *     on the terminal, before the root record is written; after it they are
 *     ignored.  SIGTSTP, SIGTTIN and SIGTTOU are blocked.  Exit 2 is a usage error.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"
#include "decimal.h"
#include "hibernate.h"
#include "msg.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: torpor-suspend [options]\n"
		"Hibernate: write memory to the resume swap area and power off.\n\n"
		"  --resume=DEV         resume device (/dev/NAME, UUID=, LABEL=, PARTUUID=,\n"
		"                       PARTLABEL=, MAJ:MIN); default: resume= on the kernel\n"
		"                       command line\n"
		"  --resume-offset=N    page offset of a swap file's header; default:\n"
		"                       resume_offset= on the kernel command line\n"
		"  --reboot             reboot instead of powering off\n"
		"  --check              only check the setup (device, swap area, kernel\n"
		"                       support); change nothing\n"
		"  -v, --verbose        debug messages\n"
		"  -h, --help           this text\n");
}

static int parse_u64(const char *s, uint64_t *ret)
{
	unsigned long long v;
	int r;

	r = decimal_parse(s, strlen(s), UINT64_MAX, &v);
	if (r == 0)
		*ret = v;
	return r;
}

/* resume= / resume_offset= from /proc/cmdline where no option gave them; 0 or 1 (reported) */
static int from_cmdline(struct hib_opts *o)
{
	struct torpor_cmdline cl;
	const char *bad = NULL;
	int r;

	r = cmdline_read("/proc/cmdline", &cl);
	if (r < 0) {
		msg_debug("cannot read /proc/cmdline: %s", msg_errname(r));
		return 0;
	}
	/* a malformed value is an error only where it would be used */
	if (!o->resume[0] && cl.resume_bad)
		bad = "resume=: longer than 255 bytes";
	else if (!o->has_offset && cl.resume_offset_bad)
		bad = "resume_offset=: not a decimal page number";
	if (bad) {
		msg_error("malformed kernel parameter %s", bad);
		msg_hint("correct it on the kernel command line, or give --resume= and "
			 "--resume-offset=");
		return 1;
	}
	if (!o->resume[0])
		snprintf(o->resume, sizeof(o->resume), "%s", cl.resume);
	if (!o->has_offset && cl.has_resume_offset) {
		o->offset = cl.resume_offset;
		o->has_offset = 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "resume", required_argument, NULL, 'r' },
		{ "resume-offset", required_argument, NULL, 'o' },
		{ "reboot", no_argument, NULL, 'R' },
		{ "check", no_argument, NULL, 'c' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct hib_opts o;
	int c;

	memset(&o, 0, sizeof(o));
	msg_init(0);
	while ((c = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			snprintf(o.resume, sizeof(o.resume), "%s", optarg);
			break;
		case 'o':
			if (parse_u64(optarg, &o.offset) < 0) {
				msg_error("invalid --resume-offset '%s': not a page number", optarg);
				return 2;
			}
			o.has_offset = 1;
			break;
		case 'R':
			o.reboot = 1;
			break;
		case 'c':
			o.check_only = 1;
			break;
		case 'v':
			msg_set_debug(1);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		msg_error("unexpected argument '%s'", argv[optind]);
		usage(stderr);
		return 2;
	}
	if ((!o.resume[0] || !o.has_offset) && from_cmdline(&o))
		return 1;
	return hibernate_run(&o) == 0 ? 0 : 1;
}
