/*
 * envelope.h - the keys every JSON document of sgabench starts with, from
 * one function, so that no two commands drift apart: tool, version,
 * schema_version, command, host, kernel, time, fingerprint.
 */
#ifndef SGA_ENVELOPE_H
#define SGA_ENVELOPE_H

#include "lib/json.h"

struct sysinfo;

/*
 * Write the envelope's members into the object j has open. si is this
 * machine (sysinfo_collect); command is the subcommand ("run", "compare").
 * time is the UTC time of the call, ISO 8601.
 */
void envelope_json(struct json *j, const struct sysinfo *si, const char *command);

/* The same facts as CSV '#' comment lines ("# tool=sgabench version=..."). */
void envelope_csv(FILE *f, const struct sysinfo *si, const char *command);

#endif
