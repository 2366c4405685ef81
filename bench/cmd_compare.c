/* cmd_compare.c - placeholder until its owner lands it; fails loudly. */
#include "commands.h"
#include "log.h"

int cmd_compare(int argc, char **argv)
{
	error("'compare' is not implemented yet");
	return EX_FAIL;
}
