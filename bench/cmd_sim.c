/* cmd_sim.c - placeholder until its owner lands it; fails loudly. */
#include "commands.h"
#include "log.h"

int cmd_sim(int argc, char **argv)
{
	error("'sim' is not implemented yet");
	return EX_FAIL;
}
