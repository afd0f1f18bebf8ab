//! A product with a constant.

use std::fmt;

use super::{Lowers, Read, Registers, StepKind};
use crate::layers::call::{self, Call, LowerError};
use crate::layers::check::{Fit, Kind};
use crate::layers::text::{form, num, reg};
use crate::layers::Reg;
use crate::reference::interpret::{Machine, Value};

/// `x · k` per element, wrapping.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Mul {
    /// The int32 values read.
    pub input: Reg,
    /// The factor.
    pub k: i32,
    /// The products written.
    pub out: Reg,
}

impl StepKind for Mul {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "{} · {}", |v| Some(Mul { input: reg(v[0])?, k: num(v[1])?, out }))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{} · {}", self.input, self.k)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        Ok(Kind::Int(fit.ints(self.input)?))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        m.map_ints(self.input, |x| x.wrapping_mul(self.k))
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { input, k, out } = *self;
        r.scalar(input)?;
        Ok(Lowers::To(call::Kind::Int, Call::Mul { x: input, k, out }))
    }
}
