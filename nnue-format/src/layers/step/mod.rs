//! The step kinds, one file each (a family shares one: the f32 activations, `Add` and `Sub`):
//! a kind's fields and meaning, its line of the text form (printed and read), its check
//! against a net's arrays and its reference value. The list in `steps!` below registers each
//! kind once; [`Step`] and its dispatch follow from it.
//!
//! A kind's file also says how the kind lowers to the runtime's kernel calls
//! (`StepKind::lower`, through `Registers`); `crate::lower` only walks the steps. A new kind
//! is a file here implementing `StepKind` and its line in the list; a new kernel call besides
//! is a `Call` variant (`layers/call.rs`) and its arm in each back-end (the macro's tokens, the
//! loader's ops).

use std::fmt;

use super::call::{self, err, Call, Input, LowerError};
use super::check::{Fit, Kind};
use super::{Param, Reg};
use crate::layout::InputOrder;
use crate::reference::interpret::{Machine, Value};

mod add_bias_i16;
mod add_f32;
mod add_sub;
mod affine_f32;
mod affine_f32_chains;
mod affine_i32;
mod affine_i8;
mod affine_i8_fours;
mod affine_i8_pairs;
mod clamp;
mod clamp_square;
mod clipped_shift;
mod concat;
mod dequant_f32;
mod div;
mod dot_f32;
mod dot_i16;
mod dual_i32;
mod dual_wide_i32;
mod f32_act;
mod f32_to_int;
mod lanes_f32;
mod mul;
mod output_wide_i32;
mod shift_bias;
mod slice;
mod sqr_clipped_shift;
mod square;

pub use add_bias_i16::AddBiasI16;
pub use add_f32::AddF32;
pub use add_sub::{Add, Sub};
pub use affine_f32::AffineF32;
pub use affine_f32_chains::AffineChainsF32;
pub use affine_i32::AffineI32;
pub use affine_i8::AffineI8;
pub use affine_i8_fours::{AffineI8Fours, VIRIDITHAS_ORDER};
pub use affine_i8_pairs::AffineI8Pairs;
pub use clamp::Clamp;
pub use clamp_square::ClampSquare;
pub use clipped_shift::ClippedShift;
pub use concat::Concat;
pub use dequant_f32::DequantF32;
pub use div::Div;
pub use dot_f32::DotF32;
pub use dot_i16::DotI16;
pub use dual_i32::DualI32;
pub use dual_wide_i32::DualWideI32;
pub(crate) use f32_act::f32_act;
pub use f32_act::{ClampF32, DualF32, HardSwishF32, ScreluF32, SignedSquareF32, SwigluF32};
pub use f32_to_int::F32ToInt;
pub use lanes_f32::LanesF32;
pub use mul::Mul;
pub use output_wide_i32::OutputWideI32;
pub use shift_bias::ShiftBias;
pub use slice::Slice;
pub use sqr_clipped_shift::SqrClippedShift;
pub use square::Square;

/// A line's right-hand side as one kind reads it: `None` when the line is not in the kind's
/// form (the next kind is tried), `Some(None)` when it is but its values are not the kind's
/// (the line is no step), `Some(Some(step))`.
pub(crate) type Read<T> = Option<Option<T>>;

/// A register as a step's lowering finds it.
pub(crate) enum Held<'a> {
    /// `r0`: the transform, as the first layer reads it.
    Input(Input),
    /// Written by a call: what it holds.
    Written(call::Kind),
    /// A byte-shaping step that waits for the layer that reads it (which decides the bytes'
    /// order, and so the call that writes them).
    Waiting(&'a Step),
}

/// What a step's lowering asks of the registers written so far and of the net's layout
/// (implemented by `crate::lower`'s walk).
pub(crate) trait Registers {
    /// Register `reg`, or an error if no step has written it yet.
    fn held(&self, reg: Reg) -> Result<Held<'_>, LowerError>;

    /// The outputs of the layer with weights `param` (per bucket, from the layout's biases).
    fn outputs(&self, param: Param) -> Result<usize, LowerError>;

    /// The byte order in which the layer with weights `param` reads its input.
    fn order(&self, param: Param) -> InputOrder;

    /// An error unless the step writing `out` is the first call (the layer that reads the
    /// transform).
    fn first(&self, out: Reg) -> Result<(), LowerError>;

    /// Register `reg` as bytes in `order`, lowering the waiting steps that write them (each
    /// through [`StepKind::lower_bytes`]); their length.
    fn bytes(&mut self, reg: Reg, order: InputOrder) -> Result<usize, LowerError>;

    /// What `r0` is (`None` if a step has written it over).
    fn input(&self) -> Option<Input>;

    /// The step `reg` waits on, if it is written and waits.
    fn waiting(&self, reg: Reg) -> Option<&Step> {
        match self.held(reg) {
            Ok(Held::Waiting(step)) => Some(step),
            _ => None,
        }
    }

    /// The length of register `reg`, which must hold int32 sums.
    fn ints(&self, reg: Reg) -> Result<usize, LowerError> {
        match self.held(reg)? {
            Held::Written(call::Kind::Ints(n)) => Ok(n),
            _ => err(format!("r{reg} is not int32 sums")),
        }
    }

    /// The length of register `reg`, which must hold f32 values.
    fn floats(&self, reg: Reg) -> Result<usize, LowerError> {
        match self.held(reg)? {
            Held::Written(call::Kind::Floats(n)) => Ok(n),
            _ => err(format!("r{reg} is not f32 values")),
        }
    }

    /// An error unless register `reg` holds one int32 value.
    fn scalar(&self, reg: Reg) -> Result<(), LowerError> {
        match self.held(reg)? {
            Held::Written(call::Kind::Int) => Ok(()),
            _ => err(format!("r{reg} is not a single int32 value")),
        }
    }
}

/// A step's lowering.
pub(crate) enum Lowers {
    /// One call, writing the step's register with what it holds.
    To(call::Kind, Call),
    /// None yet: the step shapes bytes and waits for the layer that reads them.
    Waits,
}

/// What every step kind is: a struct of the registers it reads, the one it writes (`out`) and
/// its constants.
pub(crate) trait StepKind {
    /// The step whose text form's right-hand side is `rhs` (normalised: `·`, `²`, single
    /// spaces), writing `out`.
    fn parse(rhs: &str, out: Reg) -> Read<Self>
    where
        Self: Sized;

    /// The right-hand side of the step's line (after `rN = `).
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;

    /// The registers the step reads.
    fn reads(&self) -> Vec<Reg>;

    /// What the step writes, if its inputs and weights fit (`fit`: the net's arrays and the
    /// registers written so far); else why not.
    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String>;

    /// The step's value on the reference machine (the registers it reads are written).
    fn eval(&self, m: &Machine<'_>) -> Value;

    /// The kernel call the step lowers to, given the registers written so far; or that it
    /// waits for the layer that reads it.
    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError>;

    /// For a step that waits: the call that writes its bytes (register `out`) in `order`, and
    /// their length; `None` if no kernel writes them so.
    fn lower_bytes(
        &self,
        _out: Reg,
        _order: InputOrder,
        _r: &mut dyn Registers,
    ) -> Result<Option<(usize, Call)>, LowerError> {
        Ok(None)
    }

    /// The register the step reads as int8 layer inputs, if it does (see
    /// [`crate::Layers::int8_input_max`]).
    fn int8_input(&self) -> Option<Reg> {
        None
    }

    /// The largest value the step writes where it bounds its values (all `>= 0`), given the
    /// bounds of the registers written so far (`at`); `None`: unbounded.
    fn bound(&self, _at: &dyn Fn(Reg) -> Option<i32>) -> Option<i32> {
        None
    }
}

/// The registry: each kind's struct, once; [`Step`] has a variant of its name holding it, and
/// the dispatch of print, parse, check and reference value to it.
macro_rules! steps {
    ($($variant:ident),* $(,)?) => {
        /// One step: reads registers (and the weights of the position's bucket), writes one
        /// (`out`); or a trace step, which computes nothing.
        #[derive(Clone, PartialEq, Eq, Hash)]
        pub enum Step {
            $(#[doc = concat!("See [`", stringify!($variant), "`].")] $variant($variant),)*
            /// Appends the register to the trace's dense outputs (f32 as bits) or its
            /// activations.
            Trace {
                /// The register.
                reg: Reg,
                /// It holds activations (bytes), not dense values.
                activation: bool,
            },
        }

        $(impl From<$variant> for Step {
            fn from(s: $variant) -> Step {
                Step::$variant(s)
            }
        })*

        impl Step {
            /// The kind of a computing step (`None`: a trace step).
            pub(crate) fn kind(&self) -> Option<&dyn StepKind> {
                match self {
                    $(Step::$variant(s) => Some(s),)*
                    Step::Trace { .. } => None,
                }
            }

            /// The register the step writes (`None`: a trace step).
            pub(crate) fn out(&self) -> Option<Reg> {
                match self {
                    $(Step::$variant(s) => Some(s.out),)*
                    Step::Trace { .. } => None,
                }
            }

            /// The registers the step reads and the one it writes (`None` for a trace).
            pub fn registers(&self) -> (Vec<Reg>, Option<Reg>) {
                match self {
                    $(Step::$variant(s) => (s.reads(), Some(s.out)),)*
                    Step::Trace { reg, .. } => (vec![*reg], None),
                }
            }

            /// The computing step whose line's right-hand side is `rhs`, writing `out`.
            pub(crate) fn parse(rhs: &str, out: Reg) -> Option<Step> {
                $(if let Some(read) = $variant::parse(rhs, out) {
                    return read.map(Step::$variant);
                })*
                None
            }
        }

        impl fmt::Debug for Step {
            /// As the kind's struct (`AffineI8 { param: Fc0, input: 0, out: 1 }`).
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $(Step::$variant(s) => s.fmt(f),)*
                    Step::Trace { reg, activation } => {
                        f.debug_struct("Trace").field("reg", reg).field("activation", activation).finish()
                    }
                }
            }
        }

        impl fmt::Display for Step {
            /// The step's line of the text form (a trace step, which has none there, as
            /// `trace rN`).
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $(Step::$variant(s) => {
                        write!(f, "r{} = ", s.out)?;
                        s.write(f)
                    })*
                    Step::Trace { reg, .. } => write!(f, "trace r{reg}"),
                }
            }
        }
    };
}

// In the order the text form tries them: the first kind whose form a line matches decides, so
// a form that a more general one also matches comes first (`clamp(r1 >> 6, 0, 127)` is a
// `ClippedShift` before it could be a `Clamp`, `clamp(r2, 0.0, 1.0)²` a `ScreluF32` before it
// could be a `Square`; `Concat`, `Square` and the arithmetic last).
steps! {
    DequantF32,
    DualF32,
    ScreluF32,
    HardSwishF32,
    SwigluF32,
    SignedSquareF32,
    AddF32,
    ClampF32,
    DualWideI32,
    DualI32,
    ClampSquare,
    ClippedShift,
    Clamp,
    SqrClippedShift,
    F32ToInt,
    OutputWideI32,
    ShiftBias,
    AffineI8,
    DotI16,
    AffineF32,
    AffineChainsF32,
    DotF32,
    LanesF32,
    AffineI32,
    AffineI8Pairs,
    AffineI8Fours,
    Slice,
    Concat,
    Square,
    AddBiasI16,
    Div,
    Mul,
    Add,
    Sub,
}
