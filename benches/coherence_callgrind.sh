#!/usr/bin/env bash
# Instructions per pair-frame of benches/coherence.rs, one configuration at a time under
# callgrind (stable under load, unlike wall-clock time): the bench's callgrind mode warms the
# configuration up and then runs one period inside `measured_period`, the only function counted.
#
#   benches/coherence_callgrind.sh [workload/variant ...] [-- engine ...]
#   benches/coherence_callgrind.sh boxes/moving pile/moving -- nphase_f32 parry031_f32
#
# Defaults: every workload and variant; engines nphase_f32, nphase_f64, parry031_f32,
# parry025_f32 (one thread). Prints a markdown table; profiles stay in
# $CARGO_TARGET_DIR/callgrind/coherence/ for `callgrind_annotate --inclusive=yes`.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
workloads=()
engines=()
while [ $# -gt 0 ]; do
    if [ "$1" = "--" ]; then shift; engines=("$@"); break; fi
    workloads+=("$1"); shift
done
[ ${#workloads[@]} -gt 0 ] || workloads=(boxes/moving boxes/slow boxes/creep boxes/rest pile/moving pile/slow pile/creep pile/rest hulls/moving hulls/slow hulls/creep hulls/rest apart/moving apart/slow apart/creep apart/rest)
[ ${#engines[@]} -gt 0 ] || engines=(nphase_f32 nphase_f64 parry031_f32 parry025_f32)

binary=$(cargo bench --manifest-path "$root/Cargo.toml" -p nphase --bench coherence --no-run \
    --message-format=json 2>/dev/null |
    grep -o '"executable":"[^"]*"' | cut -d'"' -f4 | grep "/coherence-" | tail -1)
out="$target/callgrind/coherence"
mkdir -p "$out"

printf '| workload |'; for e in "${engines[@]}"; do printf ' %s |' "$e"; done; echo
printf '|---|'; for _ in "${engines[@]}"; do printf -- '---:|'; done; echo
for w in "${workloads[@]}"; do
    printf '| %s |' "$w"
    for e in "${engines[@]}"; do
        file="$out/cg.out.${w//\//_}.$e"
        result=$(COHERENCE_WORKLOADS=${w%%/*} COHERENCE_CALLGRIND="$w/$e" \
            valgrind --tool=callgrind --callgrind-out-file="$file" \
            --collect-atstart=no --toggle-collect='*measured_period*' "$binary" 2>/dev/null)
        pair_frames=$(echo "$result" | sed -n 's/.*pair_frames=\([0-9]*\).*/\1/p')
        total=$(grep -m1 '^summary:' "$file" | awk '{print $2}')
        printf ' %s |' "$(awk -v t="$total" -v n="$pair_frames" 'BEGIN { printf "%.0f", t / n }')"
    done
    echo
done
