//! A residual connection.

use std::fmt;

use super::{Lowers, Read, Registers, StepKind};
use crate::layers::call::{self, err, Call, LowerError};
use crate::layers::check::{Fit, Kind};
use crate::layers::text::{form, reg};
use crate::layers::Reg;
use crate::reference::interpret::{Machine, Value};

/// `x + y` per element, f32 (a residual connection).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AddF32 {
    /// The first register read.
    pub a: Reg,
    /// The second, as long.
    pub b: Reg,
    /// The sums written.
    pub out: Reg,
}

impl StepKind for AddF32 {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "{} + {} (f32)", |v| Some(AddF32 { a: reg(v[0])?, b: reg(v[1])?, out }))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{} + r{}   (f32)", self.a, self.b)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.a, self.b]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        let (n, m) = (fit.floats(self.a)?, fit.floats(self.b)?);
        if n != m {
            return Err(format!("r{} has {n} values, r{} {m}", self.a, self.b));
        }
        Ok(Kind::Float(n))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        Value::Float(m.floats(self.a).iter().zip(m.floats(self.b)).map(|(&x, &y)| x + y).collect())
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { a, b, out } = *self;
        let (n, m) = (r.floats(a)?, r.floats(b)?);
        if n != m {
            return err(format!("r{out}: r{a} has {n} values, r{b} {m}"));
        }
        Ok(Lowers::To(call::Kind::Floats(n), Call::AddF32 { a, b, n, out }))
    }
}
