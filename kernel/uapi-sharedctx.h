/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * sgabench: user-space interface of the sparc64 shared MMU context series
 * in kernel/patches/ (Linux 6.1).  The values exist on sparc64 only; on
 * other architectures SHAREDCTX_SUPPORTED is 0 and nothing is defined.
 *
 *   mmap(addr, len, prot, MAP_SHARED_VALIDATE | MAP_FIXED | MAP_SHAREDCTX,
 *        fd, 0)   fd: hugetlbfs file, or fd -1 with MAP_ANONYMOUS | MAP_HUGETLB.
 *                 Plain MAP_SHARED is refused (EINVAL), so that kernels
 *                 without the series fail (EOPNOTSUPP) instead of ignoring
 *                 the flag.
 *   shmat(shmid, addr, SHM_SHAREDCTX)     segment created with SHM_HUGETLB
 *
 * Errors: EINVAL if not MAP_SHARED_VALIDATE, not fixed (addr required) or
 * not hugetlb of the default (8 MB) huge page size; EOPNOTSUPP if the CPU
 * has no usable second MMU context (no "mmu-#shared-contexts" in the
 * machine description, UltraSPARC T1, QEMU), with shared_mmu_ctx=off, or
 * without CONFIG_SHARED_MMU_CTX (shmat too); EAGAIN if a new shared
 * context would exceed the global or per-user limit
 * (/sys/module/shared_ctx/parameters/).  A kernel without the series
 * returns EOPNOTSUPP for MAP_SHARED_VALIDATE and ignores SHM_SHAREDCTX.
 *
 * Success does not guarantee sharing: the mapping really uses a shared
 * context only if its VmFlags line in /proc/PID/smaps contains the
 * mnemonic SHAREDCTX_SMAPS_FLAG ("sc").
 */
#ifndef SGABENCH_UAPI_SHAREDCTX_H
#define SGABENCH_UAPI_SHAREDCTX_H

#if defined(__sparc__) && defined(__arch64__)
#define SHAREDCTX_SUPPORTED	1
#define MAP_SHAREDCTX		0x200000	/* mmap() flag */
#define SHM_SHAREDCTX		0200000		/* shmat() flag (0x10000) */
#define SHAREDCTX_SMAPS_FLAG	"sc"		/* VmFlags mnemonic */
#else
#define SHAREDCTX_SUPPORTED	0
#endif

#endif /* SGABENCH_UAPI_SHAREDCTX_H */
