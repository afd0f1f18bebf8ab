//! The multi-layer nets' sparse layer as Viridithas's AVX2 build sums it.

use std::fmt;

use super::affine_i8::lower_int8;
use super::affine_i8_pairs::affine_i16_pairs;
use super::{Lowers, Read, Registers, StepKind};
use crate::layers::call::{ListedSums, LowerError};
use crate::layers::check::{Fit, Kind, Number};
use crate::layers::text::{form, param, reg};
use crate::layers::{Param, Reg};
use crate::reference::interpret::{Machine, Value};

/// The sparse layer as Viridithas's AVX2 build sums it (`l1sums=viridithas-avx2`, no bias):
/// the net's neurons in its fixed order ([`VIRIDITHAS_ORDER`], which its loader applies to
/// every net, and so does the reader of such a description), the non-zero 4-byte groups in
/// that order, four at a time; in each run of four,
/// per output, groups 1 and 2 and groups 3 and 4 have their `maddubs` int16 lanes added in
/// int16 (wrapping) before widening, as [`AffineI8Pairs`](super::AffineI8Pairs) pairs them;
/// the last `n mod 4` groups are widened alone.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AffineI8Fours {
    /// The weights (`l1`).
    pub param: Param,
    /// The transform's bytes (`r0`).
    pub input: Reg,
    /// The sums written.
    pub out: Reg,
}

/// Viridithas's neuron order (`REPERMUTE_INDICES` in its `src/nnue/network.rs`, 8bc07064):
/// neuron `VIRIDITHAS_ORDER[q]` of the file is its neuron `q`, in both accumulator halves and
/// both perspectives' sparse-layer inputs.
#[rustfmt::skip]
pub const VIRIDITHAS_ORDER: [u16; 512] = [
    505, 451, 2, 392, 159, 331, 314, 271, 4, 97, 285, 442, 167, 117, 141, 94, 436, 241, 143, 343,
    398, 281, 358, 190, 291, 191, 134, 227, 480, 399, 466, 413, 425, 396, 126, 249, 329, 375, 217, 255,
    263, 274, 207, 221, 315, 196, 224, 106, 202, 45, 57, 496, 419, 508, 269, 197, 296, 5, 453, 483,
    123, 108, 489, 87, 166, 179, 182, 181, 397, 379, 177, 56, 416, 42, 22, 121, 236, 247, 171, 110,
    242, 478, 383, 15, 147, 29, 349, 204, 139, 348, 311, 20, 434, 158, 193, 350, 251, 293, 319, 476,
    62, 310, 346, 128, 21, 44, 334, 248, 360, 449, 454, 55, 219, 428, 324, 154, 446, 509, 464, 230,
    37, 27, 156, 284, 235, 432, 209, 49, 183, 173, 410, 225, 150, 93, 336, 169, 441, 95, 504, 374,
    384, 74, 309, 78, 373, 491, 54, 435, 213, 361, 280, 75, 17, 47, 116, 107, 88, 389, 226, 369,
    393, 215, 320, 175, 68, 461, 1, 323, 39, 481, 316, 67, 146, 394, 487, 91, 443, 511, 138, 233,
    471, 300, 303, 24, 382, 31, 357, 149, 287, 424, 85, 439, 210, 34, 468, 275, 381, 440, 12, 52,
    120, 501, 341, 122, 433, 415, 257, 479, 239, 493, 406, 337, 377, 391, 421, 325, 438, 401, 404, 273,
    330, 422, 305, 318, 417, 356, 301, 163, 0, 86, 327, 72, 317, 84, 378, 198, 80, 184, 234, 231,
    218, 36, 180, 364, 237, 485, 450, 299, 38, 151, 244, 447, 119, 103, 351, 507, 216, 465, 220, 503,
    376, 328, 188, 30, 335, 13, 211, 295, 292, 368, 304, 462, 81, 176, 189, 140, 497, 380, 455, 203,
    79, 445, 58, 322, 266, 102, 277, 111, 7, 35, 467, 307, 101, 8, 418, 238, 370, 308, 214, 11,
    132, 492, 60, 342, 89, 142, 306, 265, 286, 412, 223, 152, 71, 474, 475, 25, 192, 19, 222, 256,
    155, 258, 99, 355, 69, 302, 33, 105, 262, 267, 312, 498, 70, 162, 50, 278, 112, 366, 510, 332,
    82, 352, 400, 212, 463, 92, 243, 298, 113, 386, 362, 276, 458, 9, 153, 65, 104, 208, 253, 252,
    205, 168, 83, 23, 494, 133, 456, 482, 259, 157, 129, 185, 124, 326, 460, 405, 10, 194, 51, 268,
    411, 297, 272, 407, 136, 232, 206, 245, 145, 118, 437, 372, 289, 164, 403, 186, 339, 365, 48, 178,
    250, 260, 199, 144, 282, 472, 313, 130, 64, 161, 359, 488, 240, 294, 195, 502, 6, 290, 354, 371,
    16, 270, 385, 470, 344, 427, 283, 333, 43, 46, 41, 444, 96, 14, 254, 367, 495, 100, 457, 409,
    228, 261, 115, 347, 452, 426, 469, 32, 125, 131, 353, 338, 473, 165, 53, 390, 109, 160, 61, 288,
    18, 420, 340, 77, 90, 264, 201, 486, 484, 73, 459, 172, 387, 448, 40, 98, 137, 430, 28, 506,
    63, 500, 414, 388, 408, 76, 431, 187, 3, 429, 170, 114, 279, 321, 229, 490, 59, 477, 66, 345,
    402, 148, 174, 127, 395, 200, 423, 26, 363, 499, 135, 246,
];

impl StepKind for AffineI8Fours {
    fn parse(rhs: &str, out: Reg) -> Read<Self> {
        form(rhs, "{} · {} (int8, int16 pairs in fours, viridithas order)", |v| {
            let s = AffineI8Fours { param: param(v[0])?, input: reg(v[1])?, out };
            (s.param == Param::L1).then_some(s)
        })
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} · r{}   (int8, int16 pairs in fours, viridithas order)", self.param, self.input)
    }

    fn reads(&self) -> Vec<Reg> {
        vec![self.input]
    }

    fn check(&self, fit: &Fit<'_>) -> Result<Kind, String> {
        let s = fit.shape(self.param, Number::I8)?;
        if self.input != 0 || self.param != Param::L1 {
            return Err("Viridithas's sums are l1's over the pairwise transform, r0".into());
        }
        if s.inputs != 4 * VIRIDITHAS_ORDER.len() {
            return Err(format!(
                "Viridithas's neuron order is of {} neurons (L1 {}), the net's sparse layer reads {} bytes",
                VIRIDITHAS_ORDER.len(),
                2 * VIRIDITHAS_ORDER.len(),
                s.inputs
            ));
        }
        Ok(Kind::Int(s.outputs))
    }

    fn eval(&self, m: &Machine<'_>) -> Value {
        Value::Int(affine_i16_pairs(&m.int8_layer(self.param), &m.bytes(self.input), Some(4)))
    }

    fn int8_input(&self) -> Option<Reg> {
        Some(self.input)
    }

    fn lower(&self, r: &mut dyn Registers) -> Result<Lowers, LowerError> {
        let Self { param, input, out } = *self;
        lower_int8(param, input, out, ListedSums::Fours, r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Dense;

    /// Two groups whose `maddubs` lanes saturate: paired, their int16 sum wraps; in fours,
    /// a run shorter than four leaves them alone, each widened whole.
    #[test]
    fn a_run_shorter_than_four_is_summed_alone() {
        let mut layer = Dense::zeroed(8, 1);
        layer.weights[..8].fill(127);
        let input = [255u8; 8];
        // Each lane: 255·127·2 = 64770, saturated to 32767.
        assert_eq!(affine_i16_pairs(&layer, &input, None), vec![2 * (32767i16.wrapping_add(32767) as i32)]);
        assert_eq!(affine_i16_pairs(&layer, &input, Some(4)), vec![4 * 32767]);
        // Four groups: paired within the four, as pairs are.
        let mut layer = Dense::zeroed(16, 1);
        layer.weights[..16].fill(127);
        assert_eq!(affine_i16_pairs(&layer, &[255; 16], Some(4)), affine_i16_pairs(&layer, &[255; 16], None));
    }

    #[test]
    fn the_order_is_a_permutation() {
        let mut seen = [false; 512];
        for &n in &VIRIDITHAS_ORDER {
            assert!(!std::mem::replace(&mut seen[usize::from(n)], true), "{n} twice");
        }
    }
}
