/* builtin/run.c - sgabench run: the native backend (native/backend.c) through backend_cmd. */
#include "builtin/builtin.h"
#include "native/backend.h"

int cmd_run(int argc, char **argv)
{
	return backend_cmd(&native_backend, argc, argv);
}
