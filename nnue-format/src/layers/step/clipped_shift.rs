//! Stockfish's ClippedReLU.

use std::fmt;

use super::{Lowers, Read, Registers, StepKind};
use crate::layers::call::{check_shift, err, Call, LowerError};
use crate::layers::check::{Fit, Kind};
use crate::layers::text::{form, num, reg};
use crate::layers::Reg;
use crate::layout::InputOrder;
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

    fn lower(&self, _r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        // The bytes wait for the layer that reads them, whose weights say their order.
        Ok(Lowers::Waits)
    }

    fn lower_bytes(
        &self,
        out: Reg,
        order: InputOrder,
        r: &mut dyn Registers,
    ) -> Result<Option<(usize, Call)>, LowerError> {
        let Self { input, shift, .. } = *self;
        match order {
            InputOrder::SfnnFc1Act => {
                if (r.ints(input)?, shift) != (32, 6) {
                    return err(format!("r{out}: Stockfish's fc_1 activation is clamp(x >> 6) of 32 sums"));
                }
                Ok(Some((32, Call::Fc1Act { x: input, out })))
            }
            InputOrder::Canonical => {
                let n = r.ints(input)?;
                check_shift(out, shift)?;
                Ok(Some((n, Call::Clipped { x: input, n, shift, out })))
            }
            _ => Ok(None),
        }
    }
}
