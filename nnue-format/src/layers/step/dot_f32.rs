//! A multi-layer net's f32 output layer.

use std::fmt;

use super::{Lowers, Read, Registers, StepKind};
use crate::layers::call::{self, Call, LowerError};
use crate::layers::check::{Fit, Kind, Number};
use crate::layers::text::{form, param, reg};
use crate::layers::{Param, Reg};
use crate::reference::interpret::{f32s, Machine, Value};

/// One f32 output: 16 lanes (lane `j`: `x[j]·w[j]`, then `fma` of `j + 16`, `j + 32`, ...),
/// halved four times (`p[j] + p[j + half]`), plus the bias.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DotF32 {
    /// The weights (one output).
    pub param: Param,
    /// The f32 values read.
    pub input: Reg,
    /// The one f32 value written.
    pub out: Reg,
}

impl StepKind for DotF32 {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "{} · {} + b (f32, 16 lanes)", |v| Some(DotF32 { param: param(v[0])?, input: reg(v[1])?, out }))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} · r{} + b   (f32, 16 lanes)", self.param, self.input)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        let s = fit.shape(self.param, Number::F32)?;
        fit.reads(self.input, s, self.param, fit.floats(self.input)?)?;
        if s.outputs != 1 {
            return Err(format!("{} has {} outputs", self.param, s.outputs));
        }
        Ok(Kind::Float(s.outputs))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        let (w, b) = m.word_layer(self.param);
        Value::Float(vec![f32_dot(m.floats(self.input), &f32s(w), f32::from_bits(b[0] as u32))])
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { param, input, out } = *self;
        let inputs = r.floats(input)?;
        Ok(Lowers::To(call::Kind::Float, Call::DotF32 { param, x: input, inputs, out }))
    }
}

/// The f32 dot product of the output layer as every path computes it: 16 lanes, lane `j`
/// summing inputs `j, j + 16, j + 32, ...` in order (`x·w`, then `fma`), the lanes then halved
/// four times (`p[j] + p[j + half]`), then the bias added.
fn f32_dot(x: &[f32], w: &[f32], bias: f32) -> f32 {
    let mut p = [0f32; 16];
    for (i, (&x, &w)) in x.iter().zip(w).enumerate() {
        let j = i % 16;
        p[j] = if i < 16 { x * w } else { x.mul_add(w, p[j]) };
    }
    let mut n = 16;
    while n > 1 {
        n /= 2;
        for j in 0..n {
            p[j] += p[j + n];
        }
    }
    p[0] + bias
}
