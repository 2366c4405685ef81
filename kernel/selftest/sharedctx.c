// SPDX-License-Identifier: GPL-2.0
/*
 * sparc64 shared MMU contexts: MAP_SHAREDCTX and SHM_SHAREDCTX.
 *
 * What the kernel offers decides what is expected.  It is found from
 * debugfs "shared_mmu_ctx" (mode: hardware, emulate or off) when it is
 * there, and otherwise by asking:
 *   hardware    the machine description offers context register 1:
 *               valid requests succeed and the mapping shows "sc";
 *               invalid ones fail with EINVAL
 *   emulate     shared_mmu_ctx=emulate (CONFIG_SHARED_MMU_CTX_DEBUG):
 *               as hardware, plus the bookkeeping seen in debugfs,
 *               the limits and fault injection
 *   eopnotsupp  CONFIG_SHARED_MMU_CTX without a usable context register
 *               1 (UltraSPARC T1, QEMU, shared_mmu_ctx=off): invalid
 *               requests fail with EINVAL, valid ones with EOPNOTSUPP
 *   off         the series without CONFIG_SHARED_MMU_CTX: every
 *               MAP_SHARED_VALIDATE or shmat() request fails with
 *               EOPNOTSUPP
 * A kernel without the series ignores SHM_SHAREDCTX; the test then
 * skips.  The first argument, or "sharedctx.expect=" on the kernel
 * command line, overrides the guess.  Needs root and at least 8 free
 * 8MB huge pages.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "../kselftest.h"

#ifndef MAP_SHAREDCTX
#define MAP_SHAREDCTX	0x200000
#endif
#ifndef SHM_SHAREDCTX
#define SHM_SHAREDCTX	0200000
#endif
#ifndef MAP_HUGETLB
#define MAP_HUGETLB	0x40000
#endif
#ifndef MAP_SHARED_VALIDATE
#define MAP_SHARED_VALIDATE 0x03
#endif
#ifndef SHM_HUGETLB
#define SHM_HUGETLB	04000
#endif

#define HPAGE		(8UL << 20)
#define SGA_SIZE	(2 * HPAGE)
#define SGA_ADDR	((void *)0x100000000UL)
#define ALT_ADDR	((void *)0x140000000UL)
#define OTHER_ADDR	((void *)0x180000000UL)
#define NTASKS		3
#define DEBUGFS_FILE	"/sys/kernel/debug/shared_mmu_ctx"
#define FAIL_ATTACH	"/sys/kernel/debug/shared_mmu_ctx_fail_attach"
#define PARAMS		"/sys/module/shared_ctx/parameters/"
#define SC_FLAGS	(MAP_SHARED_VALIDATE | MAP_FIXED | MAP_SHAREDCTX)

enum expect { EXPECT_NONE, EXPECT_EOPNOTSUPP, EXPECT_EMULATE, EXPECT_OFF,
	      EXPECT_HW };

static enum expect expect = EXPECT_EOPNOTSUPP;
static char cmdline[1024];
static int case_failed;
static const char *case_skipped;	/* why the running case cannot run */

/*
 * One check inside a test case: reported as a TAP diagnostic line; a
 * failure fails the case.
 */
static void check(int ok, const char *name, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (ok) {
		ksft_print_msg("ok   %s\n", name);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ksft_print_msg("FAIL %s: %s\n", name, msg);
	case_failed = 1;
}

/* Does a valid request share (and show "sc")? */
static int expect_sharing(void)
{
	return expect == EXPECT_EMULATE || expect == EXPECT_HW;
}

static int parse_expect(const char *v)
{
	if (!strncmp(v, "emulate", 7))
		expect = EXPECT_EMULATE;
	else if (!strncmp(v, "hardware", 8))
		expect = EXPECT_HW;
	else if (!strncmp(v, "none", 4))
		expect = EXPECT_NONE;
	else if (!strncmp(v, "off", 3))
		expect = EXPECT_OFF;
	else if (!strncmp(v, "eopnotsupp", 10))
		expect = EXPECT_EOPNOTSUPP;
	else
		return -1;
	return 0;
}

/*
 * No expectation given: ask the kernel.  debugfs knows with the debug
 * option; otherwise an invalid request tells whether the option is built
 * (EINVAL before anything else), a valid one whether the hardware is
 * used, and shmat() whether the kernel has the series at all (without
 * it SHM_SHAREDCTX is ignored and the attach succeeds).
 */
static void probe_expectation(void)
{
	char line[128] = "";
	FILE *f = fopen(DEBUGFS_FILE, "r");
	int id, err;
	void *p;

	if (f) {
		if (fgets(line, sizeof(line), f)) {
			if (strstr(line, "emulate"))
				expect = EXPECT_EMULATE;
			else if (strstr(line, "hardware"))
				expect = EXPECT_HW;
			else
				expect = EXPECT_EOPNOTSUPP;
		}
		fclose(f);
		if (line[0])
			return;
	}
	errno = 0;
	p = mmap(NULL, HPAGE, PROT_READ, MAP_SHARED_VALIDATE | MAP_ANONYMOUS |
		 MAP_SHAREDCTX, -1, 0);
	err = errno;
	if (p != MAP_FAILED)
		munmap(p, HPAGE);
	if (err == EINVAL) {
		errno = 0;
		p = mmap(SGA_ADDR, SGA_SIZE, PROT_READ | PROT_WRITE, SC_FLAGS |
			 MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
		err = errno;
		if (p != MAP_FAILED) {
			munmap(p, SGA_SIZE);
			expect = EXPECT_HW;
		} else {
			expect = err == EOPNOTSUPP ? EXPECT_EOPNOTSUPP :
						     EXPECT_NONE;
		}
		return;
	}
	id = shmget(IPC_PRIVATE, SGA_SIZE, IPC_CREAT | SHM_HUGETLB | 0600);
	if (id < 0)
		return;
	p = shmat(id, SGA_ADDR, SHM_SHAREDCTX);
	err = errno;
	if (p != (void *)-1)
		shmdt(p);
	shmctl(id, IPC_RMID, NULL);
	expect = p == (void *)-1 && err == EOPNOTSUPP ? EXPECT_OFF : EXPECT_NONE;
}

static void read_expectation(int argc, char **argv)
{
	const char *v;
	FILE *f = fopen("/proc/cmdline", "r");

	if (f) {
		if (!fgets(cmdline, sizeof(cmdline), f))
			cmdline[0] = 0;
		fclose(f);
	}
	if (argc > 1 && !parse_expect(argv[1]))
		return;
	v = strstr(cmdline, "sharedctx.expect=");
	if (v && !parse_expect(v + strlen("sharedctx.expect=")))
		return;
	expect = EXPECT_NONE;
	probe_expectation();
}

/* Write @val to the file @path; 0 or -1 */
static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -1;
}

/* Does the VMA starting at @addr in /proc/@pid/smaps carry @flag? */
static int vma_has_flag(pid_t pid, void *addr, const char *flag)
{
	char path[64], line[512];
	unsigned long start, end;
	int in_vma = 0, found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/smaps", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		/* VMA header: "start-end perms offset dev inode path" */
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2) {
			in_vma = start == (unsigned long)addr;
			continue;
		}
		if (in_vma && !strncmp(line, "VmFlags:", 8)) {
			char pat[8];

			snprintf(pat, sizeof(pat), " %s", flag);
			found = strstr(line + 8, pat) != NULL;
			break;
		}
	}
	fclose(f);
	return found;
}

static int self_has_sc(void *addr)
{
	return vma_has_flag(getpid(), addr, "sc");
}

/* Shared context accounting from debugfs (emulation kernels). */
struct ctxstat {
	long allocated, freed, attached;
	int nctx;
	unsigned long ctx[8];
	unsigned int refs[8];
	int reserved[8];
};

static int read_ctxstat(struct ctxstat *st)
{
	char line[256];
	FILE *f = fopen(DEBUGFS_FILE, "r");

	memset(st, 0, sizeof(*st));
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long c;
		unsigned int r;
		int res;

		if (sscanf(line, "allocated: %ld", &st->allocated) == 1 ||
		    sscanf(line, "freed: %ld", &st->freed) == 1 ||
		    sscanf(line, "attached_mms: %ld", &st->attached) == 1)
			continue;
		if (sscanf(line, "ctx %lu refs %u reserved %d", &c, &r, &res) == 3 &&
		    st->nctx < 8) {
			st->ctx[st->nctx] = c;
			st->refs[st->nctx] = r;
			st->reserved[st->nctx] = res;
			st->nctx++;
		}
	}
	fclose(f);
	return 0;
}

static void fill(void *p, size_t len, unsigned int seed)
{
	uint32_t *w = p;
	size_t i;

	for (i = 0; i < len / sizeof(*w); i += 1024)
		w[i] = seed ^ (uint32_t)i;
}

/* Check [off, off + len) of a region filled from @p with fill(p, .., seed) */
static int verify_range(void *p, size_t off, size_t len, unsigned int seed)
{
	uint32_t *w = p;
	size_t i;

	for (i = off / sizeof(*w); i < (off + len) / sizeof(*w); i += 1024)
		if (w[i] != (seed ^ (uint32_t)i))
			return 0;
	return 1;
}

static int verify(void *p, size_t len, unsigned int seed)
{
	return verify_range(p, 0, len, seed);
}

/*
 * The SGA: a SHM_HUGETLB segment attached at the same address by several
 * tasks, each of which checks what the others wrote.  @shmflg is 0 for a
 * normal run, SHM_SHAREDCTX for a shared-context run.
 */
static void test_sga(const char *name, void *addr, int shmflg)
{
	int id, i, ok = 1, status;
	char *sga;
	pid_t pids[NTASKS];

	id = shmget(IPC_PRIVATE, SGA_SIZE, IPC_CREAT | SHM_HUGETLB | 0600);
	if (id < 0) {
		check(0, name, "shmget: %s", strerror(errno));
		return;
	}
	sga = shmat(id, addr, shmflg);
	if (sga == (void *)-1) {
		check(0, name, "shmat: %s", strerror(errno));
		shmctl(id, IPC_RMID, NULL);
		return;
	}
	fill(sga, HPAGE, 0x5a5a0000);

	for (i = 0; i < NTASKS; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			char *p;

			/* attach again as an independent user of the SGA */
			shmdt(sga);
			p = shmat(id, addr, shmflg);
			if (p != addr)
				_exit(2);
			if (!verify(p, HPAGE, 0x5a5a0000))
				_exit(3);
			fill(p + HPAGE + i * 4096 * 64, 4096 * 64,
			     0x1000 + i);
			if (shmflg && expect_sharing() &&
			    self_has_sc(addr) != 1)
				_exit(4);
			_exit(0);
		}
	}
	for (i = 0; i < NTASKS; i++) {
		if (pids[i] < 0 || waitpid(pids[i], &status, 0) < 0 ||
		    !WIFEXITED(status) || WEXITSTATUS(status)) {
			ok = 0;
			ksft_print_msg("%s: task %d status 0x%x\n", name, i,
				       status);
		}
	}
	for (i = 0; i < NTASKS; i++)
		if (!verify(sga + HPAGE + i * 4096 * 64, 4096 * 64, 0x1000 + i))
			ok = 0;
	shmdt(sga);
	shmctl(id, IPC_RMID, NULL);
	check(ok, name, "data or child failure");
}

/* The same with an anonymous MAP_SHARED|MAP_HUGETLB region shared by fork */
static void test_anon_fork(const char *name, int extra)
{
	int i, ok = 1, status;
	char *p;
	pid_t pid;

	p = mmap(SGA_ADDR, SGA_SIZE, PROT_READ | PROT_WRITE,
		 (extra ? MAP_SHARED_VALIDATE : MAP_SHARED) | MAP_ANONYMOUS |
		 MAP_HUGETLB | MAP_FIXED | extra, -1, 0);
	if (p == MAP_FAILED) {
		check(0, name, "mmap: %s", strerror(errno));
		return;
	}
	fill(p, SGA_SIZE, 0x77);
	for (i = 0; i < NTASKS; i++) {
		pid = fork();
		if (pid == 0) {
			if (!verify(p, HPAGE, 0x77))
				_exit(3);
			if (extra && expect_sharing() &&
			    self_has_sc(SGA_ADDR) != 1)
				_exit(4);
			fill(p + HPAGE + i * 4096, 4096, 0x99 + i);
			_exit(0);
		}
		if (pid < 0 || waitpid(pid, &status, 0) < 0 ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			ok = 0;
		if (!verify(p + HPAGE + i * 4096, 4096, 0x99 + i))
			ok = 0;
	}
	munmap(p, SGA_SIZE);
	check(ok, name, "data or child failure");
}

static void expect_errno(const char *name, void *ret, int want)
{
	int err = errno;

	if (ret != MAP_FAILED && ret != (void *)-1) {
		check(0, name, "succeeded, expected %s", strerror(want));
		munmap(ret, SGA_SIZE);
		return;
	}
	check(err == want, name, "errno %d (%s), expected %d (%s)", err,
	      strerror(err), want, strerror(want));
}

static void *try_mmap(void *addr, int flags)
{
	errno = 0;
	return mmap(addr, SGA_SIZE, PROT_READ | PROT_WRITE, flags, -1, 0);
}

static void test_invalid(void)
{
	int huge, small;

	expect_errno("mmap-plain-shared-einval",
		     try_mmap(SGA_ADDR, MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB |
			      MAP_FIXED | MAP_SHAREDCTX), EINVAL);
	expect_errno("mmap-private-einval",
		     try_mmap(SGA_ADDR, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
			      MAP_FIXED | MAP_SHAREDCTX), EINVAL);
	expect_errno("mmap-nofixed-einval",
		     try_mmap(NULL, MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB |
			      MAP_SHAREDCTX), EINVAL);
	expect_errno("mmap-validate-nofixed-einval",
		     try_mmap(NULL, MAP_SHARED_VALIDATE | MAP_ANONYMOUS |
			      MAP_HUGETLB | MAP_SHAREDCTX), EINVAL);
	expect_errno("mmap-nohuge-einval",
		     try_mmap(SGA_ADDR, MAP_SHARED_VALIDATE | MAP_ANONYMOUS |
			      MAP_FIXED | MAP_SHAREDCTX), EINVAL);
	expect_errno("mmap-fixed-only-einval",
		     try_mmap(SGA_ADDR, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED |
			      MAP_SHAREDCTX), EINVAL);
	expect_errno("mmap-shared-only-einval",
		     try_mmap(NULL, MAP_SHARED | MAP_ANONYMOUS | MAP_SHAREDCTX),
		     EINVAL);

	huge = shmget(IPC_PRIVATE, SGA_SIZE, IPC_CREAT | SHM_HUGETLB | 0600);
	small = shmget(IPC_PRIVATE, 1 << 20, IPC_CREAT | 0600);
	if (huge < 0 || small < 0) {
		check(0, "shmget", "%s", strerror(errno));
	} else {
		errno = 0;
		expect_errno("shmat-noaddr-einval",
			     shmat(huge, NULL, SHM_SHAREDCTX), EINVAL);
		errno = 0;
		expect_errno("shmat-nohuge-einval",
			     shmat(small, SGA_ADDR, SHM_SHAREDCTX), EINVAL);
	}
	if (huge >= 0)
		shmctl(huge, IPC_RMID, NULL);
	if (small >= 0)
		shmctl(small, IPC_RMID, NULL);
}

static void test_valid_eopnotsupp(void)
{
	int id;

	expect_errno("mmap-validate-eopnotsupp",
		     try_mmap(SGA_ADDR, MAP_SHARED_VALIDATE | MAP_ANONYMOUS |
			      MAP_HUGETLB | MAP_FIXED | MAP_SHAREDCTX),
		     EOPNOTSUPP);
	id = shmget(IPC_PRIVATE, SGA_SIZE, IPC_CREAT | SHM_HUGETLB | 0600);
	if (id < 0) {
		check(0, "shmget", "%s", strerror(errno));
		return;
	}
	errno = 0;
	expect_errno("shmat-valid-eopnotsupp",
		     shmat(id, SGA_ADDR, SHM_SHAREDCTX), EOPNOTSUPP);
	shmctl(id, IPC_RMID, NULL);
}

/*
 * The series without CONFIG_SHARED_MMU_CTX: MAP_SHARED_VALIDATE rejects
 * the unknown flag, and shmat() refuses SHM_SHAREDCTX instead of
 * ignoring it, valid request or not.
 */
static void test_off(void)
{
	int id;

	expect_errno("off-mmap-validate-eopnotsupp",
		     try_mmap(SGA_ADDR, MAP_SHARED_VALIDATE | MAP_ANONYMOUS |
			      MAP_HUGETLB | MAP_FIXED | MAP_SHAREDCTX),
		     EOPNOTSUPP);
	expect_errno("off-mmap-validate-nofixed-eopnotsupp",
		     try_mmap(NULL, MAP_SHARED_VALIDATE | MAP_ANONYMOUS |
			      MAP_HUGETLB | MAP_SHAREDCTX), EOPNOTSUPP);
	id = shmget(IPC_PRIVATE, SGA_SIZE, IPC_CREAT | SHM_HUGETLB | 0600);
	if (id < 0) {
		check(0, "shmget", "%s", strerror(errno));
		return;
	}
	errno = 0;
	expect_errno("off-shmat-eopnotsupp",
		     shmat(id, SGA_ADDR, SHM_SHAREDCTX), EOPNOTSUPP);
	errno = 0;
	expect_errno("off-shmat-noaddr-eopnotsupp",
		     shmat(id, NULL, SHM_SHAREDCTX), EOPNOTSUPP);
	shmctl(id, IPC_RMID, NULL);
}

static int live_refs(struct ctxstat *st)
{
	return st->nctx == 1 ? (int)st->refs[0] : -1;
}

/*
 * Fault injection (defect: a fork child whose attach failed kept
 * VM_SHARED_CTX): make the next attach fail, fork, and check that the
 * child shows no "sc" and holds no reference.
 */
static void test_fork_attach_fails(char *sga, unsigned long ctx)
{
	struct ctxstat st;
	int status = -1;
	pid_t pid;

	if (write_file(FAIL_ATTACH, "1")) {
		check(0, "emu-fork-attach-fails", "cannot write %s",
		      FAIL_ATTACH);
		return;
	}
	pid = fork();
	if (pid == 0) {
		struct ctxstat cs;

		read_ctxstat(&cs);
		if (self_has_sc(SGA_ADDR) != 0)
			_exit(20);
		/* parent's VMA and mm only: the child's copy was dropped */
		if (cs.nctx != 1 || cs.ctx[0] != ctx || live_refs(&cs) != 2)
			_exit(21);
		if (!verify(sga, SGA_SIZE, 0xabc))
			_exit(22);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	write_file(FAIL_ATTACH, "0");
	read_ctxstat(&st);
	check(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
	      live_refs(&st) == 2 && self_has_sc(SGA_ADDR) == 1,
	      "emu-fork-attach-fails", "child status 0x%x refs %d", status,
	      live_refs(&st));
}

/* Attach @id at SGA_ADDR, mprotect the whole VMA: the mm is detached. */
static void test_mprotect_detaches(int id, const char *name, int prot)
{
	struct ctxstat st0, st;
	char *p;
	int ok;

	read_ctxstat(&st0);
	p = shmat(id, SGA_ADDR, SHM_SHAREDCTX);
	if (p != SGA_ADDR || self_has_sc(SGA_ADDR) != 1) {
		check(0, name, "shmat %p sc %d", (void *)p,
		      p == SGA_ADDR ? self_has_sc(SGA_ADDR) : -1);
		if (p != (void *)-1)
			shmdt(p);
		return;
	}
	ok = mprotect(p, SGA_SIZE, prot) == 0;
	read_ctxstat(&st);
	check(ok && self_has_sc(SGA_ADDR) == 0 && st.nctx == st0.nctx &&
	      st.attached == st0.attached, name,
	      "mprotect %d sc %d nctx %d attached %ld", ok,
	      self_has_sc(SGA_ADDR), st.nctx, st.attached);
	shmdt(p);
}

/*
 * A context serves one whole range with one set of rights.  A process
 * mapping part of it, or all of it with other rights, must not share it
 * (defect: only r/w/x of the two VMAs were compared, so a fragment of a
 * split VMA could reach the rest through the shared TLB entries).
 */
static void test_exact_match(void)
{
	struct ctxstat st;
	int fd, status = -1;
	char *p;
	pid_t pid;

	fd = memfd_create("sharedctx", MFD_HUGETLB);
	if (fd < 0 || ftruncate(fd, SGA_SIZE)) {
		check(0, "emu-exact-match", "memfd: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	p = mmap(SGA_ADDR, SGA_SIZE, PROT_READ | PROT_WRITE, SC_FLAGS, fd, 0);
	if (p != SGA_ADDR || self_has_sc(SGA_ADDR) != 1) {
		check(0, "emu-exact-match", "mmap %p", (void *)p);
		close(fd);
		return;
	}
	pid = fork();
	if (pid == 0) {
		struct ctxstat cs;
		char *q;

		munmap(p, SGA_SIZE);	/* detach; the parent stays */
		/* the first huge page only: a new context, not the parent's */
		q = mmap(SGA_ADDR, HPAGE, PROT_READ | PROT_WRITE, SC_FLAGS,
			 fd, 0);
		read_ctxstat(&cs);
		if (q != SGA_ADDR || self_has_sc(SGA_ADDR) != 1 ||
		    cs.nctx != 2)
			_exit(30);
		munmap(q, HPAGE);
		/* the whole range read-only: not the parent's either */
		q = mmap(SGA_ADDR, SGA_SIZE, PROT_READ, SC_FLAGS, fd, 0);
		read_ctxstat(&cs);
		if (q != SGA_ADDR || self_has_sc(SGA_ADDR) != 1 ||
		    cs.nctx != 2)
			_exit(31);
		munmap(q, SGA_SIZE);
		/* the same range and rights: the parent's */
		q = mmap(SGA_ADDR, SGA_SIZE, PROT_READ | PROT_WRITE, SC_FLAGS,
			 fd, 0);
		read_ctxstat(&cs);
		if (q != SGA_ADDR || self_has_sc(SGA_ADDR) != 1 ||
		    cs.nctx != 1 || live_refs(&cs) != 4)
			_exit(32);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	read_ctxstat(&st);
	check(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
	      st.nctx == 1 && live_refs(&st) == 2, "emu-exact-match",
	      "child status 0x%x nctx %d refs %d", status, st.nctx,
	      live_refs(&st));
	munmap(p, SGA_SIZE);
	close(fd);
}

/*
 * Limits (defect: unbounded shared contexts could fill the context
 * numbers and hang the allocator).  A request that needs a new context
 * over the global or the per-user limit fails with EAGAIN; attaching to
 * an existing context still works.
 */
static void test_limits(void)
{
	struct ctxstat st;
	int fd, status = -1;
	char *p, *q;
	pid_t pid;

	fd = memfd_create("sharedctx-limits", MFD_HUGETLB);
	if (fd < 0 || ftruncate(fd, 2 * SGA_SIZE)) {
		check(0, "emu-limits", "memfd: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	p = mmap(SGA_ADDR, SGA_SIZE, PROT_READ | PROT_WRITE, SC_FLAGS, fd, 0);
	if (p != SGA_ADDR || write_file(PARAMS "max_contexts", "1")) {
		check(0, "emu-limits", "mmap %p or cannot write %s",
		      (void *)p, PARAMS "max_contexts");
		close(fd);
		return;
	}
	pid = fork();
	if (pid == 0) {
		munmap(p, SGA_SIZE);
		/* another range needs a second context: over the limit */
		errno = 0;
		q = mmap(SGA_ADDR, SGA_SIZE, PROT_READ | PROT_WRITE, SC_FLAGS,
			 fd, SGA_SIZE);
		if (q != MAP_FAILED || errno != EAGAIN)
			_exit(40);
		/* the parent's range needs none */
		q = mmap(SGA_ADDR, SGA_SIZE, PROT_READ | PROT_WRITE, SC_FLAGS,
			 fd, 0);
		if (q != SGA_ADDR || self_has_sc(SGA_ADDR) != 1)
			_exit(41);
		munmap(q, SGA_SIZE);
		/* per user: an unprivileged user over max_per_user */
		if (setgid(1000) || setuid(1000))
			_exit(42);
		errno = 0;
		q = mmap(SGA_ADDR, SGA_SIZE, PROT_READ | PROT_WRITE, SC_FLAGS,
			 fd, SGA_SIZE);
		if (q != MAP_FAILED || errno != EAGAIN)
			_exit(43);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	check(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "emu-limit-global-eagain", "child status 0x%x", status);
	write_file(PARAMS "max_contexts", "1024");

	if (write_file(PARAMS "max_per_user", "0")) {
		check(0, "emu-limit-user-eagain", "cannot write %s",
		      PARAMS "max_per_user");
	} else {
		pid = fork();
		if (pid == 0) {
			munmap(p, SGA_SIZE);
			if (setgid(1000) || setuid(1000))
				_exit(50);
			errno = 0;
			q = mmap(SGA_ADDR, SGA_SIZE, PROT_READ | PROT_WRITE,
				 SC_FLAGS, fd, SGA_SIZE);
			if (q != MAP_FAILED || errno != EAGAIN)
				_exit(51);
			_exit(0);
		}
		status = -1;
		if (pid > 0)
			waitpid(pid, &status, 0);
		check(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "emu-limit-user-eagain", "child status 0x%x", status);
		write_file(PARAMS "max_per_user", "64");
	}
	munmap(p, SGA_SIZE);
	close(fd);
	read_ctxstat(&st);
	check(st.nctx == 0, "emu-limits-put", "nctx %d", st.nctx);
}

/*
 * Per-user limit inside user namespaces (defect N7: limits keyed on the
 * kuid let a user with subordinate ids create max_per_user contexts
 * under each of them).  A new context is charged to the initial-
 * namespace user who created the outermost user namespace.
 *
 * NS_UID holds one context; with max_per_user at 1, a process of NS_UID
 * that made a user namespace and became its root (kuid NS_ROOT_KUID,
 * which holds nothing) must get EAGAIN, in that namespace and in one
 * nested inside it (owned by NS_ROOT_KUID).  Keyed on the kuid or on the
 * owner of the innermost namespace, both requests would succeed.  Another
 * user still can create one, and with max_per_user at 2 both succeed.
 */
#define NS_UID		1000
#define OTHER_UID	1001
#define NS_ROOT_KUID	100000
#define NS_MAP		"0 100000 1\n"
#define NS_UNAVAILABLE	61	/* child exit: unshare(CLONE_NEWUSER) refused */

static int send_byte(int fd)
{
	return write(fd, "x", 1) == 1 ? 0 : -1;
}

/* 0 once a byte came, -1 at EOF (the other side gave up) */
static int wait_byte(int fd)
{
	char c;

	return read(fd, &c, 1) == 1 ? 0 : -1;
}

/*
 * Ask for a new context (the memfd's second range, which no one maps):
 * 0 if the result is @want (0: it succeeds and shares), else -1.
 */
static int try_new_ctx(int fd, int want)
{
	char *q;

	errno = 0;
	q = mmap(SGA_ADDR, SGA_SIZE, PROT_READ | PROT_WRITE, SC_FLAGS, fd,
		 SGA_SIZE);
	if (want)
		return q == MAP_FAILED && errno == want ? 0 : -1;
	if (q != SGA_ADDR || self_has_sc(SGA_ADDR) != 1)
		return -1;
	return munmap(q, SGA_SIZE);
}

/*
 * The namespace child: become NS_UID, make a user namespace, let the
 * parent map its root to NS_ROOT_KUID (@up: done so far, @down: go on),
 * become that root, and ask; then again in a nested namespace.
 */
static void userns_child(int fd, int up, int down, int want)
{
	if (setgid(NS_UID) || setuid(NS_UID))
		_exit(60);
	if (unshare(CLONE_NEWUSER))
		_exit(errno == EINVAL || errno == EPERM ? NS_UNAVAILABLE : 62);
	if (send_byte(up) || wait_byte(down))
		_exit(63);
	if (setresgid(0, 0, 0) || setresuid(0, 0, 0))
		_exit(64);
	if (send_byte(up) || wait_byte(down))
		_exit(65);
	if (try_new_ctx(fd, want))
		_exit(66);
	if (unshare(CLONE_NEWUSER))
		_exit(67);
	if (try_new_ctx(fd, want))
		_exit(68);
	_exit(0);
}

static int write_proc(pid_t pid, const char *file, const char *val)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	return write_file(path, val);
}

/* The real uid of @pid as the initial namespace sees it, or -1 */
static long proc_uid(pid_t pid)
{
	char path[64], line[128];
	long uid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Uid: %ld", &uid) == 1)
			break;
	fclose(f);
	return uid;
}

/* Run userns_child() expecting @want; check it under @name. */
static void run_userns(int fd, int want, const char *name)
{
	int up[2], down[2], status = -1;
	const char *step = "pipe";
	long uid = -1;
	pid_t pid;

	if (pipe(up))
		goto out;
	if (pipe(down)) {
		close(up[0]);
		close(up[1]);
		goto out;
	}
	pid = fork();
	if (pid == 0) {
		close(up[0]);
		close(down[1]);
		userns_child(fd, up[1], down[0], want);
	}
	close(up[1]);
	close(down[0]);
	step = "namespace";
	if (pid > 0 && !wait_byte(up[0])) {
		step = "maps";
		if (!write_proc(pid, "setgroups", "deny") &&
		    !write_proc(pid, "gid_map", NS_MAP) &&
		    !write_proc(pid, "uid_map", NS_MAP) &&
		    !send_byte(down[1]) && !wait_byte(up[0])) {
			step = "kuid";
			uid = proc_uid(pid);
			if (uid == NS_ROOT_KUID && !send_byte(down[1]))
				step = NULL;
		}
	}
	close(down[1]);		/* a child still waiting gives up */
	close(up[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	if (pid > 0 && WIFEXITED(status) &&
	    WEXITSTATUS(status) == NS_UNAVAILABLE) {
		case_skipped = "unshare(CLONE_NEWUSER) refused to an unprivileged user";
		return;
	}
out:
	check(!step && WIFEXITED(status) && WEXITSTATUS(status) == 0, name,
	      "stopped at %s, kuid %ld, child status 0x%x", step ? step : "-",
	      uid, status);
}

static void test_limit_userns(void)
{
	int fd, hold[2], ready[2], status = -1;
	struct ctxstat st;
	pid_t holder = -1, pid;

	if (access("/proc/self/ns/user", F_OK)) {
		case_skipped = "no user namespaces (CONFIG_USER_NS)";
		return;
	}
	fd = memfd_create("sharedctx-userns", MFD_HUGETLB);
	if (fd < 0 || ftruncate(fd, 2 * SGA_SIZE) || pipe(hold)) {
		check(0, "emu-userns", "memfd or pipe: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	if (pipe(ready) || write_file(PARAMS "max_per_user", "1")) {
		check(0, "emu-userns", "pipe or cannot write %s",
		      PARAMS "max_per_user");
		goto out_hold;
	}
	/* NS_UID's one context, held until the write end of @hold closes */
	holder = fork();
	if (holder == 0) {
		char *q;

		close(hold[1]);
		close(ready[0]);
		if (setgid(NS_UID) || setuid(NS_UID))
			_exit(70);
		q = mmap(SGA_ADDR, SGA_SIZE, PROT_READ | PROT_WRITE, SC_FLAGS,
			 fd, 0);
		if (q != SGA_ADDR || self_has_sc(SGA_ADDR) != 1)
			_exit(71);
		send_byte(ready[1]);
		wait_byte(hold[0]);
		_exit(0);
	}
	close(ready[1]);
	if (holder < 0 || wait_byte(ready[0])) {
		check(0, "emu-userns-holder", "no context for uid %d", NS_UID);
		goto out_ready;
	}

	run_userns(fd, EAGAIN, "emu-userns-limit-eagain");
	if (case_skipped)
		goto out_ready;
	pid = fork();
	if (pid == 0) {
		if (setgid(OTHER_UID) || setuid(OTHER_UID))
			_exit(80);
		_exit(try_new_ctx(fd, 0) ? 81 : 0);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	check(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "emu-userns-other-user", "child status 0x%x", status);
	if (write_file(PARAMS "max_per_user", "2"))
		check(0, "emu-userns-under", "cannot write %s",
		      PARAMS "max_per_user");
	else
		run_userns(fd, 0, "emu-userns-under");

out_ready:
	close(ready[0]);
out_hold:
	close(hold[0]);
	close(hold[1]);
	if (holder > 0)
		waitpid(holder, NULL, 0);
	write_file(PARAMS "max_per_user", "64");
	close(fd);
	read_ctxstat(&st);
	check(st.nctx == 0, "emu-userns-put", "nctx %d", st.nctx);
}

/*
 * Emulation: the software side of the feature, observed through smaps and
 * debugfs.  References: one per VMA using the context, one per attached mm.
 */
static void test_emulate(void)
{
	struct ctxstat st0, st;
	int id, status, ok;
	char *sga, *other, *anon;
	pid_t pid;
	unsigned long ctx;

	if (read_ctxstat(&st0)) {
		check(0, "debugfs", "cannot read %s", DEBUGFS_FILE);
		return;
	}
	check(st0.nctx == 0, "emu-start-clean", "%d live contexts", st0.nctx);

	/*
	 * Several tasks: each child inherits the parent's attachment, then
	 * detaches and attaches again, matching the parent's context.
	 */
	test_sga("emu-sga-tasks", SGA_ADDR, SHM_SHAREDCTX);
	read_ctxstat(&st);
	check(st.nctx == 0 && st.attached == st0.attached, "emu-sga-tasks-put",
	      "nctx %d attached %ld", st.nctx, st.attached);

	id = shmget(IPC_PRIVATE, SGA_SIZE, IPC_CREAT | SHM_HUGETLB | 0600);
	sga = shmat(id, SGA_ADDR, SHM_SHAREDCTX);
	if (id < 0 || sga != SGA_ADDR) {
		check(0, "emu-shmat", "%s", strerror(errno));
		return;
	}
	fill(sga, SGA_SIZE, 0xabc);
	read_ctxstat(&st);
	check(self_has_sc(SGA_ADDR) == 1, "emu-smaps-sc", "no sc in VmFlags");
	check(st.nctx == 1 && live_refs(&st) == 2 && st.reserved[0] == 1 &&
	      st.attached == st0.attached + 1,
	      "emu-refs-attach", "nctx %d refs %d reserved %d attached %ld",
	      st.nctx, live_refs(&st), st.nctx ? st.reserved[0] : -1,
	      st.attached);
	ctx = st.nctx ? st.ctx[0] : 0;

	/* a second SHAREDCTX mapping needs another context: stays private */
	anon = mmap(ALT_ADDR, SGA_SIZE, PROT_READ | PROT_WRITE,
		    SC_FLAGS | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	check(anon != MAP_FAILED && self_has_sc(ALT_ADDR) == 0,
	      "emu-second-ctx-private", "mmap %p sc %d", (void *)anon,
	      anon != MAP_FAILED ? self_has_sc(ALT_ADDR) : -1);
	read_ctxstat(&st);
	check(st.nctx == 1 && live_refs(&st) == 2, "emu-second-ctx-norefs",
	      "nctx %d refs %d", st.nctx, live_refs(&st));
	if (anon != MAP_FAILED)
		munmap(anon, SGA_SIZE);

	/* munmap of an unrelated range keeps the context */
	other = mmap(OTHER_ADDR, 1 << 20, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (other != MAP_FAILED)
		munmap(other, 1 << 20);
	read_ctxstat(&st);
	check(self_has_sc(SGA_ADDR) == 1 && live_refs(&st) == 2,
	      "emu-unrelated-munmap", "sc %d refs %d", self_has_sc(SGA_ADDR),
	      live_refs(&st));

	/* fork: the child inherits the VMA (+1) and attaches (+1) */
	pid = fork();
	if (pid == 0) {
		struct ctxstat cs;
		char *p;

		read_ctxstat(&cs);
		if (self_has_sc(SGA_ADDR) != 1 || live_refs(&cs) != 4)
			_exit(10);
		/* detach and re-attach: must find the same context */
		shmdt(sga);
		read_ctxstat(&cs);
		if (live_refs(&cs) != 2)
			_exit(11);
		p = shmat(id, SGA_ADDR, SHM_SHAREDCTX);
		if (p != SGA_ADDR || self_has_sc(SGA_ADDR) != 1)
			_exit(12);
		read_ctxstat(&cs);
		if (cs.nctx != 1 || cs.ctx[0] != ctx || live_refs(&cs) != 4)
			_exit(13);
		if (!verify(p, SGA_SIZE, 0xabc))
			_exit(14);
		/* the same segment at another address may not share it */
		if (shmat(id, ALT_ADDR, SHM_SHAREDCTX) != ALT_ADDR ||
		    self_has_sc(ALT_ADDR) != 0)
			_exit(15);
		_exit(0);
	}
	status = -1;
	if (pid > 0)
		waitpid(pid, &status, 0);
	check(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "emu-fork-reattach", "child status 0x%x", status);
	read_ctxstat(&st);
	check(live_refs(&st) == 2 && st.attached == st0.attached + 1,
	      "emu-child-exit-put", "refs %d attached %ld", live_refs(&st),
	      st.attached);

	/* fault injection: a fork child whose attach fails is cleaned */
	test_fork_attach_fails(sga, ctx);

	/* a split (mprotect of one huge page) detaches the whole mm */
	ok = mprotect(sga + HPAGE, HPAGE, PROT_READ) == 0;
	read_ctxstat(&st);
	check(ok && st.nctx == 0 && self_has_sc(SGA_ADDR) == 0 &&
	      self_has_sc(sga + HPAGE) == 0 && st.attached == st0.attached,
	      "emu-split-detaches", "mprotect %d nctx %d sc %d/%d attached %ld",
	      ok, st.nctx, self_has_sc(SGA_ADDR), self_has_sc(sga + HPAGE),
	      st.attached);
	check(verify(sga, SGA_SIZE, 0xabc), "emu-data-after-split",
	      "data lost");
	shmdt(sga);
	shmdt(sga + HPAGE);

	/* whole-VMA mprotect (no split) detaches too, PROT_NONE included */
	test_mprotect_detaches(id, "emu-mprotect-ro-detaches", PROT_READ);
	test_mprotect_detaches(id, "emu-mprotect-none-detaches", PROT_NONE);

	/* partial munmap detaches the whole mm and drops everything */
	sga = shmat(id, SGA_ADDR, SHM_SHAREDCTX);
	if (sga != SGA_ADDR || self_has_sc(SGA_ADDR) != 1) {
		check(0, "emu-reattach", "shmat %p: %s", (void *)sga,
		      strerror(errno));
		shmctl(id, IPC_RMID, NULL);
		return;
	}
	ok = munmap(sga, HPAGE) == 0;
	read_ctxstat(&st);
	check(ok && self_has_sc(sga + HPAGE) == 0 && st.nctx == 0 &&
	      st.attached == st0.attached, "emu-partial-munmap-detach",
	      "munmap %d sc %d nctx %d attached %ld", ok,
	      self_has_sc(sga + HPAGE), st.nctx, st.attached);
	check(verify_range(sga, HPAGE, HPAGE, 0xabc), "emu-data-after-detach",
	      "data lost");
	munmap(sga + HPAGE, HPAGE);
	shmctl(id, IPC_RMID, NULL);

	test_exact_match();
	test_limits();

	/* anonymous MAP_HUGETLB with fork, then exit puts everything */
	test_anon_fork("emu-anon-fork", MAP_SHAREDCTX);
	read_ctxstat(&st);
	check(st.nctx == 0 && st.allocated - st0.allocated ==
	      st.freed - st0.freed && st.attached == st0.attached,
	      "emu-no-leak", "nctx %d allocated %ld freed %ld attached %ld",
	      st.nctx, st.allocated, st.freed, st.attached);
}

/* The cases, run in this order; each is one TAP test. */
#define M(x)	(1 << (x))
#define ALL	(M(EXPECT_NONE) | M(EXPECT_EOPNOTSUPP) | M(EXPECT_EMULATE) | \
		 M(EXPECT_OFF) | M(EXPECT_HW))
#define FEATURE	(M(EXPECT_EOPNOTSUPP) | M(EXPECT_EMULATE) | M(EXPECT_HW))
#define SHARING	(M(EXPECT_EMULATE) | M(EXPECT_HW))

static void case_normal_sga(void)
{
	test_sga("sga-normal-tasks", SGA_ADDR, 0);
}

static void case_normal_anon(void)
{
	test_anon_fork("anon-normal-fork", 0);
}

static void case_shared_sga(void)
{
	test_sga("sga-shared-tasks", SGA_ADDR, SHM_SHAREDCTX);
}

static void case_shared_anon(void)
{
	test_anon_fork("anon-shared-fork", MAP_SHAREDCTX);
}

/* smaps only, so that it also runs without the debug option */
static void case_mprotect_detaches(void)
{
	int id = shmget(IPC_PRIVATE, SGA_SIZE, IPC_CREAT | SHM_HUGETLB | 0600);

	if (id < 0) {
		check(0, "shmget", "%s", strerror(errno));
		return;
	}
	test_mprotect_detaches(id, "mprotect-ro-detaches", PROT_READ);
	test_mprotect_detaches(id, "mprotect-none-detaches", PROT_NONE);
	shmctl(id, IPC_RMID, NULL);
}

static const struct {
	const char *name;
	void (*run)(void);
	unsigned int modes;
} cases[] = {
	{ "hugetlb SGA without sharing", case_normal_sga, ALL },
	{ "hugetlb anonymous fork without sharing", case_normal_anon, ALL },
	{ "invalid requests fail with EINVAL", test_invalid, FEATURE },
	{ "valid requests fail with EOPNOTSUPP", test_valid_eopnotsupp,
	  M(EXPECT_EOPNOTSUPP) },
	{ "option off: requests fail with EOPNOTSUPP", test_off,
	  M(EXPECT_OFF) },
	{ "shared SGA across tasks shows sc", case_shared_sga, SHARING },
	{ "shared anonymous fork shows sc", case_shared_anon, SHARING },
	{ "mprotect detaches", case_mprotect_detaches, SHARING },
	{ "emulation bookkeeping, limits, fault injection", test_emulate,
	  M(EXPECT_EMULATE) },
	{ "per-user limit charges the outermost user namespace's creator",
	  test_limit_userns, M(EXPECT_EMULATE) },
	{ "hugetlb SGA without sharing, again", case_normal_sga, ALL },
};

static const char *const expect_name[] = {
	[EXPECT_NONE] = "none", [EXPECT_EOPNOTSUPP] = "eopnotsupp",
	[EXPECT_EMULATE] = "emulate", [EXPECT_OFF] = "off",
	[EXPECT_HW] = "hardware",
};

int main(int argc, char **argv)
{
	unsigned int i;
	int id;

	ksft_print_header();
#if !defined(__sparc__) || !defined(__arch64__)
	ksft_exit_skip("shared MMU contexts exist on sparc64 only\n");
#endif
	if (geteuid())
		ksft_exit_skip("needs root (debugfs, limits, setuid)\n");
	id = shmget(IPC_PRIVATE, 4 * SGA_SIZE, IPC_CREAT | SHM_HUGETLB | 0600);
	if (id < 0)
		ksft_exit_skip("needs 8 free 8MB huge pages: %s\n",
			       strerror(errno));
	shmctl(id, IPC_RMID, NULL);

	read_expectation(argc, argv);
	if (expect == EXPECT_NONE)
		ksft_exit_skip("this kernel does not have the shared MMU context series\n");
	ksft_print_msg("expect=%s\n", expect_name[expect]);

	ksft_set_plan(ARRAY_SIZE(cases));
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (!(cases[i].modes & M(expect))) {
			ksft_test_result_skip("%s: not for mode %s\n",
					      cases[i].name, expect_name[expect]);
			continue;
		}
		case_failed = 0;
		case_skipped = NULL;
		cases[i].run();
		if (case_skipped && !case_failed)
			ksft_test_result_skip("%s: %s\n", cases[i].name,
					      case_skipped);
		else
			ksft_test_result(!case_failed, "%s\n", cases[i].name);
	}
	ksft_finished();
}
