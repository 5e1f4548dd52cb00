#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 92-trip: the whole trip with torpor (lib-trip.sh): touch the working set, hibernate,
# resume, touch it again at once.  make bench's third part runs it beside
# 93-trip-kernel; on its own: sh tests/qemu/run.sh 92-trip
. "$(dirname "$0")/lib.sh"
. "$QDIR/lib-trip.sh"

# shellcheck disable=SC2034 # read by run.sh and lib.sh
TEST_DESCRIPTION="the whole trip: touch, hibernate, resume, touch again (torpor)"
# shellcheck disable=SC2034 # read by lib-trip.sh
TRIP_HIB=torpor

test_setup() { trip_setup; }
test_run() { trip_run; }

test_main
