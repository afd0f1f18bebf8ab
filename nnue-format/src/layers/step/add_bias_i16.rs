//! A chess-768 net's output bias.

use std::fmt;

use super::{Lowers, Read, Registers, StepKind};
use crate::layers::call::{self, Call, LowerError};
use crate::layers::check::{Fit, Kind, Number};
use crate::layers::text::{form, param, reg};
use crate::layers::{Param, Reg};
use crate::reference::interpret::{Machine, Value};
use crate::Model;

/// `x + bias[0]`, the bias int16 (a chess-768 output bias).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AddBiasI16 {
    /// The layer whose bias is added (`out`).
    pub param: Param,
    /// The one int32 value read.
    pub input: Reg,
    /// The value written.
    pub out: Reg,
}

impl StepKind for AddBiasI16 {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "{} + {}.b", |v| Some(AddBiasI16 { param: param(v[1])?, input: reg(v[0])?, out }))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{} + {}.b", self.input, self.param)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        let s = fit.shape(self.param, Number::I16)?;
        if (fit.ints(self.input)?, s.outputs) != (1, 1) {
            return Err(format!("{}.b is one int16 bias, added to one value", self.param));
        }
        Ok(Kind::Int(1))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        let Model::Chess768(_, p) = m.model() else { unreachable!("int16 output biases are chess-768's") };
        let b = i32::from(p.l1b[m.bucket()]);
        m.map_ints(self.input, |x| x.wrapping_add(b))
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { param, input, out } = *self;
        r.scalar(input)?;
        Ok(Lowers::To(call::Kind::Int, Call::AddBiasI16 { param, x: input, out }))
    }
}
