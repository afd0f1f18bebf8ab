//! Stormphrax 8's dual activation.

use std::fmt;

use super::{Lowers, Read, Registers, StepKind};
use crate::layers::call::{self, err, Call, LowerError};
use crate::layers::check::{Fit, Kind};
use crate::layers::text::{form, log2, num, pow2, reg};
use crate::layers::Reg;
use crate::reference::interpret::{Machine, Value};

/// `[clamp(o, 0, Q²) · Q >> shift] ++ [min(o · o, Q⁴) >> (q_bits + shift)]`, Q = 2^q_bits,
/// the product wrapping, the shifts arithmetic (Stormphrax 8's dual activation: `shift` 0
/// gives the values its skip adds, `q_bits` the dense layer's inputs).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DualWideI32 {
    /// The int32 values read.
    pub input: Reg,
    /// Q's exponent (Q⁴ fits an int32).
    pub q_bits: u32,
    /// The right shift of both halves (`q_bits + shift` below 32).
    pub shift: u32,
    /// Twice as many written.
    pub out: Reg,
}

impl StepKind for DualWideI32 {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "clamp({}, 0, {}) · {} >> {} ++ min({}², {}) >> {}", |v| {
            let (q_bits, shift) = (log2(v[2])?, num::<u32>(v[3])?);
            let ok = v[0] == v[4]
                && num::<u64>(v[1])? == 1u64 << (2 * q_bits)
                && num::<u128>(v[5])? == 1u128 << (4 * q_bits)
                && num::<u32>(v[6])? == q_bits + shift;
            ok.then_some(DualWideI32 { input: reg(v[0])?, q_bits, shift, out })
        })
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self { input, q_bits, shift, .. } = *self;
        let (q, qq, q4) = (pow2(q_bits), pow2(2 * q_bits), pow2(4 * q_bits));
        let s2 = q_bits + shift;
        write!(f, "clamp(r{input}, 0, {qq}) · {q} >> {shift} ++ min(r{input}², {q4}) >> {s2}")
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        // Q⁴ fits an i32 (Stormphrax 8's Q = 64), the shifts stay below 32.
        if self.q_bits > 7 || self.q_bits + self.shift >= 32 {
            return Err("Q⁴ must fit an int32 and the shifts stay below 32".into());
        }
        Ok(Kind::Int(fit.ints(self.input)?.checked_mul(2).ok_or_else(Fit::too_long)?))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        let (q_bits, shift) = (self.q_bits, self.shift);
        let (q2, q4) = (1i32 << (2 * q_bits), 1i32 << (4 * q_bits));
        let o = m.ints(self.input);
        let low = o.iter().map(|&o| (o.clamp(0, q2) << q_bits) >> shift);
        Value::Int(low.chain(o.iter().map(|&o| o.wrapping_mul(o).min(q4) >> (q_bits + shift))).collect())
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { input, q_bits, shift, out } = *self;
        let n = r.ints(input)?;
        // `check_fits`'s rule: Q⁴ fits an int32, the shifts stay below 32.
        if q_bits > 7 || shift >= 32 - q_bits {
            return err(format!("r{out}: Q = 2^{q_bits}, a shift by {shift}"));
        }
        Ok(Lowers::To(call::Kind::Ints(2 * n), Call::DualWideI32 { x: input, n, q_bits, shift, out }))
    }
}
