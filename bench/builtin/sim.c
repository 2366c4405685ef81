/*
 * builtin/sim.c - `sgabench sim`: run a workload on the software TLB model
 * (model/backend.c) and store it like a native run (backend model:<machine>).
 */
#include "builtin/builtin.h"
#include "model/backend.h"

int cmd_sim(int argc, char **argv)
{
	return backend_cmd(&model_backend, argc, argv);
}
