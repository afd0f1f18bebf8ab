//! Registers joined: Stockfish 19's activations, a skip connection.

use std::fmt;

use super::{ClippedShift, Held, Lowers, Read, Registers, Slice, SqrClippedShift, Step, StepKind};
use crate::layers::call::{self, err, Call, LowerError, Part};
use crate::layers::check::{Fit, Kind, MAX_REGISTER_VALUES};
use crate::layers::text::{form, reg};
use crate::layers::Reg;
use crate::layout::InputOrder;
use crate::reference::interpret::{Machine, Value};

/// The registers one after the other: bytes (activations), or f32 values.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Concat {
    /// The registers read, in order.
    pub inputs: Vec<Reg>,
    /// The values written.
    pub out: Reg,
}

impl StepKind for Concat {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "{} ++ {}", |_| Some(Concat { inputs: rhs.split(" ++ ").map(reg).collect::<Option<_>>()?, out }))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list: Vec<String> = self.inputs.iter().map(|r| format!("r{r}")).collect();
        f.write_str(&list.join(" ++ "))
    }

    fn reads(&self) -> Vec<Reg> {
        self.inputs.clone()
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        let add =
            |len: usize, n: usize| len.checked_add(n).filter(|&l| l <= MAX_REGISTER_VALUES).ok_or_else(Fit::too_long);
        // Bytes (Stockfish 19's activations) or f32 values (a skip connection), one kind.
        if self.inputs.iter().all(|&r| matches!(fit.get(r), Ok(Kind::Float(_)))) {
            let mut len = 0usize;
            for &r in &self.inputs {
                if let Ok(Kind::Float(n)) = fit.get(r) {
                    len = add(len, n)?;
                }
            }
            return Ok(Kind::Float(len));
        }
        let (mut len, mut max) = (0usize, 0);
        for &r in &self.inputs {
            match fit.get(r)? {
                Kind::Bytes { len: n, max: m } => {
                    len = add(len, n)?;
                    max = max.max(m);
                }
                k => return Err(format!("r{r} is {}; a concatenation joins bytes, or f32 values", k.name())),
            }
        }
        Ok(Kind::Bytes { len, max })
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        match m.get(self.inputs[0]) {
            Value::Float(_) => Value::Float(self.inputs.iter().flat_map(|&r| m.floats(r).to_vec()).collect()),
            Value::Int(_) => Value::Int(self.inputs.iter().flat_map(|&r| m.ints(r).to_vec()).collect()),
        }
    }

    fn bound(&self, at: &dyn Fn(Reg) -> Option<i32>) -> Option<i32> {
        self.inputs.iter().try_fold(0, |m, &r| Some(m.max(at(r)?)))
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        // f32 values are joined at once (a skip connection); bytes wait for the layer that
        // reads them, whose order decides the kernel.
        if !self.inputs.iter().all(|&x| matches!(r.held(x), Ok(Held::Written(call::Kind::Floats(_))))) {
            return Ok(Lowers::Waits);
        }
        let parts = self.inputs.iter().map(|&x| Ok((x, r.floats(x)?))).collect::<Result<Vec<_>, LowerError>>()?;
        let n = parts.iter().map(|p| p.1).sum();
        Ok(Lowers::To(call::Kind::Floats(n), Call::ConcatF32 { parts, n, out: self.out }))
    }

    fn lower_bytes(
        &self,
        out: Reg,
        order: InputOrder,
        r: &mut dyn Registers,
    ) -> Result<Option<(usize, Call)>, LowerError> {
        match order {
            InputOrder::SfnnFc0Act => Ok(Some((32, fc0_act(out, &self.inputs, r)?))),
            InputOrder::Canonical => {
                let parts = parts(&self.inputs, r)?;
                let n = parts
                    .iter()
                    .map(|p| match *p {
                        Part::Dual { n, .. } => 2 * n,
                        Part::Bytes { n, .. } => n,
                    })
                    .sum();
                if n == 0 {
                    return err(format!("r{out}: an empty concatenation"));
                }
                Ok(Some((n, Call::Concat { parts, n, out })))
            }
            _ => Ok(None),
        }
    }
}

/// Stockfish 15.1–18's fc_0 activation, written to `out`: fc_0's first 15 sums squared and
/// clipped (the 16th skips to the output), packed as fc_1 reads them.
fn fc0_act(out: Reg, inputs: &[Reg], r: &dyn Registers) -> Result<Call, LowerError> {
    let wrong = || LowerError("Stockfish's fc_0 activation is x² >> 19 and x >> 6 of 16 sums".into());
    let [a, b] = *inputs else { return Err(wrong()) };
    let (
        Some(Step::SqrClippedShift(SqrClippedShift { input: x, shift: 19, .. })),
        Some(Step::ClippedShift(ClippedShift { input: y, shift: 6, .. })),
    ) = (r.waiting(a), r.waiting(b))
    else {
        return Err(wrong());
    };
    if x != y {
        return Err(wrong());
    }
    let Some(Step::Slice(Slice { input, start: 0, len: 15, .. })) = r.waiting(*x) else {
        return err(format!("Stockfish's fc_0 activation reads fc_0's first 15 sums, not r{x}"));
    };
    if r.ints(*input)? != 16 {
        return Err(wrong());
    }
    Ok(Call::Fc0Act { x: *input, out })
}

/// A byte concatenation's parts: each pair `min(127, x² >> a), clamp(x >> b, 0, 127)` of one
/// source is one dual activation; other parts are bytes of their own, in the canonical order.
fn parts(inputs: &[Reg], r: &mut dyn Registers) -> Result<Vec<Part>, LowerError> {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < inputs.len() {
        let pair = (r.waiting(inputs[i]).cloned(), inputs.get(i + 1).and_then(|&x| r.waiting(x).cloned()));
        if let (
            Some(Step::SqrClippedShift(SqrClippedShift { input: a, shift: sqr, .. })),
            Some(Step::ClippedShift(ClippedShift { input: b, shift, .. })),
        ) = pair
        {
            if a != b {
                return err(format!("r{} and r{} activate different sums", inputs[i], inputs[i + 1]));
            }
            let n = r.ints(a)?;
            if sqr > 23 || shift >= 32 {
                return err(format!("r{}: shifts {sqr} and {shift}", inputs[i]));
            }
            parts.push(Part::Dual { x: a, n, sqr, shift });
            i += 2;
        } else {
            let n = r.bytes(inputs[i], InputOrder::Canonical)?;
            parts.push(Part::Bytes { x: inputs[i], n });
            i += 1;
        }
    }
    Ok(parts)
}
