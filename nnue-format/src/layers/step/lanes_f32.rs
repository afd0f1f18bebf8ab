//! A multi-layer net's f32 output over lanes, with a residual part (cinder's `lno.rs` and
//! `lro.rs`).

use std::fmt;

use super::{Lowers, Read, Registers, StepKind};
use crate::layers::call::{self, err, Call, LowerError};
use crate::layers::check::{Fit, Kind, Number};
use crate::layers::text::{form, num, param, reg};
use crate::layers::{Param, Reg};
use crate::reference::interpret::{f32s, Machine, Value};

/// One f32 output over `lanes` lanes. The input is `main` values then `skip` residual ones
/// (`skip` may be 0). Lane `l`: `o = 0 + f(l) + f(l + W) + …` over the main inputs, `f(i) =
/// fma(w[i], x[i], bias / main)`, and `r = 0 + w[i]·x[i] + …` (products rounded) over the
/// residual inputs `main + l, main + l + W, …`; the lanes' `r + o` added in order from −0.0.
/// cinder's AVX2 build (8 lanes), where the residual reads its first layer's activation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LanesF32 {
    /// The weights (one output): the main inputs', then the residual ones'.
    pub param: Param,
    /// The f32 values read: main, then residual.
    pub input: Reg,
    /// The lanes (dividing both parts).
    pub lanes: u32,
    /// How many of the inputs, at the end, are residual.
    pub skip: usize,
    /// The one f32 value written.
    pub out: Reg,
}

impl LanesF32 {
    /// Whether `lanes` lanes fit `inputs` values whose last `skip` are residual: both parts a
    /// multiple of the lanes, the main one not empty. (The check, the lowering and the loader's
    /// program ask alike.)
    pub fn fits(lanes: u32, inputs: usize, skip: usize) -> bool {
        let lanes = lanes as usize;
        lanes > 0 && skip < inputs && (inputs - skip).is_multiple_of(lanes) && skip.is_multiple_of(lanes)
    }
}

/// The output of `x` (`main` values, then residual ones) against `w`, bias `b`, over `lanes`.
pub(crate) fn lanes_dot(x: &[f32], w: &[f32], b: f32, lanes: usize, skip: usize) -> f32 {
    let main = x.len() - skip;
    let c = b / main as f32;
    let mut total = -0.0f32;
    for l in 0..lanes {
        let o = (l..main).step_by(lanes).fold(0f32, |o, i| o + w[i].mul_add(x[i], c));
        let r = (main + l..x.len()).step_by(lanes).fold(0f32, |r, i| r + w[i] * x[i]);
        total += r + o;
    }
    total
}

impl StepKind for LanesF32 {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "{} · {} + b (f32, {} lanes, last {} residual)", |v| {
            Some(LanesF32 { param: param(v[0])?, input: reg(v[1])?, lanes: num(v[2])?, skip: num(v[3])?, out })
        })
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} · r{} + b   (f32, {} lanes, last {} residual)", self.param, self.input, self.lanes, self.skip)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        let s = fit.shape(self.param, Number::F32)?;
        let n = fit.floats(self.input)?;
        fit.reads(self.input, s, self.param, n)?;
        if s.outputs != 1 {
            return Err(format!("{} has {} outputs", self.param, s.outputs));
        }
        if !Self::fits(self.lanes, n, self.skip) {
            return Err(format!("{} lanes don't divide {n} inputs, the last {} residual", self.lanes, self.skip));
        }
        Ok(Kind::Float(1))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        let (w, b) = m.word_layer(self.param);
        let b = f32::from_bits(b[0] as u32);
        Value::Float(vec![lanes_dot(m.floats(self.input), &f32s(w), b, self.lanes as usize, self.skip)])
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { param, input, lanes, skip, out } = *self;
        let inputs = r.floats(input)?;
        if !Self::fits(lanes, inputs, skip) {
            return err(format!("r{out}: {lanes} lanes over {inputs} inputs, the last {skip} residual"));
        }
        Ok(Lowers::To(call::Kind::Float, Call::LanesF32 { param, x: input, inputs, lanes, skip, out }))
    }
}
