/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmdline.h - the kernel command line parameters torpor cares about
 *
 * The line is split as the kernel splits it (lib/cmdline.c next_arg(), with the
 * kernel's isspace(), where byte 0xA0 is a space too), and the last occurrence
 * of a parameter wins, as it does in the kernel.  Each parameter is read on its
 * own: a malformed value is recorded, never hides the parameters around it.
 */
#ifndef CORE_CMDLINE_H
#define CORE_CMDLINE_H

#include <stddef.h>

#define CMDLINE_RESUME_MAX	256	/* resume= value, with the NUL; the kernel keeps 255 */
#define CMDLINE_MALFORMED_MAX	64	/* the first malformed parameter, cut short */

struct torpor_cmdline {
	char resume[CMDLINE_RESUME_MAX];	/* last well-formed resume= value, "" if none */
	unsigned long long resume_offset;	/* resume_offset= (see has_resume_offset) */
	int has_resume_offset;			/* resume_offset= gave a number */
	int noresume;				/* noresume*, nohibernate*, hibernate=no... */
	int debug;				/* torpor.debug */
	int force;				/* torpor.force */
	int wait_seconds;			/* torpor.wait=N, -1 if absent */
	/* malformed parameters: any of them means "do not restore" */
	int resume_bad;				/* a resume= was over 255 bytes */
	int resume_offset_bad;			/* a resume_offset= was not a number */
	char malformed[CMDLINE_MALFORMED_MAX];	/* the first malformed one, "" if none */
	const char *malformed_why;		/* what is wrong with it, NULL if none */
};

/**
 * cmdline_parse() - parse a kernel command line
 * @text: the line, e.g. the contents of /proc/cmdline (a trailing newline is fine)
 * @ret: filled in
 *
 * Recognised parameters (a '-' in a name matches '_', as in the kernel):
 *   resume=SPEC          the resume device, unchanged (see devname_resolve())
 *   resume_offset=N      decimal page offset of a swap file's header
 *   noresume*, nohibernate*   by prefix, as the kernel's __setup() matching takes
 *                        them ("noresumefoo" and "noresume=0" are noresume too)
 *   hibernate=no...      except hibernate=nocompress (kernel/power/hibernate.c)
 *   torpor.debug[=BOOL], torpor.force[=BOOL]   BOOL as kstrtobool: 1/y/on, 0/n/off
 *   torpor.wait=N        seconds to wait for the resume device, 0..INT_MAX
 * Parsing stops at "--" (the rest belongs to init).  A bare "resume" or
 * "resume_offset" without '=' is ignored, as the kernel ignores it.
 *
 * A malformed value (garbage or overflowing number, empty resume_offset=,
 * resume= longer than 255 bytes, torpor.wait without a number, a bool that is
 * not one) leaves that parameter's earlier value in place, and the first one is
 * recorded in @malformed and @malformed_why; resume_bad and resume_offset_bad
 * say whether resume= or resume_offset= themselves were.  A malformed
 * resume_offset= that starts with digits sets resume_offset to those digits, as
 * the kernel's sscanf("%llu") reads it: where the kernel would look, for
 * discarding an image there.  Every other parameter is still read.
 */
void cmdline_parse(const char *text, struct torpor_cmdline *ret);

/**
 * cmdline_read() - read a command line file and parse it
 * @path: normally "/proc/cmdline"
 * @ret: filled in on success only
 *
 * Return: 0 (check @ret->malformed), -errno from open()/read(), -ENOMEM, or
 * -E2BIG for a file over 64 KiB.
 */
int cmdline_read(const char *path, struct torpor_cmdline *ret);

#endif
