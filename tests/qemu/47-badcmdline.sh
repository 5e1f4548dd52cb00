#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 47-badcmdline: a malformed resume parameter must not hide noresume, nor leave the
# image on disk for a later boot (issue 8).  The guest's /init runs torpor-resume
# without arguments, so it reads everything from /proc/cmdline.
#  (a) boot 1 hibernates; boot 2 has "noresume torpor.wait=x": torpor names the
#      malformed parameter, discards the image and the boot goes on; boot 3 with a
#      fixed command line finds nothing to restore;
#  (b) boot 4 hibernates; boot 5 has an empty resume_offset=: discarded too;
#  (c) boot 6 hibernates; boot 7 has "noresumeXYZ", which the kernel takes as
#      noresume (obsolete __setup() prefix matching): discarded, not restored;
#  (d) boot 8 runs torpor-suspend with resume_offset=x (after a malformed
#      torpor.wait=, which it does not use): it refuses, names resume_offset= and
#      gives a hint, instead of ignoring the malformed parameter.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="a malformed parameter next to noresume, an empty resume_offset=, noresumeXYZ: the image is discarded"

test_setup() {
	swap_create
}

test_run() {
	echo "## (a) noresume torpor.wait=x"
	hibernate_first 1
	boot_normal 2 noresume torpor.wait=x
	expect_line 2 "^torpor: malformed kernel parameter 'torpor\\.wait=x': not a number of seconds$"
	expect_line 2 "^torpor: warning: malformed kernel command line: not restoring the image on /dev/vdb$"
	expect_line 2 "^torpor: discarded the hibernation image on /dev/vdb, continuing boot$"
	expect_sig SWAPSPACE2 "after the boot with noresume torpor.wait=x"
	note "$(sed -n 's/^[^ ]* \(torpor: malformed kernel parameter .*\)/\1/p' "$T/boot2.console" | head -n 1)"
	boot_normal 3
	expect_no_line 3 "^torpor: restoring" "the discarded image is not restored"

	echo "## (b) an empty resume_offset="
	# each case starts from a fresh swap area: an image one case leaves behind
	# (on a torpor that fails it) is not restored into the next one
	swap_create
	hibernate_first 4
	boot_normal 5 resume_offset=
	expect_line 5 "^torpor: malformed kernel parameter 'resume_offset=': empty$"
	expect_line 5 "^torpor: warning: malformed kernel command line: not restoring the image on /dev/vdb$"
	expect_line 5 "^torpor: discarded the hibernation image on /dev/vdb, continuing boot$"
	expect_sig SWAPSPACE2 "after the boot with an empty resume_offset="

	echo "## (c) noresumeXYZ"
	swap_create
	hibernate_first 6
	boot_normal 7 noresumeXYZ
	expect_line 7 "^torpor: noresume given: not restoring the image on /dev/vdb$"
	expect_line 7 "^torpor: discarded the hibernation image on /dev/vdb, continuing boot$"
	expect_sig SWAPSPACE2 "after the boot with noresumeXYZ"

	echo "## (d) torpor-suspend with resume_offset=x"
	swap_create
	boot 8 torpor_test=refused torpor_mib=32 torpor.wait=y resume_offset=x
	note_boot 8
	expect_refused 8
	expect_line 8 "^torpor: malformed kernel parameter resume_offset=: not a decimal page number$"
	expect_line 8 "^torpor: hint: correct it on the kernel command line, or give --resume= and --resume-offset=$"
	expect_sig SWAPSPACE2 "after the refused hibernation"
}

test_main
