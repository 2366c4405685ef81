/*
 * tlbreplay.c - one model task's access stream as loads, so that a cache
 * simulator with page-sized lines (Valgrind's cachegrind: --D1, --LL with
 * 4096-byte lines and a TLB level's sets and ways) stands in for the TLB
 * and checks the model independently (scripts/t/t0570-model-valgrind.sh).
 *
 *   tlbreplay PATTERN PAGES ROUNDS SEED THETA warm|both
 *
 * The stream is task 0's of a one-task model run with the same settings
 * (wl_open, as model/sim.c opens it). Page p is the load at base + p *
 * 4096. The loads are written as straight-line x86-64 code (add rax,
 * [rbx + disp32] each, then jmp rcx), so that while the stream runs no
 * other data access is made: no loop counter, no stream buffer, no stack.
 *
 * "warm" runs the code once on one area: its instruction lines enter the
 * simulator's I1 and LL, and the area's lines its D1 and LL. "both" then
 * runs it again on a second area: every line left by the first pass and by
 * the harness is older than all of the second pass's and never touched
 * again, so under LRU it changes none of the second pass's hits, and with
 * an I1 that holds the code the second pass fetches nothing through LL.
 * The second pass's counts are those of "both" less those of "warm", exact.
 * Prints the number of loads of one pass, then runs the passes and exits
 * by the exit_group system call, so that nothing runs after the stream. Exit 2 (skip) off x86-64.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "lib/opt.h"
#include "workloads/workload.h"

#define LINE 4096u
#define LOAD_BYTES 7	/* 48 03 83 disp32: add rax, [rbx + disp32] */

#if defined(__x86_64__)
/*
 * Run the code at code on area (rbx = base; it returns by jmp rcx), then,
 * if both, on area2, then exit_group(0): no data access between or after
 * the passes, and nothing of the harness runs after them.
 */
static void __attribute__((noreturn)) run_passes(const uint8_t *code, const uint8_t *area,
						 const uint8_t *area2, long both)
{
	__asm__ volatile("lea 1f(%%rip), %%rcx\n\t"
			 "jmp *%%rdx\n"
			 "1:\n\t"
			 "test %%rsi, %%rsi\n\t"
			 "jz 2f\n\t"
			 "mov %%rdi, %%rbx\n\t"
			 "lea 2f(%%rip), %%rcx\n\t"
			 "jmp *%%rdx\n"
			 "2:\n\t"
			 "mov $231, %%eax\n\t"	/* exit_group(0) */
			 "xor %%edi, %%edi\n\t"
			 "syscall"
			 : : "b"(area), "d"(code), "D"(area2), "S"(both) : "rax", "rcx", "r11", "memory");
	__builtin_unreachable();
}
#endif

int main(int argc, char **argv)
{
#if !defined(__x86_64__)
	(void)argc;
	(void)argv;
	fprintf(stderr, "tlbreplay: the replay code is x86-64 only\n");
	return 2;
#else
	struct wl_params p = { .task = 0, .ntasks = 1 };
	struct wl_args args;
	const struct workload_ops *ops;
	struct wl_stream s;
	uint8_t *code, *area, *area2, *c;
	uint32_t page;
	size_t n;

	/* one byte tells the modes apart: both read the same before the passes */
	if (argc != 7 || (argv[6][0] != 'w' && argv[6][0] != 'b')) {
		fprintf(stderr, "usage: tlbreplay PATTERN PAGES ROUNDS SEED THETA warm|both\n");
		return 2;
	}
	ops = workload_find(argv[1]);
	p.pages = strtoull(argv[2], NULL, 10);
	p.rounds = strtoull(argv[3], NULL, 10);
	p.seed = strtoull(argv[4], NULL, 10);
	{
		/* the workloads' parameters as a command line gives them */
		char *targv[] = { "tlbreplay", "--zipf-theta", argv[5] };

		if (opt_parse(workload_option_rows(), &args, 3, targv, "tlbreplay", "", NULL, NULL))
			return 2;
		p.args = &args;
	}
	if (!ops || !p.pages || p.pages > (1u << 31) / LINE || !p.rounds || p.rounds > (1u << 24) / p.pages) {
		fprintf(stderr, "tlbreplay: unknown pattern, or pages (< 2^19) times rounds over 2^24\n");
		return 2;
	}
	n = (size_t)(p.pages * p.rounds);
	code = mmap(NULL, n * LOAD_BYTES + 2, PROT_READ | PROT_WRITE | PROT_EXEC,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	area = mmap(NULL, p.pages * LINE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	area2 = mmap(NULL, p.pages * LINE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (code == MAP_FAILED || area == MAP_FAILED || area2 == MAP_FAILED || wl_open(&s, ops, &p)) {
		perror("tlbreplay");
		return 3;
	}
	c = code;
	while (wl_fill(&s, &page, 1) == 1) {
		uint32_t disp = page * LINE;

		*c++ = 0x48;
		*c++ = 0x03;	/* add, not mov: a load whose value is dead may be dropped */
		*c++ = 0x83;
		memcpy(c, &disp, 4);
		c += 4;
	}
	*c++ = 0xff;	/* jmp rcx */
	*c++ = 0xe1;
	wl_close(&s);
	printf("%zu\n", (size_t)(c - code - 2) / LOAD_BYTES);
	fflush(stdout);
	run_passes(code, area, area2, argv[6][0] == 'b');
#endif
}
