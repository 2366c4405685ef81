/*
 * builtin/status.c - the one place where a return value becomes an exit
 * status (README "Exit status"): library code returns 0 or -errno, and
 * main() passes every command's return through builtin_exit().
 */
#include <errno.h>
#include "builtin/builtin.h"
#include "lib/log.h"
#include "lib/opt.h"

int builtin_exit(int ret)
{
	if (ret == 0 || ret == OPT_HELP_SHOWN)
		return EX_OK;
	if (ret > 0)
		return ret;	/* already an exit status */
	switch (-ret) {
	case EINVAL:
	case ERANGE:
	case E2BIG:
	case ENAMETOOLONG:
	case EDOM:
		return EX_USAGE;	/* what was asked for cannot be: fix the command line */
	case ENOMEM:
	case ENOENT:
	case ENODEV:
	case ENXIO:
	case EACCES:
	case EPERM:
	case EOPNOTSUPP:
	case ENOSYS:
	case EPROTONOSUPPORT:
	case ECONNREFUSED:
	case EHOSTUNREACH:
	case ENETUNREACH:
	case EADDRINUSE:
	case EBUSY:
		return EX_RESOURCE;	/* something this machine lacks: the message says how to get it */
	default:
		return EX_FAIL;
	}
}
