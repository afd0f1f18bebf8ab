//! The WebAssembly SIMD128 kernels. SIMD128 has no int8 dot product (relaxed SIMD's is the
//! `RelaxedSimd` path's, below, for the nets proven to allow it), so each chunk's four u8 * i8
//! products are taken in int16: the activations
//! and weights are widened and `i32x4_dot_i16x8` multiplies and adds pairs into int32 lanes.
//! The pairs of one output are added at the end of a layer, not per chunk. They keep the x86
//! paths' weight and activation layout, as the aarch64 kernels do, so one compiled net serves
//! every path: the byte shuffles of `pack_slot` and the `sfnn_fc*_act_source` orders become the
//! order in which 64-bit halves are narrowed together.
//!
//! Compiled only with the `simd128` target feature (the whole build has it), so the intrinsics
//! need no `#[target_feature]`; the ones that read memory are still `unsafe`.
//!
//! With the `relaxed-simd` target feature too, `RelaxedSimd` is SIMD128's kernels with the int8
//! dot products (`affine_sparse`, `affine_sparse_listed`, `affine_dense`, `affine_one`) by
//! `i32x4_relaxed_dot_i8x16_i7x16_add`: per int32 lane, four int8 weights times four
//! activations, summed in two int16 pairs, added to the lane. Its result is defined (the same
//! on every engine) only while the second operand's bytes fit 7 bits; the activations are
//! that operand, and a net runs this path only where its layers prove them in `0..=127`
//! ([`nnue_format::Layers::int8_inputs_fit_7_bits`]). Then each pair sum is within
//! `2 · 128 · 127 = 32512`: no int16 saturation, whether an engine saturates (x86's
//! `pmaddubsw`) or not, so the sums are exact, as x86's `vpdpbusd`'s.

// Register loops index by lane group `r`, as the pointer arithmetic beside them does.
#![allow(clippy::needless_range_loop)]
use std::arch::wasm32::*;
use std::mem::MaybeUninit;
use std::ops::Range;

use super::portable::NNZ_LUT;
use super::Kernels;

/// The SIMD128 kernels.
pub(crate) struct Simd128;

/// 16 unaligned bytes at `p`.
///
/// # Safety
/// `p` points to 16 readable bytes.
#[inline(always)]
unsafe fn load<T>(p: *const T) -> v128 {
    // SAFETY: `v128.load` has no alignment requirement; the caller vouches for the 16 bytes.
    unsafe { v128_load(p as *const v128) }
}

/// Stores 16 bytes at `p`, unaligned.
///
/// # Safety
/// `p` points to 16 writable bytes.
#[inline(always)]
unsafe fn store<T>(p: *mut T, v: v128) {
    // SAFETY: `v128.store` has no alignment requirement; the caller vouches for the 16 bytes.
    unsafe { v128_store(p as *mut v128, v) }
}

/// The sum of the four int32 lanes (wrapping).
#[inline(always)]
fn hsum(v: v128) -> i32 {
    let v = i32x4_add(v, i32x4_shuffle::<2, 3, 0, 1>(v, v));
    let v = i32x4_add(v, i32x4_shuffle::<1, 0, 3, 2>(v, v));
    i32x4_extract_lane::<0>(v)
}

/// Appends the indices of non-zero int32 lanes, 8 lanes (two registers) at a time, to a list
/// of N slots that need not be initialised: slots below `count` are. The lanes are 4-byte
/// chunks of activations, each byte at most 127.
struct NonZero<'a, const N: usize> {
    list: &'a mut MaybeUninit<[u16; N]>,
    count: usize,
    /// Index of the next group's first lane, in all 8 lanes.
    base: v128,
}

impl<'a, const N: usize> NonZero<'a, N> {
    #[inline(always)]
    fn new(list: &'a mut MaybeUninit<[u16; N]>) -> Self {
        NonZero { list, count: 0, base: u16x8_splat(0) }
    }

    /// Each group writes 8 slots at `count`, and `count <= 8 * groups so far`, so as long as
    /// callers push at most N / 8 groups every write stays inside the list.
    #[inline(always)]
    unsafe fn push_group(&mut self, lo: v128, hi: v128) {
        // SAFETY: the store stays within the list because each group adds at most 8 entries and the caller passes at most N / 8 groups.
        unsafe {
            debug_assert!(self.count + 8 <= N);
            // Every byte is at most 127, so a chunk is non-zero exactly when it is > 0 as an int32.
            let zero = i32x4_splat(0);
            let mask = (i32x4_bitmask(i32x4_gt(lo, zero)) | (i32x4_bitmask(i32x4_gt(hi, zero)) << 4)) as usize;
            let lanes = load(NNZ_LUT[mask].as_ptr());
            let slot = (self.list.as_mut_ptr() as *mut u16).add(self.count);
            store(slot, i16x8_add(lanes, self.base));
            self.count += mask.count_ones() as usize;
            self.base = i16x8_add(self.base, u16x8_splat(8));
        }
    }

    /// The listed indices.
    #[inline(always)]
    fn indices(self) -> &'a [u16] {
        // SAFETY: push_group initialised every slot below `count` (<= N).
        unsafe { std::slice::from_raw_parts(self.list.as_ptr() as *const u16, self.count) }
    }
}

/// Per register of four outputs, two int32 accumulators of pair sums: `[0]` holds outputs
/// 0, 0, 1, 1 (bytes 0..4 and 4..8 of the weights, two pairs each), `[1]` outputs 2, 2, 3, 3.
type Pairs = [[v128; 2]; 8];

/// x86's `maddubs` on 16 bytes (4 outputs × 4): unsigned `x` times signed `w`, adjacent
/// products summed exactly and saturated to int16, 8 lanes. A product fits int16 (255 · 128).
#[inline(always)]
fn maddubs_lanes(x: v128, w: v128) -> v128 {
    let lo = i16x8_mul(u16x8_extend_low_u8x16(x), i16x8_extend_low_i8x16(w));
    let hi = i16x8_mul(u16x8_extend_high_u8x16(x), i16x8_extend_high_i8x16(w));
    i16x8_narrow_i32x4(i32x4_extadd_pairwise_i16x8(lo), i32x4_extadd_pairwise_i16x8(hi))
}

/// `acc += chunk i of the input times its `OUT` weight columns`, in pair sums, for the
/// registers (of four outputs) `regs`.
#[inline(always)]
unsafe fn accumulate<const OUT: usize>(acc: &mut Pairs, x: *const i32, w: *const i8, i: u16, regs: Range<usize>) {
    // SAFETY: every pointer below comes from a reference to an array whose const dimensions bound the offsets used (the caller's contract).
    unsafe {
        let i = i as usize;
        // The chunk's 4 bytes (each at most 127) as int16, twice: the same for both halves.
        let chunk = i16x8_extend_low_i8x16(i32x4_splat(x.add(i).read_unaligned()));
        for r in regs {
            let wr = load(w.add((i * OUT / 4 + r) * 16));
            // |127 * -128| * 2 fits int32 by far; the products are exact in int16.
            acc[r][0] = i32x4_add(acc[r][0], i32x4_dot_i16x8(chunk, i16x8_extend_low_i8x16(wr)));
            acc[r][1] = i32x4_add(acc[r][1], i32x4_dot_i16x8(chunk, i16x8_extend_high_i8x16(wr)));
        }
    }
}

/// The registers of `OUT` outputs in groups of at most 4 (16 outputs, 8 accumulators): a layer
/// runs once per group, so that its accumulators stay in the 16 registers V8 has on x86-64.
fn register_groups<const OUT: usize>() -> impl Iterator<Item = Range<usize>> {
    (0..OUT / 4).step_by(4).map(|g| g..(g + 4).min(OUT / 4))
}

/// `out = biases + acc`, adding each output's two pair sums.
#[inline(always)]
unsafe fn store_pairs<const OUT: usize>(acc: &Pairs, biases: &[i32; OUT], out: &mut [i32; OUT]) {
    // SAFETY: `biases` and `out` hold OUT (a multiple of 4) int32s: 4 per register r < OUT / 4.
    unsafe {
        let (b, o) = (biases.as_ptr(), out.as_mut_ptr());
        for r in 0..OUT / 4 {
            let [a, c] = acc[r];
            let sums = i32x4_add(i32x4_shuffle::<0, 2, 4, 6>(a, c), i32x4_shuffle::<1, 3, 5, 7>(a, c));
            store(o.add(4 * r), i32x4_add(sums, load(b.add(4 * r))));
        }
    }
}

/// Bytes of `clamp(x, 0, 127)` for 16 int16 lanes given as two halves (saturating narrow,
/// then the lower clamp in int8).
#[inline(always)]
fn clamp_bytes(lo: v128, hi: v128) -> v128 {
    i8x16_max(i8x16_narrow_i16x8(lo, hi), i8x16_splat(0))
}

impl super::sealed::Sealed for Simd128 {}

// SAFETY: every function below only touches memory inside its array arguments (the const
// asserts pin the shapes the pointer arithmetic relies on) and uses SIMD128, which the build has.
unsafe impl Kernels for Simd128 {
    // Compiled with the build's SIMD128, like everything on wasm32.
    const ROWS: super::rows::RowKernels = super::rows::SCALAR;
    const ISA: super::Isa = super::Isa::Simd128;

    #[inline(always)]
    unsafe fn ft_pairwise_both<
        'o,
        const L1: usize,
        const HALF: usize,
        const CHUNKS: usize,
        const MAX: i16,
        const SHIFT: u32,
        const ROUND: bool,
    >(
        us: &[i16; L1],
        them: &[i16; L1],
        out: &'o mut MaybeUninit<[[u8; HALF]; 2]>,
        nnz: &'o mut MaybeUninit<[u16; CHUNKS]>,
    ) -> (&'o [[u8; HALF]; 2], &'o [u16]) {
        // SAFETY: every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            const { assert!(HALF.is_multiple_of(32) && 2 * HALF == L1 && 4 * CHUNKS == L1) };
            let (zero, top) = (i16x8_splat(0), i16x8_splat(MAX));
            let mut list = NonZero::new(nnz);
            let out_base = out.as_mut_ptr() as *mut u8;
            for (p, acc) in [us, them].into_iter().enumerate() {
                let (a, o) = (acc.as_ptr(), out_base.add(p * HALF));
                // Both factors clamped to 0..=MAX (at most 255): the product fits uint16, shifted
                // right by SHIFT as unsigned. A negative b gives 0, as the clamp says. Rounded
                // (`ROUND`: MAX 127), the half added still fits.
                let half = i16x8_splat(if ROUND { 1 << (SHIFT - 1) } else { 0 });
                let product = |j: usize| {
                    let x = i16x8_max(i16x8_min(load(a.add(j)), top), zero);
                    let y = i16x8_max(i16x8_min(load(a.add(HALF + j)), top), zero);
                    u16x8_shr(i16x8_add(i16x8_mul(x, y), half), SHIFT)
                };
                for k in 0..HALF / 32 {
                    // pack_slot order: blocks 0 and 2 of 8 in the first 16 bytes, 1 and 3 in the next.
                    let j = 32 * k;
                    let first = u8x16_narrow_i16x8(product(j), product(j + 16));
                    let second = u8x16_narrow_i16x8(product(j + 8), product(j + 24));
                    store(o.add(j), first);
                    store(o.add(j + 16), second);
                    // The 8 chunks just written, listed while still in registers.
                    list.push_group(first, second);
                }
            }
            // SAFETY: the loops stored all 2 * HALF bytes of `out`.
            (out.assume_init_ref(), list.indices())
        }
    }

    #[inline(always)]
    unsafe fn sfnn_fc0_act(fc0: &[i32; 16]) -> [u8; 32] {
        // SAFETY: every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            let x = fc0.as_ptr();
            // Saturated to int16: any value it changes squares (or shifts) past 127 anyway.
            // The byte order of sfnn_fc0_act_source: outputs 0..4 and 8..12, then 4..8 and 12..16.
            let a = i16x8_narrow_i32x4(load(x), load(x.add(8)));
            let b = i16x8_narrow_i32x4(load(x.add(4)), load(x.add(12)));
            // x * x >> 19 in int32 (at most 2^30), narrowed back: at most 2^11, clamped below.
            let sqr = |w: v128| {
                let lo = u32x4_shr(i32x4_extmul_low_i16x8(w, w), 19);
                let hi = u32x4_shr(i32x4_extmul_high_i16x8(w, w), 19);
                i16x8_narrow_i32x4(lo, hi)
            };
            let bytes = [clamp_bytes(sqr(a), i16x8_shr(a, 6)), clamp_bytes(sqr(b), i16x8_shr(b, 6))];
            std::mem::transmute::<[v128; 2], [u8; 32]>(bytes)
        }
    }

    #[inline(always)]
    unsafe fn sfnn_fc1_act(fc1: &[i32; 32]) -> [u8; 32] {
        // SAFETY: every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            let x = fc1.as_ptr();
            // ClippedReLU: x >> 6 in int32, saturated to int16 (pairs of quarters), then int8.
            let w = |k: usize, l: usize| {
                i16x8_narrow_i32x4(i32x4_shr(load(x.add(4 * k)), 6), i32x4_shr(load(x.add(4 * l)), 6))
            };
            // The byte order of sfnn_fc1_act_source: quarters 0, 2, 4, 6, then 1, 3, 5, 7.
            let first = clamp_bytes(w(0, 2), w(4, 6));
            let second = clamp_bytes(w(1, 3), w(5, 7));
            std::mem::transmute::<[v128; 2], [u8; 32]>([first, second])
        }
    }

    #[inline(always)]
    unsafe fn ft_clamp<const L1: usize>(acc: &[i16; L1], out: &mut [u8; L1]) {
        // SAFETY: every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            const { assert!(L1.is_multiple_of(32)) };
            let (a, o) = (acc.as_ptr(), out.as_mut_ptr());
            for j in (0..L1).step_by(32) {
                // pack_slot order, as in ft_pairwise_both.
                let (r0, r1, r2, r3) = (load(a.add(j)), load(a.add(j + 8)), load(a.add(j + 16)), load(a.add(j + 24)));
                store(o.add(j), clamp_bytes(r0, r2));
                store(o.add(j + 16), clamp_bytes(r1, r3));
            }
        }
    }

    #[inline(always)]
    unsafe fn affine_sparse<const CHUNKS: usize, const OUT: usize>(
        input: &[[u8; 4]; CHUNKS],
        weights: &[[[i8; 4]; OUT]; CHUNKS],
        biases: &[i32; OUT],
        out: &mut [i32; OUT],
    ) {
        // SAFETY: every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            const { assert!(CHUNKS.is_multiple_of(8) && CHUNKS <= 65536 && OUT.is_multiple_of(4) && OUT <= 32) };
            let mut nnz = MaybeUninit::<[u16; CHUNKS]>::uninit();
            let mut list = NonZero::new(&mut nnz);
            let chunks = input.as_ptr() as *const i32;
            for g in 0..CHUNKS / 8 {
                list.push_group(load(chunks.add(8 * g)), load(chunks.add(8 * g + 4)));
            }
            Self::affine_sparse_listed(input, weights, biases, out, list.indices());
        }
    }

    #[inline(always)]
    unsafe fn affine_sparse_listed<const CHUNKS: usize, const OUT: usize>(
        input: &[[u8; 4]; CHUNKS],
        weights: &[[[i8; 4]; OUT]; CHUNKS],
        biases: &[i32; OUT],
        out: &mut [i32; OUT],
        nnz: &[u16],
    ) {
        // SAFETY: every pointer below comes from a reference to an array whose const dimensions bound the offsets used; every index in `nnz` is below CHUNKS (the trait's contract).
        unsafe {
            const { assert!(OUT.is_multiple_of(4) && OUT <= 32) };
            // Two pair sums per output already make independent chains (integer sums: the
            // order doesn't matter).
            let mut acc: Pairs = [[i32x4_splat(0); 2]; 8];
            let (w, x) = (weights.as_ptr() as *const i8, input.as_ptr() as *const i32);
            for regs in register_groups::<OUT>() {
                for &i in nnz {
                    accumulate::<OUT>(&mut acc, x, w, i, regs.clone());
                }
            }
            store_pairs(&acc, biases, out);
        }
    }

    #[inline(always)]
    unsafe fn affine_sparse_listed_pairs<const CHUNKS: usize, const OUT: usize>(
        input: &[[u8; 4]; CHUNKS],
        weights: &[[[i8; 4]; OUT]; CHUNKS],
        biases: &[i32; OUT],
        out: &mut [i32; OUT],
        nnz: &[u16],
    ) {
        // SAFETY: every pointer below comes from a reference to an array whose const dimensions bound the offsets used; every index in `nnz` is below CHUNKS (the trait's contract).
        unsafe {
            const { assert!(OUT.is_multiple_of(4) && OUT <= 32) };
            let mut acc = [i32x4_splat(0); 8];
            let b = biases.as_ptr() as *const v128;
            for (r, a) in acc.iter_mut().enumerate().take(OUT / 4) {
                *a = v128_load(b.add(r));
            }
            let (w, x) = (weights.as_ptr() as *const v128, input.as_ptr() as *const i32);
            let chunk = |i: u16| i32x4_splat(x.add(i as usize).read_unaligned());
            let row = |i: u16, r: usize| v128_load(w.add(i as usize * OUT / 4 + r));
            let mut pairs = nnz.chunks_exact(2);
            for g in &mut pairs {
                let (xi, xj) = (chunk(g[0]), chunk(g[1]));
                for (r, a) in acc.iter_mut().enumerate().take(OUT / 4) {
                    // The two chunks' lanes meet in int16 (wrapping), then widen, as Integral's
                    // `maddubs` + `vpaddw` + `madd`.
                    let lanes = i16x8_add(maddubs_lanes(xi, row(g[0], r)), maddubs_lanes(xj, row(g[1], r)));
                    *a = i32x4_add(*a, i32x4_extadd_pairwise_i16x8(lanes));
                }
            }
            for &i in pairs.remainder() {
                let xi = chunk(i);
                for (r, a) in acc.iter_mut().enumerate().take(OUT / 4) {
                    *a = i32x4_add(*a, i32x4_extadd_pairwise_i16x8(maddubs_lanes(xi, row(i, r))));
                }
            }
            let o = out.as_mut_ptr() as *mut v128;
            for (r, a) in acc.iter().enumerate().take(OUT / 4) {
                v128_store(o.add(r), *a);
            }
        }
    }

    #[inline(always)]
    unsafe fn affine_dense<const CHUNKS: usize, const OUT: usize>(
        input: &[[u8; 4]; CHUNKS],
        weights: &[[[i8; 4]; OUT]; CHUNKS],
        biases: &[i32; OUT],
        out: &mut [i32; OUT],
    ) {
        // SAFETY: every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            const { assert!(OUT.is_multiple_of(4) && OUT <= 32 && CHUNKS <= 65536) };
            // Two pair sums per output already make independent chains.
            let mut acc: Pairs = [[i32x4_splat(0); 2]; 8];
            let (w, x) = (weights.as_ptr() as *const i8, input.as_ptr() as *const i32);
            for regs in register_groups::<OUT>() {
                for i in 0..CHUNKS {
                    accumulate::<OUT>(&mut acc, x, w, i as u16, regs.clone());
                }
            }
            store_pairs(&acc, biases, out);
        }
    }

    #[inline(always)]
    unsafe fn affine_one<const IN: usize>(input: &[u8; IN], weights: &[i8; IN], bias: i32) -> i32 {
        // SAFETY: every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            const { assert!(IN.is_multiple_of(16)) };
            let (x, w) = (input.as_ptr(), weights.as_ptr());
            let mut acc = [i32x4_splat(0); 2];
            for k in (0..IN).step_by(16) {
                // Activations are at most 127: their bytes read as int8 widen to the same values.
                let (xs, ws) = (load(x.add(k)), load(w.add(k)));
                let lo = i32x4_dot_i16x8(i16x8_extend_low_i8x16(xs), i16x8_extend_low_i8x16(ws));
                let hi = i32x4_dot_i16x8(i16x8_extend_high_i8x16(xs), i16x8_extend_high_i8x16(ws));
                acc = [i32x4_add(acc[0], lo), i32x4_add(acc[1], hi)];
            }
            bias.wrapping_add(hsum(i32x4_add(acc[0], acc[1])))
        }
    }

    #[inline(always)]
    unsafe fn chess768_output<const N: usize>(
        us: &[i16; N],
        them: &[i16; N],
        weights: &[[i16; N]; 2],
        qa: i16,
        screlu: bool,
        screlu_in_i16: bool,
    ) -> i32 {
        // SAFETY: every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            const { assert!(N.is_multiple_of(16)) };
            if screlu && !screlu_in_i16 {
                // v * w may overflow int16 for this net: take the exact portable form.
                return super::scalar::Scalar::chess768_output(us, them, weights, qa, screlu, screlu_in_i16);
            }
            let (zero, top) = (i16x8_splat(0), i16x8_splat(qa));
            // Two sums (even and odd registers): independent chains, wrapping int32. A pair of
            // products of a v in 0..=qa and an int16 stays within int32, as `madd`'s on x86.
            let mut sum = [i32x4_splat(0); 2];
            for (side, w) in [us, them].into_iter().zip(weights) {
                let (s, w) = (side.as_ptr(), w.as_ptr());
                for k in (0..N).step_by(16) {
                    for h in 0..2 {
                        let v = i16x8_min(i16x8_max(load(s.add(k + 8 * h)), zero), top);
                        let w = load(w.add(k + 8 * h));
                        // SCReLU: v * (v * w), with v * w exact in int16 (the caller proved it).
                        let rhs = if screlu { i16x8_mul(v, w) } else { w };
                        sum[h] = i32x4_add(sum[h], i32x4_dot_i16x8(v, rhs));
                    }
                }
            }
            hsum(i32x4_add(sum[0], sum[1]))
        }
    }
}

/// The relaxed-SIMD kernels (see the module's documentation): SIMD128's, with the int8 dot
/// products by `i32x4_relaxed_dot_i8x16_i7x16_add`, one instruction per four outputs and chunk.
#[cfg(target_feature = "relaxed-simd")]
pub(crate) struct RelaxedSimd;

/// `acc + w · x` by the relaxed dot: per lane, the four int8 weights of `w` times the four
/// activation bytes of `x`, whose values must be in `0..=127` (then it is exact, see the module).
#[cfg(target_feature = "relaxed-simd")]
#[inline(always)]
fn dot7(w: v128, x: v128, acc: v128) -> v128 {
    i32x4_relaxed_dot_i8x16_i7x16_add(w, x, acc)
}

/// Whether this engine's relaxed dot gives the exact sums for 7-bit activations, on values
/// that reach the edges (weights -128 and 127, activations 0 and 127, an accumulator that
/// wraps), accumulated over a few rounds as the kernels do: the engine is the spec's only
/// within its bounds, and an engine may compile it wrong (Node 20's baseline compiler, Liftoff,
/// returned wrong sums: 8 of the 9 int8 affine kernel property tests failed under it). The probe runs it once, in the tier the
/// engine first compiles to; where it fails, the build's relaxed-SIMD path is not available (a
/// defence against such an engine, not a proof for every tier and register allocation: the
/// tests run under Node with `--no-liftoff`).
#[cfg(target_feature = "relaxed-simd")]
#[inline(never)]
pub(crate) fn relaxed_dot_is_exact() -> bool {
    use std::hint::black_box;
    let w: [i8; 16] = black_box([-128, 127, -1, 0, 1, -128, 64, -77, 127, 127, -128, -128, 5, -6, 7, -8]);
    let x: [u8; 16] = black_box([127, 127, 1, 0, 127, 127, 3, 100, 0, 127, 127, 126, 9, 10, 0, 127]);
    let start: [i32; 4] = black_box([0, -1, i32::MAX - 20000, i32::MIN + 5]);
    let rounds = black_box(3);
    let (wv, xv) = (
        i8x16(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10], w[11], w[12], w[13], w[14], w[15]),
        u8x16(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9], x[10], x[11], x[12], x[13], x[14], x[15]),
    );
    let mut acc = i32x4(start[0], start[1], start[2], start[3]);
    for _ in 0..rounds {
        acc = black_box(dot7(wv, xv, acc));
    }
    let got = [
        i32x4_extract_lane::<0>(acc),
        i32x4_extract_lane::<1>(acc),
        i32x4_extract_lane::<2>(acc),
        i32x4_extract_lane::<3>(acc),
    ];
    let want: [i32; 4] = std::array::from_fn(|l| {
        let dot: i32 = (4 * l..4 * l + 4).map(|j| i32::from(w[j]) * i32::from(x[j])).sum();
        start[l].wrapping_add(dot.wrapping_mul(rounds))
    });
    got == want
}

/// The sums of `out = biases + weights · input` over `chunks` (chunk indices below CHUNKS), in
/// OUT / 4 registers of four outputs (at most 8, with V8's 16 registers on x86-64 to spare).
///
/// # Safety
/// Every index `chunks` yields is below CHUNKS, and the build has relaxed SIMD.
#[cfg(target_feature = "relaxed-simd")]
#[inline(always)]
unsafe fn affine_relaxed<const CHUNKS: usize, const OUT: usize>(
    input: &[[u8; 4]; CHUNKS],
    weights: &[[[i8; 4]; OUT]; CHUNKS],
    biases: &[i32; OUT],
    out: &mut [i32; OUT],
    chunks: impl Iterator<Item = usize>,
) {
    const { assert!(OUT.is_multiple_of(4) && OUT <= 32) };
    let (x, w) = (input.as_ptr() as *const i32, weights.as_ptr() as *const v128);
    let (b, o) = (biases.as_ptr() as *const v128, out.as_mut_ptr() as *mut v128);
    let mut acc = [i32x4_splat(0); 8];
    for (r, a) in acc.iter_mut().enumerate().take(OUT / 4) {
        // SAFETY: `biases` holds OUT int32s, 4 per register r < OUT / 4; v128.load is unaligned.
        *a = unsafe { v128_load(b.add(r)) };
    }
    for i in chunks {
        // SAFETY: i < CHUNKS (the caller's contract): chunk i's 4 bytes are inside `input`.
        let chunk = i32x4_splat(unsafe { x.add(i).read_unaligned() });
        for (r, a) in acc.iter_mut().enumerate().take(OUT / 4) {
            // SAFETY: i < CHUNKS and r < OUT / 4: row i's register r (16 bytes, four outputs'
            // 4 weights) is inside `weights`.
            *a = dot7(unsafe { v128_load(w.add(i * OUT / 4 + r)) }, chunk, *a);
        }
    }
    for (r, a) in acc.iter().enumerate().take(OUT / 4) {
        // SAFETY: `out` holds OUT int32s, 4 per register r < OUT / 4.
        unsafe { v128_store(o.add(r), *a) };
    }
}

#[cfg(target_feature = "relaxed-simd")]
impl super::sealed::Sealed for RelaxedSimd {}

// SAFETY: the int8 affine kernels below only touch memory inside their array arguments (the
// const asserts pin the shapes) and use SIMD128 and relaxed SIMD, which the build has; the
// others are SIMD128's, whose requirement the build meets too.
#[cfg(target_feature = "relaxed-simd")]
unsafe impl Kernels for RelaxedSimd {
    const ROWS: super::rows::RowKernels = super::rows::SCALAR;
    const ISA: super::Isa = super::Isa::RelaxedSimd;

    #[inline(always)]
    unsafe fn ft_pairwise_both<
        'o,
        const L1: usize,
        const HALF: usize,
        const CHUNKS: usize,
        const MAX: i16,
        const SHIFT: u32,
        const ROUND: bool,
    >(
        us: &[i16; L1],
        them: &[i16; L1],
        out: &'o mut MaybeUninit<[[u8; HALF]; 2]>,
        nnz: &'o mut MaybeUninit<[u16; CHUNKS]>,
    ) -> (&'o [[u8; HALF]; 2], &'o [u16]) {
        // SAFETY: SIMD128's kernel on the same arguments; the build has SIMD128.
        unsafe { Simd128::ft_pairwise_both::<L1, HALF, CHUNKS, MAX, SHIFT, ROUND>(us, them, out, nnz) }
    }

    #[inline(always)]
    unsafe fn sfnn_fc0_act(fc0: &[i32; 16]) -> [u8; 32] {
        // SAFETY: SIMD128's kernel on the same argument; the build has SIMD128.
        unsafe { Simd128::sfnn_fc0_act(fc0) }
    }

    #[inline(always)]
    unsafe fn sfnn_fc1_act(fc1: &[i32; 32]) -> [u8; 32] {
        // SAFETY: SIMD128's kernel on the same argument; the build has SIMD128.
        unsafe { Simd128::sfnn_fc1_act(fc1) }
    }

    #[inline(always)]
    unsafe fn ft_clamp<const L1: usize>(acc: &[i16; L1], out: &mut [u8; L1]) {
        // SAFETY: SIMD128's kernel on the same arguments; the build has SIMD128.
        unsafe { Simd128::ft_clamp(acc, out) }
    }

    #[inline(always)]
    unsafe fn affine_sparse<const CHUNKS: usize, const OUT: usize>(
        input: &[[u8; 4]; CHUNKS],
        weights: &[[[i8; 4]; OUT]; CHUNKS],
        biases: &[i32; OUT],
        out: &mut [i32; OUT],
    ) {
        const { assert!(CHUNKS.is_multiple_of(8) && CHUNKS <= 65536) };
        let mut nnz = MaybeUninit::<[u16; CHUNKS]>::uninit();
        let mut list = NonZero::new(&mut nnz);
        let chunks = input.as_ptr() as *const i32;
        for g in 0..CHUNKS / 8 {
            // SAFETY: g < CHUNKS / 8: chunks 8g..8g + 8 (32 bytes) are inside `input`, and the
            // list takes CHUNKS / 8 groups, as `push_group` requires.
            unsafe { list.push_group(load(chunks.add(8 * g)), load(chunks.add(8 * g + 4))) };
        }
        // SAFETY: the list holds indices below CHUNKS; the build has relaxed SIMD.
        unsafe { Self::affine_sparse_listed(input, weights, biases, out, list.indices()) }
    }

    #[inline(always)]
    unsafe fn affine_sparse_listed<const CHUNKS: usize, const OUT: usize>(
        input: &[[u8; 4]; CHUNKS],
        weights: &[[[i8; 4]; OUT]; CHUNKS],
        biases: &[i32; OUT],
        out: &mut [i32; OUT],
        nnz: &[u16],
    ) {
        // SAFETY: every index in `nnz` is below CHUNKS (the trait's contract); the build has
        // relaxed SIMD.
        unsafe { affine_relaxed(input, weights, biases, out, nnz.iter().map(|&i| usize::from(i))) }
    }

    #[inline(always)]
    unsafe fn affine_sparse_listed_pairs<const CHUNKS: usize, const OUT: usize>(
        input: &[[u8; 4]; CHUNKS],
        weights: &[[[i8; 4]; OUT]; CHUNKS],
        biases: &[i32; OUT],
        out: &mut [i32; OUT],
        nnz: &[u16],
    ) {
        // SAFETY: SIMD128's kernel (its int16 lanes wrap as Integral's, which the relaxed dot
        // can't give) on the same arguments; the build has SIMD128.
        unsafe { Simd128::affine_sparse_listed_pairs(input, weights, biases, out, nnz) }
    }

    #[inline(always)]
    unsafe fn affine_dense<const CHUNKS: usize, const OUT: usize>(
        input: &[[u8; 4]; CHUNKS],
        weights: &[[[i8; 4]; OUT]; CHUNKS],
        biases: &[i32; OUT],
        out: &mut [i32; OUT],
    ) {
        // SAFETY: every index 0..CHUNKS is below CHUNKS; the build has relaxed SIMD.
        unsafe { affine_relaxed(input, weights, biases, out, 0..CHUNKS) }
    }

    #[inline(always)]
    unsafe fn affine_one<const IN: usize>(input: &[u8; IN], weights: &[i8; IN], bias: i32) -> i32 {
        const { assert!(IN.is_multiple_of(16)) };
        let (x, w) = (input.as_ptr(), weights.as_ptr());
        // Two sums: independent chains.
        let mut acc = [i32x4_splat(0); 2];
        for k in (0..IN).step_by(16) {
            // SAFETY: k + 16 <= IN: 16 bytes of each array at k.
            let (xs, ws) = unsafe { (load(x.add(k)), load(w.add(k))) };
            let h = (k / 16) % 2;
            acc[h] = dot7(ws, xs, acc[h]);
        }
        bias.wrapping_add(hsum(i32x4_add(acc[0], acc[1])))
    }

    #[inline(always)]
    unsafe fn chess768_output<const N: usize>(
        us: &[i16; N],
        them: &[i16; N],
        weights: &[[i16; N]; 2],
        qa: i16,
        screlu: bool,
        screlu_in_i16: bool,
    ) -> i32 {
        // SAFETY: SIMD128's kernel on the same arguments; the build has SIMD128.
        unsafe { Simd128::chess768_output(us, them, weights, qa, screlu, screlu_in_i16) }
    }
}
