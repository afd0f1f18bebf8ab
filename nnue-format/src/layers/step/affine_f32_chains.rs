//! A multi-layer net's f32 dense layer summed in fma chains (cinder's).

use std::fmt;

use super::{Lowers, Read, Registers, StepKind};
use crate::layers::call::{self, err, Call, LowerError};
use crate::layers::check::{Fit, Kind};
use crate::layers::text::{form, num, param, reg};
use crate::layers::{Param, Reg};
use crate::reference::interpret::{f32s, Machine, Value};

/// Per output `o`: `chains` fma chains, chain `k` over the inputs `i ≡ k mod chains` in order
/// from 0 (`c = fma(x[i], w[o][i], c)`), then `bias[o] + ((((0 + c0) + c1) + c2) + …)`: the
/// order of cinder's `lnn.rs` with one chain per accumulator register (4 in its AVX2 build).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AffineChainsF32 {
    /// The weights (more than one output).
    pub param: Param,
    /// The f32 values read.
    pub input: Reg,
    /// The number of chains (dividing the inputs).
    pub chains: u32,
    /// The f32 sums written.
    pub out: Reg,
}

/// The layer's outputs: `x` against `w` (`[outputs][inputs]`) and biases `b`.
pub(crate) fn affine_chains(x: &[f32], w: &[f32], b: &[f32], chains: usize) -> Vec<f32> {
    let n = x.len();
    b.iter()
        .enumerate()
        .map(|(o, &b)| {
            let row = &w[o * n..(o + 1) * n];
            let chain = |k: usize| (k..n).step_by(chains).fold(0f32, |c, i| x[i].mul_add(row[i], c));
            b + (0..chains).fold(0f32, |s, k| s + chain(k))
        })
        .collect()
}

impl StepKind for AffineChainsF32 {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "{} · {} + b (f32, {} fma chains)", |v| {
            Some(AffineChainsF32 { param: param(v[0])?, input: reg(v[1])?, chains: num(v[2])?, out })
        })
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} · r{} + b   (f32, {} fma chains)", self.param, self.input, self.chains)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        let s = fit.f32_dense(self.param, self.input)?;
        if self.chains == 0 || !s.inputs.is_multiple_of(self.chains as usize) {
            return Err(format!("{} chains don't divide {}'s {} inputs", self.chains, self.param, s.inputs));
        }
        Ok(Kind::Float(s.outputs))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        let (w, b) = m.word_layer(self.param);
        Value::Float(affine_chains(m.floats(self.input), &f32s(w), &f32s(b), self.chains as usize))
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { param, input, chains, out } = *self;
        let (inputs, n) = (r.floats(input)?, r.outputs(param)?);
        if chains == 0 || !inputs.is_multiple_of(chains as usize) {
            return err(format!("r{out}: {chains} chains over {inputs} inputs"));
        }
        Ok(Lowers::To(call::Kind::Floats(n), Call::AffineChainsF32 { param, x: input, inputs, n, chains, out }))
    }
}
