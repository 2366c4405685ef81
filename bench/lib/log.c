/* log.c - messages to stderr; see log.h for the exit-status contract. */
#include <stdio.h>
#include <stdlib.h>
#include "lib/log.h"

int log_verbosity = 1;
const char *log_prog = "sgabench";

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	fflush(stdout);
	if (kind)
		fprintf(stderr, "%s: %s: ", log_prog, kind);
	else
		fprintf(stderr, "%s: ", log_prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error", fmt, ap);
	va_end(ap);
}

void warning(const char *fmt, ...)
{
	va_list ap;

	if (log_verbosity < 1)
		return;
	va_start(ap, fmt);
	vmsg("warning", fmt, ap);
	va_end(ap);
}

void info(int level, const char *fmt, ...)
{
	va_list ap;

	if (log_verbosity < level)
		return;
	va_start(ap, fmt);
	vmsg(NULL, fmt, ap);
	va_end(ap);
}

void hint(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("hint: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error", fmt, ap);
	va_end(ap);
	exit(status);
}
