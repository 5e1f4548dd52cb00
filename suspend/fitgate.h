/* SPDX-License-Identifier: GPL-2.0-only */
/* fitgate.h - will the image fit the swap area: refused before the freeze when not */
#ifndef SUSPEND_FITGATE_H
#define SUSPEND_FITGATE_H

#include <stdint.h>

#include "hibernate.h"
#include "target.h"
#include "writer.h"

int fitgate_check(const struct hib_opts *o, struct writer *w, const struct hib_target *t,
		  uint64_t *ret_image_size);
void fitgate_say_written(const struct writer *w);

#endif
