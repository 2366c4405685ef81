/*
 * sga.h - the shared area: created once by the parent, then attached by
 * every task at the same virtual address after fork (never inherited).
 */
#ifndef SGA_SGA_H
#define SGA_SGA_H

#include <stddef.h>
#include <stdint.h>

/* 4k means the base page of the machine (8 KiB on sparc64); 8m is sparc64's default hugetlb size. */
enum sga_page { SGA_PAGE_4K, SGA_PAGE_2M, SGA_PAGE_1G, SGA_PAGE_THP, SGA_PAGE_8M };
enum sga_backing { SGA_SHM, SGA_MEMFD, SGA_FILE };
enum sga_align { SGA_ALIGN_PUD, SGA_ALIGN_PMD };

#define SGA_PAGE_CHOICES "4k|2m|1g|thp|8m"
#define SGA_BACKING_CHOICES "shm|memfd|file"
#define SGA_ALIGN_CHOICES "pud|pmd"

struct sga_cfg {
	uint64_t size;		/* bytes, a multiple of the page size */
	int page;		/* enum sga_page */
	int backing;		/* enum sga_backing */
	int align;		/* enum sga_align */
	uint64_t address;	/* 0: choose; else this exact address (must be free) */
	const char *hugetlbfs_dir;	/* for SGA_FILE: a mount; NULL: find one */
	int sharedctx;		/* request the sparc64 shared context */
	int mem_node;		/* bind and prefault on this NUMA node; -1 none */
};

struct sga {
	struct sga_cfg cfg;
	uint64_t page_size;	/* bytes of one page of the backing */
	uintptr_t addr;		/* the address every task attaches at */
	int shmid;		/* SysV id (already IPC_RMID'd), or -1 */
	int fd;			/* memfd / unlinked hugetlbfs or tmpfs file, or -1 */
	void *creator_map;	/* the creator's own attachment (keeps the shm alive), or NULL;
				 * MADV_DONTFORK when the kernel allows: a task never inherits it */
	int creator_dontfork;	/* creator_map is MADV_DONTFORK: a task has none to drop */
	void *reserve;		/* PROT_NONE reservation of [addr, addr+size) in the creator */
	char desc[160];		/* e.g. "shm, 2 MiB hugetlb, PUD-aligned at 0x7f8000000000" */
};

/* Bytes per page for a page kind: the unit a task touches (thp: 2 MiB). */
uint64_t sga_page_bytes(int page);

/* Huge page size the kind needs from a hugetlb pool, 0 for 4k/thp. */
uint64_t sga_hugetlb_bytes(int page);

/* Check that the size is a non-zero multiple of the page size. 0 or -EINVAL. */
int sga_check_size(const struct sga_cfg *cfg, char *err, size_t errlen);

/*
 * Check that the configuration can be satisfied before anything is made:
 * size is a multiple of the page size, enough free hugepages, a hugetlbfs
 * mount exists for SGA_FILE, the shared context is offered. Returns 0, or
 * -EINVAL (a request that cannot be) or -ENOMEM, -ENOENT, -EOPNOTSUPP
 * (what this machine lacks) with the reason and the exact fix in err.
 */
int sga_preflight(const struct sga_cfg *cfg, char *err, size_t errlen);

/*
 * Create the area (SysV segment marked IPC_RMID at once, memfd, or an
 * unlinked hugetlbfs file), choose the shared address and reserve it.
 * Returns 0, or -errno (-ENOMEM, -EADDRINUSE, ...; -EIO for an unexpected
 * failure) with the reason in err; on failure
 * nothing is left behind.
 */
int sga_create(struct sga *s, const struct sga_cfg *cfg, char *err, size_t errlen);

/*
 * In a task (after fork): attach the area at s->addr, replacing the
 * inherited reservation, and drop the inherited creator attachment.
 * Returns the address, or NULL with the reason in err.
 */
void *sga_attach(struct sga *s, char *err, size_t errlen);

/* In a task: detach what sga_attach() returned. */
void sga_detach(struct sga *s, void *p);

/* In the creator: release everything. Safe to call twice. */
void sga_destroy(struct sga *s);

/*
 * Report whether the mapping at addr carries the shared-context VmFlags
 * mnemonic in /proc/self/smaps: 1 yes, 0 no, -errno on error.
 */
int sga_has_sharedctx(void *addr);

#endif
