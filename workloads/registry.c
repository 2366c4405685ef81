/* registry.c - the explicit list of workloads, and the stream wrappers. */
#include <errno.h>
#include <string.h>
#include <stdlib.h>
#include "workloads/workload.h"

extern const struct workload_ops wl_rounds, wl_random, wl_zipf, wl_chase;

/* Add a new pattern here: one file with its ops, one line in this list. */
const struct workload_ops *const workload_registry[] = {
	&wl_rounds,
	&wl_random,
	&wl_zipf,
	&wl_chase,
	NULL,
};

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
