//! Plain-integer versions of the layers, with Stockfish's exact semantics.

use nnue_format::Dense;

/// SFNNv5+ feature-transformer output from the doubled accumulators: for each perspective
/// (side to move first), the products of the clamped halves, `clamp(a, 0, 254) *
/// clamp(b, 0, 254) / 512` (Stockfish's `mulhi(a << 7, b)`).
pub fn ft_pairwise(us: &[i16], them: &[i16]) -> Vec<u8> {
    let half = us.len() / 2;
    let mut out = Vec::with_capacity(us.len());
    for acc in [us, them] {
        for j in 0..half {
            let a = i32::from(acc[j]).clamp(0, 254);
            let b = i32::from(acc[j + half]).clamp(0, 254);
            out.push((a * b / 512) as u8);
        }
    }
    out
}

/// Threat nets' (Stockfish 18) feature-transformer output: no load-time doubling, so the
/// halves clamp to 0..255 and the product is divided by 512.
pub fn ft_pairwise_threats(us: &[i16], them: &[i16]) -> Vec<u8> {
    let half = us.len() / 2;
    let mut out = Vec::with_capacity(us.len());
    for acc in [us, them] {
        for j in 0..half {
            let a = i32::from(acc[j]).clamp(0, 255);
            let b = i32::from(acc[j + half]).clamp(0, 255);
            out.push((a * b / 512) as u8);
        }
    }
    out
}

/// `out[o] = bias[o] + sum_i weight[o][i] * in[i]`.
pub fn affine(layer: &Dense, input: &[u8]) -> Vec<i32> {
    (0..layer.outputs)
        .map(|o| {
            let row = layer.row(o);
            // Wrapping, as the SIMD adds do: a hostile net may overflow, and must not panic.
            row.iter().zip(input).fold(layer.biases[o], |sum, (&w, &x)| sum.wrapping_add(i32::from(w) * i32::from(x)))
        })
        .collect()
}

/// `clamp(x >> 6, 0, 127)` (the shift floors, as C++'s `>>` on int does).
pub fn clipped_relu(input: &[i32]) -> Vec<u8> {
    clipped_relu_shift(input, 6)
}

/// `min(127, x * x >> 19)`.
pub fn sqr_clipped_relu(input: &[i32]) -> Vec<u8> {
    sqr_clipped_relu_shift(input, 19)
}

/// `clamp(x >> shift, 0, 127)`.
pub fn clipped_relu_shift(input: &[i32], shift: u32) -> Vec<u8> {
    input.iter().map(|&x| (x >> shift).clamp(0, 127) as u8).collect()
}

/// `min(127, x * x >> shift)`, the square in 64 bits.
pub fn sqr_clipped_relu_shift(input: &[i32], shift: u32) -> Vec<u8> {
    input.iter().map(|&x| ((i64::from(x) * i64::from(x)) >> shift).min(127) as u8).collect()
}
