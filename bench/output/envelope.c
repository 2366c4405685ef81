/* envelope.c - the common head of every JSON document (envelope.h). */
#include <stdio.h>
#include <time.h>
#include "machine/sysinfo.h"
#include "output/envelope.h"
#include "store/store.h"

/* The current UTC time as ISO 8601 into buf. */
static const char *now_utc(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

void envelope_json(struct json *j, const struct sysinfo *si, const char *command)
{
	char when[32];

	json_str(j, "tool", "sgabench");
	json_str(j, "version", SGA_VERSION);
	json_i64(j, "schema_version", store_schema_version());
	json_str(j, "command", command);
	json_str(j, "host", si->hostname);
	json_str(j, "kernel", si->kernel);
	json_str(j, "time", now_utc(when, sizeof(when)));
	json_str(j, "fingerprint", si->fingerprint);
}

void envelope_csv(FILE *f, const struct sysinfo *si, const char *command)
{
	char when[32];

	fprintf(f, "# tool=sgabench version=%s schema_version=%d command=%s\n", SGA_VERSION,
		store_schema_version(), command);
	fprintf(f, "# host=%s kernel=%s time=%s fingerprint=%s\n", si->hostname, si->kernel,
		now_utc(when, sizeof(when)), si->fingerprint);
}
