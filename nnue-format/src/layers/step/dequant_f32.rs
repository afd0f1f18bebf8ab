//! A multi-layer net's int32 sums to f32.

use std::fmt;

use super::{Lowers, Read, Registers, StepKind};
use crate::layers::call::{self, Call, LowerError};
use crate::layers::check::{Fit, Kind, Number};
use crate::layers::text::{form, num, param, reg};
use crate::layers::{Param, Reg};
use crate::reference::interpret::{f32s, Machine, Value};

/// `fma(float(s), num / den, bias)`: int32 sums to f32, the multiplier the f32 quotient.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DequantF32 {
    /// The layer whose f32 biases are added (`l1`).
    pub param: Param,
    /// The sums read.
    pub input: Reg,
    /// The multiplier's numerator.
    pub num: u32,
    /// Its denominator (not 0).
    pub den: u32,
    /// The f32 values written.
    pub out: Reg,
}

impl StepKind for DequantF32 {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "fma(f32({}), {}/{}, {}.b)", |v| {
            Some(DequantF32 { param: param(v[3])?, input: reg(v[0])?, num: num(v[1])?, den: num(v[2])?, out })
        })
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self { param, input, num, den, .. } = self;
        write!(f, "fma(f32(r{input}), {num}/{den}, {param}.b)")
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        let n = fit.ints(self.input)?;
        match fit.arch.param_shape(self.param) {
            Some(s) if s.biases == Number::F32 && s.outputs == n => {}
            _ => return Err(format!("{}.b must be {n} f32 biases", self.param)),
        }
        if self.den == 0 {
            return Err("division by 0".into());
        }
        Ok(Kind::Float(n))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        let mul = self.num as f32 / self.den as f32;
        let biases = f32s(m.word_layer(self.param).1);
        let z = m.ints(self.input).iter().zip(&biases).map(|(&s, &b)| (s as f32).mul_add(mul, b));
        Value::Float(z.collect())
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { param, input, num, den, out } = *self;
        let n = r.ints(input)?;
        Ok(Lowers::To(call::Kind::Floats(n), Call::Dequant { param, x: input, n, num, den, out }))
    }
}
