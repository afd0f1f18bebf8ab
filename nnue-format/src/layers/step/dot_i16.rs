//! A chess-768 net's output layer.

use std::fmt;

use super::{Held, Lowers, Read, Registers, Square, Step, StepKind};
use crate::layers::call::{self, err, Call, Input, LowerError};
use crate::layers::check::{Fit, Kind, Number};
use crate::layers::text::{form, param, reg};
use crate::layers::{Param, Reg};
use crate::reference::interpret::{Machine, Value};
use crate::Model;

/// `out = [Σ w[i] · x[i]]`: int16 weights, no bias (a chess-768 output layer).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DotI16 {
    /// The weights (`out`).
    pub param: Param,
    /// The int32 values read (the clamped accumulators, or their squares).
    pub input: Reg,
    /// The sum written.
    pub out: Reg,
}

impl StepKind for DotI16 {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "{} · {} (int16)", |v| Some(DotI16 { param: param(v[0])?, input: reg(v[1])?, out }))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} · r{}   (int16)", self.param, self.input)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        let s = fit.shape(self.param, Number::I16)?;
        fit.reads(self.input, s, self.param, fit.ints(self.input)?)?;
        Ok(Kind::Int(1))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        let Model::Chess768(_, p) = m.model() else { unreachable!("int16 output layers are chess-768's") };
        let w = p.output_row(m.bucket());
        let sum =
            m.ints(self.input).iter().zip(w).fold(0i32, |s, (&x, &w)| s.wrapping_add(x.wrapping_mul(i32::from(w))));
        Value::Int(vec![sum])
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { param, input, out } = *self;
        let read = match r.held(input)? {
            Held::Input(Input::Accumulators { max }) => Some((max, false)),
            Held::Waiting(Step::Square(Square { input: 0, .. })) => match r.input() {
                Some(Input::Accumulators { max }) => Some((max, true)),
                _ => None,
            },
            _ => None,
        };
        let Some((max, screlu)) = read else {
            return err(format!("r{out}: an int16 output layer reads the accumulators or their squares"));
        };
        r.first(out)?;
        Ok(Lowers::To(call::Kind::Int, Call::Output { param, max, screlu, out }))
    }
}
