#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# One hibernate/resume round trip of a QEMU guest, shown step by step (make demo).
#
# Boot 1 starts a workload (a random token, a counter, 256 MiB of checksummed data),
# hibernates with torpor-suspend, and QEMU exits when the VM powers off.  Boot 2 runs
# torpor-resume from the initramfs, which restores the image; the hibernated boot
# carries on and checks its workload.  Each step is printed with the seconds since
# the demo started, and so are the guest's interesting console lines.
# Knobs as for run.sh (lib.sh); the kernel is the first of kernels.sh --default.
# Full consoles: tests/qemu/out/demo/boot1.console, boot2.console.

. "$(dirname "$0")/lib.sh"

T0=$(now)
T=$OUT/demo

step() { printf '[%6.1fs] %s\n' "$(since "$T0")" "$*"; }
die() {
	step "FAILED: $*"
	echo "demo: see ${T#"$TOP"/}/ for the full consoles" >&2
	exit 1
}

# demo_boot N PARAMS...: boot once, printing the interesting console lines as they
# come; the times of some markers go to $T/bootN.<marker>
demo_boot() {
	_n=$1
	shift
	_t=$(now)
	echo "$_t" >"$T/boot$_n.start"
	{
		timeout -k 10 "$QEMU_TIMEOUT" "$QEMU" -accel tcg -smp 1 -m "$QEMU_MEM" \
			-no-reboot -nographic -nic none \
			-kernel "$VMLINUZ" -initrd "$INITRD" \
			-drive file="$T/root.img",format=raw,if=virtio,snapshot=on \
			-drive file="$T/swap.img",format=raw,if=virtio \
			-append "console=ttyS0 panic=-1 no_timer_check resume=/dev/vdb torpor_mib=$TEST_MIB $*" \
			</dev/null 2>&1
		echo $? >"$T/boot$_n.rc"
	} | tee "$T/boot$_n.console" | while IFS= read -r _l; do
		# no tr -d here: it would hold the lines back in its buffer
		_l=${_l%"$CR"}
		case $_l in
		"=== "*)
			_m=${_l#=== }
			now >"$T/boot$_n.${_m%% *}"
			step "  guest: $_l"
			case $_m in
			workload-started) step "workload started: it now counts every 100 ms" ;;
			hibernating) step "hibernating: torpor-suspend freezes, snapshots, writes" ;;
			resume-start) step "init runs torpor-resume" ;;
			resumed) step "restored: the boot-1 system runs again" ;;
			esac
			;;
		"torpor: debug:"*) ;;
		"torpor: "* | "# workload"* | "# counter"* | "# cycle"* | *"Kernel panic"*)
			step "  guest: $_l"
			;;
		esac
	done
	_took=$(since "$_t")
	_rc=$(cat "$T/boot$_n.rc")
	[ "$_rc" -ne 124 ] || die "boot $_n timed out after $QEMU_TIMEOUT s"
	step "boot $_n ended after $_took s: the VM powered off"
	now >"$T/boot$_n.end"
}

# seen N MARKER: boot N printed "=== MARKER"
seen() { [ -f "$T/boot$1.$2" ]; }

# between N FROM TO: seconds between two recorded events of boot N
between() { sub "$(cat "$T/boot$1.$3" 2>/dev/null)" "$(cat "$T/boot$1.$2" 2>/dev/null)"; }

exec 3>&1
CR=$(printf '\r')
have_torpor || die "build/torpor-suspend or build/torpor-resume is missing (run make all)"
command -v "$QEMU" >/dev/null 2>&1 || die "$QEMU not found (sh tests/deps.sh qemu)"

step "fetching the test kernel (cached in ${TORPOR_CACHE:-.cache})"
tree=$(sh "$QDIR/kernels.sh" --default) || die "cannot fetch the kernel"
kernel_use "$tree"
rm -rf "$T"
mkdir -p "$T"
INITRD=$T/initrd.cpio
step "building the test initramfs for $KVER (busybox, virtio modules, torpor, workload)"
build_workload >"$T/build.log" 2>&1 || die "cannot build the workload (see $T/build.log)"
build_initramfs "$INITRD" >>"$T/build.log" 2>&1 || die "cannot build the initramfs"
step "initramfs ready: $(($(wc -c <"$INITRD") / 1024)) KiB"
swap_create || die "cannot create the swap disk"
step "swap disk: $SWAP_SIZE sparse file, mkswap'd, /dev/vdb in the guest ($(swap_sig))"

step "boot 1: QEMU (TCG, $QEMU_MEM MiB), init starts the workload and hibernates"
demo_boot 1 torpor_test=hibernate torpor_cycles=1
seen 1 hibernating || die "boot 1 did not hibernate"
! seen 1 hibernate-failed || die "torpor-suspend failed in boot 1"
sig=$(swap_sig)
[ "$sig" = S2SUSPEND ] || die "swap signature after hibernating is '$sig', expected S2SUSPEND"
hib=$(between 1 hibernating end)
step "image written, VM off: hibernating took $hib s; swap signature now $sig"

step "boot 2: the same disk; torpor-resume finds the image and restores it"
demo_boot 2 torpor_test=boot
seen 2 resumed || die "boot 2 did not resume"
res=$(between 2 resume-start resumed)
for m in token counter data; do
	seen 2 "$m-ok" || die "boot 2: the $m check failed"
done
step "checks passed: token, counter (still counting) and $TEST_MIB MiB of data intact"
sig=$(swap_sig)
[ "$sig" = SWAPSPACE2 ] || die "swap signature after resuming is '$sig', expected SWAPSPACE2"
step "swap signature back to $sig: the image cannot be resumed twice"

echo
echo "kernel $KVER; workload $TEST_MIB MiB"
tr -d '\r' <"$T/boot1.console" | sed -n 's/^torpor: \(image saved: .*\)/torpor-suspend: \1/p'
tr -d '\r' <"$T/boot2.console" | sed -n 's/^torpor: \(image loaded .*\)/torpor-resume: \1/p'
echo "hibernate: $hib s from '=== hibernating' to power-off"
echo "resume: $res s from starting torpor-resume to the workload running again"
echo "boot 2: kernel and init up in $(between 2 start resume-start) s, torpor-resume started, the VM off $(between 2 resume-start end) s later"
