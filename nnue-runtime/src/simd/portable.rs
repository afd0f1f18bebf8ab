//! Loops every path shares: activations, PSQT, the int32 and f32 layers. Plain Rust written so
//! that the compiler vectorises them under the caller's `#[target_feature]` as well as
//! intrinsics would; the kernels of `scalar` and `x86` call them. (The transformer's row sums
//! are in `rows`.)

/// `clamp(x >> 6, 0, 127)` of Stockfish's ClippedReLU.
#[inline(always)]
pub(crate) fn clipped_relu(x: i32) -> u8 {
    (x >> 6).clamp(0, 127) as u8
}

/// `min(127, x * x >> 19)` of Stockfish's SqrClippedReLU.
#[inline(always)]
pub(crate) fn sqr_clipped_relu(x: i32) -> u8 {
    ((i64::from(x) * i64::from(x)) >> 19).min(127) as u8
}

/// PSQT: `dst = src + sum(added) - sum(removed)` over `B` int32 buckets.
#[inline(always)]
pub(crate) fn update_psqt<const B: usize>(
    rows: &[[i32; B]],
    src: &[i32; B],
    dst: &mut [i32; B],
    added: &[usize],
    removed: &[usize],
) {
    let mut v = *src;
    for &a in added {
        for (x, &w) in v.iter_mut().zip(&rows[a]) {
            *x = x.wrapping_add(w);
        }
    }
    for &s in removed {
        for (x, &w) in v.iter_mut().zip(&rows[s]) {
            *x = x.wrapping_sub(w);
        }
    }
    *dst = v;
}

/// `out[o] = b[o] + Σ x[i] · w[i][o]`, int32 wrapping, input-major weights.
#[inline(always)]
pub(crate) fn dense_i32<const IN: usize, const OUT: usize>(
    x: &[i32; IN],
    w: &[[i32; OUT]; IN],
    b: &[i32; OUT],
) -> [i32; OUT] {
    let mut y = *b;
    for (&x, row) in x.iter().zip(w) {
        for (y, &w) in y.iter_mut().zip(row) {
            *y = y.wrapping_add(x.wrapping_mul(w));
        }
    }
    y
}

/// One `maddubs` lane: bytes `2h`, `2h + 1` of a chunk times their weights, saturated to int16.
#[inline(always)]
fn maddubs_lane(x: &[u8; 4], w: &[i8; 4], h: usize) -> i16 {
    let s = i32::from(x[2 * h]) * i32::from(w[2 * h]) + i32::from(x[2 * h + 1]) * i32::from(w[2 * h + 1]);
    s.clamp(i16::MIN.into(), i16::MAX.into()) as i16
}

/// See [`super::Kernels::affine_sparse_listed_pairs`].
#[inline(always)]
pub(crate) fn affine_listed_pairs<const CHUNKS: usize, const OUT: usize>(
    input: &[[u8; 4]; CHUNKS],
    weights: &[[[i8; 4]; OUT]; CHUNKS],
    biases: &[i32; OUT],
    out: &mut [i32; OUT],
    nnz: &[u16],
) {
    *out = *biases;
    let mut pairs = nnz.chunks_exact(2);
    for p in &mut pairs {
        let (a, b) = (p[0] as usize, p[1] as usize);
        for (o, y) in out.iter_mut().enumerate() {
            for h in 0..2 {
                let lane =
                    maddubs_lane(&input[a], &weights[a][o], h).wrapping_add(maddubs_lane(&input[b], &weights[b][o], h));
                *y = y.wrapping_add(lane.into());
            }
        }
    }
    for &a in pairs.remainder() {
        let a = a as usize;
        for (o, y) in out.iter_mut().enumerate() {
            for h in 0..2 {
                *y = y.wrapping_add(maddubs_lane(&input[a], &weights[a][o], h).into());
            }
        }
    }
}

/// `b + Σ clamp(x[i], 0, max) · w[i]`, int32 wrapping.
#[inline(always)]
pub(crate) fn clamped_dot_i32<const IN: usize>(x: &[i32; IN], max: i32, w: &[i32; IN], b: i32) -> i32 {
    x.iter().zip(w).fold(b, |s, (&x, &w)| s.wrapping_add(x.clamp(0, max).wrapping_mul(w)))
}

/// The f32 output of a multi-layer net (see `nnue_format::layers::Step::DotF32`): 16 lanes,
/// lane `j` takes `x[j]·w[j]`, then `fma` of inputs `j + 16`, `j + 32`, ...; halved four
/// times; plus the bias.
#[inline(always)]
pub(crate) fn dot16_f32<const IN: usize>(x: &[f32; IN], w: &[f32; IN], b: f32) -> f32 {
    const { assert!(IN >= 16 && IN.is_multiple_of(16)) };
    let mut p: [f32; 16] = std::array::from_fn(|j| x[j] * w[j]);
    for c in 1..IN / 16 {
        for j in 0..16 {
            p[j] = x[16 * c + j].mul_add(w[16 * c + j], p[j]);
        }
    }
    let mut n = 16;
    while n > 1 {
        n /= 2;
        for j in 0..n {
            p[j] += p[j + n];
        }
    }
    p[0] + b
}

/// For each 8-bit mask of non-zero int32 lanes, the lane numbers of its set bits: the SIMD
/// paths list non-zero chunks of activations with one lookup per 8 chunks.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64", all(target_arch = "wasm32", target_feature = "simd128")))]
pub(crate) static NNZ_LUT: [[u16; 8]; 256] = {
    let mut lut = [[0u16; 8]; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut bit, mut n) = (0, 0);
        while bit < 8 {
            if mask & (1 << bit) != 0 {
                lut[mask][n] = bit as u16;
                n += 1;
            }
            bit += 1;
        }
        mask += 1;
    }
    lut
};
