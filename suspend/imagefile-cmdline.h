/* SPDX-License-Identifier: GPL-2.0-only */
/* imagefile-cmdline.h - the kernel parameters that name the image file */
#ifndef SUSPEND_IMAGEFILE_CMDLINE_H
#define SUSPEND_IMAGEFILE_CMDLINE_H

#include <stddef.h>

#include "hibernate.h"
#include "imagefile-layout.h"

/* What imagefile_format_line() named the file's filesystem by. */
enum imagefile_line {
	IMAGEFILE_LINE_DEVNAME,		/* resume=/dev/NAME: it has no UUID */
	IMAGEFILE_LINE_UUID,		/* resume=UUID=...: one device carries it */
	IMAGEFILE_LINE_AMBIGUOUS,	/* resume=/dev/NAME: another device carries its UUID */
};

/*
 * imagefile_format_line() - the kernel parameters that name @loc, in @buf:
 * "resume=UUID=... resume_offset=N", else (no UUID, an unreadable device, a UUID
 * that several devices carry) "resume=/dev/NAME resume_offset=N".
 * Return: an enum imagefile_line (with IMAGEFILE_LINE_AMBIGUOUS, @ret_spec, of
 * @spec_len, gets "UUID=..."), or -errno from reading the device.
 */
int imagefile_format_line(const struct imagefile_loc *loc, char *buf, size_t len,
			  char *ret_spec, size_t spec_len);

/* The resume= line of @loc, on stdout; 0 or -errno (reported). */
int imagefile_print_line(const char *path, const struct imagefile_loc *loc);

/**
 * imagefile_cmdline_check() - do resume= and resume_offset= in @cmdline_path
 * ("/proc/cmdline") name image file @path at @loc?
 * Only the running kernel's command line counts: the next boot keeps it, and
 * neither torpor.conf nor an option changes where that boot looks.
 * Return: 0, or -EINVAL (reported, with the parameters to add).
 */
int imagefile_cmdline_check(const char *cmdline_path, const char *path,
			    const struct imagefile_loc *loc);

/**
 * imagefile_check_resume() - do the resume device and offset that torpor.conf
 * or the options give (if any) name the image file at @loc?
 * @o: resume and resume_offset from the options and the file only (the kernel
 * command line is imagefile_cmdline_check()'s)
 * Return: 0 (none given is fine), -EINVAL (resume names another device),
 * -ERANGE (resume_offset is not the file's first page); reported.
 */
int imagefile_check_resume(const struct hib_opts *o, const char *path,
			   const struct imagefile_loc *loc);

/* --print-cmdline with an image file.  0 or -errno (reported). */
int imagefile_print_cmdline(const char *path);

#endif
