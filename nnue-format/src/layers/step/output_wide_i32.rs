//! Stormphrax 8's output layer.

use std::fmt;

use super::{Add, Clamp, Held, Lowers, Read, Registers, Step, StepKind};
use crate::layers::call::{self, err, Call, LowerError};
use crate::layers::check::{Fit, Kind, Number};
use crate::layers::text::{form, log2, num, param, pow2, reg};
use crate::layers::{Param, Reg};
use crate::reference::interpret::{Machine, Value};

/// Stormphrax 8's output layer: `S = Σ w[i] · x[i]` in int32 (wrapping), then `(bias + S) ·
/// scale / Q⁴` in int64, truncating (its AVX2 build adds the bias to the lane sum without
/// wrapping).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OutputWideI32 {
    /// The weights (one output).
    pub param: Param,
    /// The int32 values read.
    pub input: Reg,
    /// The evaluation's scale.
    pub scale: i32,
    /// Q's exponent (Q⁴ fits an int32).
    pub q_bits: u32,
    /// The one value written.
    pub out: Reg,
}

impl StepKind for OutputWideI32 {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "({}.b + {} · {}) · {} / {} (int32 sum, int64)", |v| {
            let q_bits = log2(v[4])?;
            let ok = v[0] == v[1] && q_bits % 4 == 0;
            let (param, input, scale) = (param(v[0])?, reg(v[2])?, num(v[3])?);
            ok.then_some(OutputWideI32 { param, input, scale, q_bits: q_bits / 4, out })
        })
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self { param, input, scale, q_bits, .. } = *self;
        let q4 = pow2(4 * q_bits);
        write!(f, "({param}.b + {param} · r{input}) · {scale} / {q4}   (int32 sum, int64)")
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        if self.q_bits > 7 {
            return Err("Q⁴ must fit an int32".into());
        }
        let s = fit.shape(self.param, Number::I32)?;
        fit.reads(self.input, s, self.param, fit.ints(self.input)?)?;
        if s.outputs != 1 {
            return Err(format!("{} has {} outputs", self.param, s.outputs));
        }
        Ok(Kind::Int(1))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        let (w, b) = m.word_layer(self.param);
        let s = w.iter().zip(m.ints(self.input)).fold(0i32, |y, (&w, &x)| y.wrapping_add(x.wrapping_mul(w)));
        let n = i64::from(b[0]) + i64::from(s);
        Value::Int(vec![(n * i64::from(self.scale) / (1i64 << (4 * self.q_bits))) as i32])
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { param, input, scale, q_bits, out } = *self;
        let wrong = || LowerError(format!("r{out}: Stormphrax 8's output layer reads clamped values plus the skip"));
        let Held::Waiting(Step::Add(Add { a, b: s, .. })) = r.held(input)? else {
            return Err(wrong());
        };
        let (a, s) = (*a, *s);
        let Held::Waiting(Step::Clamp(Clamp { input: x, max, .. })) = r.held(a)? else {
            return Err(wrong());
        };
        let (x, max) = (*x, *max);
        let (inputs, n_s) = (r.ints(x)?, r.ints(s)?);
        if n_s != inputs || q_bits > 7 {
            return err(format!("r{out}: {n_s} skip values for {inputs} inputs, Q = 2^{q_bits}"));
        }
        let call = Call::SkipOutputWideI32 { param, x, s, inputs, max, scale, bits: 4 * q_bits, out };
        Ok(Lowers::To(call::Kind::Int, call))
    }
}
