/* runcfg.c - render a run configuration as JSON and as a cell key. */
#include <stdio.h>
#include <string.h>
#include "lib/json.h"
#include "lib/opt.h"
#include "native/runcfg.h"
#include "native/sga.h"
#include "native/window.h"

/* Name of choice idx in choices, in a static buffer of the caller. */
static const char *choice(const char *choices, int idx, char *buf, size_t len)
{
	return opt_choice_name(choices, idx, buf, len);
}

/* A NUMA node as text in buf, or none (NULL or "none") when node < 0. */
static const char *node_name(int node, char *buf, size_t len, const char *none)
{
	if (node < 0)
		return none;
	snprintf(buf, len, "%d", node);
	return buf;
}

char *runcfg_json(const struct run_cfg *c, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");
	struct json j;
	char b1[16], b2[16], b3[16], b4[16], b5[16], node[16];

	if (!f) {
		snprintf(buf, len, "{}");
		return buf;
	}
	json_init(&j, f, 0);
	json_obj_open(&j, NULL);
	json_u64(&j, "tasks", c->tasks);
	json_bool(&j, "threads", c->threads);
	json_u64(&j, "sga_size", c->sga_size);
	json_str(&j, "page_size", choice(SGA_PAGE_CHOICES, c->page, b1, sizeof(b1)));
	json_str(&j, "backing", choice(SGA_BACKING_CHOICES, c->backing, b2, sizeof(b2)));
	json_str(&j, "align", choice(SGA_ALIGN_CHOICES, c->align, b3, sizeof(b3)));
	json_u64(&j, "address", c->address);
	json_str(&j, "hugetlbfs", c->hugetlbfs);
	json_bool(&j, "sharedctx", c->sharedctx);
	json_str(&j, "mem_node", node_name(c->mem_node, node, sizeof(node), NULL));
	json_str(&j, "pattern", c->pattern);
	json_u64(&j, "rounds", c->rounds);
	json_u64(&j, "working_set", c->ws_size);
	json_u64(&j, "stride", c->stride);
	json_u64(&j, "seed", c->seed);
	json_dbl(&j, "zipf_theta", c->zipf_theta);
	json_str(&j, "cpus", c->cpus);
	json_str(&j, "place", c->place);
	json_str(&j, "measure", choice(MEASURE_CHOICES, c->measure, b4, sizeof(b4)));
	json_str(&j, "access", choice(ACCESS_CHOICES, c->access, b5, sizeof(b5)));
	json_str(&j, "first_touch", choice(FIRST_TOUCH_CHOICES, c->first_touch, b1, sizeof(b1)));
	json_str(&j, "events", c->events);
	json_str(&j, "require", c->require.text);
	json_u64(&j, "timeout", c->timeout);
	if (c->min_window_ns) {
		char t[32];

		json_str(&j, "min_window", window_fmt_time(c->min_window_ns, t, sizeof(t)));
	}
	if (c->windows)
		json_u64(&j, "windows", c->windows);
	json_obj_close(&j);
	fputc('\0', f);
	fclose(f);
	buf[len - 1] = '\0';
	return buf;
}

char *runcfg_cell(const struct run_cfg *c, char *buf, size_t len)
{
	char b1[16], b2[16], b3[16], b4[16], b5[16], b6[16], node[16];

	snprintf(buf, len,
		 "backend=native pattern=%s tasks=%llu threads=%d sga=%llu page=%s backing=%s "
		 "align=%s sharedctx=%d rounds=%llu ws=%llu stride=%llu measure=%s access=%s first_touch=%s place=%s cpus=%s "
		 "mem_node=%s zipf_theta=%g",
		 c->pattern, (unsigned long long)c->tasks, c->threads,
		 (unsigned long long)c->sga_size,
		 choice(SGA_PAGE_CHOICES, c->page, b1, sizeof(b1)),
		 choice(SGA_BACKING_CHOICES, c->backing, b2, sizeof(b2)),
		 choice(SGA_ALIGN_CHOICES, c->align, b3, sizeof(b3)), c->sharedctx,
		 (unsigned long long)c->rounds, (unsigned long long)c->ws_size,
		 (unsigned long long)c->stride,
		 choice(MEASURE_CHOICES, c->measure, b4, sizeof(b4)),
		 choice(ACCESS_CHOICES, c->access, b5, sizeof(b5)),
		 choice(FIRST_TOUCH_CHOICES, c->first_touch, b6, sizeof(b6)),
		 c->place ? c->place : "none", c->cpus ? c->cpus : "any",
		 node_name(c->mem_node, node, sizeof(node), "none"), c->zipf_theta);
	if (c->min_window_ns) {
		char t[32];
		size_t l = strlen(buf);

		snprintf(buf + l, len - l, " min_window=%s", window_fmt_time(c->min_window_ns, t, sizeof(t)));
	}
	if (c->windows > 1) {
		size_t l = strlen(buf);

		snprintf(buf + l, len - l, " windows=%llu", (unsigned long long)c->windows);
	}
	return buf;
}
