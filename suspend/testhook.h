/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * testhook.h - fault injection for the QEMU tests, in the test build only
 *
 * Built with -DTORPOR_TEST_HOOKS (build/test/torpor-suspend, which the QEMU
 * tests put in the guest), torpor-suspend reads at start:
 *   TORPOR_TEST_STALL=P|commit     stop for two minutes, after saying so, when P%
 *                                  of the image is written, or just before the
 *                                  root record (the host cuts the power there)
 *   TORPOR_TEST_SIGNAL=WHEN:SIG[,WHEN:SIG...]
 *                                  raise(SIG) (INT, TERM, HUP, QUIT, TSTP, ...)
 *                                  at WHEN: P (the first block at or past P%),
 *                                  before-root (data and map flushed, root not
 *                                  written) or commit (the root written and flushed)
 *   TORPOR_TEST_NS_UNREADABLE=allow
 *                                  go on when /proc/1/ns/mnt or /proc/1/root (or
 *                                  /proc/self/ns/...) gives EACCES or EPERM, as to a
 *                                  sandbox's root, saying so; a namespace or root
 *                                  seen to differ is still refused (host tests only)
 *   TORPOR_TEST_MOUNT=TYPE:DEV:DIR mount DEV (a TYPE filesystem) on DIR just
 *                                  before FREEZE, after the filesystems were
 *                                  listed, as an automounter might
 *   TORPOR_TEST_NO_FITCHECK=1      do not refuse before the freeze when the image
 *                                  seems not to fit (the estimate is still made and
 *                                  shown): the late check while writing is tested
 * After FREEZE no other process can send a signal, so the process sends its own.
 * The installed build has none of this: the functions below are empty.
 */
#ifndef SUSPEND_TESTHOOK_H
#define SUSPEND_TESTHOOK_H

#ifdef TORPOR_TEST_HOOKS
void testhook_init(void);
void testhook_before_freeze(void);
void testhook_progress(unsigned long long pct);
void testhook_block(unsigned long long pct);
void testhook_before_root(void);
void testhook_committed(void);
int testhook_ns_unreadable(const char *path);
int testhook_no_fitcheck(void);
#else
static inline void testhook_init(void) {}
static inline void testhook_before_freeze(void) {}
static inline void testhook_progress(unsigned long long pct) {}
static inline void testhook_block(unsigned long long pct) {}
static inline void testhook_before_root(void) {}
static inline void testhook_committed(void) {}
static inline int testhook_ns_unreadable(const char *path) { return 0; }
static inline int testhook_no_fitcheck(void) { return 0; }
#endif

#endif
