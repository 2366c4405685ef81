/*
 * native.h - the native backend: N real tasks on one real SGA, each
 * counting its own events with perf_event_open.
 */
#ifndef SGA_NATIVE_H
#define SGA_NATIVE_H

#include <stddef.h>
#include "lib/result.h"
#include "native/runcfg.h"

struct sysinfo;

/*
 * Run cfg on this machine and fill r (r->task must hold cfg->tasks
 * entries). Returns 0; or -errno before anything was created (-EINVAL
 * for a request that cannot be, -ENOMEM, -ENOENT, -EOPNOTSUPP... for what
 * the machine lacks); or, after a failure during the run (a task crashed,
 * a signal, a timeout), the exit status the tasks reported (EX_FAIL,
 * EX_RESOURCE: tasks are processes and speak in exit statuses), with
 * r->status "failed" and r->reason set. The reason is also in err. Nothing is left behind in any case: no
 * SysV segment, no child, no reserved hugepages.
 */
int native_run(const struct run_cfg *cfg, const struct sysinfo *si, struct run_result *r,
	       char *err, size_t errlen);

#endif
