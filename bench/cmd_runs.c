/* cmd_runs.c - placeholder until its owner lands it; fails loudly. */
#include "commands.h"
#include "log.h"

int cmd_runs(int argc, char **argv)
{
	error("'runs' is not implemented yet");
	return EX_FAIL;
}
