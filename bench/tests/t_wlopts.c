/*
 * t_wlopts: a workload's parameter is declared once, in the workload.
 *
 * This binary links its own list of workloads (in place of
 * workloads/list.c): the real ones and "dummy", whose one parameter
 * --dummy-knob is written below and nowhere else. The test checks that
 * the parameter reaches `run --help` and `sim --help`, both backends'
 * streams, the stored cell and the stored configuration, and that its
 * default leaves the cell as it was.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"
#include "builtin/builtin.h"
#include "lib/log.h"
#include "workloads/workload.h"

struct dummy_opts {
	uint64_t knob;
};

static const struct opt dummy_options[] = {
	{ .name = "dummy-knob", .type = OPT_UINT, .off = offsetof(struct dummy_opts, knob), .min = 1,
	  .max = 1000, .metavar = "N", .def = "3", .help = "the test workload's one parameter",
	  .cell = "dummy_knob", .conf = "dummy_knob", .flags = OPT_IF_CHANGED },
	{ NULL },
};

/* Where open() notes the knob it was given: each task's stream, native
 * tasks in their own processes, so a file. */
static char seen_path[256];

static int dummy_open(struct wl_stream *s)
{
	const struct dummy_opts *o = s->opts;
	char line[32];
	int fd, n;

	if (!o)
		return -EINVAL;
	fd = open(seen_path, O_WRONLY | O_CREAT | O_APPEND, 0600);
	if (fd < 0)
		return -errno;
	n = snprintf(line, sizeof(line), "%llu\n", (unsigned long long)o->knob);
	if (write(fd, line, (size_t)n) != n)
		n = -1;
	close(fd);
	return n < 0 ? -EIO : 0;
}

/* Every page in order, round after round. */
static size_t dummy_fill(struct wl_stream *s, uint32_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = (uint32_t)((s->pos + i) % s->p.pages);
	return n;
}

static const struct workload_ops wl_dummy = {
	.name = "dummy",
	.help = "test-only: every page in order, with one parameter",
	.flags = WL_PERIODIC,
	.options = dummy_options,
	.open = dummy_open,
	.fill = dummy_fill,
};

extern const struct workload_ops wl_rounds, wl_random, wl_zipf, wl_chase;

/* The list this binary runs with (workloads/list.c's, plus dummy). */
const struct workload_ops *const workload_registry[] = {
	&wl_rounds, &wl_random, &wl_zipf, &wl_chase, &wl_dummy, NULL,
};

static char dir[] = "/tmp/t_wlopts.XXXXXX", db[300], outp[300];

/* Run cmd with argv (NULL-terminated) and its stdout into outp; returns its status. */
static int capture(int (*cmd)(int, char **), char **argv)
{
	int argc = 0, save, fd, ret;

	while (argv[argc])
		argc++;
	fflush(stdout);
	save = dup(1);
	fd = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (save < 0 || fd < 0)
		return -EIO;
	dup2(fd, 1);
	close(fd);
	ret = cmd(argc, argv);
	fflush(stdout);
	dup2(save, 1);
	close(save);
	return ret;
}

/* The whole of file path (empty when missing), in a static buffer. */
static const char *slurp(const char *path)
{
	static char buf[1 << 16];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/* The stored run id as `show --json` prints it. */
static const char *show(const char *id)
{
	char *argv[] = { "show", (char *)id, "--db", db, "--json", NULL };

	if (capture(cmd_show, argv))
		return "";
	return slurp(outp);
}

/* Whether every line of the seen file is want, and there is one at least. */
static int seen_only(const char *want)
{
	char line[64];
	int n = 0, bad = 0;
	FILE *f = fopen(seen_path, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		n++;
		bad |= strcmp(line, want) != 0;
	}
	fclose(f);
	unlink(seen_path);
	return n > 0 && !bad;
}

int main(void)
{
	char *run_help[] = { "run", "--help", NULL }, *sim_help[] = { "sim", "--help", NULL };
	char *wls[] = { "workloads", NULL };
	char *native[] = { "run", "--page-size", "4k", "--tasks", "2", "--sga-size", "64k", "--rounds", "1",
			   "--events", "task-clock", "--pattern", "dummy", "--dummy-knob", "7",
			   "--db", db, "--quiet", NULL };
	char *model[] = { "sim", "--tasks", "2", "--rounds", "1", "--working-set", "8m", "--pattern", "dummy",
			  "--dummy-knob", "9", "--db", db, "--quiet", NULL };
	char *plain[] = { "sim", "--tasks", "2", "--rounds", "1", "--working-set", "8m", "--pattern", "dummy",
			  "--db", db, "--quiet", NULL };
	char *bad[] = { "run", "--page-size", "4k", "--no-store", "--dummy-knob", "0", NULL };
	const char *s;

	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	snprintf(db, sizeof(db), "%s/t.db", dir);
	snprintf(outp, sizeof(outp), "%s/out", dir);
	snprintf(seen_path, sizeof(seen_path), "%s/seen", dir);

	ok(capture(cmd_run, run_help) == 0 && strstr(slurp(outp), "--dummy-knob N") &&
	   strstr(slurp(outp), "the test workload's one parameter [3]"), "run --help lists --dummy-knob and its default");
	ok(capture(cmd_sim, sim_help) == 0 && strstr(slurp(outp), "--dummy-knob N"), "sim --help lists --dummy-knob");
	ok(capture(cmd_workloads, wls) == 0 && strstr(slurp(outp), "dummy "), "sgabench workloads lists dummy");

	ok(capture(cmd_run, native) == 0, "run --pattern dummy --dummy-knob 7 (4k pages, 2 tasks) exits 0");
	ok(seen_only("7"), "the native tasks' streams were given knob 7");
	s = show("1");
	ok(strstr(s, " dummy_knob=7\""), "the stored native cell ends with dummy_knob=7");
	ok(strstr(s, "\"dummy_knob\":7"), "the stored native configuration has \"dummy_knob\":7");
	ok(strstr(s, "zipf_theta=0.99 dummy_knob=7"), "workload parameters follow each other in the cell");

	ok(capture(cmd_sim, model) == 0, "sim --pattern dummy --dummy-knob 9 exits 0");
	ok(seen_only("9"), "the model's streams were given knob 9");
	s = show("2");
	ok(strstr(s, " dummy_knob=9\""), "the stored model cell ends with dummy_knob=9");
	ok(strstr(s, "\"dummy_knob\":9"), "the stored model configuration has \"dummy_knob\":9");

	ok(capture(cmd_sim, plain) == 0 && seen_only("3"), "without --dummy-knob the stream gets the default 3");
	s = show("3");
	ok(!strstr(s, "dummy_knob=") && strstr(s, "zipf_theta=0.99\""),
	   "at its default the knob stays out of the cell (older cells keep their keys)");
	ok(strstr(s, "\"dummy_knob\":3"), "the stored configuration still has the default");

	ok(builtin_exit(capture(cmd_run, bad)) == EX_USAGE, "--dummy-knob 0 is refused by the row's range (exit 2)");

	unlink(db);
	snprintf(outp + strlen(dir), sizeof(outp) - strlen(dir), "/t.db-wal");
	unlink(outp);
	snprintf(outp + strlen(dir), sizeof(outp) - strlen(dir), "/t.db-shm");
	unlink(outp);
	snprintf(outp + strlen(dir), sizeof(outp) - strlen(dir), "/out");
	unlink(outp);
	rmdir(dir);
	return done_testing();
}
