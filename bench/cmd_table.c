/* cmd_table.c - placeholder until its owner lands it; fails loudly. */
#include "commands.h"
#include "log.h"

int cmd_table(int argc, char **argv)
{
	error("'table' is not implemented yet");
	return EX_FAIL;
}
