//! The multi-layer nets' sparse layer as Integral sums it.

use std::fmt;

use super::affine_i8::lower_int8;
use super::{Lowers, Read, Registers, StepKind};
use crate::layers::call::{ListedSums, LowerError};
use crate::layers::check::{Fit, Kind, Number};
use crate::layers::text::{form, param, reg};
use crate::layers::{Param, Reg};
use crate::reference::interpret::{Machine, Value};
use crate::Dense;

/// The multi-layer nets' sparse layer as Integral sums it (`l1sums=i16pairs`, no bias): the
/// non-zero 4-byte groups of `x` in order, two at a time; per output, each group's two int16
/// `maddubs` lanes (two products, saturated), the pair's lanes added in int16 (wrapping),
/// then widened and added; a last unpaired group alone.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AffineI8Pairs {
    /// The weights (`l1`).
    pub param: Param,
    /// The transform's bytes (`r0`).
    pub input: Reg,
    /// The sums written.
    pub out: Reg,
}

impl StepKind for AffineI8Pairs {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "{} · {} (int8, int16 pairs)", |v| {
            let s = AffineI8Pairs { param: param(v[0])?, input: reg(v[1])?, out };
            (s.param == Param::L1).then_some(s)
        })
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} · r{}   (int8, int16 pairs)", self.param, self.input)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        let s = fit.shape(self.param, Number::I8)?;
        // l1 is the multi-layer nets' only, whose transform is always pairwise.
        if self.input != 0 || self.param != Param::L1 {
            return Err("int16 pair sums are l1's over the pairwise transform, r0".into());
        }
        Ok(Kind::Int(s.outputs))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        Value::Int(affine_i16_pairs(&m.int8_layer(self.param), &m.bytes(self.input), None))
    }

    fn int8_input(&self) -> Option<Reg> {
        Some(self.input)
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { param, input, out } = *self;
        lower_int8(param, input, out, ListedSums::Pairs, r)
    }
}

/// `out[o] = bias[o] + sum_i weight[o][i] * in[i]` as Integral sums it: the non-zero 4-byte
/// groups of `input` in order, two at a time; per output, bytes 0-1 and 2-3 of a group each
/// give an int16 lane (two products, saturated), a pair's lanes meet in int16 (wrapping)
/// before they are widened. `Some(run)`: pairs only within each run of `run` groups, the
/// last `n mod run` groups alone (Viridithas's fours).
pub(super) fn affine_i16_pairs(layer: &Dense, input: &[u8], run: Option<usize>) -> Vec<i32> {
    let groups: Vec<usize> = (0..input.len() / 4).filter(|&g| input[4 * g..4 * g + 4] != [0; 4]).collect();
    let whole = run.map_or(groups.len(), |run| groups.len() / run * run);
    let (paired, alone) = groups.split_at(whole);
    let sets: Vec<&[usize]> = paired.chunks(2).chain(alone.chunks(1)).collect();
    (0..layer.outputs)
        .map(|o| {
            let row = layer.row(o);
            let lane = |g: usize, h: usize| {
                let (i, j) = (4 * g + 2 * h, 4 * g + 2 * h + 1);
                let s = i32::from(input[i]) * i32::from(row[i]) + i32::from(input[j]) * i32::from(row[j]);
                s.clamp(-32768, 32767) as i16
            };
            let mut sum = layer.biases[o];
            for pair in &sets {
                for h in 0..2 {
                    let l = pair.iter().fold(0i16, |l, &g| l.wrapping_add(lane(g, h)));
                    sum = sum.wrapping_add(i32::from(l));
                }
            }
            sum
        })
        .collect()
}
