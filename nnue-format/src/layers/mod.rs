//! What every net computes after its accumulators, as one sequence of layers: the single
//! description each family maps onto ([`Architecture::layers`]), which the reference
//! evaluator interprets step by step. Values live in numbered registers (`r0` is the
//! transform's output); each step reads registers and writes one. Integer steps wrap as the
//! engines' int32 SIMD adds do; f32 steps fix their order of operations. Each kind of step is
//! one file of [`step`]: its fields, its line of text, its check and its reference value.
//!
//! The text `Display` prints is also read back (`str::parse`): one line per stage, as the
//! README shows for Stockfish 19; `nnue_net!` takes it as `layers = "…"` and checks that the
//! net computes exactly that. The lines (`·` may be `*`, `²` `^2`; `P` a layer's weights:
//! `fc0`..`fc2`, `l1`..`l3`, `out`):
//!
//! ```text
//! bucket 0 | bucket (pieces - 1) / 4 | bucket (pieces - 2) / ceil(32 / B)
//!          | bucket min((63 - pieces)(32 - pieces) / 225, 7)
//! r0 = clamp(a, 0, M) · clamp(a', 0, M) >> S, per half, side to move first
//! r0 = (clamp(a, 0, M) · clamp(a', 0, M) + 2^(S-1)) >> S, per half, side to move first
//! r0 = clamp(acc, 0, M), side to move first [(bytes)]
//! rN = P · rI + b (int8)        rN = l1 · rI (int8)        rN = P · rI (int16)
//! rN = P · rI + b (f32, fma in order)   rN = P · rI + b (f32, 16 lanes)   rN = P · rI + b (int32)
//! rN = P · rI + b (f32, K fma chains)   rN = P · rI + b (f32, W lanes, last N residual)
//! rN = rI[S..E]     rN = rA ++ rB ++ …     rN = rI²     rN = rI + P.b
//! rN = clamp(rI >> S, 0, 127)     rN = min(127, rI² >> S)     rN = clamp(rI, 0, M)
//! rN = rI / K     rN = rI · K     rN = rA + rB     rN = rA - rB
//! rN = fma(f32(rI), NUM/DEN, P.b)     rN = clamp(rI, 0.0, 1.0) ++ min(rI², 1.0)
//! rN = clamp(rI, 0.0, 1.0)²     rN = clamp(rI, 0.0, 1.0)     rN = rA + rB   (f32)
//! rN = rI · clamp(rI + 3.0, 0.0, 6.0) · (1/6)
//! rN = swiglu(rI)   (x[i] · clamp(x[i] + 3.0, 0.0, 6.0) · (1/6) · x[i + n/2])
//! rN = max(rI, 0.0)² ++ min(rI, 0.0)²     rN = clamp(int(rI · K), -M, M)
//! rN = int(rI · K)     rN = (rI >> S) + P.b     rN = clamp(rI, 0, Q) · Q ++ min(rI², Q²)     rN = clamp(rI, 0, Q)²
//! positional = rN[; psqt = (us - them) / 2 / D]
//! ```
//!
//! ```
//! use nnue_format::Architecture;
//!
//! let arch: Architecture = "HalfKP -> 256x2 -> 32 -> 32 -> 1".parse().unwrap();
//! let text = arch.layers().to_string();
//! assert!(text.contains("r1 = fc0 · r0 + b"), "{text}");
//! ```

use std::fmt;

pub(crate) mod call;
mod check;
pub mod step;
mod text;

pub use check::{Number, ParamShape};
pub use step::Step;
pub use text::LayersError;

use crate::arch::{Activation, Architecture, Sf19Arch, SfnnArch};
use crate::layered::{BucketRule, L1Sums, Numbers};

/// A register.
pub type Reg = u8;

/// The weights a step reads (per output bucket where the net has buckets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Param {
    /// Stockfish's first, second and third dense layers (per stack; HalfKP's single net).
    Fc0,
    /// See [`Param::Fc0`].
    Fc1,
    /// See [`Param::Fc0`].
    Fc2,
    /// The multi-layer nets' sparse, dense and output layers.
    L1,
    /// See [`Param::L1`].
    L2,
    /// See [`Param::L1`].
    L3,
    /// A multi-layer net's second f32 dense layer, between L2 and L3 (cinder's).
    L3b,
    /// A chess-768 net's output layer (int16 weights `[2N]` per bucket, int16 bias).
    Out,
}

/// How the output bucket (stack, PSQT bucket) follows from the piece count (kings included).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bucket {
    /// One stack.
    Single,
    /// Stockfish's `(pieces - 1) / 4`.
    Stockfish,
    /// A multi-layer or chess-768 net's rule over `B` buckets.
    Rule(BucketRule, usize),
}

impl Bucket {
    /// The bucket of a position with `pieces` pieces.
    pub fn of(self, pieces: usize) -> usize {
        match self {
            Bucket::Single => 0,
            Bucket::Stockfish => (pieces - 1) / 4,
            Bucket::Rule(rule, buckets) => rule.bucket(pieces, buckets),
        }
    }
}

/// How the two accumulators become `r0` (the side to move's half first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Transform {
    /// `clamp(a[i], 0, max) · clamp(a[i + L1/2], 0, max) >> shift` for `i < L1/2`, per
    /// perspective (with `round`, `(… + 2^(shift − 1)) >> shift`: cinder's `mulhrs`); bytes,
    /// traced as the transformer's output.
    Pairwise {
        /// The clamp's upper bound.
        max: i32,
        /// The product's right shift.
        shift: u32,
        /// The product rounded to nearest (half up) before the shift, else truncated.
        round: bool,
    },
    /// `clamp(a[i], 0, max)` per perspective; traced as the transformer's output when
    /// `bytes` (max at most 255).
    Clipped {
        /// The clamp's upper bound.
        max: i32,
        /// The values are bytes, traced as the transformer's output.
        bytes: bool,
    },
}

/// The net after its accumulators.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Layers {
    /// Which stack (and PSQT bucket) a position uses.
    pub bucket: Bucket,
    /// From the accumulators to `r0`.
    pub transform: Transform,
    /// In order.
    pub steps: Vec<Step>,
    /// The register whose first element is the positional value.
    pub positional: Reg,
    /// The PSQT value is `(us[b] - them[b]) / 2 / psqt_div` (Stockfish's families), if any.
    pub psqt_div: Option<i32>,
}

impl Architecture {
    /// The layers after the accumulators.
    pub fn layers(&self) -> Layers {
        use step::*;
        use Param::*;
        let trace = |reg, activation| Step::Trace { reg, activation };
        match *self {
            Architecture::Sfnn(_) | Architecture::Threats(_) => {
                let hidden = SfnnArch::FC0_OUT - 1;
                // SFNN transformers are doubled at load: 254 is 127 doubled, and `a·b/512`
                // of doubled values is Stockfish's `a·b/128`.
                let max = if matches!(self, Architecture::Sfnn(_)) { 254 } else { 255 };
                Layers {
                    bucket: Bucket::Stockfish,
                    transform: Transform::Pairwise { max, shift: 9, round: false },
                    steps: vec![
                        AffineI8 { param: Fc0, input: 0, out: 1 }.into(),
                        Slice { input: 1, start: 0, len: hidden, out: 2 }.into(),
                        SqrClippedShift { input: 2, shift: 19, out: 3 }.into(),
                        ClippedShift { input: 2, shift: 6, out: 4 }.into(),
                        Concat { inputs: vec![3, 4], out: 5 }.into(),
                        AffineI8 { param: Fc1, input: 5, out: 6 }.into(),
                        ClippedShift { input: 6, shift: 6, out: 7 }.into(),
                        AffineI8 { param: Fc2, input: 7, out: 8 }.into(),
                        // fc_0's last output skips to the end: 1.0 = 127·64 there, 600·16 here.
                        Slice { input: 1, start: hidden, len: 1, out: 9 }.into(),
                        Mul { input: 9, k: 600 * 16, out: 10 }.into(),
                        Div { input: 10, k: 127 * 64, out: 11 }.into(),
                        Add { a: 8, b: 11, out: 12 }.into(),
                        Div { input: 12, k: 16, out: 13 }.into(),
                        trace(1, false),
                        trace(6, false),
                        trace(8, false),
                        trace(5, true),
                        trace(7, true),
                    ],
                    positional: 13,
                    psqt_div: Some(16),
                }
            }
            Architecture::Sf19(a) => Layers {
                bucket: Bucket::Stockfish,
                transform: Transform::Pairwise { max: 255, shift: 9, round: false },
                steps: vec![
                    AffineI8 { param: Fc0, input: 0, out: 1 }.into(),
                    SqrClippedShift { input: 1, shift: 21, out: 2 }.into(),
                    ClippedShift { input: 1, shift: 7, out: 3 }.into(),
                    Concat { inputs: vec![2, 3], out: 4 }.into(),
                    AffineI8 { param: Fc1, input: 4, out: 5 }.into(),
                    SqrClippedShift { input: 5, shift: 19, out: 6 }.into(),
                    ClippedShift { input: 5, shift: 6, out: 7 }.into(),
                    // fc_2 reads both layers' activations.
                    Concat { inputs: vec![4, 6, 7], out: 8 }.into(),
                    AffineI8 { param: Fc2, input: 8, out: 9 }.into(),
                    Slice { input: 1, start: Sf19Arch::FC0_OUT - 2, len: 1, out: 10 }.into(),
                    Slice { input: 1, start: Sf19Arch::FC0_OUT - 1, len: 1, out: 11 }.into(),
                    Sub { a: 10, b: 11, out: 12 }.into(),
                    Add { a: 9, b: 12, out: 13 }.into(),
                    Mul { input: 13, k: 9600, out: 14 }.into(),
                    Div { input: 14, k: 16384, out: 15 }.into(),
                    Div { input: 15, k: 16, out: 16 }.into(),
                    trace(1, false),
                    trace(5, false),
                    trace(9, false),
                    trace(4, true),
                    trace(8, true),
                ],
                positional: 16,
                // SFNNv17 has no PSQT term.
                psqt_div: a.psqt.then_some(16),
            },
            Architecture::HalfKp(_) => Layers {
                bucket: Bucket::Single,
                transform: Transform::Clipped { max: 127, bytes: true },
                steps: vec![
                    AffineI8 { param: Fc0, input: 0, out: 1 }.into(),
                    ClippedShift { input: 1, shift: 6, out: 2 }.into(),
                    AffineI8 { param: Fc1, input: 2, out: 3 }.into(),
                    ClippedShift { input: 3, shift: 6, out: 4 }.into(),
                    AffineI8 { param: Fc2, input: 4, out: 5 }.into(),
                    Div { input: 5, k: 16, out: 6 }.into(),
                    trace(1, false),
                    trace(3, false),
                    trace(5, false),
                    trace(2, true),
                    trace(4, true),
                ],
                positional: 6,
                psqt_div: None,
            },
            Architecture::Chess768(a) => {
                let mut steps: Vec<Step> = Vec::new();
                let mut sum = 1;
                if a.activation == Activation::SCReLU {
                    steps.push(Square { input: 0, out: 1 }.into());
                    steps.push(DotI16 { param: Out, input: 1, out: 2 }.into());
                    steps.push(Div { input: 2, k: a.qa, out: 3 }.into());
                    sum = 3;
                } else {
                    steps.push(DotI16 { param: Out, input: 0, out: 1 }.into());
                }
                steps.extend([trace(sum, false), AddBiasI16 { param: Out, input: sum, out: 4 }.into()]);
                // `scale=none`: the output with its bias, as the engine returns it.
                let positional = match a.scale {
                    Some(scale) => {
                        steps.extend([
                            Mul { input: 4, k: scale, out: 5 }.into(),
                            Div { input: 5, k: a.qa * a.qb, out: 6 }.into(),
                        ]);
                        6
                    }
                    None => 4,
                };
                Layers {
                    bucket: Bucket::Rule(BucketRule::Material, a.output_buckets),
                    transform: Transform::Clipped { max: a.qa, bytes: false },
                    steps,
                    positional,
                    psqt_div: None,
                }
            }
            Architecture::Layered(a) => {
                let sparse = match a.l1_sums {
                    L1Sums::Exact => AffineI8 { param: L1, input: 0, out: 1 }.into(),
                    L1Sums::I16Pairs => AffineI8Pairs { param: L1, input: 0, out: 1 }.into(),
                    L1Sums::ViridithasAvx2 => AffineI8Fours { param: L1, input: 0, out: 1 }.into(),
                };
                let mut steps = vec![sparse, trace(1, false)];
                match a.numbers {
                    Numbers::F32 { num, den } => {
                        // `l2chains=K`: cinder's order of the dense layers' sums.
                        let dense = |param, input, out| match a.dense_chains {
                            0 => AffineF32 { param, input, out }.into(),
                            chains => AffineChainsF32 { param, input, chains, out }.into(),
                        };
                        steps.extend([
                            DequantF32 { param: L1, input: 1, num, den, out: 2 }.into(),
                            f32_act(a.l1_act, 2, 3),
                            dense(L2, 3, 4),
                            f32_act(a.l2_act, 4, 5),
                        ]);
                        // `residual`: the dense layer's input added to its activation.
                        let mut act = if a.residual {
                            steps.push(AddF32 { a: 5, b: 3, out: 9 }.into());
                            9
                        } else {
                            5
                        };
                        // A second dense layer, with the first's activation (cinder's).
                        if a.l3b.is_some() {
                            steps.extend([dense(L3b, act, 12), f32_act(a.l2_act, 12, 13)]);
                            act = 13;
                        }
                        // `skip`: the output layer reads the sparse layer's activation too.
                        let last = if a.skip {
                            steps.push(Concat { inputs: vec![act, 3], out: 8 }.into());
                            8
                        } else {
                            act
                        };
                        let output = match a.out_lanes {
                            0 => DotF32 { param: L3, input: last, out: 6 }.into(),
                            lanes => {
                                let skip = a.l3_inputs() - a.last_act_width();
                                LanesF32 { param: L3, input: last, lanes, skip, out: 6 }.into()
                            }
                        };
                        steps
                            .extend([output, F32ToInt { input: 6, scale: a.scale, clamp: a.out_clamp, out: 7 }.into()]);
                    }
                    Numbers::I32 { q_bits, l1_shift, wide: true } => {
                        steps.extend([
                            ShiftBias { param: L1, input: 1, shift: l1_shift, out: 2 }.into(),
                            DualWideI32 { input: 2, q_bits, shift: q_bits, out: 3 }.into(),
                            AffineI32 { param: L2, input: 3, out: 4 }.into(),
                            Clamp { input: 4, max: 1 << (3 * q_bits), out: 5 }.into(),
                        ]);
                        // Stormphrax 8's skip adds the activation, in Q³ units, to the clamped L3 values.
                        let last = if a.skip {
                            steps.extend([
                                DualWideI32 { input: 2, q_bits, shift: 0, out: 10 }.into(),
                                Add { a: 5, b: 10, out: 11 }.into(),
                            ]);
                            11
                        } else {
                            5
                        };
                        steps.push(OutputWideI32 { param: L3, input: last, scale: a.scale, q_bits, out: 7 }.into());
                    }
                    Numbers::I32 { q_bits, l1_shift, wide: false } => steps.extend([
                        ShiftBias { param: L1, input: 1, shift: l1_shift, out: 2 }.into(),
                        if a.dual() {
                            DualI32 { input: 2, q_bits, out: 3 }.into()
                        } else {
                            ClampSquare { input: 2, q_bits, out: 3 }.into()
                        },
                        AffineI32 { param: L2, input: 3, out: 4 }.into(),
                        Clamp { input: 4, max: 1 << (3 * q_bits), out: 5 }.into(),
                        AffineI32 { param: L3, input: 5, out: 6 }.into(),
                        Div { input: 6, k: 1 << q_bits, out: 8 }.into(),
                        Mul { input: 8, k: a.scale, out: 9 }.into(),
                        Div { input: 9, k: 1 << (3 * q_bits), out: 7 }.into(),
                    ]),
                }
                // Traced: the sums, the activation's input, the dense layer's output, the output
                // (Stormphrax 8's: scaled).
                let output = if matches!(a.numbers, Numbers::I32 { wide: true, .. }) { 7 } else { 6 };
                steps.extend([trace(2, false), trace(4, false), trace(output, false)]);
                Layers {
                    bucket: Bucket::Rule(a.bucket_rule, a.buckets),
                    transform: Transform::Pairwise { max: a.ft_max, shift: a.ft_shift, round: a.ft_round },
                    steps,
                    positional: 7,
                    psqt_div: None,
                }
            }
        }
    }
}

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Param::Fc0 => "fc0",
            Param::Fc1 => "fc1",
            Param::Fc2 => "fc2",
            Param::L1 => "l1",
            Param::L2 => "l2",
            Param::L3 => "l3",
            Param::L3b => "l3b",
            Param::Out => "out",
        };
        f.write_str(name)
    }
}

impl fmt::Display for Layers {
    /// One line per stage: the bucket rule, the transform, each step.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.bucket {
            Bucket::Single => writeln!(f, "bucket 0")?,
            Bucket::Stockfish => writeln!(f, "bucket (pieces - 1) / 4")?,
            Bucket::Rule(BucketRule::Material, b) => writeln!(f, "bucket (pieces - 2) / ceil(32 / {b})")?,
            Bucket::Rule(BucketRule::Alexandria, _) => writeln!(f, "bucket min((63 - pieces)(32 - pieces) / 225, 7)")?,
            Bucket::Rule(BucketRule::Table(t), _) => {
                let list: Vec<String> = t.iter().map(u8::to_string).collect();
                writeln!(f, "bucket [{}][pieces]", list.join(", "))?
            }
        }
        match self.transform {
            Transform::Pairwise { max, shift, round: false } => {
                writeln!(f, "r0 = clamp(a, 0, {max}) · clamp(a', 0, {max}) >> {shift}, per half, side to move first")?
            }
            Transform::Pairwise { max, shift, round: true } => {
                let half = text::pow2(shift.saturating_sub(1));
                writeln!(
                    f,
                    "r0 = (clamp(a, 0, {max}) · clamp(a', 0, {max}) + {half}) >> {shift}, per half, side to move first"
                )?
            }
            Transform::Clipped { max, bytes: false } => writeln!(f, "r0 = clamp(acc, 0, {max}), side to move first")?,
            Transform::Clipped { max, bytes: true } => {
                writeln!(f, "r0 = clamp(acc, 0, {max}), side to move first (bytes)")?
            }
        }
        for step in self.computing_steps() {
            writeln!(f, "{step}")?;
        }
        write!(f, "positional = r{}", self.positional)?;
        if let Some(d) = self.psqt_div {
            write!(f, "; psqt = (us - them) / 2 / {d}")?;
        }
        Ok(())
    }
}

impl Layers {
    /// Whether every value an int8 layer ([`Step::AffineI8`], [`Step::AffineI8Pairs`]) reads is
    /// proven to be in `0..=127` (7 bits) by the sequence itself: the bounds follow from the
    /// transform (`clamp(a, 0, M) · clamp(a', 0, M) >> S` is at most `M² >> S`, `clamp(acc, 0, M)`
    /// at most `M`) and the byte steps (`ClippedShift`, `SqrClippedShift`: 127; slices and
    /// concatenations keep their inputs' bounds); a register any other step writes has no
    /// bound, and an int8 layer reading one fails the proof. Where it holds, int8 dot products
    /// whose second operand must fit 7 bits (WebAssembly's relaxed
    /// `i32x4_relaxed_dot_i8x16_i7x16_add`) are exact for the net: their int16 pair sums stay
    /// within `2 · 128 · 127 = 32512`. A sequence without int8 layers holds it vacuously.
    ///
    /// ```
    /// use nnue_format::Architecture;
    ///
    /// // Stockfish 19's pairwise transform: 255 · 255 >> 9 = 127.
    /// let arch: Architecture = "HalfKAv2_hm+Threats19+PawnPairs -> 1024x2 -> (32 -> 32 -> 1)x8, psqt=8".parse().unwrap();
    /// assert_eq!(arch.layers().int8_input_max(), Some(127));
    /// assert!(arch.layers().int8_inputs_fit_7_bits());
    /// ```
    pub fn int8_inputs_fit_7_bits(&self) -> bool {
        self.int8_input_max().is_some_and(|max| max <= 127)
    }

    /// The largest value any int8 layer of the sequence can read, as [`Layers::int8_inputs_fit_7_bits`]
    /// proves it (0 without int8 layers); `None` when an int8 layer reads a register without a
    /// bound (or one never written).
    pub fn int8_input_max(&self) -> Option<i32> {
        // Per register: the largest value it holds, where the steps bound it (all are >= 0).
        let mut bound: Vec<Option<i32>> = vec![None; usize::from(Reg::MAX) + 1];
        bound[0] = match self.transform {
            Transform::Pairwise { max, shift, round } => {
                let m = i64::from(max.max(0));
                let half = if round { 1i64.checked_shl(shift.saturating_sub(1)).unwrap_or(0) } else { 0 };
                // A shift of 64 or more leaves 0 (the product is below 2^62).
                i32::try_from((m * m + half).checked_shr(shift).unwrap_or(0)).ok()
            }
            Transform::Clipped { max, .. } => Some(max.max(0)),
        };
        let mut largest = 0;
        for step in &self.steps {
            let Some(kind) = step.kind() else { continue };
            if let Some(input) = kind.int8_input() {
                largest = largest.max(bound[usize::from(input)]?);
            }
            let written = kind.bound(&|r| bound[usize::from(r)]);
            if let Some(out) = step.out() {
                bound[usize::from(out)] = written;
            }
        }
        Some(largest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every family's layers read only registers written before, write each register once,
    /// and end in a written register.
    #[test]
    fn every_family_is_a_well_formed_sequence() {
        let kings = "kings=[0,0,1,1,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
        for text in [
            "HalfKAv2_hm -> 3072x2 -> (15+1 -> 32 -> 1)x8, psqt=8".to_string(),
            "HalfKAv2_hm+Threats -> 1024x2 -> (15+1 -> 32 -> 1)x8, psqt=8".into(),
            "HalfKAv2_hm+Threats19+PawnPairs -> 1024x2 -> (32 -> 32 -> 1)x8, psqt=8".into(),
            "PSQ768hm -> 1024x2 -> (32 -> 32 -> 1)x8, psqt=8".into(),
            "HalfKP -> 256x2 -> 32 -> 32 -> 1".into(),
            "(768 -> 512)x2 -> 1x8, crelu, qa=255, qb=64, scale=400".into(),
            "(768hm -> 1024)x2 -> 1x8, screlu, qa=255, qb=64, scale=400".into(),
            format!("(768x2hm -> 64)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x8, f32, dual, l1mul=1024/4161600, scale=362, file=alexandria, {kings}"),
            "(704hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, q=64, l1shift=8, scale=400, file=cbnf".into(),
            "(768hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, l1act=crelu, l2act=crelu, l1mul=1/64, scale=200, file=bullet".into(),
            "(768hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, l1act=crelu, l1mul=1/64, scale=200, l1sums=i16pairs, file=obsidian".into(),
            "(768hm -> 64)x2 -> pairwise>>9 -> (32 -> 64 -> 1)x8, f32, l1act=hardswish, l2act=swiglu, residual, l1mul=512/4161600, scale=240, file=bullet".into(),
            crate::preset::VIRIDITHAS.into(),
            crate::preset::CINDER.into(),
        ] {
            let arch: Architecture = text.parse().unwrap();
            let layers = arch.layers();
            let mut written = vec![0u8];
            for step in &layers.steps {
                let (reads, writes) = step.registers();
                for r in reads {
                    assert!(written.contains(&r), "{text}: {step:?} reads r{r} before it is written");
                }
                if let Some(w) = writes {
                    assert!(!written.contains(&w), "{text}: r{w} written twice");
                    written.push(w);
                }
            }
            assert!(written.contains(&layers.positional), "{text}");
            assert!(layers.to_string().lines().count() > 3, "{text}");
            // The text form reads back as the same computation and prints the same.
            let printed = layers.to_string();
            let read: Layers = printed.parse().unwrap_or_else(|e| panic!("{text}: {e}\n{printed}"));
            assert!(read.computes_as(&layers), "{text}:\n{printed}\n{read:?}");
            assert_eq!(read.to_string(), printed);
        }
    }

    /// Every family's own layers feed their int8 layers values in 0..=127: Stockfish's pairwise
    /// transforms (254 · 254 >> 9 = 126 on the doubled SFNN accumulators, 255 · 255 >> 9 = 127
    /// after), HalfKP's clamp at 127, the clipped ReLUs between the dense layers (127), the
    /// multi-layer nets' pairwise transform at shifts 9 and 10; chess-768 nets have no int8
    /// layer. The synthetic nets of `synth` and the architectures of the shared nets' kinds.
    #[test]
    fn every_familys_int8_inputs_fit_7_bits() {
        use crate::arch::Sf19Inputs;
        use crate::{synth, Encoding};
        let kings = "kings=[0,0,1,1,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
        let layered = |text: &str| {
            let Ok(Architecture::Layered(a)) = text.parse::<Architecture>() else { panic!("{text}") };
            synth::layered(&a, 9)
        };
        let chess768 = |text: &str| {
            let Ok(Architecture::Chess768(a)) = text.parse::<Architecture>() else { panic!("{text}") };
            synth::chess768(&a, 8)
        };
        let nets = [
            (synth::sfnn(64, 1, Encoding::Raw), Some(127)),
            (synth::threats(64, 2, Encoding::Raw), Some(127)),
            (synth::sf19(64, Sf19Inputs::Lite, 3, Encoding::Raw), Some(127)),
            (synth::without_psqt(synth::sf19(64, Sf19Inputs::Lite, 4, Encoding::Raw)), Some(127)),
            (synth::halfkp(32, 5), Some(127)),
            (chess768("(768 -> 32)x2 -> 1x8, crelu, qa=255, qb=64, scale=400"), Some(0)),
            (chess768("(768hm -> 32)x2 -> 1x8, screlu, qa=255, qb=64, scale=400"), Some(0)),
            (layered(&format!("(768x2hm -> 64)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x8, f32, dual, l1mul=1024/4161600, scale=362, file=alexandria, {kings}")), Some(63)),
            (layered("(704hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, q=64, l1shift=8, scale=400, file=cbnf"), Some(127)),
            (layered("(768hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, l1act=crelu, l2act=crelu, l1mul=1/64, scale=200, file=bullet"), Some(127)),
            (layered("(768hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, l1act=crelu, l1mul=1/64, scale=200, l1sums=i16pairs, file=obsidian"), Some(127)),
        ];
        for (net, max) in nets {
            let arch = net.arch();
            let layers = arch.layers();
            assert_eq!(layers.int8_input_max(), max, "{arch}");
            assert!(layers.int8_inputs_fit_7_bits(), "{arch}");
        }
        // Sf19's full inputs and the big SFNN widths: the same layers.
        for text in [
            "HalfKAv2_hm -> 3072x2 -> (15+1 -> 32 -> 1)x8, psqt=8",
            "HalfKAv2_hm+Threats19+PawnPairs -> 1024x2 -> (32 -> 32 -> 1)x8, psqt=8",
            "PSQ768hm -> 1024x2 -> (32 -> 32 -> 1)x8, psqt=8",
            "HalfKP -> 256x2 -> 32 -> 32 -> 1",
        ] {
            let arch: Architecture = text.parse().unwrap();
            assert!(arch.layers().int8_inputs_fit_7_bits(), "{text}");
        }
    }

    /// Sequences whose int8 layers may read a value past 127: a transform whose bound exceeds
    /// it, an int8 layer over int32 sums or a clamp's output (int32, unbounded here), or over a
    /// concatenation with such a register; and a register never written.
    #[test]
    fn int8_inputs_past_7_bits_fail_the_proof() {
        let arch: Architecture = "HalfKP -> 256x2 -> 32 -> 32 -> 1".parse().unwrap();
        let own = arch.layers();
        let with = |transform, steps: Vec<Step>| Layers { transform, steps, ..own.clone() };
        use step::*;
        let fc0 = || Step::AffineI8(AffineI8 { param: Param::Fc0, input: 0, out: 1 });
        // 254 · 254 >> 8 = 252; 255 · 255 >> 9 = 127 is the edge.
        let pairwise = |max, shift| Transform::Pairwise { max, shift, round: false };
        assert_eq!(with(pairwise(254, 8), vec![fc0()]).int8_input_max(), Some(252));
        assert!(!with(pairwise(254, 8), vec![fc0()]).int8_inputs_fit_7_bits());
        assert!(with(pairwise(255, 9), vec![fc0()]).int8_inputs_fit_7_bits());
        assert!(!with(pairwise(256, 9), vec![fc0()]).int8_inputs_fit_7_bits());
        assert!(with(pairwise(i32::MAX, 64), vec![fc0()]).int8_inputs_fit_7_bits());
        let clipped = |max| Transform::Clipped { max, bytes: true };
        assert!(!with(clipped(255), vec![fc0()]).int8_inputs_fit_7_bits());
        assert!(with(clipped(127), vec![fc0()]).int8_inputs_fit_7_bits());
        // The Pairs layer counts as an int8 layer too.
        let pairs = Step::AffineI8Pairs(AffineI8Pairs { param: Param::L1, input: 0, out: 1 });
        assert!(!with(pairwise(255, 8), vec![pairs.clone()]).int8_inputs_fit_7_bits());
        assert!(with(pairwise(255, 9), vec![pairs]).int8_inputs_fit_7_bits());
        let fc1 = |input| Step::AffineI8(AffineI8 { param: Param::Fc1, input, out: 9 });
        let t = clipped(127);
        // int32 sums, a clamp (int32), a slice of sums: no bound.
        assert_eq!(with(t, vec![fc0(), fc1(1)]).int8_input_max(), None);
        assert!(
            !with(t, vec![fc0(), Step::Clamp(Clamp { input: 1, max: 100, out: 2 }), fc1(2)]).int8_inputs_fit_7_bits()
        );
        assert!(!with(t, vec![fc0(), Step::Slice(Slice { input: 1, start: 0, len: 8, out: 2 }), fc1(2)])
            .int8_inputs_fit_7_bits());
        // A concatenation is bounded only if every part is.
        let act = Step::ClippedShift(ClippedShift { input: 1, shift: 6, out: 2 });
        let sqr = Step::SqrClippedShift(SqrClippedShift { input: 1, shift: 19, out: 3 });
        let cat = |inputs| Step::Concat(Concat { inputs, out: 4 });
        assert!(with(t, vec![fc0(), act.clone(), sqr.clone(), cat(vec![2, 3]), fc1(4)]).int8_inputs_fit_7_bits());
        assert!(!with(t, vec![fc0(), act.clone(), sqr, cat(vec![2, 1]), fc1(4)]).int8_inputs_fit_7_bits());
        assert!(with(t, vec![fc0(), act.clone(), Step::Slice(Slice { input: 2, start: 0, len: 8, out: 3 }), fc1(3)])
            .int8_inputs_fit_7_bits());
        // Never written.
        assert!(!with(t, vec![fc0(), fc1(7)]).int8_inputs_fit_7_bits());
    }
}
