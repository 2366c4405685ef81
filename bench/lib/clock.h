/* clock.h - the monotonic clock, in the two units the code uses. */
#ifndef SGA_CLOCK_H
#define SGA_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC in seconds. */
double clock_now_s(void);

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t clock_now_ns(void);

#endif
