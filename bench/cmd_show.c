/* cmd_show.c - placeholder until its owner lands it; fails loudly. */
#include "commands.h"
#include "log.h"

int cmd_show(int argc, char **argv)
{
	error("'show' is not implemented yet");
	return EX_FAIL;
}
