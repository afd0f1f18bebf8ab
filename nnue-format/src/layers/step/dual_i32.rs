//! An int32 multi-layer net's dual activation (Stormphrax 7).

use std::fmt;

use super::{Lowers, Read, Registers, StepKind};
use crate::layered::Numbers;
use crate::layers::call::{self, err, Call, LowerError};
use crate::layers::check::{Fit, Kind};
use crate::layers::text::{form, log2, num, pow2, reg};
use crate::layers::Reg;
use crate::reference::interpret::{Machine, Value};

/// `[clamp(o, 0, Q) · Q] ++ [min(o · o, Q²)]`, Q = 2^q_bits.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DualI32 {
    /// The int32 values read.
    pub input: Reg,
    /// Q's exponent.
    pub q_bits: u32,
    /// Twice as many written.
    pub out: Reg,
}

impl StepKind for DualI32 {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "clamp({}, 0, {}) · {} ++ min({}², {})", |v| {
            let q_bits = log2(v[1])?;
            let ok = v[0] == v[3] && v[1] == v[2] && num::<u64>(v[4])? == 1u64 << (2 * q_bits);
            ok.then_some(DualI32 { input: reg(v[0])?, q_bits, out })
        })
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (q, qq) = (pow2(self.q_bits), pow2(2 * self.q_bits));
        write!(f, "clamp(r{0}, 0, {q}) · {q} ++ min(r{0}², {qq})", self.input)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        if self.q_bits > Numbers::MAX_Q_BITS {
            return Err(format!("Q above 2^{}, the largest of int32 stacks", Numbers::MAX_Q_BITS));
        }
        Ok(Kind::Int(fit.ints(self.input)?.checked_mul(2).ok_or_else(Fit::too_long)?))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        let (q_bits, q) = (self.q_bits, 1i32 << self.q_bits);
        let o = m.ints(self.input);
        Value::Int(
            o.iter().map(|&o| o.clamp(0, q) << q_bits).chain(o.iter().map(|&o| o.wrapping_mul(o).min(q * q))).collect(),
        )
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { input, q_bits, out } = *self;
        let n = r.ints(input)?;
        // The grammar's rule, and `check_fits`'s (the arithmetic wraps as the reference's does).
        if q_bits > Numbers::MAX_Q_BITS {
            return err(format!("r{out}: Q = 2^{q_bits}, above 2^{}", Numbers::MAX_Q_BITS));
        }
        Ok(Lowers::To(call::Kind::Ints(2 * n), Call::DualI32 { x: input, n, q_bits, out }))
    }
}
