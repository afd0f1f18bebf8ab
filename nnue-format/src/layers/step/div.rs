//! A division by a constant.

use std::fmt;

use super::{Lowers, Read, Registers, StepKind};
use crate::layers::call::{self, err, Call, LowerError};
use crate::layers::check::{Fit, Kind};
use crate::layers::text::{form, num, reg};
use crate::layers::Reg;
use crate::reference::interpret::{Machine, Value};

/// `x / k` per element, truncating.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Div {
    /// The int32 values read.
    pub input: Reg,
    /// The divisor (positive).
    pub k: i32,
    /// The quotients written.
    pub out: Reg,
}

impl StepKind for Div {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "{} / {}", |v| Some(Div { input: reg(v[0])?, k: num(v[1])?, out }))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{} / {}", self.input, self.k)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        // A negative divisor would overflow on int32's minimum (`/ -1`); no net divides so.
        if self.k <= 0 {
            return Err(format!("division by {}: divisors are positive", self.k));
        }
        Ok(Kind::Int(fit.ints(self.input)?))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        m.map_ints(self.input, |x| x / self.k)
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { input, k, out } = *self;
        if k == 0 || k == -1 {
            return err(format!("r{out}: a division by {k}"));
        }
        r.scalar(input)?;
        Ok(Lowers::To(call::Kind::Int, Call::Div { x: input, k, out }))
    }
}
