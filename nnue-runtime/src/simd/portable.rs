//! Loops every path shares: activations, fused accumulator updates and tiled refreshes. Plain
//! Rust written so that the compiler vectorises them under the caller's `#[target_feature]`
//! as well as intrinsics would; the kernels of `scalar` and `x86` call them.

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

/// `dst = src + sum(adds) - sum(subs)` in one pass (int16, wrapping as Stockfish's adds do).
/// Fixed arities unroll fully; the caller's target features decide the vector width.
#[inline(always)]
pub(crate) fn fused_update<const L1: usize, const A: usize, const S: usize>(
    src: &[i16; L1],
    dst: &mut [i16; L1],
    adds: [&[i16; L1]; A],
    subs: [&[i16; L1]; S],
) {
    for i in 0..L1 {
        let mut v = src[i];
        for a in &adds {
            v = v.wrapping_add(a[i]);
        }
        for s in &subs {
            v = v.wrapping_sub(s[i]);
        }
        dst[i] = v;
    }
}

/// `dst = src + sum of rows[added] - sum of rows[removed]` for any number of rows (a refresh,
/// from the biases or from a cached accumulator), tile by tile so that `dst` is written once
/// instead of once per row (wrapping int16: the order of the terms doesn't matter).
#[inline(always)]
fn update_rows_tiled<const L1: usize>(
    src: &[i16; L1],
    rows: &[[i16; L1]],
    added: &[usize],
    removed: &[usize],
    dst: &mut [i16; L1],
) {
    if !L1.is_multiple_of(TILE) {
        *dst = *src;
        for &f in added {
            for (d, &w) in dst.iter_mut().zip(&rows[f]) {
                *d = d.wrapping_add(w);
            }
        }
        for &f in removed {
            for (d, &w) in dst.iter_mut().zip(&rows[f]) {
                *d = d.wrapping_sub(w);
            }
        }
        return;
    }
    for t in (0..L1).step_by(TILE) {
        let mut tile = [0i16; TILE];
        tile.copy_from_slice(&src[t..t + TILE]);
        for &f in added {
            let row = &rows[f][t..t + TILE];
            for i in 0..TILE {
                tile[i] = tile[i].wrapping_add(row[i]);
            }
        }
        for &f in removed {
            let row = &rows[f][t..t + TILE];
            for i in 0..TILE {
                tile[i] = tile[i].wrapping_sub(row[i]);
            }
        }
        dst[t..t + TILE].copy_from_slice(&tile);
    }
}

/// Register tile of a refresh: big enough to amortise the row loop, small enough to stay in
/// vector registers.
const TILE: usize = 128;

/// `dst = biases + sum of rows[f]` for the given features, tile by tile so that each tile is
/// written once.
#[inline(always)]
pub(crate) fn refresh_rows<const L1: usize>(
    biases: &[i16; L1],
    rows: &[[i16; L1]],
    features: &[usize],
    dst: &mut [i16; L1],
) {
    update_rows_tiled(biases, rows, features, &[], dst)
}

/// `dst = src + rows[added] - rows[removed]`, fused for the move shapes that occur.
#[inline(always)]
pub(crate) fn update_rows<const L1: usize>(
    rows: &[[i16; L1]],
    src: &[i16; L1],
    dst: &mut [i16; L1],
    added: &[usize],
    removed: &[usize],
) {
    match (added, removed) {
        (&[a], &[s]) => fused_update(src, dst, [&rows[a]], [&rows[s]]),
        (&[a], &[s1, s2]) => fused_update(src, dst, [&rows[a]], [&rows[s1], &rows[s2]]),
        (&[a1, a2], &[s1, s2]) => fused_update(src, dst, [&rows[a1], &rows[a2]], [&rows[s1], &rows[s2]]),
        (&[a], &[]) => fused_update(src, dst, [&rows[a]], []),
        (&[], &[s]) => fused_update(src, dst, [], [&rows[s]]),
        _ => update_rows_tiled(src, rows, added, removed, dst),
    }
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

/// `dst = start + rows[added] - rows[removed]` over int8 rows (features below
/// `int8.len()`, widened) and int16 rows (the features after them), tile by tile so that each
/// tile of `dst` is written once and stays in vector registers (wrapping int16). The
/// transformers of Stockfish 18's and 19's nets keep both kinds in one accumulator.
#[inline(always)]
pub(crate) fn accumulate_mixed<const L1: usize>(
    int8: &[[i8; L1]],
    int16: &[[i16; L1]],
    start: &[i16; L1],
    dst: &mut [i16; L1],
    added: &[usize],
    removed: &[usize],
) {
    if L1.is_multiple_of(TILE) {
        accumulate_mixed_tiles::<L1, TILE>(int8, int16, start, dst, added, removed)
    } else {
        accumulate_mixed_tiles::<L1, 64>(int8, int16, start, dst, added, removed)
    }
}

/// [`accumulate_mixed`] with tiles of `T` columns (`T` divides L1).
#[inline(always)]
fn accumulate_mixed_tiles<const L1: usize, const T: usize>(
    int8: &[[i8; L1]],
    int16: &[[i16; L1]],
    start: &[i16; L1],
    dst: &mut [i16; L1],
    added: &[usize],
    removed: &[usize],
) {
    for t in (0..L1).step_by(T) {
        let mut tile: [i16; T] = start[t..t + T].try_into().expect("T divides L1");
        for (list, add) in [(added, true), (removed, false)] {
            for &f in list {
                if f < int8.len() {
                    let row: &[i8; T] = int8[f][t..t + T].try_into().expect("T divides L1");
                    for (v, &w) in tile.iter_mut().zip(row) {
                        *v = if add { v.wrapping_add(i16::from(w)) } else { v.wrapping_sub(i16::from(w)) };
                    }
                } else {
                    let row: &[i16; T] = int16[f - int8.len()][t..t + T].try_into().expect("T divides L1");
                    for (v, &w) in tile.iter_mut().zip(row) {
                        *v = if add { v.wrapping_add(w) } else { v.wrapping_sub(w) };
                    }
                }
            }
        }
        dst[t..t + T].copy_from_slice(&tile);
    }
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
