#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# torpor-suspend's configuration file as the user meets it: a wrong line stops it
# with the file, the line and a hint (exit 1), a missing --config file is an error,
# options override the file.  Only --print-cmdline and --help run, which never
# open /dev/snapshot or freeze; the devices named do not exist, so each run stops
# at "cannot find resume device" and says which one it looked for.
bin=${TORPOR_SUSPEND:-build/torpor-suspend}
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
n=0
failed=0

# run ARGS...: torpor-suspend's stderr in $t/err, status in $rc
run() {
	"$bin" "$@" >"$t/out" 2>"$t/err"
	rc=$?
}

# expect RC PATTERN DESCRIPTION: the last run exited RC and stderr matches PATTERN
expect() {
	n=$((n + 1))
	if [ "$rc" -eq "$1" ] && grep -q -- "$2" "$t/err"; then
		echo "ok $n - config-cli: $3"
	else
		echo "not ok $n - config-cli: $3 (status $rc, wanted $1 and '$2')"
		sed 's/^/# /' "$t/err"
		failed=$((failed + 1))
	fi
}

printf '# c\n\nresume = /dev/torpor-test-fromfile\n\n\n\nfoo = 1\n' >"$t/unknown.conf"
run --config="$t/unknown.conf" --print-cmdline
expect 1 "^torpor: $t/unknown.conf:7: unknown key 'foo'\$" "an unknown key: file, line 7, exit 1"
expect 1 "^torpor: hint: the keys are" "an unknown key: a hint line follows"

run --print-cmdline --no-initramfs --resume=/dev/torpor-test-fromopt
expect 2 "^torpor: --no-initramfs goes with --check only" "--no-initramfs without --check: a usage error"
run --print-cmdline --initramfs=boot/initrd.img --resume=/dev/torpor-test-fromopt
expect 2 "^torpor: invalid --initramfs 'boot/initrd.img': not an absolute path" \
	"--initramfs takes an absolute path"

printf 'resume_offset = 12x\n' >"$t/bad.conf"
run --config="$t/bad.conf" --print-cmdline --resume=/dev/torpor-test-fromopt
expect 1 "bad.conf:1: invalid value '12x' for 'resume_offset'" \
	"a bad value is refused even where an option overrides it"

run --config="$t/missing.conf" --print-cmdline
expect 1 "cannot read configuration file '$t/missing.conf': " "a missing --config file is an error"

printf 'resume = /dev/torpor-test-fromfile\nprogress = no\n' >"$t/good.conf"
run --config="$t/good.conf" --print-cmdline
expect 1 "cannot find resume device '/dev/torpor-test-fromfile'" "the file's resume is used"
run --config="$t/good.conf" --print-cmdline --resume=/dev/torpor-test-fromopt
expect 1 "cannot find resume device '/dev/torpor-test-fromopt'" "--resume overrides the file"

for mode in shutdown reboot platform hybrid; do
	run --config="$t/good.conf" --poweroff="$mode" --print-cmdline
	expect 1 "cannot find resume device '/dev/torpor-test-fromfile'" \
		"--poweroff=$mode is taken (the run goes on to the device)"
	printf 'resume = /dev/torpor-test-fromfile\npoweroff = %s\n' "$mode" >"$t/mode.conf"
	run --config="$t/mode.conf" --print-cmdline
	expect 1 "cannot find resume device '/dev/torpor-test-fromfile'" \
		"poweroff = $mode in the file is taken"
done
run --config="$t/good.conf" --poweroff=s2both --print-cmdline
expect 2 "^torpor: invalid --poweroff 's2both': not 'shutdown', 'reboot', 'platform' or 'hybrid'$" \
	"an unknown --poweroff is a usage error naming the four modes"
run --config="$t/good.conf" --poweroff=Hybrid --print-cmdline
expect 2 "invalid --poweroff 'Hybrid'" "--poweroff is case-sensitive"
printf 'resume = /dev/torpor-test-fromfile\npoweroff = suspend\n' >"$t/mode.conf"
run --config="$t/mode.conf" --print-cmdline --poweroff=hybrid
expect 1 "mode.conf:2: invalid value 'suspend' for 'poweroff'" \
	"a bad poweroff in the file is refused even where --poweroff overrides it"
run --help
n=$((n + 1))
if [ "$rc" -eq 0 ] && grep -q "platform (ACPI S4) or hybrid" "$t/out"; then
	echo "ok $n - config-cli: --help names platform and hybrid"
else
	echo "not ok $n - config-cli: --help names platform and hybrid (status $rc)"
	failed=$((failed + 1))
fi
run --config="$t/good.conf" --image-size=2X --print-cmdline
expect 2 "invalid --image-size '2X': not 'auto', 'max', 'kernel' or a size" \
	"a bad --image-size is a usage error naming the words"
for size in auto max kernel 64M; do
	run --config="$t/good.conf" --image-size=$size --print-cmdline
	expect 1 "cannot find resume device '/dev/torpor-test-fromfile'" \
		"--image-size=$size is taken (the run goes on to the device)"
done

run --config="$t/good.conf" --image-file=relative/image --print-cmdline
expect 2 "invalid --image-file 'relative/image': not an absolute path" \
	"a relative --image-file is a usage error"
run --config="$t/good.conf" --setup-image-file=12X --image-file="$t/image"
expect 2 "invalid --setup-image-file '12X'" "a bad --setup-image-file size is a usage error"
run --config="$t/good.conf" --setup-image-file=512K --image-file="$t/image"
expect 2 "invalid --setup-image-file '512K'" "an image file under 1M is a usage error"
printf 'image_file = %s/none\n' "$t" >"$t/img.conf"
run --config="$t/img.conf" --print-cmdline
expect 1 "no image file '$t/none'" "the file's image_file is used by --print-cmdline"
run --config="$t/img.conf" --print-cmdline --image-file="$t/other"
expect 1 "no image file '$t/other'" "--image-file overrides image_file"
run --config="$t/img.conf" --check
expect 1 "no image file '$t/none'" "--check looks at the image file"
expect 1 "hint: make it with 'torpor-suspend --setup-image-file'" \
	"a missing image file: the hint names --setup-image-file"
run --config="$t/good.conf" --discard-after-resume --print-cmdline
expect 1 "discard_after_resume applies only to an image file (image_file or --image-file): ignored" \
	"--discard-after-resume without an image file warns"
printf 'discard_after_resume = yes\n' >"$t/discard.conf"
run --config="$t/discard.conf" --print-cmdline --resume=/dev/torpor-test-fromopt
expect 1 "discard_after_resume applies only to an image file" \
	"discard_after_resume = yes without image_file warns"

if [ ! -e /etc/torpor.conf ]; then
	run --print-cmdline --resume=/dev/torpor-test-fromopt
	expect 1 "cannot find resume device '/dev/torpor-test-fromopt'" \
		"no /etc/torpor.conf is no error"
fi

run --help
n=$((n + 1))
if [ "$rc" -eq 0 ] && grep -q -- '--config=FILE' "$t/out" && grep -q -- '--print-cmdline' "$t/out"; then
	echo "ok $n - config-cli: --help names --config and --print-cmdline"
else
	echo "not ok $n - config-cli: --help lacks --config or --print-cmdline"
	failed=$((failed + 1))
fi
[ "$failed" -eq 0 ]
