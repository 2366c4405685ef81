/* cmd_run.c - placeholder until its owner lands it; fails loudly. */
#include "commands.h"
#include "log.h"

int cmd_run(int argc, char **argv)
{
	error("'run' is not implemented yet");
	return EX_FAIL;
}
