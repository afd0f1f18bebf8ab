#!/usr/bin/env bash
# The WebAssembly paths under Node: cross-builds for wasm32-wasip1 and runs the tests under
# Node 20's WASI three times, built without SIMD128 (scalar only: WebAssembly has no run-time
# feature detection), with `-C target-feature=+simd128` (scalar and simd128 run) and with
# `+simd128,+relaxed-simd` (scalar, simd128 and relaxed-simd run; Node 20 runs relaxed SIMD
# only behind `--experimental-wasm-relaxed-simd`, and only `--no-liftoff` gives right sums, see
# below). WASM_BUILDS="relaxed-simd" (any of the three, in order) runs only those. Installs what it
# needs first, with apt-get as root, only what is missing (Debian 12: rustc-web 1.96 with the
# standard library's source, built with -Zbuild-std; wasi-libc, wasm-ld, Node; see
# ../shared/docs/wasm-cross.md). The pthread stubs that wasi-libc lacks and the Node runner are
# made under target/wasm, as are the builds (all three in target/wasm/build), apart from the
# host build.
# Usage: [WASM_BUILDS="scalar simd128 relaxed-simd"] [WASM_FULL=1] bash scripts/wasm-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(rustc-web cargo-web rust-web-clippy rust-web-src wasi-libc lld-22 llvm-14 nodejs)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    [[ $(id -u) == 0 ]] || { echo "wasm-test: missing ${missing[*]}; run as root to install them" >&2; exit 1; }
    echo "wasm-test: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Node 20 or later: WASI without a flag, `version: 'preview1'` (Debian 12's own nodejs is 18).
node_major=$(node -p 'process.versions.node.split(".")[0]')
((node_major >= 20)) || { echo "wasm-test: needs Node 20 or later, found $(node --version)" >&2; exit 1; }

tools=$PWD/target/wasm/tools
mkdir -p "$tools"
# Linked into every test: wasi-libc of 2022 has no pthread_join or pthread_detach, which std
# 1.96 links (stubs that return ENOTSUP, 58: nothing here starts a thread), and the tests are
# built with panic=unwind on WebAssembly exceptions (the runtime's tests check panic messages),
# whose tag `__cpp_exception` libc++abi would define. Assembled every run (milliseconds), so
# that an edit here takes effect.
cat >"$tools/stubs.s" <<'S'
  .text
  .globl pthread_join
  .type pthread_join,@function
pthread_join:
  .functype pthread_join (i32, i32) -> (i32)
  i32.const 58
  end_function
  .globl pthread_detach
  .type pthread_detach,@function
pthread_detach:
  .functype pthread_detach (i32) -> (i32)
  i32.const 58
  end_function
  .tagtype __cpp_exception i32
  .globl __cpp_exception
__cpp_exception:
S
llvm-mc-14 -triple=wasm32-unknown-wasi -mattr=+exception-handling -filetype=obj "$tools/stubs.s" -o "$tools/stubs.o"
# Cargo's runner: the .wasm under Node's WASI, with `/` and its folders preopened so that
# absolute paths (the workspace, ../shared) resolve, and the exit code passed on (a failed test exits 101, a
# trap 1). Node 20 crashes at random at the end of long runs (a freed object in `wasi.start`,
# SIGSEGV) unless V8's fast API calls, which its WASI bindings use, are off.
cat >"$tools/runner.mjs" <<'JS'
import { readFile } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { WASI } from 'node:wasi';
import { argv, env, exit } from 'node:process';
const file = argv[2];
// wasi-libc of 2022 matches no path against a preopened `/`: each top-level folder too.
const preopens = { '/': '/', '.': process.cwd() };
for (const d of readdirSync('/', { withFileTypes: true })) if (d.isDirectory()) preopens['/' + d.name] = '/' + d.name;
const wasi = new WASI({ version: 'preview1', args: [file, ...argv.slice(3)], env, preopens, returnOnExit: true });
const mod = await WebAssembly.compile(await readFile(file));
const inst = await WebAssembly.instantiate(mod, wasi.getImportObject());
exit(wasi.start(inst) ?? 0);
JS
node_flags=(--no-warnings --no-turbo-fast-api-calls)
# The relaxed-SIMD build's: V8 11.3 (Node 20) compiles relaxed SIMD only behind the flag, and
# its baseline compiler, Liftoff, was seen to return wrong sums for
# `i32x4.relaxed_dot_i8x16_i7x16_add_s` (a = [1; 16], b = [2; 16], acc = 0 gave 16 a lane,
# not 8; ../shared/docs/wasm-cross.md): V8's optimising compiler only.
relaxed_flags=(--experimental-wasm-relaxed-simd --no-liftoff)
node_flags_of() { if [[ $1 == relaxed-simd ]]; then echo "${node_flags[*]} ${relaxed_flags[*]}"; else echo "${node_flags[*]}"; fi; }

# Debian's rustc (it has the standard library's source) for this build only; rustup's stays
# the default. RUSTC_BOOTSTRAP for -Zbuild-std (there is no prebuilt wasm32 std).
export RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1
export CARGO_TARGET_WASM32_WASIP1_LINKER=wasm-ld-22
export CARGO_TARGET_WASM32_WASIP1_RUNNER="node ${node_flags[*]} $tools/runner.mjs"
triple=wasm32-wasip1
link="-C link-self-contained=no -L /usr/lib/wasm32-wasi -C link-arg=/usr/lib/wasm32-wasi/crt1-command.o"
link+=" -C link-arg=$tools/stubs.o"
# `build_for scalar|simd128|relaxed-simd PROGRAM SUBCOMMAND ARGS...`: a cargo command (`cargo
# test`, Debian's `cargo-clippy clippy`) for wasm32 without SIMD128, with it, or with it and
# relaxed SIMD, its tests run under Node with that build's flags. The three share one target
# dir: RUSTFLAGS don't reach host units when `--target` is given, so the proc-macros and build
# scripts (syn, nnue-macros, ...) are built once; std and the rest, under target/wasm/build/$triple,
# are built for each (cargo tells them apart by their RUSTFLAGS). rustc warns that
# `exception-handling` is unstable: expected.
wasm_dir=target/wasm/build
build_for() {
    local features=+exception-handling
    case $1 in
        simd128) features+=,+simd128 ;;
        relaxed-simd) features+=,+simd128,+relaxed-simd ;;
    esac
    CARGO_TARGET_WASM32_WASIP1_RUNNER="node $(node_flags_of "$1") $tools/runner.mjs" \
        RUSTFLAGS="-C target-feature=$features -C panic=unwind $link" "$2" "$3" \
        --target $triple -Zbuild-std=std,panic_unwind --release --target-dir $wasm_dir "${@:4}"
}

# nnue-runtime: the kernel property tests, every family's synthetic nets against the
# reference on every path, and mutated layer texts of one's own (own_layers: odd shifts and
# constants through each path's kernels). The root package: the oracle of every shared net, Stockfish's and
# bullet's, and the engines' multi-layer ones (`nnue_net!` output, through `include_bytes!` on
# wasm32, and run-time loading, on every path). With WASM_FULL=1 also the generated nets of
# every family against the reference, incremental updates along random games and the real-net
# round trips (the rest of the set scripts/aarch64-test.sh runs): they add about five minutes
# of building to a cold run, so CI leaves them to the host and aarch64 runs. The tests that run
# cargo themselves (eval example, README, UCI, two nets) stay with the host run.
runtime_tests=(-p nnue-runtime --lib --test paths_vs_reference --test own_layers)
root_tests=(-p nnue-tests --test oracle --test bullet_nets --test engine_oracles)
if [[ ${WASM_FULL:-0} == 1 ]]; then
    root_tests+=(--test generated_vs_reference --test incremental --test real_nets)
fi
# The build without SIMD128 runs only what it alone shows when a build with SIMD128 runs too:
# the root tests run every path the build has (KernelPath::all()) on the same inputs, and both
# SIMD128 builds have scalar, so there the oracle, bullet and engine-net tests already run the
# scalar path on every oracle; here they would run the same Rust code on the same inputs again
# (as -cpu cortex-a53 would in scripts/aarch64-test.sh), and building them (every real net
# compiled into wasm binaries) was this build's costliest step: a cold scalar build took 197 s
# instead of 321 (267 CPU s instead of 366). What differs here is the detection (no SIMD128:
# is_available, best, the SKIPPED lines), the dispatcher's pick (scalar) and the code
# generation (no SIMD128 for LLVM to vectorise the scalar kernels with): the runtime's tests
# (kernel properties, every family's synthetic nets against the reference on every path) and
# the eval example on a real Stockfish net (its lines are what each SIMD build's paths must
# print; it refuses simd128) still run here, and of the root tests generated_vs_reference,
# whose unpathed `evaluate` takes the dispatcher's pick (scalar here, simd128 or relaxed-simd
# there; 41 s, about half of it building for the host what the SIMD128 builds' root tests
# need anyway).
# WASM_FULL=1, or this build alone, runs all the root tests here too.
scalar_root_tests=(-p nnue-tests --test generated_vs_reference)
# Tests run one at a time on wasm32, so a skip is reported after libtest's `test NAME ... `:
# start `SKIPPED` on a line of its own, where .ci/run counts it.
split_skips() { sed -u 's/^\(test .* \.\.\. \)SKIPPED /\1\nSKIPPED /'; }

# The eval example with a Stockfish net compiled in (`nnue_net!`'s `include_bytes!`, which
# wasm32 gets instead of `.incbin`): `--path simd128` gives the same lines as scalar in the
# SIMD128 build, and the build without it refuses that path.
net=../shared/nets/nn-37f18f62d772.nnue
if [[ -f $net ]]; then export EVALFILE=$PWD/$net; else net="" && unset EVALFILE; fi
fens=("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    "8/2k5/8/3P4/8/8/5K2/8 b - - 0 60")
# shellcheck disable=SC2046 # the flags are words
run_eval() { node $(node_flags_of "$1") "$tools/runner.mjs" "$wasm_dir/$triple/release/examples/eval.wasm" "${@:2}"; }

# One build after the other, scalar first (its eval lines are what the SIMD builds must print;
# without it, each build's own scalar path's); with FREE_BUILDS=1 (.ci/run) each build's wasm32
# artefacts go once it has run (the disk holds one build at a time), the host ones at the end.
read -ra builds <<<"${WASM_BUILDS:-scalar simd128 relaxed-simd}"
# Whether a build with SIMD128 runs too (see scalar_root_tests).
simd_build=""
for build in "${builds[@]}"; do [[ $build == scalar ]] || simd_build=$build; done
want=""
for build in "${builds[@]}"; do
    case $build in scalar | simd128 | relaxed-simd) ;; *) echo "wasm-test: unknown build $build" >&2 && exit 1 ;; esac
    echo "wasm-test: $build build"
    # The wasm32 kernels compile only here: lint them as CI lints the host's (Debian's
    # clippy), in both builds (the tests' cfgs differ).
    build_for $build /usr/bin/cargo-clippy clippy -p nnue-runtime --all-targets -- -D warnings
    build_for $build cargo test "${runtime_tests[@]}" 2>&1 | split_skips
    if [[ $build == scalar && -n $simd_build && ${WASM_FULL:-0} != 1 ]]; then
        build_for $build cargo test "${scalar_root_tests[@]}" 2>&1 | split_skips
    else
        build_for $build cargo test "${root_tests[@]}" 2>&1 | split_skips
    fi
    build_for $build cargo build --example eval
    if [[ $build == scalar ]]; then
        want=$(run_eval scalar --generated --path scalar "${fens[@]}")
        if err=$(run_eval scalar --generated --path simd128 "${fens[0]}" 2>&1); then
            echo "eval --path simd128 ran in the build without SIMD128" >&2
            exit 1
        fi
        grep -q "can't run the simd128 path" <<<"$err" || { echo "unexpected refusal: $err" >&2; exit 1; }
    else
        [[ -n $want ]] || want=$(run_eval $build --generated --path scalar "${fens[@]}")
        paths=(scalar simd128)
        if [[ $build == relaxed-simd ]]; then
            paths+=(relaxed-simd)
        elif err=$(run_eval $build --generated --path relaxed-simd "${fens[0]}" 2>&1); then
            echo "eval --path relaxed-simd ran in the build without relaxed SIMD" >&2
            exit 1
        else
            grep -q "can't run the relaxed-simd path" <<<"$err" || { echo "unexpected refusal: $err" >&2; exit 1; }
        fi
        for path in "${paths[@]}"; do
            got=$(run_eval $build --generated --path $path "${fens[@]}")
            [[ $got == "$want" ]] ||
                { echo "eval --path $path ($build build) differs:" >&2; diff <(echo "$want") <(echo "$got") >&2; exit 1; }
        done
    fi
    if [[ ${FREE_BUILDS:-0} == 1 ]]; then rm -rf "${wasm_dir:?}/$triple"; fi
done
if [[ ${FREE_BUILDS:-0} == 1 ]]; then rm -rf "$wasm_dir"; fi
echo "wasm-test: eval example ${net:+($(basename "$net")) }in builds ${builds[*]}: scalar = simd128 in the SIMD128 build," \
    "scalar = simd128 = relaxed-simd in the relaxed-SIMD build, scalar in the one without SIMD128, which refuses simd128"
