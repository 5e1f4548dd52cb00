// SPDX-License-Identifier: GPL-2.0-only
/*
 * confarea.c - the swap area the next boot's initramfs names itself, when
 * nothing else does: initramfs-tools' RESUME=
 *
 * Debian's installer writes RESUME=UUID=... to /etc/initramfs-tools/conf.d/resume
 * and puts no resume= on the kernel command line.  initramfs-tools' /init takes
 * RESUME= from the image's conf/initramfs.conf and conf/conf.d/ (the last one
 * sourced wins, initramfsjudge.c reads it), and resume_offset= from the command
 * line only; torpor's boot script hands both to torpor-resume.  The value read
 * is the one inside the image that boots next, not the one in /etc: an edit
 * not yet rebuilt into the image does not count.
 */
#include <errno.h>
#include <string.h>
#include <sys/utsname.h>

#include "cmdline.h"
#include "confarea.h"
#include "decompress.h"
#include "devname.h"

/* The names initramfs-tools' resolve_device and torpor-resume both resolve */
static int is_device_name(const char *v)
{
	static const char *const prefixes[] = { "UUID=", "PARTUUID=", "LABEL=", "PARTLABEL=",
						"/dev/" };
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(v, prefixes[i], strlen(prefixes[i])) && v[strlen(prefixes[i])])
			return 1;
	return 0;
}

/* The initramfs's RESUME=, judged: FOUND leaves ret->spec set, the area not looked for */
static enum confarea_result judge_conf(struct confarea *ret)
{
	const struct initramfs_report *rep = &ret->rep;

	if (rep->verdict != INITRAMFS_OK || rep->hook_host != INITRAMFS_HOST_ITOOLS || rep->unit)
		return CONFAREA_NOT_ITOOLS;
	if (rep->resume_conf_unsure)
		return CONFAREA_UNSURE;
	if (!rep->resume_conf[0])
		return CONFAREA_UNSET;
	if (!strcmp(rep->resume_conf, "none"))
		return CONFAREA_NONE;
	ret->spec = rep->resume_conf;
	return is_device_name(rep->resume_conf) ? CONFAREA_FOUND : CONFAREA_NOT_NAME;
}

/* The active swap area ret->spec names, with @cl's resume_offset= */
static enum confarea_result find_area(const struct torpor_cmdline *cl, struct confarea *ret)
{
	int r;

	r = devname_resolve(ret->spec, &ret->dev);
	if (r < 0) {
		ret->err = r;
		return CONFAREA_NO_DEVICE;
	}
	r = target_find(ret->dev, cl->has_resume_offset, cl->resume_offset, &ret->target);
	/* a swap file whose page is not known here: the boot has no resume_offset= either */
	if (r < 0 && ret->target.swap_path[0] && !cl->has_resume_offset)
		return CONFAREA_NO_OFFSET;
	if (r != TARGET_FOUND) {
		ret->err = r;
		return CONFAREA_NOT_SWAP;
	}
	/* the file's page was found here, but the boot has no resume_offset= to read it at */
	if (ret->target.is_file && !cl->has_resume_offset)
		return CONFAREA_NO_OFFSET;
	return CONFAREA_FOUND;
}

enum confarea_result confarea_find(const char *cmdline_path, const char *initramfs,
				   const char *resume_bin, struct confarea *ret)
{
	struct torpor_cmdline cl;
	enum confarea_result res;
	char tried[2048];
	struct utsname u;
	int r;

	memset(ret, 0, sizeof(*ret));
	if (cmdline_read(cmdline_path, &cl) < 0)
		memset(&cl, 0, sizeof(cl));
	if (cl.noresume)
		return CONFAREA_NORESUME;
	if (cl.resume[0] || cl.resume_bad)
		return CONFAREA_CMDLINE;
	r = uname(&u) < 0 ? -errno : 0;
	if (r == 0)
		r = initramfs_find_next(initramfs, u.release, ret->path, sizeof(ret->path), tried,
					sizeof(tried));
	if (r == 0)
		r = initramfs_inspect(ret->path, resume_bin, DECOMPRESS_PATH, INITRAMFS_TIMEOUT_MS,
				      &ret->rep);
	if (r < 0) {
		ret->err = r;
		return CONFAREA_UNREAD;
	}
	res = judge_conf(ret);
	return res == CONFAREA_FOUND ? find_area(&cl, ret) : res;
}
