// SPDX-License-Identifier: GPL-2.0-only
/*
 * nextboot.c - does the next boot look where the image goes?
 *
 * torpor-resume reads resume= and resume_offset= from its own kernel command
 * line, whatever --resume, --resume-offset or torpor.conf told torpor-suspend.
 * The running system's command line is the best guess at the next one (the
 * same boot entry): when its resume= names another area than the one the image
 * is written to, the next boot would not find the image, and the session would
 * be lost with no word.  Where it names none, the initramfs's own setting
 * decides (initramfs-tools' RESUME=), which is not read here.
 */
#include <errno.h>
#include <string.h>

#include "devname.h"
#include "nextboot.h"

/**
 * nextboot_check() - compare the command line's resume= with the area written
 * @cmdline_path: "/proc/cmdline" (tests: a file)
 * @dev: the area's device (a swap partition, or a swap file's filesystem)
 * @offset_pages: the page of the area's header on @dev: 0 for a partition
 * @spec: the spec @dev was resolved from: a resume= that is the same text is
 *        not looked up again (a content scan reads every device)
 * @ret: what the command line says, and the device it names
 * Return: the outcome; never fails (an unreadable command line is UNNAMED).
 */
enum nextboot_result nextboot_check(const char *cmdline_path, dev_t dev, uint64_t offset_pages,
				    const char *spec, struct nextboot *ret)
{
	struct torpor_cmdline *cl = &ret->cl;
	dev_t named;
	int r;

	memset(ret, 0, sizeof(*ret));
	if (cmdline_read(cmdline_path, cl) < 0)
		return NEXTBOOT_UNNAMED;
	if (cl->resume_bad || cl->resume_offset_bad || cl->malformed_why)
		return NEXTBOOT_MALFORMED;
	if (cl->noresume)
		return NEXTBOOT_NORESUME;
	/* no resume=: the initramfs's setting names the device, resume_offset= the page */
	if (!cl->resume[0] && !cl->has_resume_offset)
		return offset_pages ? NEXTBOOT_NO_OFFSET : NEXTBOOT_UNNAMED;
	if (!cl->resume[0])
		return cl->resume_offset != offset_pages ? NEXTBOOT_OTHER_OFFSET :
		       NEXTBOOT_UNNAMED;
	if (spec && !strcmp(cl->resume, spec)) {
		named = dev;
	} else {
		r = devname_resolve(cl->resume, &named);
		if (r == -ENOTUNIQ)
			return NEXTBOOT_AMBIGUOUS;
		if (r < 0) {
			ret->err = r;
			return NEXTBOOT_NO_DEVICE;
		}
	}
	if (named != dev) {
		ret->dev = named;
		return NEXTBOOT_OTHER_DEVICE;
	}
	if (!cl->has_resume_offset)
		return offset_pages ? NEXTBOOT_NO_OFFSET : NEXTBOOT_AGREES;
	return cl->resume_offset == offset_pages ? NEXTBOOT_AGREES : NEXTBOOT_OTHER_OFFSET;
}
