//! A net's parameters in the canonical (file) order. Fast paths re-layout copies of these;
//! this form is what the reader returns, the writer takes and the reference evaluator reads.

use crate::arch::{Architecture, Chess768Arch, HalfKpArch, Sf19Arch, SfnnArch, ThreatsArch};
use crate::features::{CustomBlock, InputBlock};
use crate::layered::LayeredArch;

/// How an array is stored in a Stockfish file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Little-endian values back to back.
    Raw,
    /// `COMPRESSED_LEB128`, a u32 byte count, then signed LEB128 values.
    Leb128,
}

/// A parsed net file: its description and, of one family, its architecture and parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Net {
    /// The header's free-text description (empty for headerless nets).
    pub description: String,
    /// The architecture and the parameters.
    pub model: Model,
}

/// A net's architecture with its parameters: one variant per family, so the two can't be of
/// different families.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Model {
    /// Stockfish 15.1-17.1 (SFNNv5-v9).
    Sfnn(SfnnArch, SfnnParams),
    /// Stockfish 18's threat-input nets.
    Threats(ThreatsArch, ThreatsParams),
    /// Stockfish 19's nets (big and lite).
    Sf19(Sf19Arch, Sf19Params),
    /// Stockfish 12-13.
    HalfKp(HalfKpArch, HalfKpParams),
    /// Headerless chess-768 nets.
    Chess768(Chess768Arch, Chess768Params),
    /// Multi-layer nets as bullet-trained engines ship them.
    Layered(LayeredArch, LayeredParams),
}

impl Net {
    /// The architecture, from the header or the given description.
    pub fn arch(&self) -> Architecture {
        match &self.model {
            Model::Sfnn(a, _) => Architecture::Sfnn(*a),
            Model::Threats(a, _) => Architecture::Threats(*a),
            Model::Sf19(a, _) => Architecture::Sf19(*a),
            Model::HalfKp(a, _) => Architecture::HalfKp(*a),
            Model::Chess768(a, _) => Architecture::Chess768(*a),
            Model::Layered(a, _) => Architecture::Layered(*a),
        }
    }

    /// Gives the net's engine-defined input block (`threats=custom:N` in its description)
    /// its implementation, which every evaluation of it needs (see
    /// [`features::custom`](crate::features::custom)); for a net read at run time, as
    /// `nnue_net!(…, block = PATH)` does for a compiled-in one.
    pub fn bind_block(&mut self, block: &'static dyn InputBlock) -> Result<(), BindError> {
        let Model::Layered(LayeredArch { threats: Some(threats), .. }, _) = &mut self.model else {
            return Err(BindError::NoCustomBlock);
        };
        let Some(custom) = threats.custom_mut() else { return Err(BindError::NoCustomBlock) };
        if block.inputs() != custom.inputs() {
            return Err(BindError::Size { described: custom.inputs(), block: block.inputs() });
        }
        *custom = CustomBlock::new(block);
        Ok(())
    }

    /// Whether the net has an engine-defined input block without its implementation.
    pub fn has_unbound_block(&self) -> bool {
        let Model::Layered(LayeredArch { threats: Some(threats), .. }, _) = &self.model else {
            return false;
        };
        threats.custom().is_some_and(|custom| custom.block().is_none())
    }
}

/// Why [`Net::bind_block`] refused a block.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BindError {
    /// The net's description has no `threats=custom:N`.
    #[error("the net has no engine-defined input block (threats=custom:N) to bind")]
    NoCustomBlock,
    /// The block's size is not the description's.
    #[error("the description's engine-defined input block has {described} features, the block bound to it {block}")]
    Size {
        /// N of `threats=custom:N`.
        described: usize,
        /// What the block's `inputs()` says.
        block: usize,
    },
}

/// Any family's feature transformer, seen one way: rows `0..int8_rows` are int8 (Stockfish
/// 18's threats, 19's threats and pawn pairs), the rest int16, each feature with `psqt_buckets`
/// PSQT weights (none for nets without PSQT); `scale` is what the weights and biases are
/// multiplied by before use (Stockfish doubles SFNNv5+ transformers at load, so that the
/// transform's `a·b/128` is one `mulhi`; its int16 accumulators then hold, and wrap on, the
/// doubled sums).
#[derive(Debug, Clone, Copy)]
pub struct TransformerView<'a> {
    /// `[width]`
    pub biases: &'a [i16],
    /// `[int8 rows][width]`
    pub int8: &'a [i8],
    /// `[int16 rows][width]`
    pub int16: &'a [i16],
    /// `[rows][psqt_buckets]`
    pub psqt: &'a [i32],
    /// PSQT buckets (0: none).
    pub psqt_buckets: usize,
    /// 2 for SFNNv5+ (doubled at load), else 1.
    pub scale: i16,
}

impl<'a> TransformerView<'a> {
    /// Outputs per perspective.
    pub fn width(&self) -> usize {
        self.biases.len()
    }
    /// Rows stored as int8 (the first features).
    pub fn int8_rows(&self) -> usize {
        self.int8.len() / self.width()
    }
    /// Every feature's row count.
    pub fn rows(&self) -> usize {
        self.int8_rows() + self.int16.len() / self.width()
    }
    /// Feature `f`'s int8 row, if it is one of the first [`Self::int8_rows`].
    pub fn int8_row(&self, f: usize) -> Option<&'a [i8]> {
        let n = self.width();
        (f < self.int8_rows()).then(|| &self.int8[f * n..(f + 1) * n])
    }
    /// Feature `f`'s int16 row (`f` at least [`Self::int8_rows`]).
    pub fn int16_row(&self, f: usize) -> &'a [i16] {
        let (n, g) = (self.width(), f - self.int8_rows());
        &self.int16[g * n..(g + 1) * n]
    }
    /// Feature `f`'s PSQT weights.
    pub fn psqt_row(&self, f: usize) -> &'a [i32] {
        let b = self.psqt_buckets;
        &self.psqt[f * b..(f + 1) * b]
    }
}

impl Model {
    /// The feature transformer, whatever the family.
    pub fn transformer(&self) -> TransformerView<'_> {
        fn ft<'a>(ft: &'a FeatureTransformer, int8: &'a [i8], psqt_buckets: usize, scale: i16) -> TransformerView<'a> {
            TransformerView { biases: &ft.biases, int8, int16: &ft.weights, psqt: &ft.psqt, psqt_buckets, scale }
        }
        match self {
            Model::Sfnn(_, p) => ft(&p.ft, &[], SfnnArch::PSQT_BUCKETS, 2),
            Model::Threats(_, p) => ft(&p.ft, &p.threat_weights, SfnnArch::PSQT_BUCKETS, 1),
            Model::Sf19(_, p) => ft(&p.ft, &p.int8_weights, Sf19Arch::PSQT_BUCKETS, 1),
            Model::HalfKp(_, p) => ft(&p.ft, &[], 0, 1),
            Model::Chess768(_, p) => {
                TransformerView { biases: &p.l0b, int8: &[], int16: &p.l0w, psqt: &[], psqt_buckets: 0, scale: 1 }
            }
            Model::Layered(_, p) => TransformerView {
                biases: &p.ft_biases,
                int8: &p.threat_weights,
                int16: &p.ft_weights,
                psqt: &[],
                psqt_buckets: 0,
                scale: 1,
            },
        }
    }
}

/// The first layer: one row of `l1` weights (and `buckets` PSQT weights) per input feature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeatureTransformer {
    /// `[l1]`
    pub biases: Vec<i16>,
    /// `[inputs][l1]`
    pub weights: Vec<i16>,
    /// `[inputs][psqt buckets]`; empty for HalfKP.
    pub psqt: Vec<i32>,
    /// Encodings of biases, weights and psqt as found in the file.
    pub encoding: [Encoding; 3],
}

impl FeatureTransformer {
    /// Outputs per perspective (the number of biases).
    pub fn l1(&self) -> usize {
        self.biases.len()
    }
    /// The weights of input feature `feature`.
    pub fn row(&self, feature: usize) -> &[i16] {
        let l1 = self.l1();
        &self.weights[feature * l1..(feature + 1) * l1]
    }
}

/// An int8 affine layer: `out[o] = bias[o] + sum_i weight[o][i] * in[i]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dense {
    /// Input count.
    pub inputs: usize,
    /// Row stride: inputs rounded up to 32, as Stockfish stores them.
    pub padded_inputs: usize,
    /// Output count.
    pub outputs: usize,
    /// `[outputs]`
    pub biases: Vec<i32>,
    /// `[outputs][padded_inputs]`
    pub weights: Vec<i8>,
}

impl Dense {
    /// A layer of the given shape with all weights and biases zero.
    pub fn zeroed(inputs: usize, outputs: usize) -> Self {
        let padded_inputs = inputs.next_multiple_of(32);
        Self { inputs, padded_inputs, outputs, biases: vec![0; outputs], weights: vec![0; outputs * padded_inputs] }
    }
    /// The weights of output `output` (its `inputs` values, without the padding).
    pub fn row(&self, output: usize) -> &[i8] {
        &self.weights[output * self.padded_inputs..][..self.inputs]
    }
}

/// One of the 8 SFNNv5+ layer stacks: fc_0 (L1 -> 15+1), fc_1 (30 -> 32), fc_2 (32 -> 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stack {
    /// L1 -> 16: 15 into the activations, one forwarded straight to the output.
    pub fc0: Dense,
    /// 30 -> 32.
    pub fc1: Dense,
    /// 32 -> 1.
    pub fc2: Dense,
}

/// Stockfish SFNNv5-v9 (see [`SfnnArch`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SfnnParams {
    /// HalfKAv2_hm -> L1, with 8 PSQT buckets.
    pub ft: FeatureTransformer,
    /// The 8 layer stacks, chosen by piece count.
    pub stacks: Vec<Stack>,
}

/// Stockfish 18's threat-input nets (see [`ThreatsArch`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreatsParams {
    /// Biases `[l1]`, HalfKAv2_hm weights `[22528][l1]` and the PSQT weights of the whole
    /// transformer, `[79856 threat rows + 22528 HalfKAv2_hm rows][8]` (one block in the file).
    /// `encoding`: biases, HalfKAv2_hm weights, PSQT.
    pub ft: FeatureTransformer,
    /// FullThreats weights `[79856][l1]`, int8, always raw in the file.
    pub threat_weights: Vec<i8>,
    /// The 8 layer stacks, as in [`SfnnParams`].
    pub stacks: Vec<Stack>,
}

impl ThreatsParams {
    /// The int8 weights of threat feature `feature`.
    pub fn threat_row(&self, feature: usize) -> &[i8] {
        let l1 = self.ft.l1();
        &self.threat_weights[feature * l1..(feature + 1) * l1]
    }
}

/// Stockfish 19's nets (see [`Sf19Arch`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sf19Params {
    /// Biases `[l1]`, the int16 rows `[int16 inputs][l1]` (HalfKAv2_hm, or the lite net's 768)
    /// and the PSQT weights of the whole transformer `[inputs][8]`, int8 rows first (threats,
    /// pawn pairs, int16 rows: three blocks in the file). `encoding`: biases, int16 weights,
    /// the int16 rows' PSQT block.
    pub ft: FeatureTransformer,
    /// The int8 rows `[int8 inputs][l1]`: threats, then pawn pairs; raw in the file.
    pub int8_weights: Vec<i8>,
    /// Encodings of the threat and pawn-pair PSQT blocks (big net only).
    pub int8_psqt_encoding: [Encoding; 2],
    /// The 8 layer stacks: fc_0 `L1 -> 32`, fc_1 `64 -> 32`, fc_2 `128 -> 1`.
    pub stacks: Vec<Stack>,
}

impl Sf19Params {
    /// The int8 weights of feature `feature` (below the int8 row count).
    pub fn int8_row(&self, feature: usize) -> &[i8] {
        let l1 = self.ft.l1();
        &self.int8_weights[feature * l1..(feature + 1) * l1]
    }
}

/// Stockfish 12-13 HalfKP (see [`HalfKpArch`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HalfKpParams {
    /// HalfKP -> L1, without PSQT.
    pub ft: FeatureTransformer,
    /// L1 x 2 -> 32.
    pub fc0: Dense,
    /// 32 -> 32.
    pub fc1: Dense,
    /// 32 -> 1.
    pub fc2: Dense,
}

/// Bullet-style `(768xK -> N)x2 -> 1xB`, all i16.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chess768Params {
    /// `[inputs][hidden]`
    pub l0w: Vec<i16>,
    /// `[hidden]`
    pub l0b: Vec<i16>,
    /// `[output bucket][2 * hidden]`: the side to move's half first, whatever the file's order
    /// (the reader and writer convert an `out=[2N][B]` file, see [`crate::OutputOrder`]).
    pub l1w: Vec<i16>,
    /// `[output bucket]`
    pub l1b: Vec<i16>,
    /// What the file carried after the parameters, to a multiple of 64 bytes.
    pub padding: Padding,
}

/// What follows a headerless net's parameters, up to a multiple of 64 bytes (bullet pads its
/// files so); kept so that a file read is written back byte for byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Padding {
    /// Nothing: the file ends with the parameters.
    None,
    /// Zeros (bullet before March 2024). Also what a file whose parameters end on a 64-byte
    /// boundary reads as.
    Zeros,
    /// `bulletbullet…` from the first padding byte on (bullet since March 2024).
    Bullet,
}

impl Padding {
    /// The pattern bullet repeats in its padding.
    pub const BULLET_PATTERN: &'static [u8; 6] = b"bullet";

    /// Byte `i` (counted from the end of the parameters) of this padding.
    pub fn byte(self, i: usize) -> u8 {
        match self {
            Padding::Bullet => Self::BULLET_PATTERN[i % Self::BULLET_PATTERN.len()],
            Padding::None | Padding::Zeros => 0,
        }
    }
}

impl Chess768Params {
    /// Hidden neurons per perspective.
    pub fn hidden(&self) -> usize {
        self.l0b.len()
    }
    /// The input-layer weights of feature `feature`.
    pub fn row(&self, feature: usize) -> &[i16] {
        let n = self.hidden();
        &self.l0w[feature * n..(feature + 1) * n]
    }
    /// The output weights of bucket `bucket`: the side to move's `hidden`, then the other side's.
    pub fn output_row(&self, bucket: usize) -> &[i16] {
        let n = 2 * self.hidden();
        &self.l1w[bucket * n..(bucket + 1) * n]
    }
}

/// A multi-layer net's parameters (see [`LayeredArch`]), whatever order its file keeps them in.
/// The later layers' numbers are `i32` values, or `f32` bit patterns ([`f32::to_bits`]) in an
/// `f32` stack, so that a net compares and round-trips exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayeredParams {
    /// `[threat inputs][l1]` int8 (empty without threat inputs).
    pub threat_weights: Vec<i8>,
    /// `[piece-square inputs][l1]`
    pub ft_weights: Vec<i16>,
    /// `[l1]`
    pub ft_biases: Vec<i16>,
    /// `[bucket][l2][l1]`
    pub l1_weights: Vec<i8>,
    /// `[bucket][l2]`
    pub l1_biases: Vec<i32>,
    /// `[bucket][l3][l2 (doubled when dual)]`
    pub l2_weights: Vec<i32>,
    /// `[bucket][l3]`
    pub l2_biases: Vec<i32>,
    /// `[bucket][l3b][l3 (doubled by a signed square)]`: the second dense layer (empty
    /// without one).
    pub l3b_weights: Vec<i32>,
    /// `[bucket][l3b]` (empty without a second dense layer).
    pub l3b_biases: Vec<i32>,
    /// `[bucket][the output layer's inputs]`
    pub l3_weights: Vec<i32>,
    /// `[bucket]`
    pub l3_biases: Vec<i32>,
    /// What followed the arrays to a multiple of 64 bytes (bullet's layout only; `None` in
    /// the others).
    pub padding: Padding,
}

impl LayeredParams {
    /// The transformer row of feature `feature`.
    pub fn row(&self, feature: usize) -> &[i16] {
        let l1 = self.ft_biases.len();
        &self.ft_weights[feature * l1..(feature + 1) * l1]
    }
}
