//! A square per element (a chess-768 net's SCReLU before its output layer).

use std::fmt;

use super::{Lowers, Read, Registers, StepKind};
use crate::layers::call::LowerError;
use crate::layers::check::{Fit, Kind};
use crate::layers::text::{form, reg};
use crate::layers::Reg;
use crate::reference::interpret::{Machine, Value};

/// `x · x` per element, wrapping.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Square {
    /// The int32 values read.
    pub input: Reg,
    /// The squares written.
    pub out: Reg,
}

impl StepKind for Square {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "{}²", |v| Some(Square { input: reg(v[0])?, out }))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}²", self.input)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        Ok(Kind::Int(fit.ints(self.input)?))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        m.map_ints(self.input, |x| x.wrapping_mul(x))
    }

    fn lower(&self, _r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        // The squares wait for the layer that reads them: a single-layer SCReLU output layer
        // squares the clamped accumulators in its own kernel.
        Ok(Lowers::Waits)
    }
}
