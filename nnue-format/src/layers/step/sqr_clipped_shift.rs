//! Stockfish's SqrClippedReLU.

use std::fmt;

use super::{Lowers, Read, Registers, StepKind};
use crate::layers::call::LowerError;
use crate::layers::check::{Fit, Kind};
use crate::layers::text::{form, num, reg};
use crate::layers::Reg;
use crate::reference::interpret::{Machine, Value};

/// `min(127, x² >> shift)`, the square in 64 bits (Stockfish's SqrClippedReLU): int32 sums
/// to bytes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SqrClippedShift {
    /// The sums read.
    pub input: Reg,
    /// The square's right shift (below 64).
    pub shift: u32,
    /// The bytes written.
    pub out: Reg,
}

impl StepKind for SqrClippedShift {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "min(127, {}² >> {})", |v| Some(SqrClippedShift { input: reg(v[0])?, shift: num(v[1])?, out }))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "min(127, r{}² >> {})", self.input, self.shift)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        if self.shift >= 64 {
            return Err("the shift is out of range".into());
        }
        Ok(Kind::Bytes { len: fit.ints(self.input)?, max: 127 })
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        m.map_ints(self.input, |x| ((i64::from(x) * i64::from(x)) >> self.shift).min(127) as i32)
    }

    fn bound(&self, _at: &dyn Fn(Reg) -> Option<i32>) -> Option<i32> {
        Some(127)
    }

    fn lower(&self, _r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        // The squares wait for the concatenation that reads them, which pairs them with their
        // clipped values in one dual activation kernel (or Stockfish's fc_0 activation).
        Ok(Lowers::Waits)
    }
}
