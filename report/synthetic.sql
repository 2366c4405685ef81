-- synthetic.sql - a test fixture, not data: the report tests (scripts/t/t06*)
-- load it into an empty schema-v1 database.
-- Synthetic data for report tests: two machines, model and native cover
-- runs, an sga-scaling sweep with timings, 10 nightly nights with a step
-- at night 7 in one cell, verdicts, noise floors. Strings carry markup to
-- test escaping.
INSERT INTO machine (id, fingerprint, hostname, arch, cpu_vendor, cpu_model, microcode, kernel, is_vm, first_seen, info_json)
VALUES (1, '0123456789abcdef', 'host-a<script>alert("h")</script>', 'x86_64', 'AuthenticAMD', 'AMD EPYC 7B13 & friends', '0xa0011d1', '6.1.0-13-amd64', 1, '2026-11-01T00:00:00Z', '{"tlb":"64 L1 <b>"}'),
       (2, 'fedcba9876543210', 'host-b', 'x86_64', 'GenuineIntel', 'Intel Xeon Gold 6338', '0xd0003a5', '6.1.0-13-amd64', 0, '2026-11-02T00:00:00Z', '{}');
CREATE TEMP TABLE seq(n INTEGER);
WITH RECURSIVE s(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n < 999) INSERT INTO seq SELECT n FROM s;
CREATE TEMP TABLE rr(k INTEGER, rounds INTEGER);
INSERT INTO rr VALUES (0,1),(1,10),(2,100),(3,1000),(4,10000),(5,100000),(6,1000000);
-- model cover runs: 2 tasks, normal and shared, 7 rounds values
INSERT INTO run (uuid, machine_id, started_at, wall_s, version, backend, workload, tasks, page_size, align, backing, sharedctx, sga_bytes, ws_bytes, rounds, seed, cell, label, config_json, status)
SELECT printf('model-%d-%d', sc, rr.k), 1, '2026-11-20T10:00:00Z', 0.1, 'v1', 'model:niagara2', 'rounds', 2, '8k', NULL, NULL, sc, 1073741824, 4194304, rr.rounds, 1,
       printf('backend=model:niagara2 pattern=rounds tasks=2 sharedctx=%d rounds=%d', sc, rr.rounds), 'table', '{}', 'ok'
FROM rr, (SELECT 0 AS sc UNION SELECT 1);
INSERT INTO value (run_id, task, event, value, raw, enabled, running, missing)
SELECT r.id, t.n, 'dTLB-load-misses', CASE WHEN r.sharedctx THEN 420 + r.rounds / 2000.0 ELSE 400 + 48.9 * r.rounds END, NULL, 0, 0, NULL
FROM run r, seq t WHERE r.backend LIKE 'model:%' AND t.n < 2;
UPDATE value SET raw = CAST(value AS INTEGER);
-- native cover runs: no PMU, so dTLB-load-misses missing
INSERT INTO run (uuid, machine_id, started_at, wall_s, version, backend, workload, tasks, page_size, align, backing, sharedctx, sga_bytes, ws_bytes, rounds, seed, cell, label, config_json, status)
SELECT printf('native-cover-%d', rr.k), 1, '2026-11-20T10:00:00Z', 0.2, 'v1', 'native', 'rounds', 2, '2m', 'pud', 'shm', 0, 1073741824, 1073741824, rr.rounds, 1,
       printf('backend=native pattern=rounds tasks=2 page=2m align=pud rounds=%d', rr.rounds), 'table <script>alert(1)</script>', '{}', 'ok'
FROM rr WHERE rr.k < 4;
INSERT INTO value (run_id, task, event, value, raw, enabled, running, missing)
SELECT r.id, t.n, 'dTLB-load-misses', NULL, NULL, NULL, NULL, 'no-pmu' FROM run r, seq t WHERE r.uuid LIKE 'native-cover-%' AND t.n < 2;
-- an sga-scaling sweep: 3 layouts x tasks 1..8 x 3 passes
INSERT INTO sweep VALUES ('sweep-1', 'sga-scaling', '2026-11-21T09:00:00Z', 42, 'tasks=1 layout=4k', 'SWEEP_ARGS="--x <script>"');
CREATE TEMP TABLE lay(l TEXT, ps TEXT, al TEXT);
INSERT INTO lay VALUES ('4k', '4k', 'pud'), ('2m-pud', '2m', 'pud'), ('2m-pmd', '2m', 'pmd');
CREATE TEMP TABLE tk(t INTEGER);
INSERT INTO tk VALUES (1),(2),(4),(8);
INSERT INTO run (uuid, machine_id, started_at, wall_s, version, backend, workload, tasks, page_size, align, backing, sharedctx, sga_bytes, ws_bytes, rounds, seed, cell, label, config_json, status)
SELECT printf('scal-%s-%d-%d', lay.l, tk.t, p.n), 1, '2026-11-21T09:00:00Z', 0.05 * tk.t, 'v1', 'native', 'rounds', tk.t, lay.ps, lay.al, 'shm', 0, 1073741824, 134217728, 1, 1,
       printf('backend=native pattern=rounds tasks=%d page=%s align=%s', tk.t, lay.ps, lay.al), 'sga-scaling-20261121', '{}', 'ok'
FROM lay, tk, seq p WHERE p.n < 3;
INSERT INTO metric (run_id, name, value)
SELECT r.id, 'first-touch-faults', CASE WHEN r.page_size = '4k' THEN 32768.0 * r.tasks WHEN r.align = 'pud' THEN 64 + (r.tasks - 1) ELSE 64.0 * r.tasks END
FROM run r WHERE r.uuid LIKE 'scal-%';
INSERT INTO metric (run_id, name, value)
SELECT r.id, 'pagetables-delta-bytes', CASE WHEN r.page_size = '4k' THEN 270336.0 * r.tasks WHEN r.align = 'pud' THEN 4096 + 8192.0 * r.tasks ELSE 12288.0 * r.tasks END
FROM run r WHERE r.uuid LIKE 'scal-%';
INSERT INTO metric (run_id, name, value)
SELECT r.id, 'pte-bytes', CASE WHEN r.page_size = '4k' THEN 270336.0 * r.tasks ELSE 12288.0 * r.tasks END
FROM run r WHERE r.uuid LIKE 'scal-%';
INSERT INTO timing (run_uuid, sweep_uuid, cell, command, iteration, wall_s, exit_code)
SELECT r.uuid, 'sweep-1', r.cell, 'bench/sgabench run ...', 0, r.wall_s * (1 + (r.id % 5) / 50.0), 0 FROM run r WHERE r.uuid LIKE 'scal-%';
-- 10 nightly nights on each machine, 2 cells x 5 runs; machine 1, cell
-- tasks=8: +10 % accesses-per-s drop from night 7 on
CREATE TEMP TABLE nc(c TEXT, t INTEGER);
INSERT INTO nc VALUES ('backend=native pattern=rounds tasks=1 page=2m align=pud', 1), ('backend=native pattern=rounds tasks=8 page=2m align=pud', 8);
INSERT INTO run (uuid, machine_id, started_at, wall_s, version, backend, workload, tasks, page_size, align, backing, sharedctx, sga_bytes, ws_bytes, rounds, seed, cell, label, config_json, status)
SELECT printf('night-%d-%d-%d-%d', mc.n, d.n, nc.t, k.n), mc.n, printf('2026-11-%02dT02:00:00Z', 10 + d.n), 0.3, 'v1', 'native', 'rounds', nc.t, '2m', 'pud', 'shm', 0,
       1073741824, 134217728, 20, 1, nc.c, printf('nightly-202611%02d', 10 + d.n), '{}', 'ok'
FROM (SELECT n FROM seq WHERE n BETWEEN 1 AND 2) mc, seq d, nc, seq k WHERE d.n < 10 AND k.n < 5;
INSERT INTO metric (run_id, name, value)
SELECT r.id, 'accesses-per-s', (CASE WHEN r.machine_id = 2 THEN 1.3e9 ELSE 1e9 END) * r.tasks
   * (CASE WHEN r.machine_id = 1 AND r.tasks = 8 AND r.label >= 'nightly-20261117' THEN 0.9 ELSE 1 END)
   * (1 + ((r.id * 7919) % 13 - 6) / 600.0)
FROM run r WHERE r.uuid LIKE 'night-%';
INSERT INTO metric (run_id, name, value)
SELECT r.id, 'first-touch-faults', 512 + r.tasks - 1 FROM run r WHERE r.uuid LIKE 'night-%';
-- a warm-up run, which every report must leave out
INSERT INTO run (uuid, machine_id, started_at, wall_s, version, backend, workload, tasks, page_size, align, backing, sharedctx, sga_bytes, ws_bytes, rounds, seed, cell, label, config_json, status)
VALUES ('warm-1', 1, '2026-11-19T02:00:00Z', 9, 'v1', 'native', 'rounds', 8, '2m', 'pud', 'shm', 0, 1073741824, 134217728, 20, 1,
        'backend=native pattern=rounds tasks=8 page=2m align=pud', 'warmup:nightly-20261119', '{}', 'ok');
INSERT INTO metric VALUES ((SELECT id FROM run WHERE uuid = 'warm-1'), 'accesses-per-s', 1);
INSERT INTO noise VALUES ('backend=native pattern=rounds tasks=8 page=2m align=pud', 'accesses-per-s', 1, 0.012, 10, '2026-11-19T03:00:00Z');
INSERT INTO verdict (created_at, baseline, candidate, cell, metric, machine_id, n_base, n_cand, ratio, ci_lo, ci_hi, p_value, q_value, verdict, method, reason)
VALUES ('2026-11-19T03:00:00Z', 'last-7-nights', 'tonight', 'backend=native pattern=rounds tasks=8 page=2m align=pud', 'accesses-per-s', 1, 35, 5, 0.9, 0.88, 0.92, 0.0001, 0.0002, 'regression', '{"test":"mann-whitney","alpha":0.01}', 'beyond max(2 %, noise 1.2 %) <script>alert(2)</script>'),
       ('2026-11-19T03:00:00Z', 'last-7-nights', 'tonight', 'backend=native pattern=rounds tasks=1 page=2m align=pud', 'accesses-per-s', 1, 35, 5, 1.001, 0.99, 1.01, 0.8, 0.8, 'no-change', '{"test":"mann-whitney","alpha":0.01}', NULL);
