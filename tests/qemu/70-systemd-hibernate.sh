#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 70-systemd-hibernate: a real Debian 12 system (systemd 252, its own kernel and
# initramfs-tools), torpor installed from its .deb with dpkg -i.  Boot 1: logind's
# CanHibernate says yes, torpor-suspend --check passes, a workload starts,
# `systemctl hibernate` runs torpor through the drop-in and powers off with
# torpor's signature (S2SUSPEND, not the kernel's S1SUSPEND) on the swap disk.
# Boot 2: the initramfs restores it, the same process goes on (same boot id), the
# workload has its token, memory and PID, the unit succeeded and the system-sleep
# hooks ran pre and post once each; then a torpor.conf torpor-suspend refuses makes
# `systemctl hibernate` fail the unit, with torpor's message in the journal, and
# the system keeps running.  The guest side: guest/systemd/torpor-systemd-test.
. "$(dirname "$0")/lib.sh"
. "$QDIR/lib-debian.sh"

# shellcheck disable=SC2034 # read by run.sh
TEST_KERNELS=first
# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="systemctl hibernate on Debian 12 runs torpor from the .deb: CanHibernate yes, hooks once, state survives, a failure fails the unit"

# only the .deb is installed: build/'s binaries are not used
# shellcheck disable=SC2034 # read by lib.sh
TEST_NEEDS_TORPOR=0
SD_SWAP_UUID=5a0c3e27-8d4b-4f61-9b2e-1c7a9e0d4f13

test_setup() {
	_t0=$(now)
	_tree=$(debian_tree) || return 1
	note "Debian 12 root: $(since "$_t0") s (cached in ${_tree%/root})"
	_t1=$(now)
	_deb=$(debian_deb) || {
		fail "no torpor .deb (make deb failed, see $T/deb.log)"
		return 1
	}
	_r=$T/rootfs
	rm -rf "$_r"
	cp -a "$_tree" "$_r" || return 1
	cp "$_deb" "$_r/tmp/torpor.deb" || return 1
	# dpkg -i runs initramfs-tools' trigger: the guest's initramfs gets torpor's hook
	if ! in_chroot "$_r" dpkg -i /tmp/torpor.deb >"$T/dpkg.log" 2>&1; then
		sed 's/^/# dpkg: /' "$T/dpkg.log"
		fail "dpkg -i torpor.deb failed in the guest's root"
		return 1
	fi
	rm -f "$_r/tmp/torpor.deb"
	echo "## dpkg -i: $(tr '\n' ' ' <"$T/dpkg.log")"
	if ! grep -q 'update-initramfs' "$T/dpkg.log"; then
		fail "dpkg -i did not regenerate the initramfs"
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
	printf '/dev/vda / ext4 rw,errors=remount-ro 0 1\nUUID=%s none swap sw 0 0\n' "$SD_SWAP_UUID" \
		>"$_r/etc/fstab"
	rm -f "$T/root.img" "$T/swap.img"
	truncate -s 1G "$T/swap.img" && mkswap -U "$SD_SWAP_UUID" "$T/swap.img" >/dev/null 2>&1 &&
		mke2fs -q -t ext4 -d "$_r" "$T/root.img" 1536M || return 1
	rm -rf "$_r"
	note "per run: copy, dpkg -i (with its initramfs) and the disks in $(since "$_t1") s"
}

# sd_boot N: boot the guest's own kernel and initramfs, keeping what it writes
sd_boot() {
	BOOT_KERNEL=$T/vmlinuz BOOT_INITRD=$T/initrd.img BOOT_ROOT_OPTS='' BOOT_TIMEOUT=420 \
		BOOT_CMDLINE="console=ttyS0 panic=-1 root=/dev/vda rw resume=UUID=$SD_SWAP_UUID torpor_sd_test=1" \
		boot "$1"
}

# marker_arg N MARKER: what boot N printed after "=== MARKER "
marker_arg() {
	sed -n "s/^[^ ]* === $2 //p" "$T/boot$1.console" | head -n 1
}

test_run() {
	sd_boot 1
	note_boot 1
	expect 1 "can-hibernate yes" "check-exit 0" "hibernate-requested 0"
	expect_not 1 after-sleep fresh-boot-after-hibernate no-swap workload-failed
	sed -n 's/^[^ ]* \(guest: .*\)/\1/p' "$T/boot1.console" | sed 's/^/## /'
	expect_sig S2SUSPEND "after systemctl hibernate (torpor's, not the kernel's S1SUSPEND)"
	_boot_id=$(marker_arg 1 sd-test-start)
	_wl=$(marker_arg 1 workload)
	_pid=${_wl%% *}
	_token=${_wl#* }
	if [ -z "$_boot_id" ] || [ -z "$_pid" ] || [ "$_pid" = 0 ]; then
		fail "boot 1 printed no boot id or workload"
	fi

	sd_boot 2
	note_boot 2
	sed -n 's/^[^ ]* \(guest: .*\)/\1/p' "$T/boot2.console" | sed 's/^/## /'
	expect 2 "after-sleep $_boot_id" "hibernate-unit success" "token-ok $_token" \
		"workload-pid $_pid" "hooks pre=1 post=1"
	expect_not 2 fresh-boot-after-hibernate no-post-hook token-bad
	expect_line 2 'torpor: image loaded in .*, restoring' "torpor-resume restored in the initramfs"
	# a refused torpor-suspend: the unit fails, torpor says why, nothing stops
	expect 2 "hibernate2-requested 0" "failed-unit exit-code" failed-message \
		"still-running $_boot_id" "hooks2 pre=2 post=2" poweroff
	expect_not 2 no-post-hook-2
	expect_sig SWAPSPACE2 "after the restore"
}

test_main
