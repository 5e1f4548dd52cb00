# SPDX-License-Identifier: GPL-2.0-only
# Shared helpers of the QEMU tests: the kernels, the test initramfs, the swap disk,
# and the scenario's entry point; it sources lib-boot.sh (launching QEMU),
# lib-expect.sh (checking what the guest printed), lib-fault.sh (fault injection)
# and lib-fs.sh (the filesystem disks).
# Sourced by run.sh, demo.sh and every NN-*.sh.
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
# TORPOR_QEMU_MEM (MiB, default 1024); TORPOR_TEST_SMP (vCPUs, default 1; several
# take turns on one host thread unless TORPOR_TEST_MTTCG=1, see boot in lib-boot.sh);
# TORPOR_TEST_MIB (workload size, default 256); TORPOR_TEST_SWAP (swap disk size for
# truncate -s, default 1G);
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
# shellcheck disable=SC2034 # read by lib-boot.sh, lib-rootfs.sh and the scenarios
QEMU_TIMEOUT=${TORPOR_QEMU_TIMEOUT:-180}
# shellcheck disable=SC2034
QEMU_MEM=${TORPOR_QEMU_MEM:-1024}
# shellcheck disable=SC2034
QEMU_SMP=${TORPOR_TEST_SMP:-1}
# shellcheck disable=SC2034
TEST_MIB=${TORPOR_TEST_MIB:-256}
SWAP_SIZE=${TORPOR_TEST_SWAP:-1G}
# CONFIG symbol and module name of each driver the guest needs for its disks
# (SYMBOL:NAME|OTHER where kernels name the module differently)
GUEST_DRIVERS="VIRTIO_PCI:virtio_pci VIRTIO_BLK:virtio_blk"
# and those it loads only on an EFI boot (efivarfs fails to load on any other)
GUEST_EFI_DRIVERS="EFIVAR_FS:efivarfs"

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
	# shellcheck disable=SC2034 # read by lib-boot.sh and lib-rootfs.sh
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
			# NAME|OTHER: the first of the names this kernel has
			k = split(w[i], alt, "|")
			for (j = 1; j <= k && !(alt[j] in path); j++)
				;
			if (j > k) {
				print "lib: module " w[i] " not in modules.dep" > "/dev/stderr"
				exit 1
			}
			load(path[alt[j]])
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

# build_workload: the static workload program, pgrun and dmdelay, in $OUT
build_workload() {
	mkdir -p "$OUT"
	gcc -O2 -Wall -Wextra -static -o "$OUT/workload" "$QDIR/guest/workload.c" &&
		gcc -O2 -Wall -Wextra -static -o "$OUT/pgrun" "$QDIR/guest/pgrun.c" &&
		gcc -O2 -Wall -Wextra -static -o "$OUT/dmdelay" "$QDIR/guest/dmdelay.c"
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
	install -m 0755 "$OUT/dmdelay" "$_root/usr/bin/dmdelay" || return 1
	: >"$_root/etc/torpor-test/modules"
	: >"$_root/etc/torpor-test/modules-efi"
	_list=$(module_list) || return 1
	_efilist=$(GUEST_DRIVERS=$GUEST_EFI_DRIVERS module_list) || return 1
	for _m in $_list $_efilist; do
		_src=$KTREE/lib/modules/$KVER/$_m
		_name=$(basename "$_m")
		case $_name in
		*.ko.xz) xz -dc "$_src" >"$_root/lib/modules/${_name%.xz}" ;;
		*.ko.zst) zstd -qdc "$_src" >"$_root/lib/modules/${_name%.zst}" ;;
		*.ko.gz) gzip -dc "$_src" >"$_root/lib/modules/${_name%.gz}" ;;
		*) cp "$_src" "$_root/lib/modules/$_name" ;;
		esac || return 1
		case " $_efilist " in
		*" $_m "*) echo "${_name%.ko*}.ko" >>"$_root/etc/torpor-test/modules-efi" ;;
		*) echo "${_name%.ko*}.ko" >>"$_root/etc/torpor-test/modules" ;;
		esac
	done
	# torpor-resume where torpor-suspend looks for it in the initramfs (LIBEXECDIR),
	# with initramfs-tools' boot script that names it (/init runs it, not the script)
	_libexec=$(build_libexecdir)
	if [ -x "$BUILD/torpor-resume" ]; then
		install -D -m 0755 "$BUILD/torpor-resume" "$_root$_libexec/torpor-resume" &&
			ln -s "$_libexec/torpor-resume" "$_root/usr/sbin/torpor-resume" || return 1
	fi
	mkdir -p "$_root/scripts/local-top" &&
		sed "s|@LIBEXECDIR@|$_libexec|g" "$TOP/hook/scripts/local-top/torpor" \
			>"$_root/scripts/local-top/torpor" && chmod 755 "$_root/scripts/local-top/torpor" ||
		return 1
	if [ -x "$TEST_SUSPEND" ]; then
		copy_exec "$TEST_SUSPEND" "$_root" /usr/sbin/torpor-suspend || return 1
	fi
	# written aside and renamed, so that a guest booting from the old one keeps it
	(cd "$_root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$1.$$" || return 1
	rm -rf "$_root"
	boot_copy "$1.$$" >"$1.$$.boot" && cat "$1.$$.boot" >>"$1.$$" && rm -f "$1.$$.boot" &&
		mv "$1.$$" "$1"
}

# build_libexecdir: the LIBEXECDIR build/ was made with (where torpor-suspend
# looks for torpor-resume in the initramfs)
build_libexecdir() {
	_l=$(sed -n 's/.*LIBEXECDIR=\([^ ]*\).*/\1/p' "$BUILD/install-vars" 2>/dev/null)
	echo "${_l:-/usr/local/lib/torpor}"
}

# initramfs_file CPIO: CPIO as a generator's image: an uncompressed early cpio
# (a microcode file), then CPIO compressed with gzip (busybox decompresses it in
# the guest)
initramfs_file() {
	_e=$OUT/$KLABEL/early.$$
	rm -rf "$_e"
	mkdir -p "$_e/kernel/x86/microcode" &&
		echo "torpor test: not microcode" >"$_e/kernel/x86/microcode/GenuineIntel.bin" || return 1
	(cd "$_e" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) && gzip -n -c "$1"
	_rc=$?
	rm -rf "$_e"
	return "$_rc"
}

# boot_copy CPIO [FILE]: a cpio archive holding FILE (default initramfs_file CPIO) as
# the guest's /boot/initrd.img-$KVER: the initramfs torpor-suspend checks before it
# hibernates (the test initramfs cannot hold itself; appended to it, the guest
# boots CPIO and this, and CPIO is what the copy holds)
boot_copy() {
	_b=$OUT/$KLABEL/boot.$$
	rm -rf "$_b"
	mkdir -p "$_b/boot" || return 1
	if [ -n "${2:-}" ]; then
		cp "$2" "$_b/boot/initrd.img-$KVER"
	else
		initramfs_file "$1" >"$_b/boot/initrd.img-$KVER"
	fi || return 1
	(cd "$_b" && find . | LC_ALL=C sort | cpio -o -H newc --quiet)
	_rc=$?
	rm -rf "$_b"
	return "$_rc"
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

# the rest of the library: QEMU launch, assertions, fault injection, filesystem disks
# shellcheck source=tests/qemu/lib-boot.sh
. "$QDIR/lib-boot.sh"
# shellcheck source=tests/qemu/lib-expect.sh
. "$QDIR/lib-expect.sh"
# shellcheck source=tests/qemu/lib-fault.sh
. "$QDIR/lib-fault.sh"
# shellcheck source=tests/qemu/lib-fs.sh
. "$QDIR/lib-fs.sh"

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
