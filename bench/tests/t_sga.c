/*
 * t_sga.c - the shared area as sga.h promises it: created once by the
 * parent, attached by every task at the same address after fork, never
 * inherited. A forked task has no copy of the creator's view (it is
 * MADV_DONTFORK, so fork neither copies it nor the task drops it inside
 * start-up), attaches at the SGA's address, and what it writes there the
 * creator reads through its own view. SysV shm and memfd, 4 KiB pages
 * (no hugepages), with and without the prefault on a node.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "native/sga.h"
#include "tap.h"

/* Whether a mapping of this process starts at p (/proc/self/maps). */
static int mapped_at(const void *p)
{
	char line[512], want[32];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "%" PRIxPTR "-", (uintptr_t)p);
	while (!found && fgets(line, sizeof(line), f))
		found = strncmp(line, want, strlen(want)) == 0;
	fclose(f);
	return found;
}

/* In the forked task: 0, or which promise failed. */
static int task(struct sga *s, uint64_t magic)
{
	char err[256];
	volatile uint64_t *p;

	if (s->creator_map && mapped_at(s->creator_map) != 0)
		return 10;	/* the creator's view came along */
	p = sga_attach(s, err, sizeof(err));
	if (!p)
		return 11;
	if ((uintptr_t)p != s->addr)
		return 12;
	p[1] = magic;
	sga_detach(s, (void *)p);
	return 0;
}

static void one(int backing, int mem_node)
{
	struct sga_cfg cfg = { .size = 8u << 20, .page = SGA_PAGE_4K, .backing = backing,
			       .align = SGA_ALIGN_PMD, .mem_node = mem_node };
	const char *name = backing == SGA_SHM ? "shm" : "memfd";
	uint64_t magic = 0x5ca0000000000000ull + (uint64_t)getpid();
	struct sga s;
	void *view;
	char err[256];
	int st = -1;
	pid_t pid;

	if (sga_create(&s, &cfg, err, sizeof(err))) {
		ok(0, "%s, node %d: created (%s)", name, mem_node, err);
		return;
	}
	/* a memfd's fd keeps it alive: the creator maps it only to prefault it */
	if (backing == SGA_SHM || mem_node >= 0)
		ok(s.creator_map != NULL && s.creator_dontfork, "%s, node %d: the creator's view is"
		   " MADV_DONTFORK", name, mem_node);
	else
		ok(s.creator_map == NULL, "%s, node %d: the creator has no view", name, mem_node);
	pid = fork();
	if (pid == 0)
		_exit(task(&s, magic));
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	   "%s, node %d: the task has no copy of it, attaches at 0x%" PRIxPTR " (status %d)", name,
	   mem_node, s.addr, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	view = s.creator_map ? s.creator_map : mmap(NULL, cfg.size, PROT_READ, MAP_SHARED, s.fd, 0);
	ok(view != MAP_FAILED && ((volatile uint64_t *)view)[1] == magic,
	   "%s, node %d: the creator reads what it wrote", name, mem_node);
	if (view != MAP_FAILED && view != s.creator_map)
		munmap(view, cfg.size);
	sga_destroy(&s);
}

int main(void)
{
	one(SGA_SHM, -1);
	one(SGA_MEMFD, -1);
	one(SGA_SHM, 0);
	one(SGA_MEMFD, 0);
	return done_testing();
}
