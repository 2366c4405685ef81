/* log.h - messages and the exit-status contract shared by C and shell. */
#ifndef SGA_LOG_H
#define SGA_LOG_H

#include <stdarg.h>

/*
 * Exit statuses, the same for every subcommand and for scripts/:
 *   0  success (and, for compare/nightly: no regression)
 *   1  failure: the run failed, or a regression was confirmed
 *   2  usage error (bad option or argument); scripts: test skipped
 *   3  resource missing: hugepages, PMU event, address range, package
 */
enum {
	EX_OK = 0,
	EX_FAIL = 1,
	EX_USAGE = 2,
	EX_RESOURCE = 3,
};

/* Print "sgabench: error: <msg>" to stderr. Messages are lowercase, no full stop. */
void error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "sgabench: warning: <msg>" to stderr. */
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "sgabench: <msg>" to stderr when verbosity >= level. */
void info(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print "hint: <msg>" to stderr, the second line of a usage or resource error. */
void hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print an error and exit with the given status. Only main-level code calls this. */
void die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

/* Global verbosity: 0 quiet, 1 normal (default), 2 verbose. */
extern int log_verbosity;
/* Program name used as the message prefix. */
extern const char *log_prog;

#endif
