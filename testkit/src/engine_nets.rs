//! Synthetic nets in real engines' layouts (multi-layer ones, and Caissa's single layer), with
//! what each engine's own code computes on them (`tests/oracles/`). No real net of these is
//! small or public enough to keep here, so the oracles were made the other way round: our
//! writer wrote a seeded net in the engine's layout, the engine (built from its source, outside
//! this repository) evaluated the oracle positions with it. The nets are large, so the seed is what is committed: the
//! tests regenerate the net, byte for byte, with [`EngineNet::net`].
//!
//! Regenerate a file for an engine run with
//! `cargo run --release -p nnue-checks --bin synth-net -- <name> <out file>`.

use nnue_runtime::format::{synth, Architecture, LayeredArch, Net};

/// A synthetic net in an engine's layout and the file of that engine's values on it.
#[derive(Debug, Clone, Copy)]
pub struct EngineNet {
    /// Short name (`--bin synth-net` takes it).
    pub name: &'static str,
    /// The engine, its commit and build, as the oracle was made.
    pub engine: &'static str,
    /// The architecture description.
    pub arch: &'static str,
    /// The seed of [`synth::layered`] (or [`synth::chess768`]).
    pub seed: u64,
    /// The oracle file under `tests/oracles/` (columns `fen`, `eval`).
    pub oracle: &'static str,
}

use nnue_runtime::format as nnue_format;

include!("engine_nets_table.rs");

/// Every engine net.
pub const ALL: [EngineNet; 13] = [
    ALEXANDRIA,
    STORMPHRAX,
    INTEGRAL,
    OBSIDIAN,
    RECKLESS,
    RECKLESS_PAIRS,
    PLENTYCHESS,
    VIRIDITHAS,
    VIRIDITHAS_AVX2,
    STORMPHRAX8,
    STORMPHRAX8_NO_THREATS,
    CAISSA,
    CINDER,
];

impl EngineNet {
    /// The architecture of a multi-layer engine net.
    ///
    /// # Panics
    /// If it is not one.
    pub fn layered_arch(&self) -> LayeredArch {
        match self.arch.parse::<Architecture>() {
            Ok(Architecture::Layered(a)) => a,
            other => panic!("{}: {other:?}", self.name),
        }
    }

    /// The net, regenerated ([`synth::layered`] or, for a single-layer engine, [`synth::chess768`]).
    pub fn net(&self) -> Net {
        match self.arch.parse::<Architecture>() {
            Ok(Architecture::Chess768(a)) => synth::chess768(&a, self.seed),
            Ok(Architecture::Layered(a)) => synth::layered(&a, self.seed),
            other => panic!("{}: {other:?}", self.name),
        }
    }

    /// The oracle file.
    pub fn oracle_path(&self) -> std::path::PathBuf {
        crate::root().join("tests/oracles").join(self.oracle)
    }

    /// By name.
    pub fn by_name(name: &str) -> Option<EngineNet> {
        ALL.into_iter().find(|n| n.name == name)
    }
}

/// A small net of PlentyChess's layout (L1 64, 2 king buckets), for tests of its varint file
/// form that need no engine oracle.
pub const PLENTYCHESS_SMALL: &str = "(768x2hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, dual, skip, \
    l1mul=512/4161600, scale=287, threats=pawnpairs+sf19, file=plentychess, \
    kings=[0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
