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
 * entries). Returns EX_OK; or EX_USAGE / EX_RESOURCE before anything was
 * created; or EX_FAIL / EX_RESOURCE after a failure during the run (a task
 * crashed, a signal, a timeout), with r->status "failed" and r->reason
 * set. The reason is also in err. Nothing is left behind in any case: no
 * SysV segment, no child, no reserved hugepages.
 */
int native_run(const struct run_cfg *cfg, const struct sysinfo *si, struct run_result *r,
	       char *err, size_t errlen);

#endif
