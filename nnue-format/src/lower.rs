//! The one lowering of a net's layers: the description's steps ([`Layers`]) resolved into
//! calls of the runtime's layer kernels, each with its input and output registers, their
//! kinds and lengths. `nnue_net!` turns the calls into tokens, the run-time loader into ops;
//! neither walks the steps again. Each step kind's file says how the kind lowers
//! (`layers/step/`); this walk keeps the registers and the calls.
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

use crate::layers::call::err;
pub use crate::layers::call::{Call, Input, Kind, ListedSums, LowerError, Part};
use crate::layers::step::{Held, Lowers, Registers, Step};
use crate::layers::{Layers, Param, Reg, Transform};
use crate::layout::InputOrder;

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

    /// Lowers one computing step (its kind says how), or records it as waiting.
    fn step(&mut self, step: &Step) -> Result<(), LowerError> {
        let (Some(kind), Some(out)) = (step.kind(), step.out()) else { return Ok(()) };
        match kind.lower(self)? {
            Lowers::To(held, call) => {
                self.calls.push(call);
                self.regs.insert(out, Val::Done(held));
            }
            Lowers::Waits => {
                self.regs.insert(out, Val::Pending(step.clone()));
            }
        }
        Ok(())
    }
}

impl Registers for Lowering<'_> {
    fn held(&self, reg: Reg) -> Result<Held<'_>, LowerError> {
        Ok(match self.get(reg)? {
            Val::Input(input) => Held::Input(*input),
            Val::Done(kind) => Held::Written(*kind),
            Val::Pending(step) => Held::Waiting(step),
        })
    }

    fn outputs(&self, param: Param) -> Result<usize, LowerError> {
        (self.outputs)(param).ok_or_else(|| LowerError(format!("the layout has no biases of {param}")))
    }

    fn order(&self, param: Param) -> InputOrder {
        (self.order)(param)
    }

    fn first(&self, out: Reg) -> Result<(), LowerError> {
        if !self.calls.is_empty() {
            return err(format!("r{out}: a second layer reads the transform, or it is read after another layer"));
        }
        Ok(())
    }

    fn input(&self) -> Option<Input> {
        match self.regs.get(&0) {
            Some(Val::Input(input)) => Some(*input),
            _ => None,
        }
    }

    fn bytes(&mut self, reg: Reg, order: InputOrder) -> Result<usize, LowerError> {
        let step = match self.get(reg)?.clone() {
            Val::Done(Kind::Bytes(n, o)) if o == order => return Ok(n),
            Val::Done(Kind::Bytes(_, o)) => return err(format!("r{reg} is in {o:?} order, a layer wants {order:?}")),
            Val::Pending(step) => step,
            _ => return err(format!("r{reg} is not bytes")),
        };
        let written = match step.kind() {
            Some(kind) => kind.lower_bytes(reg, order, self)?,
            None => None,
        };
        let Some((n, call)) = written else {
            return err(format!("no kernel writes r{reg} ({step:?}) in {order:?} order"));
        };
        self.calls.push(call);
        self.regs.insert(reg, Val::Done(Kind::Bytes(n, order)));
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layers::step::*;
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
    /// number of values, a sum of registers of different lengths, a dual activation's shifts
    /// past 31 together.
    #[test]
    fn meaningless_arithmetic_is_an_error_naming_the_register() {
        use crate::layers::Bucket;
        let run = |n: usize, tail: Vec<Step>| {
            let mut steps = vec![Step::AffineI8(AffineI8 { param: Param::L1, input: 0, out: 1 })];
            steps.extend(tail);
            let layers = Layers {
                bucket: Bucket::Single,
                transform: Transform::Pairwise { max: 255, shift: 9, round: false },
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
        // Q's bits plus a shift near u32::MAX: refused, not an overflow.
        let e = run(32, vec![Step::DualWideI32(DualWideI32 { input: 1, q_bits: 7, shift: u32::MAX, out: 2 })]);
        assert!(e.contains("r2") && e.contains("a shift by 4294967295"), "{e}");
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
