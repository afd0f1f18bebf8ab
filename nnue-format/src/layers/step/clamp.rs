//! An int32 clamp.

use std::fmt;

use super::{Lowers, Read, Registers, StepKind};
use crate::layers::call::LowerError;
use crate::layers::check::{Fit, Kind};
use crate::layers::text::{form, num, reg};
use crate::layers::Reg;
use crate::reference::interpret::{Machine, Value};

/// `clamp(x, 0, max)`, int32.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Clamp {
    /// The int32 values read.
    pub input: Reg,
    /// The upper bound (not negative).
    pub max: i32,
    /// The values written.
    pub out: Reg,
}

impl StepKind for Clamp {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "clamp({}, 0, {})", |v| Some(Clamp { input: reg(v[0])?, max: num(v[1])?, out }))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "clamp(r{}, 0, {})", self.input, self.max)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        if self.max < 0 {
            return Err("a negative upper bound".into());
        }
        Ok(Kind::Int(fit.ints(self.input)?))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        m.map_ints(self.input, |x| x.clamp(0, self.max))
    }

    fn lower(&self, _r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        // A clamp waits for the layer that reads it: the int32 output layer and Stormphrax 8's
        // skip clamp in their own kernels.
        Ok(Lowers::Waits)
    }
}
