// SPDX-License-Identifier: GPL-2.0-only
/*
 * printcmd.c - torpor-suspend --print-cmdline
 *
 * The swap area is found exactly as a hibernation finds it (the same options,
 * configuration file and checks), then named the way that survives renamed
 * disks: the UUID of the partition's swap header, or for a swap file the UUID
 * of its filesystem plus the page where the file's header lies.  Reads only:
 * no /dev/snapshot, no freezing, nothing written.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "devname.h"
#include "msg.h"
#include "printcmd.h"
#include "skipsay.h"

int printcmd_format(const struct hib_target *t, const struct probe_id *id, char *buf,
		    size_t len)
{
	const uint8_t *u = id->uuid;
	int n;

	if (!id->has_uuid)
		return -ENOENT;
	n = snprintf(buf, len, "resume=UUID=%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		     "%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7],
		     u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
	if (n >= 0 && (size_t)n < len && t->is_file)
		n += snprintf(buf + n, len - n, " resume_offset=%" PRIu64, t->offset_pages);
	if (n < 0 || (size_t)n >= len)
		return -ENOSPC;
	return 0;
}

/* No resume device named anywhere: the one active swap area, named by its number. */
static int pick_only_area(struct hib_opts *o)
{
	struct hib_target t;
	int r;

	memset(&t, 0, sizeof(t));
	r = target_find_only(&t);
	if (r == TARGET_SEVERAL) {
		msg_error("no resume device named, and several swap areas are active");
		msg_hint("name the one to use with --resume= (see 'swapon --show')");
		return -ENOTUNIQ;
	}
	if (r != TARGET_FOUND) {
		msg_error("no resume device named, and no usable active swap area: %s",
			  r > 0 || r == -ENODEV ? "none is active" : msg_errname(r));
		msg_hint(r == -EACCES ? "run torpor-suspend as root" :
			 "create one (mkswap), activate it (swapon), or name it with --resume=");
		return r < 0 ? r : -ENODEV;
	}
	snprintf(o->resume, sizeof(o->resume), "%u:%u", major(t.dev), minor(t.dev));
	o->has_offset = t.is_file;
	o->offset = t.offset_pages;
	return 0;
}

int printcmd_run(const struct hib_opts *opts)
{
	struct hib_opts o = *opts;
	struct hib_target t;
	struct probe_id id;
	char line[128];
	int r;

	if (!o.resume[0]) {
		r = pick_only_area(&o);
		if (r < 0)
			return r;
	}
	memset(&t, 0, sizeof(t));
	r = hibernate_resolve(&o, &t);
	if (r < 0)
		return r;
	memset(&id, 0, sizeof(id));
	r = devname_probe(t.dev, &id);
	if (r < 0) {
		msg_error("cannot read %s: %s", t.dev_name, msg_errname(r));
		if (r == -EACCES)
			msg_hint("run torpor-suspend as root");
		return r;
	}
	r = printcmd_format(&t, r ? &id : &(struct probe_id){ 0 }, line, sizeof(line));
	if (r < 0) {
		msg_error("%s has no UUID to name it by (%s)", t.dev_name,
			  t.is_file ? "its filesystem has none" : "its swap header has none");
		msg_hint(t.is_file ? "name the filesystem's device with resume= instead" :
			 "give the swap area a UUID with 'swaplabel -U $(uuidgen) DEVICE', or "
			 "name it with resume=DEVICE");
		return r;
	}
	/* the UUID printed must name one device, or the next boot discards the image */
	{
		char spec[48];
		dev_t dev;

		snprintf(spec, sizeof(spec), "%.41s", line + strlen("resume="));
		spec[strcspn(spec, " ")] = '\0';
		if (devname_resolve(spec, &dev) == -ENOTUNIQ) {
			hibernate_say_ambiguous(spec);
			return -ENOTUNIQ;
		}
		skipsay(spec);
	}
	printf("%s\n", line);
	return fflush(stdout) == 0 ? 0 : -EIO;
}
