//! The multi-layer nets' f32 activations (`l1act=`, `l2act=`): one family, a kind each.

use std::fmt;

use super::{Lowers, Read, Registers, Step, StepKind};
use crate::layered::Act;
use crate::layers::call::{self, err, Call, LowerError};
use crate::layers::check::{Fit, Kind};
use crate::layers::text::{form, reg};
use crate::layers::Reg;
use crate::reference::interpret::{Machine, Value};

/// `[clamp(z, 0, 1)] ++ [min(z², 1)]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DualF32 {
    /// The f32 values read.
    pub input: Reg,
    /// Twice as many written.
    pub out: Reg,
}

/// `clamp(x, 0, 1)²`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ScreluF32 {
    /// The f32 values read.
    pub input: Reg,
    /// The values written.
    pub out: Reg,
}

/// `clamp(x, 0, 1)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ClampF32 {
    /// The f32 values read.
    pub input: Reg,
    /// The values written.
    pub out: Reg,
}

/// `x · clamp(x + 3, 0, 6) · (1/6)`, in that order, `1/6` the f32 quotient (hard-swish).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HardSwishF32 {
    /// The f32 values read.
    pub input: Reg,
    /// The values written.
    pub out: Reg,
}

/// `hardswish(x[i]) · x[i + n/2]` for `i < n/2` (SwiGLU with a hard-swish gate).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SwigluF32 {
    /// The `n` f32 values read (`n` even): the gates, then the values.
    pub input: Reg,
    /// The `n/2` values written.
    pub out: Reg,
}

/// `[max(x, 0)²] ++ [min(x, 0)²]` (the signed square, cinder's `concat(x, −x).sqrrelu()`):
/// one product each, twice as many values.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SignedSquareF32 {
    /// The f32 values read.
    pub input: Reg,
    /// Twice as many written.
    pub out: Reg,
}

/// The step of activation `act`.
pub(crate) fn f32_act(act: Act, input: Reg, out: Reg) -> Step {
    match act {
        Act::Crelu => ClampF32 { input, out }.into(),
        Act::Screlu => ScreluF32 { input, out }.into(),
        Act::Dual => DualF32 { input, out }.into(),
        Act::HardSwish => HardSwishF32 { input, out }.into(),
        Act::Swiglu => SwigluF32 { input, out }.into(),
        Act::SignedSquare => SignedSquareF32 { input, out }.into(),
    }
}

/// `x · clamp(x + 3, 0, 6) · (1/6)`: two roundings after the clamp, the multiplier the f32
/// quotient `1/6` (Viridithas's order).
fn hard_swish(x: f32) -> f32 {
    x * (x + 3.0).clamp(0.0, 6.0) * (1.0f32 / 6.0)
}

/// What an activation of each of `input`'s f32 values writes: as many f32 values.
fn each(fit: &Fit<'_>, input: Reg) -> Result<Kind, String> {
    Ok(Kind::Float(fit.floats(input)?))
}

impl StepKind for DualF32 {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        // Also as it printed before it said `0.0, 1.0`.
        let read = |v: &[&str]| (v[0] == v[1]).then_some(DualF32 { input: reg(v[0])?, out });
        form(rhs, "clamp({}, 0.0, 1.0) ++ min({}², 1.0)", read)
            .or_else(|| form(rhs, "clamp({}, 0, 1) ++ min({}², 1)", read))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // f32 bounds as such: `clamp(r, 0, 1)` is the int32 clamp.
        write!(f, "clamp(r{0}, 0.0, 1.0) ++ min(r{0}², 1.0)", self.input)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        Ok(Kind::Float(fit.floats(self.input)?.checked_mul(2).ok_or_else(Fit::too_long)?))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        let z = m.floats(self.input);
        Value::Float(z.iter().map(|&z| z.clamp(0.0, 1.0)).chain(z.iter().map(|&z| (z * z).min(1.0))).collect())
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let n = r.floats(self.input)?;
        Ok(Lowers::To(call::Kind::Floats(2 * n), Call::DualF32 { x: self.input, n, out: self.out }))
    }
}

impl StepKind for ScreluF32 {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        let read = |v: &[&str]| Some(ScreluF32 { input: reg(v[0])?, out });
        form(rhs, "clamp({}, 0.0, 1.0)²", read).or_else(|| form(rhs, "clamp({}, 0, 1)²", read))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "clamp(r{}, 0.0, 1.0)²", self.input)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        each(fit, self.input)
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        m.map_floats(self.input, |x| x.clamp(0.0, 1.0) * x.clamp(0.0, 1.0))
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let n = r.floats(self.input)?;
        Ok(Lowers::To(call::Kind::Floats(n), Call::ScreluF32 { x: self.input, n, out: self.out }))
    }
}

impl StepKind for ClampF32 {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "clamp({}, 0.0, 1.0)", |v| Some(ClampF32 { input: reg(v[0])?, out }))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "clamp(r{}, 0.0, 1.0)", self.input)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        each(fit, self.input)
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        m.map_floats(self.input, |x| x.clamp(0.0, 1.0))
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let n = r.floats(self.input)?;
        Ok(Lowers::To(call::Kind::Floats(n), Call::ClampF32 { x: self.input, n, out: self.out }))
    }
}

impl StepKind for HardSwishF32 {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "{} · clamp({} + 3.0, 0.0, 6.0) · (1/6)", |v| {
            (v[0] == v[1]).then_some(HardSwishF32 { input: reg(v[0])?, out })
        })
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{0} · clamp(r{0} + 3.0, 0.0, 6.0) · (1/6)", self.input)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        each(fit, self.input)
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        m.map_floats(self.input, hard_swish)
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let n = r.floats(self.input)?;
        Ok(Lowers::To(call::Kind::Floats(n), Call::HardSwishF32 { x: self.input, n, out: self.out }))
    }
}

impl StepKind for SwigluF32 {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "swiglu({}) (x[i] · clamp(x[i] + 3.0, 0.0, 6.0) · (1/6) · x[i + n/2])", |v| {
            Some(SwigluF32 { input: reg(v[0])?, out })
        })
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "swiglu(r{})   (x[i] · clamp(x[i] + 3.0, 0.0, 6.0) · (1/6) · x[i + n/2])", self.input)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        let n = fit.floats(self.input)?;
        if n % 2 != 0 {
            return Err(format!("r{} has {n} values; a gated activation halves an even number", self.input));
        }
        Ok(Kind::Float(n / 2))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        let x = m.floats(self.input);
        let (gate, value) = x.split_at(x.len() / 2);
        Value::Float(gate.iter().zip(value).map(|(&g, &v)| hard_swish(g) * v).collect())
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { input, out } = *self;
        let n = r.floats(input)?;
        if n % 2 != 0 {
            return err(format!("r{out}: a gated activation of {n} values, not an even number"));
        }
        Ok(Lowers::To(call::Kind::Floats(n / 2), Call::SwigluF32 { x: input, n: n / 2, out }))
    }
}

impl StepKind for SignedSquareF32 {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "max({}, 0.0)² ++ min({}, 0.0)²", |v| {
            (v[0] == v[1]).then_some(SignedSquareF32 { input: reg(v[0])?, out })
        })
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "max(r{0}, 0.0)² ++ min(r{0}, 0.0)²", self.input)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        Ok(Kind::Float(fit.floats(self.input)?.checked_mul(2).ok_or_else(Fit::too_long)?))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        let z = m.floats(self.input);
        let (pos, neg) = (z.iter().map(|&z| z.max(0.0)), z.iter().map(|&z| z.min(0.0)));
        Value::Float(pos.chain(neg).map(|v| v * v).collect())
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let n = r.floats(self.input)?;
        Ok(Lowers::To(call::Kind::Floats(2 * n), Call::SignedSquareF32 { x: self.input, n, out: self.out }))
    }
}
