//! A multi-layer net's f32 output to the int32 evaluation.

use std::fmt;

use super::{Held, Lowers, Read, Registers, StepKind};
use crate::layers::call::{self, err, Call, LowerError};
use crate::layers::check::{Fit, Kind};
use crate::layers::text::{form, num, reg};
use crate::layers::Reg;
use crate::reference::interpret::{Machine, Value};

/// `(x · scale) as int`, truncating (saturating, NaN 0), then clamped to `±clamp` if said
/// (cinder's `Value`: its int16 conversion saturates past any such clamp, so it is the same).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct F32ToInt {
    /// The f32 values read.
    pub input: Reg,
    /// The factor.
    pub scale: i32,
    /// The bound of the clamp after, if any (positive).
    pub clamp: Option<i32>,
    /// The integers written.
    pub out: Reg,
}

impl StepKind for F32ToInt {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "clamp(int({} · {}), -{}, {})", |v| {
            let m = num(v[2])?;
            (m > 0 && v[2] == v[3]).then_some(F32ToInt { input: reg(v[0])?, scale: num(v[1])?, clamp: Some(m), out })
        })
        .or_else(|| {
            form(rhs, "int({} · {})", |v| Some(F32ToInt { input: reg(v[0])?, scale: num(v[1])?, clamp: None, out }))
        })
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.clamp {
            Some(m) => write!(f, "clamp(int(r{} · {}), -{m}, {m})", self.input, self.scale),
            None => write!(f, "int(r{} · {})", self.input, self.scale),
        }
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        Ok(Kind::Int(fit.floats(self.input)?))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        let int = |x: f32| {
            let v = (x * self.scale as f32) as i32;
            self.clamp.map_or(v, |m| v.clamp(-m, m))
        };
        Value::Int(m.floats(self.input).iter().map(|&x| int(x)).collect())
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { input, scale, clamp, out } = *self;
        if !matches!(r.held(input)?, Held::Written(call::Kind::Float)) {
            return err(format!("r{input} is not one f32 value"));
        }
        if clamp.is_some_and(|m| m <= 0) {
            return err(format!("r{out}: a clamp to ±{} is empty", clamp.unwrap_or(0)));
        }
        Ok(Lowers::To(call::Kind::Int, Call::F32ToInt { x: input, scale, clamp, out }))
    }
}
