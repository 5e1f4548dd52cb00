# SPDX-License-Identifier: GPL-2.0-only
# Fault injection helpers of the QEMU tests (sourced by lib.sh; the 4x, 5x, 6x and 8x
# scenarios): extra initramfs modules, image inspection and damage.

# initrd_extend DEST DRIVERS [PROGRAM:TARGET...]: DEST is $INITRD with a second cpio
# archive appended (the kernel unpacks both, the later one wins): the modules of
# DRIVERS (CONFIG:module words, as GUEST_DRIVERS) after the usual ones, and each
# PROGRAM copied with its libraries to TARGET.  The modules of LATE_DRIVERS (the
# same words), when set, go in too, listed in modules-late: the guest loads them
# after the resume step.
initrd_extend() {
	_dest=$1
	_drivers=$2
	shift 2
	_root=$T/initrd-extra.$$
	rm -rf "$_root"
	mkdir -p "$_root/lib/modules" "$_root/etc/torpor-test" || return 1
	_list=$(
		# shellcheck disable=SC2030 # on purpose: this subshell's copy only
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
	if [ -n "${LATE_DRIVERS:-}" ]; then
		# shellcheck disable=SC2031 # the subshell above changed its own copy only
		_late=$(
			GUEST_DRIVERS="$GUEST_DRIVERS $_drivers $LATE_DRIVERS"
			module_list
		) || return 1
		_early=" $(echo "$_list" | tr '\n' ' ')"
		for _m in $_late; do
			case $_early in *" $_m "*) continue ;; esac
			_name=$(basename "$_m")
			case $_name in
			*.ko.xz) xz -dc "$KTREE/lib/modules/$KVER/$_m" >"$_root/lib/modules/${_name%.xz}" ;;
			*.ko.zst) zstd -qdc "$KTREE/lib/modules/$KVER/$_m" >"$_root/lib/modules/${_name%.zst}" ;;
			*.ko.gz) gzip -dc "$KTREE/lib/modules/$KVER/$_m" >"$_root/lib/modules/${_name%.gz}" ;;
			*) cp "$KTREE/lib/modules/$KVER/$_m" "$_root/lib/modules/$_name" ;;
			esac || return 1
			echo "${_name%.ko*}.ko" >>"$_root/etc/torpor-test/modules-late"
		done
	fi
	for _p in "$@"; do
		copy_exec "${_p%%:*}" "$_root" "${_p#*:}" || return 1
	done
	{
		cat "${BOOT_INITRD:-$INITRD}" &&
			(cd "$_root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet)
	} >"$_dest" || return 1
	rm -rf "$_root"
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
		gcc -O2 -Wall -Wextra -o "$T/imgpatch" "$QDIR/imgpatch.c" -lxxhash || return 1
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
