# SPDX-License-Identifier: GPL-2.0-only
# Helpers of the boot-integration tests (1x initramfs-tools, 2x dracut, 3x mkinitcpio):
# a real ext4 root filesystem, a GPT swap disk, and initramfs images that the
# generators build from torpor's INSTALLED hooks (make install-<host> DESTDIR=...).
# Sourced after lib.sh by tests/qemu/[123]x-*.sh.
#
# The guest boots the generator's /init, which mounts /dev/vda (ext4) and runs the
# root's /sbin/init (written by root_init below); that prints "=== <marker>" lines
# on the console and into the kernel log, and is driven by kernel parameters:
#   torpor_test=boot|hibernate  boot: power off; hibernate: start the workload,
#                               swapon, torpor-suspend, check the workload after
#                               the restore, power off
#   torpor_mib=N                workload size in MiB;  torpor_swap=DEV  for swapon
#   torpor_swapfile=PATH        hibernate into this swap file instead (made with
#                               btrfs filesystem mkswapfile when missing: for a btrfs
#                               root); torpor-suspend then takes resume= from the
#                               kernel command line and finds the file's page itself
#   torpor_zram=N               zram (zram.ko in the initramfs) of N MiB is the only
#                               swap, and torpor_imagefile=SIZE makes the image file
#                               /var/lib/torpor/image of SIZE with --setup-image-file
#                               (unless it exists),
#                               names it in /etc/torpor.conf (as docs/image-file.md says) and
#                               hibernates into it; "=== imagefile-inactive|active" and
#                               "=== zram-active|inactive" after the restore, and the
#                               first of them on a normal boot with torpor_imagefile,
#                               after --check and a hibernation it must refuse
#                               (--resume-offset=1)
#   torpor_stall=PCT            run the test build (torpor-suspend-test) with
#                               TORPOR_TEST_STALL=PCT: it stops for the host's power cut
#
# The scenarios set TEST_KERNELS=first: run.sh runs them on the first test kernel
# only (the generator images are built for one kernel, to save time).
# Knobs: TORPOR_HOOK_MIB (workload MiB, default 64), TORPOR_HOOK_TIMEOUT (seconds per
# boot, default 180), MKINITCPIO_SRC (a mkinitcpio checkout, for 30-mkinitcpio and
# 31-mkinitcpio-systemd).

HOOK_MIB=${TORPOR_HOOK_MIB:-64}
HOOK_TIMEOUT=${TORPOR_HOOK_TIMEOUT:-180}
# the swap disk: GPT, one partition at 1 MiB holding the swap area
SWAP_UUID=7f3c1c9e-4b0a-4c2e-9d41-0c5e6a1b2d30
SWAP_LABEL=torpor-swap
SWAP_PARTUUID=3b8e2f4a-91c7-4d5e-a0b6-7c2d9e1f4a58
# a resume device that no disk carries
NODEV_UUID=0badc0de-0000-4000-8000-000000000000
PART_START=2048
# where make install puts torpor-resume (the Makefile's default LIBEXECDIR)
HOOK_LIBEXECDIR=/usr/local/lib/torpor

# hook_stage DIR: torpor installed into DIR as a package would be, from the binaries
# already in build/ (-o: never rebuilt here) and the hook templates
hook_stage() {
	rm -rf "$1"
	make -C "$TOP" --no-print-directory -s -o "$BUILD/torpor-suspend" -o "$BUILD/torpor-resume" \
		B="$BUILD" DESTDIR="$1" \
		install install-initramfs-tools install-dracut install-mkinitcpio >/dev/null
}

# hook_sources: the files whose change means the generator images must be rebuilt
hook_sources() {
	echo "$BUILD/torpor-resume" "$QDIR/lib-rootfs.sh" "$TOP/Makefile"
	find "$TOP/hook" "$TOP/dracut-module" "$TOP/mkinitcpio" "$TOP/systemd" -type f
}

# stale FILE: FILE is missing or older than one of hook_sources
stale() {
	[ -f "$1" ] || return 0
	for _s in $(hook_sources); do
		# shellcheck disable=SC3013 # dash and busybox sh have -nt
		[ "$_s" -nt "$1" ] && return 0
	done
	return 1
}

# itools_image OUT [nobin] [MODULE...]: an initramfs-tools image (mkinitramfs -d CONFDIR)
# whose hooks/ and scripts/ come from the staged install, plus a no-op
# local-premount/resume that hides Debian's, so that only torpor can restore; with
# nobin the hook finds no torpor-resume to add (the boot script is there, the binary
# is not); MODULEs are added to the list
itools_image() {
	stale "$1" || return 0
	_w=$OUT/$KLABEL/$(basename "$1" .img)
	rm -rf "$_w"
	mkdir -p "$_w/conf" || return 1
	hook_stage "$_w/stage" || return 1
	cp -a "$_w/stage/usr/share/initramfs-tools/hooks" "$_w/stage/usr/share/initramfs-tools/scripts" \
		"$_w/conf/" || return 1
	cat >"$_w/conf/initramfs.conf" <<-EOF
	MODULES=list
	BUSYBOX=y
	COMPRESS=zstd
	FSTYPE=ext4
	RESUME=none
	EOF
	_out=$1
	shift
	_nobin=
	if [ "${1:-}" = nobin ]; then
		_nobin=1
		shift
	fi
	printf '%s\n' virtio_pci virtio_blk ext4 "$@" >"$_w/conf/modules"
	mkdir -p "$_w/conf/scripts/local-premount"
	cat >"$_w/conf/scripts/local-premount/resume" <<-'EOF'
	#!/bin/sh
	# test override: Debian's resume script must not run in torpor's tests
	[ "$1" = prereqs ] && exit 0
	exit 0
	EOF
	chmod 755 "$_w/conf/scripts/local-premount/resume"
	# mkinitramfs reads /lib/modules/KVER and /boot/config-KVER only: bind the
	# kernel tree over both in a private mount namespace (the mount points must exist)
	[ -d /lib/modules ] || mkdir -p /lib/modules
	_bin=$_w/stage$HOOK_LIBEXECDIR/torpor-resume
	[ -z "$_nobin" ] || _bin=$_w/no-such-file
	# shellcheck disable=SC2016 # expanded by the inner sh
	TORPOR_RESUME_BIN=$_bin \
		unshare -m sh -c 'mount --bind "$1/lib/modules" /lib/modules &&
			mount --bind "$1/boot" /boot && mkinitramfs -d "$2" -o "$3" "$4"' \
		sh "$KTREE" "$_w/conf" "$_out.tmp" "$KVER" || return 1
	mv "$_out.tmp" "$_out"
}

# dracut_image OUT shell|systemd: a dracut image built with a shadow dracutbasedir
# whose modules.d links every stock module except resume, and 90torpor from the
# staged install
dracut_image() {
	stale "$1" || return 0
	_w=$OUT/$KLABEL/dracut-$2
	rm -rf "$_w"
	mkdir -p "$_w/base/modules.d" "$_w/confdir" || return 1
	: >"$_w/dracut.conf"
	hook_stage "$_w/stage" || return 1
	for _f in /usr/lib/dracut/*; do
		[ "${_f##*/}" = modules.d ] || ln -s "$_f" "$_w/base/"
	done
	for _f in /usr/lib/dracut/modules.d/*; do
		case ${_f##*/} in
		[0-9][0-9]resume) ;;
		*) ln -s "$_f" "$_w/base/modules.d/" ;;
		esac
	done
	ln -s "$_w/stage/usr/lib/dracut/modules.d/90torpor" "$_w/base/modules.d/90torpor"
	_mods="base rootfs-block udev-rules torpor"
	[ "$2" = shell ] || _mods="systemd systemd-initrd dracut-systemd $_mods"
	dracutbasedir=$_w/base TORPOR_RESUME_BIN=$_w/stage$HOOK_LIBEXECDIR/torpor-resume \
		dracut --force --quiet --no-hostonly --no-hostonly-cmdline --conf "$_w/dracut.conf" \
		--confdir "$_w/confdir" --kver "$KVER" --kmoddir "$KTREE/lib/modules/$KVER" \
		--no-early-microcode --no-compress -m "$_mods" \
		--add-drivers "virtio_blk virtio_pci ext4" "$1.tmp" || return 1
	mv "$1.tmp" "$1"
}

# root_init: the root filesystem's /sbin/init
root_init() {
	cat <<-'EOF'
	#!/bin/sh
	# /sbin/init of the boot-integration tests' root filesystem (written by lib-rootfs.sh)
	PATH=/usr/sbin:/usr/bin:/sbin:/bin
	export PATH
	[ -e /proc/self ] || mount -t proc proc /proc
	[ -e /sys/kernel ] || mount -t sysfs sysfs /sys
	[ -e /dev/null ] || mount -t devtmpfs devtmpfs /dev
	exec </dev/console >/dev/console 2>&1
	mark() { echo "=== $*"; echo "=== $*" >/dev/kmsg 2>/dev/null; }
	info() { echo "# $*"; }
	end() { mark poweroff; poweroff -f; sleep 10; }
	wait_file() {
		_n=$(($2 * 5))
		while [ ! -e "$1" ]; do
			_n=$((_n - 1)); [ "$_n" -gt 0 ] || return 1; sleep 0.2
		done
	}
	# the root filesystem's mount count and last mount time, read past the cache
	sb() { dd if=/dev/vda bs=4096 count=1 iflag=direct 2>/dev/null | od -An -tx1 -j 1068 -N 12 | tr -d ' \n'; }

	test=boot mib=64 swap=/dev/vdb1 verbose= swapfile= zram= imagefile= stall=
	imgpath=/var/lib/torpor/image
	for arg in $(cat /proc/cmdline); do
		case $arg in
		torpor_zram=*) zram=${arg#*=} ;;
		torpor_imagefile=*) imagefile=${arg#*=} ;;
		torpor_stall=*) stall=${arg#*=} ;;
		torpor_test=*) test=${arg#*=} ;;
		torpor_mib=*) mib=${arg#*=} ;;
		torpor_swap=*) swap=${arg#*=} ;;
		torpor_verbose=1) verbose=-v ;;
		torpor_swapfile=*) swapfile=${arg#*=} ;;
		esac
	done
	mount -o remount,rw / 2>/dev/null
	mark init
	info "kernel $(uname -r), test=$test mib=$mib swap=$swap, root superblock $(sb)"
	# after the restore, or on a normal boot: is the image file swap, is zram?
	imagefile_swaps() {
		sed 's/^/# swaps: /' /proc/swaps
		grep -q "^$imgpath " /proc/swaps && mark imagefile-active || mark imagefile-inactive
		[ "$1" = boot ] && return
		grep -q "^/dev/zram0 " /proc/swaps && mark zram-active || mark zram-inactive
	}
	mark normal-boot
	if [ "$test" = imagefile-setup ]; then
		torpor-suspend --setup-image-file="$imagefile" || mark imagefile-failed
		grep -q "^image_file" /etc/torpor.conf 2>/dev/null ||
			echo "image_file = $imgpath" >>/etc/torpor.conf
		[ -e "$imgpath" ] && mark imagefile-made
		end
	fi
	if [ "$test" != hibernate ]; then
		if [ -n "$imagefile" ]; then
			imagefile_swaps boot
			torpor-suspend --check
			info "torpor-suspend --check: status $?"
			# an image where the next boot would not look: refused
			torpor-suspend --resume-offset=1
			info "torpor-suspend --resume-offset=1: status $?"
			imagefile_swaps boot
		fi
		end
	fi

	t=/mnt/t
	mount -t tmpfs tmpfs "$t" || { mark tmpfs-failed; end; }
	token=$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')
	workload "$token" "$mib" "$t" &
	pid=$!
	wait_file "$t/ready" 600 || { mark workload-failed; end; }
	read -r _ sum <"$t/ready"
	info "workload pid $pid, token $token, $mib MiB, checksum $sum"
	mark workload-started
	resume=--resume=$swap
	if [ -n "$swapfile" ]; then
		if [ ! -e "$swapfile" ]; then
			btrfs filesystem mkswapfile -s 512m "$swapfile" || { mark swapfile-failed; end; }
		fi
		chmod 600 "$swapfile"
		swap=$swapfile resume=
		# btrfs-progs' own answer, for the host to compare with torpor-suspend's
		info "map-swapfile -r $swapfile: $(btrfs inspect-internal map-swapfile -r "$swapfile")"
	fi
	if [ -n "$imagefile" ]; then
		echo "${zram}M" >/sys/block/zram0/disksize && mkswap /dev/zram0 >/dev/null &&
			swapon /dev/zram0 || { mark swapon-failed; end; }
		if [ ! -e "$imgpath" ]; then
			torpor-suspend --setup-image-file="$imagefile" || { mark imagefile-failed; end; }
		fi
		grep -q "^image_file" /etc/torpor.conf 2>/dev/null ||
			echo "image_file = $imgpath" >>/etc/torpor.conf
		mark imagefile-made
		resume=
	else
		swapon "$swap" || { mark swapon-failed; end; }
	fi
	if [ -n "$swapfile" ]; then
		# torpor-suspend's own answer, and its refusal of a wrong resume_offset
		torpor-suspend --check
		torpor-suspend --check --resume-offset=1
		info "torpor-suspend --check --resume-offset=1: status $?"
	fi
	before=$(cat "$t/counter")
	sb_before=$(sb)
	mark hibernating
	if [ -n "$stall" ]; then
		# shellcheck disable=SC2086
		TORPOR_TEST_STALL=$stall torpor-suspend-test $resume $verbose
	else
		# shellcheck disable=SC2086
		torpor-suspend $resume $verbose
	fi
	rc=$?
	if [ "$rc" -ne 0 ]; then
		info "torpor-suspend failed with status $rc"
		mark hibernate-failed
		end
	fi
	sb_after=$(sb)
	mark resumed
	[ -z "$imagefile" ] || imagefile_swaps
	if [ "$sb_after" = "$sb_before" ]; then
		info "root superblock $sb_after, unchanged since hibernating"
		mark root-untouched
	else
		info "root superblock $sb_after, was $sb_before when hibernating"
		mark root-mounted-before-restore
	fi
	[ "$(cat "$t/token" 2>/dev/null)" = "$token" ] && mark token-ok || mark token-bad
	n=50
	while :; do
		now=$(cat "$t/counter" 2>/dev/null)
		[ -n "$now" ] && [ "$now" -gt "$before" ] && { mark counter-ok; break; }
		n=$((n - 1)); [ "$n" -gt 0 ] || { mark counter-bad; break; }
		sleep 0.2
	done
	rm -f "$t/status"
	if kill -USR1 "$pid" && wait_file "$t/status" 600 &&
		[ "$(cat "$t/status")" = "ok $sum $token" ]; then
		mark data-ok
	else
		info "workload status '$(cat "$t/status" 2>/dev/null)', expected 'ok $sum $token'"
		mark data-bad
	fi
	end
	EOF
}

# rootfs_create [btrfs|ext4 SIZE]: $T/root.img, an ext4 root filesystem of SIZE
# (default 64 MiB: static busybox, torpor-suspend and its libraries, the workload,
# /sbin/init, /etc/os-release; more for the generator's image HOOK_INITRD, in
# /boot/initrd.img-KVER, where torpor-suspend checks it); with btrfs a 1 GiB btrfs one that also holds
# btrfs-progs, its fsid in ROOT_BTRFS_UUID (mkfs.btrfs picks it: -U refuses an
# fsid it has seen before); the filesystem's UUID in ROOT_UUID
rootfs_create() {
	_r=$T/rootfs
	rm -rf "$_r" "$T/root.img"
	mkdir -p "$_r/bin" "$_r/sbin" "$_r/usr/bin" "$_r/usr/sbin" "$_r/etc" "$_r/dev" \
		"$_r/proc" "$_r/sys" "$_r/run" "$_r/tmp" "$_r/mnt/t" || return 1
	cp /bin/busybox "$_r/bin/busybox" || return 1
	for _a in $(/bin/busybox --list); do
		[ "$_a" = busybox ] || [ "$_a" = init ] || ln -s busybox "$_r/bin/$_a"
	done
	root_init >"$_r/sbin/init" && chmod 755 "$_r/sbin/init" || return 1
	install -m 0755 "$OUT/workload" "$_r/usr/bin/workload" || return 1
	copy_exec "$BUILD/torpor-suspend" "$_r" /usr/sbin/torpor-suspend || return 1
	copy_exec "$BUILD/test/torpor-suspend" "$_r" /usr/sbin/torpor-suspend-test || return 1
	mkdir -p "$_r/var/lib" || return 1
	printf 'NAME="torpor test root"\nID=torpor-test\n' >"$_r/etc/os-release"
	# the generator's image, where torpor-suspend finds the next boot's initramfs
	_isize=0
	if [ -n "${HOOK_INITRD:-}" ]; then
		install -D -m 0644 "$HOOK_INITRD" "$_r/boot/initrd.img-$KVER" || return 1
		# and the decompressor it runs for it, as the system that built it has
		copy_exec "$(command -v zstd)" "$_r" /usr/bin/zstd || return 1
		_isize=$(($(stat -c %s "$HOOK_INITRD") / 1048576 + 8))
	fi
	if [ "${1:-}" = btrfs ]; then
		copy_exec "$(command -v btrfs)" "$_r" /usr/bin/btrfs || return 1
		truncate -s 1G "$T/root.img" || return 1
		if ! mkfs.btrfs -q -f -L torpor-root --rootdir "$_r" "$T/root.img" >"$T/mkfs.log" 2>&1; then
			cat "$T/mkfs.log"
			return 1
		fi
		ROOT_BTRFS_UUID=$(blkid -p -o value -s UUID "$T/root.img")
		ROOT_UUID=$ROOT_BTRFS_UUID
		[ -n "$ROOT_BTRFS_UUID" ]
		return
	fi
	# with a SIZE: 4 KiB blocks as on real disks (mke2fs picks 1 KiB below 512 MiB),
	# so that a swap file there starts on a page boundary
	if [ -n "${2:-}" ]; then
		mke2fs -q -t ext4 -b 4096 -L torpor-root -d "$_r" "$T/root.img" "$2" || return 1
	else
		mke2fs -q -t ext4 -L torpor-root -d "$_r" "$T/root.img" $((64 + _isize))M || return 1
	fi
	ROOT_UUID=$(blkid -p -o value -s UUID "$T/root.img")
	[ -n "$ROOT_UUID" ]
}

# swapdisk_create: $T/swap.img, a GPT disk with one swap partition (PARTUUID
# $SWAP_PARTUUID, PARTLABEL torpor-swap) whose swap area has UUID $SWAP_UUID
swapdisk_create() {
	rm -f "$T/swap.img" "$T/part.img"
	truncate -s "$SWAP_SIZE" "$T/swap.img" || return 1
	printf 'label: gpt\nstart=%s, type=0657FD6D-A4AB-43C4-84E5-0933C84B4F4F, uuid=%s, name=torpor-swap\n' \
		"$PART_START" "$SWAP_PARTUUID" | sfdisk -q "$T/swap.img" || return 1
	_sectors=$(sfdisk --dump "$T/swap.img" | sed -n 's/.*size= *\([0-9]*\),.*/\1/p')
	[ -n "$_sectors" ] || return 1
	# mkswap writes one page: make it on a sparse file of the partition's size
	truncate -s $((_sectors * 512)) "$T/part.img" &&
		mkswap -U "$SWAP_UUID" -L "$SWAP_LABEL" "$T/part.img" >/dev/null 2>&1 &&
		dd if="$T/part.img" of="$T/swap.img" bs=4096 count=1 seek=$((PART_START / 8)) \
			conv=notrunc 2>/dev/null && rm -f "$T/part.img"
}

# part_sig: the swap signature of the partition (SWAPSPACE2, or S2SUSPEND while a
# torpor image is there)
part_sig() {
	dd if="$T/swap.img" bs=1 skip=$((PART_START * 512 + 4086)) count=10 2>/dev/null | tr -d '\000'
}

# expect_part_sig SIGNATURE WHEN
expect_part_sig() {
	_sig=$(part_sig)
	if [ "$_sig" = "$1" ]; then
		echo "ok: swap signature is '$1' $2"
	else
		fail "swap signature is '$_sig' $2, expected '$1'"
	fi
}

# hboot N PARAMS...: boot the generator image $HOOK_INITRD once (lib-boot.sh's
# boot), with the root and swap disks persistent and one vCPU
hboot() { hook_boot boot "$@"; }

# hboot_cut N ERE PARAMS...: hboot, and a power cut once the console matches ERE
hboot_cut() { hook_boot boot_cut "$@"; }

hook_boot() {
	_hb=$1
	shift
	BOOT_INITRD=$HOOK_INITRD BOOT_ROOT_OPTS='' BOOT_SMP=1 BOOT_TIMEOUT=$HOOK_TIMEOUT \
		BOOT_CMDLINE="console=ttyS0 panic=-1 root=/dev/vda rw torpor_mib=$HOOK_MIB $HOOK_CMDLINE" \
		"$_hb" "$@"
}

# root_sig PAGE: the swap signature at PAGE of the root disk (a swap file's header)
root_sig() {
	dd if="$T/root.img" bs=1 skip=$(($1 * 4096 + 4086)) count=10 2>/dev/null | tr -d '\000'
}

# btrfs_mounted_before N: the first btrfs mount message of /dev/vda before "=== resumed"
btrfs_mounted_before() {
	awk '/^[^ ]* === resumed$/ { exit } /BTRFS [a-z]* \(device vda\)/ { sub(/^[^ ]* /, ""); print; exit }' \
		"$T/boot$1.console"
}

# root_mounted_before N: the first btrfs or ext4 mount message of /dev/vda before
# "=== resumed"
root_mounted_before() {
	awk '/^[^ ]* === resumed$/ { exit }
		/BTRFS [a-z]* \(device vda\)|EXT4-fs \(vda\)/ { sub(/^[^ ]* /, ""); print; exit }' \
		"$T/boot$1.console"
}

# expect_restore_first N: boot N restored the image, and nothing mounted the root
# filesystem before: no ext4 mount message before "=== resumed", and the on-disk
# superblock (mount count, mount time) is the one seen when hibernating
expect_restore_first() {
	expect "$1" resumed token-ok counter-ok data-ok root-untouched
	expect_not "$1" normal-boot token-bad counter-bad data-bad hibernate-failed \
		root-mounted-before-restore
	_m=$(awk '/^[^ ]* === resumed$/ { exit } /EXT4-fs \(vda\)/ { sub(/^[^ ]* /, ""); print; exit }' \
		"$T/boot$1.console")
	if [ -z "$_m" ]; then
		echo "ok: boot $1 did not mount /dev/vda before the restore"
	else
		fail "boot $1 mounted /dev/vda before the restore: $_m"
	fi
}

# hook_time N WHAT: seconds between torpor.debug's "torpor: WHAT: start" and
# "torpor: WHAT: done" kernel-log lines of boot N
hook_time() {
	awk -v s="torpor: $2: start" -v d="torpor: $2: done" '
		function ts(line) { sub(/^[^[]*\[ */, "", line); sub(/\].*/, "", line); return line + 0 }
		index($0, s) && a == "" { a = ts($0) }
		index($0, d) && a != "" { printf "%.3f", ts($0) - a; exit }' "$T/boot$1.console"
}

# the systemd images' command line: systemd's status lines name the units
# ("Starting torpor-restore.service...") instead of describing them
UNIT_CMDLINE="systemd.status_unit_format=name"

# unit_line N TEXT: the console line number of boot N's first systemd status line
# holding TEXT (after the host's timestamp), or nothing
unit_line() {
	awk -v s="$2" '{ sub(/^[^ ]* /, "") } index($0, s) { print NR; exit }' "$T/boot$1.console"
}

# unit_time N: seconds (the host's clock) from systemd's "Starting
# torpor-restore.service" to its "Finished torpor-restore.service" in boot N
unit_time() {
	awk '/Starting torpor-restore\.service/ && a == "" { a = $1 }
		/Finished torpor-restore\.service/ && a != "" { printf "%.3f", $1 - a; exit }' \
		"$T/boot$1.console"
}

# expect_unit_order N restore|boot: boot N ran torpor-restore.service, and before
# /sysroot was checked or mounted: restore: it started, and no sysroot.mount or
# systemd-fsck-root line came before "=== resumed"; boot: it finished before
# either started
expect_unit_order() {
	_start=$(unit_line "$1" "Starting torpor-restore.service")
	_sysroot=$(unit_line "$1" "sysroot.mount")
	if [ -z "$_start" ]; then
		fail "boot $1: no 'Starting torpor-restore.service' on the console"
		return
	fi
	echo "ok: boot $1 started torpor-restore.service (console line $_start)"
	if [ "$2" = restore ]; then
		_end=$(unit_line "$1" "=== resumed")
		_fsck=$(unit_line "$1" "systemd-fsck-root.service")
		if [ -n "$_end" ] && { [ -z "$_sysroot" ] || [ "$_sysroot" -gt "$_end" ]; } &&
			{ [ -z "$_fsck" ] || [ "$_fsck" -gt "$_end" ]; }; then
			echo "ok: boot $1 restored (line $_end) with no sysroot.mount or root fsck before"
		else
			fail "boot $1: sysroot.mount (line '$_sysroot') or systemd-fsck-root (line '$_fsck') before '=== resumed' (line '$_end')"
		fi
	else
		_end=$(unit_line "$1" "Finished torpor-restore.service")
		if [ -n "$_end" ] && [ -n "$_sysroot" ] && [ "$_end" -lt "$_sysroot" ]; then
			echo "ok: boot $1 finished torpor-restore.service (line $_end) before sysroot.mount (line $_sysroot)"
		else
			fail "boot $1: 'Finished torpor-restore.service' (line '$_end') not before sysroot.mount (line '$_sysroot')"
		fi
		# the root's fsck too, when the image has it
		_fsck=$(unit_line "$1" "Starting systemd-fsck-root.service")
		if [ -z "$_fsck" ] || [ -z "$_end" ]; then
			:
		elif [ "$_end" -lt "$_fsck" ]; then
			echo "ok: boot $1 finished torpor-restore.service before systemd-fsck-root.service (line $_fsck)"
		else
			fail "boot $1: systemd-fsck-root.service (line $_fsck) started before torpor-restore.service finished (line $_end)"
		fi
	fi
}

# unit_nodevice N WAIT BOUND: boot N names a resume device no disk carries, with
# torpor.wait=WAIT: torpor-restore.service says it did not appear and finishes
# within BOUND seconds (the host's clock: a bound, not a measurement), and the
# boot goes on
unit_nodevice() {
	hboot "$1" "resume=UUID=$NODEV_UUID" torpor.wait="$2"
	note_boot "$1"
	expect "$1" normal-boot poweroff
	expect_not "$1" resumed
	expect_line "$1" "resume device 'UUID=$NODEV_UUID' did not appear"
	expect_unit_order "$1" boot
	_u=$(unit_time "$1")
	note "missing resume device, torpor.wait=$2: torpor-restore.service ran ${_u:-?} s"
	if [ -n "$_u" ] && awk -v u="$_u" -v b="$3" 'BEGIN { exit !(u <= b) }'; then
		echo "ok: torpor-restore.service finished in $_u s with a missing resume device (bound $3 s)"
	else
		fail "torpor-restore.service took '${_u:-?}' s with a missing resume device, more than $3 s (torpor.wait=$2)"
	fi
}

# note_hook_time N WHAT: note the time the hook took, or fail when it is missing
note_hook_time() {
	if [ "$2" = unit ]; then
		_h=$(unit_time "$1")
	else
		_h=$(hook_time "$1" "$2")
	fi
	if [ -z "$_h" ]; then
		fail "boot $1: no 'torpor: $2: start/done' lines (torpor.debug)"
		return
	fi
	echo "ok: the $2 hook took $_h s with no image"
	note "the $2 hook added $_h s to a boot with no image"
}

# hook_roundtrip N RESUME_SPEC: boots N and N+1: hibernate from the real root, then
# restore through the generator's initramfs
hook_roundtrip() {
	hboot "$1" "resume=$2" torpor_test=hibernate
	note_boot "$1"
	expect "$1" normal-boot workload-started hibernating
	expect_not "$1" resumed hibernate-failed swapon-failed
	expect_part_sig S2SUSPEND "after hibernating"
	_next=$(($1 + 1))
	hboot "$_next" "resume=$2"
	note "boot $_next: $(cat "$T/boot$_next.took") s, back in the hibernated system at $(stamp "$_next" resumed) s"
	expect_restore_first "$_next"
	expect_part_sig SWAPSPACE2 "after the restore"
}

# hook_use itools|itools-nobin|itools-btrfs|itools-zram-btrfs|itools-zram|dracut-shell|dracut-systemd: build (or reuse)
# that generator's
# image for this kernel, and make a fresh root filesystem and swap disk
hook_use() {
	HOOK_INITRD=$OUT/$KLABEL/$1.img
	_t0=$(now)
	# scenarios that run side by side (run.sh) build or reuse one image in turn
	exec 9>"$HOOK_INITRD.lock"
	flock 9
	case $1 in
	itools | itools-nobin)
		HOOK_CMDLINE=
		HOOK_WHAT=local-top
		if [ "$1" = itools ]; then
			itools_image "$HOOK_INITRD"
		else
			itools_image "$HOOK_INITRD" nobin
		fi
		;;
	itools-btrfs)
		HOOK_CMDLINE=
		HOOK_WHAT=local-top
		itools_image "$HOOK_INITRD" btrfs
		;;
	itools-zram-btrfs)
		HOOK_CMDLINE=
		HOOK_WHAT=local-top
		itools_image "$HOOK_INITRD" btrfs zram
		;;
	itools-zram)
		HOOK_CMDLINE=
		HOOK_WHAT=local-top
		itools_image "$HOOK_INITRD" zram
		;;
	mkinitcpio)
		HOOK_CMDLINE=
		HOOK_WHAT=mkinitcpio
		mkinitcpio_image "$HOOK_INITRD"
		;;
	mkinitcpio-systemd)
		HOOK_CMDLINE=$UNIT_CMDLINE
		HOOK_WHAT=unit
		mkinitcpio_image "$HOOK_INITRD" systemd
		;;
	dracut-*)
		HOOK_CMDLINE="rd.shell=0 rd.emergency=poweroff rd.retry=6"
		HOOK_WHAT=pre-mount
		if [ "$1" = dracut-systemd ]; then
			HOOK_CMDLINE="$HOOK_CMDLINE $UNIT_CMDLINE"
			HOOK_WHAT=unit
		fi
		dracut_image "$HOOK_INITRD" "${1#dracut-}"
		;;
	esac >"$T/image.log" 2>&1 || {
		exec 9>&-
		sed 's/^/image: /' "$T/image.log"
		return 1
	}
	exec 9>&-
	echo "## $1 image ready in $(since "$_t0") s: $HOOK_INITRD ($(du -h "$HOOK_INITRD" | cut -f1))"
	case $1 in
	*-btrfs) rootfs_create btrfs ;;
	itools-zram) rootfs_create ext4 384M ;;
	*) rootfs_create ;;
	esac && swapdisk_create
}

# hook_noimage N RESUME_SPEC: boot N finds no image, boots normally, and says how
# long the hook took (torpor.debug)
hook_noimage() {
	hboot "$1" "resume=$2" torpor.debug
	note_boot "$1"
	expect "$1" normal-boot poweroff
	expect_not "$1" resumed
	expect_part_sig SWAPSPACE2 "after a boot with no image"
	note_hook_time "$1" "$HOOK_WHAT"
}

# hook_noresume N RESUME_SPEC: boot N hibernates, boot N+1 has noresume: it boots
# normally and leaves the image invalidated
hook_noresume() {
	hboot "$1" "resume=$2" torpor_test=hibernate
	note_boot "$1"
	expect "$1" normal-boot hibernating
	expect_not "$1" resumed hibernate-failed
	expect_part_sig S2SUSPEND "after hibernating"
	_next=$(($1 + 1))
	hboot "$_next" "resume=$2" noresume
	note_boot "$_next"
	expect "$_next" normal-boot poweroff
	expect_not "$_next" resumed
	expect_part_sig SWAPSPACE2 "after booting with noresume"
}

# hook_scenario HOST STEP RESUME_SPEC: the whole of a scenario that builds HOST's
# image (hook_use HOST) and runs STEP (hook_roundtrip, hook_noimage or
# hook_noresume) from boot 1 with RESUME_SPEC; it ends with test_main
hook_scenario() {
	_hs_host=$1
	_hs_step=$2
	_hs_spec=$3
	# shellcheck disable=SC2317 # called by test_main
	test_setup() { hook_use "$_hs_host"; }
	# shellcheck disable=SC2317 # called by test_main
	test_run() { "$_hs_step" 1 "$_hs_spec"; }
	test_main
}

# mkinitcpio_busybox: Debian's dynamic busybox, extracted (never installed) into the
# cache: busybox-static prefers its own applets over PATH, and its modprobe cannot
# read the binary modules.dep that mkinitcpio keeps
mkinitcpio_busybox() {
	_c=${TORPOR_CACHE:-$TOP/.cache}/busybox-dynamic
	if [ ! -x "$_c/bin/busybox" ]; then
		mkdir -p "$_c.deb" || return 1
		(cd "$_c.deb" && apt-get download -q busybox >/dev/null) || return 1
		dpkg-deb -x "$_c.deb"/busybox_*.deb "$_c" || return 1
	fi
	echo "$_c/bin/busybox"
}

# mkinitcpio_debian FILE...: what mkinitcpio's systemd and sd-vconsole hooks take
# from an Arch system, as this Debian host has it, in the copies FILE: sulogin,
# swapon and swapoff in /usr/sbin; what systemd 252 or Debian does not ship
# (systemd 255's executor, 257's validatefs, systemd-stub's tmpfiles, the vconsole
# helper, kbd's tools when not installed) left out.  Each change is printed.
mkinitcpio_debian() {
	for _b in sulogin swapon swapoff; do
		if [ -e "/usr/bin/$_b" ] || [ ! -e "/usr/sbin/$_b" ]; then
			continue
		fi
		echo "mkinitcpio: on this host: /usr/sbin/$_b for /usr/bin/$_b"
		sed -i "s|/usr/bin/$_b\b|/usr/sbin/$_b|" "$@" || return 1
	done
	for _f in /usr/lib/systemd/systemd-executor /usr/lib/systemd/systemd-validatefs \
		/usr/lib/tmpfiles.d/20-systemd-stub.conf /etc/udev/hwdb.bin \
		/usr/lib/systemd/systemd-vconsole-setup; do
		[ ! -e "$_f" ] || continue
		echo "mkinitcpio: not on this host, left out: $_f"
		sed -i "\\|[ \"]${_f}[ \"]*\\\\\\?\$|d" "$@" || return 1
	done
	for _b in loadkeys setfont; do
		! command -v "$_b" >/dev/null || continue
		echo "mkinitcpio: not on this host, left out: $_b"
		sed -i "/add_binary $_b\$/d" "$@" || return 1
	done
}

# mkinitcpio_image OUT [systemd]: an image built by the mkinitcpio checkout in
# MKINITCPIO_SRC (copied, its build-time paths filled in) with the hooks from the
# staged install: HOOKS=(base torpor ...), where a test-only hook powers off
# instead of a shell; with systemd HOOKS=(base systemd ... sd-torpor ...), as an
# Arch system with systemd in the initramfs has them
mkinitcpio_image() {
	stale "$1" || return 0
	_w=$OUT/$KLABEL/mkinitcpio${2:+-$2}
	rm -rf "$_w"
	mkdir -p "$_w/src" "$_w/test/install" "$_w/test/hooks" || return 1
	hook_stage "$_w/stage" || return 1
	_bb=$(mkinitcpio_busybox) || return 1
	(cd "$MKINITCPIO_SRC" && tar -c --exclude=.git .) | tar -x -C "$_w/src" || return 1
	sed -i -e "s|@BINDIR@|/usr/sbin:/usr/bin:/sbin|g" -e "s|@INITCPIO_LIBDIR@|$_w/src|g" \
		-e "s|@INITCPIO_SYSCONFDIR@|$_w/etc|g" -e "s|@SYSCONFDIR@|$_w/etc|g" \
		-e "s|@UDEVD_PATH@|/usr/lib/systemd/systemd-udevd|g" \
		-e "s|@TMPFILES_PATH@|/usr/bin/systemd-tmpfiles|g" -e "s|@VERSION@|torpor-test|g" \
		"$_w/src/mkinitcpio" "$_w/src/functions" "$_w/src/install/"* "$_w/src/hooks/"* || return 1
	sed -i "s|/usr/lib/initcpio/busybox|$_bb|g" "$_w/src/install/base" || return 1
	printf '#!/bin/bash\nbuild() { add_runscript; }\nhelp() { echo "test only: power off instead of a shell"; }\n' \
		>"$_w/test/install/torpor-test-poweroff"
	printf '#!/usr/bin/ash\nrun_emergencyhook() { echo "=== emergency"; poweroff -f; }\n' \
		>"$_w/test/hooks/torpor-test-poweroff"
	_hooks='base torpor torpor-test-poweroff'
	if [ "${2:-}" = systemd ]; then
		_hooks='base systemd autodetect modconf kms keyboard sd-vconsole block sd-torpor filesystems fsck'
		mkinitcpio_debian "$_w/src/install/systemd" "$_w/src/install/sd-vconsole" || return 1
	fi
	printf '%s\n' 'MODULES=(virtio_pci virtio_blk ext4)' 'BINARIES=()' 'FILES=()' \
		"HOOKS=($_hooks)" 'COMPRESSION=zstd' >"$_w/mkinitcpio.conf"
	TORPOR_RESUME_BIN=$_w/stage$HOOK_LIBEXECDIR/torpor-resume \
		TORPOR_UNIT_DIR=$_w/stage/usr/lib/systemd/system \
		bash "$_w/src/mkinitcpio" -c "$_w/mkinitcpio.conf" -D "$_w/stage/usr/lib/initcpio" \
		-D "$_w/test" -D "$_w/src" -k "$VMLINUZ" -r "$KTREE" -g "$1.tmp" || return 1
	mv "$1.tmp" "$1"
}

# ktime N TEXT: the kernel's timestamp (seconds since it started) of the first
# kernel-log line of boot N that holds TEXT (the "[ seconds]" just before TEXT: the
# console may have other output before it on the same line)
ktime() {
	awk -v s="$2" '{ sub(/^[^ ]* /, "") }
		(p = index($0, s)) > 1 {
			pre = substr($0, 1, p - 1)
			if (match(pre, /\[ *[0-9]+\.[0-9]+\] *$/)) {
				t = substr(pre, RSTART + 1); sub(/^ */, "", t); printf "%.3f", t + 0; exit
			}
		}' "$T/boot$1.console"
}

# disk_to_hook N: kernel seconds from the swap disk's partition scan ("vdb: vdb1", the
# last disk to appear) to the end of torpor's boot hook ("torpor: WHAT: done", with
# torpor.debug) in boot N: the waits for the resume device (the host's and
# torpor-resume's), without the kernel's start before it or the root's mount after
disk_to_hook() {
	_d=$(ktime "$1" "vdb: vdb1")
	_h=$(ktime "$1" "torpor: $HOOK_WHAT: done")
	[ -n "$_d" ] && [ -n "$_h" ] && sub "$_h" "$_d"
}

# torpor_wait_time N: kernel seconds boot N spent in torpor's waits: from dracut's
# initqueue starting to wait for the resume device (torpor.debug's "torpor: initqueue:
# start", shell mode) or else from the start of torpor's hook, to the hook's end
torpor_wait_time() {
	_s=$(ktime "$1" "torpor: initqueue: start")
	[ -n "$_s" ] || _s=$(ktime "$1" "torpor: $HOOK_WHAT: start")
	_h=$(ktime "$1" "torpor: $HOOK_WHAT: done")
	[ -n "$_s" ] && [ -n "$_h" ] && sub "$_h" "$_s"
}

# hook_nodevice N WAIT BOUND: boot N has the swap area as resume device (no image),
# boot N+1 a resume device that never appears, both with torpor.wait=WAIT.  In boot
# N+1 torpor's hook must be done within BOUND seconds (kernel time) of the swap
# disk's appearance, and say the device did not appear; the difference to boot N is
# what the missing device cost.
hook_nodevice() {
	hboot "$1" "resume=UUID=$SWAP_UUID" torpor.wait="$2" torpor.debug
	note_boot "$1"
	expect "$1" normal-boot poweroff
	_next=$(($1 + 1))
	hboot "$_next" "resume=UUID=$NODEV_UUID" torpor.wait="$2" torpor.debug
	note_boot "$_next"
	expect "$_next" normal-boot poweroff
	expect_not "$_next" resumed
	expect_line "$_next" "resume device 'UUID=$NODEV_UUID' did not appear"
	_a=$(disk_to_hook "$1")
	_b=$(disk_to_hook "$_next")
	if [ -z "$_a" ] || [ -z "$_b" ]; then
		fail "no kernel timestamps of 'vdb: vdb1' and 'torpor: $HOOK_WHAT: done' (boot $1: '$_a', boot $_next: '$_b')"
		return
	fi
	_cost=$(sub "$_b" "$_a")
	note "missing resume device, torpor.wait=$2: swap disk to end of torpor's hook $_b s (kernel time), $_a s with the device"
	note "torpor's waits: $(torpor_wait_time "$_next") s with a missing resume device, $(torpor_wait_time "$1") s with it"
	if awk -v c="$_b" -v b="$3" 'BEGIN { exit !(c <= b) }'; then
		echo "ok: torpor's hook done $_b s after the swap disk appeared with a missing resume device (bound $3 s); $_a s with it: costs $_cost s"
	else
		fail "torpor's hook done $_b s after the swap disk appeared with a missing resume device, more than $3 s (torpor.wait=$2)"
	fi
}

HOOK_IMG=/var/lib/torpor/image

# printed_page N: the resume_offset= that --setup-image-file printed in boot N
printed_page() {
	sed -n 's|.*resume=UUID=[-0-9a-f]* resume_offset=\([0-9]*\).*|\1|p' "$T/boot$1.console" |
		head -n 1
}

# expect_root_sig PAGE SIGNATURE WHEN
expect_root_sig() {
	_sig=$(root_sig "$1")
	if [ "$_sig" = "$2" ]; then
		echo "ok: page $1 of the root disk (the image file's header) holds $2 $3"
	else
		fail "page $1 of the root disk holds '$_sig' $3, expected $2"
	fi
}

# hook_imagefile: the boots of 18 and 19 (after hook_use itools-zram-btrfs or
# itools-zram): the root's UUID in ROOT_UUID.  Boot 1 only makes the file:
# torpor-suspend refuses to hibernate into it until /proc/cmdline names it.
hook_imagefile() {
	resume="resume=UUID=$ROOT_UUID"
	# docs/image-file.md's order: make the file, put the printed line on the command line, reboot
	hboot 1 "$resume" torpor_test=imagefile-setup torpor_imagefile=256M
	note_boot 1
	expect 1 normal-boot imagefile-made
	expect_not 1 imagefile-failed
	page=$(printed_page 1)
	if [ -z "$page" ]; then
		fail "boot 1: torpor-suspend --setup-image-file printed no resume_offset="
		return
	fi
	echo "ok: --setup-image-file printed resume_offset=$page"

	hboot 2 "$resume resume_offset=$page" torpor_test=hibernate torpor_zram=256 torpor_imagefile=256M torpor_verbose=1
	note_boot 2
	expect 2 normal-boot imagefile-made workload-started hibernating
	expect_not 2 resumed hibernate-failed swapon-failed imagefile-failed
	grep -E "image file|swapon|swapoff|NOCOW|nocow" "$T/boot2.console" | sed 's/^/# /'
	expect_root_sig "$page" S2SUSPEND "after hibernating"

	hboot 3 "$resume resume_offset=$page"
	note "boot 3: $(cat "$T/boot3.took") s, back in the hibernated system at $(stamp 3 resumed) s"
	expect 3 resumed token-ok counter-ok data-ok imagefile-inactive zram-active
	expect_not 3 normal-boot token-bad counter-bad data-bad hibernate-failed imagefile-active \
		zram-inactive
	_m=$(root_mounted_before 3)
	if [ -z "$_m" ]; then
		echo "ok: boot 3 did not mount the root before the restore"
	else
		fail "boot 3 mounted the root before the restore: $_m"
	fi
	expect_root_sig "$page" SWAPSPACE2 "after the restore"
	grep -E "swapon|swapoff" "$T/boot3.console" | sed 's/^/# /'
	note_torpor

	# the power goes while the image is written: the file is active swap then
	hboot_cut 4 "^torpor: test: stalling" "$resume resume_offset=$page" torpor_test=hibernate \
		torpor_zram=256 torpor_imagefile=256M torpor_stall=30
	expect 4 workload-started hibernating
	expect_not 4 resumed hibernate-failed poweroff
	# the kernel names the path it was given: torpor-suspend gives /proc/self/fd/N
	expect_line 4 "Adding [0-9]*k swap on (/proc/self/fd/[0-9]+|$HOOK_IMG)\\." \
		"the image file was active swap at the cut"
	expect_root_sig "$page" SWAPSPACE2 "after the power cut (no image was committed)"

	hboot 5 "$resume resume_offset=$page" torpor_imagefile=256M
	note_boot 5
	expect 5 normal-boot imagefile-inactive poweroff
	expect_not 5 resumed imagefile-active
	expect_line 5 "torpor: ready to hibernate to image file '$HOOK_IMG' \\([0-9]* MiB, activated only while hibernating\\): resume_offset=$page\$"
	expect_line 5 "# torpor-suspend --check: status 0"
	# a resume_offset= that is not the file's: refused before anything is activated
	expect_line 5 "torpor: resume_offset=1 does not match image file '$HOOK_IMG': it begins at page $page"
	expect_line 5 "# torpor-suspend --resume-offset=1: status 1"
	expect_no_line 5 "Adding [0-9]*k swap on (/proc/self/fd/[0-9]+|$HOOK_IMG)"
	expect_root_sig "$page" SWAPSPACE2 "after the boot that followed the power cut"
}
