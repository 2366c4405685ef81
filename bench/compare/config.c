/*
 * compare/config.c - compare --config FILE: the verdict rules of a sweep
 * config (scripts/configs/NAME), read the way scripts/lib.sh's config_load
 * reads them, so a comparison by hand judges as the nightly does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "compare/compare.h"

/*
 * The value of "NAME=VALUE" (optionally after "export"), unquoted, when
 * line sets name; NULL otherwise. A quoted value ends at its closing
 * quote; a bare one at the first blank or '#'. Writes into buf.
 */
static const char *setting(const char *line, const char *name, char *buf, size_t len)
{
	size_t l = strlen(name), k;
	const char *p = line;
	char q;

	p += strspn(p, " \t");
	if (strncmp(p, "export", 6) == 0 && (p[6] == ' ' || p[6] == '\t'))
		p += 6 + strspn(p + 6, " \t");
	if (strncmp(p, name, l) != 0 || p[l] != '=')
		return NULL;
	p += l + 1;
	q = *p == '"' || *p == '\'' ? *p++ : 0;
	k = q ? strcspn(p, q == '"' ? "\"" : "'") : strcspn(p, " \t#\n");
	snprintf(buf, len, "%.*s", (int)k, p);
	return buf;
}

/* Append a copy of s to argv (*n of them); -ENOMEM. */
static int push(char ***argv, int *n, const char *s, size_t l)
{
	char **na = realloc(*argv, (*n + 2) * sizeof(*na));

	if (!na)
		return -ENOMEM;
	*argv = na;
	na[*n] = strndup(s, l);
	if (!na[*n])
		return -ENOMEM;
	na[++*n] = NULL;
	return 0;
}

/*
 * Turn "M N" (bare names, as scripts/lib.sh's config_check wants them)
 * into "--metric M,N" on argv; which way is better is compare's own rule,
 * from the metric registry. A NAME:higher or NAME:lower of an older config
 * is refused, as the sweep refuses it.
 */
static int metric_args(const char *spec, char ***argv, int *n, char *why, size_t len)
{
	char metrics[2048] = "";
	int ret = 0;

	for (const char *p = spec + strspn(spec, " \t"); *p; p += strspn(p, " \t")) {
		size_t l = strcspn(p, " \t"), m;

		if (memchr(p, ':', l)) {
			snprintf(why, len, "SWEEP_METRICS: '%.*s': a metric is a bare name (which way is "
				 "better comes from the metric registry: sgabench metrics)", (int)l, p);
			return -EINVAL;
		}
		m = strlen(metrics);
		snprintf(metrics + m, sizeof(metrics) - m, "%s%.*s", m ? "," : "", (int)l, p);
		p += l;
	}
	if (*metrics && !(ret = push(argv, n, "--metric", 8)))
		ret = push(argv, n, metrics, strlen(metrics));
	return ret;
}

/*
 * Open config path as the scripts' config_resolve finds it: the file
 * itself, else a bare NAME or configs/NAME among the configs shipped
 * beside this binary (bench/../scripts/configs in a checkout,
 * bin/../share/sgabench/configs installed), which the nightly names.
 */
static FILE *config_open(const char *path)
{
	static const char *const dirs[] = { "../scripts/configs/", "../share/sgabench/configs/" };
	const char *name = strncmp(path, "configs/", 8) == 0 ? path + 8 : path;
	char exe[4096], buf[4200], *slash;
	FILE *f = fopen(path, "r");
	ssize_t l;

	if (f || strchr(name, '/') || !*name)
		return f;
	l = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (l <= 0)
		return NULL;
	exe[l] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	slash[1] = '\0';
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && !f; i++) {
		snprintf(buf, sizeof(buf), "%s%s%s", exe, dirs[i], name);
		f = fopen(buf, "r");
	}
	return f;
}

int cmp_config_args(const char *path, char ***out, int *n, char *why, size_t len)
{
	char line[4096], metrics[2048] = "", args[2048] = "", buf[2048];
	FILE *f = config_open(path);
	int ret;

	*out = NULL;
	*n = 0;
	if (!f) {
		snprintf(why, len, "cannot read '%s'", path);
		return -ENOENT;
	}
	while (fgets(line, sizeof(line), f)) {
		if (setting(line, "SWEEP_METRICS", buf, sizeof(buf)))
			snprintf(metrics, sizeof(metrics), "%s", buf);
		else if (setting(line, "SWEEP_COMPARE_ARGS", buf, sizeof(buf)))
			snprintf(args, sizeof(args), "%s", buf);
	}
	fclose(f);
	if (!*metrics) {	/* config_load's default */
		snprintf(metrics, sizeof(metrics), "first-touch-faults");
	}
	ret = metric_args(metrics, out, n, why, len);
	for (const char *p = args + strspn(args, " \t"); !ret && *p; p += strspn(p, " \t")) {
		size_t l = strcspn(p, " \t");

		ret = push(out, n, p, l);
		p += l;
	}
	if (ret == -ENOMEM)
		snprintf(why, len, "out of memory");
	if (ret) {
		cmp_config_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return ret;
}

void cmp_config_free(char **argv, int n)
{
	for (int i = 0; argv && i < n; i++)
		free(argv[i]);
	free(argv);
}
