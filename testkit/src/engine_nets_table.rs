// The synthetic engine-layout nets: data only, included by `engine_nets.rs` and by the
// build script (`build/nets.rs`), which writes them for `nnue_net!`. Their shapes are the
// engines' shipped nets', so the descriptions are `nnue_format::known`'s.

/// Alexandria (PGG106/Alexandria 2ebf114, 2026-05-04): f32 later layers, dual activation.
pub const ALEXANDRIA: EngineNet = EngineNet {
    name: "alexandria",
    engine: "Alexandria 2ebf11435fb0d458795f0a8dca58f651595995f9, make build=x86-64-bmi2 (AVX2, FMA), GCC 12.2",
    arch: nnue_format::known::ALEXANDRIA,
    seed: 2026,
    oracle: "alexandria-synth.tsv",
};

/// Stormphrax (Ciekce/Stormphrax 70e84c1, 7.0.56, the last multi-layer version before threat
/// inputs): int32 later layers, dual activation, merged kings, `CBNF` header.
pub const STORMPHRAX: EngineNet = EngineNet {
    name: "stormphrax",
    engine: "Stormphrax 70e84c11af7f994a84990c9b97c4b5865127c411, make avx2-bmi2 (clang 19)",
    arch: concat!(
        "(704x16hm -> 1792)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, l1shift=8, scale=400, ",
        "file=cbnf, ",
        "kings=[0,1,2,3,4,5,6,7,8,9,10,11,8,9,10,11,12,12,13,13,12,12,13,13,14,14,15,15,14,14,15,15]"
    ),
    seed: 2027,
    oracle: "stormphrax-synth.tsv",
};

/// Stormphrax 8 (Ciekce/Stormphrax 2402cae, 2026-07-29): Stockfish 19's pawn-pair and threat
/// inputs after merged-king piece-square ones, int32 later layers in its newer quantisation,
/// dual activation, a skip over the dense layer, `CBNF` header.
pub const STORMPHRAX8: EngineNet = EngineNet {
    name: "stormphrax8",
    engine: "Stormphrax 2402cae6, make avx2-bmi2 (clang 19)",
    arch: nnue_format::known::STORMPHRAX8,
    seed: 2033,
    oracle: "stormphrax8-synth.tsv",
};

/// Integral (aronpetko/integral 3f15ba6, 2026-04-02): f32 later layers, clipped (not squared)
/// activations after the sparse and the dense layer, bullet's order unpadded.
pub const INTEGRAL: EngineNet = EngineNet {
    name: "integral",
    engine: "Integral 3f15ba6bcd29f94f13ffb11e9ff0d99cb15c03ba, make avx2 (GCC 12.2)",
    arch: nnue_format::known::INTEGRAL,
    seed: 2028,
    oracle: "integral-synth.tsv",
};

/// Obsidian (gab8192/Obsidian 44239cc, 2025-06-28): f32 later layers, dual activation, a
/// clipped (not squared) dense layer, its own array order, every array 64-byte aligned.
pub const OBSIDIAN: EngineNet = EngineNet {
    name: "obsidian",
    engine: "Obsidian 44239cc3fcf271bc8341ba45c06ac45bf75cf244, make nopgo build=avx2 (GCC 12.2)",
    arch: nnue_format::known::OBSIDIAN,
    seed: 2029,
    oracle: "obsidian-synth.tsv",
};

/// Reckless (codedeliveryservice/Reckless 789de89, 2026-08-18): threat inputs (int8 rows)
/// beside king-bucketed chess-768, f32 later layers with clipped activations, its output
/// buckets by table, `struct Parameters` as the file.
pub const RECKLESS: EngineNet = EngineNet {
    name: "reckless",
    engine: "Reckless 789de89, cargo build --release, RUSTFLAGS=-Ctarget-cpu=x86-64-v3 (AVX2, FMA), rustc 1.95",
    arch: nnue_format::known::RECKLESS,
    seed: 2030,
    oracle: "reckless-synth.tsv",
};

/// Reckless's AVX2 build (no VNNI) adds two input groups' `maddubs` products in int16 before
/// widening, as Integral does (`l1sums=i16pairs`); its VNNI build sums exactly. This net's
/// sparse weights span the int8 range, so the int16 sums wrap: its oracle is the AVX2 build's.
pub const RECKLESS_PAIRS: EngineNet = EngineNet {
    name: "reckless-pairs",
    engine: "Reckless 789de89, cargo build --release, RUSTFLAGS=-Ctarget-cpu=x86-64-v3 (AVX2, FMA), rustc 1.95",
    arch: concat!(
        "(768x10hm -> 768)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, l1act=crelu, l2act=crelu, ",
        "l1mul=512/4161600, scale=380, l1sums=i16pairs, ",
        "buckets=[0,0,0,0,0,0,0,0,0,1,1,1,1,2,2,2,2,3,3,3,4,4,4,5,5,5,6,6,6,7,7,7,7], threats=reckless, ",
        "file=reckless, kings=[0,1,2,3,4,5,6,7,8,8,8,8,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9]"
    ),
    seed: 2031,
    oracle: "reckless-pairs-synth.tsv",
};

/// PlentyChess (Yoshie2000/PlentyChess 20878a8, 2026-06-28): Stockfish 19's pawn-pair and
/// threat inputs beside king-bucketed chess-768, dual activation, a skip connection from the
/// sparse layer's activation into the output layer, one LEB128 varint per value.
pub const PLENTYCHESS: EngineNet = EngineNet {
    name: "plentychess",
    engine: "PlentyChess 20878a8, make arch=avx512vbmi2 (-march=icelake-client, GCC 12.2)",
    arch: nnue_format::known::PLENTYCHESS,
    seed: 2032,
    oracle: "plentychess-synth.tsv",
};

/// Viridithas (cosmobobak/viridithas 8bc0706, 2026-08-08): merged-king piece-square inputs
/// beside Stockfish 19's pawn-pair and threat inputs, hard-swish after the sparse layer,
/// SwiGLU and a residual connection after the dense one, `struct QuantisedNetwork`
/// zstd-compressed.
pub const VIRIDITHAS: EngineNet = EngineNet {
    name: "viridithas",
    engine: "Viridithas 8bc07064c888ad9ff7641e65188cc3e230916090, cargo build --release, RUSTFLAGS=-Ctarget-cpu=x86-64-v3 (AVX2, FMA), rustc 1.95",
    arch: nnue_format::known::VIRIDITHAS,
    seed: 2033,
    oracle: "viridithas-synth.tsv",
};

/// Viridithas's AVX2 build on a net whose sparse weights span the int8 range: its neuron order
/// and its int16 sums in fours (`l1sums=viridithas-avx2`) tell it from exact sums (on 20 of the
/// 500 positions) and from plain pairs (41).
pub const VIRIDITHAS_AVX2: EngineNet = EngineNet {
    name: "viridithas-avx2",
    engine: "Viridithas 8bc07064c888ad9ff7641e65188cc3e230916090, cargo build --release, RUSTFLAGS=-Ctarget-cpu=x86-64-v3 (AVX2, FMA), rustc 1.95",
    arch: concat!(
        "(704x16hm -> 1024)x2 -> pairwise>>9 -> (32 -> 64 -> 1)x8, f32, l1act=hardswish, ",
        "l2act=swiglu, residual, l1mul=512/4161600, scale=240, l1sums=viridithas-avx2, threats=pawnpairs+sf19, ",
        "file=viridithas, kings=[0,1,2,3,4,5,6,7,8,9,10,11,8,9,10,11,12,12,13,13,12,12,13,13,14,14,15,15,14,14,15,15]"
    ),
    seed: 7,
    oracle: "viridithas-wide-synth.tsv",
};

/// Stormphrax 8's layout without threat inputs (its `arch.h` with `InputFeatureSet =
/// PsqFeatureSet`): merged-king piece-square rows alone, the rest as Stormphrax 8's.
pub const STORMPHRAX8_NO_THREATS: EngineNet = EngineNet {
    name: "stormphrax8-nothreats",
    engine: "Stormphrax 2402cae6 with arch.h's InputFeatureSet = PsqFeatureSet, make avx2-bmi2 (clang 19)",
    arch: concat!(
        "(704x16hm -> 1024)x2 -> pairwise>>9 -> (32 -> 64 -> 1)x8, i32, dual, wide, skip, q=64, l1shift=2, ",
        "scale=400, file=cbnf, kings=[0,1,2,3,4,5,6,7,8,9,10,11,8,9,10,11,12,12,13,13,12,12,13,13,14,14,15,15,14,14,15,15]"
    ),
    seed: 2034,
    oracle: "stormphrax8-nothreats-synth.tsv",
};

/// Caissa (Witek902/Caissa ff86922, 2026-08-22): bullet-style single-layer arithmetic (32
/// king buckets, 1024 SCReLU neurons, 8 output buckets), its output not rescaled, its `CSNN`
/// file (`PackedNeuralNetwork`).
pub const CAISSA: EngineNet = EngineNet {
    name: "caissa",
    engine: "Caissa ff86922, its makefile's avx2 flags (GCC 12.2, -march=core-avx2 -O3)",
    arch: nnue_format::known::CAISSA,
    seed: 2035,
    oracle: "caissa-synth.tsv",
};

/// cinder (brunocodutra/cinder c72467a, v0.6.1, 2026-08-21): Stockfish 19's pawn-pair and
/// threat inputs beside king-bucketed chess-768 (mirrored with the king on files a–d), a
/// rounded pairwise product, signed squares, two f32 dense layers in four fma chains, an output
/// over 8 lanes with a residual, its int16 value clamped to ±7871; shipped zstd-compressed.
pub const CINDER: EngineNet = EngineNet {
    name: "cinder",
    engine: "cinder c72467ab62fd6bf4b81f774fe7c725881212544d, cargo build --release, RUSTFLAGS=-Ctarget-cpu=x86-64-v3 (AVX2, FMA), nightly rustc",
    arch: nnue_format::known::CINDER,
    seed: 2036,
    oracle: "cinder-synth.tsv",
};
