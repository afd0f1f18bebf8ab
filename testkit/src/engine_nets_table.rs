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
