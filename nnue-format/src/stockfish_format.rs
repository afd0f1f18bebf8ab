//! Stockfish's files as records, one per file format, in the style of the multi-layer engines'
//! (`layered::format`): a header of three little-endian u32 words (version, file hash,
//! description length) and the description; the transformer's section hash and its arrays;
//! then the network's sections, each behind its hash. What differs between the formats is
//! stated here: the version word, the transformer's arrays (which, in which order, int8 rows
//! raw, the rest raw or LEB128 behind Stockfish's `COMPRESSED_LEB128` magic), the network, and
//! which words a description that names another family has. The reader, the writer and the
//! plan read these records.

use crate::arch::{Architecture, HalfKpArch, Sf19Arch, Sf19Inputs, SfnnArch, ThreatsArch};
use crate::elem::Elem;
use crate::{VERSION_HALFKP, VERSION_SF19, VERSION_SFNN};

/// One Stockfish file format.
#[derive(Debug, Clone, Copy)]
pub struct StockfishFormat {
    /// What the reader calls it when a file fits none of the formats its header names.
    pub name: &'static str,
    /// The header's version word.
    pub version: u32,
    /// The architecture of this format with transformer width `l1`.
    pub arch: fn(usize) -> Architecture,
    /// The transformer's arrays after its biases, in file order.
    pub ft: &'static [FtArray],
    /// What follows the transformer.
    pub network: Network,
    /// A description that names the architecture (`Features=...[22528->3072x2]`) must not
    /// contain this: it names another family.
    pub other_family: &'static str,
    /// The parameters hold PSQT weights the file doesn't store: zeros, for every row
    /// (SFNNv17's: they evaluate to the positional value alone, as Stockfish master does).
    pub psqt_zeros: bool,
}

/// One of the transformer's arrays: `rows` rows of the parameter's width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FtArray {
    /// What it is, in error messages.
    pub what: &'static str,
    /// Which parameter it is (its values' type, its width and its storage follow).
    pub param: FtParam,
    /// Its rows (inputs).
    pub rows: usize,
}

/// Which of the transformer's parameters an array is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FtParam {
    /// The biases: one row of L1 int16 (their encoding is the transformer's first).
    Biases,
    /// The int16 weights, L1 a row (the second encoding).
    Weights,
    /// An int8 set's weights, L1 a row, always raw; the sets back to back in the parameters
    /// (Stockfish 18's threat rows; Stockfish 19's threat and pawn-pair rows).
    Int8,
    /// An int8 set's PSQT block, 8 int32 a row, with its own encoding (Stockfish 19).
    Int8Psqt,
    /// The int16 rows' PSQT weights (Stockfish 18: all rows'), 8 int32 a row (the third
    /// encoding). The PSQT blocks are back to back in the parameters, in file order.
    Psqt,
}

impl FtParam {
    /// Its values' type.
    pub fn elem(self) -> Elem {
        match self {
            FtParam::Biases | FtParam::Weights => Elem::I16,
            FtParam::Int8 => Elem::I8,
            FtParam::Int8Psqt | FtParam::Psqt => Elem::I32,
        }
    }

    /// A row's values for transformer width `l1`.
    pub fn width(self, l1: usize) -> usize {
        match self {
            FtParam::Biases | FtParam::Weights | FtParam::Int8 => l1,
            FtParam::Int8Psqt | FtParam::Psqt => P,
        }
    }

    /// Whether it may be LEB128-compressed (else always raw: the int8 rows).
    pub fn leb128(self) -> bool {
        self != FtParam::Int8
    }
}

/// What follows the transformer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Network {
    /// 8 layer stacks, each behind its hash: fc_0 `L1 -> [0]`, fc_1 `[1] -> [2]`, fc_2 `[3] -> 1`.
    Stacks([usize; 4]),
    /// One section behind its hash: `2·L1 -> [0] -> [1] -> 1`.
    Chain([usize; 2]),
}

/// Every transformer starts with its biases.
const BIASES: FtArray = ft("feature-transformer biases", FtParam::Biases, 1);

/// An array of `rows` rows of `param`.
const fn ft(what: &'static str, param: FtParam, rows: usize) -> FtArray {
    FtArray { what, param, rows }
}

/// Stockfish 15.1 to 18's layer stacks: fc_0 `L1 -> 15+1`, fc_1 `30 -> 32`, fc_2 `32 -> 1`.
const SFNN_STACK: Network =
    Network::Stacks([SfnnArch::FC0_OUT, SfnnArch::FC1_IN, SfnnArch::FC1_OUT, SfnnArch::FC1_OUT]);
/// Stockfish 19's: fc_0 `L1 -> 32`, fc_1 `64 -> 32`, fc_2 `128 -> 1`.
const SF19_STACK: Network = Network::Stacks([Sf19Arch::FC0_OUT, Sf19Arch::FC1_IN, Sf19Arch::FC1_OUT, Sf19Arch::FC2_IN]);

/// A Stockfish 15.1-18 style file: what each record below changes.
const fn sfnn_like(name: &'static str, arch: fn(usize) -> Architecture, ft: &'static [FtArray]) -> StockfishFormat {
    StockfishFormat {
        name,
        version: VERSION_SFNN,
        arch,
        ft,
        network: SFNN_STACK,
        other_family: "HalfKP",
        psqt_zeros: false,
    }
}

/// Stockfish 19's file and SFNNv17's (the same without the PSQT blocks), full and lite.
const fn sf19_like(name: &'static str, arch: fn(usize) -> Architecture, ft: &'static [FtArray]) -> StockfishFormat {
    StockfishFormat { version: VERSION_SF19, network: SF19_STACK, ..sfnn_like(name, arch, ft) }
}

const P: usize = SfnnArch::PSQT_BUCKETS;
const T19: usize = Sf19Arch::THREAT_INPUTS;
const PP: usize = Sf19Arch::PAIR_INPUTS;

/// Every Stockfish file format, in the order the reader tries them: where two share a header
/// (version and hash: SFNNv17's files beside Stockfish 19's), the one whose arrays end exactly
/// at the end of the file.
pub const STOCKFISH_FORMATS: [StockfishFormat; 7] = [
    // Stockfish 15.1 to 17.1 (SFNNv5-9): biases, HalfKAv2_hm weights, PSQT weights.
    sfnn_like(
        "SFNN",
        |l1| Architecture::Sfnn(SfnnArch { l1 }),
        &[
            BIASES,
            ft("feature-transformer weights", FtParam::Weights, SfnnArch::INPUTS),
            ft("PSQT weights", FtParam::Psqt, SfnnArch::INPUTS),
        ],
    ),
    // Stockfish 18: biases, threat weights (raw int8), HalfKAv2_hm weights, then one PSQT
    // block for both tables (threat rows first).
    sfnn_like(
        "Stockfish 18's threat layout",
        |l1| Architecture::Threats(ThreatsArch { l1 }),
        &[
            BIASES,
            ft("threat weights", FtParam::Int8, ThreatsArch::THREAT_INPUTS),
            ft("HalfKAv2_hm weights", FtParam::Weights, ThreatsArch::PIECE_INPUTS),
            ft("PSQT weights (threat rows, then HalfKAv2_hm rows)", FtParam::Psqt, ThreatsArch::INPUTS),
        ],
    ),
    // Stockfish 19: biases, then per feature set its weights and its PSQT block: threats
    // (int8, raw), pawn pairs (int8, raw), then the int16 set.
    sf19_like(
        "Stockfish 19's layout",
        |l1| Architecture::Sf19(Sf19Arch { l1, inputs: Sf19Inputs::Full, psqt: true }),
        &[
            BIASES,
            ft("threat weights", FtParam::Int8, T19),
            ft("threat PSQT weights", FtParam::Int8Psqt, T19),
            ft("pawn-pair weights", FtParam::Int8, PP),
            ft("pawn-pair PSQT weights", FtParam::Int8Psqt, PP),
            ft("piece-square weights", FtParam::Weights, SfnnArch::INPUTS),
            ft("piece-square PSQT weights", FtParam::Psqt, SfnnArch::INPUTS),
        ],
    ),
    // Its lite net: the 768 piece-square rows alone.
    sf19_like(
        "Stockfish 19's layout",
        |l1| Architecture::Sf19(Sf19Arch { l1, inputs: Sf19Inputs::Lite, psqt: true }),
        &[
            BIASES,
            ft("piece-square weights", FtParam::Weights, Sf19Arch::LITE_INPUTS),
            ft("piece-square PSQT weights", FtParam::Psqt, Sf19Arch::LITE_INPUTS),
        ],
    ),
    // SFNNv17 (Stockfish master): Stockfish 19's header and arrays without the PSQT blocks.
    StockfishFormat {
        psqt_zeros: true,
        ..sf19_like(
            "SFNNv17's, without PSQT blocks",
            |l1| Architecture::Sf19(Sf19Arch { l1, inputs: Sf19Inputs::Full, psqt: false }),
            &[
                BIASES,
                ft("threat weights", FtParam::Int8, T19),
                ft("pawn-pair weights", FtParam::Int8, PP),
                ft("piece-square weights", FtParam::Weights, SfnnArch::INPUTS),
            ],
        )
    },
    StockfishFormat {
        psqt_zeros: true,
        ..sf19_like(
            "SFNNv17's, without PSQT blocks",
            |l1| Architecture::Sf19(Sf19Arch { l1, inputs: Sf19Inputs::Lite, psqt: false }),
            &[BIASES, ft("piece-square weights", FtParam::Weights, Sf19Arch::LITE_INPUTS)],
        )
    },
    // Stockfish 12 and 13: biases, HalfKP weights, then one network section.
    StockfishFormat {
        version: VERSION_HALFKP,
        network: Network::Chain([HalfKpArch::L2, HalfKpArch::L3]),
        other_family: "HalfKAv2",
        ..sfnn_like(
            "HalfKP",
            |l1| Architecture::HalfKp(HalfKpArch { l1 }),
            &[BIASES, ft("feature-transformer weights", FtParam::Weights, HalfKpArch::INPUTS)],
        )
    },
];

/// `P` is the PSQT buckets of every format (Stockfish 15.1 to 19 alike).
const _: () = assert!(P == Sf19Arch::PSQT_BUCKETS);

impl StockfishFormat {
    /// The record of `arch`'s file, if it is a Stockfish net.
    pub fn of(arch: &Architecture) -> Option<&'static StockfishFormat> {
        STOCKFISH_FORMATS.iter().find(|f| (f.arch)(arch.l1()) == *arch)
    }

    /// The formats whose header is `version` and `hash`, with their architectures, in the
    /// records' order (the transformer widths Stockfish's hashes can tell: multiples of 64
    /// up to 16384).
    pub fn named_by(version: u32, hash: u32) -> Vec<(&'static StockfishFormat, Architecture)> {
        let widths = (1..=256).map(|k| k * 64);
        STOCKFISH_FORMATS
            .iter()
            .filter(|f| f.version == version)
            .flat_map(|f| widths.clone().map(move |l1| (f, (f.arch)(l1))))
            .filter(|(_, a)| a.stockfish_hashes().map(|[ft, net]| ft ^ net) == Some(hash))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the reader and the plan rely on: each record's architecture is its own; the file
    /// hash is the transformer's xor the network's; no two formats of different versions or
    /// hashes collide, and only SFNNv17's share Stockfish 19's headers; the versions are the
    /// known ones; the PSQT blocks are where the parameters expect them.
    #[test]
    fn the_records_are_consistent() {
        for f in &STOCKFISH_FORMATS {
            for l1 in [64, 128, 1024, 3072] {
                let a = (f.arch)(l1);
                assert!(StockfishFormat::of(&a).is_some_and(|g| (g.name, g.ft) == (f.name, f.ft)), "{}", f.name);
                let file_hash = match a {
                    Architecture::Sfnn(a) => a.file_hash(),
                    Architecture::Threats(a) => a.file_hash(),
                    Architecture::Sf19(a) => a.file_hash(),
                    Architecture::HalfKp(a) => a.file_hash(),
                    _ => unreachable!(),
                };
                let [ft, net] = a.stockfish_hashes().unwrap();
                assert_eq!(ft ^ net, file_hash, "{}", f.name);
                let named: Vec<Architecture> =
                    StockfishFormat::named_by(f.version, file_hash).into_iter().map(|(_, a)| a).collect();
                assert!(named.contains(&a), "{}", f.name);
                let twins = named.iter().all(|b| match (a, *b) {
                    (Architecture::Sf19(x), Architecture::Sf19(y)) => x.l1 == y.l1 && x.inputs == y.inputs,
                    _ => *b == a,
                });
                assert!(twins, "{} {l1}: {named:?}", f.name);
            }
            assert!(crate::is_known_version(f.version), "{}", f.name);
            assert_eq!(f.ft[0], BIASES, "{}", f.name);
            // Zero PSQT weights only where the file stores none; an int8 set's PSQT block
            // follows the set; at most two int8 sets (`Sf19Params::int8_psqt_encoding`).
            let psqt = f.ft.iter().any(|a| matches!(a.param, FtParam::Psqt | FtParam::Int8Psqt));
            assert!(!(f.psqt_zeros && psqt), "{}", f.name);
            for (i, a) in f.ft.iter().enumerate().filter(|(_, a)| a.param == FtParam::Int8Psqt) {
                assert_eq!((f.ft[i - 1].param, f.ft[i - 1].rows), (FtParam::Int8, a.rows), "{}", f.name);
            }
            assert!(f.ft.iter().filter(|a| a.param == FtParam::Int8Psqt).count() <= 2, "{}", f.name);
        }
        for (version, name) in crate::error::KNOWN_VERSIONS {
            assert!(STOCKFISH_FORMATS.iter().any(|f| f.version == *version), "{name}");
        }
    }
}
