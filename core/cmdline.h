/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmdline.h - the kernel command line parameters torpor cares about
 *
 * The line is split as the kernel splits it (lib/cmdline.c next_arg()), and the
 * last occurrence of a parameter wins, as it does in the kernel.
 */
#ifndef CORE_CMDLINE_H
#define CORE_CMDLINE_H

#define CMDLINE_RESUME_MAX	256	/* resume= value, with the NUL; the kernel keeps 255 */

struct torpor_cmdline {
	char resume[CMDLINE_RESUME_MAX];	/* resume= value, "" if absent */
	unsigned long long resume_offset;	/* resume_offset=, 0 if absent */
	int has_resume_offset;			/* resume_offset= was given */
	int noresume;				/* noresume, hibernate=no..., nohibernate */
	int debug;				/* torpor.debug */
	int force;				/* torpor.force */
	int wait_seconds;			/* torpor.wait=N, -1 if absent */
};

/**
 * cmdline_parse() - parse a kernel command line
 * @text: the line, e.g. the contents of /proc/cmdline (a trailing newline is fine)
 * @ret: filled in on success only
 *
 * Recognised parameters (a '-' in a name matches '_', as in the kernel):
 *   resume=SPEC          the resume device, unchanged (see devname_resolve())
 *   resume_offset=N      decimal page offset of a swap file's header
 *   noresume, noresume=..., nohibernate, hibernate=no...  (not hibernate=nocompress)
 *   torpor.debug[=BOOL], torpor.force[=BOOL]   BOOL as kstrtobool: 1/y/on, 0/n/off
 *   torpor.wait=N        seconds to wait for the resume device, 0..INT_MAX
 * Parsing stops at "--" (the rest belongs to init).  A bare "resume" or
 * "resume_offset" without '=' is ignored, as the kernel ignores it.
 *
 * Return: 0, or -EINVAL when any recognised parameter has a malformed value
 * (garbage or overflowing number, empty resume_offset=, resume= longer than 255
 * bytes, torpor.wait without a number, a bool that is not one).  On -EINVAL the
 * caller knows nothing, not even noresume, so it must not resume.
 */
int cmdline_parse(const char *text, struct torpor_cmdline *ret);

/**
 * cmdline_read() - read a command line file and parse it
 * @path: normally "/proc/cmdline"
 * @ret: filled in on success only
 *
 * Return: 0, -errno from open()/read(), -E2BIG for a file over 64 KiB, or
 * cmdline_parse()'s -EINVAL.
 */
int cmdline_read(const char *path, struct torpor_cmdline *ret);

#endif
