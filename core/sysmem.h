/* SPDX-License-Identifier: GPL-2.0-only */
/* sysmem.h - how much memory the running kernel manages, and how much is free */
#ifndef CORE_SYSMEM_H
#define CORE_SYSMEM_H

#include <stdint.h>

int sysmem_parse_zoneinfo(const char *text, uint64_t *ret_pages);
int sysmem_present_pages(uint64_t *ret_pages);
int sysmem_parse_meminfo(const char *text, const char *key, uint64_t *ret_bytes);
int sysmem_meminfo(uint64_t *ret_total, uint64_t *ret_free);

#endif
