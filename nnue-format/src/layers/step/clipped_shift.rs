//! Stockfish's ClippedReLU.

use std::fmt;

use super::{Read, StepKind};
use crate::layers::check::{Fit, Kind};
use crate::layers::text::{form, num, reg};
use crate::layers::Reg;
use crate::reference::interpret::{Machine, Value};

/// `clamp(x >> shift, 0, 127)` (Stockfish's ClippedReLU): int32 sums to bytes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ClippedShift {
    /// The sums read.
    pub input: Reg,
    /// The right shift (below 32).
    pub shift: u32,
    /// The bytes written.
    pub out: Reg,
}

impl StepKind for ClippedShift {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "clamp({} >> {}, 0, 127)", |v| Some(ClippedShift { input: reg(v[0])?, shift: num(v[1])?, out }))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "clamp(r{} >> {}, 0, 127)", self.input, self.shift)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        if self.shift >= 32 {
            return Err("the shift is out of range".into());
        }
        Ok(Kind::Bytes { len: fit.ints(self.input)?, max: 127 })
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        m.map_ints(self.input, |x| (x >> self.shift).clamp(0, 127))
    }

    fn bound(&self, _at: &dyn Fn(Reg) -> Option<i32>) -> Option<i32> {
        Some(127)
    }
}
