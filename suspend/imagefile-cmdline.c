// SPDX-License-Identifier: GPL-2.0-only
/*
 * imagefile-cmdline.c - the kernel parameters that name the image file:
 * formatted, printed (--print-cmdline), and checked against the running
 * kernel's command line and the options
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "cmdline.h"
#include "devname.h"
#include "imagefile-cmdline.h"
#include "imagefile-open.h"
#include "msg.h"
#include "printcmd.h"
#include "skipsay.h"
#include "target.h"

int imagefile_format_line(const struct imagefile_loc *loc, char *buf, size_t len,
			  char *ret_spec, size_t spec_len)
{
	enum imagefile_line kind = IMAGEFILE_LINE_DEVNAME;
	struct hib_target t;
	struct probe_id id;
	char dname[64], spec[48];
	dev_t dev;
	int r;

	memset(&t, 0, sizeof(t));
	t.dev = loc->dev;
	t.is_file = 1;
	t.offset_pages = loc->offset_pages;
	memset(&id, 0, sizeof(id));
	devname_name(loc->dev, dname, sizeof(dname));
	r = devname_probe(loc->dev, &id);
	if (r >= 0 && printcmd_format(&t, r ? &id : &(struct probe_id){ 0 }, buf, len) == 0) {
		/* "resume=UUID=<36> resume_offset=N": the next boot must find one device */
		snprintf(spec, sizeof(spec), "%.41s", buf + strlen("resume="));
		if (devname_resolve(spec, &dev) != -ENOTUNIQ) {
			skipsay(spec);
			return IMAGEFILE_LINE_UUID;
		}
		if (ret_spec)
			snprintf(ret_spec, spec_len, "%s", spec);
		kind = IMAGEFILE_LINE_AMBIGUOUS;
	}
	snprintf(buf, len, "resume=%s resume_offset=%llu", dname,
		 (unsigned long long)loc->offset_pages);
	return r < 0 ? r : (int)kind;
}

int imagefile_print_line(const char *path, const struct imagefile_loc *loc)
{
	char line[160], dname[64], spec[48];
	int r;

	devname_name(loc->dev, dname, sizeof(dname));
	r = imagefile_format_line(loc, line, sizeof(line), spec, sizeof(spec));
	if (r == IMAGEFILE_LINE_AMBIGUOUS) {
		hibernate_say_ambiguous(spec);
		return -ENOTUNIQ;
	}
	if (r < 0) {
		msg_error("cannot read %s, the filesystem of '%s': %s", dname, path,
			  msg_errname(r));
		return r;
	}
	if (r == IMAGEFILE_LINE_DEVNAME) {
		msg_error("the filesystem of '%s' on %s has no UUID to name it by", path, dname);
		msg_hint("add %s to the kernel command line", line);
		return -ENOENT;
	}
	printf("%s\n", line);
	return fflush(stdout) == 0 ? 0 : -EIO;
}

/*
 * The next boot looks where resume= and resume_offset= of the kernel command
 * line point (imagefile_cmdline_check()); torpor.conf and the options may name
 * the place too, and then it must be the file's.  0 or -errno (reported).
 */
int imagefile_check_resume(const struct hib_opts *o, const char *path,
			   const struct imagefile_loc *loc)
{
	unsigned long long page = loc->offset_pages;
	dev_t dev;
	int r;

	r = o->resume[0] ? devname_resolve(o->resume, &dev) : 0;
	if (r == -ENOTUNIQ) {
		hibernate_say_ambiguous(o->resume);
		return r;
	}
	if (o->resume[0])
		skipsay(o->resume);
	if (o->resume[0] && (r < 0 || dev != loc->dev)) {
		msg_error("resume=%s does not name the filesystem of image file '%s' "
			  "(device %u:%u): the next boot would not find the image", o->resume,
			  path, major(loc->dev), minor(loc->dev));
		msg_hint("'torpor-suspend --print-cmdline' prints the parameters to use");
		return -EINVAL;
	}
	if (o->has_offset && o->offset != loc->offset_pages) {
		msg_error("resume_offset=%llu does not match image file '%s': it begins at "
			  "page %llu, so the next boot would not find the image",
			  (unsigned long long)o->offset, path, page);
		msg_hint("set resume_offset=%llu (the file moved when it was made again?)", page);
		return -ERANGE;
	}
	return 0;
}

int imagefile_cmdline_check(const char *cmdline_path, const char *path,
			    const struct imagefile_loc *loc)
{
	struct torpor_cmdline cl;
	char line[160], what[CMDLINE_RESUME_MAX + 96];
	dev_t dev;
	int r;

	r = cmdline_read(cmdline_path, &cl);
	if (r < 0)
		snprintf(what, sizeof(what), "cannot read %s: %s", cmdline_path, msg_errname(r));
	else if (cl.noresume)
		snprintf(what, sizeof(what), "it has noresume (or nohibernate, hibernate=no): "
			 "the next boot would discard the image");
	else if (cl.malformed_why)
		snprintf(what, sizeof(what), "%s: the next boot would discard the image",
			 cl.malformed_why);
	else if (cl.resume_bad || cl.resume_offset_bad)
		snprintf(what, sizeof(what), "its %s is malformed",
			 cl.resume_bad ? "resume=" : "resume_offset=");
	else if (!cl.resume[0])
		snprintf(what, sizeof(what), "it has no resume=");
	else if ((r = devname_resolve(cl.resume, &dev)) == -ENOTUNIQ)
		snprintf(what, sizeof(what), "its resume=%s names several devices (a copy of "
			 "a disk?): the next boot would discard the image", cl.resume);
	else if (r < 0 || dev != loc->dev)
		snprintf(what, sizeof(what), "its resume=%s does not name the file's "
			 "filesystem", cl.resume);
	else if (!cl.has_resume_offset)
		snprintf(what, sizeof(what), "it has no resume_offset=");
	else if (cl.resume_offset != loc->offset_pages)
		snprintf(what, sizeof(what), "its resume_offset=%llu is not the file's first "
			 "page, %llu", cl.resume_offset, (unsigned long long)loc->offset_pages);
	else
		return 0;
	msg_error("the kernel command line does not name image file '%s' (%s): the next "
		  "boot would not find the image", path, what);
	(void)imagefile_format_line(loc, line, sizeof(line), NULL, 0);
	msg_hint("put %s on the kernel command line (in place of any resume= and "
		 "resume_offset=), rebuild the initramfs and reboot", line);
	return -EINVAL;
}

int imagefile_print_cmdline(const char *path)
{
	struct imagefile_loc loc;
	int r;

	r = imagefile_locate_and_warn(path, &loc);
	return r < 0 ? r : imagefile_print_line(path, &loc);
}
