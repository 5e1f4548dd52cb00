/* SPDX-License-Identifier: GPL-2.0-only */
/* bootargs.h - torpor-resume's arguments and the kernel command line, into restore_run() */
#ifndef RESUME_BOOTARGS_H
#define RESUME_BOOTARGS_H

/* Where torpor-resume reads what the boot gives it (tests: files of their own) */
struct bootargs_env {
	const char *cmdline_path;	/* "/proc/cmdline" */
	const char *efivars_dir;	/* efivarfs (EFILOC_DIR), NULL: no EFI variable is read */
	int mount_efivars;		/* mount efivarfs on efivars_dir when it is not there */
};

int bootargs_main(int argc, char **argv, const struct bootargs_env *env);

#endif
