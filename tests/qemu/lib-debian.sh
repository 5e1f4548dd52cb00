# SPDX-License-Identifier: GPL-2.0-only
# A real Debian system for the systemd scenarios (7x): Debian 13 (trixie, systemd
# 257, kernel 6.12) by default, Debian 12 (bookworm, systemd 252, kernel 6.1) on
# request.  A root tree built once per suite with mmdebstrap from Debian's archive
# and cached, then per run a copy into which torpor is installed FROM ITS .deb with
# dpkg -i (so the package's initramfs-tools trigger rebuilds the guest's own
# initramfs), made into an ext4 disk; the guest boots its own kernel and initramfs.
# Sourced after lib.sh.
#
# Knobs: TORPOR_DEBIAN_SUITE (trixie or bookworm; a scenario that sets DEBIAN_SUITE=
# on a line of its own before sourcing this file keeps its suite), TORPOR_CACHE
# (default .cache/), TORPOR_DEB (the .deb to install, default the newest
# build/deb/torpor_*.deb; built with `make deb` when there is none).

# debian_use SUITE: the suite the functions below build and boot
debian_use() {
	DEBIAN_SUITE=$1
	case $DEBIAN_SUITE in
	bookworm) DEBIAN_NAME="Debian 12" DEBIAN_DIR=debian12 ;;
	trixie) DEBIAN_NAME="Debian 13" DEBIAN_DIR=debian13 ;;
	*) DEBIAN_NAME="Debian $DEBIAN_SUITE" DEBIAN_DIR=debian-$DEBIAN_SUITE ;;
	esac
	DEBIAN_MIRRORS="deb http://deb.debian.org/debian $DEBIAN_SUITE main
deb http://deb.debian.org/debian $DEBIAN_SUITE-updates main
deb http://deb.debian.org/debian-security $DEBIAN_SUITE-security main"
}

# debian_suites SCRIPT...: the suites the 7x scripts among SCRIPT... boot, one a line
debian_suites() {
	for _s in "$@"; do
		case $_s in
		*/7[0-9]-*.sh | 7[0-9]-*.sh) ;;
		*) continue ;;
		esac
		_su=$(sed -n 's/^DEBIAN_SUITE=\([a-z]*\)$/\1/p' "$_s" | head -n 1)
		echo "${_su:-${TORPOR_DEBIAN_SUITE:-trixie}}"
	done | sort -u
}

debian_use "${DEBIAN_SUITE:-${TORPOR_DEBIAN_SUITE:-trixie}}"
# what the guest needs beyond the essential packages: an init, udev, logind's
# D-Bus, the kernel and its initramfs generator; liblz4-1 is torpor's one library;
# systemd-zram-generator for the zram-only guests (73, 74; the others switch it off)
DEBIAN_PACKAGES="systemd systemd-sysv udev dbus linux-image-amd64 initramfs-tools liblz4-1 zstd systemd-zram-generator"
# initramfs-tools builds a MODULES=list image with the guest's three disk and
# filesystem drivers: seconds instead of a minute for MODULES=most, each time
# (a local choice a user can make too; the generator and torpor's hook are the real ones)
DEBIAN_ITOOLS_CONF="MODULES=list"
DEBIAN_ITOOLS_MODULES="virtio_pci virtio_blk ext4"

# debian_cache_key: names the cached tree after what went into it, so a changed
# package list or mirror list builds a new one
debian_cache_key() {
	printf '%s\n' "$DEBIAN_SUITE" "$DEBIAN_PACKAGES" "$DEBIAN_MIRRORS" \
		"$DEBIAN_ITOOLS_CONF" "$DEBIAN_ITOOLS_MODULES" | sha256sum | cut -c1-12
}

# debian_tree: print the cached root tree's path, building it first when missing
# (mmdebstrap --variant=apt, no recommends; about 700 MiB).  Progress to stderr.
debian_tree() {
	_dc=${TORPOR_CACHE:-$TOP/.cache}/$DEBIAN_DIR-$(debian_cache_key)
	if [ -f "$_dc/done" ]; then
		echo "$_dc/root"
		return 0
	fi
	# one builder at a time (scenarios run side by side); the lock goes with the shell
	mkdir -p "${_dc%/*}" || return 1
	(
		exec 9>"$_dc.lock" && flock 9 || exit 1
		[ -f "$_dc/done" ] || debian_tree_build "$_dc" >&2
	) || return 1
	[ -f "$_dc/done" ] || return 1
	echo "$_dc/root"
}

# debian_tree_build DIR: build the root in DIR (debian_tree holds the lock)
debian_tree_build() {
	_dc=$1
	if ! command -v mmdebstrap >/dev/null 2>&1; then
		echo "lib-debian: mmdebstrap not found (install it with: sh tests/deps.sh systemd)" >&2
		return 1
	fi
	rm -rf "$_dc"
	mkdir -p "$_dc" || return 1
	_t0=$(now)
	echo "lib-debian: building the $DEBIAN_NAME root in $_dc (once)" >&2
	# shellcheck disable=SC2086 # the package list is split on purpose
	_inc=$(echo $DEBIAN_PACKAGES | tr ' ' ',')
	# the mirror list is one argument a line
	_old_ifs=$IFS
	IFS='
'
	# shellcheck disable=SC2086 # split on newlines only
	set -- $DEBIAN_MIRRORS
	IFS=$_old_ifs
	# before any package: initramfs-tools' settings (conf.d and a hook, no conffile)
	cat >"$_dc/setup-hook.sh" <<-EOF
	set -e
	mkdir -p "\$1/etc/initramfs-tools/conf.d" "\$1/etc/initramfs-tools/hooks"
	echo '$DEBIAN_ITOOLS_CONF' >"\$1/etc/initramfs-tools/conf.d/torpor-test.conf"
	printf '%s\\n' '#!/bin/sh' '[ "\$1" = prereqs ] && exit 0' \\
		'. /usr/share/initramfs-tools/hook-functions' 'manual_add_modules $DEBIAN_ITOOLS_MODULES' \\
		>"\$1/etc/initramfs-tools/hooks/torpor-test-modules"
	chmod 0755 "\$1/etc/initramfs-tools/hooks/torpor-test-modules"
	EOF
	if ! mmdebstrap --variant=apt --include="$_inc" --aptopt='Acquire::Retries "3"' \
		--setup-hook="sh $_dc/setup-hook.sh \"\$1\"" "$DEBIAN_SUITE" "$_dc/root" "$@" >"$_dc/mmdebstrap.log" 2>&1; then
		tail -n 30 "$_dc/mmdebstrap.log" >&2
		echo "lib-debian: mmdebstrap failed, see $_dc/mmdebstrap.log" >&2
		return 1
	fi
	# apt's downloaded packages are of no use in the guest
	rm -rf "$_dc/root/var/cache/apt/archives/"*.deb "$_dc/root/var/lib/apt/lists/"*_Packages
	echo "lib-debian: built in $(since "$_t0") s" >&2
	: >"$_dc/done"
}

# debian_deb: print the torpor .deb to install: TORPOR_DEB, else build/deb's, built
# again with make deb when a source of the package is newer (or there is none)
debian_deb() {
	if [ -n "${TORPOR_DEB:-}" ]; then
		echo "$TORPOR_DEB"
		return 0
	fi
	mkdir -p "$TOP/build" || return 1
	# one make deb at a time (scenarios run side by side); the lock goes with the shell
	(
		exec 9>"$TOP/build/deb.lock" && flock 9 || exit 1
		set -- "$TOP"/build/deb/torpor_*.deb
		if [ ! -f "$1" ] || [ -n "$(cd "$TOP" && find Makefile core suspend resume hook \
			dracut-module systemd man debian -newer "$1" -type f | head -n 1)" ]; then
			make -C "$TOP" --no-print-directory deb >"$T/deb.log" 2>&1 || {
				tail -n 20 "$T/deb.log" >&2
				exit 1
			}
		fi
	) || return 1
	set -- "$TOP"/build/deb/torpor_*.deb
	[ -f "$1" ] || return 1
	echo "$1"
}

# in_chroot ROOT COMMAND...: run COMMAND in ROOT with /proc, /sys and /dev mounted,
# in a mount namespace of its own (nothing stays mounted on the host)
in_chroot() {
	_cr=$1
	shift
	# shellcheck disable=SC2016 # expanded by the inner sh
	unshare -m sh -c 'r=$1; shift
		mount -t proc proc "$r/proc" && mount -t sysfs sys "$r/sys" &&
		mount --rbind /dev "$r/dev" && exec chroot "$r" "$@"' sh "$_cr" "$@"
}

SD_SWAP_UUID=5a0c3e27-8d4b-4f61-9b2e-1c7a9e0d4f13
# the kernel command line's resume= (73 has none until the guest made its image file)
SD_RESUME="resume=UUID=$SD_SWAP_UUID"

# sd_setup [zram|resume-conf]: the scenario's disks: a copy of the cached root with
# torpor's .deb installed by dpkg -i, the guest driver and its service, and a swap
# disk.  With zram: zram (systemd-zram-generator's default zram0) is the only swap,
# the second disk holds no swap area, and the root has room for an image file of
# half the guest's memory; otherwise zram is off (an empty zram-generator.conf).
# With resume-conf: what Debian's installer leaves, RESUME=UUID= of the swap area in
# /etc/initramfs-tools/conf.d/resume, written before dpkg -i so that the package's
# initramfs has it (for a kernel command line without resume=)
sd_setup() {
	_zram=
	_resume_conf=
	case ${1:-} in
	zram) _zram=zram ;;
	resume-conf) _resume_conf=y ;;
	esac
	_t0=$(now)
	_tree=$(debian_tree) || return 1
	note "$DEBIAN_NAME ($DEBIAN_SUITE) root: $(since "$_t0") s (cached in ${_tree%/root})"
	_t1=$(now)
	_deb=$(debian_deb) || {
		fail "no torpor .deb (make deb failed, see $T/deb.log)"
		return 1
	}
	_r=$T/rootfs
	rm -rf "$_r"
	cp -a "$_tree" "$_r" || return 1
	cp "$_deb" "$_r/tmp/torpor.deb" || return 1
	# the initramfs as it was before torpor: for a boot without torpor (73)
	set -- "$_r"/boot/initrd.img-*
	cp "$1" "$T/initrd-stock.img" || return 1
	if [ -n "$_resume_conf" ]; then
		echo "RESUME=UUID=$SD_SWAP_UUID" >"$_r/etc/initramfs-tools/conf.d/resume" || return 1
	fi
	# dpkg -i runs initramfs-tools' trigger: the guest's initramfs gets torpor's hook
	if ! in_chroot "$_r" dpkg -i /tmp/torpor.deb >"$T/dpkg.log" 2>&1; then
		sed 's/^/# dpkg: /' "$T/dpkg.log"
		fail "dpkg -i torpor.deb failed in the guest's root"
		return 1
	fi
	rm -f "$_r/tmp/torpor.deb"
	echo "## dpkg -i: $(tr '\n' ' ' <"$T/dpkg.log")"
	# each kernel's initramfs built once (no trigger building the newest again)
	_gen=$(grep -c '^update-initramfs: Generating ' "$T/dpkg.log")
	set -- "$_r"/boot/vmlinuz-*
	if [ "$_gen" -eq $# ]; then
		echo "ok: dpkg -i built the initramfs of each of the $# kernels once"
	else
		fail "dpkg -i built $_gen initramfs images for $# kernels (each once expected)"
	fi
	set -- "$_r"/boot/vmlinuz-*
	cp "$1" "$T/vmlinuz" || return 1
	set -- "$_r"/boot/initrd.img-*
	cp "$1" "$T/initrd.img" || return 1
	if lsinitramfs "$T/initrd.img" | grep -q 'scripts/local-top/torpor$' &&
		lsinitramfs "$T/initrd.img" | grep -q 'lib/torpor/torpor-resume$'; then
		echo "ok: the guest's initramfs holds torpor's boot script and torpor-resume"
	else
		fail "the guest's initramfs lacks torpor's boot script or torpor-resume"
	fi
	if [ -n "$_resume_conf" ]; then
		rm -rf "$T/initrd.x"
		unmkinitramfs "$T/initrd.img" "$T/initrd.x" 2>/dev/null
		# one archive, or early ones then main/
		_rc=$(cat "$T/initrd.x/conf/conf.d/resume" "$T/initrd.x/main/conf/conf.d/resume" 2>/dev/null)
		rm -rf "$T/initrd.x"
		if [ "$_rc" = "RESUME=UUID=$SD_SWAP_UUID" ]; then
			echo "ok: the guest's initramfs has initramfs-tools' $_rc"
		else
			fail "the guest's initramfs has '$_rc' in conf/conf.d/resume, expected RESUME=UUID=$SD_SWAP_UUID"
		fi
	fi
	install -D -m 0755 "$OUT/workload" "$_r/usr/local/bin/workload" &&
		install -D -m 0755 "$QDIR/guest/systemd/torpor-systemd-test" "$_r/usr/local/sbin/torpor-systemd-test" &&
		install -D -m 0644 "$QDIR/guest/systemd/torpor-test.service" \
			"$_r/etc/systemd/system/torpor-test.service" &&
		install -D -m 0755 "$QDIR/guest/systemd/sleep-hook" "$_r/usr/lib/systemd/system-sleep/torpor-test" ||
		return 1
	mkdir -p "$_r/etc/systemd/system/multi-user.target.wants"
	ln -sf /etc/systemd/system/torpor-test.service "$_r/etc/systemd/system/multi-user.target.wants/"
	# the guest's console is for the markers; no login prompt on it
	ln -sf /dev/null "$_r/etc/systemd/system/serial-getty@ttyS0.service"
	# not a first boot (no firstboot questions on the console)
	od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$_r/etc/machine-id"
	echo torpor-guest >"$_r/etc/hostname"
	rm -f "$T/root.img" "$T/swap.img"
	if [ "$_zram" = zram ]; then
		printf '/dev/vda / ext4 rw,errors=remount-ro 0 1\n' >"$_r/etc/fstab"
		truncate -s 64M "$T/swap.img" &&
			mke2fs -q -t ext4 -d "$_r" "$T/root.img" 2560M || return 1
	else
		: >"$_r/etc/systemd/zram-generator.conf"
		printf '/dev/vda / ext4 rw,errors=remount-ro 0 1\nUUID=%s none swap sw 0 0\n' \
			"$SD_SWAP_UUID" >"$_r/etc/fstab"
		truncate -s 1G "$T/swap.img" && mkswap -U "$SD_SWAP_UUID" "$T/swap.img" >/dev/null 2>&1 &&
			mke2fs -q -t ext4 -d "$_r" "$T/root.img" 1536M || return 1
	fi
	# removing the package (70): every initramfs without torpor, systemd's own
	# hibernation back (the disk the guest boots is made already)
	[ -z "$_resume_conf" ] || sd_check_removal "$_r"
	rm -rf "$_r"
	note "per run: copy, dpkg -i (with its initramfs) and the disks in $(since "$_t1") s"
}

# sd_check_removal ROOT: dpkg -r torpor in ROOT rebuilds each initramfs without
# torpor's boot script and torpor-resume and leaves no drop-in of torpor's
sd_check_removal() {
	if ! in_chroot "$1" dpkg -r torpor >"$T/dpkg-r.log" 2>&1; then
		sed 's/^/# dpkg -r: /' "$T/dpkg-r.log"
		fail "dpkg -r torpor failed in the guest's root"
		return 1
	fi
	echo "## dpkg -r: $(tr '\n' ' ' <"$T/dpkg-r.log")"
	set -- "$1"/boot/initrd.img-*
	if lsinitramfs "$1" | grep -q 'torpor-resume$\|scripts/local-top/torpor$'; then
		fail "after dpkg -r torpor, $(basename "$1") still holds torpor's boot script or torpor-resume"
	else
		echo "ok: after dpkg -r torpor, $(basename "$1") holds nothing of torpor"
	fi
	# (the test's own torpor-test service and sleep hook are not the package's)
	_left=$(find "${1%/boot/*}/usr/lib/systemd" "${1%/boot/*}/etc/systemd" -name 'torpor*' \
		! -name 'torpor-test*' 2>/dev/null | tr '\n' ' ')
	if [ -n "$_left" ]; then
		fail "after dpkg -r torpor, systemd files of torpor remain: $_left"
	else
		echo "ok: after dpkg -r torpor, no systemd file of torpor remains (systemctl hibernate is systemd's own)"
	fi
}

# sd_boot N [PARAMS...]: boot the guest's own kernel and initramfs, keeping what
# it writes; PARAMS go on the kernel command line (torpor_sd_test=MODE: what the
# guest driver does, default hibernate); SD_TIMEOUT bounds it (default 420 s);
# SD_INITRD is another initramfs to boot (default the guest's own)
sd_boot() {
	_sdn=$1
	shift
	BOOT_KERNEL=$T/vmlinuz BOOT_INITRD=${SD_INITRD:-$T/initrd.img} BOOT_ROOT_OPTS='' BOOT_TIMEOUT=${SD_TIMEOUT:-420} \
		BOOT_CMDLINE="console=ttyS0 panic=-1 root=/dev/vda rw $SD_RESUME" \
		boot "$_sdn" "${@:-torpor_sd_test=hibernate}"
}

# sd_boot_sleep N wake|cut|watch PARAMS...: sd_boot with S3 and boot_sleep's wake-up,
# power loss or nothing once the guest driver has asked for the sleep and QEMU says
# suspended
sd_boot_sleep() {
	_sdn=$1
	_sda=$2
	shift 2
	BOOT_KERNEL=$T/vmlinuz BOOT_INITRD=$T/initrd.img BOOT_ROOT_OPTS='' BOOT_TIMEOUT=420 \
		BOOT_CMDLINE="console=ttyS0 panic=-1 root=/dev/vda rw $SD_RESUME" \
		BOOT_SLEEP_LINE="^=== sleep-requested" boot_sleep "$_sdn" "$_sda" "$@"
}

# marker_arg N MARKER: what boot N printed after "=== MARKER "
marker_arg() {
	sed -n "s/^[^ ]* === $2 //p" "$T/boot$1.console" | head -n 1
}

# sd_guest_lines N: what the guest driver printed in boot N, for the log
sd_guest_lines() { sed -n 's/^[^ ]* \(guest: .*\)/\1/p' "$T/boot$1.console" | sed 's/^/## /'; }

# sd_file_sig PAGE: the signature at the end of the root disk's page PAGE (the file's first)
sd_file_sig() {
	dd if="$T/root.img" bs=4096 skip="$1" count=1 2>/dev/null | tail -c 10 | tr -d '\000'
}

# sd_bypass N MARKER yes|no: whether logind's environment (the marker's value) in
# boot N has torpor-logind-generator's SYSTEMD_BYPASS_HIBERNATION_MEMORY_CHECK=1
sd_bypass() {
	case " $(marker_arg "$1" "$2") " in
	*" SYSTEMD_BYPASS_HIBERNATION_MEMORY_CHECK=1 "*) _has=yes ;;
	*) _has=no ;;
	esac
	if [ "$_has" = "$3" ]; then
		echo "ok: boot $1: logind's environment has the generator's bypass: $3"
	else
		fail "boot $1: logind's environment is '$(marker_arg "$1" "$2")': the generator's bypass expected: $3"
	fi
}

# sd_status_lines N LABEL: what torpor status printed in boot N, for the log
sd_status_lines() {
	sed -n "s/^[^ ]* guest: $2: /## $2: /p" "$T/boot$1.console"
}

# sd_zram_imagefile [stale]: the scenario of 73 (Debian 13) and 74 (Debian 12); 73
# says what it proves.  With stale, the restored system hibernates once more and
# a boot with the initramfs from before torpor runs torpor status
sd_zram_imagefile() {
	_stale=${1:-}
	# a fresh system: no resume= on the command line yet
	SD_RESUME=
	# update-initramfs alone took 130-230 s of TCG on a busy 2-core machine
	SD_TIMEOUT=720 sd_boot 1 torpor_sd_test=zram-setup
	note_boot 1
	sd_guest_lines 1
	# logind's own answer before torpor's setup, so that boot 2's yes is the generator's
	expect 1 zram-active "other-swaps 0" "can-hibernate-before na" "setup-exit 0" "update-initramfs 0" poweroff
	sd_bypass 1 logind-env-before no
	note "$DEBIAN_NAME, zram only, nothing set up: CanHibernate $(marker_arg 1 can-hibernate-before)"
	# torpor status before the setup: not ready, and why, for root and for anyone
	expect 1 "status-before 1" "status-before-user 1"
	expect_line 1 '^guest: status-before: ready: +no: no swap area is named for the image' \
		"torpor status says why it is not ready"
	expect_line 1 "^guest: status-before: torpor: hint: zram is the only swap: hibernate into an image file; 'sudo torpor-suspend --setup-image-file' makes it" \
		"torpor status gives the fix: the image file, zram being the only swap"
	expect_line 1 '^guest: status-before-user: ready: +no: ' "torpor status as nobody"
	sd_status_lines 1 status-before
	_cmd=$(marker_arg 1 cmdline)
	_page=${_cmd##*resume_offset=}
	case $_cmd in
	resume=UUID=*" resume_offset="[0-9]*) echo "ok: --setup-image-file printed '$_cmd'" ;;
	*)
		fail "boot 1: torpor-suspend --setup-image-file printed no resume= line"
		return
		;;
	esac
	# what the boot loader would load next: the initramfs update-initramfs rebuilt
	_initrd=$(marker_arg 1 initrd)
	if ! debugfs -R "dump $_initrd $T/initrd.img" "$T/root.img" >"$T/debugfs.log" 2>&1 ||
		[ ! -s "$T/initrd.img" ]; then
		fail "cannot read '$_initrd' from the root disk (see $T/debugfs.log)"
		return
	fi

	SD_RESUME=$_cmd
	sd_boot 2 torpor_sd_test=zram ${_stale:+torpor_sd_stale=1}
	note_boot 2
	sd_guest_lines 2
	expect 2 "can-hibernate yes" "check-exit 0" "hibernate-requested 0"
	# torpor status set up: ready, for root
	expect 2 "status-ready 0"
	expect_line 2 '^guest: status-ready: ready: +yes$' "torpor status: ready"
	expect_line 2 '^guest: status-ready: next hibernation writes: +/var/lib/torpor/image ' \
		"torpor status names the image file"
	expect_line 2 '^guest: status-ready: image now: +none' "torpor status: no image yet"
	expect_line 2 '^guest: status-ready: systemctl hibernate: +torpor ' "torpor status: systemctl hibernate goes to torpor"
	expect_line 2 '^guest: status-ready: logind CanHibernate: +yes' "torpor status: logind says yes"
	# an ordinary user: what needs root is said to (this guest has no polkit)
	expect_line 2 '^guest: status-ready-user: image now: +unknown \(run as root to see it\)' \
		"torpor status as nobody: the image needs root"
	expect_line 2 '^guest: status-ready-user: logind CanHibernate: +unknown: logind refuses to tell this user' \
		"torpor status as nobody: logind's refusal, not 'no D-Bus'"
	sd_status_lines 2 status-ready
	sd_status_lines 2 status-ready-user
	expect_not 2 after-sleep fresh-boot-after-hibernate workload-failed
	note "$DEBIAN_NAME, image file set up: CanHibernate $(marker_arg 2 can-hibernate)"
	if [ "$(sd_file_sig "$_page")" = S2SUSPEND ]; then
		echo "ok: torpor's signature S2SUSPEND at the image file's first page after systemctl hibernate"
	else
		fail "the image file's first page says '$(sd_file_sig "$_page")' after systemctl hibernate, expected S2SUSPEND"
	fi
	_id=$(marker_arg 2 sd-test-start)
	_wl=$(marker_arg 2 workload)
	{ [ -n "$_id" ] && [ -n "$_wl" ]; } || fail "boot 2 printed no boot id or workload"

	sd_boot 3
	note_boot 3
	sd_guest_lines 3
	expect_line 3 'torpor: image loaded in .*, restoring' "torpor-resume restored in the initramfs"
	expect 3 "after-sleep $_id" "hibernate-unit success" "token-ok ${_wl#* }" \
		"workload-pid ${_wl%% *}" "hooks pre=1 post=1" zram-active-after "other-swaps-after 0" \
		"can-hibernate-after yes"
	expect_not 3 fresh-boot-after-hibernate no-post-hook token-bad sd-test-start
	sd_bypass 3 logind-env yes
	if [ -z "$_stale" ]; then
		expect 3 poweroff
		if [ "$(sd_file_sig "$_page")" = SWAPSPACE2 ]; then
			echo "ok: the image file's first page is SWAPSPACE2 again after the restore"
		else
			fail "the image file's first page says '$(sd_file_sig "$_page")' after the restore, expected SWAPSPACE2"
		fi
		return
	fi
	# hibernated once more; a boot whose initramfs has no torpor finds the image
	expect 3 "hibernate-again 0"
	expect_not 3 after-sleep-again poweroff
	if [ "$(sd_file_sig "$_page")" = S2SUSPEND ]; then
		echo "ok: torpor's signature S2SUSPEND at the image file's first page after the second hibernation"
	else
		fail "the image file's first page says '$(sd_file_sig "$_page")' after the second hibernation, expected S2SUSPEND"
	fi
	SD_INITRD=$T/initrd-stock.img sd_boot 4 torpor_sd_test=stale-status
	note_boot 4
	expect 4 "stale-boot" "status-stale 0" "status-stale-user 1" poweroff
	expect_not 4 after-sleep-again
	expect_line 4 '^guest: status-stale: image now: +torpor image, [0-9]+ MiB, written .* ago by kernel [^ ]+' \
		"torpor status as root sees the image, its size, age and kernel"
	expect_line 4 '^guest: status-stale-user: image now: +unknown \(run as root to see it\)' \
		"only root reads the image"
	sd_status_lines 4 status-stale
	sd_status_lines 4 status-stale-user
}

