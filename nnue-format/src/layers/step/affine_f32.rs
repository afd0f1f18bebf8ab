//! A multi-layer net's f32 dense layer.

use std::fmt;

use super::{Lowers, Read, Registers, StepKind};
use crate::layers::call::{self, Call, LowerError};
use crate::layers::check::{Fit, Kind};
use crate::layers::text::{form, param, reg};
use crate::layers::{Param, Reg};
use crate::reference::interpret::{f32s, Machine, Value};

/// `out[o] = bias[o]`, then `fma(x[i], w[o][i], out[o])` for `i` in order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AffineF32 {
    /// The weights (more than one output).
    pub param: Param,
    /// The f32 values read.
    pub input: Reg,
    /// The f32 sums written.
    pub out: Reg,
}

impl StepKind for AffineF32 {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "{} · {} + b (f32, fma in order)", |v| {
            Some(AffineF32 { param: param(v[0])?, input: reg(v[1])?, out })
        })
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} · r{} + b   (f32, fma in order)", self.param, self.input)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        let s = fit.f32_dense(self.param, self.input)?;
        Ok(Kind::Float(s.outputs))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        let (w, b) = m.word_layer(self.param);
        let (x, w, b) = (m.floats(self.input), f32s(w), f32s(b));
        let n = x.len();
        let y = b
            .iter()
            .enumerate()
            .map(|(o, &b)| w[o * n..(o + 1) * n].iter().zip(x).fold(b, |y, (&w, &x)| x.mul_add(w, y)));
        Value::Float(y.collect())
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { param, input, out } = *self;
        let (inputs, n) = (r.floats(input)?, r.outputs(param)?);
        Ok(Lowers::To(call::Kind::Floats(n), Call::AffineF32 { param, x: input, inputs, n, out }))
    }
}
