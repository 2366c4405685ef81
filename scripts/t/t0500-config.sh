#!/bin/sh
# t0500: sweep configs: name resolution, the plain-data check, defaults,
# axes, layouts, metrics and the cells of the shipped configs.
# shellcheck source=scripts/t/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"

test_expect_success "a bare name resolves under scripts/configs" 'test_is "$(config_resolve sga-scaling)" "$top/scripts/configs/sga-scaling"'
test_expect_success "configs/NAME resolves under scripts/" 'test_is "$(config_resolve configs/smoke)" "$top/scripts/configs/smoke"'
test_expect_success "a path resolves to itself" 'test_is "$(config_resolve "$top/scripts/configs/nightly")" "$top/scripts/configs/nightly"'
test_expect_success "an unknown name does not resolve" - <<-\EOT
	sh -c "top='$top'; . '$top/scripts/lib.sh'; ! config_resolve no-such-config"
EOT

for c in sga-scaling sga-scaling-full nightly smoke tlb-designs; do
	test_expect_success "shipped config '$c' is plain data" 'config_check "$top/scripts/configs/$c"'
	test_expect_success "shipped config '$c' loads" 'config_load "$top/scripts/configs/$c"'
done

config_load "$top/scripts/configs/sga-scaling"
test_expect_success "sga-scaling: 4 task counts x 3 layouts = 12 cells" 'test_is "$(config_cells | wc -l)" 12'
test_expect_success "sga-scaling: task counts" 'test_is "$SWEEP_TASKS" "1 4 16 64"'
test_expect_success "sga-scaling: layouts" 'test_is "$SWEEP_LAYOUT" "4k 2m-pud 2m-pmd"'
test_expect_success "sga-scaling: the name is the file name" 'test_is "$SWEEP_NAME" sga-scaling'
test_expect_success "sga-scaling: every metric is a row of the metric registry" - <<-\EOT
	known=" $("$SGABENCH" metrics --names | tr '\n' ' ') " &&
	for m in $SWEEP_METRICS; do
		case "$known" in *" $m "*) ;; *) echo "# not in the registry: $m"; return 1 ;; esac
	done
EOT
test_expect_success "sga-scaling: first cell" 'test_is "$(config_cells | head -n 1)" "layout=4k tasks=1"'
test_expect_success "cell options" 'test_is "$(SWEEP_ARGS="--rounds 1" cell_args "layout=2m-pmd tasks=8")" "--rounds 1 --page-size 2m --align pmd --tasks 8"'
test_expect_success "layout 4k" 'test_is "$(layout_args 4k)" "--page-size 4k"'
test_expect_success "layout 1g-pud+memfd" 'test_is "$(layout_args 1g-pud+memfd)" "--page-size 1g --align pud --backing memfd"'
test_expect_success "unknown layout is refused" - <<-\EOT
	sh -c "top='$top'; . '$top/scripts/lib.sh'; ! layout_args 3m-pud"
EOT
test_expect_success "any other axis becomes --AXIS VALUE" 'test_is "$(axis_args sga-size 2g)" "--sga-size 2g"'
test_expect_success "axis variable of sga-size" 'test_is "$(axis_var sga-size)" SWEEP_SGA_SIZE'

cfg="$TMPD/c"
printf 'SWEEP_AXES="rounds"\nSWEEP_ROUNDS="1 10 100"\nSWEEP_METRICS="wall-s accesses-per-s"\n' >"$cfg"
test_expect_success "a minimal config loads" 'config_load "$cfg"'
config_load "$cfg"
test_expect_success "defaults: 3 passes" 'test_is "$SWEEP_PASSES" 3'
test_expect_success "a one-axis config has one cell per value" - <<-\EOT
	test_is "$(config_cells | tr '\n' ,)" "rounds=1,rounds=10,rounds=100,"
EOT

# Axis values take what a command line takes: commas and semicolons as
# they are, blanks inside quotes. Each value stays one argument of sgabench.
cat >"$cfg" <<'CFG'
SWEEP_COMMAND=sim
SWEEP_AXES="tlb tasks"
SWEEP_TLB="l1d:64,4way,lru;l2:4096,8way,lru 'a b;c' '*&|>x'"
SWEEP_TASKS="2"
SWEEP_ARGS="--pattern zipf --label 'x; id'"
CFG
test_expect_success "a config with quoted axis values loads" 'config_load "$cfg"'
config_load "$cfg"
test_expect_success "three tlb values: blanks split them, commas and semicolons do not" - <<-\EOT
	test_is "$(axis_words tlb | tr '\n' '|')" "l1d:64,4way,lru;l2:4096,8way,lru|a b;c|*&|>x|"
EOT
test_expect_success "the cells quote what sh must not read" - <<-\EOT
	test_is "$(config_cells | head -n 1)" "tlb='l1d:64,4way,lru;l2:4096,8way,lru' tasks=2"
EOT
# args: the arguments sh makes of cell_args's command line, one a line
args() { eval "set -- $(cell_args "$1")" && printf '%s\n' "$@"; }
test_expect_success "each value reaches sgabench as one argument, as written" - <<-\EOT
	config_cells >"$TMPD/cells" &&
	while IFS= read -r c; do args "$c"; done <"$TMPD/cells" | grep -A1 -e --tlb | grep -v -e --tlb -e -- >"$TMPD/vals" &&
	axis_words tlb >"$TMPD/want" &&
	cmp "$TMPD/want" "$TMPD/vals"
EOT
test_expect_success "SWEEP_ARGS words stay words: a ';' runs nothing" - <<-\EOT
	test_is "$(args "tasks=2" | tr '\n' '|')" "--pattern|zipf|--label|x; id|--tasks|2|"
EOT
test_expect_success "sh_word quotes a quote: sh reads it back" 'test_is "$(eval "printf %s $(sh_word "it'"'"'s")")" "it'"'"'s"'
test_expect_success "sh_words: quoted and plain parts make one word" 'test_is "$(sh_words "a\"b c\"'"'"'d'"'"' e")" "ab cd
e"'

test_expect_success "a config in the current directory, named bare, loads" - <<-\EOT
	(cd "$TMPD" && config_load c && test_is "$(axis_words tasks)" 2)
EOT

# SWEEP_EXCLUDE: a word leaves out every cell holding all its axis=value,
# and a TLB value (commas, semicolons, '+') is matched as written
test_expect_success "SWEEP_EXCLUDE: 2 x 2 x 2 cells less the 2 that hold one pair" - <<-\EOT
	cat >"$cfg" <<-\CFG &&
	SWEEP_COMMAND=sim
	SWEEP_AXES="machine sharedctx tasks"
	SWEEP_MACHINE="sparc-t4 amd-zen2"
	SWEEP_SHAREDCTX="off on"
	SWEEP_TASKS="2 8"
	SWEEP_EXCLUDE="'machine=amd-zen2 sharedctx=on'"
	CFG
	config_load "$cfg" &&
	test_is "$(config_cells | tr '\n' ,)" "$(
		)machine=sparc-t4 sharedctx=off tasks=2,machine=sparc-t4 sharedctx=off tasks=8,$(
		)machine=sparc-t4 sharedctx=on tasks=2,machine=sparc-t4 sharedctx=on tasks=8,$(
		)machine=amd-zen2 sharedctx=off tasks=2,machine=amd-zen2 sharedctx=off tasks=8,"
EOT
test_expect_success "SWEEP_EXCLUDE matches a quoted TLB value as written" - <<-\EOT
	cat >"$cfg" <<-\CFG &&
	SWEEP_COMMAND=sim
	SWEEP_AXES="tlb tasks"
	SWEEP_TLB="'l1d:64,4way,lru;l2:4096,8way,lru' l1d:96,full,lru,ps=4k+2m"
	SWEEP_TASKS="2 8"
	SWEEP_EXCLUDE="'tlb=l1d:64,4way,lru;l2:4096,8way,lru tasks=8' tlb=l1d:96,full,lru,ps=4k+2m"
	CFG
	config_load "$cfg" &&
	test_is "$(config_cells)" "tlb='l1d:64,4way,lru;l2:4096,8way,lru' tasks=2" &&
	test_is "$("$top/scripts/sweep" --dry-run --seed 1 "$cfg" | grep -c " sim ")" 3
EOT

bad() { # NAME CONTENT
	printf '%s\n' "$2" >"$cfg"
	rc=0
	(config_load "$cfg") >/dev/null 2>&1 || rc=$?
	test_expect_success "refused: $1" 'test_is "$rc" 2'
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
bad "a metric with a direction (the registry has it)" 'SWEEP_METRICS="wall-s:lower"'
bad "unknown layout" 'SWEEP_LAYOUT="4k 3m"'
bad "axis without values" 'SWEEP_AXES="tasks rounds"'
bad "a ';' unquoted" 'SWEEP_TLB=l1d:64,4way,lru;l2:4096,8way,lru'
test_expect_success "the refusal shows how to quote it" - <<-\EOT
	(config_load "$cfg") 2>&1 | grep -q "hint: quote a value that holds ';' or blanks"
EOT
bad "an unclosed quote in an axis" "SWEEP_TASKS=\"1 '2\""
bad "a backslash in SWEEP_ARGS" "SWEEP_ARGS='--x a\\ b'"
three='SWEEP_AXES="machine tasks"
SWEEP_MACHINE="sparc-t4 amd-zen2"
SWEEP_TASKS="2 8"'
bad "SWEEP_EXCLUDE: a value the axis does not have" "$three
SWEEP_EXCLUDE=machine=amd-zen"
test_expect_success "it names the value and the axis's values" - <<-\EOT
	(config_load "$cfg") 2>&1 | grep -q "'amd-zen' is not a value of axis 'machine' (sparc-t4 amd-zen2)"
EOT
bad "SWEEP_EXCLUDE: an axis not in SWEEP_AXES" "$three
SWEEP_EXCLUDE=\"'machine=amd-zen2 sharedctx=on'\""
bad "SWEEP_EXCLUDE: a word without =" "$three
SWEEP_EXCLUDE=tasks"
bad "SWEEP_EXCLUDE: every cell left out" "$three
SWEEP_EXCLUDE=\"machine=sparc-t4 machine=amd-zen2\""
test_expect_success "it says none is left" - <<-\EOT
	(config_load "$cfg") 2>&1 | grep -q "SWEEP_EXCLUDE leaves no cell to run"
EOT
test_expect_success "refusal names the line" - <<-\EOT
	sh -c "printf 'SWEEP_X=1\nfoo\n' > '$cfg'; top='$top'; . '$top/scripts/lib.sh'; config_check '$cfg' | grep -q 'line 2: foo'"
EOT

rc=0
"$top/scripts/sweep" --dry-run no-such-config >/dev/null 2>"$TMPD/err" || rc=$?
test_expect_success "sweep with an unknown config is a usage error" 'test_is "$rc" 2'
test_expect_success "and lists the configs" 'grep -q "configs:.*sga-scaling" "$TMPD/err"'
rc=0
"$top/scripts/sweep" --dry-run --bogus smoke >/dev/null 2>&1 || rc=$?
test_expect_success "sweep with an unknown option is a usage error" 'test_is "$rc" 2'
for script in bench bench-model kernel-ci; do
	rc=0
	sh "$top/scripts/$script" --bogus >/dev/null 2>"$TMPD/err" || rc=$?
	test_expect_success "$script with an argument is a usage error (it runs nothing)" 'test_is "$rc" 2'
	test_expect_success "$script says which argument" - <<-\EOT
		grep -q "unknown argument '--bogus'" "$TMPD/err"
	EOT
done
test_done
