//! An int32 multi-layer net's dense and output layers.

use std::fmt;

use super::{Clamp, Held, Lowers, Read, Registers, Step, StepKind};
use crate::layers::call::{self, err, Call, LowerError};
use crate::layers::check::{Fit, Kind, Number};
use crate::layers::text::{form, param, reg};
use crate::layers::{Param, Reg};
use crate::reference::interpret::{Machine, Value};

/// `out[o] = bias[o] + Σ w[o][i] · x[i]`: int32 weights, biases and sums (wrapping).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AffineI32 {
    /// The weights.
    pub param: Param,
    /// The int32 values read.
    pub input: Reg,
    /// The sums written.
    pub out: Reg,
}

impl StepKind for AffineI32 {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "{} · {} + b (int32)", |v| Some(AffineI32 { param: param(v[0])?, input: reg(v[1])?, out }))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} · r{} + b   (int32)", self.param, self.input)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        let s = fit.shape(self.param, Number::I32)?;
        fit.reads(self.input, s, self.param, fit.ints(self.input)?)?;
        Ok(Kind::Int(s.outputs))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        let (w, b) = m.word_layer(self.param);
        let x = m.ints(self.input);
        let n = x.len();
        let y = b.iter().enumerate().map(|(o, &b)| {
            w[o * n..(o + 1) * n].iter().zip(x).fold(b, |y, (&w, &x)| y.wrapping_add(x.wrapping_mul(w)))
        });
        Value::Int(y.collect())
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { param, input, out } = *self;
        let n = r.outputs(param)?;
        if n != 1 {
            let inputs = r.ints(input)?;
            return Ok(Lowers::To(call::Kind::Ints(n), Call::AffineI32 { param, x: input, inputs, n, out }));
        }
        // The output layer reads its input clamped: one kernel.
        let Held::Waiting(Step::Clamp(Clamp { input: x, max, .. })) = r.held(input)? else {
            return err(format!("r{out}: an int32 output layer reads clamped values"));
        };
        let (x, max) = (*x, *max);
        let inputs = r.ints(x)?;
        Ok(Lowers::To(call::Kind::Int, Call::ClampedDotI32 { param, x, inputs, max, out }))
    }
}
