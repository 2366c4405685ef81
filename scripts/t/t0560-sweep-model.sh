#!/bin/sh
# t0560: scripts/sweep with SWEEP_COMMAND=sim: the TLB model swept over
# machine presets and the shared context, through hyperfine and the store
# like native runs. The model is deterministic, so each cell's samples are
# equal and its noise floor is 0; its physics shows through: a shared
# context (ctx2) cuts the misses of two tasks sharing one TLB; an asid
# machine cannot share, so its runs are stored as not shared and its two
# cells are one. mkreport draws the designs. Bad model
# configs are usage errors.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

for tool in hyperfine sqlite3 flock; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "sweep: '$tool' not installed"
done
cat >"$TMPD/model" <<'CFG'
SWEEP_COMMAND=sim
SWEEP_AXES="machine sharedctx"
SWEEP_MACHINE="ultrasparc-t2 amd-zen2"
SWEEP_SHAREDCTX="off on"
SWEEP_ARGS="--tasks 2 --pattern rounds --rounds 20 --working-set 276m --jitter 4096"
SWEEP_PASSES=2
SWEEP_RUNS=2
SWEEP_WARMUP=0
SWEEP_METRICS="dTLB-load-misses"
CFG
db="$TMPD/m.db"
q() { sqlite3 "$db" "$1"; }
rc=0
"$top/scripts/sweep" --db "$db" --seed 5 --label model "$TMPD/model" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
test_expect_success "a model sweep exits 0" 'test_is "$rc" 0'
test_expect_success "4 cells x 2 passes x 2 runs = 16 runs" - <<-\EOT
	test_is "$(q "SELECT COUNT(*) FROM run WHERE label = 'model' AND status = 'ok'")" 16
EOT
test_expect_success "all of them model runs of the two presets" - <<-\EOT
	test_is "$(q "SELECT group_concat(b) FROM (SELECT DISTINCT backend AS b FROM run ORDER BY b)")" \
	"model:amd-zen2,model:ultrasparc-t2"
EOT
test_expect_success "every timing row is tied to a stored run" 'test_is "$(q "SELECT COUNT(*) FROM timing t JOIN run r ON r.uuid = t.run_uuid")" 16'
test_expect_success "the flag axis reaches the runs: T2's 4 with a shared context" - <<-\EOT
	test_is "$(q "SELECT group_concat(backend) FROM (SELECT DISTINCT backend FROM run WHERE sharedctx = 1)")" \
	model:ultrasparc-t2
	test_is "$(q "SELECT COUNT(*) FROM run WHERE sharedctx = 1")" 4
EOT
test_expect_success "deterministic: one value per cell" - <<-\EOT
	test_is "$(q "SELECT MAX(n) FROM (SELECT COUNT(DISTINCT m.value) AS n FROM run r
	JOIN run_metric m ON m.run_id = r.id AND m.name = 'dTLB-load-misses' GROUP BY r.cell)")" 1
EOT
test_expect_success "so every noise floor is 0 (3 cells: Zen 2's on and off are one)" - <<-\EOT
	test_is "$(q "SELECT COUNT(*) || ':' || MAX(floor) FROM noise WHERE metric = 'dTLB-load-misses'")" "3:0.0"
EOT
misses() { # BACKEND SHAREDCTX
	q "SELECT CAST(MAX(m.value) AS INTEGER) FROM run r JOIN run_metric m ON m.run_id = r.id
		AND m.name = 'dTLB-load-misses' WHERE r.backend = '$1' AND r.sharedctx = $2"
}
t2n=$(misses model:ultrasparc-t2 0)
t2s=$(misses model:ultrasparc-t2 1)
# 2 tasks x 69 TTEs thrash T2's 128-entry DTLB; one shared copy fits: only
# the 69 compulsory misses remain.
test_expect_success "T2: the shared context cuts the misses ($t2n -> $t2s)" 'test "$t2s" -lt "$t2n"'
test_expect_success "T2 shared: only the 69 compulsory misses" 'test_is "$t2s" 69'
test_expect_success "Zen 2 (asid) cannot share: all 8 runs stored as not shared" - <<-\EOT
	test_is "$(q "SELECT COUNT(*) FROM run WHERE backend = 'model:amd-zen2' AND sharedctx = 0")" 8
EOT
test_expect_success "the summary names the axes" 'grep -q "^backend=model:ultrasparc-t2 sharedctx=1 .* 69 (n= 4)" "$TMPD/out"'

test_expect_success GNUPLOT "mkreport on the model sweep exits 0" - <<-\EOT
	rc=0
	"$top/report/mkreport" --db "$db" --out "$TMPD/rep" >/dev/null 2>"$TMPD/err" || rc=$?
	test_is "$rc" 0
EOT
test_expect_success GNUPLOT "the TLB designs plot is drawn" 'test -s "$TMPD/rep/designs.svg"'
test_expect_success GNUPLOT "the designs table has T2 with a shared context: 69 walks (its page, GHz and walk cycles first)" 'grep -q "^ultrasparc-t2 shared	2	4m	1.4	60	69	" "$TMPD/rep/data/designs-table.tsv"'
test_expect_success GNUPLOT "one line per preset and shared context it can have" - <<-\EOT
	test_is "$(grep -c '^"' "$TMPD/rep/data/designs.dat")" 3
EOT
test_expect_success GNUPLOT "the page has the section" - <<-\EOT
	grep -q '<h2 id="designs">TLB designs (model)</h2>' "$TMPD/rep/index.html"
EOT
# The cover figure's model line comes from the table's runs, not from a
# stray two-task sim of another working set.
test_expect_success GNUPLOT "the cover's model point at 1000 rounds is the table's run" - <<-\EOT
	"$SGABENCH" table --seeds 1 --db "$db" >/dev/null 2>&1
	"$SGABENCH" sim --tasks 2 --rounds 1000 --working-set 8m --db "$db" --label stray >/dev/null 2>&1
	"$top/report/mkreport" --db "$db" --out "$TMPD/rep2" >/dev/null 2>&1
	want=$(q "SELECT CAST(MAX(m.value) AS INTEGER) FROM run r JOIN run_metric m ON m.run_id = r.id
		AND m.name = 'dTLB-load-misses' WHERE r.label = 'table' AND r.rounds = 1000 AND r.sharedctx = 0")
	test_is \
	"$(awk -F'	' '$1 == 1000 { printf "%.0f", $2 }' "$TMPD/rep2/data/cover-model.tsv")" "$want"
EOT

rc=0
"$top/scripts/nightly" --db "$db" --label nightly-20261201 "$TMPD/model" >"$TMPD/out" 2>&1 || rc=$?
rc2=0
"$top/scripts/nightly" --db "$db" --label nightly-20261202 "$TMPD/model" >"$TMPD/out2" 2>&1 || rc2=$?
test_expect_success "two nightly model sweeps: exit 0 and 0" 'test_is "$rc $rc2" "0 0"'
test_expect_success "the second night finds no change" 'grep -q "^nightly: no regression" "$TMPD/out2"'

# Model cells run in parallel (up to nproc, SWEEP_JOBS); what is stored
# must not depend on it: the same sweep one cell at a time and four at a
# time stores the same runs, values and cell order, in the same order.
stored() { # DB: cell, label and misses of every run in stored order, then the sweep's cell order
	sqlite3 "$1" "SELECT r.cell || '|' || r.label || '|' || CAST(m.value AS INTEGER) FROM run r
		JOIN run_metric m ON m.run_id = r.id AND m.name = 'dTLB-load-misses' ORDER BY r.id;
		SELECT cell_order FROM sweep"
}
rc=0
SWEEP_JOBS=1 "$top/scripts/sweep" --db "$TMPD/serial.db" --seed 5 --label model -q "$TMPD/model" >/dev/null 2>&1 || rc=$?
rc2=0
SWEEP_JOBS=4 "$top/scripts/sweep" --db "$TMPD/par.db" --seed 5 --label model -q "$TMPD/model" >/dev/null 2>&1 || rc2=$?
test_expect_success "the sweep one cell at a time and four at a time: exit 0 and 0" 'test_is "$rc $rc2" "0 0"'
stored "$TMPD/serial.db" >"$TMPD/serial.txt"
stored "$TMPD/par.db" >"$TMPD/par.txt"
test_expect_success "16 runs stored by each" 'test_is "$(grep -c "|model|" "$TMPD/par.txt")" 16'
test_expect_success "the same runs, values and cell order, in the same order" 'cmp -s "$TMPD/serial.txt" "$TMPD/par.txt"'
test_expect_success "every timing row of the parallel sweep is tied to a stored run" - <<-\EOT
	test_is "$(sqlite3 "$TMPD/par.db" "SELECT COUNT(*) FROM timing t JOIN run r ON r.uuid = t.run_uuid")" 16
EOT
rc=0
SWEEP_JOBS=x "$top/scripts/sweep" --db "$TMPD/x.db" -q "$TMPD/model" >/dev/null 2>"$TMPD/err" || rc=$?
test_expect_success "SWEEP_JOBS that is not a number: usage error" 'test_is "$rc" 2'

bad() { # NAME CONFIG-LINES...
	name=$1
	shift
	printf '%s\n' "$@" >"$TMPD/bad"
	rc=0
	"$top/scripts/sweep" --dry-run "$TMPD/bad" >/dev/null 2>"$TMPD/err" || rc=$?
	test_expect_success "$name: usage error" 'test_is "$rc" 2'
}
bad "an unknown SWEEP_COMMAND" 'SWEEP_COMMAND=simulate' 'SWEEP_AXES="tasks"' 'SWEEP_TASKS="2"'
test_expect_success "it says what is allowed" 'grep -q "SWEEP_COMMAND must be run" "$TMPD/err"'
bad "a flag axis with another value" 'SWEEP_COMMAND=sim' 'SWEEP_AXES="sharedctx"' 'SWEEP_SHAREDCTX="yes"'
test_expect_success "it names the axis and the value" - <<-\EOT
	grep -q "axis 'sharedctx' takes on or off, not 'yes'" "$TMPD/err"
EOT
bad "the layout axis in a model sweep" 'SWEEP_COMMAND=sim' 'SWEEP_AXES="layout"' 'SWEEP_LAYOUT="4k"'
rc=0
"$top/scripts/sweep" --dry-run tlb-designs >"$TMPD/dry" 2>&1 || rc=$?
test_expect_success "the shipped tlb-designs config runs each of its 3 x 2 x 3 + 3 x 3 cells once" - <<-\EOT
	test_is "$rc:$(grep -c " sim " "$TMPD/dry")" "0:27" &&
	grep -qx SWEEP_RUNS=1 "$top/scripts/configs/tlb-designs" &&
	grep -v "^#" "$TMPD/dry" | cut -f3 >"$TMPD/cells" &&
	test_is "$(grep -c "^machine=.* sharedctx=.* tasks=" "$TMPD/cells")" 27 &&
	test_is "$(sort -u "$TMPD/cells" | grep -c .)" 27 &&
	test_is "$(grep "sharedctx=on" "$TMPD/cells" | sed "s/^machine=\([^ ]*\) .*/\1/" | sort -u |
		tr '\n' ' ')" "sparc-m7 sparc-t4 ultrasparc-t2 " &&
	test_is "$(grep -c "^machine=sparc-t4 " "$TMPD/cells")" 6
EOT
test_done
