//! The sum and the difference of two int32 registers.

use std::fmt;

use super::{Lowers, Read, Registers, Step, StepKind};
use crate::layers::call::{self, Call, LowerError};
use crate::layers::check::{Fit, Kind};
use crate::layers::text::{form, reg};
use crate::layers::Reg;
use crate::reference::interpret::{Machine, Value};

/// `x + y` per element, wrapping.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Add {
    /// The first register read.
    pub a: Reg,
    /// The second, as long.
    pub b: Reg,
    /// The sums written.
    pub out: Reg,
}

/// `x - y` per element, wrapping.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Sub {
    /// The register subtracted from.
    pub a: Reg,
    /// The register subtracted, as long.
    pub b: Reg,
    /// The differences written.
    pub out: Reg,
}

/// Both registers' int32 values, as many: how many.
fn check(fit: &Fit<'_>, a: Reg, b: Reg) -> Result<Kind, String> {
    let (n, m) = (fit.ints(a)?, fit.ints(b)?);
    if n != m {
        return Err(format!("r{a} has {n} values, r{b} {m}"));
    }
    Ok(Kind::Int(n))
}

/// `op` of the two registers' values, element by element.
fn eval(m: &Machine<'_>, a: Reg, b: Reg, op: fn(i32, i32) -> i32) -> Value {
    Value::Int(m.ints(a).iter().zip(m.ints(b)).map(|(&x, &y)| op(x, y)).collect())
}

impl StepKind for Add {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "{} + {}", |v| Some(Add { a: reg(v[0])?, b: reg(v[1])?, out }))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{} + r{}", self.a, self.b)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.a, self.b]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        check(fit, self.a, self.b)
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        eval(m, self.a, self.b, i32::wrapping_add)
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { a, b, out } = *self;
        // Stormphrax 8's skip: clamped values plus the activation, read by its output layer.
        if matches!(r.waiting(a), Some(Step::Clamp(_))) {
            return Ok(Lowers::Waits);
        }
        r.scalar(a)?;
        r.scalar(b)?;
        Ok(Lowers::To(call::Kind::Int, Call::Add { a, b, out }))
    }
}

impl StepKind for Sub {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "{} - {}", |v| Some(Sub { a: reg(v[0])?, b: reg(v[1])?, out }))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{} - r{}", self.a, self.b)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.a, self.b]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        check(fit, self.a, self.b)
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        eval(m, self.a, self.b, i32::wrapping_sub)
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { a, b, out } = *self;
        r.scalar(a)?;
        r.scalar(b)?;
        Ok(Lowers::To(call::Kind::Int, Call::Sub { a, b, out }))
    }
}
