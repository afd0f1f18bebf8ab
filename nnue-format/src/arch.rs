//! The architecture description: one value that fully determines a net's shape and arithmetic.
//!
//! Text forms (whitespace is free, names are case-insensitive):
//!
//! ```text
//! HalfKAv2_hm -> 3072x2 -> (15+1 -> 32 -> 1)x8, psqt=8     Stockfish 15.1-17.1 (SFNNv5-v9)
//! HalfKAv2_hm+Threats -> 1024x2 -> (15+1 -> 32 -> 1)x8, psqt=8   Stockfish 18 (big net)
//! HalfKAv2_hm+Threats19+PawnPairs -> 1024x2 -> (32 -> 32 -> 1)x8, psqt=8   Stockfish 19 (big net)
//! PSQ768hm -> 1024x2 -> (32 -> 32 -> 1)x8, psqt=8          Stockfish 19's lite net (lichess)
//! HalfKAv2_hm+Threats19+PawnPairs -> 1024x2 -> (32 -> 32 -> 1)x8, psqt=0   Stockfish master (SFNNv17)
//! HalfKP -> 256x2 -> 32 -> 32 -> 1                          Stockfish 12-13
//! (768 -> 1024)x2 -> 1, screlu, qa=255, qb=64, scale=400    headerless (bullet-style)
//! (768x4hm -> 1024)x2 -> 1x8, crelu, qa=255, qb=64, scale=400, kings=[0,0,1,1, ...]
//! ```
//!
//! `768xK` has K king buckets, `hm` mirrors horizontally so the king sits on files a-d;
//! `kings=[...]` maps the king square (from the perspective's side; 32 entries a1,b1,c1,d1,a2..
//! when mirrored, else 64 entries a1..h8) to its bucket. `1xB` is B output buckets chosen by
//! piece count, as bullet's `MaterialCount<B>`.
//!
//! What a headerless net computes, exactly (every path does this, in this order):
//!
//! - output bucket `b = (pieces - 2) / ceil(32 / B)` (pieces counts the kings; for B = 8 this is
//!   `(pieces - 2) / 4`, which never exceeds 7, so it equals both akimbo's rule and pawnocchio's
//!   `min(7, (pieces - 2) / 4)`);
//! - `c = clamp(acc, 0, qa)` per hidden neuron, the int16 accumulators wrapping;
//! - `crelu`: `sum = Σ c·w` over both halves (side to move's first), in i32;
//!   `out = (sum + l1b[b]) · scale / (qa·qb)`;
//! - `screlu`: `sum = Σ c²·w` over both halves, in i32 (wrapping); then `sum / qa` *before* the
//!   bias: `out = (sum / qa + l1b[b]) · scale / (qa·qb)` (bullet's inference example, pawnocchio);
//! - every division truncates toward zero (Rust's `/`, Zig's `@divTrunc`, C's `/`).
//!
//! Options of the headerless form besides the activation and the scalars:
//!
//! - `out=[2N][B]`: the output weights are stored `[2·hidden][bucket]` (for each hidden input,
//!   side to move's N first, one weight per bucket), as bullet saves them by default since 2024
//!   (e.g. Obsidian's nets, transposed at load). Without it (or with `out=[B][2N]`, which prints
//!   as nothing) they are `[bucket][2·hidden]`: per bucket the side to move's N, then the other
//!   side's (bullet's saved format after `.transpose()`; akimbo's and pawnocchio's nets). Either
//!   order reads into the same parameters and evaluates identically; the writer writes the
//!   order the description says.
//!
//! - `scale=none` (no `qb`): the output is `sum / qa + l1b[b]` (`screlu`) or `sum + l1b[b]`
//!   (`crelu`), not rescaled: what Caissa's network returns (its evaluation divides later).
//!   `qb=1, scale=qa` computes the same until the wrapping int32 product overflows.
//! - `file=caissa`: Caissa's file (`PackedNeuralNetwork`: a `CSNN` header, each bucket's output
//!   weights with an int32 bias in a 64-byte struct; see [`Chess768File`](crate::formats::Chess768File)).
//!   Without it (or with `file=bullet`, which prints as nothing) the file is bullet's.
//!
//! bullet's file may end in padding to a multiple of 64 bytes: zeros, or bullet's repeated
//! `bullet` (bullet's files since March 2024); any other byte there is an error.

use std::fmt;
use std::str::FromStr;

pub use crate::chess768_format::Chess768File;
use crate::grammar::{parse_i32, parse_num, split_top_level};
use crate::hash;
use crate::kings::{king_buckets, parse_king_map};
use crate::layered::LayeredArch;
use crate::ShapeError;

pub use crate::kings::KingBuckets;

/// Every net family the project reads and evaluates.
///
/// Parsed from the text forms of the module docs (`FromStr`); `Display` prints the canonical
/// text, which parses back to the same value.
///
/// ```
/// use nnue_format::{Architecture, SfnnArch};
///
/// let arch: Architecture = "HalfKAv2_hm -> 3072x2 -> (15+1 -> 32 -> 1)x8, psqt=8".parse().unwrap();
/// assert_eq!(arch, Architecture::Sfnn(SfnnArch { l1: 3072 }));
/// assert_eq!((arch.inputs(), arch.l1()), (22528, 3072));
///
/// let text = concat!(
///     "(768x2hm -> 512)x2 -> 1x8, screlu, qa=255, qb=64, scale=400, ",
///     "kings=[0,0,1,1, 0,0,1,1, 1,1,1,1, 1,1,1,1, 1,1,1,1, 1,1,1,1, 1,1,1,1, 1,1,1,1]",
/// );
/// let arch: Architecture = text.parse().unwrap();
/// assert_eq!(arch.to_string().parse::<Architecture>().unwrap(), arch);
/// assert!("(768 -> 512)x2 -> 1, relu".parse::<Architecture>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Architecture {
    /// Stockfish 15.1 to 17.1 and 18's small net: HalfKAv2_hm, SFNNv5 to SFNNv9.
    Sfnn(SfnnArch),
    /// Stockfish 12 and 13: HalfKP.
    HalfKp(HalfKpArch),
    /// A headerless bullet-style chess-768 net.
    Chess768(Chess768Arch),
    /// Stockfish 18's threat-input nets: HalfKAv2_hm plus FullThreats.
    Threats(ThreatsArch),
    /// Stockfish 19's nets (file version `0x6A448AFA`): the big net's HalfKAv2_hm, threats
    /// and pawn pairs, or the lite net's mirrored piece-square inputs.
    Sf19(Sf19Arch),
    /// Multi-layer nets as bullet-trained engines ship them (see [`LayeredArch`]).
    Layered(LayeredArch),
}

/// Stockfish SFNNv5-v9: HalfKAv2_hm -> L1x2 (+ PSQT) -> 8 stacks of (15+1 -> 32 -> 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SfnnArch {
    /// Feature-transformer outputs per perspective (a multiple of 64: 128 to 3072 exist).
    pub l1: usize,
}

impl SfnnArch {
    /// HalfKAv2_hm features: 32 king buckets (mirrored king squares) x 11 piece kinds x 64 squares.
    pub const INPUTS: usize = 22528;
    /// PSQT output buckets, chosen by piece count as the layer stacks are.
    pub const PSQT_BUCKETS: usize = 8;
    /// Layer stacks; a position uses stack `(pieces - 1) / 4`.
    pub const STACKS: usize = 8;
    /// fc_0 outputs: 15 into the activations plus 1 forwarded straight to the output.
    pub const FC0_OUT: usize = 16;
    /// fc_1 inputs: fc_0's first 15 outputs through SqrClippedReLU and through ClippedReLU.
    pub const FC1_IN: usize = 30;
    /// fc_1 outputs, the inputs of fc_2.
    pub const FC1_OUT: usize = 32;

    /// The feature transformer's section hash, as Stockfish computes it.
    pub const fn ft_hash(&self) -> u32 {
        hash::feature_transformer(hash::HALFKA_V2_HM, self.l1)
    }
    /// The hash of each layer stack's section, as Stockfish computes it.
    pub const fn stack_hash(&self) -> u32 {
        hash::network(self.l1, Self::FC0_OUT as u32, Self::FC1_OUT as u32)
    }
    /// The hash in the file header: transformer hash xor stack hash.
    pub const fn file_hash(&self) -> u32 {
        self.ft_hash() ^ self.stack_hash()
    }
}

/// Stockfish 18's threat-input nets: HalfKAv2_hm plus FullThreats inputs -> L1x2 (+ PSQT) ->
/// 8 stacks of (15+1 -> 32 -> 1), the stacks as in [`SfnnArch`].
///
/// The transformer has two row tables: 79856 FullThreats rows of int8 (stored raw) and 22528
/// HalfKAv2_hm rows of int16; the PSQT table covers both, threat rows first (one block in the
/// file). Feature indices of the whole net put the threat features first, as the PSQT does:
/// `0..THREAT_INPUTS` are threats, `THREAT_INPUTS + i` is HalfKAv2_hm feature `i`. The biases
/// are not doubled at load and the transform clamps to 0..255.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ThreatsArch {
    /// Feature-transformer outputs per perspective (a multiple of 64; 1024 in Stockfish 18).
    pub l1: usize,
}

impl ThreatsArch {
    /// FullThreats features.
    pub const THREAT_INPUTS: usize = 79856;
    /// HalfKAv2_hm features.
    pub const PIECE_INPUTS: usize = SfnnArch::INPUTS;
    /// Rows of the whole transformer (threats, then HalfKAv2_hm).
    pub const INPUTS: usize = Self::THREAT_INPUTS + Self::PIECE_INPUTS;

    /// The feature transformer's section hash (FullThreats' hash), as Stockfish computes it.
    pub const fn ft_hash(&self) -> u32 {
        hash::feature_transformer(hash::FULL_THREATS, self.l1)
    }
    /// The hash of each layer stack's section (the same stacks as [`SfnnArch`]).
    pub const fn stack_hash(&self) -> u32 {
        hash::network(self.l1, SfnnArch::FC0_OUT as u32, SfnnArch::FC1_OUT as u32)
    }
    /// The hash in the file header: transformer hash xor stack hash.
    pub const fn file_hash(&self) -> u32 {
        self.ft_hash() ^ self.stack_hash()
    }
}

/// The input features of a Stockfish 19 net.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sf19Inputs {
    /// The big net: Stockfish 19's threats (59808, int8 rows), pawn pairs (4560, int8 rows)
    /// and HalfKAv2_hm (22528, int16 rows).
    Full,
    /// The lite net: 768 piece-square features, mirrored as HalfKAv2_hm (int16 rows).
    Lite,
}

/// Stockfish 19: inputs -> L1x2 (+ 8 PSQT buckets) -> 8 stacks of
/// `fc_0 (L1 -> 32) -> squared ++ clipped (64) -> fc_1 (-> 32) -> squared ++ clipped ->
/// fc_2 (all 128 activations -> 1)`, plus the skip `fc_0[30] - fc_0[31]`.
///
/// Feature indices of the whole net put the int8 rows first, as the file does: threats
/// `0..59808`, pawn pairs `59808..64368`, then the int16 rows (HalfKAv2_hm, or the lite net's
/// 768). One int16 accumulator per perspective sums all of them; the transform clamps to
/// 0..255 and divides the product by 512.
///
/// Stockfish master's SFNNv17 (2026-09-30) is the same net without the PSQT blocks (`psqt`
/// false, `psqt=0` in the text): its file keeps Stockfish 19's version word and hashes, and
/// its value is the positional part alone. The parameters of such a net hold zero PSQT weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Sf19Arch {
    /// Feature-transformer outputs per perspective (a multiple of 64; 1024 in both real nets).
    pub l1: usize,
    /// Which inputs.
    pub inputs: Sf19Inputs,
    /// Whether the file has the PSQT blocks (Stockfish 19) or not (SFNNv17).
    pub psqt: bool,
}

impl Sf19Arch {
    /// Stockfish 19's threat features.
    pub const THREAT_INPUTS: usize = 59808;
    /// Pawn-pair features (`PP_3Wide`): every unordered pair of 96 pawn slots.
    pub const PAIR_INPUTS: usize = 4560;
    /// The lite net's piece-square features.
    pub const LITE_INPUTS: usize = 768;
    /// PSQT output buckets.
    pub const PSQT_BUCKETS: usize = 8;
    /// Layer stacks; a position uses stack `(pieces - 1) / 4`.
    pub const STACKS: usize = 8;
    /// fc_0 outputs (the last two also skip to the output).
    pub const FC0_OUT: usize = 32;
    /// fc_1 inputs: fc_0's squared then clipped activations.
    pub const FC1_IN: usize = 64;
    /// fc_1 outputs.
    pub const FC1_OUT: usize = 32;
    /// fc_2 inputs: fc_0's 64 activations, then fc_1's squared and clipped ones.
    pub const FC2_IN: usize = 128;

    /// Rows of int8 weights (threats, then pawn pairs), first in the feature index.
    pub const fn int8_inputs(&self) -> usize {
        match self.inputs {
            Sf19Inputs::Full => Self::THREAT_INPUTS + Self::PAIR_INPUTS,
            Sf19Inputs::Lite => 0,
        }
    }
    /// Rows of int16 weights (HalfKAv2_hm, or the lite net's piece-square features).
    pub const fn int16_inputs(&self) -> usize {
        match self.inputs {
            Sf19Inputs::Full => SfnnArch::INPUTS,
            Sf19Inputs::Lite => Self::LITE_INPUTS,
        }
    }
    /// All rows of the transformer.
    pub const fn inputs(&self) -> usize {
        self.int8_inputs() + self.int16_inputs()
    }
    /// The feature transformer's section hash, as Stockfish computes it.
    pub const fn ft_hash(&self) -> u32 {
        let set = match self.inputs {
            Sf19Inputs::Full => hash::combine(&[hash::THREATS_19, hash::PAWN_PAIRS, hash::HALFKA_V2_HM]),
            Sf19Inputs::Lite => hash::PSQ_768_HM,
        };
        hash::feature_transformer(set, self.l1)
    }
    /// The hash of each layer stack's section.
    pub const fn stack_hash(&self) -> u32 {
        hash::network(self.l1, Self::FC0_OUT as u32, Self::FC1_OUT as u32)
    }
    /// The hash in the file header: transformer hash xor stack hash.
    pub const fn file_hash(&self) -> u32 {
        self.ft_hash() ^ self.stack_hash()
    }
    /// PSQT buckets the file stores: 8, or 0 for SFNNv17.
    pub const fn psqt_buckets(&self) -> usize {
        if self.psqt {
            Self::PSQT_BUCKETS
        } else {
            0
        }
    }
}

/// Stockfish 12-13: HalfKP -> L1x2 -> 32 -> 32 -> 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HalfKpArch {
    /// Feature-transformer outputs per perspective (256 in Stockfish 12-13's nets).
    pub l1: usize,
}

impl HalfKpArch {
    /// HalfKP features: 64 king squares x 641 (10 piece kinds x 64 squares, plus one).
    pub const INPUTS: usize = 41024;
    /// Outputs of the first dense layer.
    pub const L2: usize = 32;
    /// Outputs of the second dense layer.
    pub const L3: usize = 32;

    /// The feature transformer's section hash, as Stockfish computes it.
    pub const fn ft_hash(&self) -> u32 {
        hash::feature_transformer(hash::HALFKP, self.l1)
    }
    /// The dense layers' section hash, as Stockfish computes it.
    pub const fn network_hash(&self) -> u32 {
        hash::network(self.l1, Self::L2 as u32, Self::L3 as u32)
    }
    /// The hash in the file header: transformer hash xor network hash.
    pub const fn file_hash(&self) -> u32 {
        self.ft_hash() ^ self.network_hash()
    }
}

/// The hidden layer's activation in a headerless net.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Activation {
    /// clamp(x, 0, QA)
    CReLU,
    /// clamp(x, 0, QA)^2, rescaled by QA before the bias is added
    SCReLU,
}

/// The order of a headerless net's output weights in the file (the text's `out=...` option).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum OutputOrder {
    /// `[bucket][2·hidden]`: per bucket, the side to move's weights, then the other side's
    /// (text: no option, or `out=[B][2N]`).
    #[default]
    BucketMajor,
    /// `[2·hidden][bucket]`: per hidden input, one weight per bucket (text: `out=[2N][B]`;
    /// bullet's default save since 2024).
    NeuronMajor,
}

impl OutputOrder {
    /// Position in the file of output weight `input` (0..2·hidden) of `bucket`.
    pub fn file_index(self, bucket: usize, input: usize, hidden: usize, buckets: usize) -> usize {
        match self {
            OutputOrder::BucketMajor => bucket * 2 * hidden + input,
            OutputOrder::NeuronMajor => input * buckets + bucket,
        }
    }
}

/// `(768xK -> N)x2 -> 1xB`: bullet-style headerless nets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Chess768Arch {
    /// King buckets of the input layer (and horizontal mirroring).
    pub kings: KingBuckets,
    /// Hidden neurons per perspective (N).
    pub hidden: usize,
    /// Output buckets (B), chosen by piece count; 1 for a single output.
    pub output_buckets: usize,
    /// The hidden layer's activation.
    pub activation: Activation,
    /// Quantisation of the input layer (typically 255).
    pub qa: i32,
    /// Quantisation of the output layer (typically 64; 1 when the output is not rescaled).
    pub qb: i32,
    /// Output scale: the eval is the output times `scale / (qa * qb)` (typically 400); `None`:
    /// the output as it is (`scale=none`).
    pub scale: Option<i32>,
    /// How the file stores the output weights.
    pub output_order: OutputOrder,
    /// Whose file it is (its record: [`Chess768File::format`]).
    pub file: Chess768File,
}

impl Chess768Arch {
    /// Inputs per king bucket: 2 colours x 6 piece types x 64 squares.
    pub const INPUTS_PER_BUCKET: usize = 768;

    /// All input features: 768 per king bucket.
    pub fn inputs(&self) -> usize {
        Self::INPUTS_PER_BUCKET * self.kings.count()
    }

    /// Bytes of the file without what may follow the last array (bullet's: l0w, l0b, l1w,
    /// l1b, all i16).
    pub fn param_bytes(&self) -> usize {
        self.file.format().bytes(self.sizes())
    }

    /// The sizes its file's size and header words follow from.
    pub fn sizes(&self) -> crate::chess768_format::Sizes {
        crate::chess768_format::Sizes { inputs: self.inputs(), hidden: self.hidden, buckets: self.output_buckets }
    }

    /// The file size with what may follow the last array: bullet pads the parameters to a
    /// multiple of 64 bytes (with zeros, or since March 2024 with `bulletbullet...`).
    pub fn file_bytes(&self) -> usize {
        self.file.format().end.padded(self.param_bytes())
    }
}

impl Architecture {
    /// Number of input features (the feature transformer's rows).
    pub fn inputs(&self) -> usize {
        match self {
            Architecture::Sfnn(_) => SfnnArch::INPUTS,
            Architecture::HalfKp(_) => HalfKpArch::INPUTS,
            Architecture::Chess768(s) => s.inputs(),
            Architecture::Threats(_) => ThreatsArch::INPUTS,
            Architecture::Sf19(a) => a.inputs(),
            Architecture::Layered(a) => a.inputs(),
        }
    }

    /// Accumulator width per perspective.
    pub fn l1(&self) -> usize {
        match self {
            Architecture::Sfnn(a) => a.l1,
            Architecture::HalfKp(a) => a.l1,
            Architecture::Chess768(s) => s.hidden,
            Architecture::Threats(a) => a.l1,
            Architecture::Sf19(a) => a.l1,
            Architecture::Layered(a) => a.l1,
        }
    }

    /// The transformer's section hash and the network's (each layer stack's; HalfKP's one
    /// network), as Stockfish computes them and writes them in its files (the file hash is
    /// their xor); `None` for layouts that are not Stockfish's.
    pub fn stockfish_hashes(&self) -> Option<[u32; 2]> {
        Some(match self {
            Architecture::Sfnn(a) => [a.ft_hash(), a.stack_hash()],
            Architecture::Threats(a) => [a.ft_hash(), a.stack_hash()],
            Architecture::Sf19(a) => [a.ft_hash(), a.stack_hash()],
            Architecture::HalfKp(a) => [a.ft_hash(), a.network_hash()],
            Architecture::Chess768(_) | Architecture::Layered(_) => return None,
        })
    }

    /// Short family name, for messages and generated code.
    pub fn family(&self) -> &'static str {
        match self {
            Architecture::Sfnn(_) => "HalfKAv2_hm",
            Architecture::HalfKp(_) => "HalfKP",
            Architecture::Chess768(_) => "chess768",
            Architecture::Threats(_) => "HalfKAv2_hm+Threats",
            Architecture::Sf19(Sf19Arch { inputs: Sf19Inputs::Full, .. }) => "HalfKAv2_hm+Threats19+PawnPairs",
            Architecture::Sf19(Sf19Arch { inputs: Sf19Inputs::Lite, .. }) => "PSQ768hm",
            Architecture::Layered(_) => "multi-layer",
        }
    }

    /// Shape checks beyond the grammar: sizes the kernels rely on.
    pub fn validate(&self) -> Result<(), ShapeError> {
        let l1 = self.l1();
        match self {
            Architecture::Sfnn(_) | Architecture::HalfKp(_) | Architecture::Threats(_) | Architecture::Sf19(_) => {
                if l1 == 0 || !l1.is_multiple_of(64) || l1 > 16384 {
                    return Err(ShapeError::L1 { got: l1, multiple: 64, max: 16384 });
                }
            }
            Architecture::Chess768(s) => {
                if l1 == 0 || !l1.is_multiple_of(32) || l1 > 16384 {
                    return Err(ShapeError::Hidden { got: l1, multiple: 32, max: 16384 });
                }
                if !(1..=32).contains(&s.output_buckets) {
                    return Err(ShapeError::OutputBuckets { got: s.output_buckets, max: 32 });
                }
                let scale = s.scale.unwrap_or(1);
                if s.qa <= 0 || s.qb <= 0 || scale <= 0 || s.qa > 32767 || s.qb > 32767 {
                    return Err(ShapeError::Quantisation { qa: s.qa, qb: s.qb, scale, max: 32767 });
                }
                if s.file.format().output != crate::chess768_format::OutputStore::Arrays
                    && s.output_order != OutputOrder::BucketMajor
                {
                    return Err(ShapeError::OutputOrderFile { file: s.file });
                }
                s.kings.validate()?;
            }
            Architecture::Layered(a) => a.validate()?,
        }
        Ok(())
    }
}

impl fmt::Display for Architecture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Architecture::Sfnn(a) => write!(
                f,
                "HalfKAv2_hm -> {}x2 -> (15+1 -> {} -> 1)x{}, psqt={}",
                a.l1,
                SfnnArch::FC1_OUT,
                SfnnArch::STACKS,
                SfnnArch::PSQT_BUCKETS
            ),
            Architecture::HalfKp(a) => write!(f, "HalfKP -> {}x2 -> 32 -> 32 -> 1", a.l1),
            Architecture::Threats(a) => write!(
                f,
                "HalfKAv2_hm+Threats -> {}x2 -> (15+1 -> {} -> 1)x{}, psqt={}",
                a.l1,
                SfnnArch::FC1_OUT,
                SfnnArch::STACKS,
                SfnnArch::PSQT_BUCKETS
            ),
            Architecture::Sf19(a) => {
                write!(
                    f,
                    "{} -> {}x2 -> (32 -> 32 -> 1)x{}, psqt={}",
                    self.family(),
                    a.l1,
                    Sf19Arch::STACKS,
                    a.psqt_buckets()
                )
            }
            Architecture::Layered(a) => a.fmt(f),
            Architecture::Chess768(s) => {
                write!(f, "(768")?;
                if s.kings.count > 1 {
                    write!(f, "x{}", s.kings.count)?;
                }
                if s.kings.mirrored {
                    write!(f, "hm")?;
                }
                write!(f, " -> {})x2 -> 1", s.hidden)?;
                if s.output_buckets > 1 {
                    write!(f, "x{}", s.output_buckets)?;
                }
                let act = match s.activation {
                    Activation::CReLU => "crelu",
                    Activation::SCReLU => "screlu",
                };
                match s.scale {
                    Some(scale) => write!(f, ", {act}, qa={}, qb={}, scale={scale}", s.qa, s.qb)?,
                    None => write!(f, ", {act}, qa={}, scale=none", s.qa)?,
                }
                if s.output_order == OutputOrder::NeuronMajor {
                    write!(f, ", out=[2N][B]")?;
                }
                if s.file != Chess768File::Bullet {
                    write!(f, ", file={}", s.file.format().name)?;
                }
                if let Some(map) = s.kings.map() {
                    let list: Vec<String> = map.iter().map(u8::to_string).collect();
                    write!(f, ", kings=[{}]", list.join(","))?;
                }
                Ok(())
            }
        }
    }
}

/// A description that doesn't parse, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad architecture description {:?}{}: {reason}", crate::error::cut_text(text).0, if crate::error::cut_text(text).1 { format!("… ({} bytes)", text.len()) } else { String::new() })]
pub struct ParseArchError {
    /// The description as given.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

impl FromStr for Architecture {
    type Err = ParseArchError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let err = |reason: String| ParseArchError { text: text.to_string(), reason };
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let lower = compact.to_ascii_lowercase();
        let parts = split_top_level(&lower);
        let (shape, options) = parts.split_first().ok_or_else(|| err("empty".into()))?;
        repeated_option(options).map_err(err)?;
        // A preset's name: its description, with the options given replacing or adding.
        if let Some(description) = crate::preset::preset(shape) {
            let own = split_top_level(&description.chars().filter(|c| !c.is_whitespace()).collect::<String>());
            let merged = crate::preset::merge(&own, options, option_sets).join(",");
            return merged.parse().map_err(|e: ParseArchError| err(format!("preset {shape}: {}", e.reason)));
        }
        let sf19 = [("halfkav2_hm+threats19+pawnpairs->", Sf19Inputs::Full), ("psq768hm->", Sf19Inputs::Lite)]
            .into_iter()
            .find_map(|(prefix, inputs)| Some((shape.strip_prefix(prefix)?, inputs)));
        let arch = if let Some((rest, inputs)) = sf19 {
            let l1 = rest.strip_suffix("x2->(32->32->1)x8").ok_or_else(|| {
                err("expected `HalfKAv2_hm+Threats19+PawnPairs -> L1x2 -> (32 -> 32 -> 1)x8` or `PSQ768hm -> ...`"
                    .into())
            })?;
            // psqt=8 (or nothing): Stockfish 19; psqt=0: SFNNv17, the file without PSQT blocks.
            let mut psqt = true;
            for opt in options {
                psqt = match opt.as_str() {
                    "psqt=8" => true,
                    "psqt=0" => false,
                    _ => {
                        return Err(err(format!(
                            "unknown option `{opt}` (Stockfish 19 nets take psqt=8, SFNNv17 nets psqt=0)"
                        )))
                    }
                };
            }
            Architecture::Sf19(Sf19Arch { l1: parse_num(l1).map_err(err)?, inputs, psqt })
        } else if let Some(rest) = shape.strip_prefix("halfkav2_hm+threats->") {
            let l1 = rest
                .strip_suffix("x2->(15+1->32->1)x8")
                .ok_or_else(|| err("expected `HalfKAv2_hm+Threats -> L1x2 -> (15+1 -> 32 -> 1)x8`".into()))?;
            for opt in options {
                if opt != "psqt=8" {
                    return Err(err(format!("unknown option `{opt}` (HalfKAv2_hm+Threats nets take only psqt=8)")));
                }
            }
            Architecture::Threats(ThreatsArch { l1: parse_num(l1).map_err(err)? })
        } else if let Some(rest) = shape.strip_prefix("halfkav2_hm->") {
            let l1 = rest
                .strip_suffix("x2->(15+1->32->1)x8")
                .ok_or_else(|| err("expected `HalfKAv2_hm -> L1x2 -> (15+1 -> 32 -> 1)x8`".into()))?;
            for opt in options {
                if opt != "psqt=8" {
                    return Err(err(format!("unknown option `{opt}` (HalfKAv2_hm nets take only psqt=8)")));
                }
            }
            Architecture::Sfnn(SfnnArch { l1: parse_num(l1).map_err(err)? })
        } else if let Some(rest) = shape.strip_prefix("halfkp->") {
            let l1 = rest
                .strip_suffix("x2->32->32->1")
                .ok_or_else(|| err("expected `HalfKP -> L1x2 -> 32 -> 32 -> 1`".into()))?;
            if let Some(opt) = options.first() {
                return Err(err(format!("unknown option `{opt}` (HalfKP nets take none)")));
            }
            Architecture::HalfKp(HalfKpArch { l1: parse_num(l1).map_err(err)? })
        } else if let Some(rest) = shape.strip_prefix('(').filter(|r| r.contains("->pairwise")) {
            Architecture::Layered(crate::layered::parse_layered(rest, options).map_err(err)?)
        } else if let Some(rest) = shape.strip_prefix("(768") {
            parse_chess768(rest, options).map_err(err)?
        } else {
            return Err(err(format!(
                "expected `HalfKAv2_hm -> ...`, `HalfKAv2_hm+Threats -> ...`, `HalfKAv2_hm+Threats19+PawnPairs -> ...`, \
                 `PSQ768hm -> ...`, `HalfKP -> ...`, `(768 -> N)x2 -> 1, ...` or a preset: {}",
                crate::preset::names()
            )));
        };
        arch.validate().map_err(|e| err(e.to_string()))?;
        Ok(arch)
    }
}

/// What an option sets, for [`repeated_option`]: a `key=value` option its key, a flag its
/// group (`crelu`/`screlu`, `f32`/`i32`; `dual` is `l1act=dual`).
fn option_sets(opt: &str) -> &str {
    match opt.split_once('=') {
        Some((key, _)) => key,
        None => match opt {
            "crelu" | "screlu" => "the activation",
            "f32" | "i32" => "the stack's numbers",
            "dual" => "l1act",
            flag => flag,
        },
    }
}

/// Two options that set the same thing (`crelu, screlu`, `qa=255, qa=181`, or one option
/// twice) are an error naming both: the last one once won silently.
fn repeated_option(options: &[String]) -> Result<(), String> {
    for (i, b) in options.iter().enumerate() {
        if let Some(a) = options[..i].iter().find(|a| option_sets(a) == option_sets(b)) {
            let what = option_sets(b);
            return Err(format!("`{a}` and `{b}` both set {what}: state it once"));
        }
    }
    Ok(())
}

fn parse_chess768(shape_rest: &str, options: &[String]) -> Result<Architecture, String> {
    let shape_err = || "expected `(768[xK][hm] -> N)x2 -> 1[xB]`".to_string();
    let (input, rest) = shape_rest.split_once("->").ok_or_else(shape_err)?;
    let (mut declared_buckets, mut mirrored) = (None, false);
    let mut input = input;
    if let Some(i) = input.strip_suffix("hm") {
        mirrored = true;
        input = i;
    }
    if let Some(k) = input.strip_prefix('x') {
        declared_buckets = Some(parse_num(k)?);
    } else if !input.is_empty() {
        return Err(shape_err());
    }
    let (hidden, out) = rest.split_once(")x2->1").ok_or_else(shape_err)?;
    let hidden = parse_num(hidden)?;
    let output_buckets = match out {
        "" => 1,
        o => parse_num(o.strip_prefix('x').ok_or_else(shape_err)?)?,
    };
    let (mut activation, mut qa, mut qb, mut scale, mut map) = (None, None, None, None, None);
    let (mut output_order, mut file) = (OutputOrder::BucketMajor, Chess768File::Bullet);
    for opt in options {
        match opt.split_once('=') {
            None if opt == "crelu" => activation = Some(Activation::CReLU),
            None if opt == "screlu" => activation = Some(Activation::SCReLU),
            Some(("qa", v)) => qa = Some(parse_i32("qa", v)?),
            Some(("qb", v)) => qb = Some(parse_i32("qb", v)?),
            Some(("scale", "none")) => scale = Some(None),
            Some(("scale", v)) => scale = Some(Some(parse_i32("scale", v)?)),
            Some(("file", v)) => {
                file = Chess768File::by_name(v).ok_or_else(|| {
                    let names: Vec<&str> = crate::chess768_format::CHESS768_FORMATS.iter().map(|f| f.name).collect();
                    format!("file={v}: single-layer files are {}", names.join(", "))
                })?
            }
            Some(("out", v)) => {
                output_order = match v {
                    "[b][2n]" => OutputOrder::BucketMajor,
                    "[2n][b]" => OutputOrder::NeuronMajor,
                    _ => return Err(format!("out={v}: expected out=[B][2N] (the default) or out=[2N][B]")),
                }
            }
            Some(("kings", v)) => map = Some(parse_king_map(v)?),
            _ => return Err(format!("unknown option `{opt}`")),
        }
    }
    let missing = |what: &str| format!("headerless nets must state {what}");
    let kings = king_buckets(declared_buckets, mirrored, map)?;
    let scale = scale.ok_or_else(|| missing("scale=... (or scale=none)"))?;
    let qb = match (scale, qb) {
        (Some(_), qb) => qb.ok_or_else(|| missing("qb=..."))?,
        (None, None) => 1,
        (None, Some(_)) => return Err("qb=... has no use with scale=none (the output is not rescaled)".into()),
    };
    Ok(Architecture::Chess768(Chess768Arch {
        kings,
        hidden,
        output_buckets,
        activation: activation.ok_or_else(|| missing("the activation (crelu or screlu)"))?,
        qa: qa.ok_or_else(|| missing("qa=..."))?,
        qb,
        scale,
        output_order,
        file,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) -> Architecture {
        let arch: Architecture = text.parse().unwrap();
        let again: Architecture = arch.to_string().parse().unwrap();
        assert_eq!(arch, again, "{text}");
        arch
    }

    #[test]
    fn stockfish_forms_round_trip() {
        let a = round_trip("HalfKAv2_hm -> 3072x2 -> (15+1 -> 32 -> 1)x8, psqt=8");
        assert_eq!(a, Architecture::Sfnn(SfnnArch { l1: 3072 }));
        assert_eq!(a.to_string(), "HalfKAv2_hm -> 3072x2 -> (15+1 -> 32 -> 1)x8, psqt=8");
        let t = round_trip("HalfKAv2_hm+Threats -> 1024x2 -> (15+1 -> 32 -> 1)x8, psqt=8");
        assert_eq!(t, Architecture::Threats(ThreatsArch { l1: 1024 }));
        assert_eq!(t.to_string(), "HalfKAv2_hm+Threats -> 1024x2 -> (15+1 -> 32 -> 1)x8, psqt=8");
        assert_eq!(
            round_trip("halfkav2_hm+threats->128x2->(15+1->32->1)x8"),
            Architecture::Threats(ThreatsArch { l1: 128 })
        );
        let big = round_trip("HalfKAv2_hm+Threats19+PawnPairs -> 1024x2 -> (32 -> 32 -> 1)x8, psqt=8");
        assert_eq!(big, Architecture::Sf19(Sf19Arch { l1: 1024, inputs: Sf19Inputs::Full, psqt: true }));
        let v17 = round_trip("HalfKAv2_hm+Threats19+PawnPairs -> 1024x2 -> (32 -> 32 -> 1)x8, psqt=0");
        assert_eq!(v17, Architecture::Sf19(Sf19Arch { l1: 1024, inputs: Sf19Inputs::Full, psqt: false }));
        assert_eq!(v17.to_string(), "HalfKAv2_hm+Threats19+PawnPairs -> 1024x2 -> (32 -> 32 -> 1)x8, psqt=0");
        let lite17 = round_trip("PSQ768hm -> 1024x2 -> (32 -> 32 -> 1)x8, psqt=0");
        assert_eq!(lite17.to_string(), "PSQ768hm -> 1024x2 -> (32 -> 32 -> 1)x8, psqt=0");
        let both = "PSQ768hm -> 1024x2 -> (32 -> 32 -> 1)x8, psqt=8, psqt=0".parse::<Architecture>();
        assert!(both.unwrap_err().to_string().contains("`psqt=8` and `psqt=0` both set psqt"));
        assert_eq!(big.to_string(), "HalfKAv2_hm+Threats19+PawnPairs -> 1024x2 -> (32 -> 32 -> 1)x8, psqt=8");
        assert_eq!(big.inputs(), 59808 + 4560 + 22528);
        let lite = round_trip("psq768hm->1024x2->(32->32->1)x8");
        assert_eq!(lite.to_string(), "PSQ768hm -> 1024x2 -> (32 -> 32 -> 1)x8, psqt=8");
        assert_eq!(lite.inputs(), 768);
        let h = round_trip("halfkp->256x2->32->32->1");
        assert_eq!(h.to_string(), "HalfKP -> 256x2 -> 32 -> 32 -> 1");
    }

    #[test]
    fn chess768_forms_round_trip() {
        let a = round_trip("(768 -> 1024)x2 -> 1, screlu, qa=255, qb=64, scale=400");
        assert_eq!(a.to_string(), "(768 -> 1024)x2 -> 1, screlu, qa=255, qb=64, scale=400");
        let map = (0..32).map(|i| (i / 8).to_string()).collect::<Vec<_>>().join(",");
        let b = round_trip(&format!("(768x4hm -> 512)x2 -> 1x8, crelu, qa=181, qb=64, scale=400, kings=[{map}]"));
        let Architecture::Chess768(s) = b else { panic!() };
        assert_eq!((s.kings.count(), s.inputs(), s.output_buckets), (4, 3072, 8));
        round_trip("(768hm -> 64)x2 -> 1, crelu, qa=255, qb=64, scale=400");
    }

    /// `scale=none` and `file=` print and parse back; the options that don't go with them are
    /// refused.
    #[test]
    fn unscaled_output_and_file_round_trip() {
        let t = round_trip("(768hm -> 64)x2 -> 1x8, crelu, qa=255, scale=none");
        assert_eq!(t.to_string(), "(768hm -> 64)x2 -> 1x8, crelu, qa=255, scale=none");
        let Architecture::Chess768(s) = t else { panic!() };
        assert_eq!((s.scale, s.qb, s.file), (None, 1, Chess768File::Bullet));
        // The sum and its bias, not multiplied or divided after.
        let layers = t.layers().to_string();
        assert!(layers.trim_end().ends_with("r4 = r1 + out.b\npositional = r4"), "{layers}");
        let b = round_trip("(768 -> 64)x2 -> 1, crelu, qa=255, qb=64, scale=400, file=bullet");
        assert_eq!(b.to_string(), "(768 -> 64)x2 -> 1, crelu, qa=255, qb=64, scale=400");
        for (text, why) in [
            ("(768 -> 64)x2 -> 1, crelu, qa=255, qb=64, scale=none", "qb=... has no use with scale=none"),
            ("(768 -> 64)x2 -> 1, crelu, qa=255, qb=64", "must state scale=... (or scale=none)"),
            ("(768 -> 64)x2 -> 1, crelu, qa=255, scale=none, file=stockfish", "single-layer files are bullet"),
        ] {
            let e = text.parse::<Architecture>().unwrap_err().to_string();
            assert!(e.contains(why), "{text}: {e}");
        }
    }

    #[test]
    fn output_order_round_trips() {
        let t = round_trip("(768hm -> 1024)x2 -> 1x8, screlu, qa=255, qb=64, scale=400, out=[2N][B]");
        assert_eq!(t.to_string(), "(768hm -> 1024)x2 -> 1x8, screlu, qa=255, qb=64, scale=400, out=[2N][B]");
        let Architecture::Chess768(s) = t else { panic!() };
        assert_eq!(s.output_order, OutputOrder::NeuronMajor);
        assert_eq!(s.file_bytes(), 1_607_744); // pawnocchio's net's size: the order changes no size
                                               // The default order may be written out; it prints as nothing.
        let d = round_trip("(768 -> 512)x2 -> 1x8, crelu, qa=255, qb=64, scale=400, OUT = [B][2N]");
        assert_eq!(d.to_string(), "(768 -> 512)x2 -> 1x8, crelu, qa=255, qb=64, scale=400");
        let Architecture::Chess768(d) = d else { panic!() };
        assert_eq!(d.output_order, OutputOrder::BucketMajor);
        // Bucket 1's input 3, of 8 buckets and 2·32 inputs, in either order.
        assert_eq!(OutputOrder::BucketMajor.file_index(1, 3, 32, 8), 67);
        assert_eq!(OutputOrder::NeuronMajor.file_index(1, 3, 32, 8), 25);
    }

    #[test]
    fn king_buckets_are_one_table() {
        // A one-bucket list is the same net as none: it prints without it.
        let zeros = vec!["0"; 32].join(",");
        let a = round_trip(&format!("(768x1hm -> 64)x2 -> 1, crelu, qa=255, qb=64, scale=400, kings=[{zeros}]"));
        assert_eq!(a.to_string(), "(768hm -> 64)x2 -> 1, crelu, qa=255, qb=64, scale=400");
    }

    #[test]
    fn a_huge_bad_description_is_cut_in_the_message() {
        let text = format!("HalfKA -> {}", "\u{1b}[2J".repeat(1_000_000));
        let e = text.parse::<Architecture>().unwrap_err().to_string();
        assert!(e.len() < 1000 && !e.contains('\u{1b}'), "{} bytes", e.len());
        assert!(e.contains("… (4000010 bytes): expected"), "{e}");
    }

    /// Contradictory or repeated options were accepted, the last one winning: each is an error
    /// naming both options now, in every family's grammar.
    #[test]
    fn contradictory_or_repeated_options_are_errors_naming_both() {
        let chess768 = "(768 -> 64)x2 -> 1, crelu, qa=255, qb=64, scale=400";
        let layered =
            "(768 -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, l1mul=512/4161600, scale=400, file=bullet";
        let i32_layered =
            "(704 -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, l1shift=8, scale=400, file=cbnf";
        assert!(chess768.parse::<Architecture>().is_ok() && layered.parse::<Architecture>().is_ok());
        assert!(i32_layered.parse::<Architecture>().is_ok());
        for (base, extra, first, second) in [
            (chess768, "screlu", "crelu", "screlu"),
            (chess768, "qa=181", "qa=255", "qa=181"),
            (chess768, "crelu", "crelu", "crelu"),
            (chess768, "out=[2n][b], out=[b][2n]", "out=[2n][b]", "out=[b][2n]"),
            (layered, "i32", "f32", "i32"),
            (layered, "f32", "f32", "f32"),
            (layered, "file=cbnf", "file=bullet", "file=cbnf"),
            (layered, "l1sums=i16pairs, l1sums=exact", "l1sums=i16pairs", "l1sums=exact"),
            (layered, "buckets=material, buckets=(63-p)(32-p)/225", "buckets=material", "buckets=(63-p)(32-p)/225"),
            (layered, "scale=200", "scale=400", "scale=200"),
            (i32_layered, "l1act=screlu", "dual", "l1act=screlu"),
            (i32_layered, "q=128", "q=64", "q=128"),
            ("HalfKAv2_hm -> 128x2 -> (15+1 -> 32 -> 1)x8, psqt=8", "psqt=8", "psqt=8", "psqt=8"),
        ] {
            let text = format!("{base}, {extra}");
            let Err(e) = text.parse::<Architecture>() else { panic!("{text}: accepted") };
            assert!(e.reason.contains(&format!("`{first}` and `{second}`")), "{text}: {e}");
        }
        // A bucket table naming a bucket the stack lacks, for any piece count.
        let table = format!("buckets=[99,99,{}]", ["0"; 31].join(","));
        let e = format!("{layered}, {table}").parse::<Architecture>().unwrap_err().reason;
        assert!(e.contains("bucket 99") && e.contains("0 pieces"), "{e}");
    }

    /// The shape checks name the check and carry the numbers; the parser reports their text.
    #[test]
    fn validate_names_the_failed_check() {
        let e = Architecture::Sfnn(SfnnArch { l1: 100 }).validate().unwrap_err();
        assert!(matches!(e, ShapeError::L1 { got: 100, multiple: 64, max: 16384 }), "{e:?}");
        assert_eq!(e.to_string(), "L1 = 100: must be a positive multiple of 64, at most 16384");
        assert!(Architecture::HalfKp(HalfKpArch { l1: 256 }).validate().is_ok());
        let good: Architecture = "(768 -> 512)x2 -> 1x8, crelu, qa=255, qb=64, scale=400".parse().unwrap();
        let Architecture::Chess768(s) = good else { panic!() };
        let e = Architecture::Chess768(Chess768Arch { hidden: 30, ..s }).validate().unwrap_err();
        assert!(matches!(e, ShapeError::Hidden { got: 30, multiple: 32, .. }), "{e:?}");
        assert_eq!(e.to_string(), "hidden size 30: must be a positive multiple of 32, at most 16384");
        let e = Architecture::Chess768(Chess768Arch { output_buckets: 33, ..s }).validate().unwrap_err();
        assert_eq!(e, ShapeError::OutputBuckets { got: 33, max: 32 });
        assert_eq!(e.to_string(), "33 output buckets: must be 1 to 32");
        let e = Architecture::Chess768(Chess768Arch { qb: 0, ..s }).validate().unwrap_err();
        assert!(matches!(e, ShapeError::Quantisation { qa: 255, qb: 0, scale: 400, max: 32767 }), "{e:?}");
        assert_eq!(e.to_string(), "qa, qb and scale must be positive (qa, qb at most 32767)");
        let kings = KingBuckets { count: 2, ..KingBuckets::SINGLE };
        let e = Architecture::Chess768(Chess768Arch { kings, ..s }).validate().unwrap_err();
        assert_eq!(e, ShapeError::UnusedKingBucket { bucket: 1 });
        // The description parser's message is the check's.
        let e = "(768 -> 30)x2 -> 1, crelu, qa=255, qb=64, scale=400".parse::<Architecture>().unwrap_err();
        assert!(e.to_string().ends_with(": hidden size 30: must be a positive multiple of 32, at most 16384"), "{e}");
    }

    #[test]
    fn bad_descriptions_say_why() {
        for (text, why) in [
            ("(768 -> 1024)x2 -> 1, qa=255, qb=64, scale=400", "activation"),
            ("(768 -> 1000)x2 -> 1, crelu, qa=255, qb=64, scale=400", "multiple of 32"),
            ("(768x2 -> 64)x2 -> 1, crelu, qa=255, qb=64, scale=400", "needs kings"),
            ("HalfKAv2_hm -> 100x2 -> (15+1 -> 32 -> 1)x8", "multiple of 64"),
            ("HalfKAv2_hm+Threats -> 96x2 -> (15+1 -> 32 -> 1)x8", "multiple of 64"),
            ("HalfKAv2_hm+Threats -> 1024x2 -> (15+1 -> 32 -> 1)x8, psqt=4", "unknown option"),
            ("HalfKA -> 512x2", "expected"),
            ("(768 -> 64)x2 -> 1, crelu, qa=255, qb=64, scale=400, foo=1", "unknown option"),
            // 2^32 + 255 once read as 255 (truncated to 32 bits).
            ("(768 -> 64)x2 -> 1, crelu, qa=4294967551, qb=64, scale=400", "qa=4294967551 is out of range"),
            ("(768 -> 64)x2 -> 1, crelu, qa=255, qb=4294967360, scale=400", "qb=4294967360 is out of range"),
            ("(768 -> 64)x2 -> 1, crelu, qa=255, qb=64, scale=4294967696", "scale=4294967696 is out of range"),
            ("(768 -> 64)x2 -> 1, crelu, qa=255, qb=64, scale=2147483648", "scale=2147483648 is out of range"),
            ("(768 -> 64)x2 -> 1, crelu, qa=99999999999999999999999, qb=64, scale=400", "out of range"),
            ("HalfKP -> 18446744073709551680x2 -> 32 -> 32 -> 1", "out of range"),
            ("(768 -> 64)x2 -> 1x4294967297, crelu, qa=255, qb=64, scale=400", "output buckets"),
            ("(768x2hm -> 64)x2 -> 1, crelu, qa=255, qb=64, scale=400, kings=[0,1]", "2 entries, expected 32"),
            ("(768x2 -> 64)x2 -> 1, crelu, qa=255, qb=64, scale=400, kings=[70]", "1 entries, expected 64"),
            ("(768 -> 64)x2 -> 1, crelu, qa=255, qb=64, scale=400, out=transposed", "expected out=[B][2N]"),
        ] {
            let e = text.parse::<Architecture>().unwrap_err();
            assert!(e.to_string().contains(why), "{text}: {e}");
        }
    }
}
