//! A multi-layer net's f32 output to the int32 evaluation.

use std::fmt;

use super::{Held, Lowers, Read, Registers, StepKind};
use crate::layers::call::{self, err, Call, LowerError};
use crate::layers::check::{Fit, Kind};
use crate::layers::text::{form, num, reg};
use crate::layers::Reg;
use crate::reference::interpret::{Machine, Value};

/// `(x · scale) as int`, truncating.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct F32ToInt {
    /// The f32 values read.
    pub input: Reg,
    /// The factor.
    pub scale: i32,
    /// The integers written.
    pub out: Reg,
}

impl StepKind for F32ToInt {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "int({} · {})", |v| Some(F32ToInt { input: reg(v[0])?, scale: num(v[1])?, out }))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "int(r{} · {})", self.input, self.scale)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        Ok(Kind::Int(fit.floats(self.input)?))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        Value::Int(m.floats(self.input).iter().map(|&x| (x * self.scale as f32) as i32).collect())
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { input, scale, out } = *self;
        if !matches!(r.held(input)?, Held::Written(call::Kind::Float)) {
            return err(format!("r{input} is not one f32 value"));
        }
        Ok(Lowers::To(call::Kind::Int, Call::F32ToInt { x: input, scale, out }))
    }
}
