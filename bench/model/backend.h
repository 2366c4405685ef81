/* model/backend.h - the software TLB model as a backend (`sgabench sim`, `table`). */
#ifndef SGA_MODEL_BACKEND_H
#define SGA_MODEL_BACKEND_H

#include "lib/backend.h"

extern const struct backend_ops model_backend;

/*
 * The rows of --walk-cycles and the timed engine (--timing, --hz,
 * --tick-entries, --access-cycles, --inflight), with the derived
 * walk-cycles cell word, over a struct sim_cfg (model/simrun.h): part of
 * `sim`'s table, and shared by `table` for its cells' runs.
 */
extern const struct opt model_timing_opts[];

#endif
