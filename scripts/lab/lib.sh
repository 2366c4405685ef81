# lib.sh - helpers of the lab suite (sourced by scripts/lab/suite.sh after
# scripts/t/test-lib.sh). busybox sh and awk only: no SQLite CLI in the guests.
# shellcheck shell=sh
# shellcheck disable=SC2154 # rc, TMPD, top and SGABENCH come from scripts/t/test-lib.sh

# Every CSV this guest produced, for checks across all runs.
: >"$TMPD/all.csv"

# note_ TEXT: print TEXT as TAP comment lines.
note_() {
	printf '%s\n' "$1" | sed 's/^/# /'
}

# run_csv ARGS...: sgabench ARGS --no-store --csv; output in $TMPD/out, also
# appended to $TMPD/all.csv; sets $rc.
run_csv() {
	run_sga "$@" --no-store --csv
	cat "$TMPD/out" >>"$TMPD/all.csv"
}

# csv ROW EVENT FIELD: a field of the --csv row ROW (a task number, "total"
# or "run") for EVENT in $TMPD/out. FIELD: value, raw, enabled, running, missing.
csv() {
	awk -F, -v row="$1" -v ev="$2" -v f="$3" '
		BEGIN { col["value"] = 3; col["raw"] = 4; col["enabled"] = 5
			col["running"] = 6; col["missing"] = 7 }
		$1 == row && $2 == ev { print $(col[f]); exit }' "$TMPD/out"
}

# within PCT A B: A is within PCT percent of B (B > 0).
within() {
	awk -v p="$1" -v a="$2" -v b="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * p / 100) }'
}

# in_cpulist CPU LIST: CPU is in a sysfs CPU list such as "0-1,4".
in_cpulist() {
	printf '%s\n' "$2" | awk -v c="$1" -F, '{
		for (i = 1; i <= NF; i++) {
			n = split($i, r, "-")
			lo = r[1] + 0; hi = (n > 1 ? r[2] : r[1]) + 0
			if (c + 0 >= lo && c + 0 <= hi) found = 1
		}
	} END { exit !found }'
}
