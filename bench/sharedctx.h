/*
 * sharedctx.h - the user-space interface of our sparc64 shared-context
 * series (kernel/). Only sparc64 kernels with the series accept the flags;
 * everywhere else `run --sharedctx` fails with exit 3 before mapping.
 * The values must match kernel/uapi-sharedctx.h.
 */
#ifndef SGA_SHAREDCTX_H
#define SGA_SHAREDCTX_H

#if defined(__sparc__) && defined(__arch64__)
#define SHAREDCTX_ARCH_HAS_FLAGS 1
#define SHAREDCTX_MAP_FLAG 0x200000	/* MAP_SHAREDCTX */
#define SHAREDCTX_SHM_FLAG 0200000	/* SHM_SHAREDCTX */
#else
#define SHAREDCTX_ARCH_HAS_FLAGS 0
#define SHAREDCTX_MAP_FLAG 0
#define SHAREDCTX_SHM_FLAG 0
#endif
/* VmFlags mnemonic in /proc/PID/smaps of a mapping that got a shared context. */
#define SHAREDCTX_SMAPS_MNEMONIC "sc"

#endif
