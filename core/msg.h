/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * msg.h - the messages users see, for both programs' main-level code
 *
 * Every line starts with "torpor: ".  Errors and warnings go to stderr and,
 * when enabled, to /dev/kmsg with a syslog priority so they survive in dmesg.
 * Library code in core/ returns -errno and never calls these (except debug).
 */
#ifndef CORE_MSG_H
#define CORE_MSG_H

#define MSG_PREFIX "torpor"

void msg_init(int use_kmsg);
void msg_set_debug(int on);
int msg_debug_enabled(void);
void msg_set_quiet(int on);
int msg_kmsg_open(void);
void msg_kmsg_always(void);
void msg_flush(void);
void msg_set_banner(const char *line);

void msg_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_live(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_live_end(void);

const char *msg_errname(int err);

#endif
