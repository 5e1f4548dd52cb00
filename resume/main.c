// SPDX-License-Identifier: GPL-2.0-only
/*
 * torpor-resume - restore a hibernated system from the initramfs
 *
 * Usage: torpor-resume [--device=DEV] [--offset=N] [--wait=SECONDS] [--noresume]
 *                      [--force] [-v]
 *        torpor-resume --dump [DEV] [--offset=N] [-v]
 *        torpor-resume --help | --version
 *
 * Arguments first, then /proc/cmdline for what they leave out: torpor.force,
 * torpor.wait= and torpor.debug; noresume (and the kernel's other spellings of
 * it) counts from either.  resume= and resume_offset= on the command line, read
 * as the kernel and torpor-suspend read them, win over --device and --offset
 * (which are for a resume device the hook has from its configuration); an
 * image on another area that the arguments name is discarded.  Without
 * resume=, the EFI variable TorporHibernateLocation (core/efiloc.h) that
 * torpor-suspend wrote stands for resume= and resume_offset=: read once, removed
 * before it is used, its image discarded when another kernel wrote it.  Steps:
 *  1. no resume device configured (no resume=, --device or EFI variable): exit 0;
 *  2. wait (bounded) for the device, read the swap header: no torpor image,
 *     exit 0 quietly;
 *  3. check the whole header and map, the kernel and the memory size;
 *  4. invalidate the image on disk, then feed it to /dev/snapshot, verifying
 *     each block first, FREEZE and ATOMIC_RESTORE (which does not return);
 *  5. on any problem: one message on the console and in the kernel log, the
 *     image left invalidated, exit 0 so that the boot goes on normally.
 * A malformed parameter or argument value, or an unreadable /proc/cmdline, is a
 * doubt: the image is discarded as for noresume, on the device and offset that
 * the well-formed parameters give, and the message names the malformed one; a
 * malformed offset is tried as the kernel reads it (leading digits), then as 0.
 * Exit 2 is a usage error (an unknown option, a malformed value with --dump, or
 * --dump with --noresume or two devices), said in one line and a pointer to --help;
 * --dump prints the description of the image on DEV (which wins over resume=,
 * the running system's own) and changes nothing.  At boot the version line
 * comes before the first message (none when there is no image).
 */
#include "bootargs.h"
#include "efiloc.h"
#include "image.h"

/*
 * The image format this binary reads, where torpor-suspend finds it in the
 * initramfs: it refuses to hibernate when the torpor-resume there reads another
 * (an initramfs built before an upgrade).  Kept by "used" though nothing reads it.
 */
__attribute__((used)) static const char format_marker[] = TORPOR_RESUME_MARKER;
/* and that it reads TorporHibernateLocation: torpor-suspend may rely on it without resume= */
__attribute__((used)) static const char efi_marker[] = EFILOC_MARKER;

int main(int argc, char **argv)
{
	static const struct bootargs_env env = {
		.cmdline_path = "/proc/cmdline",
		.efivars_dir = EFILOC_DIR,
		.mount_efivars = 1,
	};

	return bootargs_main(argc, argv, &env);
}
