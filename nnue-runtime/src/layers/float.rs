//! The f32 layers of bullet's multi-layer nets, each output's sum in the one order the
//! description fixes (plain loops, vectorised across outputs under the path's features).

use crate::simd::portable;

/// `f32` from its bits (the layout stores f32 weights as their bits).
#[inline(always)]
fn f(bits: i32) -> f32 {
    f32::from_bits(bits as u32)
}

/// The sparse layer's int32 sums to f32: `fma(float(s), num / den, bias)` (`num / den` in
/// f32; `b` the biases' bits).
#[inline(always)]
pub fn dequant<const N: usize>(x: &[i32; N], num: u32, den: u32, b: &[i32; N]) -> [f32; N] {
    let mul = num as f32 / den as f32;
    // Plain loops here and below: a closure (`from_fn`, `map`) isn't always inlined into the
    // path's `#[target_feature]` function, and `mul_add` outside one is a call to libm's `fmaf`.
    let mut y = [0f32; N];
    for j in 0..N {
        y[j] = (x[j] as f32).mul_add(mul, f(b[j]));
    }
    y
}

/// `[clamp(z, 0, 1); N] ++ [min(z², 1); N]` (`M` = 2N).
///
/// # Panics
/// When `M` is not 2N.
#[inline(always)]
pub fn dual_f32<const N: usize, const M: usize>(z: &[f32; N]) -> [f32; M] {
    // Not a const assertion: the run-time program instantiates this in a branch not taken.
    assert!(M == 2 * N, "a dual activation doubles its input");
    let mut a = [0f32; M];
    for j in 0..N {
        a[j] = z[j].clamp(0.0, 1.0);
        a[N + j] = (z[j] * z[j]).min(1.0);
    }
    a
}

/// `a ++ b` (`N` = A + B): a skip connection's input, the later layer's values first.
///
/// # Panics
/// When `N` is not A + B.
#[inline(always)]
pub fn concat_f32<const A: usize, const B: usize, const N: usize>(a: &[f32; A], b: &[f32; B]) -> [f32; N] {
    // Not a const assertion, as `dual_f32`.
    assert!(N == A + B, "a concatenation's length is its parts'");
    let mut out = [0f32; N];
    out[..A].copy_from_slice(a);
    out[A..].copy_from_slice(b);
    out
}

/// `clamp(z, 0, 1)²`.
#[inline(always)]
pub fn screlu_f32<const N: usize>(z: &[f32; N]) -> [f32; N] {
    let mut y = *z;
    for y in &mut y {
        let c = y.clamp(0.0, 1.0);
        *y = c * c;
    }
    y
}

/// `clamp(z, 0, 1)`.
#[inline(always)]
pub fn crelu_f32<const N: usize>(z: &[f32; N]) -> [f32; N] {
    let mut y = *z;
    for y in &mut y {
        *y = y.clamp(0.0, 1.0);
    }
    y
}

/// `x · clamp(x + 3, 0, 6) · (1/6)` (hard-swish): two roundings after the clamp, `1/6` the
/// f32 quotient, as Viridithas computes it.
#[inline(always)]
fn hard_swish(x: f32) -> f32 {
    x * (x + 3.0).clamp(0.0, 6.0) * (1.0f32 / 6.0)
}

/// Hard-swish per element.
#[inline(always)]
pub fn hard_swish_f32<const N: usize>(z: &[f32; N]) -> [f32; N] {
    let mut y = *z;
    for y in &mut y {
        *y = hard_swish(*y);
    }
    y
}

/// `hardswish(z[i]) · z[i + M]` for `i < M` (SwiGLU with a hard-swish gate).
///
/// # Panics
/// When `N` is not 2M.
#[inline(always)]
pub fn swiglu_f32<const N: usize, const M: usize>(z: &[f32; N]) -> [f32; M] {
    // Not a const assertion, as `dual_f32`.
    assert!(N == 2 * M, "a gated activation halves its input");
    let mut y = [0f32; M];
    for i in 0..M {
        y[i] = hard_swish(z[i]) * z[i + M];
    }
    y
}

/// `a + b` per element (a residual connection).
#[inline(always)]
pub fn add_f32<const N: usize>(a: &[f32; N], b: &[f32; N]) -> [f32; N] {
    let mut y = *a;
    for (y, b) in y.iter_mut().zip(b) {
        *y += b;
    }
    y
}

/// `out[o] = bias[o]`, then `fma(x[i], w[i][o], out[o])` for `i` in order (input-major
/// weights, as bits).
#[inline(always)]
pub fn affine_f32<const IN: usize, const OUT: usize>(
    x: &[f32; IN],
    w: &[[i32; OUT]; IN],
    b: &[i32; OUT],
) -> [f32; OUT] {
    let mut y = [0f32; OUT];
    for (y, &b) in y.iter_mut().zip(b) {
        *y = f(b);
    }
    for (x, row) in x.iter().zip(w) {
        for (y, &w) in y.iter_mut().zip(row) {
            *y = x.mul_add(f(w), *y);
        }
    }
    y
}

/// One output over 16 lanes (lane `j`: `x[j]·w[j]`, then `fma` of `j + 16`, `j + 32`, ...),
/// halved four times, plus the bias.
#[inline(always)]
pub fn dot_f32<const IN: usize>(x: &[f32; IN], w: &[i32; IN], b: i32) -> f32 {
    portable::dot16_f32(x, bytemuck::cast_ref(w), f(b))
}

/// `[max(z, 0)²; N] ++ [min(z, 0)²; N]` (`M` = 2N; cinder's signed square).
///
/// # Panics
/// When `M` is not 2N.
#[inline(always)]
pub fn signed_square_f32<const N: usize, const M: usize>(z: &[f32; N]) -> [f32; M] {
    // Not a const assertion, as `dual_f32`.
    assert!(M == 2 * N, "a signed square doubles its input");
    let mut a = [0f32; M];
    for j in 0..N {
        let (p, n) = (z[j].max(0.0), z[j].min(0.0));
        a[j] = p * p;
        a[N + j] = n * n;
    }
    a
}

/// The most fma chains [`affine_chains_f32`] takes.
pub const MAX_CHAINS: usize = 16;

/// Per output: `chains` fma chains over input-major weights, chain `k` the inputs `i ≡ k mod
/// chains` in order from 0, then `bias + ((((0 + c0) + c1) + c2) + …)` (cinder's `lnn.rs`).
///
/// # Panics
/// When `chains` is 0 or above [`MAX_CHAINS`].
#[inline(always)]
pub fn affine_chains_f32<const IN: usize, const OUT: usize>(
    x: &[f32; IN],
    w: &[[i32; OUT]; IN],
    b: &[i32; OUT],
    chains: usize,
) -> [f32; OUT] {
    assert!((1..=MAX_CHAINS).contains(&chains), "1 to 16 chains");
    let mut c = [[0f32; OUT]; MAX_CHAINS];
    for (i, (x, row)) in x.iter().zip(w).enumerate() {
        for (c, &w) in c[i % chains].iter_mut().zip(row) {
            *c = x.mul_add(f(w), *c);
        }
    }
    let mut y = [0f32; OUT];
    for (o, y) in y.iter_mut().enumerate() {
        let mut s = 0f32;
        for c in &c[..chains] {
            s += c[o];
        }
        *y = f(b[o]) + s;
    }
    y
}

/// One output over `lanes` lanes, the last `skip` inputs a residual part (cinder's `lno.rs`
/// and `lro.rs`): lane `l` adds `fma(w[i], x[i], b / main)` over the main inputs `i ≡ l`, and
/// (products rounded) `w[i]·x[i]` over the residual ones, from 0; the lanes' `r + o` added in
/// order from −0.0.
#[inline(always)]
pub fn lanes_f32<const IN: usize>(x: &[f32; IN], w: &[i32; IN], b: i32, lanes: usize, skip: usize) -> f32 {
    let main = IN - skip;
    let c = f(b) / main as f32;
    let mut total = -0.0f32;
    for l in 0..lanes {
        let (mut o, mut r) = (0f32, 0f32);
        let mut i = l;
        while i < main {
            o += f(w[i]).mul_add(x[i], c);
            i += lanes;
        }
        let mut i = main + l;
        while i < IN {
            r += f(w[i]) * x[i];
            i += lanes;
        }
        total += r + o;
    }
    total
}

/// `(x · scale) as i32`, truncating, then clamped to `±clamp` if said.
#[inline(always)]
pub fn f32_to_int(x: f32, scale: i32, clamp: Option<i32>) -> i32 {
    let v = (x * scale as f32) as i32;
    match clamp {
        Some(m) => v.clamp(-m, m),
        None => v,
    }
}

/// The values' bits, as a trace records f32 layers.
pub fn f32_bits(x: &[f32]) -> Vec<i32> {
    x.iter().map(|v| v.to_bits() as i32).collect()
}
