/* cmd_sysinfo.c - placeholder until its owner lands it; fails loudly. */
#include "commands.h"
#include "log.h"

int cmd_sysinfo(int argc, char **argv)
{
	error("'sysinfo' is not implemented yet");
	return EX_FAIL;
}
