#!/bin/sh
# t0500: sweep configs: name resolution, the plain-data check, defaults,
# axes, layouts, metrics and the cells of the shipped configs.
# shellcheck source=scripts/t/tap.sh
. "$(dirname "$0")/tap.sh"
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"

is "a bare name resolves under scripts/configs" "$(config_resolve sga-scaling)" "$top/scripts/configs/sga-scaling"
is "configs/NAME resolves under scripts/" "$(config_resolve configs/smoke)" "$top/scripts/configs/smoke"
is "a path resolves to itself" "$(config_resolve "$top/scripts/configs/nightly")" "$top/scripts/configs/nightly"
ok "an unknown name does not resolve" sh -c ". '$top/scripts/lib.sh'; ! config_resolve no-such-config"

for c in sga-scaling nightly smoke; do
	ok "shipped config '$c' is plain data" config_check "$top/scripts/configs/$c"
	ok "shipped config '$c' loads" config_load "$top/scripts/configs/$c"
done

config_load "$top/scripts/configs/sga-scaling"
is "sga-scaling: 7 task counts x 3 layouts = 21 cells" "$(config_cells | wc -l)" 21
is "sga-scaling: task counts" "$SWEEP_TASKS" "1 2 4 8 16 32 64"
is "sga-scaling: layouts" "$SWEEP_LAYOUT" "4k 2m-pud 2m-pmd"
is "sga-scaling: the name is the file name" "$SWEEP_NAME" sga-scaling
ok "sga-scaling: every metric says which way is better" sh -c "for m in $SWEEP_METRICS; do case \$m in *:lower|*:higher) ;; *) exit 1 ;; esac; done"
is "sga-scaling: first cell" "$(config_cells | head -n 1)" "layout=4k tasks=1"
is "cell options" "$(SWEEP_ARGS='--rounds 1' cell_args 'layout=2m-pmd tasks=8')" "--rounds 1 --page-size 2m --align pmd --tasks 8"
is "layout 4k" "$(layout_args 4k)" "--page-size 4k"
is "layout 1g-pud+memfd" "$(layout_args 1g-pud+memfd)" "--page-size 1g --align pud --backing memfd"
ok "unknown layout is refused" sh -c ". '$top/scripts/lib.sh'; ! layout_args 3m-pud"
is "any other axis becomes --AXIS VALUE" "$(axis_args sga-size 2g)" "--sga-size 2g"
is "axis variable of sga-size" "$(axis_var sga-size)" SWEEP_SGA_SIZE

cfg="$TMPD/c"
printf 'SWEEP_AXES="rounds"\nSWEEP_ROUNDS="1 10 100"\nSWEEP_METRICS="wall-s:lower accesses-per-s:higher"\n' >"$cfg"
ok "a minimal config loads" config_load "$cfg"
config_load "$cfg"
is "defaults: 3 passes" "$SWEEP_PASSES" 3
is "a one-axis config has one cell per value" "$(config_cells | tr '\n' ,)" "rounds=1,rounds=10,rounds=100,"

bad() { # NAME CONTENT
	printf '%s\n' "$2" >"$cfg"
	rc=0
	(config_load "$cfg") >/dev/null 2>&1 || rc=$?
	is "refused: $1" "$rc" 2
}
# shellcheck disable=SC2016 # the quoted text is the test data
bad "command substitution" 'SWEEP_ARGS="$(touch /tmp/pwned)"'
# shellcheck disable=SC2016 # the quoted text is the test data
bad "backquotes" 'SWEEP_ARGS="`id`"'
bad "a variable that is not SWEEP_*" 'PATH=/tmp'
bad "a command" 'rm -rf /tmp/x'
bad "two statements" 'SWEEP_PASSES=1; id'
bad "passes not a number" 'SWEEP_PASSES=three'
bad "zero runs" 'SWEEP_RUNS=0'
bad "metric without direction" 'SWEEP_METRICS="wall-s"'
bad "unknown layout" 'SWEEP_LAYOUT="4k 3m"'
bad "axis without values" 'SWEEP_AXES="tasks rounds"'
ok "refusal names the line" sh -c "printf 'SWEEP_X=1\nfoo\n' > '$cfg'; . '$top/scripts/lib.sh'; config_check '$cfg' | grep -q 'line 2: foo'"

rc=0
"$top/scripts/sweep" --dry-run no-such-config >/dev/null 2>"$TMPD/err" || rc=$?
is "sweep with an unknown config is a usage error" "$rc" 2
ok "and lists the configs" grep -q 'configs:.*sga-scaling' "$TMPD/err"
rc=0
"$top/scripts/sweep" --dry-run --bogus smoke >/dev/null 2>&1 || rc=$?
is "sweep with an unknown option is a usage error" "$rc" 2
for script in bench bench-model kernel-ci; do
	rc=0
	sh "$top/scripts/$script" --bogus >/dev/null 2>"$TMPD/err" || rc=$?
	is "$script with an argument is a usage error (it runs nothing)" "$rc" 2
	ok "$script says which argument" grep -q "unknown argument '--bogus'" "$TMPD/err"
done
done_testing
