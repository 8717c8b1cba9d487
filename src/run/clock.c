/* SPDX-License-Identifier: MIT */
#include "run/clock.h"

#include <errno.h>

void clock_sleep_us(uint64_t us, const volatile int *stop)
{
	uint64_t end = clock_now_us() + us;

	/* short slices so a stop request is seen within 10 ms */
	for (;;) {
		uint64_t now = clock_now_us(), left;
		struct timespec ts;

		if (now >= end || (stop && *stop))
			return;
		left = end - now;
		if (left > 10000)
			left = 10000;
		ts.tv_sec = (time_t)(left / 1000000);
		ts.tv_nsec = (long)(left % 1000000) * 1000;
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
}
