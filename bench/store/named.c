/*
 * store/named.c - the statements behind 'sgabench db query' and 'db exec':
 * what scripts/sweep, scripts/nightly and report/mkreport need to know or
 * record, by name. The SQL lives here so the scripts never see it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/json.h"
#include "lib/log.h"
#include "store/internal.h"
#include "store/named.h"
#include "store/stmt.h"

/* A successful run that is not a sweep's warm-up. */
#define OK_RUN "r.status = 'ok' AND COALESCE(r.label, '') NOT LIKE 'warmup:%'"
/*
 * The verdicts v of the latest comparison stored: those that share the
 * baseline, candidate and time of the newest verdict row (two comparisons
 * stored in one second stay apart unless they compare the same selectors).
 */
#define LATEST_COMPARISON \
	"(v.baseline, v.candidate, v.created_at) = (SELECT baseline, candidate, created_at" \
	" FROM verdict ORDER BY id DESC LIMIT 1)"
/*
 * How the report names machine c: its hostname and the start of its
 * fingerprint, so two machines with one hostname stay apart.
 */
#define MACHINE_LABEL(c) "COALESCE(" c ".hostname, '?') || ' ' || substr(" c ".fingerprint, 1, 8)"
/* The page layout of a run: 4k, thp, or page size and alignment (2m-pud). */
#define LAYOUT "CASE WHEN r.page_size IN ('4k', 'thp') THEN r.page_size" \
	" ELSE r.page_size || '-' || COALESCE(r.align, '?') END"

/*
 * The noise-samples query. Sweeps started in the same second are told
 * apart by uuid; the samples come in the order stored (run id), then by
 * metric, sweep and value, so the seeded splits of 'stats noise' see one
 * order on either engine.
 */
#define NOISE_SAMPLES \
	"WITH sw AS (SELECT uuid FROM sweep WHERE name = ?1" \
	"  ORDER BY started_at DESC, uuid DESC LIMIT ?2)," \
	" mine AS (SELECT DISTINCT r.machine_id FROM timing t JOIN run r ON r.uuid = t.run_uuid" \
	"  WHERE t.sweep_uuid = ?3)," \
	" runs AS (SELECT DISTINCT r.id, r.cell, t.wall_s, t.exit_code, t.sweep_uuid FROM timing t" \
	"  JOIN run r ON r.uuid = t.run_uuid" \
	"  WHERE t.sweep_uuid IN (SELECT uuid FROM sw) AND r.machine_id IN (SELECT machine_id FROM mine)" \
	"  AND r.status = 'ok' AND r.label NOT GLOB '*-B' AND r.label NOT GLOB 'warmup:*'" \
	"  AND NOT EXISTS (SELECT 1 FROM metric k WHERE k.run_id = r.id AND k.name = 'test-work'))" \
	" SELECT cell, name, value, sweep_uuid FROM (" \
	" SELECT x.cell, m.name, m.value, x.sweep_uuid, x.id AS k FROM runs x" \
	" JOIN run_metric m ON m.run_id = x.id WHERE m.value IS NOT NULL" \
	" UNION ALL" \
	" SELECT x.cell, 'wall-s', x.wall_s, x.sweep_uuid, x.id FROM runs x WHERE x.exit_code = 0" \
	" AND NOT EXISTS (SELECT 1 FROM metric w WHERE w.run_id = x.id AND w.name = 'wall-s')" \
	") AS s ORDER BY k, name, sweep_uuid, value"

const struct named_stmt store_named[] = {
	/* ---- scripts/sweep ---- */
	{ "sweep-start", 6, 1, "UUID NAME STARTED_AT ORDER_SEED CELL_ORDER CONFIG",
	  "record a sweep before its first invocation",
	  "INSERT INTO sweep (uuid, name, started_at, order_seed, cell_order, config)"
	  " VALUES (?1, ?2, ?3, CAST(NULLIF(?4, '') AS INTEGER), ?5, ?6)", NULL },
	{ "sweep-order", 2, 1, "UUID CELL_ORDER", "record the order a sweep actually ran",
	  "UPDATE sweep SET cell_order = ?2 WHERE uuid = ?1", NULL },
	{ "timing-add", 7, 1, "RUN_UUID SWEEP_UUID CELL COMMAND ITERATION WALL_S EXIT_CODE",
	  "one hyperfine time; RUN_UUID may be empty; the cell is the run's when it has one",
	  "INSERT INTO timing (run_uuid, sweep_uuid, cell, command, iteration, wall_s, exit_code)"
	  " VALUES (NULLIF(?1, ''), ?2, COALESCE((SELECT cell FROM run WHERE uuid = ?1), ?3), ?4,"
	  " CAST(?5 AS INTEGER), CAST(?6 AS REAL), CAST(NULLIF(?7, '') AS INTEGER))", NULL },
	{ "run-relabel", 2, 1, "UUID LABEL", "give a stored run another label (warm-ups)",
	  "UPDATE run SET label = ?2 WHERE uuid = ?1", NULL },
	{ "noise-put", 5, 1, "SWEEP_UUID CELL METRIC FLOOR SAMPLES",
	  "store the A/A noise floor of a cell of the sweep, on the machine that ran it",
	  "INSERT OR REPLACE INTO noise (cell, metric, machine_id, floor, samples, measured_at)"
	  " SELECT ?2, ?3, r.machine_id, CAST(?4 AS REAL), CAST(?5 AS INTEGER),"
	  " strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"
	  " FROM timing t JOIN run r ON r.uuid = t.run_uuid"
	  " WHERE t.sweep_uuid = ?1 AND r.cell = ?2 LIMIT 1",
	  "INSERT INTO noise (cell, metric, machine_id, floor, samples, measured_at)"
	  " SELECT ?2, ?3, r.machine_id, CAST(?4 AS REAL), CAST(?5 AS INTEGER),"
	  " strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"
	  " FROM timing t JOIN run r ON r.uuid = t.run_uuid"
	  " WHERE t.sweep_uuid = ?1 AND r.cell = ?2 LIMIT 1"
	  " ON CONFLICT (cell, metric, machine_id) DO UPDATE SET floor = excluded.floor,"
	  " samples = excluded.samples, measured_at = excluded.measured_at" },
	{ "sweep-last-cell", 1, 0, "SWEEP_UUID", "the cell of the sweep's latest stored run",
	  "SELECT cell FROM run WHERE uuid = (SELECT run_uuid FROM timing"
	  " WHERE sweep_uuid = ?1 AND run_uuid IS NOT NULL ORDER BY id DESC LIMIT 1)", NULL },
	{ "sweep-samples", 1, 0, "SWEEP_UUID",
	  "label, cell, metric, value of every measured sample of the sweep (wall-s from hyperfine"
	  " when the run has none), in the order measured, then by metric",
	  "SELECT label, cell, name, value FROM ("
	  " SELECT r.label, r.cell, m.name, m.value, t.id AS k"
	  " FROM timing t JOIN run r ON r.uuid = t.run_uuid JOIN run_metric m ON m.run_id = r.id"
	  " WHERE t.sweep_uuid = ?1 AND m.value IS NOT NULL"
	  " UNION ALL"
	  " SELECT r.label, r.cell, 'wall-s', t.wall_s, t.id"
	  " FROM timing t JOIN run r ON r.uuid = t.run_uuid"
	  " WHERE t.sweep_uuid = ?1 AND t.exit_code = 0"
	  " AND NOT EXISTS (SELECT 1 FROM metric w WHERE w.run_id = r.id AND w.name = 'wall-s')"
	  ") AS s ORDER BY k, name", NULL },
	/* ---- report/glance.sh ---- */
	{ "glance-key", 0, 0, "", "baseline, candidate and time of the newest stored comparison",
	  "SELECT v.baseline, v.candidate, v.created_at FROM verdict v ORDER BY v.id DESC LIMIT 1", NULL },
	{ "glance-rows", 3, 0, "BASELINE CANDIDATE TIME",
	  "machine, cell, metric, verdict, ratio [CI] (' of q90' when not of medians), floor, MDE, runs,"
	  " and the runs whose estimates were scaled over few or unknown rotations (none: empty) of one"
	  " stored comparison (schema 2)",
	  "SELECT COALESCE(" MACHINE_LABEL("c") ", '-') AS machine, v.cell, v.metric, v.verdict,"
	  " CASE WHEN v.ratio IS NULL THEN '-' ELSE printf('%.3f', v.ratio) END ||"
	  " CASE WHEN v.ci_lo IS NULL THEN '' ELSE printf(' [%.3f, %.3f]', v.ci_lo, v.ci_hi) END ||"
	  " CASE WHEN json_valid(v.method) AND json_extract(v.method, '$.quantile') <> 0.5"
	  "  THEN printf(' of q%d', CAST(round(100 * json_extract(v.method, '$.quantile')) AS INTEGER))"
	  "  ELSE '' END AS ratio,"
	  " CASE WHEN v.noise_floor IS NULL THEN '-' ELSE printf('%.3g %%', 100 * v.noise_floor) END AS floor,"
	  " CASE WHEN v.mde IS NULL AND v.n_base > 0 THEN 'none'"
	  "  WHEN v.mde IS NULL THEN '-' ELSE printf('%.3g %%', 100 * v.mde) END AS mde,"
	  " v.n_base || ' / ' || v.n_cand AS runs,"
	  " CASE WHEN json_valid(v.method) AND json_extract(v.method, '$.multiplexing') IS NOT NULL"
	  "  THEN (json_extract(v.method, '$.multiplexing.baseline.few_rotations_runs')"
	  "   + json_extract(v.method, '$.multiplexing.baseline.unknown_runs')) || ' / ' ||"
	  "  (json_extract(v.method, '$.multiplexing.candidate.few_rotations_runs')"
	  "   + json_extract(v.method, '$.multiplexing.candidate.unknown_runs')) ELSE '' END AS multiplexed"
	  " FROM verdict v LEFT JOIN machine c ON c.id = v.machine_id"
	  " WHERE v.baseline = ?1 AND v.candidate = ?2 AND v.created_at = ?3"
	  " ORDER BY v.cell, v.metric, v.id",
	  "SELECT COALESCE(" MACHINE_LABEL("c") ", '-') AS machine, v.cell, v.metric, v.verdict,"
	  " CASE WHEN v.ratio IS NULL THEN '-' ELSE printf('%.3f', v.ratio) END ||"
	  " CASE WHEN v.ci_lo IS NULL THEN '' ELSE printf(' [%.3f, %.3f]', v.ci_lo, v.ci_hi) END ||"
	  " CASE WHEN (v.method::json->>'quantile')::float8 <> 0.5"
	  "  THEN ' of q' || round(100 * (v.method::json->>'quantile')::float8)::int ELSE '' END AS ratio,"
	  " CASE WHEN v.noise_floor IS NULL THEN '-' ELSE printf('%.3g %%', 100 * v.noise_floor) END AS floor,"
	  " CASE WHEN v.mde IS NULL AND v.n_base > 0 THEN 'none'"
	  "  WHEN v.mde IS NULL THEN '-' ELSE printf('%.3g %%', 100 * v.mde) END AS mde,"
	  " v.n_base || ' / ' || v.n_cand AS runs,"
	  " CASE WHEN v.method::json->'multiplexing' IS NOT NULL"
	  "  THEN ((v.method::json->'multiplexing'->'baseline'->>'few_rotations_runs')::int"
	  "   + (v.method::json->'multiplexing'->'baseline'->>'unknown_runs')::int) || ' / ' ||"
	  "  ((v.method::json->'multiplexing'->'candidate'->>'few_rotations_runs')::int"
	  "   + (v.method::json->'multiplexing'->'candidate'->>'unknown_runs')::int) ELSE '' END AS multiplexed"
	  " FROM verdict v LEFT JOIN machine c ON c.id = v.machine_id"
	  " WHERE v.baseline = ?1 AND v.candidate = ?2 AND v.created_at = ?3"
	  " ORDER BY v.cell, v.metric, v.id" },
	{ "glance-rows-v1", 3, 0, "BASELINE CANDIDATE TIME",
	  "as glance-rows, for a schema 1 database (no floor or MDE stored)",
	  "SELECT COALESCE(" MACHINE_LABEL("c") ", '-') AS machine, v.cell, v.metric, v.verdict,"
	  " CASE WHEN v.ratio IS NULL THEN '-' ELSE printf('%.3f', v.ratio) END ||"
	  " CASE WHEN v.ci_lo IS NULL THEN '' ELSE printf(' [%.3f, %.3f]', v.ci_lo, v.ci_hi) END AS ratio,"
	  " CASE WHEN NULL IS NULL THEN '-' ELSE printf('%.3g %%', 100 * NULL) END AS floor,"
	  " CASE WHEN NULL IS NULL AND v.n_base > 0 THEN 'none'"
	  "  WHEN NULL IS NULL THEN '-' ELSE printf('%.3g %%', 100 * NULL) END AS mde,"
	  " v.n_base || ' / ' || v.n_cand AS runs, '' AS multiplexed"
	  " FROM verdict v LEFT JOIN machine c ON c.id = v.machine_id"
	  " WHERE v.baseline = ?1 AND v.candidate = ?2 AND v.created_at = ?3"
	  " ORDER BY v.cell, v.metric, v.id", NULL },
	{ "noise-samples", 3, 0, "SWEEP_NAME N SWEEP_UUID",
	  "cell, metric, value, sweep of every first-arm sample of the last N sweeps called"
	  " SWEEP_NAME on the machines of SWEEP_UUID: never a B arm, a warm-up or a test-knob run"
	  " (wall-s from hyperfine when the run has none)",
	  NOISE_SAMPLES, NULL },
	{ "sweep-runs", 1, 0, "SWEEP_UUID", "how many runs the sweep stored",
	  "SELECT COUNT(DISTINCT run_uuid) AS runs FROM timing WHERE sweep_uuid = ?1", NULL },
	{ "label-used", 1, 0, "LABEL",
	  "how many runs (any status) a sweep labelled LABEL would share a label with: LABEL, its A/B"
	  " arms LABEL-A and LABEL-B, and those as warmup: or interrupted: labels",
	  "SELECT COUNT(*) AS runs FROM run WHERE (CASE WHEN label GLOB 'warmup:*' THEN substr(label, 8)"
	  " WHEN label GLOB 'interrupted:*' THEN substr(label, 13) ELSE label END)"
	  " IN (?1, ?1 || '-A', ?1 || '-B')", NULL },
	{ "sweep-label", 1, 0, "SWEEP_UUID", "'name, started, order seed N' of a sweep",
	  "SELECT name || ', ' || started_at || ', order seed ' || COALESCE(CAST(order_seed AS TEXT), '?') AS sweep"
	  " FROM sweep WHERE uuid = ?1", NULL },
	/* ---- scripts/nightly ---- */
	{ "label-runs", 3, 0, "LABEL STATUS MACHINE",
	  "how many runs of the machine named MACHINE (empty: any) carry LABEL with STATUS (ok, failed)",
	  "SELECT COUNT(*) AS runs FROM run WHERE label = ?1 AND status = ?2"
	  " AND (?3 = '' OR machine_name = ?3)", NULL },
	{ "nights-before", 2, 0, "LABEL MACHINE",
	  "how many other nightly labels have ok runs of the machine named MACHINE (empty: of the"
	  " machines that ran LABEL)",
	  "SELECT COUNT(DISTINCT label) AS nights FROM run WHERE label GLOB 'nightly-*' AND status = 'ok'"
	  " AND label <> ?1 AND (CASE WHEN ?2 = '' THEN machine_id IN"
	  " (SELECT machine_id FROM run WHERE label = ?1) ELSE machine_name = ?2 END)", NULL },
	{ "nights-before-here", 2, 0, "LABEL MACHINE",
	  "how many other nightly labels have ok runs of the machine named MACHINE on a fingerprint"
	  " (hardware and kernel) its runs of LABEL have, started before LABEL's first run",
	  "SELECT COUNT(DISTINCT label) AS nights FROM run WHERE label GLOB 'nightly-*' AND status = 'ok'"
	  " AND label <> ?1 AND machine_name = ?2 AND machine_id IN"
	  " (SELECT machine_id FROM run WHERE label = ?1 AND machine_name = ?2)"
	  " AND started_at < (SELECT MIN(started_at) FROM run WHERE label = ?1 AND machine_name = ?2)", NULL },
	{ "runs-interrupted", 3, 1, "LABEL MACHINE SINCE",
	  "relabel the runs of an interrupted sweep, LABEL (or LABEL-A, LABEL-B) of the machine named"
	  " MACHINE started at or after SINCE, as interrupted:LABEL: no night is left half measured",
	  "UPDATE run SET label = 'interrupted:' || label WHERE (label = ?1 OR label = ?1 || '-A'"
	  " OR label = ?1 || '-B') AND machine_name = ?2 AND started_at >= ?3", NULL },
	/* ---- report/mkreport ---- */
	{ "model-runs", 1, 0, "LABEL", "successful model runs (of LABEL; empty: any)",
	  "SELECT COUNT(*) AS runs FROM run r WHERE " OK_RUN " AND backend LIKE 'model:%'"
	  " AND (?1 = '' OR r.label = ?1)", NULL },
	{ "model-backend", 1, 0, "LABEL", "the backend of the latest model run of the rounds pattern",
	  "SELECT backend FROM run r WHERE " OK_RUN " AND backend LIKE 'model:%'"
	  " AND workload = 'rounds' AND (?1 = '' OR r.label = ?1) ORDER BY started_at DESC, id DESC LIMIT 1", NULL },
	{ "cover-points", 2, 0, "BACKEND LABEL",
	  "sharedctx, rounds, dTLB-load-misses of the two-task rounds runs of BACKEND (and LABEL),"
	  " by rounds, sharedctx and value",
	  "SELECT r.sharedctx, r.rounds, m.value FROM run r JOIN run_metric m ON m.run_id = r.id"
	  " AND m.name = 'dTLB-load-misses' WHERE " OK_RUN " AND r.workload = 'rounds'"
	  " AND r.tasks = 2 AND m.value IS NOT NULL AND r.backend = ?1"
	  " AND (?2 = '' OR r.label = ?2) ORDER BY r.rounds, r.sharedctx, m.value", NULL },
	{ "cover-missing", 0, 0, "", "backend, reason, runs for runs whose dTLB-load-misses is missing",
	  "SELECT r.backend, m.missing, COUNT(DISTINCT r.id) AS runs FROM run r JOIN run_metric m"
	  " ON m.run_id = r.id AND m.name = 'dTLB-load-misses' WHERE " OK_RUN
	  " AND m.value IS NULL GROUP BY 1, 2 ORDER BY 1, 2", NULL },
	{ "sweep-latest", 1, 0, "NAME", "the uuid of the latest sweep called NAME that stored timings",
	  "SELECT uuid FROM sweep s WHERE name = ?1"
	  " AND EXISTS (SELECT 1 FROM timing t WHERE t.sweep_uuid = s.uuid)"
	  " ORDER BY started_at DESC, uuid DESC LIMIT 1", NULL },
	{ "sweep-latest-backend", 1, 0, "PATTERN",
	  "the uuid of the latest sweep with runs whose backend is LIKE PATTERN",
	  "SELECT uuid FROM sweep s WHERE EXISTS (SELECT 1 FROM timing t"
	  " JOIN run r ON r.uuid = t.run_uuid WHERE t.sweep_uuid = s.uuid AND r.backend LIKE ?1)"
	  " ORDER BY started_at DESC, uuid DESC LIMIT 1", NULL },
	{ "scaling-points", 2, 0, "SWEEP_UUID METRIC",
	  "layout, tasks, metric, value of the sweep's samples of METRIC (wall-s from hyperfine when the"
	  " run has none, as a run stored before it had one)",
	  "SELECT " LAYOUT " AS layout, r.tasks, m.name, m.value FROM timing t JOIN run r ON r.uuid = t.run_uuid"
	  " JOIN run_metric m ON m.run_id = r.id WHERE t.sweep_uuid = ?1 AND " OK_RUN
	  " AND m.value IS NOT NULL AND m.name = ?2"
	  " UNION ALL SELECT " LAYOUT ", r.tasks, 'wall-s', t.wall_s FROM timing t"
	  " JOIN run r ON r.uuid = t.run_uuid"
	  " WHERE t.sweep_uuid = ?1 AND " OK_RUN " AND t.exit_code = 0 AND ?2 = 'wall-s'"
	  " AND NOT EXISTS (SELECT 1 FROM metric w WHERE w.run_id = r.id AND w.name = 'wall-s')"
	  " ORDER BY 1, 3, 2, 4", NULL },
	{ "nightly-machines", 0, 0, "", "the ids of the 8 machines with the latest nightly runs,"
	  " latest first",
	  "SELECT machine_id FROM run r WHERE " OK_RUN " AND label GLOB 'nightly-[0-9]*'"
	  " GROUP BY machine_id ORDER BY MAX(started_at) DESC, machine_id LIMIT 8", NULL },
	{ "machine-label", 1, 0, "MACHINE_ID", "how the report names a machine (hostname, fingerprint)",
	  "SELECT " MACHINE_LABEL("c") " AS machine FROM machine c WHERE c.id = ?1", NULL },
	{ "nightly-points", 1, 0, "MACHINE_ID",
	  "cell, short cell, metric, night (YYYYMMDD), value of the machine's 8 latest nightly cells,"
	  " by metric, short cell, night, cell and value",
	  "SELECT r.cell, 't=' || r.tasks || ' ' || " LAYOUT " || ' r=' || r.rounds ||"
	  " CASE WHEN r.sharedctx <> 0 THEN ' ctx' ELSE '' END AS short_cell, m.name,"
	  " substr(r.label, 9, 8) AS night, m.value"
	  " FROM run r JOIN run_metric m ON m.run_id = r.id"
	  " WHERE " OK_RUN " AND r.machine_id = ?1 AND r.label GLOB 'nightly-[0-9]*'"
	  " AND m.value IS NOT NULL AND r.cell IN (SELECT cell FROM run"
	  " WHERE label GLOB 'nightly-[0-9]*' AND machine_id = ?1"
	  " GROUP BY cell ORDER BY MAX(started_at) DESC, cell LIMIT 8)"
	  " ORDER BY 3, 2, 4, 1, 5", NULL },
	{ "machine-fingerprint", 1, 0, "MACHINE_ID", "the fingerprint of a machine",
	  "SELECT fingerprint FROM machine WHERE id = ?1", NULL },
	{ "machine-count", 0, 0, "", "how many machine fingerprints the database holds",
	  "SELECT COUNT(*) AS machines FROM machine", NULL },
	{ "fleet-points", 1, 0, "METRIC",
	  "machine, short cell, value of METRIC for the 6 native cells run on most machines",
	  "SELECT " MACHINE_LABEL("c") " AS machine,"
	  " 't=' || r.tasks || ' ' || " LAYOUT " || ' r=' || r.rounds AS short_cell, m.value"
	  " FROM run r JOIN machine c ON c.id = r.machine_id JOIN run_metric m ON m.run_id = r.id"
	  " AND m.name = ?1 WHERE " OK_RUN " AND r.backend = 'native' AND m.value IS NOT NULL"
	  " AND r.cell IN (SELECT r2.cell FROM run r2 JOIN run_metric m2 ON m2.run_id = r2.id"
	  " AND m2.name = ?1 WHERE r2.status = 'ok' AND r2.backend = 'native'"
	  " GROUP BY r2.cell ORDER BY COUNT(DISTINCT r2.machine_id) DESC, COUNT(*) DESC, r2.cell"
	  " LIMIT 6) ORDER BY 2, 1, 3", NULL },
	{ "design-points", 1, 0, "SWEEP_UUID",
	  "cell, preset, sharedctx, tasks, metric, value of every sample of a model sweep",
	  "SELECT r.cell, substr(r.backend, 7) AS preset, r.sharedctx, r.tasks, m.name, m.value FROM timing t"
	  " JOIN run r ON r.uuid = t.run_uuid JOIN run_metric m ON m.run_id = r.id"
	  " WHERE t.sweep_uuid = ?1 AND " OK_RUN " AND m.value IS NOT NULL ORDER BY 2, 3, 1, 4, 5, 6", NULL },
	{ "design-runs", 1, 0, "SWEEP_UUID",
	  "cell, uuid of one successful run (the least uuid) per cell of a sweep, by cell",
	  "SELECT r.cell, MIN(r.uuid) AS uuid FROM timing t JOIN run r ON r.uuid = t.run_uuid"
	  " WHERE t.sweep_uuid = ?1 AND " OK_RUN " GROUP BY r.cell ORDER BY 1", NULL },
	{ "sweep-record", 1, 0, "SWEEP_UUID",
	  "name, start, kind (model: its runs are the TLB model's; native; none: no run stored)"
	  " and the config text of a sweep",
	  "SELECT s.name, s.started_at, CASE WHEN EXISTS (SELECT 1 FROM timing t JOIN run r"
	  " ON r.uuid = t.run_uuid WHERE t.sweep_uuid = s.uuid AND r.backend LIKE 'model:%') THEN 'model'"
	  " WHEN EXISTS (SELECT 1 FROM timing t WHERE t.sweep_uuid = s.uuid) THEN 'native'"
	  " ELSE 'none' END AS kind, COALESCE(s.config, '') AS config FROM sweep s WHERE s.uuid = ?1", NULL },
	{ "machines-table", 0, 0, "", "every machine: fingerprint, host, arch, CPU, microcode,"
	  " kernel, VM, first seen, runs",
	  "SELECT substr(fingerprint, 1, 16) AS fingerprint, COALESCE(hostname, '') AS hostname,"
	  " COALESCE(arch, '') AS arch, COALESCE(cpu_model, '') AS cpu_model,"
	  " COALESCE(microcode, '') AS microcode, COALESCE(kernel, '') AS kernel,"
	  " CASE is_vm WHEN 1 THEN 'yes' WHEN 0 THEN 'no' ELSE '?' END AS vm, first_seen,"
	  " (SELECT COUNT(*) FROM run r WHERE r.machine_id = machine.id) AS runs"
	  " FROM machine ORDER BY id", NULL },
	{ "verdicts-table", 0, 0, "", "the 60 latest verdicts, formatted, newest comparison first:"
	  " time, baseline, candidate, method, machine, verdict, ratio, CI, p, q, runs, metric, cell,"
	  " reason",
	  "SELECT v.created_at, v.baseline, v.candidate, COALESCE(v.method, '') AS method,"
	  " COALESCE(" MACHINE_LABEL("c") ", '-') AS machine, v.verdict,"
	  " CASE WHEN v.ratio IS NULL THEN '-' ELSE printf('%.4f', v.ratio) END AS ratio,"
	  " CASE WHEN v.ci_lo IS NULL THEN '-' ELSE printf('%.4f-%.4f', v.ci_lo, v.ci_hi) END AS ci,"
	  " CASE WHEN v.p_value IS NULL THEN '-' ELSE printf('%.2g', v.p_value) END AS p_value,"
	  " CASE WHEN v.q_value IS NULL THEN '-' ELSE printf('%.2g', v.q_value) END AS q_value,"
	  " v.n_base || ' / ' || v.n_cand AS runs,"
	  " v.metric, v.cell, COALESCE(v.reason, '') AS reason"
	  " FROM verdict v LEFT JOIN machine c ON c.id = v.machine_id"
	  " WHERE v.id IN (SELECT id FROM verdict ORDER BY id DESC LIMIT 60)"
	  " ORDER BY v.created_at DESC, v.baseline, v.candidate, v.id", NULL },
	{ "noise-floors", 0, 0, "", "the latest 2000 noise floors: cell, metric, floor, samples,"
	  " machine (for report/noise.sh), newest first, then by cell, metric and machine",
	  "SELECT n.cell, n.metric, n.floor, n.samples, substr(c.fingerprint, 1, 8) AS machine"
	  " FROM noise n JOIN machine c ON c.id = n.machine_id"
	  " ORDER BY n.measured_at DESC, n.cell, n.metric, c.fingerprint LIMIT 2000", NULL },
	{ "sweeps-table", 0, 0, "", "the 20 latest sweeps: name, started, seed, runs, uuid; newest first,"
	  " then by uuid",
	  "SELECT s.name, s.started_at, COALESCE(CAST(s.order_seed AS TEXT), '') AS order_seed,"
	  " (SELECT COUNT(DISTINCT run_uuid) FROM timing t WHERE t.sweep_uuid = s.uuid) AS runs, s.uuid"
	  " FROM sweep s ORDER BY s.started_at DESC, s.uuid LIMIT 20", NULL },
	{ "labels-table", 0, 0, "", "label, backend, status, runs, first and last start; latest"
	  " start first, then by label, backend and status",
	  "SELECT COALESCE(r.label, '(none)') AS label, r.backend, r.status, COUNT(*) AS runs,"
	  " MIN(r.started_at) AS first_started, MAX(r.started_at) AS last_started FROM run r GROUP BY 1, 2, 3"
	  " ORDER BY MAX(r.started_at) DESC, 1, 2, 3 LIMIT 30", NULL },
	{ "mux-scaled-runs", 0, 0, "", "the 30 latest successful runs with a multiplexed estimate"
	  " (an event reading counted part of the time): uuid, label, start; newest first, then by uuid",
	  "SELECT r.uuid, COALESCE(r.label, '(none)') AS label, r.started_at FROM run r"
	  " WHERE " OK_RUN " AND EXISTS (SELECT 1 FROM value v WHERE v.run_id = r.id"
	  " AND v.running > 0 AND v.running < v.enabled)"
	  " ORDER BY r.started_at DESC, r.uuid LIMIT 30", NULL },
	{ "database-summary", 0, 0, "", "one line: runs, failed, machines, sweeps, verdicts, latest run",
	  "SELECT 'database: ' || COUNT(*) || ' runs (' ||"
	  " COALESCE(SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END), 0) ||"
	  " ' failed) on ' || (SELECT COUNT(*) FROM machine) || ' machine(s), ' ||"
	  " (SELECT COUNT(*) FROM sweep) || ' sweep(s), ' || (SELECT COUNT(*) FROM verdict) ||"
	  " ' verdict(s); latest run ' || COALESCE(MAX(started_at), 'none') AS summary FROM run", NULL },
	{ "latest-verdicts", 0, 0, "", "'N verdict, ...' of the latest comparison stored, by verdict",
	  "SELECT group_concat(n || ' ' || verdict, ', ') AS verdicts FROM (SELECT verdict, COUNT(*) AS n"
	  " FROM verdict v WHERE " LATEST_COMPARISON " GROUP BY verdict ORDER BY verdict) AS counts",
	  "SELECT string_agg(n || ' ' || verdict, ', ' ORDER BY verdict) AS verdicts FROM"
	  " (SELECT verdict, COUNT(*) AS n FROM verdict v WHERE " LATEST_COMPARISON
	  " GROUP BY verdict) AS counts" },
	{ "latest-comparison", 0, 0, "", "'time, baseline vs candidate' of the latest comparison",
	  "SELECT created_at || ', ' || baseline || ' vs ' || candidate AS comparison FROM verdict"
	  " ORDER BY id DESC LIMIT 1", NULL },
	/* ---- export openmetrics ---- */
	{ "openmetrics-verdicts", 1, 0, "CANDIDATE",
	  "machine name, fingerprint, candidate, time, cell, metric, verdict, ratio, CI, p, q, floor,"
	  " MDE, runs of each named machine's latest stored comparison (by time, then id) whose"
	  " candidate is LIKE CANDIDATE",
	  /*
	   * A machine is its name (SGABENCH_MACHINE; a verdict stored before
	   * names were kept takes its host's name, as its runs did), not its
	   * fingerprint: identical machines of a fleet share one. Its latest
	   * comparison is that of its verdict with the latest created_at (the
	   * id breaks ties: merged files do not keep ids in time order); a
	   * comparison is the rows of one machine row, baseline, candidate and
	   * second, of which the last stored per cell and metric counts, so no
	   * two rows have the same machine, cell and metric.
	   */
	  "WITH c AS (SELECT v.id, v.created_at, v.baseline, v.candidate, v.cell, v.metric,"
	  " v.machine_id, v.verdict, v.ratio, v.ci_lo, v.ci_hi, v.p_value, v.q_value, v.noise_floor,"
	  " v.mde, v.n_base, v.n_cand, m.fingerprint,"
	  " COALESCE(NULLIF(v.machine_name, ''), m.hostname, m.fingerprint) AS mname"
	  " FROM verdict v JOIN machine m ON m.id = v.machine_id WHERE v.candidate LIKE ?1),"
	  " l AS (SELECT mname, machine_id, baseline, candidate, created_at, ROW_NUMBER() OVER"
	  " (PARTITION BY mname ORDER BY created_at DESC, id DESC) AS k FROM c),"
	  " r AS (SELECT c.*, ROW_NUMBER() OVER (PARTITION BY c.mname, c.cell, c.metric"
	  " ORDER BY c.id DESC) AS k FROM c JOIN l ON l.k = 1 AND l.mname = c.mname"
	  " AND l.machine_id = c.machine_id AND l.baseline = c.baseline"
	  " AND l.candidate = c.candidate AND l.created_at = c.created_at)"
	  " SELECT mname, fingerprint, candidate, created_at, cell, metric, verdict, ratio, ci_lo,"
	  " ci_hi, p_value, q_value, noise_floor, mde, n_base, n_cand"
	  " FROM r WHERE k = 1 ORDER BY mname, cell, metric", NULL },
	{ NULL, 0, 0, NULL, NULL, NULL, NULL },
};

const struct named_stmt *store_named_find(const char *name)
{
	for (const struct named_stmt *n = store_named; n->name; n++)
		if (strcmp(n->name, name) == 0)
			return n;
	return NULL;
}

/* Prepare n's SQL on s (its engine's text) with args bound as text. */
static struct stmt *prepare_named(struct store *s, const struct named_stmt *n, char **args)
{
	struct stmt *st = stmt_prepare(s, n->pg_sql ? store_sql(s, n->sql, n->pg_sql) : n->sql);

	for (int i = 0; st && i < n->nargs; i++)
		stmt_bind_text(st, i + 1, args[i]);
	return st;
}

/* Print text with tabs, newlines and carriage returns as spaces. */
static void put_clean(const char *t, FILE *f)
{
	for (; *t; t++)
		fputc(*t == '\t' || *t == '\n' || *t == '\r' ? ' ' : *t, f);
}

/* Print the current row of st to f: tab-separated, or as a JSON object on j. */
static void put_row(struct stmt *st, int nc, struct json *j, FILE *f)
{
	if (j)
		json_obj_open(j, NULL);
	for (int i = 0; i < nc; i++) {
		const char *name = stmt_col_name(st, i), *t = stmt_col_text(st, i);

		if (!j) {
			if (i)
				fputc('\t', f);
			put_clean(t ? t : "", f);
			continue;
		}
		switch (stmt_col_type(st, i)) {
		case ST_NULL:
			json_null(j, name);
			break;
		case ST_INT:
			json_i64(j, name, stmt_col_int64(st, i));
			break;
		case ST_REAL:
			json_dbl(j, name, stmt_col_double(st, i));
			break;
		default:
			json_str(j, name, t);
		}
	}
	if (j)
		json_obj_close(j);
	else
		fputc('\n', f);
}

int store_named_query(struct store *s, const struct named_stmt *q, char **args, int json, FILE *f)
{
	struct stmt *st = prepare_named(s, q, args);
	struct json j;
	int rc, nc;

	if (!st)
		return -EIO;
	rc = stmt_step(st);
	nc = stmt_ncols(st);
	if (json) {
		json_init(&j, f, 1);
		json_arr_open(&j, NULL);
	}
	for (; rc == STMT_ROW; rc = stmt_step(st))
		put_row(st, nc, json ? &j : NULL, f);
	if (json) {
		json_arr_close(&j);
		json_end(&j);
	}
	if (rc < 0)
		error("database: %s: %s", q->name, store_errmsg(s));
	stmt_finish(st);
	return rc < 0 ? -EIO : 0;
}

int store_named_exec(struct store *s, const struct named_stmt *w, char **args, long *changes)
{
	struct stmt *st = prepare_named(s, w, args);
	int rc;

	if (!st)
		return -EIO;
	rc = stmt_step(st);
	if (rc < 0)
		error("database: %s: %s", w->name, store_errmsg(s));
	else if (changes)
		*changes += (long)stmt_changes(st);
	stmt_finish(st);
	return rc < 0 ? -EIO : 0;
}
