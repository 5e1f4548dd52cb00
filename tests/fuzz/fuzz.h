/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz.h - what every libFuzzer target of tests/fuzz/ shares
 *
 * The entry point libFuzzer calls (declared here, so that -Wmissing-prototypes
 * is quiet), and check(): a broken invariant traps, which libFuzzer reports as
 * a crash and saves the input for.
 */
#ifndef TESTS_FUZZ_H
#define TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#define check(cond)					\
	do {						\
		if (!(cond))				\
			__builtin_trap();		\
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
