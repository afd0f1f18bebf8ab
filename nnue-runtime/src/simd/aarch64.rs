//! The aarch64 kernels, written once over [`Dot4`]: plain NEON forms each output's four int8
//! products with `vmull_s8` + `vpadalq_s16`; dotprod uses `sdot`. Both keep the x86 paths'
//! weight and activation layout, so one compiled net serves every path: the byte shuffles of
//! `pack_slot` and the `sfnn_fc*_act_source` orders become the order in which 64-bit halves
//! are combined.

// Register loops index by lane group `r`, as the pointer arithmetic beside them does.
#![allow(clippy::needless_range_loop)]
use std::arch::aarch64::*;
use std::arch::asm;
use std::marker::PhantomData;
use std::mem::MaybeUninit;

use super::portable::NNZ_LUT;
use super::Kernels;

/// `acc + the sum of four i8 * i8 products per int32 lane` (lane `o` of `acc` takes bytes
/// `4o..4o + 4` of both operands). The u8 activations are at most 127, so they are i8 too.
///
/// # Safety
/// Callers must be compiled with (or hold a `KernelPath` proving) the implementation's features.
pub(crate) unsafe trait Dot4 {
    /// The path.
    const ISA: super::Isa;
    unsafe fn dot4(acc: int32x4_t, x: int8x16_t, w: int8x16_t) -> int32x4_t;
}

pub(crate) struct Mull;
pub(crate) struct Sdot;

impl<D: Dot4> super::sealed::Sealed for Arm<D> {}

// SAFETY: NEON instructions only (baseline on aarch64; entry points enable "neon" as well).
unsafe impl Dot4 for Mull {
    const ISA: super::Isa = super::Isa::Neon;
    #[inline(always)]
    unsafe fn dot4(acc: int32x4_t, x: int8x16_t, w: int8x16_t) -> int32x4_t {
        // SAFETY: register-only NEON operations; the caller runs under NEON (the trait's contract).
        unsafe {
            // Products fit int16 (|127 * -128| < 2^15), and so do sums of two (32512).
            let lo = vmull_s8(vget_low_s8(x), vget_low_s8(w));
            let hi = vmull_high_s8(x, w);
            vpadalq_s16(acc, vpaddq_s16(lo, hi))
        }
    }
}

// SAFETY: `sdot` only; callers run under `target_feature(enable = "neon,dotprod")`.
unsafe impl Dot4 for Sdot {
    const ISA: super::Isa = super::Isa::Dotprod;
    #[inline(always)]
    unsafe fn dot4(acc: int32x4_t, x: int8x16_t, w: int8x16_t) -> int32x4_t {
        // SAFETY: the caller holds a dotprod `KernelPath` (the trait's contract).
        unsafe { sdot(acc, x, w) }
    }
}

/// `sdot acc.4s, x.16b, w.16b`: `vdotq_s32` is not stable yet, the instruction is.
#[inline]
#[target_feature(enable = "neon,dotprod")]
unsafe fn sdot(mut acc: int32x4_t, x: int8x16_t, w: int8x16_t) -> int32x4_t {
    // SAFETY: `sdot` reads and writes registers only; this function's features include dotprod.
    unsafe {
        asm!("sdot {acc:v}.4s, {x:v}.16b, {w:v}.16b", acc = inout(vreg) acc, x = in(vreg) x, w = in(vreg) w,
            options(pure, nomem, nostack, preserves_flags));
    }
    acc
}

/// The aarch64 kernels over one [`Dot4`].
pub(crate) struct Arm<D>(PhantomData<D>);
pub(crate) type Neon = Arm<Mull>;
pub(crate) type Dotprod = Arm<Sdot>;

/// Appends the indices of non-zero int32 lanes, 8 lanes (two registers) at a time, to a list
/// of N slots that need not be initialised: slots below `count` are. The lanes are 4-byte
/// chunks of activations, each byte at most 127.
struct NonZero<'a, const N: usize> {
    list: &'a mut MaybeUninit<[u16; N]>,
    count: usize,
    /// Index of the next group's first lane, in all 8 lanes.
    base: uint16x8_t,
}

impl<'a, const N: usize> NonZero<'a, N> {
    #[inline(always)]
    unsafe fn new(list: &'a mut MaybeUninit<[u16; N]>) -> Self {
        // SAFETY: a register-only NEON operation (baseline on aarch64).
        unsafe { NonZero { list, count: 0, base: vdupq_n_u16(0) } }
    }

    /// Each group writes 8 slots at `count`, and `count <= 8 * groups so far`, so as long as
    /// callers push at most N / 8 groups every write stays inside the list.
    #[inline(always)]
    unsafe fn push_group(&mut self, lo: int32x4_t, hi: int32x4_t) {
        // SAFETY: register operations under the caller's NEON; the store stays within the list because each group adds at most 8 entries and the caller passes at most N / 8 groups.
        unsafe {
            debug_assert!(self.count + 8 <= N);
            // Every byte is at most 127, so a chunk is non-zero exactly when it is > 0 as an int32.
            const BITS: [u32; 8] = [1, 2, 4, 8, 16, 32, 64, 128];
            let bits_lo = vandq_u32(vcgtzq_s32(lo), vld1q_u32(BITS.as_ptr()));
            let bits_hi = vandq_u32(vcgtzq_s32(hi), vld1q_u32(BITS.as_ptr().add(4)));
            let mask = vaddvq_u32(vorrq_u32(bits_lo, bits_hi)) as usize;
            let lanes = vld1q_u16(NNZ_LUT[mask].as_ptr());
            let slot = (self.list.as_mut_ptr() as *mut u16).add(self.count);
            vst1q_u16(slot, vaddq_u16(lanes, self.base));
            self.count += mask.count_ones() as usize;
            self.base = vaddq_u16(self.base, vdupq_n_u16(8));
        }
    }

    /// The listed indices.
    #[inline(always)]
    fn indices(self) -> &'a [u16] {
        // SAFETY: push_group initialised every slot below `count` (<= N).
        unsafe { std::slice::from_raw_parts(self.list.as_ptr() as *const u16, self.count) }
    }
}

/// `acc += chunk i of the input times its `OUT` weight columns` (four outputs a register).
#[inline(always)]
unsafe fn accumulate<D: Dot4, const OUT: usize>(acc: &mut [int32x4_t; 8], x: *const i32, w: *const i8, i: u16) {
    // SAFETY: the caller holds a `KernelPath` for this instantiation's target features (the `Kernels` contract); every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
    unsafe {
        let i = i as usize;
        let chunk = vreinterpretq_s8_s32(vdupq_n_s32(x.add(i).read_unaligned()));
        for r in 0..OUT / 4 {
            acc[r] = D::dot4(acc[r], chunk, vld1q_s8(w.add((i * OUT / 4 + r) * 16)));
        }
    }
}

/// x86's `maddubs` on 16 bytes (4 outputs × 4): unsigned `x` times signed `w`, adjacent
/// products summed exactly and saturated to int16, 8 lanes (output 0 bytes 0-1, bytes 2-3,
/// output 1 …). A product fits int16 (255 · 128), so one `mul` in int16, then a widening
/// pairwise add and a saturating narrow.
#[inline(always)]
unsafe fn maddubs_lanes(x: uint8x16_t, w: int8x16_t) -> int16x8_t {
    // SAFETY: register-only NEON operations under the caller's NEON.
    unsafe {
        let lo = vmulq_s16(vreinterpretq_s16_u16(vmovl_u8(vget_low_u8(x))), vmovl_s8(vget_low_s8(w)));
        let hi = vmulq_s16(vreinterpretq_s16_u16(vmovl_u8(vget_high_u8(x))), vmovl_s8(vget_high_s8(w)));
        vcombine_s16(vqmovn_s32(vpaddlq_s16(lo)), vqmovn_s32(vpaddlq_s16(hi)))
    }
}

/// Bytes of `clamp(x, 0, 127)` for 16 int16 lanes given as two halves (saturating narrow,
/// then the lower clamp in int8).
#[inline(always)]
unsafe fn clamp_bytes(lo: int16x8_t, hi: int16x8_t) -> int8x16_t {
    // SAFETY: register-only NEON operations under the caller's NEON.
    unsafe { vmaxq_s8(vcombine_s8(vqmovn_s16(lo), vqmovn_s16(hi)), vdupq_n_s8(0)) }
}

// SAFETY: every function below only touches memory inside its array arguments (the const
// asserts pin the shapes the pointer arithmetic relies on) and uses NEON plus `D`'s dot.
unsafe impl<D: Dot4> Kernels for Arm<D> {
    const ROWS: super::rows::RowKernels = super::rows::NEON;
    const ISA: super::Isa = D::ISA;

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
        // SAFETY: the caller holds a `KernelPath` for this instantiation's target features (the `Kernels` contract); every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            const { assert!(HALF.is_multiple_of(32) && 2 * HALF == L1 && 4 * CHUNKS == L1) };
            let (zero, top) = (vdupq_n_s16(0), vdupq_n_s16(MAX));
            let mut list = NonZero::new(nnz);
            let out_base = out.as_mut_ptr() as *mut u8;
            for (p, acc) in [us, them].into_iter().enumerate() {
                let (a, o) = (acc.as_ptr(), out_base.add(p * HALF));
                // a * b / 512 as the doubling high half of (a << 6) * b: exact, never
                // saturating (a << 6 <= 16320). No lower clamp on b: a negative product
                // narrows to 0, as a clamped b would give.
                // `ROUND`: the rounding doubling high half (`sqrdmulh`) of (a << (15 - SHIFT)) * b
                // is (a * b + 2^(SHIFT - 1)) >> SHIFT, as cinder's `mulhrs`.
                let product = |j: usize| {
                    let x = pre_qdmulh::<SHIFT>(vmaxq_s16(vminq_s16(vld1q_s16(a.add(j)), top), zero));
                    let y = vminq_s16(vld1q_s16(a.add(HALF + j)), top);
                    if ROUND {
                        vqrdmulhq_s16(x, y)
                    } else {
                        vqdmulhq_s16(x, y)
                    }
                };
                for k in 0..HALF / 32 {
                    // pack_slot order: blocks 0 and 2 of 8 in the first 16 bytes, 1 and 3 in the next.
                    let j = 32 * k;
                    let first = vcombine_u8(vqmovun_s16(product(j)), vqmovun_s16(product(j + 16)));
                    let second = vcombine_u8(vqmovun_s16(product(j + 8)), vqmovun_s16(product(j + 24)));
                    vst1q_u8(o.add(j), first);
                    vst1q_u8(o.add(j + 16), second);
                    // The 8 chunks just written, listed while still in registers.
                    list.push_group(vreinterpretq_s32_u8(first), vreinterpretq_s32_u8(second));
                }
            }
            // SAFETY: the loops stored all 2 * HALF bytes of `out`.
            (out.assume_init_ref(), list.indices())
        }
    }

    #[inline(always)]
    unsafe fn sfnn_fc0_act(fc0: &[i32; 16]) -> [u8; 32] {
        // SAFETY: the caller holds a `KernelPath` for this instantiation's target features (the `Kernels` contract); every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            let x = fc0.as_ptr();
            // Saturated to int16: any value it changes squares (or shifts) past 127 anyway.
            // The byte order of sfnn_fc0_act_source: outputs 0..4 and 8..12, then 4..8 and 12..16.
            let a = vcombine_s16(vqmovn_s32(vld1q_s32(x)), vqmovn_s32(vld1q_s32(x.add(8))));
            let b = vcombine_s16(vqmovn_s32(vld1q_s32(x.add(4))), vqmovn_s32(vld1q_s32(x.add(12))));
            // x * x >> 19 = (2 x * x >> 16) >> 4; only x = -32768 saturates, past 127 either way.
            let sqr = |w: int16x8_t| vshrq_n_s16::<4>(vqdmulhq_s16(w, w));
            let bytes = [clamp_bytes(sqr(a), vshrq_n_s16::<6>(a)), clamp_bytes(sqr(b), vshrq_n_s16::<6>(b))];
            std::mem::transmute::<[int8x16_t; 2], [u8; 32]>(bytes)
        }
    }

    #[inline(always)]
    unsafe fn sfnn_fc1_act(fc1: &[i32; 32]) -> [u8; 32] {
        // SAFETY: the caller holds a `KernelPath` for this instantiation's target features (the `Kernels` contract); every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            let x = fc1.as_ptr();
            // ClippedReLU in int16 (saturating narrow of x >> 6), then in int8.
            let w = |k: usize| vqshrn_n_s32::<6>(vld1q_s32(x.add(4 * k)));
            // The byte order of sfnn_fc1_act_source: quarters 0, 2, 4, 6, then 1, 3, 5, 7.
            let first = clamp_bytes(vcombine_s16(w(0), w(2)), vcombine_s16(w(4), w(6)));
            let second = clamp_bytes(vcombine_s16(w(1), w(3)), vcombine_s16(w(5), w(7)));
            std::mem::transmute::<[int8x16_t; 2], [u8; 32]>([first, second])
        }
    }

    #[inline(always)]
    unsafe fn ft_clamp<const L1: usize>(acc: &[i16; L1], out: &mut [u8; L1]) {
        // SAFETY: the caller holds a `KernelPath` for this instantiation's target features (the `Kernels` contract); every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            const { assert!(L1.is_multiple_of(32)) };
            let (a, o) = (acc.as_ptr(), out.as_mut_ptr() as *mut i8);
            for j in (0..L1).step_by(32) {
                // pack_slot order, as in ft_pairwise_both.
                let (r0, r1, r2, r3) =
                    (vld1q_s16(a.add(j)), vld1q_s16(a.add(j + 8)), vld1q_s16(a.add(j + 16)), vld1q_s16(a.add(j + 24)));
                vst1q_s8(o.add(j), clamp_bytes(r0, r2));
                vst1q_s8(o.add(j + 16), clamp_bytes(r1, r3));
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
        // SAFETY: the caller holds a `KernelPath` for this instantiation's target features (the `Kernels` contract); every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            const { assert!(CHUNKS.is_multiple_of(8) && CHUNKS <= 65536 && OUT.is_multiple_of(4) && OUT <= 32) };
            let mut nnz = MaybeUninit::<[u16; CHUNKS]>::uninit();
            let mut list = NonZero::new(&mut nnz);
            let chunks = input.as_ptr() as *const i32;
            for g in 0..CHUNKS / 8 {
                list.push_group(vld1q_s32(chunks.add(8 * g)), vld1q_s32(chunks.add(8 * g + 4)));
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
        // SAFETY: the caller holds a `KernelPath` for this instantiation's target features (the `Kernels` contract); every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            const { assert!(OUT.is_multiple_of(4) && OUT <= 32) };
            // Two accumulator sets, one per chunk in flight, so that consecutive chunks don't
            // chain (integer sums: the order doesn't matter); the first starts from the biases.
            let mut acc = [[vdupq_n_s32(0); 8]; 2];
            let b = biases.as_ptr();
            for r in 0..OUT / 4 {
                acc[0][r] = vld1q_s32(b.add(4 * r));
            }
            let (w, x) = (weights.as_ptr() as *const i8, input.as_ptr() as *const i32);
            let mut pairs = nnz.chunks_exact(2);
            for g in &mut pairs {
                accumulate::<D, OUT>(&mut acc[0], x, w, g[0]);
                accumulate::<D, OUT>(&mut acc[1], x, w, g[1]);
            }
            for &i in pairs.remainder() {
                accumulate::<D, OUT>(&mut acc[0], x, w, i);
            }
            let o = out.as_mut_ptr();
            for r in 0..OUT / 4 {
                vst1q_s32(o.add(4 * r), vaddq_s32(acc[0][r], acc[1][r]));
            }
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
        // SAFETY: the caller holds a `KernelPath` for this instantiation's target features (the `Kernels` contract); every index in `nnz` is below CHUNKS (the contract), so each chunk's OUT / 4 weight registers and its 4 input bytes lie inside the arrays.
        unsafe {
            const { assert!(OUT.is_multiple_of(4) && OUT <= 32) };
            let mut acc = [vdupq_n_s32(0); 8];
            let b = biases.as_ptr();
            for r in 0..OUT / 4 {
                acc[r] = vld1q_s32(b.add(4 * r));
            }
            let (w, x) = (weights.as_ptr() as *const i8, input.as_ptr() as *const i32);
            let chunk = |i: u16| vreinterpretq_u8_s32(vdupq_n_s32(x.add(i as usize).read_unaligned()));
            let row = |i: u16, r: usize| vld1q_s8(w.add((i as usize * OUT / 4 + r) * 16));
            let mut pairs = nnz.chunks_exact(2);
            for g in &mut pairs {
                let (xi, xj) = (chunk(g[0]), chunk(g[1]));
                for (r, a) in acc.iter_mut().enumerate().take(OUT / 4) {
                    // The two chunks' lanes meet in int16 (wrapping), then widen, as Integral's
                    // `maddubs` + `vpaddw` + `madd`.
                    let lanes = vaddq_s16(maddubs_lanes(xi, row(g[0], r)), maddubs_lanes(xj, row(g[1], r)));
                    *a = vaddq_s32(*a, vpaddlq_s16(lanes));
                }
            }
            for &i in pairs.remainder() {
                let xi = chunk(i);
                for (r, a) in acc.iter_mut().enumerate().take(OUT / 4) {
                    *a = vaddq_s32(*a, vpaddlq_s16(maddubs_lanes(xi, row(i, r))));
                }
            }
            let o = out.as_mut_ptr();
            for (r, a) in acc.iter().enumerate().take(OUT / 4) {
                vst1q_s32(o.add(4 * r), *a);
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
        // SAFETY: the caller holds a `KernelPath` for this instantiation's target features (the `Kernels` contract); every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            const { assert!(OUT.is_multiple_of(4) && OUT <= 32 && CHUNKS.is_multiple_of(2)) };
            // Two accumulator sets (even and odd chunks) halve the dependency chains.
            let mut acc = [[vdupq_n_s32(0); 8]; 2];
            let (w, x) = (weights.as_ptr() as *const i8, input.as_ptr() as *const i32);
            for i in (0..CHUNKS).step_by(2) {
                accumulate::<D, OUT>(&mut acc[0], x, w, i as u16);
                accumulate::<D, OUT>(&mut acc[1], x, w, i as u16 + 1);
            }
            let (b, o) = (biases.as_ptr(), out.as_mut_ptr());
            for r in 0..OUT / 4 {
                vst1q_s32(o.add(4 * r), vaddq_s32(vaddq_s32(acc[0][r], acc[1][r]), vld1q_s32(b.add(4 * r))));
            }
        }
    }

    #[inline(always)]
    unsafe fn affine_one<const IN: usize>(input: &[u8; IN], weights: &[i8; IN], bias: i32) -> i32 {
        // SAFETY: the caller holds a `KernelPath` for this instantiation's target features (the `Kernels` contract); every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            const { assert!(IN.is_multiple_of(16)) };
            let (x, w) = (input.as_ptr() as *const i8, weights.as_ptr());
            let mut acc = vdupq_n_s32(0);
            for k in (0..IN).step_by(16) {
                acc = D::dot4(acc, vld1q_s8(x.add(k)), vld1q_s8(w.add(k)));
            }
            bias.wrapping_add(vaddvq_s32(acc))
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
        // SAFETY: the caller holds a `KernelPath` for this instantiation's target features (the `Kernels` contract); every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            const { assert!(N.is_multiple_of(8)) };
            if screlu && !screlu_in_i16 {
                // v * w may overflow int16 for this net: take the exact portable form.
                return super::scalar::Scalar::chess768_output(us, them, weights, qa, screlu, screlu_in_i16);
            }
            let (zero, top) = (vdupq_n_s16(0), vdupq_n_s16(qa));
            // Two sums for the low and high halves: independent chains (wrapping int32).
            let mut sum = [vdupq_n_s32(0); 2];
            for (side, w) in [us, them].into_iter().zip(weights) {
                let (s, w) = (side.as_ptr(), w.as_ptr());
                for k in (0..N).step_by(8) {
                    let v = vminq_s16(vmaxq_s16(vld1q_s16(s.add(k)), zero), top);
                    let w = vld1q_s16(w.add(k));
                    // SCReLU: v * (v * w), with v * w exact in int16 (the caller proved it).
                    let rhs = if screlu { vmulq_s16(v, w) } else { w };
                    sum[0] = vmlal_s16(sum[0], vget_low_s16(v), vget_low_s16(rhs));
                    sum[1] = vmlal_high_s16(sum[1], v, rhs);
                }
            }
            vaddvq_s32(vaddq_s32(sum[0], sum[1]))
        }
    }
}

/// `x << (15 - SHIFT)`, so that the doubling high half of it times `b` is `x * b >> SHIFT`
/// (exact while the shifted `x` fits int16: `x <= 255`, `SHIFT >= 9`).
#[inline(always)]
unsafe fn pre_qdmulh<const SHIFT: u32>(x: int16x8_t) -> int16x8_t {
    const { assert!(7 <= SHIFT && SHIFT <= 15, "the pairwise shift must be 7 to 15") };
    // SAFETY: NEON shifts of a register; the caller holds NEON.
    unsafe {
        match SHIFT {
            7 => vshlq_n_s16::<8>(x),
            8 => vshlq_n_s16::<7>(x),
            9 => vshlq_n_s16::<6>(x),
            10 => vshlq_n_s16::<5>(x),
            11 => vshlq_n_s16::<4>(x),
            12 => vshlq_n_s16::<3>(x),
            13 => vshlq_n_s16::<2>(x),
            14 => vshlq_n_s16::<1>(x),
            15 => x,
            _ => unreachable!("the const assert above"),
        }
    }
}
