# SPDX-License-Identifier: GPL-2.0-only
# Shared helpers of the QEMU tests: the test initramfs, the swap disk, booting the
# guest and checking what it printed.  Sourced by run.sh, demo.sh and every NN-*.sh.
#
# A scenario script sets TEST_DESCRIPTION, defines test_setup and test_run, and ends
# with test_main.  run.sh sources it in a subshell once per kernel, with these set:
#   KLABEL   short kernel name for messages, e.g. 6.1.0-57
#   KVER     the kernel release, e.g. 6.1.0-57-amd64
#   VMLINUZ  the kernel image;  INITRD  the test initramfs built for it
#   T        the scenario's own work folder (swap disk, console of each boot)
# test_run uses boot/expect/expect_not/expect_sig; any failed check makes it fail.
#
# Knobs: V=1 streams the guest console; TORPOR_CACHE (kernel cache, default .cache/);
# TORPOR_QEMU_TIMEOUT (seconds per boot, default 180; a boot takes 5-20 s);
# TORPOR_QEMU_MEM (MiB, default 1024); TORPOR_TEST_MIB (workload size, default 256);
# TORPOR_BUILD (default build/); QEMU (default qemu-system-x86_64);
# the guest gets the test build of torpor-suspend ($BUILD/test/, with the fault
# injection of suspend/testhook.h), the boot-integration tests the installed one;
# TORPOR_TEST_DEBUG=1 adds torpor.debug and torpor_verbose=1 (-v) to every boot.

[ -z "${TORPOR_LIB_LOADED:-}" ] || return 0
TORPOR_LIB_LOADED=1

# every script that sources this file lives in tests/qemu/
QDIR=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$QDIR/../.." && pwd)
OUT=$TOP/tests/qemu/out
BUILD=${TORPOR_BUILD:-$TOP/build}
TEST_SUSPEND=$BUILD/test/torpor-suspend
QEMU=${QEMU:-qemu-system-x86_64}
QEMU_TIMEOUT=${TORPOR_QEMU_TIMEOUT:-180}
QEMU_MEM=${TORPOR_QEMU_MEM:-1024}
TEST_MIB=${TORPOR_TEST_MIB:-256}
SWAP_SIZE=1G
# CONFIG symbol and module name of each driver the guest needs for its disks
GUEST_DRIVERS="VIRTIO_PCI:virtio_pci VIRTIO_BLK:virtio_blk"

fails=0
TEST_NEEDS_TORPOR=${TEST_NEEDS_TORPOR:-1}

# now: seconds since the epoch, with nanoseconds
now() { date +%s.%N; }

# since START: seconds from START until now, to a tenth
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# sub A B: A - B to a tenth, or "?" when either is empty
sub() {
	if [ -z "$1" ] || [ -z "$2" ]; then
		echo "?"
		return
	fi
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a - b }'
}

# kernel_label KVER: 6.1.0-57-amd64 -> 6.1.0-57, 6.12.118+deb12-amd64 -> 6.12.118
kernel_label() { echo "$1" | sed -e 's/-amd64$//' -e 's/+deb[0-9]*$//'; }

# kernel_use TREE: set KTREE, KVER, KLABEL, VMLINUZ and KCONFIG for an extracted kernel
kernel_use() {
	KTREE=$1
	set -- "$KTREE"/lib/modules/*
	KVER=$(basename "$1")
	KLABEL=$(kernel_label "$KVER")
	VMLINUZ=$KTREE/boot/vmlinuz-$KVER
	KCONFIG=$KTREE/boot/config-$KVER
}

# module_list: the .ko paths (relative to lib/modules/KVER) the guest insmods, in
# load order, for GUEST_DRIVERS; drivers built in (=y in the config) are left out
module_list() {
	_mods=
	for _d in $GUEST_DRIVERS; do
		_sym=${_d%%:*}
		_mod=${_d#*:}
		if grep -q "^CONFIG_$_sym=y" "$KCONFIG"; then
			continue
		elif grep -q "^CONFIG_$_sym=m" "$KCONFIG"; then
			_mods="$_mods $_mod"
		else
			echo "lib: CONFIG_$_sym is neither built in nor a module in $KCONFIG" >&2
			return 1
		fi
	done
	[ -n "$_mods" ] || return 0
	awk -v want="$_mods" '
	function load(p,    n, d, i) {
		if (p in done)
			return
		done[p] = 1
		n = split(deps[p], d, " ")
		for (i = 1; i <= n; i++)
			load(d[i])
		print p
	}
	{
		p = $1
		sub(/:$/, "", p)
		deps[p] = ""
		for (i = 2; i <= NF; i++)
			deps[p] = deps[p] " " $i
		m = p
		sub(/.*\//, "", m)
		sub(/\.ko(\.[a-z]+)?$/, "", m)
		gsub(/-/, "_", m)
		path[m] = p
	}
	END {
		n = split(want, w, " ")
		for (i = 1; i <= n; i++) {
			if (!(w[i] in path)) {
				print "lib: module " w[i] " not in modules.dep" > "/dev/stderr"
				exit 1
			}
			load(path[w[i]])
		}
	}' "$KTREE/lib/modules/$KVER/modules.dep"
}

# copy_exec FILE DEST_ROOT TARGET: copy a program and, like initramfs-tools'
# copy_exec, the shared libraries ldd lists for it, at the paths ldd prints
copy_exec() {
	install -D -m 0755 "$1" "$2$3"
	ldd "$1" 2>/dev/null | sed -n -e 's/.*=> \(\/[^ ]*\) .*/\1/p' -e 's/^[[:space:]]*\(\/[^ ]*\) .*/\1/p' |
		while read -r _lib; do
			[ -e "$2$_lib" ] || install -D -m 0755 "$(readlink -f "$_lib")" "$2$_lib"
		done
}

# build_workload: the static workload program and pgrun, in $OUT
build_workload() {
	mkdir -p "$OUT"
	gcc -O2 -Wall -Wextra -static -o "$OUT/workload" "$QDIR/guest/workload.c" &&
		gcc -O2 -Wall -Wextra -static -o "$OUT/pgrun" "$QDIR/guest/pgrun.c"
}

# build_initramfs DEST: the test initramfs for the kernel chosen with kernel_use
# (uncompressed cpio newc); torpor's binaries go in when build/ has them
build_initramfs() {
	_root=$OUT/$KLABEL/initramfs.$$
	rm -rf "$_root"
	mkdir -p "$_root"/bin "$_root"/sbin "$_root"/usr/bin "$_root"/usr/sbin "$_root"/dev \
		"$_root"/proc "$_root"/sys "$_root"/run "$_root"/tmp "$_root"/lib/modules \
		"$_root"/etc/torpor-test || return 1
	cp /bin/busybox "$_root/bin/busybox" || return 1
	for _a in $(/bin/busybox --list); do
		[ "$_a" = busybox ] || ln -s busybox "$_root/bin/$_a"
	done
	# the console must exist before devtmpfs is mounted, or init starts without one
	mknod -m 600 "$_root/dev/console" c 5 1 2>/dev/null || true
	install -m 0755 "$QDIR/guest/init" "$_root/init" || return 1
	install -m 0755 "$OUT/workload" "$_root/usr/bin/workload" || return 1
	install -m 0755 "$OUT/pgrun" "$_root/usr/bin/pgrun" || return 1
	: >"$_root/etc/torpor-test/modules"
	_list=$(module_list) || return 1
	for _m in $_list; do
		_src=$KTREE/lib/modules/$KVER/$_m
		_name=$(basename "$_m")
		case $_name in
		*.ko.xz) xz -dc "$_src" >"$_root/lib/modules/${_name%.xz}" ;;
		*.ko.zst) zstd -qdc "$_src" >"$_root/lib/modules/${_name%.zst}" ;;
		*.ko.gz) gzip -dc "$_src" >"$_root/lib/modules/${_name%.gz}" ;;
		*) cp "$_src" "$_root/lib/modules/$_name" ;;
		esac || return 1
		echo "${_name%.ko*}.ko" >>"$_root/etc/torpor-test/modules"
	done
	if [ -x "$BUILD/torpor-resume" ]; then
		install -m 0755 "$BUILD/torpor-resume" "$_root/usr/sbin/torpor-resume" || return 1
	fi
	if [ -x "$TEST_SUSPEND" ]; then
		copy_exec "$TEST_SUSPEND" "$_root" /usr/sbin/torpor-suspend || return 1
	fi
	# written aside and renamed, so that a guest booting from the old one keeps it
	(cd "$_root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$1.$$" &&
		mv "$1.$$" "$1" && rm -rf "$_root"
}

# have_torpor: torpor's binaries are built (both builds of torpor-suspend)
have_torpor() {
	[ -x "$BUILD/torpor-suspend" ] && [ -x "$TEST_SUSPEND" ] && [ -x "$BUILD/torpor-resume" ]
}

# swap_create: a fresh sparse swap disk ($T/swap.img, /dev/vdb in the guest) and an
# empty first disk ($T/root.img, /dev/vda)
swap_create() {
	rm -f "$T/swap.img" "$T/root.img"
	truncate -s "$SWAP_SIZE" "$T/swap.img" && truncate -s 8M "$T/root.img" &&
		mkswap "$T/swap.img" >/dev/null 2>&1
}

# swap_sig: the 10 bytes at 4086 of the swap disk, where mkswap puts SWAPSPACE2 and
# a hibernation image its own signature (NUL bytes dropped)
swap_sig() { dd if="$T/swap.img" bs=1 skip=4086 count=10 2>/dev/null | tr -d '\000'; }

# boot N [PARAMS...]: boot the guest once with extra kernel parameters; the console
# goes to $T/bootN.console, each line prefixed with seconds since QEMU started.
# Returns QEMU's status (124 when the timeout hit).  Other images can reuse it by
# setting BOOT_INITRD (default $INITRD), BOOT_CMDLINE (the parameters before PARAMS),
# BOOT_TIMEOUT (default $QEMU_TIMEOUT) and BOOT_ROOT_OPTS (-drive options of
# $T/root.img, default ",snapshot=on"; set it empty to keep what the guest writes).
# BOOT_QEMU_OPTS adds QEMU options (split on spaces), BOOT_KERNEL replaces $VMLINUZ
# and BOOT_MEM replaces $QEMU_MEM; BOOT_WATCH names a file that gets the raw console
# as it comes (the console file is written in blocks).  A boot that boot_cut killed on purpose
# ($T/bootN.cut exists) is not a timeout.
boot() {
	_n=$1
	shift
	_con=$T/boot$_n.console
	: >"$_con"
	if [ -f "$T/timed-out" ]; then
		fail "boot $_n: not started, an earlier boot timed out"
		echo 0 >"$T/boot$_n.took"
		return 1
	fi
	_cmdline="${BOOT_CMDLINE:-console=ttyS0 panic=-1 resume=/dev/vdb torpor_mib=$TEST_MIB} $*"
	# a loaded host can stall TCG long enough for the kernel's IO-APIC timer check
	# to fail and panic at boot ("IO-APIC + timer doesn't work"): skip that check
	_cmdline="$_cmdline no_timer_check"
	[ "${TORPOR_TEST_DEBUG:-}" != 1 ] || _cmdline="$_cmdline torpor.debug torpor_verbose=1"
	echo "## boot $_n: $_cmdline"
	_t0=$(now)
	{
		# shellcheck disable=SC2086 # BOOT_QEMU_OPTS is a list of words
		timeout -k 10 "${BOOT_TIMEOUT:-$QEMU_TIMEOUT}" "$QEMU" -accel tcg -smp 1 \
			-m "${BOOT_MEM:-$QEMU_MEM}" -no-reboot -nographic -nic none ${BOOT_QEMU_OPTS:-} \
			-kernel "${BOOT_KERNEL:-$VMLINUZ}" -initrd "${BOOT_INITRD:-$INITRD}" \
			-drive "file=$T/root.img,format=raw,if=virtio${BOOT_ROOT_OPTS-,snapshot=on}" \
			-drive file="$T/swap.img",format=raw,if=virtio \
			-append "$_cmdline" </dev/null 2>&1
		echo $? >"$T/boot$_n.rc"
	} | if [ -n "${BOOT_WATCH:-}" ]; then tee "$BOOT_WATCH"; else cat; fi |
		if [ "${V:-}" = 1 ]; then tee /dev/fd/3; else cat; fi |
		/bin/busybox ts -s '%.s' | tr -d '\r' >"$_con"
	_rc=$(cat "$T/boot$_n.rc")
	_took=$(since "$_t0")
	echo "$_took" >"$T/boot$_n.took"
	awk '{ t = $1; sub(/^[^ ]* /, ""); printf "[%8.3f] %s\n", t, $0 }' "$_con"
	echo "## boot $_n took $_took s (qemu exit status $_rc)"
	if [ "$_rc" -eq 137 ] && [ -f "$T/boot$_n.cut" ]; then
		echo "## boot $_n: the host cut the power ($(cat "$T/boot$_n.cut"))"
	elif [ "$_rc" -eq 124 ] || [ "$_rc" -eq 137 ]; then
		fail "boot $_n: timed out after ${BOOT_TIMEOUT:-$QEMU_TIMEOUT} s"
		: >"$T/timed-out"
	fi
	return "$_rc"
}

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# stamp N MARKER: seconds after QEMU started at which boot N printed "=== MARKER"
stamp() {
	awk -v m="=== $2" '{ t = $1; sub(/^[^ ]* /, "") }
		$0 == m || index($0, m " ") == 1 { print t; exit }' "$T/boot$1.console"
}

# expect N MARKER...: boot N printed every "=== MARKER"
expect() {
	_n=$1
	shift
	for _m in "$@"; do
		if [ -n "$(stamp "$_n" "$_m")" ]; then
			echo "ok: boot $_n printed '=== $_m'"
		else
			fail "boot $_n: expected '=== $_m', did not see it"
		fi
	done
}

# expect_not N MARKER...: boot N printed none of them
expect_not() {
	_n=$1
	shift
	for _m in "$@"; do
		if [ -z "$(stamp "$_n" "$_m")" ]; then
			echo "ok: boot $_n did not print '=== $_m'"
		else
			fail "boot $_n: printed '=== $_m', which it must not"
		fi
	done
}

# expect_checks N: boot N resumed and the workload passed every check
expect_checks() {
	expect "$1" resumed token-ok counter-ok data-ok
	expect_not "$1" normal-boot token-bad counter-bad data-bad hibernate-failed
}

# expect_sig SIGNATURE WHEN: the swap disk carries SIGNATURE now
expect_sig() {
	_sig=$(swap_sig)
	if [ "$_sig" = "$1" ]; then
		echo "ok: swap signature is '$1' $2"
	else
		fail "swap signature is '$_sig' $2, expected '$1'"
	fi
}

# note TEXT: one line of the summary run.sh prints under the TAP line
note() { echo "$*" >>"$T/summary"; }

# note_torpor: torpor's own size and speed lines, from every boot
note_torpor() {
	for _c in "$T"/boot*.console; do
		sed -n 's/^[^ ]* \(torpor: image \(saved\|loaded\).*\)/\1/p' "$_c" |
			while read -r _l; do note "$(basename "$_c" .console): $_l"; done
	done
}

# note_kernel: the kernel's size and speed lines of its own hibernation
note_kernel() {
	for _c in "$T"/boot*.console; do
		sed -n -e 's/^[^ ]* \[ *[0-9.]*\] PM: \(hibernation: \(Wrote\|Read\) .*\)/kernel: \1/p' \
			-e 's/^[^ ]* \[ *[0-9.]*\] PM: \(Image size after compression.*\)/kernel: \1/p' "$_c" |
			while read -r _l; do note "$(basename "$_c" .console): $_l"; done
	done
}

# note_boot N: boot N's wall time, and when it hibernated and resumed
# hibernate_first N [PARAM...]: boot N starts a 64 MiB workload and hibernates it
# with torpor-suspend; the VM is off and torpor's image is on the swap disk
hibernate_first() {
	_hn=$1
	shift
	boot "$_hn" torpor_test=hibernate torpor_mib=64 "$@"
	note_boot "$_hn"
	expect "$_hn" workload-started hibernating
	expect_not "$_hn" resumed hibernate-failed poweroff
	expect_sig S2SUSPEND "after hibernating"
}

note_boot() {
	_took=$(cat "$T/boot$1.took")
	_init=$(stamp "$1" init)
	_line="boot $1: ${_took} s"
	[ -z "$_init" ] || _line="$_line (init at $(sub "$_init" 0) s"
	_rs=$(stamp "$1" resume-start)
	_rd=$(stamp "$1" resumed)
	[ -z "$_rd" ] || _line="$_line, restored in $(sub "$_rd" "$_rs") s"
	_hb=$(stamp "$1" hibernating)
	if [ -n "$_hb" ] && [ -z "$(stamp "$1" hibernate-failed)" ]; then
		_line="$_line, hibernated in $(sub "$_took" "$_hb") s"
	fi
	[ -z "$_init" ] || _line="$_line)"
	note "$_line"
	echo "## $_line"
}

# --- fault injection (issue 4: the 4x and 5x scenarios) ---

# initrd_extend DEST DRIVERS [PROGRAM:TARGET...]: DEST is $INITRD with a second cpio
# archive appended (the kernel unpacks both, the later one wins): the modules of
# DRIVERS (CONFIG:module words, as GUEST_DRIVERS) after the usual ones, and each
# PROGRAM copied with its libraries to TARGET
initrd_extend() {
	_dest=$1
	_drivers=$2
	shift 2
	_root=$T/initrd-extra.$$
	rm -rf "$_root"
	mkdir -p "$_root/lib/modules" "$_root/etc/torpor-test" || return 1
	_list=$(
		GUEST_DRIVERS="$GUEST_DRIVERS $_drivers"
		module_list
	) || return 1
	for _m in $_list; do
		_name=$(basename "$_m")
		case $_name in
		*.ko.xz) xz -dc "$KTREE/lib/modules/$KVER/$_m" >"$_root/lib/modules/${_name%.xz}" ;;
		*.ko.zst) zstd -qdc "$KTREE/lib/modules/$KVER/$_m" >"$_root/lib/modules/${_name%.zst}" ;;
		*.ko.gz) gzip -dc "$KTREE/lib/modules/$KVER/$_m" >"$_root/lib/modules/${_name%.gz}" ;;
		*) cp "$KTREE/lib/modules/$KVER/$_m" "$_root/lib/modules/$_name" ;;
		esac || return 1
		echo "${_name%.ko*}.ko" >>"$_root/etc/torpor-test/modules"
	done
	for _p in "$@"; do
		copy_exec "${_p%%:*}" "$_root" "${_p#*:}" || return 1
	done
	{
		cat "${BOOT_INITRD:-$INITRD}" &&
			(cd "$_root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet)
	} >"$_dest" || return 1
	rm -rf "$_root"
}

# EXT4_DRIVERS: what initrd_extend needs to mount an ext4 disk in the guest
# shellcheck disable=SC2034 # used by the scenarios
EXT4_DRIVERS="CRYPTO_CRC32C:crc32c_generic EXT4_FS:ext4"

# root_mkfs SIZE: make $T/root.img (/dev/vda) a fresh ext4 filesystem of SIZE, with
# 4 KiB blocks as on real disks (mke2fs picks 1 KiB below 512 MiB, and a swap file
# there need not start on a page boundary)
root_mkfs() {
	rm -f "$T/root.img"
	truncate -s "$1" "$T/root.img" &&
		mkfs.ext4 -q -F -b 4096 -L torpor-test "$T/root.img" >/dev/null 2>&1
}

# expect_fsck WHEN: the host's e2fsck -fn finds $T/root.img clean
expect_fsck() {
	if e2fsck -fn "$T/root.img" >"$T/fsck.out" 2>&1; then
		echo "ok: e2fsck -fn is clean $1"
	else
		sed 's/^/# e2fsck: /' "$T/fsck.out"
		fail "e2fsck -fn found problems $1"
	fi
}

# console_has N ERE: boot N printed a line matching ERE (timestamps stripped)
console_has() { sed 's/^[^ ]* //' "$T/boot$1.console" | grep -Eq -- "$2"; }

# ere_quote TEXT: TEXT with the characters special in an ERE escaped
ere_quote() { printf '%s\n' "$1" | sed 's/[][\\.*^$+?(){}|]/\\&/g'; }

# expect_line N ERE [WHAT]: boot N printed a line matching ERE
expect_line() {
	if console_has "$1" "$2"; then
		echo "ok: boot $1 printed /$2/"
	else
		fail "boot $1: expected a line matching /$2/${3:+ ($3)}"
	fi
}

# expect_no_line N ERE [WHAT]: boot N printed no line matching ERE
expect_no_line() {
	if console_has "$1" "$2"; then
		fail "boot $1: printed a line matching /$2/${3:+ ($3)}, which it must not"
	else
		echo "ok: boot $1 printed no line matching /$2/"
	fi
}

# boot_cut N ERE [PARAMS...]: boot N, and kill -9 QEMU (a power cut) as soon as its
# console shows a line matching ERE.  Returns 0 when the cut happened.
boot_cut() {
	_cn=$1
	_cpat=$2
	shift 2
	rm -f "$T/boot$_cn.cut" "$T/boot$_cn.pid" "$T/boot$_cn.rc" "$T/boot$_cn.raw"
	_cs=$(now)
	(
		_w=$(( ${BOOT_TIMEOUT:-$QEMU_TIMEOUT} * 5 ))
		while [ "$_w" -gt 0 ] && [ ! -f "$T/boot$_cn.rc" ]; do
			if [ -s "$T/boot$_cn.pid" ] && [ -f "$T/boot$_cn.raw" ] &&
				tr -d '\r' <"$T/boot$_cn.raw" | grep -Eq -- "$_cpat"; then
				echo "at /$_cpat/ after $(since "$_cs") s" >"$T/boot$_cn.cut"
				kill -9 "$(cat "$T/boot$_cn.pid")"
				exit 0
			fi
			_w=$((_w - 1))
			sleep 0.2
		done
	) &
	_cw=$!
	_save_opts=${BOOT_QEMU_OPTS:-}
	BOOT_QEMU_OPTS="$_save_opts -pidfile $T/boot$_cn.pid"
	BOOT_WATCH=$T/boot$_cn.raw
	boot "$_cn" "$@"
	BOOT_WATCH=
	rm -f "$T/boot$_cn.raw"
	BOOT_QEMU_OPTS=$_save_opts
	wait "$_cw"
	if [ -f "$T/boot$_cn.cut" ]; then
		echo "ok: boot $_cn: power cut $(cat "$T/boot$_cn.cut")"
	else
		fail "boot $_cn: never printed a line matching /$_cpat/, so no power cut"
		return 1
	fi
}

# image_dump [FILE]: torpor-resume --dump of a swap disk image (default $T/swap.img),
# read-only on the host
image_dump() { "$BUILD/torpor-resume" --dump --device="${1:-$T/swap.img}"; }

# dump_field FILE KEY [N]: the value of the Nth (default first) KEY= line of
# image_dump FILE
dump_field() {
	image_dump "$1" | awk -F= -v k="$2" -v n="${3:-1}" '$1 == k && ++i == n { sub(/^[^=]*=/, ""); print; exit }'
}

# flip_byte FILE OFFSET: invert every bit of the byte at OFFSET
flip_byte() {
	_v=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	[ -n "$_v" ] || return 1
	# shellcheck disable=SC2059 # the format is the octal escape built here
	printf "\\$(printf %o $((_v ^ 255)))" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
	echo "# flipped byte $2 of $(basename "$1"): $_v -> $((_v ^ 255))"
}

# imgpatch FILE root|map INDEX OFFSET PAGES: move an extent of the image in FILE and
# fix up its checksums (tests/qemu/imgpatch.c, built into $T on first use)
imgpatch() {
	if [ ! -x "$T/imgpatch" ]; then
		gcc -O2 -Wall -Wextra -o "$T/imgpatch" "$QDIR/imgpatch.c" || return 1
	fi
	"$T/imgpatch" "$@"
}

# kernel_other: the extracted tree of a default test kernel other than $KVER, or
# nothing (TORPOR_TEST_KERNEL does not limit this choice)
kernel_other() {
	TORPOR_TEST_KERNEL='' sh "$QDIR/kernels.sh" 2>/dev/null | while read -r _tree; do
		set -- "$_tree"/lib/modules/*
		if [ "$(basename "$1")" != "$KVER" ]; then
			echo "$_tree"
			break
		fi
	done
}

# test_main: run the scenario; called at the end of each NN-*.sh.  Run on its own
# (sh tests/qemu/NN-name.sh), the script hands itself to run.sh.
test_main() {
	if [ -z "${TORPOR_QEMU_RUNNER:-}" ]; then
		exec sh "$QDIR/run.sh" "$0"
	fi
	rm -f "$T/summary"
	echo "# $KLABEL: $TEST_NAME: $TEST_DESCRIPTION"
	if [ "$TEST_NEEDS_TORPOR" = 1 ] && ! have_torpor; then
		fail "$BUILD/torpor-suspend, $TEST_SUSPEND or torpor-resume is missing (run make all)"
		return 1
	fi
	test_setup || {
		fail "test_setup failed"
		return 1
	}
	test_run
	[ "$fails" -eq 0 ]
}
