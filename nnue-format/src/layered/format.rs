//! Each engine's multi-layer file as one record: its header, how values are stored, how arrays
//! are aligned, how the file ends, how it may be compressed, which board inputs it stores and
//! in which axis order each array is. The reader, the writer, the size checks, the synthetic
//! nets and the CLI read these records; a new engine's file is a new [`FileLayout`] and its
//! record in [`FORMATS`]. Stockfish's files are records too, of their own type
//! ([`StockfishFormat`], [`STOCKFISH_FORMATS`]): a header of version words and section hashes
//! that these records don't have; single-layer (chess-768) files are [`Chess768Format`]s
//! ([`CHESS768_FORMATS`]).

use super::ThreatInputs;
pub use crate::chess768_format::{
    Chess768File, Chess768Format, OutputStore, Sizes, Word, WordHeader, CHESS768_FORMATS,
};
pub use crate::frame::{End, Frame, Header, Storage, Zstd};
use crate::net::Padding;
pub use crate::stockfish_format::{FtArray, FtParam, Network, StockfishFormat, STOCKFISH_FORMATS};

/// How a multi-layer net's file is laid out: each engine its own (its record: [`Self::format`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileLayout {
    /// Alexandria's: the quantised net as its engine embeds it.
    Alexandria,
    /// Stormphrax's: a 64-byte `CBNF` header, then the quantised net.
    Cbnf,
    /// bullet's own save of its multi-layer example (`examples/progression/4_multi_layer.rs`):
    /// every array in the canonical order, padded to 64 bytes (zeros or `bulletbullet…`).
    /// Integral's `RawNetwork` is this order unpadded (its loader reads the arrays and
    /// ignores what follows).
    Bullet,
    /// Obsidian's `struct Net`: bullet's order but the sparse and dense layers' weights
    /// input-major (`[B][L1][L2]`, `[B][L2 (x2)][L3]`), every array aligned to 64 bytes.
    Obsidian,
    /// Reckless's `struct Parameters` (embedded as its bytes): the threat rows, then the
    /// piece-square rows and biases, the sparse layer blocked for `dpbusd` (`[B][L1 / 4][L2][4]`),
    /// the dense layer input-major; every array aligned to 64 bytes.
    Reckless,
    /// PlentyChess's: every value one LEB128 varint (signed; an f32 as the unsigned varint of
    /// its bits), no header: piece-square rows, pawn-pair and threat rows, biases, then the
    /// layers input-major (`[L1][B][L2]`, `[L2 (x2)][B][L3]`, `[L3 (+ L2 (x2))][B]`).
    PlentyChess,
    /// Viridithas's `struct QuantisedNetwork`, zstd-compressed (the bytes of one or more zstd
    /// frames), no header, no padding: pawn-pair and threat rows (int8), piece-square rows
    /// and biases (int16), then the layers input-major (`[L1][B][L2]`, `[L2][B][L3]`,
    /// `[L3/2][B]`), their biases f32. The engine reorders the transformer's neurons at load
    /// (a fixed permutation of each half), which only its AVX2 build's int16 pair sums
    /// could see; with exact sums the order doesn't matter.
    Viridithas,
    /// cinder's (brunocodutra/cinder, `lib/nnue.rs`), zstd-compressed, no header, no padding:
    /// pawn-pair and threat rows (int8), piece-square rows (int16, cinder's piece order) and
    /// biases, the layers canonical (`[B][out][in]`), their biases f32, the output layer's
    /// residual weights stored after the sparse layer's biases. cinder mirrors a side's
    /// features when its king is on files a–d, we on e–h: a fixed permutation of the rows,
    /// applied at load and undone at write ([`Format::mirrored_a_to_d`]).
    Cinder,
}

/// The axis order of a layer's weights (canonical: `[B][out][in]`, as
/// [`crate::LayeredParams`] documents them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axes {
    /// `[B][out][in]`.
    Canonical,
    /// `[B][in][out]`.
    BucketInputMajor,
    /// `[in][B][out]`.
    InputMajor,
    /// `[B][in / 4][out][4]`: blocked for `dpbusd` (sparse layer only).
    Dpbusd,
}

/// One engine's file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Format {
    /// The layout this record describes.
    pub layout: FileLayout,
    /// Its name in a description (`file=`).
    pub name: &'static str,
    /// What precedes the arrays.
    pub header: Header,
    /// How each value is stored.
    pub storage: Storage,
    /// Each array starts at a multiple of this, counted from the first array (1: packed).
    pub align: usize,
    /// What may follow the last array.
    pub end: End,
    /// How the engine ships it compressed.
    pub zstd: Zstd,
    /// The board inputs (int8 rows) it stores.
    pub threats: &'static [ThreatInputs],
    /// Whether it has no form without them.
    pub needs_threats: bool,
    /// Whether the board inputs' rows come before the piece-square rows (else after them);
    /// the transformer's biases follow both.
    pub threats_first: bool,
    /// The sparse layer's weights.
    pub sparse: Axes,
    /// The dense layer's weights.
    pub dense: Axes,
    /// The output layer's weights (`BucketInputMajor` is `Canonical` for a vector).
    pub output: Axes,
    /// How our writer's synthetic nets end: as the engine's own files (Obsidian's and
    /// Reckless's struct sizes, bullet's padding), CBNF's unpadded.
    pub synth_padding: Padding,
    /// The engine mirrors a side's features when its king is on files a–d (ours: e–h), and
    /// numbers its piece-square rows `64·(2·piece type + colour) + square`: the reader puts
    /// the rows in our order (`layered::mirror`), the writer back (cinder's).
    pub mirrored_a_to_d: bool,
    /// The output layer's inputs after the last dense activation (the sparse layer's
    /// activation, `skip`) have their weights as an array of their own, after the sparse
    /// layer's biases (cinder's residual).
    pub split_skip: bool,
}

/// A headerless file of raw values back to back, the layers input-major, no board inputs: what
/// each record below changes.
const fn plain(layout: FileLayout, name: &'static str) -> Format {
    Format {
        layout,
        name,
        header: Header::None,
        storage: Storage::Raw,
        align: 1,
        end: End::Exact,
        zstd: Zstd::No,
        threats: &[],
        needs_threats: false,
        threats_first: false,
        sparse: Axes::InputMajor,
        dense: Axes::InputMajor,
        output: Axes::InputMajor,
        synth_padding: Padding::None,
        mirrored_a_to_d: false,
        split_skip: false,
    }
}

/// Every engine's file, in the order descriptions list them.
pub const FORMATS: [Format; 8] = [
    // struct QuantisedNetwork: FTWeights[inputs][L1], FTBiases[L1], L1Weights[L1][B][L2],
    // L1Biases[B][L2], L2Weights[L2 (x2)][B][L3], L2Biases[B][L3], L3Weights[L3][B],
    // L3Biases[B]; no header, no padding.
    plain(FileLayout::Alexandria, "alexandria"),
    // bullet's example, saved with `.transpose()` on every weight: all canonical.
    Format {
        end: End::Bullet,
        sparse: Axes::Canonical,
        dense: Axes::Canonical,
        output: Axes::Canonical,
        synth_padding: Padding::Bullet,
        ..plain(FileLayout::Bullet, "bullet")
    },
    // Stormphrax's (after its 64-byte header): FT weights[inputs][L1] (Stormphrax 8: then the
    // pawn-pair and threat weights, `preprocess/permute.cpp`'s `LoadedNetwork`), biases[L1],
    // L1 weights `[B][L1 / 4][L2][4]`, L1 biases[B][L2], L2 weights[B][L2 (x2)][L3], L2
    // biases[B][L3], L3 weights[B][L3], L3 biases[B]; its writer pads each array to 64 bytes.
    Format {
        header: Header::Cbnf,
        align: 64,
        end: End::Aligned,
        zstd: Zstd::HeaderFlag,
        threats: &[ThreatInputs::PawnPairsSf19],
        sparse: Axes::Dpbusd,
        dense: Axes::BucketInputMajor,
        output: Axes::Canonical,
        ..plain(FileLayout::Cbnf, "cbnf")
    },
    // Obsidian's `struct Net`: bullet's order, the sparse and dense weights input-major per
    // bucket; each array `alignas(64)`.
    Format {
        align: 64,
        end: End::Aligned,
        sparse: Axes::BucketInputMajor,
        dense: Axes::BucketInputMajor,
        output: Axes::Canonical,
        synth_padding: Padding::Zeros,
        ..plain(FileLayout::Obsidian, "obsidian")
    },
    // Reckless's `struct Parameters`: threat weights[threats][L1] i8, then Stormphrax's arrays.
    Format {
        align: 64,
        end: End::Aligned,
        threats: &[ThreatInputs::Reckless],
        needs_threats: true,
        threats_first: true,
        sparse: Axes::Dpbusd,
        dense: Axes::BucketInputMajor,
        output: Axes::Canonical,
        synth_padding: Padding::Zeros,
        ..plain(FileLayout::Reckless, "reckless")
    },
    // PlentyChess's (`tools/process_net.cpp` reads it so), one varint per value: piece-square
    // weights[inputs][L1], pawn-pair and threat weights[int8 inputs][L1], then the layers
    // input-major.
    Format {
        storage: Storage::Varints,
        threats: &[ThreatInputs::PawnPairsSf19],
        needs_threats: true,
        ..plain(FileLayout::PlentyChess, "plentychess")
    },
    // Viridithas's `struct QuantisedNetwork` (src/nnue/network.rs): pawn-pair and threat
    // weights[int8 inputs][L1] i8, piece-square weights[inputs][L1], then the layers
    // input-major (f32 after the sparse layer); shipped and embedded zstd-compressed.
    Format {
        zstd: Zstd::WholeFile,
        threats: &[ThreatInputs::PawnPairsSf19],
        needs_threats: true,
        threats_first: true,
        ..plain(FileLayout::Viridithas, "viridithas")
    },
    // cinder's `Nnue` (lib/nnue.rs, read in order from `nnue.bin`, which build.rs decompresses
    // from `nnue.bin.zst`): pawn pairs[4560][L1] i8, threats[59808][L1] i8, piece-square
    // [inputs][L1] i16, biases[L1] i16, then `[B][L2][L1]` i8, `[B][L2]`, the residual
    // `[B][L2 x2]`, `[B][L3][L2 x2]`, `[B][L3]`, `[B][L3B][L3 x2]`, `[B][L3B]`, `[B][L3B x2]`,
    // `[B]` f32.
    Format {
        zstd: Zstd::WholeFile,
        threats: &[ThreatInputs::PawnPairsSf19],
        needs_threats: true,
        threats_first: true,
        sparse: Axes::Canonical,
        dense: Axes::Canonical,
        output: Axes::Canonical,
        mirrored_a_to_d: true,
        split_skip: true,
        ..plain(FileLayout::Cinder, "cinder")
    },
];

impl FileLayout {
    /// Its record.
    pub fn format(self) -> &'static Format {
        // The records' order (a test checks each record is its layout's).
        let i = match self {
            FileLayout::Alexandria => 0,
            FileLayout::Bullet => 1,
            FileLayout::Cbnf => 2,
            FileLayout::Obsidian => 3,
            FileLayout::Reckless => 4,
            FileLayout::PlentyChess => 5,
            FileLayout::Viridithas => 6,
            FileLayout::Cinder => 7,
        };
        &FORMATS[i]
    }

    /// The layout named `name` (`file=`).
    pub fn named(name: &str) -> Option<FileLayout> {
        FORMATS.iter().find(|f| f.name == name).map(|f| f.layout)
    }

    /// Each array starts at a multiple of this (1: packed).
    pub fn array_align(self) -> usize {
        self.format().align
    }

    /// Whether every value is one LEB128 varint (the file's size then follows from the values).
    pub fn varints(self) -> bool {
        self.format().storage == Storage::Varints
    }

    pub(crate) fn name(self) -> &'static str {
        self.format().name
    }
}

impl Format {
    /// Its frame: header, storage, alignment, end and compression.
    pub fn frame(&self) -> Frame {
        Frame { header: self.header, storage: self.storage, align: self.align, end: self.end, zstd: self.zstd }
    }

    /// The paddings a file of this layout may end with.
    pub fn paddings(&self) -> &'static [Padding] {
        match self.end {
            End::Exact => &[Padding::None],
            End::Aligned => &[Padding::None, Padding::Zeros],
            End::Bullet => &[Padding::None, Padding::Zeros, Padding::Bullet],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the reader relies on: one record per layout, names unique; a whole-file stream
    /// is told apart by its size, which a varint file doesn't have; a header flag needs a
    /// header; the `dpbusd` blocking is the sparse layer's only.
    #[test]
    fn the_records_are_consistent() {
        for (i, f) in FORMATS.iter().enumerate() {
            assert_eq!(f.layout.format(), f);
            assert_eq!(FileLayout::named(f.name), Some(f.layout));
            assert!(FORMATS[..i].iter().all(|g| g.layout != f.layout && g.name != f.name), "{}", f.name);
            assert!(f.zstd != Zstd::WholeFile || f.storage == Storage::Raw, "{}", f.name);
            assert!(f.zstd != Zstd::HeaderFlag || f.header != Header::None, "{}", f.name);
            assert!((f.align > 1) == (f.end == End::Aligned), "{}", f.name);
            assert!(f.dense != Axes::Dpbusd && f.output != Axes::Dpbusd, "{}", f.name);
            assert!(!f.needs_threats || !f.threats.is_empty(), "{}", f.name);
            assert!(f.paddings().contains(&f.synth_padding), "{}", f.name);
        }
    }
}
