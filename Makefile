# SPDX-License-Identifier: GPL-2.0-only
# torpor: user-space hibernation.  One non-recursive Makefile.
#
# Knobs (all can be overridden on the command line):
#   V=1                  show the full commands
#   CC, CFLAGS, LDFLAGS  the glibc build (torpor-suspend, unit tests)
#   KLCC                 klibc's compiler wrapper for the static torpor-resume (default klcc)
#   XXHASH_H             libxxhash-dev's header, which klcc cannot see in /usr/include
#                        (default /usr/include/xxhash.h)
#   VERSION              the release --version prints (default debian/changelog's)
#   TORPOR_BUILD         the build --version prints (default git describe --always
#                        --dirty in a git checkout, else VERSION)
#   PREFIX, BINDIR, SBINDIR, LIBEXECDIR, MANDIR, DESTDIR   install locations (BINDIR: the
#                        torpor command, in every user's PATH)
#   SYSCONFDIR           where torpor-suspend reads torpor.conf (default /etc)
#   INITRAMFS_TOOLS_DIR, DRACUT_MODULES_DIR, INITCPIO_DIR   where the hosts read hooks
#   SYSTEMD_UNIT_DIR     where systemd reads the drop-ins of install-systemd (default
#                        /usr/lib/systemd/system with PREFIX=/usr, the vendor's place;
#                        else /etc/systemd/system, the local administrator's)
#   SYSTEMD_GENERATOR_DIR  where systemd finds torpor-logind-generator (default
#                        /usr/lib/systemd/system-generators with PREFIX=/usr, else
#                        /etc/systemd/system-generators)
#   INITRD_UNIT_DIR      where install-mkinitcpio puts torpor-restore.service for
#                        sd-torpor to copy into the initramfs (default
#                        /usr/lib/systemd/system, where mkinitcpio takes units from)
#   TORPOR_TEST_KERNEL   the kernels check-qemu boots: suites or package names
#                        (default: trixie bookworm forky, see tests/qemu/kernels.sh)
#   QEMU_SCENARIOS       the scenarios check-qemu runs (default: every tests/qemu/[0-8]?-*.sh,
#                        what each number range covers is in tests/qemu/README)
#   FUZZ_SECONDS         how long `make fuzz` runs each target (default 300)
#   REPEAT, BENCH_MIB, BENCH_SMP, BENCH_MEM   `make bench`: rounds (default 3), workload
#                        fills in MiB (default "256 1024"), vCPU counts (default "1 2"),
#                        guest MiB (default the larger of 1024 and 4 x the fill); see
#                        tests/bench/run.sh
#   BENCH_PARTS, BENCH_TRIP_GIB   `make bench`'s parts (default "phases trip"), the whole
#                        trip's working sets in GiB (default "1 2 4"); tests/bench/run.sh
#
# Targets: all (default), check, check-klibc, check-man, check-qemu, test (= check +
# check-qemu), demo, bench, bench-hash, bench-scan, bench-host, fuzz, deb (the Debian package, with lintian),
# install, install-<host>, install-systemd, install-all, uninstall-*, clean.

CC ?= gcc
KLCC ?= klcc
CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
# klibc's own headers trip -Wshadow (abs, labs), so only the glibc build uses it
GWARN := $(WARN) -Wshadow
CPPFLAGS += -D_GNU_SOURCE -Icore
LDFLAGS ?=
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
SBINDIR ?= $(PREFIX)/sbin
LIBEXECDIR ?= $(PREFIX)/lib/torpor
MANDIR ?= $(PREFIX)/share/man
SYSCONFDIR ?= /etc
INITRAMFS_TOOLS_DIR ?= /usr/share/initramfs-tools
DRACUT_MODULES_DIR ?= /usr/lib/dracut/modules.d
INITCPIO_DIR ?= /usr/lib/initcpio
# systemd: /usr/lib is the vendor's (the package's), /etc the local administrator's
ifeq ($(patsubst %/,%,$(PREFIX)),/usr)
SYSTEMD_UNIT_DIR ?= /usr/lib/systemd/system
SYSTEMD_GENERATOR_DIR ?= /usr/lib/systemd/system-generators
else
SYSTEMD_UNIT_DIR ?= /etc/systemd/system
SYSTEMD_GENERATOR_DIR ?= /etc/systemd/system-generators
endif
INITRD_UNIT_DIR ?= /usr/lib/systemd/system
FUZZ_SECONDS ?= 300
QEMU_SCENARIOS ?= $(sort $(wildcard tests/qemu/[0-8][0-9]-*.sh))
XXHASH_H ?= /usr/include/xxhash.h

# The release is debian/changelog's first version (the one place it is kept, so
# the .deb and a plain make agree); the build is git describe in a git checkout,
# else the release (a tarball, the .deb's copy).  Both can be given: make VERSION=...
# No debian/changelog, or no "torpor (VERSION)" on its first line: "unknown".
ifeq ($(origin VERSION),undefined)
VERSION := ${shell sed -n '1s/^torpor (\([^)]*\)).*/\1/p' debian/changelog 2>/dev/null}
ifeq ($(VERSION),)
VERSION := unknown
endif
endif
# sudo make install in a checkout you own: git refuses a repository another
# user owns unless told it is safe (this one is: its Makefile runs anyway); and
# -dirty comes from git status without optional locks: describe --dirty and diff
# would rewrite the index (as root, in your checkout)
GIT_HERE := GIT_OPTIONAL_LOCKS=0 git -c safe.directory='$(CURDIR)'
ifeq ($(origin TORPOR_BUILD),undefined)
TORPOR_BUILD := $(shell test -e .git && d=$$($(GIT_HERE) describe --always 2>/dev/null) && \
	{ [ -z "$$($(GIT_HERE) status --porcelain --untracked-files=no 2>/dev/null)" ] || \
	d=$$d-dirty; } && echo "$$d")
endif
ifeq ($(TORPOR_BUILD),)
TORPOR_BUILD := $(VERSION)
endif

ifneq ($(V),1)
Q := @
quiet = @printf '  %-8s %s\n' $(1) $(2);
else
Q :=
quiet =
endif

B := build
CORE_SRCS := $(sort $(wildcard core/*.c))
SUSPEND_SRCS := $(sort $(wildcard suspend/*.c))
RESUME_SRCS := $(sort $(wildcard resume/*.c))
UNIT_SRCS := $(sort $(wildcard tests/unit/test-*.c))

GLIBC_CORE_OBJS := $(CORE_SRCS:%.c=$(B)/glibc/%.o)
KLIBC_CORE_OBJS := $(CORE_SRCS:%.c=$(B)/klibc/%.o)
SUSPEND_OBJS := $(SUSPEND_SRCS:%.c=$(B)/glibc/%.o)
RESUME_OBJS := $(RESUME_SRCS:%.c=$(B)/klibc/%.o)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)
UNIT_ASAN_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests-asan/%)
SANITIZE := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# the resume side's code, built with glibc too, so unit tests can reach it
RESUME_LIB_OBJS := $(filter-out $(B)/glibc/resume/main.o,$(RESUME_SRCS:%.c=$(B)/glibc/%.o))
SUSPEND_LIB_OBJS := $(filter-out $(B)/glibc/suspend/main.o,$(SUSPEND_OBJS))
# every source but the two mains, built with the sanitizers for the tests-asan binaries
ASAN_LIB_OBJS := $(patsubst %.c,$(B)/asan/%.o,$(CORE_SRCS) \
	$(filter-out suspend/main.c resume/main.c,$(SUSPEND_SRCS) $(RESUME_SRCS)))
# the test build of torpor-suspend: with the fault injection of suspend/testhook.h,
# for the QEMU tests only; never installed
TEST_SUSPEND_OBJS := $(SUSPEND_SRCS:%.c=$(B)/test/%.o)

.DELETE_ON_ERROR:
.SECONDARY:
.SUFFIXES:
.PHONY: all check check-build check-klibc check-hooks check-man check-qemu check-fuzz test demo bench \
	bench-hash bench-scan bench-host fuzz clean deb deps-build deps-check \
	install install-conf install-initramfs-tools install-dracut install-mkinitcpio install-systemd install-all \
	uninstall uninstall-initramfs-tools uninstall-dracut uninstall-mkinitcpio uninstall-systemd uninstall-all

all: $(B)/torpor-suspend $(B)/torpor-resume $(B)/test/torpor-suspend $(B)/suspend/torpor

deps-build:
	$(Q)sh tests/deps.sh build

$(B)/glibc/%.o: %.c $(wildcard core/*.h suspend/*.h resume/*.h)
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) $(CC_HOT) $(GWARN) -c -o $@ $<

$(B)/test/%.o: %.c $(wildcard core/*.h suspend/*.h)
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) -DTORPOR_TEST_HOOKS $(CFLAGS) $(GWARN) -c -o $@ $<

# klcc searches klibc's headers only: libxxhash-dev's one header is linked into a
# directory of its own, so that no other glibc header can leak into the klibc build
KLIBC_INC := $(B)/klibc/include
$(KLIBC_INC)/xxhash.h:
	@mkdir -p $(dir $@)
	@test -e $(XXHASH_H) || { echo "torpor: '$(XXHASH_H)' not found" >&2; \
		echo "torpor: hint: install it with 'apt-get install libxxhash-dev' (or run make test)" >&2; exit 1; }
	$(call quiet,LN,$@)ln -sf $(abspath $(XXHASH_H)) $@

$(B)/klibc/%.o: %.c $(wildcard core/*.h resume/*.h) | $(KLIBC_INC)/xxhash.h
	@mkdir -p $(dir $@)
	@command -v $(KLCC) >/dev/null || { echo "torpor: '$(KLCC)' not found" >&2; \
		echo "torpor: hint: install klibc's compiler with 'apt-get install libklibc-dev' (or run make test)" >&2; exit 1; }
	$(call quiet,KLCC,$@)$(KLCC) $(CPPFLAGS) -I$(KLIBC_INC) -Os $(KLCC_HOT) -g $(WARN) -c -o $@ $<

# XXH3 (core/hash.c, scalar) is built with -O3 in both builds, the rest of the
# klibc build for size: in klcc's build it hashes 17 GB/s natively (as fast as
# xxhash's SSE2 code) against 3.1 GB/s at -Os, and 5.6 against 0.7 GB/s under
# QEMU's TCG, for 3 KiB more text (make bench-hash)
# (after CFLAGS, so that CFLAGS given on the command line keep it)
KLCC_HOT =
CC_HOT =
$(B)/klibc/core/hash.o: KLCC_HOT = -O3
$(B)/glibc/core/hash.o: CC_HOT = -O3

$(B)/glibc/libcore.a: $(GLIBC_CORE_OBJS)
	$(call quiet,AR,$@)rm -f $@ && ar rcs $@ $^

$(B)/klibc/libcore.a: $(KLIBC_CORE_OBJS)
	$(call quiet,AR,$@)rm -f $@ && ar rcs $@ $^

# the configuration file's place is built in; install-vars remakes main.o when it changes
$(B)/glibc/suspend/main.o $(B)/test/suspend/main.o: CPPFLAGS += -DSYSCONFDIR='"$(SYSCONFDIR)"'
$(B)/glibc/suspend/main.o $(B)/test/suspend/main.o: $(B)/install-vars
# the version line (core/version.h); version-vars remakes them when it changes
VERSION_OBJS := $(B)/glibc/suspend/main.o $(B)/test/suspend/main.o $(B)/klibc/resume/bootargs.o \
	$(B)/glibc/resume/bootargs.o $(B)/asan/resume/bootargs.o \
	$(B)/tests/test-doubts $(B)/tests-asan/test-doubts
$(VERSION_OBJS): CPPFLAGS += -DTORPOR_VERSION='"$(VERSION)"' -DTORPOR_BUILD='"$(TORPOR_BUILD)"'
$(VERSION_OBJS): $(B)/version-vars
# and where torpor-resume sits in the initramfs, which bootready.c checks,
# areacheck.c and usercheck.c read RESUME= beside and --status (statusinitrd.c)
# judges (a file that uses LIBEXECDIR without being listed here does not compile)
BOOTREADY_OBJS := $(foreach f,bootready areacheck statusinitrd usercheck,$(B)/glibc/suspend/$(f).o \
	$(B)/test/suspend/$(f).o $(B)/asan/suspend/$(f).o)
$(BOOTREADY_OBJS): CPPFLAGS += -DLIBEXECDIR='"$(LIBEXECDIR)"'
$(BOOTREADY_OBJS): $(B)/install-vars
# test-initramfs and test-confarea build images with torpor-resume where bootready.c looks for it
LIBEXEC_TESTS := $(foreach t,test-initramfs test-confarea,$(B)/tests/$(t) $(B)/tests-asan/$(t))
$(LIBEXEC_TESTS): CPPFLAGS += -DLIBEXECDIR='"$(LIBEXECDIR)"'
$(LIBEXEC_TESTS): $(B)/install-vars

$(B)/torpor-suspend: $(SUSPEND_OBJS) $(B)/glibc/libcore.a
	$(call quiet,LD,$@)$(CC) $(LDFLAGS) -o $@ $^ -llz4

$(B)/test/torpor-suspend: $(TEST_SUSPEND_OBJS) $(B)/glibc/libcore.a
	$(call quiet,LD,$@)$(CC) $(LDFLAGS) -o $@ $^ -llz4

$(B)/torpor-resume: $(RESUME_OBJS) $(B)/klibc/libcore.a
	$(call quiet,KLCC,$@)$(KLCC) -static -o $@ $^

# test-hash compares both builds of core/hash.c with the library (-lxxhash); the
# klcc build runs as its own static program, linked as torpor-resume is
$(B)/tests/test-hash $(B)/tests-asan/test-hash: TEST_LIBS = -lxxhash
$(B)/tests/test-hash $(B)/tests-asan/test-hash: $(B)/klibc/tests/klibc-hash
TEST_LIBS =

$(B)/klibc/tests/klibc-hash: tests/unit/klibc-hash.c tests/unit/hashvec.h $(B)/klibc/libcore.a
	@mkdir -p $(dir $@)
	$(call quiet,KLCC,$@)$(KLCC) $(CPPFLAGS) -I$(KLIBC_INC) -Os -g $(WARN) -static -o $@ $< \
		$(B)/klibc/libcore.a

$(B)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(RESUME_LIB_OBJS) $(SUSPEND_LIB_OBJS) $(B)/glibc/libcore.a
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) -Isuspend -Iresume $(CFLAGS) $(GWARN) -o $@ $< $(RESUME_LIB_OBJS) $(SUSPEND_LIB_OBJS) $(B)/glibc/libcore.a -llz4 $(TEST_LIBS)

# the same tests, built with AddressSanitizer and UBSan from every source; each
# source is compiled once for all of them (compiling every source into each test
# took five of make check's six minutes)
$(B)/asan/%.o: %.c $(wildcard core/*.h suspend/*.h resume/*.h)
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) -Isuspend -Iresume -g -O1 $(SANITIZE) $(GWARN) -c -o $@ $<

$(B)/tests-asan/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(ASAN_LIB_OBJS)
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) -Isuspend -Iresume -g -O1 $(SANITIZE) $(GWARN) -o $@ $< \
		$(ASAN_LIB_OBJS) -llz4 $(TEST_LIBS)

check-klibc: $(B)/torpor-resume
	$(Q)file $(B)/torpor-resume | grep -q 'statically linked' || { echo "torpor-resume is not static" >&2; exit 1; }
	$(Q)! strings $(B)/torpor-resume | grep -qi 'glibc\|GNU C Library' || { echo "torpor-resume contains glibc" >&2; exit 1; }
	$(Q)v=$$(sed -n 's/^#define TORPOR_FORMAT_VERSION[[:space:]]*\([0-9]*\).*/\1/p' core/image.h); \
		[ -n "$$v" ] && strings $(B)/torpor-resume | grep -qx "torpor-resume image-format=$$v" || \
		{ echo "torpor-resume lacks its marker 'torpor-resume image-format=$$v' (core/image.h)" >&2; exit 1; }
	$(Q)m=$$(sed -n 's/^#define EFILOC_MARKER[[:space:]]*"\(.*\)"$$/\1/p' core/efiloc.h); \
		[ -n "$$m" ] && strings $(B)/torpor-resume | grep -qx "$$m" || \
		{ echo "torpor-resume lacks its marker '$$m' (core/efiloc.h)" >&2; exit 1; }
	@echo "torpor-resume: static, klibc only, marked image-format=$$(sed -n 's/^#define TORPOR_FORMAT_VERSION[[:space:]]*\([0-9]*\).*/\1/p' core/image.h)"

# the installed torpor-suspend has no fault injection; the test build has
check-hooks: $(B)/torpor-suspend $(B)/test/torpor-suspend
	$(Q)! strings $(B)/torpor-suspend | grep -q 'TORPOR_TEST\|test: stalling\|test: raising' || \
		{ echo "$(B)/torpor-suspend contains test hooks" >&2; exit 1; }
	$(Q)strings $(B)/test/torpor-suspend | grep -q 'TORPOR_TEST_STALL' || \
		{ echo "$(B)/test/torpor-suspend lacks the test hooks" >&2; exit 1; }
	@echo "torpor-suspend: no test hooks (they are in $(B)/test/torpor-suspend)"

# The targets the README names install what they need first (tests/deps.sh, which
# does nothing when all is there), then build in a second make: a prerequisite
# could be built before the packages are in, with -j.
check:
	$(Q)sh tests/deps.sh check
	$(Q)$(MAKE) --no-print-directory check-build
	$(Q)sh tests/unit/run.sh $(UNIT_BINS) $(UNIT_ASAN_BINS) tests/unit/valgrind-suspend.sh tests/unit/nonroot-suspend.sh \
		tests/unit/install-prefix.sh tests/unit/deb-maintscripts.sh tests/unit/dracut-cmdline.sh \
		tests/unit/dracut-check.sh \
		tests/unit/dracut-hostonly.sh tests/unit/initrd-unit.sh tests/unit/resume-args.sh tests/unit/cli-conventions.sh \
		tests/unit/config-cli.sh tests/unit/namespace-suspend.sh tests/unit/man-check.sh tests/unit/sleep-runner.sh \
		tests/unit/logind-generator.sh tests/unit/build-check.sh tests/unit/fuzz-args.sh \
		tests/shellcheck.sh

# the man pages: groff finds no warning, and every option and key is documented
check-man:
	$(Q)sh tests/unit/run.sh tests/unit/man-check.sh

# the host benchmark is built (not run) too, so that it follows the writer and loader
check-build: all hooks check-klibc check-hooks $(UNIT_BINS) $(UNIT_ASAN_BINS) $(B)/seed-image \
	$(B)/bench/pipeline

# writes the image fuzz target's seed (see its header); built by make check so that it
# follows core/image.h, run by hand when the format changes
$(B)/seed-image: tests/fuzz/seed-image.c $(B)/glibc/libcore.a
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) $(GWARN) -o $@ $< $(B)/glibc/libcore.a

fuzz:
	$(Q)sh tests/deps.sh fuzz
	$(Q)sh tests/fuzz/run.sh $(FUZZ_SECONDS)

# a short bounded pass for make test
check-fuzz:
	$(Q)sh tests/deps.sh fuzz
	$(Q)sh tests/fuzz/run.sh 30

deps-check:
	$(Q)sh tests/deps.sh check

check-qemu:
	$(Q)sh tests/deps.sh hooks
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh tests/qemu/run.sh $(QEMU_SCENARIOS)

test:
	$(Q)sh tests/deps.sh all
	$(Q)$(MAKE) --no-print-directory check
	$(Q)$(MAKE) --no-print-directory check-fuzz
	$(Q)$(MAKE) --no-print-directory check-qemu

bench:
	$(Q)sh tests/deps.sh qemu
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh tests/bench/run.sh

# CRC-32 (format 1) against XXH3-64 (format 2), in each libc's build; not part of make test
bench-hash: $(B)/bench/hash-glibc $(B)/bench/hash-klibc
	$(Q)$(B)/bench/hash-glibc glibc
	$(Q)$(B)/bench/hash-klibc klibc

# a content scan (UUID=) over 50 fake devices, in each libc's build; not part of make test
bench-scan: $(B)/bench/scan-glibc $(B)/bench/scan-klibc
	$(Q)$(B)/bench/scan-glibc glibc
	$(Q)$(B)/bench/scan-klibc klibc

$(B)/bench/scan-glibc: tests/bench/scan.c $(B)/glibc/libcore.a
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) $(GWARN) -o $@ $< $(B)/glibc/libcore.a

$(B)/bench/scan-klibc: tests/bench/scan.c $(B)/klibc/libcore.a
	@mkdir -p $(dir $@)
	$(call quiet,KLCC,$@)$(KLCC) $(CPPFLAGS) -I$(KLIBC_INC) -Os -g $(WARN) -static -o $@ $< \
		$(B)/klibc/libcore.a

# torpor's writer (1..N threads) and loader natively, against a plain copy and the
# lz4 tool; not part of make test.  BENCH_HOST_MIB (default 2048), BENCH_HOST_THREADS
# (default: online CPUs), REPEAT (default 3), BENCH_DIR (default a directory in /var/tmp),
# BENCH_COMPRESS (the settings compared at the most threads)
BENCH_HOST_MIB ?= 2048
bench-host: $(B)/bench/pipeline
	$(Q)sh tests/deps.sh bench
	$(Q)d=$${BENCH_DIR:-$$(mktemp -d /var/tmp/torpor-bench.XXXXXX)} && \
		$(B)/bench/pipeline "$$d" $(BENCH_HOST_MIB) $${BENCH_HOST_THREADS:-$$(nproc)} \
			$${REPEAT:-3} $${BENCH_COMPRESS:-lz4:1,lz4:2,lz4:4,lz4:8,lz4hc:1}; r=$$?; [ -n "$${BENCH_DIR:-}" ] || rm -rf "$$d"; exit $$r

$(B)/bench/pipeline: tests/bench/pipeline.c tests/unit/snapsink.h tests/unit/swapfile.h $(RESUME_LIB_OBJS) $(SUSPEND_LIB_OBJS) $(B)/glibc/libcore.a
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) -Iresume -Isuspend $(CFLAGS) $(GWARN) -o $@ $< \
		$(RESUME_LIB_OBJS) $(SUSPEND_LIB_OBJS) $(B)/glibc/libcore.a -llz4

$(B)/bench/hash-glibc: tests/bench/hash.c $(B)/glibc/libcore.a
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) $(GWARN) -o $@ $< $(B)/glibc/libcore.a

$(B)/bench/hash-klibc: tests/bench/hash.c $(B)/klibc/libcore.a
	@mkdir -p $(dir $@)
	$(call quiet,KLCC,$@)$(KLCC) $(CPPFLAGS) -I$(KLIBC_INC) -Os -g $(WARN) -static -o $@ $< \
		$(B)/klibc/libcore.a

demo:
	$(Q)sh tests/deps.sh qemu
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh tests/qemu/demo.sh

clean:
	rm -rf $(B) tests/qemu/out

# --- hooks and install --------------------------------------------------------
# The hooks are templates: @LIBEXECDIR@ becomes where torpor-resume is installed
# (and where it sits inside the initramfs).  The results go to build/, beside the
# binaries, and the install-<host> rules install them from there.
HOOK_SRCS := hook/hooks/torpor hook/scripts/local-top/torpor hook/torpor-build-check \
	dracut-module/90torpor/module-setup.sh dracut-module/90torpor/torpor-cmdline.sh \
	dracut-module/90torpor/torpor-pre-mount.sh mkinitcpio/install/torpor mkinitcpio/hooks/torpor \
	mkinitcpio/install/sd-torpor
HOOK_OUTS := $(HOOK_SRCS:%=$(B)/%)
DRACUT_MOD := 90torpor

.PHONY: hooks
hooks: $(HOOK_OUTS)

# the install variables the templates take, rewritten only when one changes, so that
# an install with another PREFIX or LIBEXECDIR remakes the hooks (as git's GIT-PREFIX)
$(B)/install-vars: FORCE
	@mkdir -p $(dir $@)
	@v='LIBEXECDIR=$(LIBEXECDIR) SYSCONFDIR=$(SYSCONFDIR) SBINDIR=$(SBINDIR) SYSTEMD_UNIT_DIR=$(SYSTEMD_UNIT_DIR) SYSTEMD_GENERATOR_DIR=$(SYSTEMD_GENERATOR_DIR) INITRD_UNIT_DIR=$(INITRD_UNIT_DIR)'; [ "$$(cat $@ 2>/dev/null)" = "$$v" ] || printf '%s\n' "$$v" >$@

$(B)/version-vars: FORCE
	@mkdir -p $(dir $@)
	@v='VERSION=$(VERSION) TORPOR_BUILD=$(TORPOR_BUILD)'; [ "$$(cat $@ 2>/dev/null)" = "$$v" ] || printf '%s\n' "$$v" >$@

.PHONY: FORCE
FORCE:

$(HOOK_OUTS): $(B)/%: % Makefile $(B)/install-vars
	@mkdir -p $(dir $@)
	$(call quiet,SED,$@)sed -e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' -e 's|@SBINDIR@|$(SBINDIR)|g' \
		-e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' -e 's|@INITRD_UNIT_DIR@|$(INITRD_UNIT_DIR)|g' $< >$@

# systemd: the sleep runner, the drop-ins that make the sleep services run it, and
# the generator that lets logind offer hibernation into an image file
SLEEP_VERBS := hibernate hybrid-sleep suspend-then-hibernate
SYSTEMD_SRCS := systemd/torpor-sleep systemd/torpor-logind-generator \
	$(SLEEP_VERBS:%=systemd/systemd-%.service.d/torpor.conf)
SYSTEMD_OUTS := $(SYSTEMD_SRCS:%=$(B)/%)
# the initramfs's unit (dracut's systemd module, mkinitcpio's sd-torpor), and the
# drop-in that orders systemd 252-254's per-device resume service after it
INITRD_UNIT_SRCS := systemd/torpor-restore.service \
	systemd/systemd-hibernate-resume@.service.d/torpor-restore.conf
INITRD_UNIT_OUTS := $(INITRD_UNIT_SRCS:%=$(B)/%)
hooks: $(INITRD_UNIT_OUTS)

$(SYSTEMD_OUTS) $(INITRD_UNIT_OUTS): $(B)/%: % Makefile $(B)/install-vars
	@mkdir -p $(dir $@)
	$(call quiet,SED,$@)sed -e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' -e 's|@SBINDIR@|$(SBINDIR)|g' \
		-e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' $< >$@

MAN8 := man/torpor-suspend.8 man/torpor-resume.8 man/torpor-sleep.8
MAN5 := man/torpor.conf.5
MAN1 := man/torpor.1

# the torpor command in PATH: 'torpor status' runs SBINDIR's torpor-suspend --status
$(B)/suspend/torpor: suspend/torpor Makefile $(B)/install-vars
	@mkdir -p $(dir $@)
	$(call quiet,SED,$@)sed -e 's|@SBINDIR@|$(SBINDIR)|g' $< >$@
	@chmod 755 $@

# the man pages and torpor.conf name the install's places
$(B)/man/%: man/% Makefile $(B)/install-vars
	@mkdir -p $(dir $@)
	$(call quiet,SED,$@)sed -e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
		-e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@SYSTEMD_UNIT_DIR@|$(SYSTEMD_UNIT_DIR)|g' \
		-e 's|@SYSTEMD_GENERATOR_DIR@|$(SYSTEMD_GENERATOR_DIR)|g' $< >$@

install: $(B)/torpor-suspend $(B)/torpor-resume $(B)/hook/torpor-build-check $(B)/suspend/torpor \
		$(MAN8:%=$(B)/%) $(MAN5:%=$(B)/%) $(MAN1:%=$(B)/%)
	install -D -m 0755 $(B)/torpor-suspend $(DESTDIR)$(SBINDIR)/torpor-suspend
	install -D -m 0755 $(B)/suspend/torpor $(DESTDIR)$(BINDIR)/torpor
	install -D -m 0755 $(B)/torpor-resume $(DESTDIR)$(LIBEXECDIR)/torpor-resume
	install -D -m 0755 $(B)/hook/torpor-build-check $(DESTDIR)$(LIBEXECDIR)/torpor-build-check
	install -D -m 0644 -t $(DESTDIR)$(MANDIR)/man8 $(MAN8:%=$(B)/%)
	install -D -m 0644 -t $(DESTDIR)$(MANDIR)/man5 $(MAN5:%=$(B)/%)
	install -D -m 0644 -t $(DESTDIR)$(MANDIR)/man1 $(MAN1:%=$(B)/%)

# the commented defaults, for a new install; never over an existing file
install-conf:
	[ -e $(DESTDIR)$(SYSCONFDIR)/torpor.conf ] || \
		install -D -m 0644 suspend/torpor.conf $(DESTDIR)$(SYSCONFDIR)/torpor.conf

# the Debian package (debian/), then lintian over it; never part of make test
deb:
	$(Q)sh tests/deps.sh deb
	$(Q)sh debian/build-deb.sh

install-initramfs-tools: $(HOOK_OUTS)
	install -D -m 0755 $(B)/hook/hooks/torpor $(DESTDIR)$(INITRAMFS_TOOLS_DIR)/hooks/torpor
	install -D -m 0755 $(B)/hook/scripts/local-top/torpor \
		$(DESTDIR)$(INITRAMFS_TOOLS_DIR)/scripts/local-top/torpor

# with dracut's systemd module the unit replaces the shell hooks: it is part of
# the module, as dracut's own modules carry theirs
install-dracut: $(HOOK_OUTS) $(INITRD_UNIT_OUTS)
	install -D -m 0755 $(B)/dracut-module/$(DRACUT_MOD)/module-setup.sh \
		$(DESTDIR)$(DRACUT_MODULES_DIR)/$(DRACUT_MOD)/module-setup.sh
	install -D -m 0755 $(B)/dracut-module/$(DRACUT_MOD)/torpor-cmdline.sh \
		$(DESTDIR)$(DRACUT_MODULES_DIR)/$(DRACUT_MOD)/torpor-cmdline.sh
	install -D -m 0755 $(B)/dracut-module/$(DRACUT_MOD)/torpor-pre-mount.sh \
		$(DESTDIR)$(DRACUT_MODULES_DIR)/$(DRACUT_MOD)/torpor-pre-mount.sh
	install -D -m 0644 $(B)/systemd/torpor-restore.service \
		$(DESTDIR)$(DRACUT_MODULES_DIR)/$(DRACUT_MOD)/torpor-restore.service
	install -D -m 0644 $(B)/systemd/systemd-hibernate-resume@.service.d/torpor-restore.conf \
		$(DESTDIR)$(DRACUT_MODULES_DIR)/$(DRACUT_MOD)/torpor-hibernate-resume.conf

# sd-torpor (the 'systemd' hook's images) takes the unit from INITRD_UNIT_DIR,
# as mkinitcpio's sd-* hooks take systemd's (never from /etc: it is the initramfs's)
install-mkinitcpio: $(HOOK_OUTS) $(INITRD_UNIT_OUTS)
	install -D -m 0644 $(B)/mkinitcpio/install/torpor $(DESTDIR)$(INITCPIO_DIR)/install/torpor
	install -D -m 0644 $(B)/mkinitcpio/hooks/torpor $(DESTDIR)$(INITCPIO_DIR)/hooks/torpor
	install -D -m 0644 $(B)/mkinitcpio/install/sd-torpor $(DESTDIR)$(INITCPIO_DIR)/install/sd-torpor
	install -D -m 0644 $(B)/systemd/torpor-restore.service \
		$(DESTDIR)$(INITRD_UNIT_DIR)/torpor-restore.service
	install -D -m 0644 $(B)/systemd/systemd-hibernate-resume@.service.d/torpor-restore.conf \
		$(DESTDIR)$(INITRD_UNIT_DIR)/systemd-hibernate-resume@.service.d/torpor-restore.conf

# systemctl hibernate, hybrid-sleep and suspend-then-hibernate run torpor-sleep;
# systemd reads the drop-ins at the next daemon-reload, done here when systemd runs
install-systemd: $(SYSTEMD_OUTS)
	install -D -m 0755 $(B)/systemd/torpor-sleep $(DESTDIR)$(LIBEXECDIR)/torpor-sleep
	install -D -m 0755 $(B)/systemd/torpor-logind-generator \
		$(DESTDIR)$(SYSTEMD_GENERATOR_DIR)/torpor-logind-generator
	for v in $(SLEEP_VERBS); do \
		install -D -m 0644 $(B)/systemd/systemd-$$v.service.d/torpor.conf \
			$(DESTDIR)$(SYSTEMD_UNIT_DIR)/systemd-$$v.service.d/torpor.conf || exit 1; \
	done
	@[ -n "$(DESTDIR)" ] || [ ! -d /run/systemd/system ] || systemctl daemon-reload

install-all: install install-initramfs-tools install-dracut install-mkinitcpio install-systemd

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/torpor-suspend $(DESTDIR)$(LIBEXECDIR)/torpor-resume \
		$(DESTDIR)$(LIBEXECDIR)/torpor-build-check $(DESTDIR)$(BINDIR)/torpor
	rm -f $(MAN8:man/%=$(DESTDIR)$(MANDIR)/man8/%) $(MAN5:man/%=$(DESTDIR)$(MANDIR)/man5/%) \
		$(MAN1:man/%=$(DESTDIR)$(MANDIR)/man1/%)
	-rmdir $(DESTDIR)$(LIBEXECDIR) 2>/dev/null

uninstall-initramfs-tools:
	rm -f $(DESTDIR)$(INITRAMFS_TOOLS_DIR)/hooks/torpor \
		$(DESTDIR)$(INITRAMFS_TOOLS_DIR)/scripts/local-top/torpor

uninstall-dracut:
	rm -rf $(DESTDIR)$(DRACUT_MODULES_DIR)/$(DRACUT_MOD)

uninstall-mkinitcpio:
	rm -f $(DESTDIR)$(INITCPIO_DIR)/install/torpor $(DESTDIR)$(INITCPIO_DIR)/hooks/torpor \
		$(DESTDIR)$(INITCPIO_DIR)/install/sd-torpor $(DESTDIR)$(INITRD_UNIT_DIR)/torpor-restore.service \
		$(DESTDIR)$(INITRD_UNIT_DIR)/systemd-hibernate-resume@.service.d/torpor-restore.conf
	-rmdir $(DESTDIR)$(INITRD_UNIT_DIR)/systemd-hibernate-resume@.service.d 2>/dev/null

uninstall-systemd:
	rm -f $(DESTDIR)$(LIBEXECDIR)/torpor-sleep $(DESTDIR)$(SYSTEMD_GENERATOR_DIR)/torpor-logind-generator
	for v in $(SLEEP_VERBS); do \
		rm -f $(DESTDIR)$(SYSTEMD_UNIT_DIR)/systemd-$$v.service.d/torpor.conf; \
		rmdir $(DESTDIR)$(SYSTEMD_UNIT_DIR)/systemd-$$v.service.d 2>/dev/null || :; \
	done
	@# an older source install put its drop-ins in /usr/lib whatever PREFIX: this
	@# install's (they run its torpor-sleep), not a package's, are removed there too
	for v in $(SLEEP_VERBS); do \
		d=$(DESTDIR)/usr/lib/systemd/system/systemd-$$v.service.d; \
		[ "$(SYSTEMD_UNIT_DIR)" != /usr/lib/systemd/system ] && \
			grep -qs '^ExecStart=$(LIBEXECDIR)/torpor-sleep ' $$d/torpor.conf || continue; \
		rm -f $$d/torpor.conf; rmdir $$d 2>/dev/null || :; \
	done
	-rmdir $(DESTDIR)$(LIBEXECDIR) 2>/dev/null
	@[ -n "$(DESTDIR)" ] || [ ! -d /run/systemd/system ] || systemctl daemon-reload

uninstall-all: uninstall uninstall-initramfs-tools uninstall-dracut uninstall-mkinitcpio uninstall-systemd
