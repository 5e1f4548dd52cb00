// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-nextboot.c - the kernel command line's resume= and resume_offset= against
 * the area torpor-suspend writes: the same device, another, none, a swap file's
 * page missing or wrong, malformed values, no command line at all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "devname.h"
#include "nextboot.h"
#include "tap.h"

static char dir[64], path[128];

static enum nextboot_result check(const char *line, dev_t dev, uint64_t page, struct nextboot *nb)
{
	FILE *f = fopen(path, "w");

	if (!f)
		abort();
	fputs(line, f);
	fclose(f);
	return nextboot_check(path, dev, page, NULL, nb);
}

int main(void)
{
	dev_t vdb = makedev(254, 16), vdc = makedev(254, 32);
	struct nextboot nb;
	enum nextboot_result r;

	snprintf(dir, sizeof(dir), "/tmp/test-nextboot.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	/* an empty fake root: MAJ:MIN specs resolve without sysfs, /dev paths do not */
	devname_root = dir;
	snprintf(path, sizeof(path), "%s/cmdline", dir);

	r = check("root=/dev/vda ro quiet\n", vdb, 0, &nb);
	tap_ok(r == NEXTBOOT_UNNAMED, "nextboot: no resume= is not checked here (%d)", r);
	r = check("root=/dev/vda resume=254:16\n", vdb, 0, &nb);
	tap_ok(r == NEXTBOOT_AGREES, "nextboot: resume= names the partition written (%d)", r);
	r = check("root=/dev/vda resume=254:32\n", vdb, 0, &nb);
	tap_ok(r == NEXTBOOT_OTHER_DEVICE && nb.dev == vdc && !strcmp(nb.cl.resume, "254:32"),
	       "nextboot: resume= names another device, and which (%d)", r);
	r = check("resume=fe20\n", vdb, 0, &nb);
	tap_ok(r == NEXTBOOT_OTHER_DEVICE && nb.dev == vdc,
	       "nextboot: the kernel's hex form names another device (%d)", r);
	r = check("resume=/dev/nosuchdisk\n", vdb, 0, &nb);
	tap_ok(r == NEXTBOOT_NO_DEVICE && nb.err < 0,
	       "nextboot: resume= naming no device is refused (%d, %d)", r, nb.err);
	r = check("resume=254:16\n", vdb, 1234, &nb);
	tap_ok(r == NEXTBOOT_NO_OFFSET, "nextboot: a swap file with no resume_offset= (%d)", r);
	r = check("resume=254:16 resume_offset=1234\n", vdb, 1234, &nb);
	tap_ok(r == NEXTBOOT_AGREES, "nextboot: a swap file at its resume_offset= (%d)", r);
	r = check("resume=254:16 resume_offset=1233\n", vdb, 1234, &nb);
	tap_ok(r == NEXTBOOT_OTHER_OFFSET && nb.cl.resume_offset == 1233,
	       "nextboot: a swap file at another page (%d)", r);
	r = check("resume=254:16 resume_offset=8\n", vdb, 0, &nb);
	tap_ok(r == NEXTBOOT_OTHER_OFFSET, "nextboot: a partition with resume_offset= (%d)", r);
	r = check("resume=254:16 resume_offset=0\n", vdb, 0, &nb);
	tap_ok(r == NEXTBOOT_AGREES, "nextboot: a partition with resume_offset=0 (%d)", r);
	r = check("resume=254:16 resume_offset=x\n", vdb, 0, &nb);
	tap_ok(r == NEXTBOOT_MALFORMED, "nextboot: a malformed resume_offset= (%d)", r);
	r = check("resume=254:16 torpor.wait=abc\n", vdb, 0, &nb);
	tap_ok(r == NEXTBOOT_MALFORMED && nb.cl.malformed_why,
	       "nextboot: a malformed torpor.wait= makes the boot discard (%d)", r);
	r = check("resume=254:16 noresume\n", vdb, 0, &nb);
	tap_ok(r == NEXTBOOT_NORESUME, "nextboot: noresume makes the boot discard (%d)", r);
	r = check("resume=254:16 hibernate=no\n", vdb, 0, &nb);
	tap_ok(r == NEXTBOOT_NORESUME, "nextboot: hibernate=no makes the boot discard (%d)", r);
	r = check("root=/dev/vda resume_offset=99\n", vdb, 1234, &nb);
	tap_ok(r == NEXTBOOT_OTHER_OFFSET,
	       "nextboot: resume_offset= without resume= names another page (%d)", r);
	r = check("root=/dev/vda ro\n", vdb, 1234, &nb);
	tap_ok(r == NEXTBOOT_NO_OFFSET,
	       "nextboot: a swap file, and neither resume= nor resume_offset= (%d)", r);
	r = check("root=/dev/vda resume_offset=1234\n", vdb, 1234, &nb);
	tap_ok(r == NEXTBOOT_UNNAMED,
	       "nextboot: resume_offset= without resume= names the page: the device is left (%d)",
	       r);
	/* the spec already resolved is not looked up again: /dev/nosuchdisk would not resolve */
	r = check("resume=/dev/nosuchdisk\n", vdb, 0, &nb);
	r = nextboot_check(path, vdb, 0, "/dev/nosuchdisk", &nb);
	tap_ok(r == NEXTBOOT_AGREES, "nextboot: the spec torpor-suspend resolved is taken (%d)", r);
	unlink(path);
	r = nextboot_check(path, vdb, 0, NULL, &nb);
	tap_ok(r == NEXTBOOT_UNNAMED, "nextboot: no command line to read (%d)", r);
	rmdir(dir);
	return tap_done();
}
