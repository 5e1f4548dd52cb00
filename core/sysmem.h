/* SPDX-License-Identifier: GPL-2.0-only */
/* sysmem.h - how much memory the running kernel manages */
#ifndef CORE_SYSMEM_H
#define CORE_SYSMEM_H

#include <stdint.h>

int sysmem_parse_zoneinfo(const char *text, uint64_t *ret_pages);
int sysmem_present_pages(uint64_t *ret_pages);

#endif
