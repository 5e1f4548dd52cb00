/* SPDX-License-Identifier: GPL-2.0-only */
/* bootargs.h - torpor-resume's arguments and the kernel command line, into restore_run() */
#ifndef RESUME_BOOTARGS_H
#define RESUME_BOOTARGS_H

int bootargs_main(int argc, char **argv, const char *cmdline_path);

#endif
