// SPDX-License-Identifier: GPL-2.0
/*
 * sgabench kernel self-test for the sparc64 shared MMU context series.
 *
 * Runs as /init of an initramfs under qemu-system-sparc64 -M sun4u, prints
 * one line "SELFTEST: PASS n/m" or "SELFTEST: FAIL ..." and powers off.
 * Build: sparc64-linux-gnu-gcc -static -O2 -Wall -o init sharedctx_selftest.c
 *
 * The kernel command line selects what is expected:
 *   sgatest.expect=eopnotsupp  patched kernel, no second context (sun4u):
 *                              valid requests fail with EOPNOTSUPP
 *   sgatest.expect=emulate     patched kernel booted with
 *                              shared_mmu_ctx=emulate (debug option):
 *                              valid requests succeed, bookkeeping checked
 *                              through smaps and debugfs
 *   sgatest.expect=none        kernel without the series: only the normal
 *                              hugetlb runs and the log are checked
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
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "../uapi-sharedctx.h"

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

enum expect { EXPECT_NONE, EXPECT_EOPNOTSUPP, EXPECT_EMULATE };

static enum expect expect = EXPECT_EOPNOTSUPP;
static int passed, total;
static char failures[2048];

static void note_fail(const char *name)
{
	size_t len = strlen(failures);

	if (len + strlen(name) + 2 < sizeof(failures)) {
		if (len)
			strcat(failures, ",");
		strcat(failures, name);
	}
}

static void check(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	total++;
	if (ok) {
		passed++;
		printf("selftest: ok   %s\n", name);
	} else {
		printf("selftest: FAIL %s: ", name);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
		note_fail(name);
	}
	fflush(stdout);
}

static void setup_console(void)
{
	int fd;

	mkdir("/dev", 0755);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	fd = open("/dev/console", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	mkdir("/proc", 0755);
	mount("proc", "/proc", "proc", 0, NULL);
	mkdir("/sys", 0755);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
}

static void read_expectation(void)
{
	char buf[1024] = "";
	FILE *f = fopen("/proc/cmdline", "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	if (strstr(buf, "sgatest.expect=emulate"))
		expect = EXPECT_EMULATE;
	else if (strstr(buf, "sgatest.expect=none"))
		expect = EXPECT_NONE;
	else
		expect = EXPECT_EOPNOTSUPP;
	printf("selftest: cmdline: %s", buf);
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
			if (shmflg && expect == EXPECT_EMULATE &&
			    self_has_sc(addr) != 1)
				_exit(4);
			_exit(0);
		}
	}
	for (i = 0; i < NTASKS; i++) {
		if (pids[i] < 0 || waitpid(pids[i], &status, 0) < 0 ||
		    !WIFEXITED(status) || WEXITSTATUS(status)) {
			ok = 0;
			printf("selftest: %s: task %d status 0x%x\n", name, i,
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
		 MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB | MAP_FIXED | extra,
		 -1, 0);
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
			if (extra && expect == EXPECT_EMULATE &&
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
		     try_mmap(SGA_ADDR, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED |
			      MAP_SHAREDCTX), EINVAL);
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

	expect_errno("mmap-valid-eopnotsupp",
		     try_mmap(SGA_ADDR, MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB |
			      MAP_FIXED | MAP_SHAREDCTX), EOPNOTSUPP);
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

static int live_refs(struct ctxstat *st)
{
	return st->nctx == 1 ? (int)st->refs[0] : -1;
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
		    MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB | MAP_FIXED |
		    MAP_SHAREDCTX, -1, 0);
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

	/* split (mprotect of one huge page): two VMAs, one reference each */
	ok = mprotect(sga + HPAGE, HPAGE, PROT_READ) == 0;
	read_ctxstat(&st);
	check(ok && live_refs(&st) == 3 && self_has_sc(SGA_ADDR) == 1 &&
	      self_has_sc(sga + HPAGE) == 1, "emu-split-refs",
	      "mprotect %d refs %d", ok, live_refs(&st));

	/* partial munmap detaches the whole mm and drops everything */
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

	/* anonymous MAP_HUGETLB with fork, then exit puts everything */
	test_anon_fork("emu-anon-fork", MAP_SHAREDCTX);
	read_ctxstat(&st);
	check(st.nctx == 0 && st.allocated - st0.allocated ==
	      st.freed - st0.freed && st.attached == st0.attached,
	      "emu-no-leak", "nctx %d allocated %ld freed %ld attached %ld",
	      st.nctx, st.allocated, st.freed, st.attached);
}

static void test_klog(void)
{
	static char buf[1 << 17];
	static const char *const bad[] = {
		"BUG:", "WARNING:", "Oops", "Call Trace", "Kernel panic",
		"kernel BUG", "Unable to handle", "refcount_t:", NULL
	};
	int n = klogctl(3, buf, sizeof(buf) - 1), i;
	const char *hit = NULL;

	if (n < 0) {
		check(0, "klog", "klogctl: %s", strerror(errno));
		return;
	}
	buf[n] = 0;
	for (i = 0; bad[i]; i++)
		if (strstr(buf, bad[i]))
			hit = bad[i];
	check(!hit, "klog-clean", "kernel log contains \"%s\"", hit);
}

int main(void)
{
	setup_console();
	read_expectation();
	printf("selftest: expect=%s\n", expect == EXPECT_EMULATE ? "emulate" :
	       expect == EXPECT_NONE ? "none" : "eopnotsupp");

	test_sga("sga-normal-tasks", SGA_ADDR, 0);
	test_anon_fork("anon-normal-fork", 0);
	if (expect != EXPECT_NONE)
		test_invalid();
	if (expect == EXPECT_EOPNOTSUPP)
		test_valid_eopnotsupp();
	if (expect == EXPECT_EMULATE)
		test_emulate();
	test_sga("sga-normal-tasks-again", SGA_ADDR, 0);
	test_klog();

	if (passed == total)
		printf("SELFTEST: PASS %d/%d\n", passed, total);
	else
		printf("SELFTEST: FAIL %d/%d failed: %s\n", total - passed,
		       total, failures);
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
	return 0;
}
