#!/usr/bin/env bash
# Instruction counts per case of a bench built on benches/common/harness.rs: stable under load,
# unlike wall-clock time. Runs the bench binary once under callgrind in its `--callgrind` mode
# (each case once unmeasured, then REPS times, with a profile dump at every marker) and prints
# one table per group family (`gjk/`, `gjk_accel/`, …) of instructions per query with the
# parry/nphase ratios.
#
#   benches/callgrind.sh <bench> [filter] [reps]     # e.g. benches/callgrind.sh gjk hull256
#
# Profiles stay in $CARGO_TARGET_DIR/callgrind/<bench>/ (cg.out.<part>, cases.txt) for
# `callgrind_annotate --inclusive=yes cg.out.<part>`.
set -euo pipefail

bench=${1:?usage: benches/callgrind.sh <bench> [filter] [reps]}
filter=${2:-}
reps=${3:-10}
root=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}

binary=$(cargo bench --manifest-path "$root/Cargo.toml" -p nphase --bench "$bench" --no-run \
    --message-format=json 2>/dev/null |
    grep -o '"executable":"[^"]*"' | cut -d'"' -f4 | grep "/$bench-" | tail -1)
out="$target/callgrind/$bench"
mkdir -p "$out"
rm -f "$out"/cg.out*
valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" \
    --dump-before='*callgrind_marker*' \
    "$binary" --callgrind --reps "$reps" ${filter:+"$filter"} >"$out/cases.txt" 2>"$out/valgrind.log"
for prefix in $(grep -o 'case=[^/]*/' "$out/cases.txt" | sort -u | cut -d= -f2); do
    cargo run --quiet --release --manifest-path "$root/Cargo.toml" -p nphase --example bench_table -- \
        callgrind "$out" "$prefix"
    echo
done
