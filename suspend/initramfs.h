/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * initramfs.h - will the next boot's initramfs resume a torpor image?
 *
 * The file is read as the kernel unpacks it: uncompressed cpio archives (early
 * microcode first), zeros between them, and compressed streams, which the
 * host's own tool decompresses (decompress.h) within a deadline.  After a zstd
 * or xz stream, or a gzip one of a single member, what follows is read too
 * (streamend.h); after bzip2, lzma, lzo or lz4 data nothing is (a limit: the
 * tool is given the rest of the file).  What counts:
 *  - torpor-resume at its installed path (LIBEXECDIR/torpor-resume; a symlink
 *    in the image, such as lib -> usr/lib, is followed), a regular executable
 *    file whose marker (TORPOR_RESUME_MARKER, core/image.h) names this
 *    torpor-suspend's image format;
 *  - and a hook that runs it: a script that names that path, at one of
 *      initramfs-tools  scripts/local-top/torpor (executable; listed in
 *                       scripts/local-top/ORDER when the image has that file)
 *      dracut           .../dracut/hooks/pre-mount/NN-torpor-pre-mount.sh, run by
 *                       dracut's shell /init or, when systemd is /init, by
 *                       dracut-pre-mount.service (the dracut-systemd module)
 *      mkinitcpio       hooks/torpor, with torpor in HOOKS= of the image's /config
 *                       and mkinitcpio's shell /init (its systemd hook puts systemd
 *                       at /init, which runs no busybox hook)
 *      systemd at /init torpor-restore.service as systemd loads it (the first of
 *      (a link)         its unit directories, etc/, run/, usr/local/lib/, usr/lib/,
 *                       lib/, that has it; not masked), its ExecStart= running only
 *                       that path (past systemd's prefixes), no drop-in
 *                       (torpor-restore.service.d/NAME.conf) setting another, and
 *                       a link to it in a unit directory's initrd.target.wants/ or
 *                       .requires/ (dracut's systemd mode, mkinitcpio's sd-torpor)
 * Later entries replace earlier ones of the same path, as when the kernel
 * unpacks.  Nothing here prints.
 */
#ifndef SUSPEND_INITRAMFS_H
#define SUSPEND_INITRAMFS_H

#include <stddef.h>
#include <stdint.h>

#include "initramfsfind.h"	/* initramfs_find(), for the callers of this header */

#define INITRAMFS_TIMEOUT_MS	60000		/* the decompressor's bound */
#define INITRAMFS_FILE_MAX	(1ull << 30)	/* a larger file is refused */
#define INITRAMFS_UNPACKED_MAX	(4ull << 30)	/* so is more decompressed data */

/* which generator the image looks built by, or whose hook was found */
enum {
	INITRAMFS_HOST_ITOOLS = 1,
	INITRAMFS_HOST_DRACUT = 2,
	INITRAMFS_HOST_MKINITCPIO = 4,
};

enum initramfs_verdict {
	INITRAMFS_OK,
	INITRAMFS_NO_RESUME,		/* no torpor-resume at its path */
	INITRAMFS_NOT_EXECUTABLE,	/* there, but not an executable regular file */
	INITRAMFS_NO_MARKER,		/* a torpor-resume older than the marker */
	INITRAMFS_OTHER_FORMAT,		/* its marker names other formats only */
	INITRAMFS_NO_HOOK,		/* no hook names it */
	INITRAMFS_HOOK_NOT_RUN,		/* the hook is there, but not in ORDER or HOOKS */
	INITRAMFS_NO_SHELL_INIT,	/* the hook is listed, but /init (systemd) runs no such hook */
};

struct initramfs_report {
	enum initramfs_verdict verdict;
	unsigned hosts;			/* INITRAMFS_HOST_*: what the image looks built by */
	unsigned hook_host;		/* the host of the hook found (OK, HOOK_NOT_RUN) */
	int unit;			/* that hook is torpor-restore.service */
	uint64_t formats;		/* bit N: the torpor-resume there reads format N */
	int efi_resume;			/* it reads TorporHibernateLocation (EFILOC_MARKER) */
	int efi_hook;			/* the hook runs it without resume= on an EFI boot */
	char resume_version[32];	/* its release, from its --version line; "" if none */
	const char *compression;	/* "zstd", ...; NULL when none */
	uint64_t file_bytes;
	int uki;			/* it was the .initrd section of a PE file (a UKI) */
	uint64_t unpacked_bytes;	/* cpio bytes read, all archives */
	uint64_t entries;
	int tool_status;		/* the decompressor's (decompress_finish()) */
	char init[96];			/* NO_SHELL_INIT: what /init is, in words */
	/* initramfs-tools: the RESUME= its /init takes from conf/initramfs.conf and
	   conf/conf.d/ (the last one sourced wins); "" when none sets it */
	char resume_conf[256];
	int resume_conf_unsure;		/* a RESUME= not read here ($, quotes inside, ...) */
	char resume_conf_file[64];	/* the file of the last RESUME= (conf/conf.d/resume) */
	char detail[200];		/* why the file could not be read, in words */
};

/**
 * initramfs_inspect() - read the initramfs @path and judge it; a PE file (a
 * unified kernel image) is read from its .initrd section (pefile.h)
 * @resume_path: where torpor-resume is installed, absolute
 * @tool_dirs: where the decompressors are (DECOMPRESS_PATH)
 * @timeout_ms: the decompressor's bound (INITRAMFS_TIMEOUT_MS)
 * @ret: the verdict and what was read
 *
 * Return: 0 with @ret->verdict set; -errno when the file cannot be read as an
 * initramfs, @ret->detail saying why: -ENOENT and others from open() or read(),
 * -EBADMSG (a malformed archive, data cut short), -EPROTONOSUPPORT (neither cpio
 * nor compressed as the kernel reads), -ENOPKG (the decompressor is not
 * installed), -ETIMEDOUT, -EFBIG, -ENOMEM.
 */
int initramfs_inspect(const char *path, const char *resume_path, const char *tool_dirs,
		      int timeout_ms, struct initramfs_report *ret);

/* "initramfs-tools", "dracut", "mkinitcpio" for one INITRAMFS_HOST_* bit, else NULL */
const char *initramfs_host_name(unsigned host);

#endif
