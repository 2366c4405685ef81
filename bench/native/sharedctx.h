/*
 * sharedctx.h - the user-space interface of our sparc64 shared-context
 * series, taken from kernel/uapi-sharedctx.h (the one source of the values).
 * Only sparc64 kernels with the series accept the flags; everywhere else
 * `run --sharedctx` fails with exit 3 before anything is mapped.
 */
#ifndef SGA_SHAREDCTX_H
#define SGA_SHAREDCTX_H

#include "kernel/uapi-sharedctx.h"

#if SHAREDCTX_SUPPORTED
#define SHAREDCTX_ARCH_HAS_FLAGS 1
/*
 * The series refuses MAP_SHAREDCTX with plain MAP_SHARED (EINVAL), so that
 * old kernels fail instead of ignoring it.  Callers OR this into
 * MAP_SHARED | MAP_FIXED; MAP_SHARED (1) | MAP_SHARED_VALIDATE (3) is
 * MAP_SHARED_VALIDATE.
 */
#define SHAREDCTX_MAP_FLAG (MAP_SHAREDCTX | MAP_SHARED_VALIDATE)
#define SHAREDCTX_SHM_FLAG SHM_SHAREDCTX
#define SHAREDCTX_SMAPS_MNEMONIC SHAREDCTX_SMAPS_FLAG
#else
#define SHAREDCTX_ARCH_HAS_FLAGS 0
#define SHAREDCTX_MAP_FLAG 0
#define SHAREDCTX_SHM_FLAG 0
#define SHAREDCTX_SMAPS_MNEMONIC "sc"
#endif

#endif
