//! A run of a register's values.

use std::fmt;

use super::{Lowers, Read, Registers, StepKind};
use crate::layers::call::{self, err, Call, LowerError};
use crate::layers::check::{Fit, Kind};
use crate::layers::text::{form, num, reg};
use crate::layers::Reg;
use crate::reference::interpret::{Machine, Value};

/// `x[start..start + len]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Slice {
    /// The integers or bytes read.
    pub input: Reg,
    /// The first value taken.
    pub start: usize,
    /// How many (at least one).
    pub len: usize,
    /// The values written.
    pub out: Reg,
}

impl StepKind for Slice {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "{}[{}..{}]", |v| {
            let (start, end): (usize, usize) = (num(v[1])?, num(v[2])?);
            // Lazily: `end - start` only where it is positive.
            let input = reg(v[0])?;
            (end > start).then(|| Slice { input, start, len: end - start, out })
        })
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}[{}..{}]", self.input, self.start, self.start + self.len)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        let Self { input, start, len, .. } = *self;
        let k = fit.get(input)?;
        if len == 0 || start + len > k.len() {
            return Err(format!("r{input} has {} values", k.len()));
        }
        match k {
            Kind::Bytes { max, .. } => Ok(Kind::Bytes { len, max }),
            Kind::Int(_) => Ok(Kind::Int(len)),
            Kind::Float(_) => Err(format!("r{input} is f32 values; slices are of integers")),
        }
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        Value::Int(m.ints(self.input)[self.start..self.start + self.len].to_vec())
    }

    fn bound(&self, at: &dyn Fn(Reg) -> Option<i32>) -> Option<i32> {
        at(self.input)
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { input, start, len, out } = *self;
        // Longer slices wait for the activation that reads them (Stockfish's fc_0).
        if len != 1 {
            return Ok(Lowers::Waits);
        }
        let n = r.ints(input)?;
        if start >= n {
            return err(format!("r{out}: r{input}[{start}] is past its {n} values"));
        }
        Ok(Lowers::To(call::Kind::Int, Call::Element { x: input, i: start, out }))
    }
}
