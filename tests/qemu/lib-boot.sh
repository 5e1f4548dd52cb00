# SPDX-License-Identifier: GPL-2.0-only
# QEMU launch for the tests (sourced by lib.sh): one boot of the guest, a boot the
# host cuts short (a power cut), the notes a boot leaves in the summary, and the
# boots many scenarios share (a hibernation, a normal boot with swapon).

# console_lines: the serial console a line at a time as it comes (sed -u: the
# timestamps are taken when a line arrives), the CRs of CRLF gone, each piece of a
# line rewritten after a CR (systemd's status line, torpor's progress line) a line
# of its own, nothing dropped but CSI escapes (colours, systemd's erase-line), so a
# marker written over a status line starts its line and no text is lost
console_lines() {
	sed -u -e 's/\r*$//' -e 's/\r/\n/g' -e 's/\x1b\[[0-9;?]*[A-Za-z]//g'
}

# boot N [PARAMS...]: boot the guest once with extra kernel parameters; the console
# goes to $T/bootN.console, each line prefixed with seconds since QEMU started.
# Returns QEMU's status (124 when the timeout hit).  Other images can reuse it by
# setting BOOT_INITRD (default $INITRD), BOOT_CMDLINE (the parameters before PARAMS),
# BOOT_TIMEOUT (default $QEMU_TIMEOUT) and BOOT_ROOT_OPTS (-drive options of
# $T/root.img, default ",snapshot=on"; set it empty to keep what the guest writes).
# BOOT_QEMU_OPTS adds QEMU options (split on spaces), BOOT_KERNEL replaces $VMLINUZ,
# BOOT_MEM replaces $QEMU_MEM and BOOT_SMP $QEMU_SMP (the vCPUs); BOOT_WATCH names a
# file that gets the raw console as it comes (the console file is written in blocks).
# A boot that boot_cut killed on purpose ($T/bootN.cut exists) is not a timeout.
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
	# Several vCPUs get a host thread each (multi-threaded TCG) only where parallelism
	# is the point (make bench sets TORPOR_TEST_MTTCG=1); elsewhere they take turns on
	# one.  With MTTCG the guest kernel can oops at boot, before anything of torpor
	# runs, on the int3 it puts in while it patches its own code (text_poke: "Oops:
	# int3" in sched_clock_cpu, 6.12 at -smp 2, once in 36 boots of make bench)
	_accel=tcg
	[ "${BOOT_SMP:-$QEMU_SMP}" = 1 ] || [ "${TORPOR_TEST_MTTCG:-}" = 1 ] || _accel=tcg,thread=single
	echo "## boot $_n: $_cmdline"
	_t0=$(now)
	{
		# shellcheck disable=SC2086 # BOOT_QEMU_OPTS is a list of words
		timeout -k 10 "${BOOT_TIMEOUT:-$QEMU_TIMEOUT}" "$QEMU" -accel "$_accel" \
			-smp "${BOOT_SMP:-$QEMU_SMP}" -m "${BOOT_MEM:-$QEMU_MEM}" -no-reboot -nographic \
			-nic none ${BOOT_QEMU_OPTS:-} \
			-kernel "${BOOT_KERNEL:-$VMLINUZ}" -initrd "${BOOT_INITRD:-$INITRD}" \
			-drive "file=$T/root.img,format=raw,if=virtio${BOOT_ROOT_OPTS-,snapshot=on}" \
			-drive file="$T/swap.img",format=raw,if=virtio \
			-append "$_cmdline" </dev/null 2>&1
		echo $? >"$T/boot$_n.rc"
	} | if [ -n "${BOOT_WATCH:-}" ]; then tee "$BOOT_WATCH"; else cat; fi |
		if [ "${V:-}" = 1 ]; then tee /dev/fd/3; else cat; fi |
		console_lines | /bin/busybox ts -s '%.s' >"$_con"
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

# hibernated N WHEN [MARKER...]: boot N (booted) hibernated: noted; it printed each
# "=== MARKER", workload-started and hibernating, and none of resumed,
# hibernate-failed and poweroff; the swap disk carries torpor's S2SUSPEND WHEN
hibernated() {
	_hdn=$1
	_hdw=$2
	shift 2
	note_boot "$_hdn"
	expect "$_hdn" "$@" workload-started hibernating
	expect_not "$_hdn" resumed hibernate-failed poweroff
	expect_sig S2SUSPEND "$_hdw"
}

# hibernate_first N [PARAM...]: boot N starts a 64 MiB workload and hibernates it
# with torpor-suspend; the VM is off and torpor's image is on the swap disk
hibernate_first() {
	_hn=$1
	shift
	boot "$_hn" torpor_test=hibernate torpor_mib=64 "$@"
	hibernated "$_hn" "after hibernating"
}

# boot_resume N WHEN [PARAM...]: boot N resumes the image: noted; the workload passed
# every check (expect_checks) and the guest powered off; the swap disk is plain swap
# again WHEN
boot_resume() {
	_brn=$1
	_brw=$2
	shift 2
	boot "$_brn" torpor_test=boot "$@"
	note_boot "$_brn"
	expect_checks "$_brn"
	expect "$_brn" poweroff
	expect_sig SWAPSPACE2 "$_brw"
}

# boot_normal N [PARAM...]: boot N (torpor_test=boot PARAM...) boots normally:
# noted; it printed normal-boot and poweroff, and swapon-ok when a PARAM is
# torpor_swapon=1, and did not resume
boot_normal() {
	_bnn=$1
	shift
	boot "$_bnn" torpor_test=boot "$@"
	note_boot "$_bnn"
	case " $* " in
	*" torpor_swapon=1 "*) expect "$_bnn" normal-boot swapon-ok poweroff ;;
	*) expect "$_bnn" normal-boot poweroff ;;
	esac
	expect_not "$_bnn" resumed
}

# note_boot N: boot N's wall time, and when it hibernated and resumed; after a
# hibernation, the swap disk's allocated MiB (a sparse file: after the first
# hibernation, the image's size on the disk, whoever wrote it)
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
		_kib=$(du -k "$T/swap.img" 2>/dev/null | cut -f 1)
		[ -z "$_kib" ] || _line="$_line, swap disk $((_kib / 1024)) MiB allocated"
	fi
	[ -z "$_init" ] || _line="$_line)"
	note "$_line"
	echo "## $_line"
}

# monitor N COMMAND: one HMP command to boot N's QEMU monitor ($T/bootN.mon, set up
# by boot_sleep); prints its answer.  Fails when socat is missing or QEMU is gone.
monitor() {
	echo "$2" | socat -t 1 - "UNIX-CONNECT:$T/boot$1.mon" 2>/dev/null | tr -d '\r'
}

# boot_sleep N wake|cut|watch [PARAMS...]: boot N with S3 enabled and a monitor.
# Once the monitor says the guest is suspended (QEMU's "paused (suspended)", after
# the guest printed a line matching BOOT_SLEEP_LINE, default "^torpor: suspending to
# RAM"), the swap signature goes to $T/bootN.sig, and then wake: system_wakeup on
# the monitor; cut: kill -9 QEMU (a power loss while suspended); watch: nothing (the
# guest wakes itself, on its RTC alarm).  BOOT_SLEEP_OPTS replaces the S3 option
# (-global PIIX4_PM.disable_s3=0, the default machine's ACPI).  Returns 0 when the
# guest was seen suspended; a missing socat is a failure.
boot_sleep() {
	_sn=$1
	_sact=$2
	shift 2
	if ! command -v socat >/dev/null 2>&1; then
		fail "boot $_sn: socat is missing, the QEMU monitor cannot be reached (sh tests/deps.sh qemu)"
		return 1
	fi
	rm -f "$T/boot$_sn.cut" "$T/boot$_sn.pid" "$T/boot$_sn.rc" "$T/boot$_sn.raw" \
		"$T/boot$_sn.sig" "$T/boot$_sn.slept" "$T/boot$_sn.mon"
	_ss=$(now)
	_sline=${BOOT_SLEEP_LINE:-^torpor: suspending to RAM}
	(
		_w=$(( ${BOOT_TIMEOUT:-$QEMU_TIMEOUT} * 5 ))
		while [ "$_w" -gt 0 ] && [ ! -f "$T/boot$_sn.rc" ]; do
			_w=$((_w - 1))
			sleep 0.2
			if [ ! -s "$T/boot$_sn.pid" ] || [ ! -f "$T/boot$_sn.raw" ] ||
				! tr -d '\r' <"$T/boot$_sn.raw" | grep -q "$_sline"; then
				continue
			fi
			monitor "$_sn" "info status" | grep -q "paused (suspended)" || continue
			echo "after $(since "$_ss") s" >"$T/boot$_sn.slept"
			swap_sig >"$T/boot$_sn.sig"
			if [ "$_sact" = cut ]; then
				echo "while suspended, $(cat "$T/boot$_sn.slept")" >"$T/boot$_sn.cut"
				kill -9 "$(cat "$T/boot$_sn.pid")"
			elif [ "$_sact" = wake ]; then
				sleep 1
				monitor "$_sn" system_wakeup >/dev/null
			fi
			exit 0
		done
	) &
	_sw=$!
	_save_opts=${BOOT_QEMU_OPTS:-}
	BOOT_QEMU_OPTS="$_save_opts ${BOOT_SLEEP_OPTS--global PIIX4_PM.disable_s3=0} -pidfile $T/boot$_sn.pid -monitor unix:$T/boot$_sn.mon,server=on,wait=off"
	BOOT_WATCH=$T/boot$_sn.raw
	boot "$_sn" "$@"
	BOOT_WATCH=
	rm -f "$T/boot$_sn.raw"
	BOOT_QEMU_OPTS=$_save_opts
	wait "$_sw"
	if [ -f "$T/boot$_sn.slept" ]; then
		echo "ok: boot $_sn: the guest was suspended $(cat "$T/boot$_sn.slept"), swap signature '$(cat "$T/boot$_sn.sig")' then; $_sact"
	else
		fail "boot $_sn: the guest was never seen suspended to RAM"
		return 1
	fi
}

# boot_qmp N [PARAMS...]: boot N with a QMP socket, and the events QEMU sends there
# (one JSON object a line: SUSPEND_DISK when the guest enters ACPI S4, SHUTDOWN
# with its reason) in $T/bootN.qmp.  A missing socat is a failure.
boot_qmp() {
	_qn=$1
	shift
	if ! command -v socat >/dev/null 2>&1; then
		fail "boot $_qn: socat is missing, QEMU's events cannot be read (sh tests/deps.sh qemu)"
		return 1
	fi
	_qs=$T/boot$_qn.qmp.sock
	rm -f "$_qs" "$T/boot$_qn.qmp" "$T/boot$_qn.rc"
	(
		_w=$(( ${BOOT_TIMEOUT:-$QEMU_TIMEOUT} * 10 ))
		while [ ! -S "$_qs" ] && [ ! -f "$T/boot$_qn.rc" ] && [ "$_w" -gt 0 ]; do
			_w=$((_w - 1))
			sleep 0.1
		done
		[ -S "$_qs" ] || exit 0
		# stdin stays open until QEMU closes the socket: socat ends with it
		{ echo '{"execute":"qmp_capabilities"}'; while [ ! -f "$T/boot$_qn.rc" ]; do sleep 0.5; done; } |
			socat - "UNIX-CONNECT:$_qs" >"$T/boot$_qn.qmp" 2>/dev/null
	) &
	_qw=$!
	_save_opts=${BOOT_QEMU_OPTS:-}
	BOOT_QEMU_OPTS="$_save_opts -qmp unix:$_qs,server=on,wait=off"
	boot "$_qn" "$@"
	_qrc=$?
	BOOT_QEMU_OPTS=$_save_opts
	wait "$_qw"
	return "$_qrc"
}

# qmp_event N EVENT: boot N's QEMU sent EVENT (boot_qmp)
qmp_event() { grep -q "\"event\": *\"$2\"" "$T/boot$1.qmp" 2>/dev/null; }
