//! An int32 multi-layer net's squared clamp (SCReLU).

use std::fmt;

use super::{Lowers, Read, Registers, StepKind};
use crate::layered::Numbers;
use crate::layers::call::{self, err, Call, LowerError};
use crate::layers::check::{Fit, Kind};
use crate::layers::text::{form, log2, pow2, reg};
use crate::layers::Reg;
use crate::reference::interpret::{Machine, Value};

/// `clamp(x, 0, Q)²`, Q = 2^q_bits.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ClampSquare {
    /// The int32 values read.
    pub input: Reg,
    /// Q's exponent.
    pub q_bits: u32,
    /// The values written.
    pub out: Reg,
}

impl StepKind for ClampSquare {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "clamp({}, 0, {})²", |v| Some(ClampSquare { input: reg(v[0])?, q_bits: log2(v[1])?, out }))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "clamp(r{}, 0, {})²", self.input, pow2(self.q_bits))
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        if self.q_bits > Numbers::MAX_Q_BITS {
            return Err(format!("Q above 2^{}, the largest of int32 stacks", Numbers::MAX_Q_BITS));
        }
        Ok(Kind::Int(fit.ints(self.input)?))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        let q = 1i32 << self.q_bits;
        m.map_ints(self.input, |o| o.clamp(0, q) * o.clamp(0, q))
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { input, q_bits, out } = *self;
        let n = r.ints(input)?;
        // The grammar's rule, and `check_fits`'s (the arithmetic wraps as the reference's does).
        if q_bits > Numbers::MAX_Q_BITS {
            return err(format!("r{out}: Q = 2^{q_bits}, above 2^{}", Numbers::MAX_Q_BITS));
        }
        Ok(Lowers::To(call::Kind::Ints(n), Call::ClampSquare { x: input, n, q_bits, out }))
    }
}
