// SPDX-License-Identifier: GPL-2.0-only
/* skipsay.c - tell the user which devices the last name lookup did not read */
#include <stddef.h>

#include "devname.h"
#include "msg.h"
#include "skipsay.h"

void skipsay_list(const char *what, const struct devname_skip *k, size_t n)
{
	char name[64], why[96];
	size_t i;

	for (i = 0; i < n && i < SKIPSAY_MAX; i++) {
		devname_name(k[i].dev, name, sizeof(name));
		devname_skip_why(&k[i], why, sizeof(why));
		if (k[i].reason == DEVNAME_SKIP_UDEV)
			msg_debug("skipped %s while looking for %s: %s", name, what, why);
		else
			msg_warn("skipped %s while looking for %s: %s", name, what, why);
	}
	if (n > SKIPSAY_MAX)
		msg_warn("skipped %lu more devices while looking for %s",
			 (unsigned long)(n - SKIPSAY_MAX), what);
}

void skipsay(const char *what)
{
	struct devname_skip k[SKIPSAY_MAX];

	skipsay_list(what, k, devname_skipped(k, SKIPSAY_MAX));
}
