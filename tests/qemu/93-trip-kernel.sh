#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 93-trip-kernel: 92-trip with the kernel's own hibernation (the reference)
. "$(dirname "$0")/lib.sh"
. "$QDIR/lib-trip.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="the whole trip: touch, hibernate, resume, touch again (the kernel's)"
# shellcheck disable=SC2034
TEST_NEEDS_TORPOR=0
# shellcheck disable=SC2034 # read by lib-trip.sh
TRIP_HIB=kernel

test_setup() { trip_setup; }
test_run() { trip_run; }

test_main
