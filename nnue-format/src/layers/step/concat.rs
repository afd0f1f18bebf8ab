//! Registers joined: Stockfish 19's activations, a skip connection.

use std::fmt;

use super::{Read, StepKind};
use crate::layers::check::{Fit, Kind, MAX_REGISTER_VALUES};
use crate::layers::text::{form, reg};
use crate::layers::Reg;
use crate::reference::interpret::{Machine, Value};

/// The registers one after the other: bytes (activations), or f32 values.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Concat {
    /// The registers read, in order.
    pub inputs: Vec<Reg>,
    /// The values written.
    pub out: Reg,
}

impl StepKind for Concat {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "{} ++ {}", |_| Some(Concat { inputs: rhs.split(" ++ ").map(reg).collect::<Option<_>>()?, out }))
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list: Vec<String> = self.inputs.iter().map(|r| format!("r{r}")).collect();
        f.write_str(&list.join(" ++ "))
    }

    fn reads(&self) -> Vec<Reg> {
        self.inputs.clone()
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        let add =
            |len: usize, n: usize| len.checked_add(n).filter(|&l| l <= MAX_REGISTER_VALUES).ok_or_else(Fit::too_long);
        // Bytes (Stockfish 19's activations) or f32 values (a skip connection), one kind.
        if self.inputs.iter().all(|&r| matches!(fit.get(r), Ok(Kind::Float(_)))) {
            let mut len = 0usize;
            for &r in &self.inputs {
                if let Ok(Kind::Float(n)) = fit.get(r) {
                    len = add(len, n)?;
                }
            }
            return Ok(Kind::Float(len));
        }
        let (mut len, mut max) = (0usize, 0);
        for &r in &self.inputs {
            match fit.get(r)? {
                Kind::Bytes { len: n, max: m } => {
                    len = add(len, n)?;
                    max = max.max(m);
                }
                k => return Err(format!("r{r} is {}; a concatenation joins bytes, or f32 values", k.name())),
            }
        }
        Ok(Kind::Bytes { len, max })
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        match m.get(self.inputs[0]) {
            Value::Float(_) => Value::Float(self.inputs.iter().flat_map(|&r| m.floats(r).to_vec()).collect()),
            Value::Int(_) => Value::Int(self.inputs.iter().flat_map(|&r| m.ints(r).to_vec()).collect()),
        }
    }

    fn bound(&self, at: &dyn Fn(Reg) -> Option<i32>) -> Option<i32> {
        self.inputs.iter().try_fold(0, |m, &r| Some(m.max(at(r)?)))
    }
}
