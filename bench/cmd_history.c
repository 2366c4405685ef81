/* cmd_history.c - placeholder until its owner lands it; fails loudly. */
#include "commands.h"
#include "log.h"

int cmd_history(int argc, char **argv)
{
	error("'history' is not implemented yet");
	return EX_FAIL;
}
