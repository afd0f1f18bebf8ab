//! Multi-layer nets as bullet-trained engines ship them, described layer by layer:
//!
//! ```text
//! (768x16hm -> 1536)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x8, f32, dual, l1mul=1024/4161600,
//!     scale=362, buckets=(63-p)(32-p)/225, file=alexandria, kings=[...]
//! (704x16hm -> 1792)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, l1shift=...,
//!     scale=400, file=cbnf, kings=[...]
//! ```
//!
//! The stages, in order (every path computes exactly this):
//!
//! 1. **Inputs.** `768xK[hm]`: chess-768 with K king buckets (the `kings=[...]` table) and
//!    horizontal mirroring; `704xK[hm]`: the same with both kings on one plane (the other
//!    side's king takes the own king's plane, 5: feature `64·5 + square`), as Stormphrax's
//!    merged-king sets. `threats=reckless` (Reckless's threat features) or
//!    `threats=pawnpairs+sf19` (Stockfish 19's pawn pairs and threats: PlentyChess's) puts
//!    board features, int8 rows, ahead of `768xKhm`'s; `threats=custom:N` the engine's own,
//!    alone or after either (`threats=pawnpairs+sf19+custom:N`): see [`ThreatInputs`].
//! 2. **Transformer.** int16 rows summed into one int16 accumulator per perspective, wrapping.
//! 3. **Pairwise activation** `pairwise>>S`: per perspective (side to move's first), for
//!    `i < L1/2`: `clamp(a[i], 0, 255) · clamp(a[i + L1/2], 0, 255) >> S`, a byte; L1 bytes in
//!    all. `ftmax=127, ftround` with `pairwise>>7` (cinder's): `(clamp(a[i], 0, 127) ·
//!    clamp(a[i + L1/2], 0, 127) + 64) >> 7`.
//! 4. **Sparse int8 layer** L1 → L2 per output bucket: `s[j] = Σ x[i] · w[j][i]` in int32.
//!    `l1sums=i16pairs` (Integral's; `l1sums=exact`, the default, is the plain sum): the non-zero 4-byte groups of `x` are listed in order
//!    and taken two at a time; for each pair and output, bytes 0–1 of each group give one
//!    int16 `maddubs` lane (two products, saturated), the two groups' lanes are added in
//!    int16, wrapping, and so for bytes 2–3; the two sums are widened and added to `s[j]`. A
//!    last unpaired group adds its two lanes. With small weights this is the exact sum; with
//!    large ones it wraps where the exact sum does not, as the engine does.
//! 5. **Its activation** `l1act=` (`dual` is short for `l1act=dual`; `screlu` unless said), in
//!    the stack's numbers:
//!    - `f32`: `z = fma(s, l1mul, bias)` (one rounding, `l1mul` the f32 quotient of the two
//!      integers); `dual` gives `[clamp(z, 0, 1); L2] ++ [min(z², 1); L2]`, `screlu`
//!      `clamp(z, 0, 1)²`, `crelu` `clamp(z, 0, 1)`, `hardswish` `z · clamp(z + 3, 0, 6) ·
//!      (1/6)` (in that order, `1/6` the f32 quotient; Viridithas's), `signedsquare`
//!      `[max(z, 0)²] ++ [min(z, 0)²]` (cinder's, doubling the width);
//!    - `i32`: `o = (s >> l1shift) + bias`; `dual` gives `[clamp(o, 0, Q) · Q; L2] ++
//!      [min(o·o, Q²); L2]` (wrapping product), `screlu` `clamp(o, 0, Q)²`.
//! 6. **Dense layer** L2 (·2 when dual) → L3: `f32`: each output starts at its bias and adds
//!    `fma(x[i], w[k][i], ·)` for `i` in order (`l2chains=K`, cinder's: K chains from 0, chain
//!    k over `i ≡ k mod K`, then `bias + ((0 + c0) + c1) + …`), then `l2act=`: `clamp(y, 0, 1)²` (`screlu`,
//!    unless said), `clamp(y, 0, 1)` (`crelu`) or `swiglu` (`hardswish(y[i]) · y[i + L3/2]`
//!    for `i < L3/2`, halving the width: Viridithas's); then with `residual` the dense
//!    layer's input added (`a[i] + x[i]`, as wide); `i32`: `y = bias + Σ x[i] · w[k][i]`
//!    wrapping, then `clamp(y, 0, Q³)` (`crelu`, the only one). No engine computes the other
//!    i32 activations, so they are refused rather than guessed. `(L2 -> L3 -> L3B -> 1)`
//!    (f32, cinder's): a second dense layer L3 (x2) → L3B, summed and activated alike.
//! 7. **Output** L3 (L3/2 after `swiglu`) → 1 (with `skip`, f32 only: over the dense layer's values then the
//!    sparse layer's activation, `L3 + L2 (x2)` inputs, PlentyChess's): `f32`: 16 lane sums, lane `j` taking inputs `j, j + 16, ...` in order
//!    (`x·w`, then `fma`), the lanes halved four times (`p[j] + p[j + half]`), the bias added
//!    last, then `(out · scale) as i32` (truncating; Alexandria's AVX2 order); `outlanes=W`
//!    (cinder's): [`LanesF32`](crate::layers::step::LanesF32)'s W lanes, the skip inputs its
//!    residual part; `outclamp=V` then clamps the integer to `±V`; `i32`:
//!    `out = bias + Σ clamp(y, 0, Q³) · w` (wrapping), then `(out / Q) · scale / Q³` (int32,
//!    each division truncating; Stormphrax's).
//!
//! The output bucket is `buckets=material` (bullet's `MaterialCount<B>`:
//! `(pieces − 2) / ceil(32 / B)`), `buckets=(63-p)(32-p)/225` (Alexandria's:
//! `min((63 − p)(32 − p) / 225, 7)`, p the piece count with kings) or a table
//! `buckets=[b0,…,b32]` by piece count (Reckless's).

pub(crate) mod file;
pub mod format;
pub(crate) mod header;
pub(crate) mod mirror;

pub use format::FileLayout;

use std::fmt;

use crate::grammar::parse_num;
use crate::kings::{king_buckets, parse_king_map, KingBuckets};
use crate::ShapeError;

/// A multi-layer net's shape and arithmetic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LayeredArch {
    /// King buckets of the input layer (and horizontal mirroring).
    pub kings: KingBuckets,
    /// Threat inputs before the piece-square ones (`threats=`), int8 rows; none unless said.
    pub threats: Option<ThreatInputs>,
    /// Both kings on one plane (704 inputs per king bucket instead of 768).
    pub merged_kings: bool,
    /// Transformer width per perspective.
    pub l1: usize,
    /// Outputs of the sparse int8 layer.
    pub l2: usize,
    /// Outputs of the dense layer.
    pub l3: usize,
    /// Output buckets.
    pub buckets: usize,
    /// How the output bucket is chosen.
    pub bucket_rule: BucketRule,
    /// The pairwise product's right shift.
    pub ft_shift: u32,
    /// The pairwise factors' clamp (`ftmax=`; 255 unless said).
    pub ft_max: i32,
    /// The pairwise product rounded before its shift (`ftround`: `(a·b + 2^(S−1)) >> S`,
    /// cinder's `mulhrs`), else truncated.
    pub ft_round: bool,
    /// A second f32 dense layer after the first (`(L2 -> L3 -> L3B -> 1)`), with the first's
    /// activation: its outputs (cinder's).
    pub l3b: Option<usize>,
    /// The f32 dense layers' sums in this many fma chains (`l2chains=K`: chain `k` the inputs
    /// `i ≡ k mod K` in order from 0, then `bias + (((c0 + c1) + c2) + …)`, cinder's); 0, unless
    /// said: one chain from the bias.
    pub dense_chains: u32,
    /// The f32 output layer over this many lanes (`outlanes=W`, cinder's; see
    /// [`LanesF32`](crate::layers::step::LanesF32)); 0, unless said: 16 lanes halved.
    pub out_lanes: u32,
    /// The final value clamped to `±M` after its conversion (`outclamp=M`, cinder's
    /// `Value`), if said.
    pub out_clamp: Option<i32>,
    /// The sparse layer's activation (`l1act=`; `dual` doubles the dense layer's inputs).
    pub l1_act: Act,
    /// The output layer reads the sparse layer's activation after the dense layer's
    /// (`skip`: PlentyChess's), `L3 + L2 (x2)` inputs.
    pub skip: bool,
    /// The dense layer's activation plus its input (`residual`: Viridithas's), which must be
    /// as wide.
    pub residual: bool,
    /// The dense layer's activation (`l2act=`).
    pub l2_act: Act,
    /// How the sparse layer sums (`l1sums=`).
    pub l1_sums: L1Sums,
    /// The numbers of the layers after the sparse one.
    pub numbers: Numbers,
    /// The final multiplier.
    pub scale: i32,
    /// How the file stores the net.
    pub file: FileLayout,
}

/// A multi-layer net's threat inputs (`threats=`): one feature per (attacker, its square,
/// attacked piece, its square), oriented as the perspective's piece-square features are (its
/// colour up the board, mirrored with its king on files e–h), int8 rows ahead of the
/// piece-square ones. Each engine defines its own set; the runtime's feature sets name
/// exactly which pairs each has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ThreatInputs {
    /// Reckless's (`threats=reckless`): Stockfish 18's FullThreats pairs without those
    /// whose attacked piece is a king, 66864 features.
    Reckless,
    /// PlentyChess's (`threats=pawnpairs+sf19`, Viridithas's too): Stockfish 19's pawn pairs
    /// (4560), then Stockfish 19's threats (59808).
    PawnPairsSf19,
    /// The engine's own board features (`threats=custom:N`, N of them), computed by its
    /// [`InputBlock`](crate::features::InputBlock): unbound as a description gives it,
    /// bound by [`Net::bind_block`](crate::Net::bind_block) or `nnue_net!(…, block = PATH)`.
    Custom(crate::features::CustomBlock),
    /// Reckless's threats, then the engine's own block (`threats=reckless+custom:N`).
    RecklessPlus(crate::features::CustomBlock),
    /// Stockfish 19's pawn pairs and threats, then the engine's own block
    /// (`threats=pawnpairs+sf19+custom:N`).
    PawnPairsSf19Plus(crate::features::CustomBlock),
}

impl ThreatInputs {
    /// Number of features.
    pub const fn inputs(self) -> usize {
        match self {
            ThreatInputs::Reckless => 66864,
            ThreatInputs::PawnPairsSf19 => 4560 + 59808,
            ThreatInputs::Custom(block) => block.inputs(),
            ThreatInputs::RecklessPlus(block) => ThreatInputs::Reckless.inputs() + block.inputs(),
            ThreatInputs::PawnPairsSf19Plus(block) => ThreatInputs::PawnPairsSf19.inputs() + block.inputs(),
        }
    }

    /// The library's part (`reckless`, `pawnpairs+sf19`), if any.
    pub const fn library(self) -> Option<ThreatInputs> {
        match self {
            ThreatInputs::Reckless | ThreatInputs::RecklessPlus(_) => Some(ThreatInputs::Reckless),
            ThreatInputs::PawnPairsSf19 | ThreatInputs::PawnPairsSf19Plus(_) => Some(ThreatInputs::PawnPairsSf19),
            ThreatInputs::Custom(_) => None,
        }
    }

    /// The engine's own block, if any: its rows come after the library's.
    pub const fn custom(self) -> Option<crate::features::CustomBlock> {
        match self {
            ThreatInputs::Custom(block)
            | ThreatInputs::RecklessPlus(block)
            | ThreatInputs::PawnPairsSf19Plus(block) => Some(block),
            ThreatInputs::Reckless | ThreatInputs::PawnPairsSf19 => None,
        }
    }

    /// The engine's own block, to bind it.
    pub(crate) fn custom_mut(&mut self) -> Option<&mut crate::features::CustomBlock> {
        match self {
            ThreatInputs::Custom(block)
            | ThreatInputs::RecklessPlus(block)
            | ThreatInputs::PawnPairsSf19Plus(block) => Some(block),
            ThreatInputs::Reckless | ThreatInputs::PawnPairsSf19 => None,
        }
    }

    /// The file layouts that store these rows.
    pub(crate) fn files(self) -> impl Iterator<Item = FileLayout> {
        format::FORMATS.iter().map(|f| f.layout).filter(move |&f| self.stored_by(f))
    }

    /// Whether `file` stores these rows: the engine's own wherever a file stores board inputs.
    pub(crate) fn stored_by(self, file: FileLayout) -> bool {
        let stored = file.format().threats;
        match self.library() {
            Some(library) => stored.contains(&library),
            None => !stored.is_empty(),
        }
    }

    /// The layouts that store them, for messages.
    pub(crate) fn file_names(self) -> String {
        self.files().map(|f| format!("file={}", f.name())).collect::<Vec<_>>().join(" or ")
    }
}

impl fmt::Display for ThreatInputs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.library() {
            Some(ThreatInputs::Reckless) => f.write_str("reckless")?,
            Some(_) => f.write_str("pawnpairs+sf19")?,
            None => {}
        }
        match (self.library(), self.custom()) {
            (Some(_), Some(block)) => write!(f, "+custom:{}", block.inputs()),
            (None, Some(block)) => write!(f, "custom:{}", block.inputs()),
            (_, None) => Ok(()),
        }
    }
}

/// `threats=`'s value: the library's sets, the engine's own block (`custom:N`), or a library
/// set followed by the engine's block (`reckless+custom:N`, `pawnpairs+sf19+custom:N`).
fn parse_threats(v: &str) -> Result<ThreatInputs, String> {
    let (library, custom) = match v.find("custom:") {
        Some(at) => {
            let n = parse_u32("N", &v[at + "custom:".len()..]).map_err(|e| format!("threats={v}: {e}"))? as usize;
            if n == 0 {
                return Err("threats=custom:N takes N > 0 features".into());
            }
            let library = if at == 0 { "" } else { v[..at].strip_suffix('+').unwrap_or("?") };
            (library, Some(crate::features::CustomBlock::unbound(n)))
        }
        None => (v, None),
    };
    Ok(match (library, custom) {
        ("reckless", None) => ThreatInputs::Reckless,
        ("pawnpairs+sf19", None) => ThreatInputs::PawnPairsSf19,
        ("", Some(block)) => ThreatInputs::Custom(block),
        ("reckless", Some(block)) => ThreatInputs::RecklessPlus(block),
        ("pawnpairs+sf19", Some(block)) => ThreatInputs::PawnPairsSf19Plus(block),
        _ => {
            return Err(format!(
                "threats={v}: expected threats=reckless, threats=pawnpairs+sf19 or threats=custom:N \
                 (N features of the engine's own), the last after either of the others \
                 (threats=pawnpairs+sf19+custom:N)"
            ))
        }
    })
}

/// The numbers of the layers after the sparse int8 one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Numbers {
    /// float32, the sparse layer's sums multiplied by `num / den` (as an f32 quotient).
    F32 {
        /// Numerator of the sparse layer's dequantisation factor.
        num: u32,
        /// Denominator of the sparse layer's dequantisation factor.
        den: u32,
    },
    /// int32 with one = `Q` (a power of two) after the sparse layer, `Q²` after the
    /// activation, `Q³` after the dense layer.
    I32 {
        /// log2 of Q.
        q_bits: u32,
        /// The sparse layer's sums are shifted right by this before the bias.
        l1_shift: u32,
        /// Stormphrax 8's quantisation (`wide`, its PR #342): the sparse layer's activation
        /// in Q² units (`[clamp(o, 0, Q²)] ++ [min(o·o, Q⁴) >> 2q]` into the dense layer), the
        /// output `(bias + sum) · scale / Q⁴` in 64 bits.
        wide: bool,
    },
}

/// How the sparse layer adds its products (`l1sums=`): exactly, or as an engine's AVX2 build
/// does, adding two listed 4-byte groups' `maddubs` int16 lanes in int16 (wrapping) before
/// widening. They differ only where those int16 sums wrap, which large sparse weights can make
/// happen on ordinary positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum L1Sums {
    /// `exact` (the default; VNNI builds).
    #[default]
    Exact,
    /// `i16pairs`: the listed groups two at a time, in order (Integral's, and Reckless's and
    /// PlentyChess's AVX2 builds).
    I16Pairs,
    /// `viridithas-avx2`: the neurons in Viridithas's fixed order
    /// ([`VIRIDITHAS_ORDER`](crate::layers::step::VIRIDITHAS_ORDER)), then the listed groups
    /// four at a time, paired within each four, the last `n mod 4` alone (L1 1024 only).
    ViridithasAvx2,
}

/// An activation after the sparse (`l1act=`) or the dense layer (`l2act=`), in the stack's
/// numbers (one = 1.0 in f32, Q² after the sparse layer and Q³ after the dense one in i32).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Act {
    /// `clamp(x, 0, one)`.
    Crelu,
    /// `clamp(x, 0, one)²`.
    Screlu,
    /// Both: `[clamp(x, 0, one)] ++ [min(x², one)]` (only after the sparse layer).
    Dual,
    /// `x · clamp(x + 3, 0, 6) · (1/6)` (f32 only; Viridithas's hard-swish).
    HardSwish,
    /// `hardswish(x[i]) · x[i + n/2]` for `i < n/2` (f32, after the dense layer only:
    /// Viridithas's SwiGLU), halving the width.
    Swiglu,
    /// `[max(x, 0)²] ++ [min(x, 0)²]` (f32 only; cinder's), doubling the width.
    SignedSquare,
}

impl Act {
    fn name(self) -> &'static str {
        match self {
            Act::Crelu => "crelu",
            Act::Screlu => "screlu",
            Act::Dual => "dual",
            Act::HardSwish => "hardswish",
            Act::Swiglu => "swiglu",
            Act::SignedSquare => "signedsquare",
        }
    }

    /// What the dense layer's activation is unless the description says: f32 stacks square
    /// it (Alexandria's), i32 stacks clip it (Stormphrax's).
    pub fn l2_default(numbers: Numbers) -> Act {
        match numbers {
            Numbers::F32 { .. } => Act::Screlu,
            Numbers::I32 { .. } => Act::Crelu,
        }
    }
}

/// How the output bucket follows from the piece count (kings included).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BucketRule {
    /// bullet's `MaterialCount<B>`: `(pieces - 2) / ceil(32 / B)`.
    Material,
    /// Alexandria's: `min((63 - pieces) * (32 - pieces) / 225, 7)`.
    Alexandria,
    /// A table by piece count (`buckets=[b0,b1,...,b32]`, entry `p` the bucket of `p`
    /// pieces), as Reckless's `OUTPUT_BUCKETS_LAYOUT`.
    Table([u8; 33]),
}

impl BucketRule {
    /// The bucket of a position with `pieces` pieces (2..=32) among `buckets`.
    pub fn bucket(self, pieces: usize, buckets: usize) -> usize {
        match self {
            BucketRule::Material => (pieces - 2) / 32usize.div_ceil(buckets),
            BucketRule::Alexandria => ((63 - pieces) * (32 - pieces) / 225).min(7),
            BucketRule::Table(t) => usize::from(t[pieces]),
        }
    }
}

impl Numbers {
    /// The largest Q of int32 stacks (Q = 2^q_bits, from 2 to 1024: Q³ fits an i32), the one
    /// rule of the description parser, `Layers::check_fits` (for `compute =` and
    /// `Evaluator::with_layers`) and run-time loading.
    pub const MAX_Q_BITS: u32 = 10;

    /// Whether the constants are in the ranges the arithmetic takes without overflowing a
    /// shift: `num`, `den` positive; Q from 2 to 2^[`MAX_Q_BITS`](Self::MAX_Q_BITS), the shift
    /// below 32.
    pub fn in_range(&self) -> bool {
        match *self {
            Numbers::F32 { num, den } => num > 0 && den > 0,
            // `wide`: Q⁴ fits an i32.
            Numbers::I32 { q_bits, l1_shift, wide } => {
                (1..=if wide { 7 } else { Self::MAX_Q_BITS }).contains(&q_bits) && l1_shift <= 31
            }
        }
    }
}

impl LayeredArch {
    /// The pairwise shifts the kernels take: pairwise bytes stay below 128, so `maddubs` pairs
    /// never saturate, and the factor shifted before `mulhi` fits an i16.
    pub const FT_SHIFTS: std::ops::RangeInclusive<u32> = 9..=15;

    /// Piece-square input features per king bucket.
    pub fn inputs_per_bucket(&self) -> usize {
        if self.merged_kings {
            704
        } else {
            768
        }
    }

    /// Rows of int8 weights (the threat inputs), first in the feature index.
    pub fn int8_inputs(&self) -> usize {
        self.threats.map_or(0, ThreatInputs::inputs)
    }

    /// Rows of int16 weights: the piece-square inputs of every king bucket.
    pub fn int16_inputs(&self) -> usize {
        self.inputs_per_bucket() * self.kings.count()
    }

    /// All input features: threats, then piece-square.
    pub fn inputs(&self) -> usize {
        self.int8_inputs() + self.int16_inputs()
    }

    /// The dense layer's inputs: L2, doubled by a dual activation or a signed square.
    pub fn l2_full(&self) -> usize {
        self.l2 * if self.dual() || self.l1_act == Act::SignedSquare { 2 } else { 1 }
    }

    /// The width of the dense activation of `n` values: halved by `swiglu`, doubled by
    /// `signedsquare`.
    fn act_width(&self, n: usize) -> usize {
        match self.l2_act {
            Act::Swiglu => n / 2,
            Act::SignedSquare => 2 * n,
            _ => n,
        }
    }

    /// The output layer's inputs: L3, and the sparse layer's activation after them with `skip`
    /// in f32 stacks (i32 stacks add it to the L3 values: as many).
    pub fn l3_inputs(&self) -> usize {
        self.last_act_width() + if self.skip && self.concat_skip() { self.l2_full() } else { 0 }
    }

    /// The width of the dense layer's activation: L3, halved by `l2act=swiglu`, doubled by
    /// `l2act=signedsquare`.
    pub fn dense_act_width(&self) -> usize {
        self.act_width(self.l3)
    }

    /// The width of the last dense layer's activation (the second's with `l3b`).
    pub fn last_act_width(&self) -> usize {
        self.act_width(self.l3b.unwrap_or(self.l3))
    }

    /// The skip connection joins the sparse layer's activation to the dense layer's output
    /// (f32, PlentyChess's), rather than adding it (i32, Stormphrax's).
    pub fn concat_skip(&self) -> bool {
        matches!(self.numbers, Numbers::F32 { .. })
    }

    /// The sparse layer's activation is dual (linear ⊕ squared).
    pub fn dual(&self) -> bool {
        self.l1_act == Act::Dual
    }

    /// The file's size: the header (if the layout has one) and the arrays, padded to 64 bytes
    /// in bullet's layout (which also reads unpadded, see [`Self::param_bytes`]); in
    /// Stormphrax's, each array padded to 64 bytes (which also reads without the last one's
    /// padding).
    pub fn file_bytes(&self) -> usize {
        let format = self.file.format();
        let arrays = match format.end {
            // A struct's size, or a writer that pads every array, the last one included.
            format::End::Aligned => file::padded_bytes(self, format.align),
            // Varints: the raw size, for want of one (a file's size follows from its values);
            // a compressed file: the raw arrays, as zstd decompresses them.
            format::End::Exact | format::End::Bullet => file::param_bytes(self),
        };
        format.end.padded(header::bytes(self) + arrays)
    }

    /// The sizes an uncompressed file of raw values may have: without and with what may
    /// follow its last array (equal when nothing may).
    pub(crate) fn raw_sizes(&self) -> [usize; 2] {
        let format = self.file.format();
        let padded = self.file_bytes();
        let short = match format.end {
            // The last array's padding may be missing.
            format::End::Aligned => {
                let last = file::arrays(self).last().map_or(0, |a| a.bytes());
                padded - (last.next_multiple_of(format.align) - last)
            }
            format::End::Exact | format::End::Bullet => self.param_bytes(),
        };
        [short, padded]
    }

    /// Whether `data`, a file of this layout, is zstd-compressed as its engine ships it.
    pub fn is_zstd(&self, data: &[u8]) -> bool {
        match self.file.format().zstd {
            format::Zstd::No => false,
            format::Zstd::HeaderFlag => header::zstd_flag(data),
            format::Zstd::WholeFile => !self.raw_sizes().contains(&data.len()),
        }
    }

    /// The header (if any) and the arrays, without padding.
    pub fn param_bytes(&self) -> usize {
        header::bytes(self) + file::param_bytes(self)
    }

    /// The output bucket of a position with `pieces` pieces.
    pub fn bucket(&self, pieces: usize) -> usize {
        self.bucket_rule.bucket(pieces, self.buckets)
    }

    /// Whether the activations are ones the stack's numbers take ([`ShapeError::Activations`]
    /// naming which and why, if not).
    pub fn acts_valid(&self) -> Result<(), ShapeError> {
        let reason = match (self.numbers, self.l1_act, self.l2_act) {
            (_, _, Act::Dual) => Err("l2act=dual: a dual activation only follows the sparse layer"),
            (_, Act::Swiglu, _) => Err("l1act=swiglu: a gated activation only follows the dense layer"),
            (Numbers::I32 { .. }, Act::HardSwish | Act::SignedSquare, _)
            | (Numbers::I32 { .. }, _, Act::HardSwish | Act::Swiglu | Act::SignedSquare) => {
                Err("hardswish, swiglu and signedsquare are f32 activations")
            }
            // No engine computes these; their integer scales would be a guess.
            (Numbers::I32 { .. }, Act::Crelu, _) => Err("l1act=crelu: i32 stacks take screlu or dual"),
            (Numbers::I32 { .. }, _, Act::Screlu) => Err("l2act=screlu: i32 stacks clip the dense layer (crelu)"),
            _ => Ok(()),
        };
        reason.map_err(|reason| ShapeError::Activations { reason })
    }

    /// Why cinder's options don't fit the rest of the stack, if they don't.
    fn stack_reason(&self) -> Option<&'static str> {
        let f32 = matches!(self.numbers, Numbers::F32 { .. });
        let main = self.last_act_width();
        if !f32 && (self.l3b.is_some() || self.dense_chains > 0 || self.out_lanes > 0 || self.out_clamp.is_some()) {
            return Some("l3b, l2chains=, outlanes= and outclamp= belong to f32 stacks");
        }
        if self.l3b.is_some_and(|n| n == 0 || !n.is_multiple_of(16) || n > 128) {
            return Some("the second dense layer's outputs must be a positive multiple of 16, at most 128");
        }
        if self.l3b.is_some() && self.residual {
            return Some("residual: no engine adds the dense input after a second dense layer");
        }
        if !matches!(self.dense_chains, 0 | 2 | 4 | 8 | 16) {
            return Some("l2chains= takes 2, 4, 8 or 16 chains");
        }
        if self.out_lanes > 0 {
            let lanes = self.out_lanes as usize;
            let skip = self.l3_inputs() - main;
            if !matches!(self.out_lanes, 4 | 8 | 16) || !main.is_multiple_of(lanes) || !skip.is_multiple_of(lanes) {
                return Some("outlanes= takes 4, 8 or 16 lanes, dividing the output layer's inputs");
            }
        }
        if self.out_clamp.is_some_and(|m| m <= 0) {
            return Some("outclamp= must be positive");
        }
        None
    }

    /// Shape checks the kernels rely on.
    pub fn validate(&self) -> Result<(), ShapeError> {
        if self.l1 == 0 || !self.l1.is_multiple_of(64) || self.l1 > 16384 {
            return Err(ShapeError::L1 { got: self.l1, multiple: 64, max: 16384 });
        }
        if !matches!(self.l2, 16 | 32) {
            return Err(ShapeError::L2 { got: self.l2 });
        }
        if self.l3 == 0 || !self.l3.is_multiple_of(16) || self.l3 > 128 {
            return Err(ShapeError::L3 { got: self.l3, multiple: 16, max: 128 });
        }
        if !(1..=32).contains(&self.buckets) {
            return Err(ShapeError::OutputBuckets { got: self.buckets, max: 32 });
        }
        if self.bucket_rule == BucketRule::Alexandria && self.buckets != 8 {
            return Err(ShapeError::AlexandriaBuckets { got: self.buckets, expected: 8 });
        }
        if let BucketRule::Table(t) = self.bucket_rule {
            // Every entry, those of piece counts no position has (0 and 1) too.
            if let Some((pieces, &bucket)) = t.iter().enumerate().find(|&(_, &b)| usize::from(b) >= self.buckets) {
                return Err(ShapeError::BucketTable { bucket, pieces, buckets: self.buckets });
            }
        }
        if self.threats.is_some() && !self.kings.mirrored {
            return Err(ShapeError::ThreatsNeedMirroredKings);
        }
        match (self.threats, self.file) {
            (Some(threats), file) if !threats.stored_by(file) => return Err(ShapeError::ThreatsFile { threats, file }),
            (None, file) if file.format().needs_threats => return Err(ShapeError::FileNeedsThreats { file }),
            _ => {}
        }
        let wide_dual = matches!(self.numbers, Numbers::I32 { wide: true, .. }) && self.dual();
        if self.skip && !self.concat_skip() && !(wide_dual && self.l2_full() == self.l3) {
            return Err(ShapeError::SkipNeedsF32);
        }
        if self.residual && (!matches!(self.numbers, Numbers::F32 { .. }) || self.dense_act_width() != self.l2_full()) {
            return Err(ShapeError::Residual { from: self.l2_full(), to: self.dense_act_width() });
        }
        if let Some(reason) = self.stack_reason() {
            return Err(ShapeError::Stack { reason });
        }
        if self.ft_round {
            // The kernels' `mulhrs` of `a << (15 − S)` by `b`: cinder's 127 and 7 only.
            if (self.ft_max, self.ft_shift) != (127, 7) {
                return Err(ShapeError::Stack { reason: "ftround: the rounded transform is ftmax=127, pairwise>>7" });
            }
        } else if self.ft_max != 255 {
            return Err(ShapeError::Stack { reason: "ftmax=: a truncated transform clamps at 255" });
        } else if !Self::FT_SHIFTS.contains(&self.ft_shift) {
            let (min, max) = (*Self::FT_SHIFTS.start(), *Self::FT_SHIFTS.end());
            return Err(ShapeError::FtShift { got: self.ft_shift, min, max });
        }
        if matches!(self.numbers, Numbers::I32 { wide: true, .. }) && !self.dual() {
            return Err(ShapeError::Activations { reason: "wide: Stormphrax 8's quantisation takes dual" });
        }
        if !self.numbers.in_range() {
            return Err(match self.numbers {
                Numbers::F32 { num, den } => ShapeError::L1Mul { num, den },
                Numbers::I32 { q_bits, l1_shift, .. } => ShapeError::IntNumbers { q_bits, l1_shift },
            });
        }
        if self.scale <= 0 {
            return Err(ShapeError::Scale { got: self.scale });
        }
        self.acts_valid()?;
        self.kings.validate()
    }
}

impl fmt::Display for LayeredArch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}", self.inputs_per_bucket())?;
        if self.kings.count > 1 {
            write!(f, "x{}", self.kings.count)?;
        }
        if self.kings.mirrored {
            write!(f, "hm")?;
        }
        write!(f, " -> {})x2 -> pairwise>>{} -> ({} -> {}", self.l1, self.ft_shift, self.l2, self.l3)?;
        if let Some(n) = self.l3b {
            write!(f, " -> {n}")?;
        }
        write!(f, " -> 1)")?;
        if self.buckets > 1 {
            write!(f, "x{}", self.buckets)?;
        }
        // `dual` as it always read; the defaults (screlu; the numbers' own after the dense
        // layer) unsaid.
        let act = match self.l1_act {
            Act::Screlu => String::new(),
            Act::Dual => ", dual".into(),
            a => format!(", l1act={}", a.name()),
        };
        let mut act2 = if self.l2_act == Act::l2_default(self.numbers) {
            String::new()
        } else {
            format!(", l2act={}", self.l2_act.name())
        };
        if self.skip {
            act2 += ", skip";
        }
        if self.residual {
            act2 += ", residual";
        }
        match self.numbers {
            Numbers::F32 { num, den } => write!(f, ", f32{act}{act2}, l1mul={num}/{den}")?,
            Numbers::I32 { q_bits, l1_shift, wide } => {
                let wide = if wide { ", wide" } else { "" };
                write!(f, ", i32{act}{wide}{act2}, q={}, l1shift={l1_shift}", 1u32 << q_bits)?
            }
        }
        if self.ft_max != 255 {
            write!(f, ", ftmax={}", self.ft_max)?;
        }
        if self.ft_round {
            write!(f, ", ftround")?;
        }
        if self.dense_chains > 0 {
            write!(f, ", l2chains={}", self.dense_chains)?;
        }
        if self.out_lanes > 0 {
            write!(f, ", outlanes={}", self.out_lanes)?;
        }
        write!(f, ", scale={}", self.scale)?;
        if let Some(m) = self.out_clamp {
            write!(f, ", outclamp={m}")?;
        }
        match self.l1_sums {
            L1Sums::Exact => {}
            L1Sums::I16Pairs => write!(f, ", l1sums=i16pairs")?,
            L1Sums::ViridithasAvx2 => write!(f, ", l1sums=viridithas-avx2")?,
        }
        match self.bucket_rule {
            BucketRule::Material => {}
            BucketRule::Alexandria => write!(f, ", buckets=(63-p)(32-p)/225")?,
            BucketRule::Table(t) => {
                let list: Vec<String> = t.iter().map(u8::to_string).collect();
                write!(f, ", buckets=[{}]", list.join(","))?
            }
        }
        if let Some(t) = self.threats {
            write!(f, ", threats={t}")?;
        }
        write!(f, ", file={}", self.file.name())?;
        if let Some(map) = self.kings.map() {
            let list: Vec<String> = map.iter().map(u8::to_string).collect();
            write!(f, ", kings=[{}]", list.join(","))?;
        }
        Ok(())
    }
}

/// Parses the lower-cased, whitespace-free text after `(`: `768x16hm->1536)x2->pairwise>>10->
/// (16->32->1)x8` and the options.
pub(crate) fn parse_layered(shape_rest: &str, options: &[String]) -> Result<LayeredArch, String> {
    let shape_err = || "expected `(768xK[hm] -> L1)x2 -> pairwise>>S -> (L2 -> L3 -> 1)xB`".to_string();
    let (input, rest) = shape_rest.split_once("->").ok_or_else(shape_err)?;
    let (per_bucket, input) = if let Some(i) = input.strip_prefix("768") {
        (768, i)
    } else if let Some(i) = input.strip_prefix("704") {
        (704, i)
    } else {
        return Err(shape_err());
    };
    let (mirrored, input) = match input.strip_suffix("hm") {
        Some(i) => (true, i),
        None => (false, input),
    };
    let declared = match input {
        "" => None,
        k => Some(parse_num(k.strip_prefix('x').ok_or_else(shape_err)?)?),
    };
    let (l1, rest) = rest.split_once(")x2->pairwise>>").ok_or_else(shape_err)?;
    let (shift, rest) = rest.split_once("->(").ok_or_else(shape_err)?;
    let (stack, buckets) = rest.split_once(')').ok_or_else(shape_err)?;
    let sizes: Vec<&str> = stack.split("->").collect();
    let (l2, l3, l3b) = match sizes[..] {
        [l2, l3, "1"] => (l2, l3, None),
        [l2, l3, l3b, "1"] => (l2, l3, Some(parse_num(l3b)?)),
        _ => return Err(format!("the stack `({stack})` must be `(L2 -> L3 -> 1)` or `(L2 -> L3 -> L3B -> 1)`")),
    };
    let buckets = match buckets {
        "" => 1,
        b => parse_num(b.strip_prefix('x').ok_or_else(shape_err)?)?,
    };

    let (mut numbers, mut l1_act, mut l2_act, mut l1mul, mut q, mut l1shift, mut scale, mut file, mut map) =
        (None, Act::Screlu, None, None, None, None, None, None, None);
    let mut bucket_rule = BucketRule::Material;
    let mut l1_sums = L1Sums::Exact;
    let mut threats = None;
    let mut skip = false;
    let mut residual = false;
    let mut wide = false;
    let (mut ft_max, mut ft_round, mut dense_chains, mut out_lanes, mut out_clamp) = (255, false, 0, 0, None);
    for opt in options {
        match opt.split_once('=') {
            None if opt == "f32" || opt == "i32" => numbers = Some(opt.clone()),
            None if opt == "dual" => l1_act = Act::Dual,
            None if opt == "skip" => skip = true,
            None if opt == "residual" => residual = true,
            None if opt == "wide" => wide = true,
            None if opt == "ftround" => ft_round = true,
            Some(("ftmax", v)) => ft_max = i32::try_from(parse_u32("ftmax", v)?).map_err(|_| "ftmax is too large")?,
            Some(("l2chains", v)) => dense_chains = parse_u32("l2chains", v)?,
            Some(("outlanes", v)) => out_lanes = parse_u32("outlanes", v)?,
            Some(("outclamp", v)) => {
                out_clamp = Some(i32::try_from(parse_u32("outclamp", v)?).map_err(|_| "outclamp is too large")?)
            }
            Some(("l1act", v)) => l1_act = parse_act("l1act", v)?,
            Some(("l2act", v)) => l2_act = Some(parse_act("l2act", v)?),
            Some(("l1mul", v)) => {
                let (n, d) = v.split_once('/').ok_or("l1mul takes a fraction: l1mul=1024/4161600")?;
                l1mul = Some((parse_u32("l1mul", n)?, parse_u32("l1mul", d)?));
            }
            Some(("q", v)) => q = Some(parse_u32("q", v)?),
            Some(("l1shift", v)) => l1shift = Some(parse_u32("l1shift", v)?),
            Some(("scale", v)) => {
                scale = Some(i32::try_from(parse_u32("scale", v)?).map_err(|_| "scale is too large")?)
            }
            Some(("l1sums", "i16pairs")) => l1_sums = L1Sums::I16Pairs,
            Some(("l1sums", "exact")) => l1_sums = L1Sums::Exact,
            Some(("l1sums", "viridithas-avx2")) => l1_sums = L1Sums::ViridithasAvx2,
            Some(("l1sums", v)) => {
                return Err(format!("l1sums={v}: expected l1sums=exact, l1sums=i16pairs or l1sums=viridithas-avx2"))
            }
            Some(("buckets", "material")) => bucket_rule = BucketRule::Material,
            Some(("buckets", "(63-p)(32-p)/225")) => bucket_rule = BucketRule::Alexandria,
            Some(("buckets", v)) if v.starts_with('[') => bucket_rule = BucketRule::Table(parse_bucket_table(v)?),
            Some(("threats", v)) => threats = Some(parse_threats(v)?),
            Some(("file", v)) => {
                file = Some(FileLayout::named(v).ok_or_else(|| {
                    let names: Vec<&str> = format::FORMATS.iter().map(|f| f.name).collect();
                    let (last, rest) = names.split_last().expect("formats");
                    format!("file={v}: expected file={} or {last}", rest.join(", "))
                })?)
            }
            Some(("kings", v)) => map = Some(parse_king_map(v)?),
            _ => return Err(format!("unknown option `{opt}`")),
        }
    }
    let missing = |what: &str| format!("multi-layer nets must state {what}");
    let numbers = match numbers.as_deref() {
        Some("f32") => {
            if q.is_some() || l1shift.is_some() || wide {
                return Err("q=, l1shift= and wide belong to i32 stacks".into());
            }
            let (num, den) = l1mul.ok_or_else(|| missing("l1mul=N/D (f32 stacks)"))?;
            Numbers::F32 { num, den }
        }
        Some(_) => {
            if l1mul.is_some() {
                return Err("l1mul= belongs to f32 stacks".into());
            }
            let q = q.ok_or_else(|| missing("q=... (i32 stacks)"))?;
            if !q.is_power_of_two() {
                return Err(format!("q={q}: must be a power of two"));
            }
            Numbers::I32 { q_bits: q.trailing_zeros(), l1_shift: l1shift.ok_or_else(|| missing("l1shift=..."))?, wide }
        }
        None => return Err(missing("the stack's numbers (f32 or i32)")),
    };
    let kings = king_buckets(declared, mirrored, map)?;
    let l1: usize = parse_num(l1)?;
    if l1_sums == L1Sums::ViridithasAvx2 && l1 != 1024 {
        return Err(format!("l1sums=viridithas-avx2 orders Viridithas's 512 neurons: L1 1024, not {l1}"));
    }
    Ok(LayeredArch {
        kings,
        threats,
        merged_kings: per_bucket == 704,
        l1,
        l2: parse_num(l2)?,
        l3: parse_num(l3)?,
        buckets,
        bucket_rule,
        ft_shift: parse_u32("pairwise", shift)?,
        ft_max,
        ft_round,
        l3b,
        dense_chains,
        out_lanes,
        out_clamp,
        l1_act,
        skip,
        residual,
        l2_act: l2_act.unwrap_or(Act::l2_default(numbers)),
        l1_sums,
        numbers,
        scale: scale.ok_or_else(|| missing("scale=..."))?,
        file: file.ok_or_else(|| {
            missing("its file layout (file=alexandria, bullet, cbnf, obsidian, reckless, plentychess, viridithas or cinder)")
        })?,
    })
}

/// `[b0,b1,...,b32]`: the output bucket of each piece count 0 to 32.
pub(crate) fn parse_bucket_table(v: &str) -> Result<[u8; 33], String> {
    let err = || format!("buckets={v}: expected 33 buckets, one per piece count 0 to 32: buckets=[0,0,...,7]");
    let inner = v.strip_prefix('[').and_then(|v| v.strip_suffix(']')).ok_or_else(err)?;
    let list: Vec<u8> = inner.split(',').map(|b| b.parse().map_err(|_| err())).collect::<Result<_, _>>()?;
    list.try_into().map_err(|_| err())
}

fn parse_act(name: &str, v: &str) -> Result<Act, String> {
    [Act::Crelu, Act::Screlu, Act::Dual, Act::HardSwish, Act::Swiglu, Act::SignedSquare]
        .into_iter()
        .find(|a| a.name() == v)
        .ok_or_else(|| format!("{name}={v}: expected crelu, screlu, dual, hardswish, swiglu or signedsquare"))
}

fn parse_u32(name: &str, s: &str) -> Result<u32, String> {
    let n = parse_num(s)?;
    u32::try_from(n).map_err(|_| format!("{name}={n} is out of range"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Architecture;

    fn layered(text: &str) -> LayeredArch {
        match text.parse::<Architecture>() {
            Ok(Architecture::Layered(a)) => a,
            other => panic!("{text}: {other:?}"),
        }
    }

    /// Reckless's description: threat inputs ahead of the piece-square ones, output buckets
    /// by table, its file; prints as read and reads back; bad variants are named.
    #[test]
    fn threats_and_a_bucket_table_read_and_print() {
        let a = layered(crate::known::RECKLESS);
        assert_eq!(a.threats, Some(ThreatInputs::Reckless));
        assert_eq!((a.int8_inputs(), a.int16_inputs(), a.inputs()), (66864, 7680, 66864 + 7680));
        assert_eq!((a.bucket(2), a.bucket(8), a.bucket(9), a.bucket(19), a.bucket(32)), (0, 0, 1, 3, 7));
        assert_eq!(a.file, FileLayout::Reckless);
        assert_eq!(layered(&a.to_string()), a);
        assert_eq!(a.to_string(), crate::known::RECKLESS.split_whitespace().collect::<Vec<_>>().join(" "));
        // PlentyChess's: pawn pairs and threats, the skip connection, varints; prints as written.
        let p = layered(crate::known::PLENTYCHESS);
        assert_eq!((p.threats, p.skip, p.file), (Some(ThreatInputs::PawnPairsSf19), true, FileLayout::PlentyChess));
        assert_eq!((p.int8_inputs(), p.l3_inputs()), (64368, 64));
        assert_eq!(p.to_string(), crate::known::PLENTYCHESS.split_whitespace().collect::<Vec<_>>().join(" "));
        // `sizeof(Parameters)`: every array 64-byte aligned, the last one's padding included.
        assert_eq!(a.file_bytes(), 63_266_880);
        // The layers' text names the table and reads back.
        let layers = crate::Architecture::Layered(a).layers();
        assert_eq!(layers.to_string().parse::<crate::Layers>().unwrap().bucket, layers.bucket);
        let base = "(768x2hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x4, f32, l1mul=1/64, scale=200";
        let two = "kings=[0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
        for (options, why) in [
            ("threats=stockfish, file=reckless", "expected threats=reckless, threats=pawnpairs+sf19 or threats=custom:N"),
            ("threats=reckless, buckets=[0,1,2], file=reckless", "expected 33 buckets"),
            (
                "threats=reckless, buckets=[0,0,0,0,0,0,0,0,0,1,1,1,1,2,2,2,2,3,3,3,4,4,4,5,5,5,6,6,6,7,7,7,7], file=reckless",
                "names bucket 4 (for 20 pieces) of 4",
            ),
            ("threats=reckless, file=bullet", "stored by file=reckless only"),
            ("file=reckless", "say which"),
            ("threats=pawnpairs+sf19, file=reckless", "stored by file=cbnf or file=plentychess or file=viridithas or file=cinder only"),
        ] {
            let text = format!("{base}, {options}, {two}");
            let e = text.parse::<Architecture>().unwrap_err().to_string();
            assert!(e.contains(why), "{text}: {e}");
        }
        let unmirrored = "(768x2 -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, l1mul=1/64, scale=200, \
            threats=reckless, file=reckless, kings=[0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,\
            1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
        let e = unmirrored.parse::<Architecture>().unwrap_err().to_string();
        assert!(e.contains("mirrored by the king"), "{e}");
    }

    /// `threats=custom:N`: an engine-defined block of N int8 rows, unbound as read; prints and
    /// reads back; stored wherever a file stores board inputs; bad sizes are named. Binding
    /// checks the size.
    #[test]
    fn an_engine_defined_block_reads_prints_and_binds() {
        use crate::features::{threats::Board, CustomBlock, InputBlock};
        use crate::position::{Color, Square};
        let base = "(768x2hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x4, f32, l1mul=1/64, scale=200";
        let two = "kings=[0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
        let a = layered(&format!("{base}, threats=custom:18, file=reckless, {two}"));
        assert_eq!(a.threats, Some(ThreatInputs::Custom(CustomBlock::unbound(18))));
        assert_eq!((a.int8_inputs(), a.int16_inputs()), (18, 1536));
        assert!(a.to_string().contains("threats=custom:18"), "{a}");
        assert_eq!(layered(&a.to_string()), a);
        for (options, why) in [
            ("threats=custom:0, file=reckless", "N > 0"),
            ("threats=custom:x, file=reckless", "threats=custom:x: `x` is not a number"),
            ("threats=custom:99999999999, file=reckless", "out of range"),
            (
                "threats=custom:18, file=bullet",
                "threats=custom:18 are stored by file=cbnf or file=reckless or file=plentychess or file=viridithas or file=cinder only",
            ),
        ] {
            let text = format!("{base}, {options}, {two}");
            let e = text.parse::<Architecture>().unwrap_err().to_string();
            assert!(e.contains(why), "{text}: {e}");
        }

        #[derive(Debug)]
        struct Sized(usize);
        impl InputBlock for Sized {
            fn inputs(&self) -> usize {
                self.0
            }
            fn active(&self, _: &Board, _: Color, _: Square, _: &mut Vec<usize>) {}
        }
        static EIGHTEEN: Sized = Sized(18);
        static SEVENTEEN: Sized = Sized(17);
        let mut net = crate::synth::layered(&a, 3);
        assert!(net.has_unbound_block());
        assert_eq!(net.bind_block(&SEVENTEEN), Err(crate::BindError::Size { described: 18, block: 17 }));
        net.bind_block(&EIGHTEEN).unwrap();
        assert!(!net.has_unbound_block());
        let crate::Architecture::Layered(bound) = net.arch() else { unreachable!() };
        assert_eq!(bound.threats, Some(ThreatInputs::Custom(CustomBlock::new(&EIGHTEEN))));
        assert_ne!(bound, a, "bound is not unbound");
        let mut other = crate::synth::sfnn(32, 1, crate::Encoding::Raw);
        assert_eq!(other.bind_block(&EIGHTEEN), Err(crate::BindError::NoCustomBlock));
    }

    /// The engine's block after a library set (`threats=reckless+custom:N`,
    /// `threats=pawnpairs+sf19+custom:N`): its rows after the library's, stored where the
    /// library's are; prints and reads back; binds; anything else is named.
    #[test]
    fn an_engine_defined_block_follows_a_library_set() {
        use crate::features::{threats::Board, BoardBlock, CustomBlock, FeatureSet, InputBlock};
        use crate::position::{Color, Square};
        let base = "(768x2hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x4, f32, l1mul=1/64, scale=200";
        let two = "kings=[0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
        let block = CustomBlock::unbound(7);
        for (threats, file, want, library) in [
            ("reckless+custom:7", "reckless", ThreatInputs::RecklessPlus(block), 66864),
            ("pawnpairs+sf19+custom:7", "plentychess", ThreatInputs::PawnPairsSf19Plus(block), 64368),
        ] {
            let a = layered(&format!("{base}, threats={threats}, file={file}, {two}"));
            assert_eq!(a.threats, Some(want));
            assert_eq!((want.library().map(ThreatInputs::inputs), want.custom()), (Some(library), Some(block)));
            assert_eq!((a.int8_inputs(), a.int16_inputs()), (library + 7, 1536));
            assert!(a.to_string().contains(&format!("threats={threats}")), "{a}");
            assert_eq!(layered(&a.to_string()), a);
            let features = FeatureSet::for_arch(&crate::Architecture::Layered(a));
            assert!(matches!(features.blocks().last(), Some(BoardBlock::Custom(_))), "{features:?}");
            assert_eq!(features.pieces_offset(), library + 7);
        }
        for (options, why) in [
            ("threats=reckless+custom:7, file=plentychess", "are stored by file=reckless only"),
            ("threats=sf19+custom:7, file=reckless", "the last after either of the others"),
            ("threats=custom:7+reckless, file=reckless", "`7+reckless` is not a number"),
            ("threats=reckless+custom:0, file=reckless", "N > 0"),
            ("threats=recklesscustom:7, file=reckless", "expected threats=reckless"),
        ] {
            let text = format!("{base}, {options}, {two}");
            let e = text.parse::<Architecture>().unwrap_err().to_string();
            assert!(e.contains(why), "{text}: {e}");
        }
        #[derive(Debug)]
        struct Seven;
        impl InputBlock for Seven {
            fn inputs(&self) -> usize {
                7
            }
            fn active(&self, _: &Board, _: Color, _: Square, _: &mut Vec<usize>) {}
        }
        static SEVEN: Seven = Seven;
        let a = layered(&format!("{base}, threats=reckless+custom:7, file=reckless, {two}"));
        let mut net = crate::synth::layered(&a, 3);
        assert!(net.has_unbound_block());
        net.bind_block(&SEVEN).unwrap();
        let crate::Architecture::Layered(bound) = net.arch() else { unreachable!() };
        assert_eq!(bound.threats, Some(ThreatInputs::RecklessPlus(CustomBlock::new(&SEVEN))));
        // A library set alone has no block to bind.
        let mut plain = crate::synth::layered(&layered(&format!("{base}, threats=reckless, file=reckless, {two}")), 3);
        assert!(!plain.has_unbound_block());
        assert_eq!(plain.bind_block(&SEVEN), Err(crate::BindError::NoCustomBlock));
    }

    /// `dual` reads as it always did; the activations print only where they differ from the
    /// defaults, and read back.
    #[test]
    fn activations_read_and_print() {
        let base = "(768hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8";
        for (options, l1, l2, printed) in [
            ("f32, dual, l1mul=1/64", Act::Dual, Act::Screlu, "f32, dual, l1mul=1/64"),
            ("f32, l1act=dual, l1mul=1/64", Act::Dual, Act::Screlu, "f32, dual, l1mul=1/64"),
            ("f32, l1mul=1/64", Act::Screlu, Act::Screlu, "f32, l1mul=1/64"),
            (
                "f32, l1act=crelu, l2act=crelu, l1mul=1/64",
                Act::Crelu,
                Act::Crelu,
                "f32, l1act=crelu, l2act=crelu, l1mul=1/64",
            ),
            ("f32, dual, l2act=crelu, l1mul=1/64", Act::Dual, Act::Crelu, "f32, dual, l2act=crelu, l1mul=1/64"),
            ("i32, dual, q=64, l1shift=8", Act::Dual, Act::Crelu, "i32, dual, q=64, l1shift=8"),
            ("i32, l2act=crelu, q=64, l1shift=8", Act::Screlu, Act::Crelu, "i32, q=64, l1shift=8"),
        ] {
            let text = format!("{base}, {options}, scale=200, file=bullet");
            let a = layered(&text);
            assert_eq!(a.l1_sums, L1Sums::Exact);
            assert_eq!((a.l1_act, a.l2_act), (l1, l2), "{text}");
            assert_eq!(a.to_string(), format!("{base}, {printed}, scale=200, file=bullet"));
            assert_eq!(layered(&a.to_string()), a);
            assert_eq!(a.l2_full(), if l1 == Act::Dual { 32 } else { 16 });
        }
        // Integral's sums print after the scale, and read back.
        let integral =
            layered(&format!("{base}, f32, l1act=crelu, l1mul=1/64, l1sums=i16pairs, scale=200, file=bullet"));
        assert_eq!(integral.l1_sums, L1Sums::I16Pairs);
        assert_eq!(
            integral.to_string(),
            format!("{base}, f32, l1act=crelu, l1mul=1/64, scale=200, l1sums=i16pairs, file=bullet")
        );
        assert_eq!(layered(&integral.to_string()), integral);
        // Viridithas's: hard-swish, SwiGLU halving the dense layer's 64 values, the residual.
        let viri = layered(crate::preset::VIRIDITHAS);
        assert_eq!((viri.l1_act, viri.l2_act, viri.residual), (Act::HardSwish, Act::Swiglu, true));
        assert_eq!((viri.l3, viri.dense_act_width(), viri.l3_inputs(), viri.merged_kings), (64, 32, 32, true));
        assert_eq!(layered(&viri.to_string()), viri);
        for (options, why) in [
            ("f32, l2act=dual, l1mul=1/64", "only follows the sparse layer"),
            ("i32, l1act=crelu, q=64, l1shift=8", "i32 stacks take screlu or dual"),
            ("i32, l2act=screlu, q=64, l1shift=8", "i32 stacks clip"),
            ("f32, l1act=relu, l1mul=1/64", "expected crelu, screlu, dual, hardswish, swiglu or signedsquare"),
            ("f32, l1act=swiglu, l1mul=1/64", "only follows the dense layer"),
            ("i32, l1act=hardswish, q=64, l1shift=8", "f32 activations"),
            ("i32, l2act=swiglu, q=64, l1shift=8", "f32 activations"),
            // L2 16 against the dense layer's 32 (or SwiGLU's 16 against its 32 inputs' 16: fine).
            ("f32, residual, l1mul=1/64", "residual: the dense layer's activation (32 values) adds its input (16)"),
        ] {
            let text = format!("{base}, {options}, scale=200, file=bullet");
            let e = text.parse::<Architecture>().unwrap_err().to_string();
            assert!(e.contains(why), "{text}: {e}");
        }
    }
    /// Each of the shape checks is its own variant, with the numbers found.
    #[test]
    fn validate_names_the_failed_check() {
        let a = layered(crate::known::RECKLESS);
        assert!(a.validate().is_ok());
        let check = |b: LayeredArch| b.validate().unwrap_err();
        let e = check(LayeredArch { l1: 100, ..a });
        assert!(matches!(e, ShapeError::L1 { got: 100, .. }), "{e:?}");
        assert_eq!(e.to_string(), "L1 = 100: must be a positive multiple of 64, at most 16384");
        let e = check(LayeredArch { l2: 8, ..a });
        assert_eq!((e.clone(), e.to_string()), (ShapeError::L2 { got: 8 }, "L2 = 8: must be 16 or 32".into()));
        let e = check(LayeredArch { l3: 20, ..a });
        assert!(matches!(e, ShapeError::L3 { got: 20, multiple: 16, max: 128 }), "{e:?}");
        assert_eq!(e.to_string(), "L3 = 20: must be a positive multiple of 16, at most 128");
        let e = check(LayeredArch { buckets: 0, ..a });
        assert!(matches!(e, ShapeError::OutputBuckets { got: 0, max: 32 }), "{e:?}");
        let e = check(LayeredArch { buckets: 4, bucket_rule: BucketRule::Alexandria, ..a });
        assert!(matches!(e, ShapeError::AlexandriaBuckets { got: 4, expected: 8 }), "{e:?}");
        assert_eq!(e.to_string(), "buckets=(63-p)(32-p)/225 chooses among 8 output buckets");
        let e = check(LayeredArch { buckets: 4, ..a });
        assert!(matches!(e, ShapeError::BucketTable { bucket: 4, buckets: 4, .. }), "{e:?}");
        let e = check(LayeredArch { kings: KingBuckets { mirrored: false, ..a.kings }, ..a });
        assert_eq!(e, ShapeError::ThreatsNeedMirroredKings);
        let e = check(LayeredArch { file: FileLayout::Bullet, ..a });
        assert_eq!(e, ShapeError::ThreatsFile { threats: ThreatInputs::Reckless, file: FileLayout::Bullet });
        assert_eq!(e.to_string(), "threats=reckless are stored by file=reckless only");
        let e = check(LayeredArch { threats: None, ..a });
        assert_eq!(e, ShapeError::FileNeedsThreats { file: FileLayout::Reckless });
        assert_eq!(e.to_string(), "file=reckless stores threat inputs: say which (threats=...)");
        let e = check(LayeredArch { ft_shift: 16, ..a });
        assert_eq!(e, ShapeError::FtShift { got: 16, min: 9, max: 15 });
        assert_eq!(e.to_string(), "pairwise>>16: the shift must be 9 to 15");
        let e = check(LayeredArch { numbers: Numbers::F32 { num: 0, den: 64 }, ..a });
        assert!(matches!(e, ShapeError::L1Mul { num: 0, den: 64 }), "{e:?}");
        let e = check(LayeredArch { numbers: Numbers::I32 { q_bits: 11, l1_shift: 8, wide: false }, ..a });
        assert_eq!(e, ShapeError::IntNumbers { q_bits: 11, l1_shift: 8 });
        assert_eq!(e.to_string(), "q=2^11, l1shift=8: q must be 2 to 1024, the shift below 32");
        let e = check(LayeredArch { scale: 0, ..a });
        assert_eq!((e.clone(), e.to_string()), (ShapeError::Scale { got: 0 }, "scale must be positive".into()));
        let e = check(LayeredArch { l2_act: Act::Dual, ..a });
        assert!(matches!(e, ShapeError::Activations { reason } if reason.contains("l2act=dual")), "{e:?}");
        let e = check(LayeredArch { kings: KingBuckets { count: 11, ..a.kings }, ..a });
        assert_eq!(e, ShapeError::UnusedKingBucket { bucket: 10 });
        let p = layered(crate::known::PLENTYCHESS);
        let e = check(LayeredArch { numbers: Numbers::I32 { q_bits: 6, l1_shift: 8, wide: false }, ..p });
        assert_eq!(e, ShapeError::SkipNeedsF32);
    }
}
