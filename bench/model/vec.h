/*
 * vec.h - run_periods() by vector compares (vec.c). Internal to bench/model.
 */
#ifndef SGA_MODEL_VEC_H
#define SGA_MODEL_VEC_H

#include <stdint.h>
#include "model/sim_int.h"

/*
 * Run `periods` issue periods of core c as run_periods() does (step.c),
 * with the same counts, when its levels are one or two narrow LRU levels
 * behind a loc table, the CPU has SSE4.1, model_vec is not 0 and the
 * periods are long enough to pay for the conversion; returns 1 then, and 0
 * (nothing done) otherwise.
 */
int vec_periods(struct fcore *c, uint64_t periods);

#endif
