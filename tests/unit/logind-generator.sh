#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# systemd/torpor-logind-generator against fake torpor.conf files, kernel command
# lines and unit folders: it writes logind's drop-in (the memory check bypassed)
# only when image_file is set, the command line has resume= and resume_offset=
# and no noresume, and torpor's drop-in for systemd-hibernate.service is there;
# in every other case it writes nothing, so logind judges as it always does.
# make install-systemd installs it.  No root needed; nothing outside a temporary
# folder is read or written.
top=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
# shellcheck disable=SC2034 # n and TAP_PREFIX are tap.sh's
n=0 TAP_PREFIX="torpor-logind-generator: "
failed=0
# shellcheck source=tests/unit/tap.sh
. "$(dirname "$0")/tap.sh"

gen=$top/systemd/torpor-logind-generator
dropin=systemd-logind.service.d/torpor-image-file.conf
mkdir -p "$t/units/systemd-hibernate.service.d"
: >"$t/units/systemd-hibernate.service.d/torpor.conf"
good_cmdline="BOOT_IMAGE=/vmlinuz root=/dev/vda resume=UUID=0b2c6a1e-1c4f-4f43-9a3e-2f1b7c9d8e01 resume_offset=34816 quiet"

# run CONF CMDLINE [UNITS]: the generator with that torpor.conf text and command
# line; its output folder is $t/out
run() {
	rm -rf "$t/out"
	mkdir -p "$t/out"
	printf '%s\n' "$1" >"$t/torpor.conf"
	printf '%s\n' "$2" >"$t/cmdline"
	TORPOR_CONF=$t/torpor.conf TORPOR_CMDLINE=$t/cmdline TORPOR_UNIT_DIRS="${3:-$t/units}" \
		sh "$gen" "$t/out" "$t/out.early" "$t/out.late"
}

# writes WHAT CONF CMDLINE: the drop-in is written and sets the bypass
writes() {
	if run "$2" "$3" && grep -qx 'Environment=SYSTEMD_BYPASS_HIBERNATION_MEMORY_CHECK=1' "$t/out/$dropin" &&
		grep -qx '\[Service\]' "$t/out/$dropin"; then
		ok "$1"
	else
		not_ok "$1"
		find "$t/out" | sed 's/^/# /'
	fi
}

# nothing WHAT CONF CMDLINE [UNITS]: exits 0 and writes nothing
nothing() {
	if run "$2" "$3" "${4:-}" && [ -z "$(find "$t/out" -mindepth 1)" ]; then
		ok "$1"
	else
		not_ok "$1"
		find "$t/out" | sed 's/^/# /'
	fi
}

writes "image_file set, resume= and resume_offset= given: logind's drop-in" \
	"image_file = /var/lib/torpor/image" "$good_cmdline"
writes "blanks around the key and value, other keys and comments beside it" \
	"# made by --setup-image-file
	compress = lz4
  image_file=/var/lib/torpor/image	" "$good_cmdline"
nothing "torpor.conf as installed (image_file commented out): nothing" \
	"$(cat "$top/suspend/torpor.conf")" "$good_cmdline"
nothing "image_file in a comment: nothing" "# image_file = /var/lib/torpor/image" "$good_cmdline"
nothing "another key ending in image_file: nothing" "no_image_file = /x" "$good_cmdline"
nothing "image_file with no value: nothing" "image_file =" "$good_cmdline"
nothing "no resume_offset= on the command line: nothing" \
	"image_file = /var/lib/torpor/image" "root=/dev/vda resume=UUID=0b2c6a1e-1c4f-4f43-9a3e-2f1b7c9d8e01"
nothing "no resume= on the command line: nothing" \
	"image_file = /var/lib/torpor/image" "root=/dev/vda resume_offset=34816"
nothing "noresume on the command line: nothing" \
	"image_file = /var/lib/torpor/image" "$good_cmdline noresume"
nothing "resume= only after -- (for init, not the kernel): nothing" \
	"image_file = /var/lib/torpor/image" "root=/dev/vda -- resume=UUID=x resume_offset=1"
# the command line is not globbed: a word that matches a file name in the
# generator's folder stays the word the kernel saw (and a '/*/*/*' walks nothing)
mkdir -p "$t/cwd" && : >"$t/cwd/resume_offset=1"
printf '%s\n' "root=/dev/vda resume=UUID=x resume_offse[t]=1" >"$t/cmdline"
rm -rf "$t/out" && mkdir -p "$t/out"
if (cd "$t/cwd" && TORPOR_CONF=$t/torpor.conf TORPOR_CMDLINE=$t/cmdline TORPOR_UNIT_DIRS=$t/units \
	sh "$gen" "$t/out") && [ -z "$(find "$t/out" -mindepth 1)" ]; then
	ok "a word that is a pattern matching a file is not expanded: nothing"
else
	not_ok "a word that is a pattern matching a file is not expanded: nothing"
fi
# what core/cmdline.c (torpor-suspend's refusals) and suspend/config.c read
img="image_file = /var/lib/torpor/image"
for w in noresumeX '"noresume"' nohibernate hibernate=no hibernate=nosuspend; do
	nothing "$w (the kernel's noresume too): nothing" "$img" "$good_cmdline $w"
done
writes "hibernate=nocompress keeps resume: the drop-in" "$img" "$good_cmdline hibernate=nocompress"
nothing "a later empty resume= (no resume=): nothing" "$img" "$good_cmdline resume="
nothing "a malformed resume_offset=: nothing" "$img" "$good_cmdline resume_offset=12k"
writes "resume-offset= (the kernel reads - as _): the drop-in" "$img" \
	"root=/dev/vda resume=/dev/vda2 resume-offset=34816"
writes 'resume="..." quoted: the drop-in' "$img" 'root=/dev/vda resume="/dev/vda2" resume_offset=34816'
writes "image-file (a - in a key is _): the drop-in" "image-file = /var/lib/torpor/image" "$good_cmdline"
writes "CRLF line ends: the drop-in" "$(printf 'compress = lz4\r\nimage_file = /var/lib/torpor/image\r')" \
	"$good_cmdline"
nothing "a relative image_file: nothing" "image_file = var/lib/torpor/image" "$good_cmdline"
nothing "a comment after the value: nothing" "image_file = /var/lib/torpor/image # mine" "$good_cmdline"
nothing "image_file twice: nothing" "$img
$img" "$good_cmdline"
nothing "an unknown key beside it: nothing" "$img
compres = lz4" "$good_cmdline"
nothing "a line without =: nothing" "$img
compress" "$good_cmdline"
nothing "torpor's drop-in for systemd-hibernate.service missing: nothing" \
	"image_file = /var/lib/torpor/image" "$good_cmdline" "$t/none"
mkdir -p "$t/etc/systemd-hibernate.service.d"
ln -s /dev/null "$t/etc/systemd-hibernate.service.d/torpor.conf"
nothing "torpor's drop-in masked (a /dev/null symlink in a folder that wins): nothing" \
	"image_file = /var/lib/torpor/image" "$good_cmdline" "$t/etc $t/units"
# odd files: read only a regular file (a FIFO would block the boot for ever;
# timeout only bounds the old behaviour's hang, a pass returns at once)
rm -f "$t/torpor.conf" && mkfifo "$t/torpor.conf"
rm -rf "$t/out" && mkdir -p "$t/out"
if TORPOR_CONF=$t/torpor.conf TORPOR_CMDLINE=$t/cmdline TORPOR_UNIT_DIRS=$t/units \
	timeout 20 sh "$gen" "$t/out" && [ -z "$(find "$t/out" -mindepth 1)" ]; then
	ok "torpor.conf a FIFO: not read, nothing"
else
	not_ok "torpor.conf a FIFO: not read, nothing"
fi
rm -f "$t/torpor.conf"
nothing "a line over 1024 bytes (torpor-suspend refuses the file): nothing" \
	"$img
# $(printf '%01100d' 0)" "$good_cmdline"
nothing "torpor.conf over 64 KiB (torpor-suspend refuses it): nothing" \
	"$img
$(i=0; while [ $i -lt 1100 ]; do printf '# %061d\n' $i; i=$((i + 1)); done)" "$good_cmdline"
rm -f "$t/torpor.conf"
rm -rf "$t/out" && mkdir -p "$t/out"
if TORPOR_CONF=$t/torpor.conf TORPOR_CMDLINE=$t/cmdline TORPOR_UNIT_DIRS=$t/units sh "$gen" "$t/out" &&
	[ -z "$(find "$t/out" -mindepth 1)" ]; then
	ok "no torpor.conf: nothing"
else
	not_ok "no torpor.conf: nothing"
fi
sh "$gen" >/dev/null 2>&1
if [ $? -eq 2 ]; then ok "no output folder is a usage error"; else not_ok "no output folder is a usage error"; fi

if make -C "$top" --no-print-directory -s B="$t/build" PREFIX=/usr SYSCONFDIR=/etc \
	DESTDIR="$t/dest" install-systemd >"$t/log" 2>&1 &&
	[ -x "$t/dest/usr/lib/systemd/system-generators/torpor-logind-generator" ] &&
	grep -q 'TORPOR_CONF:-/etc/torpor.conf}' "$t/dest/usr/lib/systemd/system-generators/torpor-logind-generator"; then
	ok "make install-systemd installs it among systemd's generators, naming /etc/torpor.conf"
else
	not_ok "make install-systemd installs it among systemd's generators, naming /etc/torpor.conf"
	sed 's/^/# /' "$t/log"
fi
# its unit folders are torpor status's (suspend/status.c), in the same order: a
# mask in /run/systemd/system (systemctl mask --runtime) counts for both
# shellcheck disable=SC2016 # a literal ${ in the pattern
gen_dirs=$(sed -n 's/^UNIT_DIRS=${TORPOR_UNIT_DIRS:-\(.*\)}$/\1/p' "$gen")
status_dirs=$(sed -n '/^static const char \*const unit_dirs\[\] = {$/,/^};$/p' "$top/suspend/status.c" |
	grep -o '"/[^"]*"' | tr -d '"' | tr '\n' ' ')
if [ -n "$gen_dirs" ] && [ "$gen_dirs " = "$status_dirs" ]; then
	ok "its unit folders are torpor status's: $gen_dirs"
else
	not_ok "its unit folders '$gen_dirs' are not torpor status's '$status_dirs'"
fi
[ "$failed" -eq 0 ]
