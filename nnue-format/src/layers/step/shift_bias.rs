//! An int32 multi-layer net's sparse sums rescaled, with their biases.

use std::fmt;

use super::{Lowers, Read, Registers, StepKind};
use crate::layers::call::{self, check_shift, Call, LowerError};
use crate::layers::check::{Fit, Kind, Number};
use crate::layers::text::{form, num, param, reg};
use crate::layers::{Param, Reg};
use crate::reference::interpret::{Machine, Value};
use crate::Architecture;

/// `(s >> shift) + bias`, int32.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ShiftBias {
    /// The layer whose int32 biases are added (`l1`).
    pub param: Param,
    /// The sums read.
    pub input: Reg,
    /// The right shift (below 32).
    pub shift: u32,
    /// The values written.
    pub out: Reg,
}

impl StepKind for ShiftBias {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "({} >> {}) + {}.b", |v| {
            Some(ShiftBias { param: param(v[2])?, input: reg(v[0])?, shift: num(v[1])?, out })
        })
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(r{} >> {}) + {}.b", self.input, self.shift, self.param)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        let Self { param, input, shift, .. } = *self;
        let n = fit.ints(input)?;
        // The multi-layer nets' biases, added after the sparse layer's sums are rescaled.
        let layered = matches!(fit.arch, Architecture::Layered(_));
        match fit.arch.param_shape(param) {
            Some(s) if layered && s.biases == Number::I32 && s.outputs == n && shift < 32 => {}
            _ => return Err(format!("{param}.b must be {n} int32 biases and the shift below 32")),
        }
        Ok(Kind::Int(n))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        let b = m.word_layer(self.param).1;
        Value::Int(m.ints(self.input).iter().zip(b).map(|(&s, &b)| (s >> self.shift).wrapping_add(b)).collect())
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { param, input, shift, out } = *self;
        let n = r.ints(input)?;
        check_shift(out, shift)?;
        Ok(Lowers::To(call::Kind::Ints(n), Call::ShiftBias { param, x: input, n, shift, out }))
    }
}
