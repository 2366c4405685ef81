/* cmd_workloads.c - placeholder until its owner lands it; fails loudly. */
#include "commands.h"
#include "log.h"

int cmd_workloads(int argc, char **argv)
{
	error("'workloads' is not implemented yet");
	return EX_FAIL;
}
