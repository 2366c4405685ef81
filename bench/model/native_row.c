/* native_row.c - one table row through `sgabench run` in a child (native_row.h). */
#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "native_row.h"

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

/* The total and the missing reason of dTLB-load-misses in a run's JSON. */
static int parse(const char *json, double *misses, char *why, size_t whylen)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	int ret = -1;

	if (sqlite3_open(":memory:", &h) != SQLITE_OK ||
	    sqlite3_prepare_v2(h, "SELECT json_extract(?1, '$.totals.\"dTLB-load-misses\"'),"
			       " json_extract(?1, '$.missing.\"dTLB-load-misses\"')", -1, &st, NULL) != SQLITE_OK)
		goto out;
	sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_ROW)
		goto out;
	if (sqlite3_column_type(st, 0) != SQLITE_NULL) {
		*misses = sqlite3_column_double(st, 0);
		ret = 0;
	} else {
		snprintf(why, whylen, "dTLB-load-misses not counted: %s",
			 sqlite3_column_type(st, 1) == SQLITE_NULL ? "no value" :
			 (const char *)sqlite3_column_text(st, 1));
	}
out:
	sqlite3_finalize(st);
	sqlite3_close(h);
	return ret;
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
	argv[argc++] = "--json";
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
