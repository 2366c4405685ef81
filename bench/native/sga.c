/* sga.c - create the SGA once, attach it at one address in every task. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "lib/log.h"
#include "lib/parse.h"
#include "machine/place.h"
#include "native/sga.h"
#include "native/sharedctx.h"
#include "machine/sysinfo.h"

#ifndef SHM_HUGE_SHIFT
#define SHM_HUGE_SHIFT 26
#endif
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif
#ifndef MFD_HUGE_SHIFT
#define MFD_HUGE_SHIFT 26
#endif

#define GIB (1ULL << 30)

uint64_t sga_page_bytes(int page)
{
	switch (page) {
	case SGA_PAGE_2M: return 2ULL << 20;
	case SGA_PAGE_1G: return GIB;
	case SGA_PAGE_THP: return 2ULL << 20;	/* the unit THP aims for */
	case SGA_PAGE_8M: return 8ULL << 20;
	default: return (uint64_t)sysconf(_SC_PAGESIZE);
	}
}

uint64_t sga_hugetlb_bytes(int page)
{
	return page == SGA_PAGE_2M || page == SGA_PAGE_1G || page == SGA_PAGE_8M ?
	       sga_page_bytes(page) : 0;
}

/* log2 of a power of two. */
static unsigned ilog2(uint64_t v)
{
	unsigned s = 0;

	while (v > 1) {
		v >>= 1;
		s++;
	}
	return s;
}

/*
 * Find a hugetlbfs mount whose pagesize matches hp (bytes) in /proc/mounts.
 * Returns 0 and the mount point in dir, or -ENOENT.
 */
static int find_hugetlbfs(uint64_t hp, char *dir, size_t len)
{
	FILE *f = fopen("/proc/mounts", "r");
	char line[1024];
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f)) {
		char dev[256], mnt[512], type[64], opts[512];
		uint64_t ps = 2ULL << 20;	/* the default hugepage size on x86 */
		char *p;

		if (sscanf(line, "%255s %511s %63s %511s", dev, mnt, type, opts) != 4 ||
		    strcmp(type, "hugetlbfs") != 0)
			continue;
		p = strstr(opts, "pagesize=");
		if (p) {
			char val[32];

			sscanf(p + 9, "%31[^,]", val);
			if (parse_size(val, &ps))
				continue;
		}
		if (ps == hp) {
			snprintf(dir, len, "%s", mnt);
			ret = 0;
		}
	}
	fclose(f);
	return ret;
}

/* Is the shared context offered here? 0 yes, else -EOPNOTSUPP with why. */
static int sharedctx_offered(char *err, size_t errlen)
{
	struct utsname u;

	uname(&u);
	if (!SHAREDCTX_ARCH_HAS_FLAGS) {
		snprintf(err, errlen, "not supported here: the sparc64 shared context needs a "
			 "sparc64 kernel with the sgabench series (kernel/), this is %s", u.machine);
		return -EOPNOTSUPP;
	}
	return 0;
}

int sga_check_size(const struct sga_cfg *cfg, char *err, size_t errlen)
{
	uint64_t pb = sga_page_bytes(cfg->page);
	char a[32], b[32];

	if (cfg->size == 0 || cfg->size % pb) {
		snprintf(err, errlen, "--sga-size %s is not a multiple of the %s page size",
			 fmt_size(cfg->size, a, sizeof(a)), fmt_size(pb, b, sizeof(b)));
		return -EINVAL;
	}
	if (cfg->page == SGA_PAGE_THP && cfg->size % (2ULL << 20)) {
		snprintf(err, errlen, "--page-size thp needs --sga-size a multiple of 2 MiB");
		return -EINVAL;
	}
	return 0;
}

/* The fix for a user who may not create SHM_HUGETLB segments, after "; ". */
static void shm_group_fix(char *b, size_t len)
{
	snprintf(b, len, "a user needs the group of vm.hugetlb_shm_group: "
		 "as root: sysctl -w vm.hugetlb_shm_group=%u, or use --backing memfd", (unsigned)getegid());
}

int sga_preflight(const struct sga_cfg *cfg, char *err, size_t errlen)
{
	uint64_t pb = sga_page_bytes(cfg->page), hp = sga_hugetlb_bytes(cfg->page);
	char a[32];
	int ret = sga_check_size(cfg, err, errlen);

	if (ret)
		return ret;
	if (cfg->sharedctx) {
		ret = sharedctx_offered(err, errlen);

		if (ret)
			return ret;
		if (!hp) {
			snprintf(err, errlen, "--sharedctx needs hugetlb pages (--page-size 8m on sparc64)");
			return -EINVAL;
		}
	}
	if (hp) {
		struct si_pool pool;
		uint64_t need = cfg->size / hp;

		if (sysinfo_pool(hp, &pool)) {
			snprintf(err, errlen, "this kernel has no %s hugetlb pool (see /sys/kernel/mm/hugepages)",
				 fmt_size(hp, a, sizeof(a)));
			return -ENOENT;
		}
		if ((uint64_t)(pool.free - pool.resv) < need) {
			long have = pool.free - pool.resv;
			char grp[200] = "";

			/* Both fixes at once: the group is the next refusal. */
			if (cfg->backing == SGA_SHM && !sysinfo_shm_hugetlb_allowed()) {
				grp[0] = ';';
				grp[1] = ' ';
				shm_group_fix(grp + 2, sizeof(grp) - 2);
			}
			if (hp == (2ULL << 20))
				snprintf(err, errlen, "need %llu free 2 MiB hugepages, %ld free; "
					 "as root: sysctl vm.nr_hugepages=%llu%s",
					 (unsigned long long)need, have,
					 (unsigned long long)(pool.total + need - (uint64_t)have), grp);
			else
				snprintf(err, errlen, "need %llu free %s hugepages, %ld free; as root: echo %llu > "
					 "/sys/kernel/mm/hugepages/hugepages-%llukB/nr_hugepages%s",
					 (unsigned long long)need, fmt_size(hp, a, sizeof(a)), have,
					 (unsigned long long)(pool.total + need - (uint64_t)have),
					 (unsigned long long)(hp >> 10), grp);
			return -ENOMEM;
		}
		if (cfg->backing == SGA_FILE && !cfg->hugetlbfs_dir) {
			char dir[512];

			if (find_hugetlbfs(hp, dir, sizeof(dir))) {
				snprintf(err, errlen, "no hugetlbfs mount with pagesize=%s; as root: mkdir -p "
					 "/dev/hugepages-%llukB && mount -t hugetlbfs -o pagesize=%lluk none "
					 "/dev/hugepages-%llukB", fmt_size(hp, a, sizeof(a)),
					 (unsigned long long)(hp >> 10), (unsigned long long)(hp >> 10),
					 (unsigned long long)(hp >> 10));
				return -ENOENT;
			}
		}
	}
	if (cfg->address && cfg->address % (cfg->page == SGA_PAGE_THP ? (2ULL << 20) : pb)) {
		snprintf(err, errlen, "--address 0x%llx is not aligned to the page size",
			 (unsigned long long)cfg->address);
		return -EINVAL;
	}
	return 0;
}

/* Create the backing object: a SysV segment, a memfd or an unlinked file. */
static int create_backing(struct sga *s, char *err, size_t errlen)
{
	uint64_t hp = sga_hugetlb_bytes(s->cfg.page);
	int e;

	if (s->cfg.backing == SGA_SHM) {
		int flags = IPC_CREAT | IPC_EXCL | 0600;

		if (hp)
			flags |= SHM_HUGETLB | (int)(ilog2(hp) << SHM_HUGE_SHIFT);
		s->shmid = shmget(IPC_PRIVATE, s->cfg.size, flags);
		if (s->shmid < 0) {
			char fix[160] = "";

			e = errno;
			/* SHM_HUGETLB is for root and the group vm.hugetlb_shm_group names. */
			if (e == EPERM) {
				fix[0] = ';';
				fix[1] = ' ';
				shm_group_fix(fix + 2, sizeof(fix) - 2);
			}
			else if (e == EINVAL)
				snprintf(fix, sizeof(fix), "; check kernel.shmmax");
			snprintf(err, errlen, "shmget of %llu bytes%s: %s%s",
				 (unsigned long long)s->cfg.size, hp ? " (SHM_HUGETLB)" : "", strerror(e), fix);
			return e == ENOMEM || e == ENOSPC || e == EPERM ? -e : -EIO;
		}
		/* Attach once in the creator, then mark for removal at once: the
		 * segment lives while anything is attached and cannot leak. */
		s->creator_map = shmat(s->shmid, NULL, 0);
		e = errno;
		shmctl(s->shmid, IPC_RMID, NULL);
		if (s->creator_map == (void *)-1) {
			s->creator_map = NULL;
			s->shmid = -1;
			snprintf(err, errlen, "shmat: %s", strerror(e));
			return -EIO;
		}
		return 0;
	}
	if (s->cfg.backing == SGA_MEMFD) {
		unsigned flags = MFD_CLOEXEC;

		if (hp)
			flags |= MFD_HUGETLB | (ilog2(hp) << MFD_HUGE_SHIFT);
		s->fd = memfd_create("sgabench-sga", flags);
	} else {
		char dir[512], path[600];

		if (s->cfg.hugetlbfs_dir)
			snprintf(dir, sizeof(dir), "%s", s->cfg.hugetlbfs_dir);
		else if (!hp)
			snprintf(dir, sizeof(dir), "/dev/shm");
		else if (find_hugetlbfs(hp, dir, sizeof(dir))) {
			snprintf(err, errlen, "no hugetlbfs mount for this page size");
			return -ENOENT;
		}
		snprintf(path, sizeof(path), "%s/sgabench-XXXXXX", dir);
		s->fd = mkostemp(path, O_CLOEXEC);
		if (s->fd >= 0)
			unlink(path);	/* nothing is left behind, whatever happens */
	}
	if (s->fd < 0) {
		e = errno;
		snprintf(err, errlen, "creating the %s: %s",
			 s->cfg.backing == SGA_MEMFD ? "memfd" : "file", strerror(e));
		return e == ENOENT || e == EACCES ? -e : -EIO;
	}
	if (ftruncate(s->fd, (off_t)s->cfg.size) != 0) {
		e = errno;
		snprintf(err, errlen, "sizing the SGA to %llu bytes: %s",
			 (unsigned long long)s->cfg.size, strerror(e));
		return e == ENOSPC || e == ENOMEM ? -e : -EIO;
	}
	return 0;
}

/*
 * Choose the shared address: a 1 GiB-aligned free range (plus one huge
 * page for --align pmd, so hugetlb page tables cannot be shared), and keep
 * it reserved PROT_NONE so nothing else lands there before tasks attach.
 */
static int reserve_address(struct sga *s, char *err, size_t errlen)
{
	uint64_t off = 0, len;
	void *p;

	if (s->cfg.align == SGA_ALIGN_PMD)
		off = s->cfg.page == SGA_PAGE_1G ? GIB : (2ULL << 20);
	if (s->cfg.address) {
		p = mmap((void *)(uintptr_t)s->cfg.address, s->cfg.size, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
		if (p == MAP_FAILED || (uintptr_t)p != s->cfg.address) {
			if (p != MAP_FAILED)
				munmap(p, s->cfg.size);
			snprintf(err, errlen, "address range 0x%llx-0x%llx is occupied",
				 (unsigned long long)s->cfg.address,
				 (unsigned long long)(s->cfg.address + s->cfg.size));
			return -EADDRINUSE;
		}
		s->addr = (uintptr_t)p;
		s->reserve = p;
		return 0;
	}
	len = s->cfg.size + 2 * GIB + off;
	p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		snprintf(err, errlen, "no free address range of %llu bytes: %s",
			 (unsigned long long)len, strerror(errno));
		return -ENOMEM;
	}
	s->addr = (((uintptr_t)p + GIB - 1) & ~(uintptr_t)(GIB - 1)) + off;
	/* Keep only [addr, addr+size) reserved. */
	if (s->addr > (uintptr_t)p)
		munmap(p, s->addr - (uintptr_t)p);
	munmap((void *)(s->addr + s->cfg.size), (uintptr_t)p + len - s->addr - s->cfg.size);
	s->reserve = (void *)s->addr;
	return 0;
}

/* Bind the creator's view to a node and prefault it there; verify. */
static int bind_and_prefault(struct sga *s, char *err, size_t errlen)
{
	void *p = s->creator_map;
	uint64_t on = 0, off = 0, pb = sga_page_bytes(s->cfg.page);
	int ret;

	if (!p) {
		p = mmap(NULL, s->cfg.size, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
		if (p == MAP_FAILED) {
			snprintf(err, errlen, "mapping the SGA in the creator: %s", strerror(errno));
			return -ENOMEM;
		}
		s->creator_map = p;
	}
	ret = place_bind_memory(p, s->cfg.size, s->cfg.mem_node);
	if (ret) {
		snprintf(err, errlen, "binding the SGA to node %d: %s", s->cfg.mem_node, strerror(-ret));
		return ret == -EINVAL ? -EINVAL : -ENODEV;
	}
	for (uint64_t o = 0; o < s->cfg.size; o += pb)
		__atomic_fetch_add((volatile uint64_t *)((char *)p + o), 0, __ATOMIC_RELAXED);
	ret = place_check_numa_maps(p, s->cfg.mem_node, &on, &off);
	if (ret == 0 && off > 0) {
		snprintf(err, errlen, "numa_maps: %llu pages of the SGA are not on node %d",
			 (unsigned long long)off, s->cfg.mem_node);
		return -ENOMEM;
	}
	return 0;
}

int sga_create(struct sga *s, const struct sga_cfg *cfg, char *err, size_t errlen)
{
	uint64_t hp = sga_hugetlb_bytes(cfg->page);
	const char *kind;
	char a[32];
	int ret;

	struct sga_cfg copy = *cfg;	/* cfg may point into s */

	memset(s, 0, sizeof(*s));
	s->cfg = copy;
	cfg = &s->cfg;
	s->shmid = -1;
	s->fd = -1;
	s->page_size = sga_page_bytes(cfg->page);
	ret = create_backing(s, err, errlen);
	if (!ret)
		ret = reserve_address(s, err, errlen);
	if (!ret && cfg->mem_node >= 0)
		ret = bind_and_prefault(s, err, errlen);
	if (ret) {
		sga_destroy(s);
		return ret;
	}
	/* The tasks attach at s->addr themselves: an inherited creator's view
	 * would be the tool's work in startup-s (fork copies it, populated
	 * after bind_and_prefault, and each task drops it). */
	s->creator_dontfork = s->creator_map && madvise(s->creator_map, cfg->size, MADV_DONTFORK) == 0;
	kind = cfg->page == SGA_PAGE_THP ? "shmem with THP" : hp ? "hugetlb" : "shmem";
	snprintf(s->desc, sizeof(s->desc), "%s, %s%s%s, %s-aligned at 0x%llx",
		 cfg->backing == SGA_SHM ? "SysV shm" : cfg->backing == SGA_MEMFD ? "memfd" : "file",
		 hp ? fmt_size(hp, a, sizeof(a)) : "4 KiB", hp ? " " : " ", kind,
		 cfg->align == SGA_ALIGN_PUD ? "PUD" : "PMD", (unsigned long long)s->addr);
	return 0;
}

/* Describe a failed attach; a refused shared context gets its own words. */
static void attach_error(const struct sga *s, const char *call, int e, char *err, size_t errlen)
{
	if (s->cfg.sharedctx && e == EOPNOTSUPP)
		snprintf(err, errlen, "not supported here: the kernel refused the shared MMU context "
			 "(%s: EOPNOTSUPP); it needs the kernel/ series on a sun4v CPU whose machine "
			 "description offers a second context (UltraSPARC T2 and later, not T1 or QEMU), "
			 "booted without shared_mmu_ctx=off", call);
	else
		snprintf(err, errlen, "%s at 0x%llx: %s", call, (unsigned long long)s->addr, strerror(e));
}

void *sga_attach(struct sga *s, char *err, size_t errlen)
{
	void *want = (void *)s->addr, *p;

	if (s->cfg.backing == SGA_SHM) {
		int flags = SHM_REMAP;

		if (s->cfg.sharedctx)
			flags |= SHAREDCTX_SHM_FLAG;
		p = shmat(s->shmid, want, flags);
		if (p == (void *)-1) {
			attach_error(s, "shmat", errno, err, errlen);
			return NULL;
		}
		/* The creator's attachment came along with fork (unless
		 * MADV_DONTFORK kept it out); drop it. */
		if (s->creator_map && !s->creator_dontfork)
			shmdt(s->creator_map);
	} else {
		int flags = MAP_SHARED | MAP_FIXED;

		if (s->cfg.sharedctx)
			flags |= SHAREDCTX_MAP_FLAG;
		p = mmap(want, s->cfg.size, PROT_READ | PROT_WRITE, flags, s->fd, 0);
		if (p == MAP_FAILED) {
			attach_error(s, "mmap", errno, err, errlen);
			return NULL;
		}
		if (s->creator_map && !s->creator_dontfork)
			munmap(s->creator_map, s->cfg.size);
	}
	if (s->cfg.page == SGA_PAGE_THP)
		madvise(p, s->cfg.size, MADV_HUGEPAGE);
	return p;
}

void sga_detach(struct sga *s, void *p)
{
	if (!p)
		return;
	if (s->cfg.backing == SGA_SHM)
		shmdt(p);
	else
		munmap(p, s->cfg.size);
}

void sga_destroy(struct sga *s)
{
	if (s->creator_map) {
		if (s->cfg.backing == SGA_SHM)
			shmdt(s->creator_map);
		else
			munmap(s->creator_map, s->cfg.size);
		s->creator_map = NULL;
	}
	if (s->reserve) {
		munmap(s->reserve, s->cfg.size);
		s->reserve = NULL;
	}
	if (s->fd >= 0) {
		close(s->fd);
		s->fd = -1;
	}
	s->shmid = -1;
}

int sga_has_sharedctx(void *addr)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in = 0, ret = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, ' ') &&
		    line[strspn(line, "0123456789abcdef")] == '-') {
			in = (uintptr_t)addr >= lo && (uintptr_t)addr < hi;
			continue;
		}
		if (in && strncmp(line, "VmFlags:", 8) == 0) {
			char *tok, *save = NULL;

			for (tok = strtok_r(line + 8, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
				if (strcmp(tok, SHAREDCTX_SMAPS_MNEMONIC) == 0)
					ret = 1;
			break;
		}
	}
	fclose(f);
	return ret;
}
