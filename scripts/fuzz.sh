#!/usr/bin/env bash
# Fuzzes the reader once per file format (fuzz/fuzz_targets/: stockfish, bullet, cbnf,
# alexandria, obsidian, reckless, plentychess, caissa, cinder, viridithas, stormphrax (8),
# sfnnv17, and the older mixed `reader`) for a fixed time each, under AddressSanitizer, with
# no allocation over 8 MB (inputs are at most 256 KiB: the reader's bound is 4x the file plus
# 64 KiB, or for a zstd-compressed file its description's arrays, 4.4 MB in the targets, see
# checks/tests/reader_mutations.rs).
#
#     bash scripts/fuzz.sh [SECONDS_PER_TARGET (default 60)] [TARGET ...]
#
# Installs cargo-fuzz if missing. Seeds from fuzz/corpus/reader; new inputs go to a scratch
# folder under target/, never into the committed corpus. A crash stops the run (exit 1) and
# leaves its input in fuzz/artifacts/<target>/: replay it with
# `cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run -O <target> artifacts/<target>/<file>`, then add
# it to tests/corpus/manifest.tsv as a regression case.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(stockfish bullet cbnf alexandria obsidian reckless plentychess caissa cinder viridithas stormphrax sfnnv17 reader)
command -v cargo-fuzz >/dev/null || cargo install --locked cargo-fuzz
scratch=$PWD/target/fuzz-corpus
cd fuzz
# cargo-fuzz passes nightly flags; the one stable toolchain takes them with RUSTC_BOOTSTRAP.
export RUSTC_BOOTSTRAP=1
for t in "${targets[@]}"; do
    mkdir -p "$scratch/$t"
    echo "fuzz: $t for $seconds s"
    status=0
    cargo fuzz run -O "$t" "$scratch/$t" corpus/reader -- \
        -max_len=262144 -malloc_limit_mb=8 -rss_limit_mb=2048 -max_total_time="$seconds" -print_final_stats=1 \
        > "$scratch/$t.log" 2>&1 || status=$?
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==|SUMMARY)' "$scratch/$t.log" || true
    if ((status)); then
        tail -n 40 "$scratch/$t.log" >&2
        echo "fuzz: $t failed (exit $status)" >&2
        exit 1
    fi
done
echo "fuzz: ${#targets[@]} targets, $seconds s each, no crash"
