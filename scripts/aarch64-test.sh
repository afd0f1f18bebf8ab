#!/usr/bin/env bash
# The aarch64 paths (neon, dotprod) under emulation: cross-builds for aarch64-unknown-linux-gnu
# and runs the tests under qemu-user as `-cpu max` (NEON and dotprod), then those the detection
# changes as `-cpu cortex-a53` (NEON only, the fallback). Installs what it needs first, with apt-get
# as root, only what is missing (Debian 12: rustc-web 1.96 and its aarch64 std, the aarch64
# linker, qemu-user; see ../shared/docs/aarch64-cross.md). Builds in target/aarch64, apart
# from the host build. Usage: bash scripts/aarch64-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(rustc-web cargo-web rust-web-clippy libstd-rust-web-dev:arm64 gcc-aarch64-linux-gnu libc6-dev-arm64-cross
    qemu-user)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    [[ $(id -u) == 0 ]] || { echo "aarch64-test: missing ${missing[*]}; run as root to install them" >&2; exit 1; }
    echo "aarch64-test: installing ${missing[*]}"
    dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Debian's rustc (it has the aarch64 std) for this build only; rustup's stays the default.
export RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
target=(--release --target aarch64-unknown-linux-gnu --target-dir target/aarch64)
triple=aarch64-unknown-linux-gnu
# No `-L` for qemu: the multiarch libc resolves on its own (with the cross one it hangs).
run_on() { CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -cpu $1" "${@:2}"; }

# nnue-runtime: the kernel property tests, every family's synthetic nets against the
# reference on every path, and mutated layer texts of one's own (own_layers: odd shifts and
# constants through each path's kernels). The root package: the oracle of every shared net, Stockfish's and
# bullet's, the engines' multi-layer ones (`nnue_net!` output and run-time loading, on every path), the
# generated nets of every family against the
# reference, and incremental updates along random games. The tests that run cargo themselves
# (eval example, README, UCI, two nets) stay with the host run.
runtime_tests=(-p nnue-runtime --lib --test paths_vs_reference --test own_layers)
# The aarch64 kernels compile only here: lint them as CI lints the host's (Debian's clippy).
/usr/bin/cargo-clippy clippy --target $triple --target-dir target/aarch64 -p nnue-runtime --all-targets -- -D warnings
root_tests=(-p nnue-tests --test oracle --test bullet_nets --test engine_oracles --test generated_vs_reference --test incremental --test real_nets)
cargo build --tests "${target[@]}" "${runtime_tests[@]}"
cargo build --tests "${target[@]}" "${root_tests[@]}"
echo "aarch64-test: -cpu max"
run_on max cargo test "${target[@]}" "${runtime_tests[@]}"
run_on max cargo test "${target[@]}" "${root_tests[@]}"
# On cortex-a53 only what the detection changes. The root tests run the paths the CPU has
# (KernelPath::all()) on the same inputs, and the reference runs one code on every path: -cpu
# max already ran these binaries' neon there, so on cortex-a53 the same code would run the
# same inputs again. What differs is the detection (no dotprod): the runtime's tests of it
# (is_available, best, SKIPPED) and paths_vs_reference, and the measured best path that
# generated_vs_reference's unpathed `evaluate` takes (neon or scalar here, dotprod too there).
echo "aarch64-test: -cpu cortex-a53"
run_on cortex-a53 cargo test "${target[@]}" "${runtime_tests[@]}"
run_on cortex-a53 cargo test "${target[@]}" -p nnue-tests --test generated_vs_reference

# The eval example with a Stockfish net compiled in (the macro's `.incbin` on ELF aarch64):
# every path gives the same lines as scalar under -cpu max; cortex-a53 refuses dotprod.
net=../shared/nets/nn-37f18f62d772.nnue
if [[ -f $net ]]; then export EVALFILE=$PWD/$net; else net="" && unset EVALFILE; fi
cargo build "${target[@]}" --example eval
eval_bin=target/aarch64/$triple/release/examples/eval
fens=("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    "8/2k5/8/3P4/8/8/5K2/8 b - - 0 60")
want=$(qemu-aarch64 -cpu max "$eval_bin" --generated --path scalar "${fens[@]}")
for path in neon dotprod; do
    got=$(qemu-aarch64 -cpu max "$eval_bin" --generated --path "$path" "${fens[@]}")
    [[ $got == "$want" ]] || { echo "eval --path $path differs from scalar:" >&2; diff <(echo "$want") <(echo "$got") >&2; exit 1; }
done
[[ $(qemu-aarch64 -cpu cortex-a53 "$eval_bin" --generated --path neon "${fens[@]}") == "$want" ]] ||
    { echo "eval --path neon on cortex-a53 differs from scalar" >&2; exit 1; }
if err=$(qemu-aarch64 -cpu cortex-a53 "$eval_bin" --generated --path dotprod "${fens[0]}" 2>&1); then
    echo "eval --path dotprod ran on cortex-a53, which has no dotprod" >&2
    exit 1
fi
grep -q "can't run the dotprod path" <<<"$err" || { echo "unexpected refusal: $err" >&2; exit 1; }
echo "aarch64-test: eval example ${net:+($(basename "$net")) }scalar = neon = dotprod under -cpu max; cortex-a53 refuses dotprod"
# Called by .ci/run with FREE_BUILDS=1: the build goes (several GB), the disk is the next stage's.
if [[ ${FREE_BUILDS:-0} == 1 ]]; then rm -rf target/aarch64; fi
