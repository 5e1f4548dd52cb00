# SPDX-License-Identifier: GPL-2.0-only
# The TAP lines of the shell unit tests, sourced: ok and not_ok number each check
# in n and count the failures in failed (the script sets both to 0); TAP_PREFIX,
# when the script sets it, starts every description, and after a not ok line
# tap_diag runs when the script defines it (to show what failed).

# ok TEXT: a check passed
ok() {
	n=$((n + 1))
	echo "ok $n - ${TAP_PREFIX:-}$*"
}

# not_ok TEXT: a check failed
not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - ${TAP_PREFIX:-}$*"
	! command -v tap_diag >/dev/null 2>&1 || tap_diag
}
