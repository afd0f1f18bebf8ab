//! Stockfish's int8 dense layers, and the multi-layer nets' sparse layer.

use std::fmt;

use super::{Held, Lowers, Read, Registers, StepKind};
use crate::layers::call::{self, err, Call, Input, ListedSums, LowerError};
use crate::layers::check::{Fit, Kind, Number};
use crate::layers::text::{form, param, reg};
use crate::layers::{Param, Reg};
use crate::reference::interpret::{Machine, Value};
use crate::Dense;

/// `out[o] = bias[o] + Σ w[o][i] · x[i]`: int8 weights, int32 biases and sums. The
/// multi-layer nets' sparse layer (`l1`) adds its bias later ([`super::ShiftBias`],
/// [`super::DequantF32`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AffineI8 {
    /// The weights.
    pub param: Param,
    /// The bytes read (`r0` for the first layer).
    pub input: Reg,
    /// The sums written.
    pub out: Reg,
}

/// Whether `p` is a first layer, which reads the transform's bytes.
fn first(p: Param) -> bool {
    matches!(p, Param::Fc0 | Param::L1)
}

impl StepKind for AffineI8 {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        let read = |v: &[&str]| Some(AffineI8 { param: param(v[0])?, input: reg(v[1])?, out });
        // Only the multi-layer nets' sparse layer adds its bias later.
        form(rhs, "{} · {} + b (int8)", read)
            .or_else(|| form(rhs, "{} · {} (int8)", |v| read(v).filter(|s| s.param == Param::L1)))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self { param, input, .. } = self;
        match param {
            Param::L1 => write!(f, "l1 · r{input}   (int8)"),
            _ => write!(f, "{param} · r{input} + b   (int8)"),
        }
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        let Self { param, input, .. } = *self;
        let s = fit.shape(param, Number::I8)?;
        // The first layer's weights are laid out for the transform's bytes, the others' for
        // bytes in registers.
        if (input == 0) != first(param) {
            return Err(format!("{param} reads {}", if first(param) { "r0" } else { "activations, not r0" }));
        }
        match fit.get(input)? {
            Kind::Bytes { len, max } if max <= 127 => fit.reads(input, s, param, len)?,
            k => return Err(format!("r{input} is {}; an int8 layer reads values in 0..=127", k.name())),
        }
        Ok(Kind::Int(s.outputs))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        Value::Int(affine(&m.int8_layer(self.param), &m.bytes(self.input)))
    }

    fn int8_input(&self) -> Option<Reg> {
        Some(self.input)
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { param, input, out } = *self;
        lower_int8(param, input, out, ListedSums::Exact, r)
    }
}

/// The int8 layer `param` reading `input` into `out`, its products summed as `sums` says: on
/// the transform the first layer's kernels (listed or clipped bytes), elsewhere a dense layer
/// on bytes in the order its weights read them. Only the listed bytes have int16 pair sums.
pub(super) fn lower_int8(
    param: Param,
    input: Reg,
    out: Reg,
    sums: ListedSums,
    r: &mut dyn Registers,
) -> Result<Lowers, LowerError> {
    let n = r.outputs(param)?;
    // The multi-layer nets' sparse layer adds its bias after rescaling the sums.
    let bias = param != Param::L1;
    let transform = match r.held(input)? {
        Held::Input(transform) => Some(transform),
        _ => None,
    };
    let call = match transform {
        Some(Input::Listed) => {
            r.first(out)?;
            Call::Listed { param, n, sums, bias, out }
        }
        _ if sums != ListedSums::Exact => {
            return err(format!("r{out}: int16 pair sums read the pairwise transform's listed bytes"))
        }
        Some(Input::Clipped) => {
            r.first(out)?;
            Call::Sparse { param, n, bias, out }
        }
        _ => {
            let order = r.order(param);
            let inputs = r.bytes(input, order)?;
            if n == 1 {
                return Ok(Lowers::To(call::Kind::Int, Call::One { param, x: input, inputs, out }));
            }
            Call::Dense { param, x: input, inputs, n, out }
        }
    };
    Ok(Lowers::To(call::Kind::Ints(n), call))
}

/// `out[o] = bias[o] + sum_i weight[o][i] * in[i]`.
fn affine(layer: &Dense, input: &[u8]) -> Vec<i32> {
    (0..layer.outputs)
        .map(|o| {
            let row = layer.row(o);
            // Wrapping, as the SIMD adds do: a hostile net may overflow, and must not panic.
            row.iter().zip(input).fold(layer.biases[o], |sum, (&w, &x)| sum.wrapping_add(i32::from(w) * i32::from(x)))
        })
        .collect()
}
