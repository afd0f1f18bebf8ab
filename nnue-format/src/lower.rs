//! The one lowering of a net's layers: the description's steps ([`Layers`]) resolved into
//! calls of the runtime's layer kernels, each with its input and output registers, their
//! kinds and lengths. `nnue_net!` turns the calls into tokens, the run-time loader into ops;
//! neither walks the steps again.
//!
//! Steps that only reshape bytes (activations, slices, concatenations) wait until a layer
//! reads them: the layer's stored weights say in which byte order it wants its input
//! ([`InputOrder`]), and the call that writes that order is chosen then (Stockfish 15.1–18's
//! fc_1 and fc_2 read their inputs in the order the SIMD packs leave them).
//!
//! What the lowering refuses, it refuses for both back-ends: a register read before it is
//! written or of another kind, shifts and divisors whose arithmetic has no meaning, a byte
//! order no kernel writes. The sizes the run-time kernels are compiled for are the loader's
//! own limit (the macro compiles any size).

use std::collections::HashMap;
use std::fmt;

use crate::layered::Numbers;
use crate::layers::step::*;
use crate::layers::{Layers, Param, Reg, Transform};
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
    /// `(x · scale) as i32`.
    F32ToInt { x: Reg, scale: i32, out: Reg },
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

/// A net's layers as kernel calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lowered {
    /// What the first layer reads.
    pub input: Input,
    /// The calls in order; the first reads `r0` (the accumulators), the others registers.
    pub calls: Vec<Call>,
    /// What each written register holds.
    pub kinds: HashMap<Reg, Kind>,
    /// The traced registers in order, each with whether it is an activation (bytes) rather
    /// than dense values.
    pub traced: Vec<(Reg, bool)>,
    /// The register of the positional value (one int32).
    pub positional: Reg,
}

/// Why a layer sequence has no lowering: the register or layer it concerns, and what is
/// wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LowerError(String);

impl fmt::Display for LowerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LowerError {}

fn err<T>(msg: String) -> Result<T, LowerError> {
    Err(LowerError(msg))
}

/// A register while lowering: written (its kind), or a byte-shaping step not written yet.
#[derive(Clone)]
enum Val {
    /// `r0`.
    Input(Input),
    Done(Kind),
    Pending(Step),
}

struct Lowering<'a> {
    outputs: &'a dyn Fn(Param) -> Option<usize>,
    order: &'a dyn Fn(Param) -> InputOrder,
    regs: HashMap<Reg, Val>,
    calls: Vec<Call>,
}

/// Lowers `layers`, whose layers have `outputs(param)` outputs each (per bucket, from the
/// layout's biases) and read their input in `order(param)`.
///
/// # Errors
/// The first step without a kernel, named by its register.
pub fn lower(
    layers: &Layers,
    outputs: &dyn Fn(Param) -> Option<usize>,
    order: &dyn Fn(Param) -> InputOrder,
) -> Result<Lowered, LowerError> {
    let input = match layers.transform {
        Transform::Pairwise { .. } => Input::Listed,
        Transform::Clipped { max: 127, bytes: true } => Input::Clipped,
        Transform::Clipped { max, bytes: false } => {
            if i16::try_from(max).is_err() {
                return err(format!("a clamp at {max} past int16"));
            }
            Input::Accumulators { max }
        }
        Transform::Clipped { max, .. } => return err(format!("a byte transform clamped at {max}")),
    };
    let mut l = Lowering { outputs, order, regs: HashMap::from([(0, Val::Input(input))]), calls: Vec::new() };
    let mut traced = Vec::new();
    for step in &layers.steps {
        if let Step::Trace { reg, activation } = *step {
            traced.push((reg, activation));
        } else {
            l.step(step)?;
        }
    }
    if !matches!(l.calls.first(), Some(Call::Listed { .. } | Call::Sparse { .. } | Call::Output { .. })) {
        return err("no layer reads the transform first".into());
    }
    l.scalar(layers.positional)?;
    for &(reg, activation) in &traced {
        match (l.get(reg)?, activation) {
            (Val::Done(Kind::Int | Kind::Ints(_) | Kind::Float | Kind::Floats(_)), false)
            | (Val::Done(Kind::Bytes(..)), true) => {}
            _ => return err(format!("r{reg} is traced but holds no values of its kind")),
        }
    }
    let kinds = l
        .regs
        .into_iter()
        .filter_map(|(r, v)| match v {
            Val::Done(kind) => Some((r, kind)),
            _ => None,
        })
        .collect();
    Ok(Lowered { input, calls: l.calls, kinds, traced, positional: layers.positional })
}

impl Lowering<'_> {
    fn get(&self, reg: Reg) -> Result<&Val, LowerError> {
        self.regs.get(&reg).ok_or_else(|| LowerError(format!("r{reg} is read before it is written")))
    }

    fn outputs(&self, param: Param) -> Result<usize, LowerError> {
        (self.outputs)(param).ok_or_else(|| LowerError(format!("the layout has no biases of {param}")))
    }

    fn ints(&self, reg: Reg) -> Result<usize, LowerError> {
        match self.get(reg)? {
            Val::Done(Kind::Ints(n)) => Ok(*n),
            _ => err(format!("r{reg} is not int32 sums")),
        }
    }

    fn floats(&self, reg: Reg) -> Result<usize, LowerError> {
        match self.get(reg)? {
            Val::Done(Kind::Floats(n)) => Ok(*n),
            _ => err(format!("r{reg} is not f32 values")),
        }
    }

    fn scalar(&self, reg: Reg) -> Result<(), LowerError> {
        match self.get(reg)? {
            Val::Done(Kind::Int) => Ok(()),
            _ => err(format!("r{reg} is not a single int32 value")),
        }
    }

    fn shift(reg: Reg, shift: u32) -> Result<(), LowerError> {
        if shift >= 32 {
            return err(format!("r{reg}: a shift by {shift}"));
        }
        Ok(())
    }

    fn first(&self, out: Reg) -> Result<(), LowerError> {
        if !self.calls.is_empty() {
            return err(format!("r{out}: a second layer reads the transform, or it is read after another layer"));
        }
        Ok(())
    }

    fn step(&mut self, step: &Step) -> Result<(), LowerError> {
        let (out, kind, call) = match step {
            Step::AffineI8(AffineI8 { param, input, out })
            | Step::AffineI8Pairs(AffineI8Pairs { param, input, out })
            | Step::AffineI8Fours(AffineI8Fours { param, input, out }) => {
                let sums = match step {
                    Step::AffineI8Fours(_) => ListedSums::Fours,
                    Step::AffineI8Pairs(_) => ListedSums::Pairs,
                    _ => ListedSums::Exact,
                };
                let n = self.outputs(*param)?;
                // The multi-layer nets' sparse layer adds its bias after rescaling the sums.
                let bias = *param != Param::L1;
                match self.get(*input)?.clone() {
                    Val::Input(Input::Listed) => {
                        self.first(*out)?;
                        (*out, Kind::Ints(n), Call::Listed { param: *param, n, sums, bias, out: *out })
                    }
                    _ if sums != ListedSums::Exact => {
                        return err(format!("r{out}: int16 pair sums read the pairwise transform's listed bytes"))
                    }
                    Val::Input(Input::Clipped) => {
                        self.first(*out)?;
                        (*out, Kind::Ints(n), Call::Sparse { param: *param, n, bias, out: *out })
                    }
                    _ => {
                        let inputs = self.bytes(*input, (self.order)(*param))?;
                        if n == 1 {
                            (*out, Kind::Int, Call::One { param: *param, x: *input, inputs, out: *out })
                        } else {
                            (*out, Kind::Ints(n), Call::Dense { param: *param, x: *input, inputs, n, out: *out })
                        }
                    }
                }
            }
            Step::Slice(Slice { input, start, len: 1, out }) => {
                let len = self.ints(*input)?;
                if *start >= len {
                    return err(format!("r{out}: r{input}[{start}] is past its {len} values"));
                }
                (*out, Kind::Int, Call::Element { x: *input, i: *start, out: *out })
            }
            // f32 values joined at once (a skip connection); bytes wait for the kernel that
            // makes them in the order the reading layer wants.
            Step::Concat(Concat { inputs, out })
                if inputs.iter().all(|r| matches!(self.regs.get(r), Some(Val::Done(Kind::Floats(_))))) =>
            {
                let parts = inputs.iter().map(|&r| Ok((r, self.floats(r)?))).collect::<Result<Vec<_>, _>>()?;
                let n = parts.iter().map(|p| p.1).sum();
                (*out, Kind::Floats(n), Call::ConcatF32 { parts, n, out: *out })
            }
            Step::Slice(Slice { out, .. })
            | Step::ClippedShift(ClippedShift { out, .. })
            | Step::SqrClippedShift(SqrClippedShift { out, .. })
            | Step::Concat(Concat { out, .. })
            | Step::Square(Square { out, .. })
            | Step::Clamp(Clamp { out, .. }) => {
                self.regs.insert(*out, Val::Pending(step.clone()));
                return Ok(());
            }
            Step::Mul(Mul { input, k, out }) => {
                self.scalar(*input)?;
                (*out, Kind::Int, Call::Mul { x: *input, k: *k, out: *out })
            }
            Step::Div(Div { input, k, out }) => {
                if *k == 0 || *k == -1 {
                    return err(format!("r{out}: a division by {k}"));
                }
                self.scalar(*input)?;
                (*out, Kind::Int, Call::Div { x: *input, k: *k, out: *out })
            }
            // Stormphrax 8's skip: clamped values plus the activation, read by its output layer.
            Step::Add(Add { a, out, .. })
                if matches!(self.regs.get(a), Some(Val::Pending(Step::Clamp(Clamp { .. })))) =>
            {
                self.regs.insert(*out, Val::Pending(step.clone()));
                return Ok(());
            }
            Step::Add(Add { a, b, out }) | Step::Sub(Sub { a, b, out }) => {
                self.scalar(*a)?;
                self.scalar(*b)?;
                let call = if matches!(step, Step::Add(Add { .. })) {
                    Call::Add { a: *a, b: *b, out: *out }
                } else {
                    Call::Sub { a: *a, b: *b, out: *out }
                };
                (*out, Kind::Int, call)
            }
            Step::DotI16(DotI16 { param, input, out }) => {
                let (max, screlu) = match (self.get(*input)?, self.regs.get(&0)) {
                    (Val::Input(Input::Accumulators { max }), _) => (*max, false),
                    (
                        Val::Pending(Step::Square(Square { input: 0, .. })),
                        Some(Val::Input(Input::Accumulators { max })),
                    ) => (*max, true),
                    _ => return err(format!("r{out}: an int16 output layer reads the accumulators or their squares")),
                };
                self.first(*out)?;
                (*out, Kind::Int, Call::Output { param: *param, max, screlu, out: *out })
            }
            Step::AddBiasI16(AddBiasI16 { param, input, out }) => {
                self.scalar(*input)?;
                (*out, Kind::Int, Call::AddBiasI16 { param: *param, x: *input, out: *out })
            }
            Step::DequantF32(DequantF32 { param, input, num, den, out }) => {
                let n = self.ints(*input)?;
                let call = Call::Dequant { param: *param, x: *input, n, num: *num, den: *den, out: *out };
                (*out, Kind::Floats(n), call)
            }
            Step::DualF32(DualF32 { input, out }) => {
                let n = self.floats(*input)?;
                (*out, Kind::Floats(2 * n), Call::DualF32 { x: *input, n, out: *out })
            }
            Step::ScreluF32(ScreluF32 { input, out }) => {
                let n = self.floats(*input)?;
                (*out, Kind::Floats(n), Call::ScreluF32 { x: *input, n, out: *out })
            }
            Step::ClampF32(ClampF32 { input, out }) => {
                let n = self.floats(*input)?;
                (*out, Kind::Floats(n), Call::ClampF32 { x: *input, n, out: *out })
            }
            Step::HardSwishF32(HardSwishF32 { input, out }) => {
                let n = self.floats(*input)?;
                (*out, Kind::Floats(n), Call::HardSwishF32 { x: *input, n, out: *out })
            }
            Step::SwigluF32(SwigluF32 { input, out }) => {
                let n = self.floats(*input)?;
                if n % 2 != 0 {
                    return err(format!("r{out}: a gated activation of {n} values, not an even number"));
                }
                (*out, Kind::Floats(n / 2), Call::SwigluF32 { x: *input, n: n / 2, out: *out })
            }
            Step::AddF32(AddF32 { a, b, out }) => {
                let (n, m) = (self.floats(*a)?, self.floats(*b)?);
                if n != m {
                    return err(format!("r{out}: r{a} has {n} values, r{b} {m}"));
                }
                (*out, Kind::Floats(n), Call::AddF32 { a: *a, b: *b, n, out: *out })
            }
            Step::AffineF32(AffineF32 { param, input, out }) => {
                let (inputs, n) = (self.floats(*input)?, self.outputs(*param)?);
                (*out, Kind::Floats(n), Call::AffineF32 { param: *param, x: *input, inputs, n, out: *out })
            }
            Step::DotF32(DotF32 { param, input, out }) => {
                let inputs = self.floats(*input)?;
                (*out, Kind::Float, Call::DotF32 { param: *param, x: *input, inputs, out: *out })
            }
            Step::F32ToInt(F32ToInt { input, scale, out }) => {
                if !matches!(self.get(*input)?, Val::Done(Kind::Float)) {
                    return err(format!("r{input} is not one f32 value"));
                }
                (*out, Kind::Int, Call::F32ToInt { x: *input, scale: *scale, out: *out })
            }
            Step::ShiftBias(ShiftBias { param, input, shift, out }) => {
                let n = self.ints(*input)?;
                Self::shift(*out, *shift)?;
                (*out, Kind::Ints(n), Call::ShiftBias { param: *param, x: *input, n, shift: *shift, out: *out })
            }
            Step::DualI32(DualI32 { input, q_bits, out }) | Step::ClampSquare(ClampSquare { input, q_bits, out }) => {
                let n = self.ints(*input)?;
                // The grammar's rule, and `check_fits`'s (the arithmetic wraps as the
                // reference's does).
                if *q_bits > Numbers::MAX_Q_BITS {
                    return err(format!("r{out}: Q = 2^{q_bits}, above 2^{}", Numbers::MAX_Q_BITS));
                }
                let (x, q_bits, out) = (*input, *q_bits, *out);
                if matches!(step, Step::DualI32(DualI32 { .. })) {
                    (out, Kind::Ints(2 * n), Call::DualI32 { x, n, q_bits, out })
                } else {
                    (out, Kind::Ints(n), Call::ClampSquare { x, n, q_bits, out })
                }
            }
            Step::DualWideI32(DualWideI32 { input, q_bits, shift, out }) => {
                let n = self.ints(*input)?;
                // `check_fits`'s rule: Q⁴ fits an int32, the shifts stay below 32.
                if *q_bits > 7 || q_bits + shift >= 32 {
                    return err(format!("r{out}: Q = 2^{q_bits}, a shift by {shift}"));
                }
                let (x, q_bits, shift, out) = (*input, *q_bits, *shift, *out);
                (out, Kind::Ints(2 * n), Call::DualWideI32 { x, n, q_bits, shift, out })
            }
            Step::OutputWideI32(OutputWideI32 { param, input, scale, q_bits, out }) => {
                let wrong =
                    || LowerError(format!("r{out}: Stormphrax 8's output layer reads clamped values plus the skip"));
                let Val::Pending(Step::Add(Add { a, b: s, .. })) = self.get(*input)?.clone() else {
                    return Err(wrong());
                };
                let Val::Pending(Step::Clamp(Clamp { input: x, max, .. })) = self.get(a)?.clone() else {
                    return Err(wrong());
                };
                let (inputs, n_s) = (self.ints(x)?, self.ints(s)?);
                if n_s != inputs || *q_bits > 7 {
                    return err(format!("r{out}: {n_s} skip values for {inputs} inputs, Q = 2^{q_bits}"));
                }
                let (scale, bits) = (*scale, 4 * q_bits);
                let call = Call::SkipOutputWideI32 { param: *param, x, s, inputs, max, scale, bits, out: *out };
                (*out, Kind::Int, call)
            }
            Step::AffineI32(AffineI32 { param, input, out }) => {
                let n = self.outputs(*param)?;
                if n == 1 {
                    // The output layer reads its input clamped: one kernel.
                    let Val::Pending(Step::Clamp(Clamp { input: x, max, .. })) = self.get(*input)?.clone() else {
                        return err(format!("r{out}: an int32 output layer reads clamped values"));
                    };
                    let inputs = self.ints(x)?;
                    (*out, Kind::Int, Call::ClampedDotI32 { param: *param, x, inputs, max, out: *out })
                } else {
                    let inputs = self.ints(*input)?;
                    (*out, Kind::Ints(n), Call::AffineI32 { param: *param, x: *input, inputs, n, out: *out })
                }
            }
            Step::Trace { .. } => return Ok(()),
        };
        self.calls.push(call);
        self.regs.insert(out, Val::Done(kind));
        Ok(())
    }

    /// Register `reg` as bytes in `order`, lowering the steps that write them; their length.
    fn bytes(&mut self, reg: Reg, order: InputOrder) -> Result<usize, LowerError> {
        let step = match self.get(reg)?.clone() {
            Val::Done(Kind::Bytes(n, o)) if o == order => return Ok(n),
            Val::Done(Kind::Bytes(_, o)) => return err(format!("r{reg} is in {o:?} order, a layer wants {order:?}")),
            Val::Pending(step) => step,
            _ => return err(format!("r{reg} is not bytes")),
        };
        let (n, call) = match (&step, order) {
            (Step::Concat(Concat { inputs, .. }), InputOrder::SfnnFc0Act) => (32, self.fc0_act(reg, inputs)?),
            (Step::Concat(Concat { inputs, .. }), InputOrder::Canonical) => {
                let parts = self.concat(inputs)?;
                let n = parts
                    .iter()
                    .map(|p| match *p {
                        Part::Dual { n, .. } => 2 * n,
                        Part::Bytes { n, .. } => n,
                    })
                    .sum();
                if n == 0 {
                    return err(format!("r{reg}: an empty concatenation"));
                }
                (n, Call::Concat { parts, n, out: reg })
            }
            (Step::ClippedShift(ClippedShift { input, shift, .. }), InputOrder::SfnnFc1Act) => {
                if (self.ints(*input)?, *shift) != (32, 6) {
                    return err(format!("r{reg}: Stockfish's fc_1 activation is clamp(x >> 6) of 32 sums"));
                }
                (32, Call::Fc1Act { x: *input, out: reg })
            }
            (Step::ClippedShift(ClippedShift { input, shift, .. }), InputOrder::Canonical) => {
                let n = self.ints(*input)?;
                Self::shift(reg, *shift)?;
                (n, Call::Clipped { x: *input, n, shift: *shift, out: reg })
            }
            _ => return err(format!("no kernel writes r{reg} ({step:?}) in {order:?} order")),
        };
        self.calls.push(call);
        self.regs.insert(reg, Val::Done(Kind::Bytes(n, order)));
        Ok(n)
    }

    /// Stockfish 15.1–18's fc_0 activation: fc_0's first 15 sums squared and clipped (the
    /// 16th skips to the output), packed as fc_1 reads them.
    fn fc0_act(&self, reg: Reg, inputs: &[Reg]) -> Result<Call, LowerError> {
        let wrong = || LowerError("Stockfish's fc_0 activation is x² >> 19 and x >> 6 of 16 sums".into());
        let [a, b] = inputs else { return Err(wrong()) };
        let (
            Some(Val::Pending(Step::SqrClippedShift(SqrClippedShift { input: x, shift: 19, .. }))),
            Some(Val::Pending(Step::ClippedShift(ClippedShift { input: y, shift: 6, .. }))),
        ) = (self.regs.get(a), self.regs.get(b))
        else {
            return Err(wrong());
        };
        if x != y {
            return Err(wrong());
        }
        let Some(Val::Pending(Step::Slice(Slice { input, start: 0, len: 15, .. }))) = self.regs.get(x) else {
            return err(format!("Stockfish's fc_0 activation reads fc_0's first 15 sums, not r{x}"));
        };
        if self.ints(*input)? != 16 {
            return Err(wrong());
        }
        Ok(Call::Fc0Act { x: *input, out: reg })
    }

    /// A concatenation's parts: each pair `min(127, x² >> a), clamp(x >> b, 0, 127)` of one
    /// source is one dual activation; other parts are bytes of their own.
    fn concat(&mut self, inputs: &[Reg]) -> Result<Vec<Part>, LowerError> {
        let pending = |l: &Self, r: Reg| match l.regs.get(&r) {
            Some(Val::Pending(s)) => Some(s.clone()),
            _ => None,
        };
        let mut parts = Vec::new();
        let mut i = 0;
        while i < inputs.len() {
            let pair = (pending(self, inputs[i]), inputs.get(i + 1).and_then(|&r| pending(self, r)));
            if let (
                Some(Step::SqrClippedShift(SqrClippedShift { input: a, shift: sqr, .. })),
                Some(Step::ClippedShift(ClippedShift { input: b, shift, .. })),
            ) = pair
            {
                if a != b {
                    return err(format!("r{} and r{} activate different sums", inputs[i], inputs[i + 1]));
                }
                let n = self.ints(a)?;
                if sqr > 23 || shift >= 32 {
                    return err(format!("r{}: shifts {sqr} and {shift}", inputs[i]));
                }
                parts.push(Part::Dual { x: a, n, sqr, shift });
                i += 2;
            } else {
                let n = self.bytes(inputs[i], InputOrder::Canonical)?;
                parts.push(Part::Bytes { x: inputs[i], n });
                i += 1;
            }
        }
        Ok(parts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Architecture;

    fn lowered(text: &str, outputs: &[(Param, usize)]) -> Result<Lowered, LowerError> {
        let arch: Architecture = text.parse().unwrap();
        let outputs: HashMap<Param, usize> = outputs.iter().copied().collect();
        lower(&arch.layers(), &|p| outputs.get(&p).copied(), &|_| InputOrder::Canonical)
    }

    /// HalfKP's layers: the sparse layer first, each activation where the next layer reads
    /// it, the output a chain of single values.
    #[test]
    fn halfkp_lowers_to_one_call_per_layer() {
        let l = lowered("HalfKP -> 256x2 -> 32 -> 32 -> 1", &[(Param::Fc0, 32), (Param::Fc1, 32), (Param::Fc2, 1)])
            .unwrap();
        assert_eq!(l.input, Input::Clipped);
        assert!(matches!(l.calls[0], Call::Sparse { param: Param::Fc0, n: 32, bias: true, .. }));
        assert!(matches!(l.calls[1], Call::Clipped { n: 32, shift: 6, .. }));
        assert!(matches!(l.calls[2], Call::Dense { param: Param::Fc1, inputs: 32, n: 32, .. }));
        assert!(matches!(l.calls[4], Call::One { param: Param::Fc2, inputs: 32, .. }));
        assert_eq!(l.kinds[&l.positional], Kind::Int);
    }

    /// A multi-layer net's skip connection joins f32 registers in one call.
    #[test]
    fn a_skip_connection_is_one_f32_concatenation() {
        let l = lowered("plentychess", &[(Param::L1, 16), (Param::L2, 32), (Param::L3, 1)]).unwrap();
        assert_eq!(l.input, Input::Listed);
        assert!(matches!(l.calls[0], Call::Listed { bias: false, .. }));
        assert!(l.calls.iter().any(|c| matches!(c, Call::ConcatF32 { .. })), "{:?}", l.calls);
    }

    /// Arithmetic without a meaning is refused for both back-ends, naming the register: a
    /// division by −1 (`i32::MIN / −1` overflows), a shift past 31, a gate over an odd
    /// number of values, a sum of registers of different lengths.
    #[test]
    fn meaningless_arithmetic_is_an_error_naming_the_register() {
        use crate::layers::Bucket;
        let run = |n: usize, tail: Vec<Step>| {
            let mut steps = vec![Step::AffineI8(AffineI8 { param: Param::L1, input: 0, out: 1 })];
            steps.extend(tail);
            let layers = Layers {
                bucket: Bucket::Single,
                transform: Transform::Pairwise { max: 255, shift: 9 },
                steps,
                positional: 9,
                psqt_div: None,
            };
            lower(&layers, &|p| Some(if p == Param::L1 { n } else { 1 }), &|_| InputOrder::Canonical)
                .unwrap_err()
                .to_string()
        };
        let e = run(32, vec![Step::ShiftBias(ShiftBias { param: Param::L2, input: 1, shift: 40, out: 2 })]);
        assert!(e.contains("r2") && e.contains("shift by 40"), "{e}");
        let e = run(
            32,
            vec![Step::Slice(Slice { input: 1, start: 0, len: 1, out: 2 }), Step::Div(Div { input: 2, k: -1, out: 3 })],
        );
        assert!(e.contains("r3") && e.contains("division by -1"), "{e}");
        let dequant = Step::DequantF32(DequantF32 { param: Param::L1, input: 1, num: 1, den: 2, out: 2 });
        let e = run(33, vec![dequant.clone(), Step::SwigluF32(SwigluF32 { input: 2, out: 3 })]);
        assert!(e.contains("r3") && e.contains("33 values"), "{e}");
        let e = run(
            32,
            vec![dequant, Step::DualF32(DualF32 { input: 2, out: 5 }), Step::AddF32(AddF32 { a: 2, b: 5, out: 6 })],
        );
        assert!(e.contains("r6") && e.contains("32 values, r5 64"), "{e}");
    }

    /// A layer whose biases the layout lacks, and a step no kernel writes, are errors naming
    /// what is missing.
    #[test]
    fn what_has_no_kernel_is_an_error_naming_it() {
        let e = lowered("HalfKP -> 256x2 -> 32 -> 32 -> 1", &[(Param::Fc0, 32)]).unwrap_err();
        assert!(e.to_string().contains("fc1"), "{e}");
        let arch: Architecture = "HalfKP -> 256x2 -> 32 -> 32 -> 1".parse().unwrap();
        let mut layers = arch.layers();
        // fc_1 reading squared sums: no kernel writes those bytes.
        layers.steps[1] = Step::Square(Square { input: 1, out: 2 });
        let e = lower(&layers, &|_| Some(32), &|_| InputOrder::Canonical).unwrap_err();
        assert!(e.to_string().contains("r2"), "{e}");
    }
}
