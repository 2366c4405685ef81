/* model/backend.h - the software TLB model as a backend (`sgabench sim`, `table`). */
#ifndef SGA_MODEL_BACKEND_H
#define SGA_MODEL_BACKEND_H

#include "lib/backend.h"

extern const struct backend_ops model_backend;

#endif
