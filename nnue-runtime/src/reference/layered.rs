//! The multi-layer stacks of bullet-trained engines, stage by stage as
//! [`nnue_format::LayeredArch`] defines them, in plain Rust.

use nnue_format::{LayeredArch, LayeredParams, Numbers};

use crate::network::{Evaluation, Trace};

/// Per perspective (side to move first), `clamp(a, 0, 255) * clamp(b, 0, 255) >> shift` of the
/// two halves' values.
pub fn ft_pairwise_shift(us: &[i16], them: &[i16], shift: u32) -> Vec<u8> {
    let half = us.len() / 2;
    let mut out = Vec::with_capacity(us.len());
    for acc in [us, them] {
        for j in 0..half {
            let a = i32::from(acc[j]).clamp(0, 255);
            let b = i32::from(acc[j + half]).clamp(0, 255);
            out.push(((a * b) >> shift) as u8);
        }
    }
    out
}

/// `s[j] = Σ x[i] · w[j][i]`, int32, wrapping.
pub fn sparse_sums(input: &[u8], weights: &[i8], outputs: usize) -> Vec<i32> {
    let n = input.len();
    (0..outputs)
        .map(|j| {
            let row = &weights[j * n..(j + 1) * n];
            row.iter().zip(input).fold(0i32, |s, (&w, &x)| s.wrapping_add(i32::from(w) * i32::from(x)))
        })
        .collect()
}

/// The stack after the transformer: `trace.ft_out` holds the pairwise bytes.
pub fn forward(arch: &LayeredArch, p: &LayeredParams, bucket: usize, trace: &mut Trace) -> Evaluation {
    let (l1, l2, l3, l2f) = (arch.l1, arch.l2, arch.l3, arch.l2_full());
    let sums = sparse_sums(&trace.ft_out, &p.l1_weights[bucket * l2 * l1..(bucket + 1) * l2 * l1], l2);
    let l1b = &p.l1_biases[bucket * l2..(bucket + 1) * l2];
    let w2 = &p.l2_weights[bucket * l3 * l2f..(bucket + 1) * l3 * l2f];
    let b2 = &p.l2_biases[bucket * l3..(bucket + 1) * l3];
    let w3 = &p.l3_weights[bucket * l3..(bucket + 1) * l3];
    let b3 = p.l3_biases[bucket];
    let positional = match arch.numbers {
        Numbers::F32 { num, den } => {
            let f = |v: i32| f32::from_bits(v as u32);
            let mul = num as f32 / den as f32;
            let z: Vec<f32> = sums.iter().zip(l1b).map(|(&s, &b)| (s as f32).mul_add(mul, f(b))).collect();
            let mut a: Vec<f32> = Vec::with_capacity(l2f);
            if arch.dual {
                a.extend(z.iter().map(|&z| z.clamp(0.0, 1.0)));
                a.extend(z.iter().map(|&z| (z * z).min(1.0)));
            } else {
                a.extend(z.iter().map(|&z| z.clamp(0.0, 1.0) * z.clamp(0.0, 1.0)));
            }
            let y: Vec<f32> = (0..l3)
                .map(|k| {
                    let row = &w2[k * l2f..(k + 1) * l2f];
                    row.iter().zip(&a).fold(f(b2[k]), |y, (&w, &x)| x.mul_add(f(w), y))
                })
                .collect();
            let c: Vec<f32> = y.iter().map(|&y| y.clamp(0.0, 1.0) * y.clamp(0.0, 1.0)).collect();
            let w3: Vec<f32> = w3.iter().map(|&w| f(w)).collect();
            let out = f32_dot(&c, &w3, f(b3));
            trace.dense = vec![sums, bits(&z), bits(&y), bits(&[out])];
            (out * arch.scale as f32) as i32
        }
        Numbers::I32 { q_bits, l1_shift } => {
            let q = 1i32 << q_bits;
            let o: Vec<i32> = sums.iter().zip(l1b).map(|(&s, &b)| (s >> l1_shift).wrapping_add(b)).collect();
            let mut a: Vec<i32> = Vec::with_capacity(l2f);
            if arch.dual {
                a.extend(o.iter().map(|&o| o.clamp(0, q) << q_bits));
                a.extend(o.iter().map(|&o| o.wrapping_mul(o).min(q * q)));
            } else {
                a.extend(o.iter().map(|&o| o.clamp(0, q) * o.clamp(0, q)));
            }
            let y: Vec<i32> = (0..l3)
                .map(|k| {
                    let row = &w2[k * l2f..(k + 1) * l2f];
                    row.iter().zip(&a).fold(b2[k], |y, (&w, &x)| y.wrapping_add(x.wrapping_mul(w)))
                })
                .collect();
            let one = q * q * q;
            let out = y.iter().zip(w3).fold(b3, |s, (&y, &w)| s.wrapping_add(y.clamp(0, one).wrapping_mul(w)));
            trace.dense = vec![sums, o, y, vec![out]];
            // Q⁴ is one: divided by Q, then scaled and divided by Q³ (int32, each division truncating).
            (out / q).wrapping_mul(arch.scale) / one
        }
    };
    Evaluation { bucket, psqt: 0, positional }
}

/// The f32 dot product of the output layer as every path computes it: 16 lanes, lane `j`
/// summing inputs `j, j + 16, j + 32, ...` in order (`x·w`, then `fma`), the lanes then halved
/// four times (`p[j] + p[j + half]`), then the bias added.
pub fn f32_dot(x: &[f32], w: &[f32], bias: f32) -> f32 {
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

fn bits(v: &[f32]) -> Vec<i32> {
    v.iter().map(|x| x.to_bits() as i32).collect()
}
