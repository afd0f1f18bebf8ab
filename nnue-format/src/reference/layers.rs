//! Plain versions of the layer operations the interpreter needs, with the engines' exact
//! semantics.

use crate::Dense;

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

/// [`affine`] as Integral sums (`l1sums=i16pairs`): the non-zero 4-byte groups of `input` in
/// order, two at a time; per output, bytes 0-1 and 2-3 of a group each give an int16 lane (two
/// products, saturated), a pair's lanes meet in int16 (wrapping) before they are widened.
pub(crate) fn affine_i16_pairs(layer: &Dense, input: &[u8]) -> Vec<i32> {
    let groups: Vec<usize> = (0..input.len() / 4).filter(|&g| input[4 * g..4 * g + 4] != [0; 4]).collect();
    (0..layer.outputs)
        .map(|o| {
            let row = layer.row(o);
            let lane = |g: usize, h: usize| {
                let (i, j) = (4 * g + 2 * h, 4 * g + 2 * h + 1);
                let s = i32::from(input[i]) * i32::from(row[i]) + i32::from(input[j]) * i32::from(row[j]);
                s.clamp(-32768, 32767) as i16
            };
            let mut sum = layer.biases[o];
            for pair in groups.chunks(2) {
                for h in 0..2 {
                    let l = pair.iter().fold(0i16, |l, &g| l.wrapping_add(lane(g, h)));
                    sum = sum.wrapping_add(i32::from(l));
                }
            }
            sum
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
