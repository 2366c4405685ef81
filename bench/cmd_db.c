/* cmd_db.c - placeholder until its owner lands it; fails loudly. */
#include "commands.h"
#include "log.h"

int cmd_db(int argc, char **argv)
{
	error("'db' is not implemented yet");
	return EX_FAIL;
}
