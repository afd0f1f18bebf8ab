//! The lowering's vocabulary: the kernel calls a net's steps lower to (see [`crate::lower`]), what
//! each register holds once written, and why a step has no lowering. Apart from the steps so
//! that each step kind's file can say its own lowering (`step::StepKind::lower`).

use std::fmt;

use crate::layers::{Param, Reg};
use crate::layout::InputOrder;

/// What `r0` is: how the first layer reads the accumulators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// The pairwise transform's bytes with their non-zero chunks listed.
    Listed,
    /// Both perspectives' accumulators clipped to bytes.
    Clipped,
    /// The accumulators themselves, clamped to `0..=max` by the output layer's kernel.
    Accumulators {
        /// The clamp.
        max: i32,
    },
}

/// What a register holds once written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One int32 value.
    Int,
    /// int32 sums.
    Ints(usize),
    /// One f32 value.
    Float,
    /// f32 values.
    Floats(usize),
    /// Bytes in an order.
    Bytes(usize, InputOrder),
}

/// One part of a concatenation of bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// `min(127, x² >> sqr) ++ clamp(x >> shift, 0, 127)` of the `n` sums of `x`: one dual
    /// activation kernel.
    Dual {
        /// The sums.
        x: Reg,
        /// How many.
        n: usize,
        /// The square's shift.
        sqr: u32,
        /// The clipped value's shift.
        shift: u32,
    },
    /// A register of `n` bytes already written.
    Bytes {
        /// The register.
        x: Reg,
        /// Its length.
        n: usize,
    },
}

/// How a listed first layer sums its int8 products: the kernel it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListedSums {
    /// In int32 (`affine_listed`).
    Exact,
    /// In int16 pairs of listed groups (`affine_listed_pairs`).
    Pairs,
    /// In int16 pairs within runs of four listed groups (`affine_listed_fours`).
    Fours,
}

/// One kernel call. Fields: `x`, `a`, `b`, `parts` are the registers read, `out` the one
/// written, `param` the weights (of the position's bucket), `inputs` and `n` the lengths read
/// and written, the rest the kernel's constants.
#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Call {
    /// The first layer on the listed bytes of a pairwise transform (`affine_listed`, or
    /// `affine_listed_pairs` for int16 pair sums, `affine_listed_fours` for them paired within
    /// runs of four): `n` outputs, plus the biases unless `bias` is false (the multi-layer
    /// nets' sparse layer adds its bias after rescaling). The fours' neuron order is the net's
    /// (the reader puts such a net in Viridithas's, as its loader does).
    Listed { param: Param, n: usize, sums: ListedSums, bias: bool, out: Reg },
    /// The first layer on both perspectives' clipped bytes (`affine_sparse`).
    Sparse { param: Param, n: usize, bias: bool, out: Reg },
    /// A single-layer net's output: the accumulators clamped to `0..=max` (squared for
    /// SCReLU) dotted with int16 weights.
    Output { param: Param, max: i32, screlu: bool, out: Reg },
    /// An int8 layer of `inputs` bytes to `n > 1` sums (`affine_dense`).
    Dense { param: Param, x: Reg, inputs: usize, n: usize, out: Reg },
    /// An int8 layer of `inputs` bytes to one sum (`affine_one`).
    One { param: Param, x: Reg, inputs: usize, out: Reg },
    /// Stockfish 15.1–18's fc_0 activation of 16 sums, packed as fc_1 reads it.
    Fc0Act { x: Reg, out: Reg },
    /// Stockfish 15.1–18's fc_1 activation of 32 sums, packed as fc_2 reads it.
    Fc1Act { x: Reg, out: Reg },
    /// `clamp(x >> shift, 0, 127)` of `n` sums, in order.
    Clipped { x: Reg, n: usize, shift: u32, out: Reg },
    /// Bytes one after the other (`n` in all).
    Concat { parts: Vec<Part>, n: usize, out: Reg },
    /// `x[i]`, one int32.
    Element { x: Reg, i: usize, out: Reg },
    /// f32 registers one after the other (a skip connection), `n` values in all.
    ConcatF32 { parts: Vec<(Reg, usize)>, n: usize, out: Reg },
    /// `x · k`, wrapping.
    Mul { x: Reg, k: i32, out: Reg },
    /// `x / k`, truncating (`k` is neither 0 nor −1).
    Div { x: Reg, k: i32, out: Reg },
    /// `a + b`, wrapping.
    Add { a: Reg, b: Reg, out: Reg },
    /// `a − b`, wrapping.
    Sub { a: Reg, b: Reg, out: Reg },
    /// `x + bias`, the bias int16.
    AddBiasI16 { param: Param, x: Reg, out: Reg },
    /// `fma(float(x), num / den, bias)` of `n` sums.
    Dequant { param: Param, x: Reg, n: usize, num: u32, den: u32, out: Reg },
    /// `[clamp(z, 0, 1)] ++ [min(z², 1)]` of `n` values.
    DualF32 { x: Reg, n: usize, out: Reg },
    /// `clamp(x, 0, 1)²` of `n` values.
    ScreluF32 { x: Reg, n: usize, out: Reg },
    /// `clamp(x, 0, 1)` of `n` values.
    ClampF32 { x: Reg, n: usize, out: Reg },
    /// `x · clamp(x + 3, 0, 6) · (1/6)` of `n` values (hard-swish).
    HardSwishF32 { x: Reg, n: usize, out: Reg },
    /// `hardswish(x[i]) · x[i + n]` for `i < n`, of `2n` values (SwiGLU).
    SwigluF32 { x: Reg, n: usize, out: Reg },
    /// `a + b` of `n` values each, f32 (a residual connection).
    AddF32 { a: Reg, b: Reg, n: usize, out: Reg },
    /// An f32 layer of `inputs` to `n` values.
    AffineF32 { param: Param, x: Reg, inputs: usize, n: usize, out: Reg },
    /// An f32 layer of `inputs` to one value, in its 16-lane order.
    DotF32 { param: Param, x: Reg, inputs: usize, out: Reg },
    /// `[max(x, 0)²] ++ [min(x, 0)²]` of `n` values (cinder's signed square).
    SignedSquareF32 { x: Reg, n: usize, out: Reg },
    /// An f32 layer of `inputs` to `n` values summed in `chains` fma chains (cinder's).
    AffineChainsF32 { param: Param, x: Reg, inputs: usize, n: usize, chains: u32, out: Reg },
    /// An f32 layer of `inputs` to one value over `lanes` lanes, its last `skip` inputs a
    /// residual part (cinder's output).
    LanesF32 { param: Param, x: Reg, inputs: usize, lanes: u32, skip: usize, out: Reg },
    /// `(x · scale) as i32`, then clamped to `±clamp` if said.
    F32ToInt { x: Reg, scale: i32, clamp: Option<i32>, out: Reg },
    /// `(x >> shift) + bias` of `n` sums (`shift` < 32).
    ShiftBias { param: Param, x: Reg, n: usize, shift: u32, out: Reg },
    /// `[clamp(o, 0, Q) · Q] ++ [min(o · o, Q²)]` of `n` sums, Q = 2^q_bits.
    DualI32 { x: Reg, n: usize, q_bits: u32, out: Reg },
    /// `clamp(x, 0, Q)²` of `n` sums.
    ClampSquare { x: Reg, n: usize, q_bits: u32, out: Reg },
    /// An int32 layer of `inputs` to `n > 1` sums.
    AffineI32 { param: Param, x: Reg, inputs: usize, n: usize, out: Reg },
    /// An int32 output layer reading its `inputs` values clamped to `0..=max`.
    ClampedDotI32 { param: Param, x: Reg, inputs: usize, max: i32, out: Reg },
    /// `[clamp(o, 0, Q²) · Q >> shift] ++ [min(o · o, Q⁴) >> (q_bits + shift)]` of `n` sums
    /// (Stormphrax 8's dual activation).
    DualWideI32 { x: Reg, n: usize, q_bits: u32, shift: u32, out: Reg },
    /// Stormphrax 8's output layer: `S = Σ w[i] · (clamp(x[i], 0, max) + s[i])` in int32, then
    /// `(bias + S) · scale >> bits` in int64, truncating toward zero.
    SkipOutputWideI32 { param: Param, x: Reg, s: Reg, inputs: usize, max: i32, scale: i32, bits: u32, out: Reg },
}

/// Why a layer sequence has no lowering: the register or layer it concerns, and what is
/// wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LowerError(pub(crate) String);

impl fmt::Display for LowerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LowerError {}

/// `Err(LowerError(msg))`.
pub(crate) fn err<T>(msg: String) -> Result<T, LowerError> {
    Err(LowerError(msg))
}

/// A shift of int32 sums by `shift`, written to `reg`, has a meaning: below 32.
pub(crate) fn check_shift(reg: Reg, shift: u32) -> Result<(), LowerError> {
    if shift >= 32 {
        return err(format!("r{reg}: a shift by {shift}"));
    }
    Ok(())
}
