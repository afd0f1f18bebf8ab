//! Plain versions of the layer operations the interpreter needs, with the engines' exact
//! semantics.

use nnue_format::Dense;

/// `out[o] = bias[o] + sum_i weight[o][i] * in[i]`.
pub(crate) fn affine(layer: &Dense, input: &[u8]) -> Vec<i32> {
    (0..layer.outputs)
        .map(|o| {
            let row = layer.row(o);
            // Wrapping, as the SIMD adds do: a hostile net may overflow, and must not panic.
            row.iter().zip(input).fold(layer.biases[o], |sum, (&w, &x)| sum.wrapping_add(i32::from(w) * i32::from(x)))
        })
        .collect()
}

/// `clamp(x >> shift, 0, 127)`.
pub(crate) fn clipped_relu_shift(input: &[i32], shift: u32) -> Vec<u8> {
    input.iter().map(|&x| (x >> shift).clamp(0, 127) as u8).collect()
}

/// `min(127, x * x >> shift)`, the square in 64 bits.
pub(crate) fn sqr_clipped_relu_shift(input: &[i32], shift: u32) -> Vec<u8> {
    input.iter().map(|&x| ((i64::from(x) * i64::from(x)) >> shift).min(127) as u8).collect()
}

/// The f32 dot product of the output layer as every path computes it: 16 lanes, lane `j`
/// summing inputs `j, j + 16, j + 32, ...` in order (`x·w`, then `fma`), the lanes then halved
/// four times (`p[j] + p[j + half]`), then the bias added.
pub(crate) fn f32_dot(x: &[f32], w: &[f32], bias: f32) -> f32 {
    let mut p = [0f32; 16];
    for (i, (&x, &w)) in x.iter().zip(w).enumerate() {
        let j = i % 16;
        p[j] = if i < 16 { x * w } else { x.mul_add(w, p[j]) };
    }
    let mut n = 16;
    while n > 1 {
        n /= 2;
        for j in 0..n {
            p[j] += p[j + n];
        }
    }
    p[0] + bias
}
