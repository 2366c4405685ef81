/* table_native.c - one table row through `sgabench run` in a child (table_native.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "builtin/table_native.h"

/* Read all of fd into a malloc'd string; NULL on failure. */
static char *slurp(int fd)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	ssize_t n;

	if (!buf)
		return NULL;
	while ((n = read(fd, buf + len, cap - len - 1)) > 0 || (n < 0 && errno == EINTR)) {
		if (n < 0)
			continue;
		len += (size_t)n;
		if (len + 1 == cap) {
			char *b = realloc(buf, cap * 2);

			if (!b) {
				free(buf);
				return NULL;
			}
			buf = b;
			cap *= 2;
		}
	}
	buf[len] = '\0';
	return buf;
}

/*
 * The total and the missing reason of dTLB-load-misses in a run's CSV
 * (output.c: a "total,EVENT,value,raw,enabled,running,missing" line).
 */
static int parse(const char *csv, double *misses, char *why, size_t whylen)
{
	static const char key[] = "\ntotal,dTLB-load-misses,";
	const char *p = strstr(csv, key), *miss;
	char *end;
	size_t len;
	int n;

	if (!p) {
		snprintf(why, whylen, "dTLB-load-misses not in the output of 'sgabench run'");
		return -1;
	}
	p += sizeof(key) - 1;
	if (*p != ',') {
		*misses = strtod(p, &end);
		if (end != p && *end == ',')
			return 0;
	}
	/* the missing reason is the last field of the line */
	len = strcspn(p, "\n");
	miss = p + len;
	while (miss > p && miss[-1] != ',')
		miss--;
	n = (int)(p + len - miss);
	snprintf(why, whylen, "dTLB-load-misses not counted: %.*s", n ? n : 8, n ? miss : "no value");
	return -1;
}

int native_row_run(const struct native_row *nr, double *misses, char *why, size_t whylen)
{
	char exe[4096], rounds[32], *out = NULL, errline[256] = "";
	const char *argv[32];
	int argc = 0, po[2], status;
	FILE *err = tmpfile();
	const char *env = getenv("SGABENCH");
	ssize_t n = env ? (ssize_t)snprintf(exe, sizeof(exe), "%s", env) :
		    readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	pid_t pid;

	*misses = NAN;
	if (n <= 0 || !err || pipe(po)) {
		snprintf(why, whylen, "cannot start 'sgabench run': %s", strerror(errno));
		if (err)
			fclose(err);
		return -1;
	}
	exe[n] = '\0';
	/* only ever run sgabench itself (a test binary must name it in SGABENCH) */
	if (strcmp(strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe, "sgabench") != 0) {
		snprintf(why, whylen, "'%s' is not sgabench: set SGABENCH to its path", exe);
		close(po[0]);
		close(po[1]);
		fclose(err);
		return -1;
	}
	snprintf(rounds, sizeof(rounds), "%llu", (unsigned long long)nr->rounds);
	argv[argc++] = exe;
	argv[argc++] = "run";
	argv[argc++] = "--tasks";
	argv[argc++] = "2";
	argv[argc++] = "--place";
	argv[argc++] = nr->place;
	argv[argc++] = "--page-size";
	argv[argc++] = nr->page;
	argv[argc++] = "--sga-size";
	argv[argc++] = nr->sga;
	argv[argc++] = "--working-set";
	argv[argc++] = nr->ws;
	argv[argc++] = "--rounds";
	argv[argc++] = rounds;
	argv[argc++] = "--events";
	argv[argc++] = "dTLB-load-misses";
	argv[argc++] = "--csv";
	if (nr->sharedctx)
		argv[argc++] = "--sharedctx";
	if (nr->db) {
		argv[argc++] = "--db";
		argv[argc++] = nr->db;
		argv[argc++] = "--label";
		argv[argc++] = nr->label;
	} else {
		argv[argc++] = "--no-store";
	}
	argv[argc] = NULL;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		snprintf(why, whylen, "cannot fork: %s", strerror(errno));
		close(po[0]);
		close(po[1]);
		fclose(err);
		return -1;
	}
	if (pid == 0) {
		dup2(po[1], 1);
		dup2(fileno(err), 2);
		close(po[0]);
		close(po[1]);
		execv(exe, (char *const *)argv);
		_exit(127);
	}
	close(po[1]);
	out = slurp(po[0]);
	close(po[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	rewind(err);
	if (!fgets(errline, sizeof(errline), err))
		errline[0] = '\0';
	errline[strcspn(errline, "\n")] = '\0';
	fclose(err);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && out && parse(out, misses, why, whylen) == 0) {
		free(out);
		return 0;
	}
	if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		snprintf(why, whylen, "'sgabench run' exited %d%s%s",
			 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
			 errline[0] ? ": " : "", errline);
	else if (!out)
		snprintf(why, whylen, "no output from 'sgabench run'");
	free(out);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 3;	/* ran, but the event was not counted */
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
