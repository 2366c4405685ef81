/* registry.c - lookups in the list of workloads (list.c), their parameters, and the stream wrappers. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "lib/log.h"
#include "workloads/workload.h"

static struct opt option_rows[WL_ARGS_SLOTS + 1];
static struct wl_args default_args;
static pthread_once_t rows_once = PTHREAD_ONCE_INIT;

/* Build option_rows and default_args from the registry; a list with more
 * workloads than slots is a bug in the build, found by every test. */
static void build_rows(void)
{
	unsigned n = 0;

	for (unsigned i = 0; workload_registry[i]; i++) {
		if (!workload_registry[i]->options)
			continue;
		if (i >= WL_ARGS_SLOTS) {
			error("workload '%s': no parameter slot left (WL_ARGS_SLOTS %d)",
			      workload_registry[i]->name, WL_ARGS_SLOTS);
			abort();
		}
		option_rows[n++] = (struct opt){ .type = OPT_ROWS, .rows = workload_registry[i]->options,
						 .off = offsetof(struct wl_args, slot[i]) };
	}
	if (opt_defaults(option_rows, &default_args, "workloads"))
		abort();
}

const struct opt *workload_option_rows(void)
{
	pthread_once(&rows_once, build_rows);
	return option_rows;
}

void workload_default_args(struct wl_args *args)
{
	workload_option_rows();
	*args = default_args;
}

int workload_check_args(const struct wl_args *args, char *err, size_t errlen)
{
	for (unsigned i = 0; workload_registry[i] && i < WL_ARGS_SLOTS; i++) {
		const struct workload_ops *ops = workload_registry[i];
		int ret = ops->check ? ops->check(args->slot[i], err, errlen) : 0;

		if (ret)
			return ret;
	}
	return 0;
}

/* The slot of ops in args (every default when args is NULL), or NULL. */
static const void *args_of(const struct workload_ops *ops, const struct wl_args *args)
{
	workload_option_rows();
	if (!args)
		args = &default_args;
	for (unsigned i = 0; workload_registry[i] && i < WL_ARGS_SLOTS; i++)
		if (workload_registry[i] == ops)
			return ops->options ? args->slot[i] : NULL;
	return NULL;
}

const struct workload_ops *workload_find(const char *name)
{
	for (int i = 0; workload_registry[i]; i++)
		if (strcmp(workload_registry[i]->name, name) == 0)
			return workload_registry[i];
	return NULL;
}

const char *workload_names(void)
{
	static char buf[256];

	if (!buf[0]) {
		for (int i = 0; workload_registry[i]; i++) {
			if (i)
				strcat(buf, "|");
			strcat(buf, workload_registry[i]->name);
		}
	}
	return buf;
}

int wl_open(struct wl_stream *s, const struct workload_ops *ops, const struct wl_params *p)
{
	memset(s, 0, sizeof(*s));
	if (!ops || p->pages < 1 || p->pages > UINT32_MAX || p->rounds < 1 ||
	    p->ntasks < 1 || p->task >= p->ntasks)
		return -EINVAL;
	if (p->rounds > UINT64_MAX / p->pages)
		return -ERANGE;
	s->ops = ops;
	s->p = *p;
	s->total = p->rounds * p->pages;
	s->opts = args_of(ops, p->args);
	rng_seed(&s->rng, p->seed, p->task);
	return ops->open ? ops->open(s) : 0;
}

size_t wl_fill(struct wl_stream *s, uint32_t *out, size_t n)
{
	uint64_t left = s->total - s->pos;
	size_t got;

	if (n > left)
		n = (size_t)left;
	if (!n)
		return 0;
	got = s->ops->fill(s, out, n);
	s->pos += got;
	return got;
}

void wl_close(struct wl_stream *s)
{
	if (s->ops && s->ops->close)
		s->ops->close(s);
	s->ops = NULL;
	s->priv = NULL;
}
