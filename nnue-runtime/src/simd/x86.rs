//! The x86-64 kernels, written once over [`Dot`]: AVX2 emulates `vpdpbusd` with
//! `maddubs` + `madd`; AVX-VNNI and AVX512-VNNI (VL) use it on ymm. Everything else is shared,
//! so the AVX-VNNI instantiation differs from the tested AVX512-VNNI one only in its encoding.

// Register loops index by lane group `r`, as the pointer arithmetic beside them does.
#![allow(clippy::needless_range_loop)]
use std::arch::x86_64::*;
use std::marker::PhantomData;
use std::mem::MaybeUninit;

use super::portable::NNZ_LUT;
use super::Kernels;

/// `acc + sum of four u8 * i8 products per int32 lane`.
///
/// # Safety
/// Callers must be compiled with (or hold a `KernelPath` proving) the implementation's features.
/// The AVX2 form saturates pairs at int16: exact while the u8 operand is at most 127, which
/// every input here is (activations clamp to 127; the transformer output tops at 126).
pub(crate) unsafe trait Dot {
    /// Whether the path has 512-bit `vpdpbusd` (AVX512-VNNI with AVX512F): the 32-output
    /// sparse layer then takes a chunk's weights in two zmm registers ([`affine_sparse32_zmm`]).
    const ZMM: bool = false;
    /// The row sums compiled for the path's register width.
    const ROWS: super::rows::RowKernels = super::rows::AVX2;
    /// The path.
    const ISA: super::Isa;

    unsafe fn dpbusd(acc: __m256i, u8s: __m256i, i8s: __m256i) -> __m256i;
}

pub(crate) struct Maddubs;
pub(crate) struct VnniVex;
pub(crate) struct VnniEvex;

// SAFETY: AVX2 instructions only; callers run under `target_feature(enable = "avx2")`.
unsafe impl Dot for Maddubs {
    const ISA: super::Isa = super::Isa::Avx2;

    #[inline(always)]
    unsafe fn dpbusd(acc: __m256i, u8s: __m256i, i8s: __m256i) -> __m256i {
        // SAFETY: the caller runs under this `Dot`'s target features (the trait's contract).
        unsafe {
            let pairs = _mm256_maddubs_epi16(u8s, i8s);
            _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, _mm256_set1_epi16(1)))
        }
    }
}

// SAFETY: AVX-VNNI instruction; callers run under `target_feature(enable = "avx2,avxvnni")`.
unsafe impl Dot for VnniVex {
    const ISA: super::Isa = super::Isa::AvxVnni;
    #[inline(always)]
    unsafe fn dpbusd(acc: __m256i, u8s: __m256i, i8s: __m256i) -> __m256i {
        // SAFETY: the caller runs under this `Dot`'s target features (the trait's contract).
        unsafe { _mm256_dpbusd_avx_epi32(acc, u8s, i8s) }
    }
}

// SAFETY: AVX512-VNNI on ymm; callers run under
// `target_feature(enable = "avx512f,avx512bw,avx512vnni,avx512vl")`.
unsafe impl Dot for VnniEvex {
    const ISA: super::Isa = super::Isa::Avx512Vnni;
    const ZMM: bool = true;
    const ROWS: super::rows::RowKernels = super::rows::AVX512;

    #[inline(always)]
    unsafe fn dpbusd(acc: __m256i, u8s: __m256i, i8s: __m256i) -> __m256i {
        // SAFETY: the caller runs under this `Dot`'s target features (the trait's contract).
        unsafe { _mm256_dpbusd_epi32(acc, u8s, i8s) }
    }
}

/// The x86 kernels over one [`Dot`].
pub(crate) struct X86<D>(PhantomData<D>);
pub(crate) type Avx2 = X86<Maddubs>;
pub(crate) type AvxVnni = X86<VnniVex>;
pub(crate) type Avx512Vnni = X86<VnniEvex>;

/// The single-layer output on the AVX512-VNNI path, 512 bits at a time: its accumulators were
/// just written by the 512-bit row kernels, and 256-bit loads of their upper halves don't get
/// the stores forwarded (in a ply, this pass took 2.7 times as long as on AVX2 with ymm loads).
/// `N` a multiple of 64.
///
/// # Safety
/// The CPU has AVX-512 F and BW.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn chess768_output_zmm<const N: usize>(
    us: &[i16; N],
    them: &[i16; N],
    weights: &[[i16; N]; 2],
    qa: i16,
    screlu: bool,
) -> i32 {
    // SAFETY: AVX-512 F/BW by the caller; every 64-byte load (32 lanes) is within an array of
    // N int16: the loop steps by `chains` chunks of 32 lanes, and N is a multiple of 64 lanes
    // (two chains) or of 128 (four).
    unsafe {
        let (zero, top) = (_mm512_setzero_si512(), _mm512_set1_epi16(qa));
        // Four sums where N allows: each `vpdpwssd` (madd + add fused) waits on its chain's
        // last; two chains took a 1024-wide output 27 ns, four 21 ns (AMD Zen 5, 2026-11-28).
        let mut sums = [_mm512_setzero_si512(); 4];
        let chains = if N.is_multiple_of(128) { 4 } else { 2 };
        for (side, w) in [us, them].into_iter().zip(weights) {
            let (s, w) = (side.as_ptr(), w.as_ptr());
            let term = |k: usize| {
                let v = _mm512_min_epi16(_mm512_max_epi16(_mm512_loadu_si512(s.add(32 * k) as *const _), zero), top);
                let w = _mm512_loadu_si512(w.add(32 * k) as *const _);
                // SCReLU: v * (v * w), with v * w exact in int16 (the caller proved it).
                let rhs = if screlu { _mm512_mullo_epi16(v, w) } else { w };
                _mm512_madd_epi16(v, rhs)
            };
            // A loop the compiler must keep: unrolled whole (the count is a constant), it
            // clamped every chunk first and spilled them to the stack, which took a 1024-wide
            // output twice the time of a loop (AMD Zen 5, 2026-11-28).
            for k in (0..core::hint::black_box(N / 32)).step_by(chains) {
                for c in 0..chains {
                    sums[c] = _mm512_add_epi32(sums[c], term(k + c));
                }
            }
        }
        // Wrapping int32 adds: the order doesn't change the sum.
        let [s0, s1, s2, s3] = sums;
        _mm512_reduce_add_epi32(_mm512_add_epi32(_mm512_add_epi32(s0, s1), _mm512_add_epi32(s2, s3)))
    }
}

/// The smallest transformer half (columns) the pairwise transform takes in zmm registers, and
/// the fewest input chunks the 16-output sparse layer does: measured on small nets, 512-bit
/// kernels slowed the whole forward pass (see `ft_pairwise_both`).
pub(crate) const ZMM_MIN_HALF: usize = 256;
/// See [`ZMM_MIN_HALF`].
pub(crate) const ZMM_MIN_CHUNKS: usize = 256;

#[inline(always)]
unsafe fn load(p: *const __m256i) -> __m256i {
    // SAFETY: `p` points to 32 readable bytes (every caller passes an offset inside an array it holds); AVX is enabled in every caller.
    unsafe { _mm256_loadu_si256(p) }
}

#[inline(always)]
unsafe fn hsum(v: __m256i) -> i32 {
    // SAFETY: register-only AVX2 operations; every caller is compiled with AVX2.
    unsafe {
        let s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    }
}

/// Appends the indices of non-zero int32 lanes, 8 lanes (one register) at a time, to a list
/// of N slots that need not be initialised: slots below `count` are. The lanes are 4-byte
/// chunks of activations, each byte at most 127.
struct NonZero<'a, const N: usize> {
    list: &'a mut MaybeUninit<[u16; N]>,
    count: usize,
    /// Index of the next group's first lane, in all 8 lanes.
    base: __m128i,
}

impl<'a, const N: usize> NonZero<'a, N> {
    #[inline(always)]
    unsafe fn new(list: &'a mut MaybeUninit<[u16; N]>) -> Self {
        // SAFETY: a register-only SSE2 operation (baseline on x86-64).
        unsafe { NonZero { list, count: 0, base: _mm_setzero_si128() } }
    }

    /// Each group writes 8 slots at `count`, and `count <= 8 * groups so far`, so as long as
    /// callers push at most N / 8 groups every write stays inside the list.
    #[inline(always)]
    unsafe fn push_group(&mut self, v: __m256i) {
        // SAFETY: register operations under the caller's AVX2; the stores stay within the list because each group adds at most 8 entries and the caller passes at most N / 8 groups.
        unsafe {
            debug_assert!(self.count + 8 <= N);
            // Every byte is at most 127, so a chunk is non-zero exactly when it is > 0 as an int32.
            let positive = _mm256_cmpgt_epi32(v, _mm256_setzero_si256());
            self.push_mask(_mm256_movemask_ps(_mm256_castsi256_ps(positive)) as usize);
        }
    }

    /// [`Self::push_group`] of a group whose non-zero lanes are the set bits of `mask` (8 bits).
    #[inline(always)]
    unsafe fn push_mask(&mut self, mask: usize) {
        // SAFETY: register operations (SSE2, baseline) and one 16-byte store inside the list, as push_group.
        unsafe {
            debug_assert!(self.count + 8 <= N && mask < 256);
            let lanes = _mm_loadu_si128(NNZ_LUT[mask].as_ptr() as *const __m128i);
            let slot = (self.list.as_mut_ptr() as *mut u16).add(self.count);
            _mm_storeu_si128(slot as *mut __m128i, _mm_add_epi16(lanes, self.base));
            self.count += mask.count_ones() as usize;
            self.base = _mm_add_epi16(self.base, _mm_set1_epi16(8));
        }
    }

    /// 16 lanes at once, the non-zero ones the set bits of `mask`, with `vpcompressw`.
    ///
    /// # Safety
    /// The CPU has AVX512-VBMI2 and VL (the caller's target features); as `push_mask`, twice.
    #[inline(always)]
    unsafe fn push_compressed(&mut self, mask: u16) {
        // SAFETY: register operations under the caller's AVX512-VBMI2/VL and SSE2, and one
        // 32-byte store inside the list: 16 chunks were scanned for these 16 slots.
        unsafe {
            debug_assert!(self.count + 16 <= N);
            let lanes = _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
            let indices = _mm256_add_epi16(lanes, _mm256_broadcastsi128_si256(self.base));
            let listed = _mm256_maskz_compress_epi16(mask, indices);
            let slot = (self.list.as_mut_ptr() as *mut u16).add(self.count);
            _mm256_storeu_si256(slot as *mut __m256i, listed);
            self.count += mask.count_ones() as usize;
            self.base = _mm_add_epi16(self.base, _mm_set1_epi16(16));
        }
    }

    /// The listed indices.
    #[inline(always)]
    fn indices(self) -> &'a [u16] {
        // SAFETY: push_group initialised every slot below `count` (<= N).
        unsafe { std::slice::from_raw_parts(self.list.as_ptr() as *const u16, self.count) }
    }
}

/// `acc += chunk i of the input times its `OUT` weight columns`.
///
/// # Safety
/// The CPU has `D`'s features; `x` points to at least `i + 1` input chunks of 4 bytes and `w`
/// to at least `(i + 1) * OUT / 8` weight registers (`i` comes from a run-time `nnz` list: the
/// caller checks it is a chunk of its arrays).
#[inline(always)]
unsafe fn accumulate<D: Dot, const OUT: usize>(acc: &mut [__m256i; 4], x: *const i32, w: *const __m256i, i: u16) {
    // SAFETY: this function's contract: `i` is below the caller's chunk count, so the read of
    // chunk `i` (4 bytes at `x + i`) and of its OUT / 8 weight registers (`w + i * OUT / 8 + r`,
    // r < OUT / 8 <= 4) stay inside the caller's arrays; `D`'s features are the CPU's.
    unsafe {
        let i = i as usize;
        let chunk = _mm256_set1_epi32(x.add(i).read_unaligned());
        for r in 0..OUT / 8 {
            acc[r] = D::dpbusd(acc[r], chunk, load(w.add(i * OUT / 8 + r)));
        }
    }
}

/// The sparse layer with 32 outputs (Stockfish 19's fc_0) on AVX512-VNNI: a chunk's 32x4
/// weights are two zmm registers, one `vpdpbusd` each (the `[chunk][output][4]` layout is the
/// same), in three independent accumulator pairs so that `vpdpbusd`'s latency doesn't chain
/// from one chunk to the next.
///
/// # Safety
/// The CPU has AVX512F and AVX512-VNNI; `x` holds the input chunks, `w` 32 weights of 4 bytes
/// per chunk, `biases` and `out` 32 values, and every index in `nnz` is a chunk.
#[target_feature(enable = "avx512f,avx512vnni")]
#[inline]
unsafe fn affine_sparse32_zmm(x: *const i32, w: *const i32, biases: *const i32, out: *mut i32, nnz: &[u16]) {
    // SAFETY: the caller's contract: every load below is inside the arrays it passed, and the CPU has the features this function enables.
    unsafe {
        let zero = _mm512_setzero_si512();
        let mut acc = [
            [_mm512_loadu_si512(biases as *const _), _mm512_loadu_si512(biases.add(16) as *const _)],
            [zero; 2],
            [zero; 2],
        ];
        // A macro, not a closure: closures don't inherit the function's target features.
        macro_rules! step {
            ($set:literal, $i:expr) => {{
                let i = $i as usize;
                let chunk = _mm512_set1_epi32(x.add(i).read_unaligned());
                let w = w.add(32 * i);
                acc[$set][0] = _mm512_dpbusd_epi32(acc[$set][0], chunk, _mm512_loadu_si512(w as *const _));
                acc[$set][1] = _mm512_dpbusd_epi32(acc[$set][1], chunk, _mm512_loadu_si512(w.add(16) as *const _));
            }};
        }
        let mut groups = nnz.chunks_exact(3);
        for g in &mut groups {
            step!(0, g[0]);
            step!(1, g[1]);
            step!(2, g[2]);
        }
        for &i in groups.remainder() {
            step!(0, i);
        }
        for r in 0..2 {
            let sum = _mm512_add_epi32(_mm512_add_epi32(acc[0][r], acc[1][r]), acc[2][r]);
            _mm512_storeu_si512(out.add(16 * r) as *mut _, sum);
        }
    }
}

/// [`Kernels::dense_i32`] in 512-bit registers (`OUT` a multiple of 16, at most 128): half the
/// 32-bit multiplies of the 256-bit form, as Stormphrax's AVX-512 build does.
///
/// # Safety
/// The CPU has AVX512F.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn dense_i32_zmm<const IN: usize, const OUT: usize>(
    x: &[i32; IN],
    w: &[[i32; OUT]; IN],
    b: &[i32; OUT],
) -> [i32; OUT] {
    // SAFETY: AVX512F by the caller; every 64-byte load and store is inside `b`, a row of `w`
    // or `out` (OUT a multiple of 16 int32).
    unsafe {
        const { assert!(OUT.is_multiple_of(16) && OUT <= 128) };
        let mut acc = [_mm512_setzero_si512(); 8];
        let bp = b.as_ptr();
        for (r, a) in acc.iter_mut().enumerate().take(OUT / 16) {
            *a = _mm512_loadu_si512(bp.add(16 * r) as *const _);
        }
        for (&x, row) in x.iter().zip(w) {
            let (xv, wp) = (_mm512_set1_epi32(x), row.as_ptr());
            for (r, a) in acc.iter_mut().enumerate().take(OUT / 16) {
                *a = _mm512_add_epi32(*a, _mm512_mullo_epi32(xv, _mm512_loadu_si512(wp.add(16 * r) as *const _)));
            }
        }
        let mut out = [0i32; OUT];
        let op = out.as_mut_ptr();
        for (r, a) in acc.iter().enumerate().take(OUT / 16) {
            _mm512_storeu_si512(op.add(16 * r) as *mut _, *a);
        }
        out
    }
}

/// The 32-output dense int8 layer in 512-bit registers: a chunk's 32 × 4 weights are two zmm,
/// even and odd chunks in separate accumulators (four chains).
///
/// # Safety
/// The CPU has AVX512F and AVX512-VNNI; `x` holds CHUNKS (even) input chunks, `w` 32 weights
/// of 4 bytes per chunk, `biases` and `out` 32 values.
#[target_feature(enable = "avx512f,avx512vnni")]
#[inline]
unsafe fn affine_dense32_zmm<const CHUNKS: usize>(x: *const i32, w: *const i32, biases: *const i32, out: *mut i32) {
    // SAFETY: the caller's contract: every load and store below is inside the arrays it passed,
    // and the CPU has the features this function enables.
    unsafe {
        const { assert!(CHUNKS.is_multiple_of(2)) };
        let zero = _mm512_setzero_si512();
        let mut acc =
            [[_mm512_loadu_si512(biases as *const _), _mm512_loadu_si512(biases.add(16) as *const _)], [zero; 2]];
        for i in (0..CHUNKS).step_by(2) {
            for (k, set) in acc.iter_mut().enumerate() {
                let chunk = _mm512_set1_epi32(x.add(i + k).read_unaligned());
                let wi = w.add(32 * (i + k));
                set[0] = _mm512_dpbusd_epi32(set[0], chunk, _mm512_loadu_si512(wi as *const _));
                set[1] = _mm512_dpbusd_epi32(set[1], chunk, _mm512_loadu_si512(wi.add(16) as *const _));
            }
        }
        // Wrapping int32 sums: the order doesn't change them.
        _mm512_storeu_si512(out as *mut _, _mm512_add_epi32(acc[0][0], acc[1][0]));
        _mm512_storeu_si512(out.add(16) as *mut _, _mm512_add_epi32(acc[0][1], acc[1][1]));
    }
}

/// The 16-output sparse layer in 512-bit registers: a chunk's 16 × 4 weights are one zmm, one
/// `vpdpbusd` per chunk (the 256-bit form takes two), eight chunks in flight.
///
/// # Safety
/// The CPU has AVX512F and AVX512-VNNI; `x` holds the input chunks, `w` 16 weights of 4 bytes
/// per chunk, `biases` and `out` 16 values, and every index in `nnz` is a chunk.
#[target_feature(enable = "avx512f,avx512vnni")]
#[inline]
unsafe fn affine_sparse16_zmm(x: *const i32, w: *const i32, biases: *const i32, out: *mut i32, nnz: &[u16]) {
    // SAFETY: the caller's contract: every load below is inside the arrays it passed, and the CPU has the features this function enables.
    unsafe {
        let zero = _mm512_setzero_si512();
        let mut acc = [_mm512_loadu_si512(biases as *const _), zero, zero, zero, zero, zero, zero, zero];
        // A macro, not a closure: closures don't inherit the function's target features.
        macro_rules! step {
            ($set:literal, $i:expr) => {{
                let i = $i as usize;
                let chunk = _mm512_set1_epi32(x.add(i).read_unaligned());
                acc[$set] = _mm512_dpbusd_epi32(acc[$set], chunk, _mm512_loadu_si512(w.add(16 * i) as *const _));
            }};
        }
        // Eight chains: `vpdpbusd` issues one a cycle with a latency of about five.
        let mut groups = nnz.chunks_exact(8);
        for g in &mut groups {
            step!(0, g[0]);
            step!(1, g[1]);
            step!(2, g[2]);
            step!(3, g[3]);
            step!(4, g[4]);
            step!(5, g[5]);
            step!(6, g[6]);
            step!(7, g[7]);
        }
        let mut rest = groups.remainder().chunks_exact(2);
        for g in &mut rest {
            step!(0, g[0]);
            step!(1, g[1]);
        }
        for &i in rest.remainder() {
            step!(2, i);
        }
        // Wrapping int32 sums: the order doesn't change them.
        let sums = [0, 2, 4, 6].map(|k| _mm512_add_epi32(acc[k], acc[k + 1]));
        let sum = _mm512_add_epi32(_mm512_add_epi32(sums[0], sums[1]), _mm512_add_epi32(sums[2], sums[3]));
        _mm512_storeu_si512(out as *mut _, sum);
    }
}

/// Integral's 16-output sparse layer (`l1sums=i16pairs`) in zmm registers: one register a
/// chunk, two listed chunks' `maddubs` lanes added in int16 (`vpaddw`, wrapping) before `madd`
/// widens them; four accumulators, so that the adds don't chain.
///
/// # Safety
/// The CPU has AVX512F and AVX512BW; `x` holds the input chunks, `w` 16 weights of 4 bytes per
/// chunk, `biases` and `out` 16 values, and every index in `nnz` is a chunk.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn affine_pairs16_zmm(x: *const i32, w: *const i32, biases: *const i32, out: *mut i32, nnz: &[u16]) {
    // SAFETY: the caller's contract: every load below is inside the arrays it passed, and the CPU has the features this function enables.
    unsafe {
        let (ones, zero) = (_mm512_set1_epi16(1), _mm512_setzero_si512());
        let mut acc = [_mm512_loadu_si512(biases as *const _), zero, zero, zero];
        // Macros, not closures: closures don't inherit the function's target features.
        macro_rules! lanes {
            ($i:expr) => {{
                let i = $i as usize;
                let chunk = _mm512_set1_epi32(x.add(i).read_unaligned());
                _mm512_maddubs_epi16(chunk, _mm512_loadu_si512(w.add(16 * i) as *const _))
            }};
        }
        macro_rules! pair {
            ($set:literal, $a:expr, $b:expr) => {{
                let s = _mm512_add_epi16(lanes!($a), lanes!($b));
                acc[$set] = _mm512_add_epi32(acc[$set], _mm512_madd_epi16(s, ones));
            }};
        }
        let mut groups = nnz.chunks_exact(8);
        for g in &mut groups {
            pair!(0, g[0], g[1]);
            pair!(1, g[2], g[3]);
            pair!(2, g[4], g[5]);
            pair!(3, g[6], g[7]);
        }
        let mut rest = groups.remainder().chunks_exact(2);
        for g in &mut rest {
            pair!(0, g[0], g[1]);
        }
        for &i in rest.remainder() {
            acc[1] = _mm512_add_epi32(acc[1], _mm512_madd_epi16(lanes!(i), ones));
        }
        let sum = _mm512_add_epi32(_mm512_add_epi32(acc[0], acc[1]), _mm512_add_epi32(acc[2], acc[3]));
        _mm512_storeu_si512(out as *mut _, sum);
    }
}

/// `out = biases + acc`, eight int32 lanes per register.
#[inline(always)]
unsafe fn store_with_biases<const OUT: usize>(acc: &[__m256i; 4], biases: &[i32; OUT], out: &mut [i32; OUT]) {
    // SAFETY: the caller holds a `KernelPath` for this instantiation's target features (the `Kernels` contract); every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
    unsafe {
        let (b, o) = (biases.as_ptr() as *const __m256i, out.as_mut_ptr() as *mut __m256i);
        for r in 0..OUT / 8 {
            _mm256_storeu_si256(o.add(r), _mm256_add_epi32(acc[r], load(b.add(r))));
        }
    }
}

/// [`Kernels::ft_pairwise_both`] in 512-bit registers (AVX-512 F and BW): 64 columns a step.
/// `packus` of two zmm interleaves their four 128-bit lanes, so the bytes come out in the
/// order [0, 4, 2, 6, 1, 5, 3, 7] of 8-byte groups (the columns being stored for 256-bit
/// `packus`); one `vpermq` puts them back in logical order, as the 256-bit path leaves them.
///
/// `COMPRESS` (the caller holds AVX512-VBMI2 and VL): each 16 chunks' indices are listed with
/// one `vpcompressw` of a register instead of two 8-lane table lookups, as Stockfish's
/// `avx512icl` build does.
#[inline(always)]
unsafe fn ft_pairwise_zmm<
    'o,
    const L1: usize,
    const HALF: usize,
    const CHUNKS: usize,
    const MAX: i16,
    const SHIFT: u32,
    const ROUND: bool,
    const COMPRESS: bool,
>(
    us: &[i16; L1],
    them: &[i16; L1],
    out: &'o mut MaybeUninit<[[u8; HALF]; 2]>,
    nnz: &'o mut MaybeUninit<[u16; CHUNKS]>,
) -> (&'o [[u8; HALF]; 2], &'o [u16]) {
    // SAFETY: the caller runs under AVX-512 F/BW (the avx512vnni path's features); each load and store covers 64 bytes inside `us`, `them` or `out` (HALF is a multiple of 64), and `list` gets at most CHUNKS / 8 groups.
    unsafe {
        let (zero, top) = (_mm512_setzero_si512(), _mm512_set1_epi16(MAX));
        let order = _mm512_setr_epi64(0, 4, 2, 6, 1, 5, 3, 7);
        let mut list = NonZero::new(nnz);
        let out_base = out.as_mut_ptr() as *mut u8;
        for (p, acc) in [us, them].into_iter().enumerate() {
            let a = acc.as_ptr();
            for k in 0..HALF / 64 {
                let product = |j: usize| {
                    let x = _mm512_max_epi16(_mm512_min_epi16(_mm512_loadu_si512(a.add(j) as *const _), top), zero);
                    // No lower clamp on b: a negative product packs to 0, as a clamped b would give.
                    let y = _mm512_min_epi16(_mm512_loadu_si512(a.add(HALF + j) as *const _), top);
                    if ROUND {
                        _mm512_mulhrs_epi16(pre_mulhrs_zmm::<SHIFT>(x), y)
                    } else {
                        _mm512_mulhi_epi16(pre_mulhi_zmm::<SHIFT>(x), y)
                    }
                };
                let packed = _mm512_packus_epi16(product(64 * k), product(64 * k + 32));
                let bytes = _mm512_permutexvar_epi64(order, packed);
                _mm512_storeu_si512(out_base.add(p * HALF + 64 * k) as *mut _, bytes);
                // Every byte is at most 127: a chunk is non-zero exactly when it is > 0 as an int32.
                let mask = _mm512_cmpgt_epi32_mask(bytes, zero);
                if COMPRESS {
                    list.push_compressed(mask);
                } else {
                    list.push_mask(mask as usize & 0xff);
                    list.push_mask(mask as usize >> 8);
                }
            }
        }
        // SAFETY: the loops stored all 2 * HALF bytes of `out`.
        (out.assume_init_ref(), list.indices())
    }
}

/// Whether the CPU has AVX512-VBMI2 (and VL), detected once (std caches it).
#[inline(always)]
fn has_vbmi2() -> bool {
    std::is_x86_feature_detected!("avx512vbmi2") && std::is_x86_feature_detected!("avx512vl")
}

/// [`ft_pairwise_zmm`] listing the non-zero chunks with `vpcompressw`: its own function, for
/// the target feature the AVX512-VNNI path doesn't require (Cascade Lake has VNNI without
/// VBMI2; Ice Lake, Sapphire Rapids and Zen 4 have both).
///
/// # Safety
/// The CPU has AVX-512 F, BW, VL, VNNI and VBMI2.
#[target_feature(enable = "avx2,popcnt,fma,avx512f,avx512bw,avx512vl,avx512vnni,avx512vbmi2")]
unsafe fn ft_pairwise_zmm_vbmi2<
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
    // SAFETY: this function's features are the kernel's requirement.
    unsafe { ft_pairwise_zmm::<L1, HALF, CHUNKS, MAX, SHIFT, ROUND, true>(us, them, out, nnz) }
}

/// The 512-bit transform's output listed both ways (table lookups; `vpcompressw`), for the
/// tests: a CPU with VBMI2 runs only the second through the paths. `None` for a way this CPU
/// can't run.
#[cfg(test)]
#[allow(clippy::type_complexity)]
pub(crate) fn ft_pairwise_zmm_both_ways<const L1: usize, const HALF: usize, const CHUNKS: usize>(
    us: &[i16; L1],
    them: &[i16; L1],
) -> [Option<([[u8; HALF]; 2], Vec<u16>)>; 2] {
    let avx512 = std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw");
    let run = |compress: bool| {
        let (mut out, mut nnz) = (MaybeUninit::uninit(), MaybeUninit::uninit());
        // SAFETY: called only where the CPU has AVX-512 F/BW (and VBMI2/VL for `compress`).
        let (out, nnz) = unsafe {
            if compress {
                ft_pairwise_zmm::<L1, HALF, CHUNKS, 255, 9, false, true>(us, them, &mut out, &mut nnz)
            } else {
                ft_pairwise_zmm::<L1, HALF, CHUNKS, 255, 9, false, false>(us, them, &mut out, &mut nnz)
            }
        };
        (*out, nnz.to_vec())
    };
    [avx512.then(|| run(false)), (avx512 && has_vbmi2()).then(|| run(true))]
}

/// `x << (15 - SHIFT)`, so that `mulhrs` of it and `b` is `(x * b + 2^(SHIFT - 1)) >> SHIFT`
/// (exact while the shifted `x` fits int16: cinder's `x <= 127`, `SHIFT` 7).
#[inline(always)]
unsafe fn pre_mulhrs<const SHIFT: u32>(x: __m256i) -> __m256i {
    const { assert!(7 <= SHIFT && SHIFT <= 15, "the rounded pairwise shift must be 7 to 15") };
    // SAFETY: AVX2 shifts of a register; the caller holds AVX2.
    unsafe { _mm256_sll_epi16(x, _mm_cvtsi32_si128(15 - SHIFT as i32)) }
}

/// [`pre_mulhrs`] in 512-bit registers.
#[inline(always)]
unsafe fn pre_mulhrs_zmm<const SHIFT: u32>(x: __m512i) -> __m512i {
    const { assert!(7 <= SHIFT && SHIFT <= 15, "the rounded pairwise shift must be 7 to 15") };
    // SAFETY: AVX-512 BW shifts of a register; the caller holds AVX-512 BW.
    unsafe { _mm512_sll_epi16(x, _mm_cvtsi32_si128(15 - SHIFT as i32)) }
}

/// [`pre_mulhi`] in 512-bit registers.
#[inline(always)]
unsafe fn pre_mulhi_zmm<const SHIFT: u32>(x: __m512i) -> __m512i {
    // Shifts 7 and 8 are the rounded transform's (`pre_mulhrs_zmm`), never truncated here.
    const { assert!(7 <= SHIFT && SHIFT <= 15, "the pairwise shift must be 7 to 15 (9 to 15 truncated)") };
    // SAFETY: AVX-512 BW shifts of a register; the caller holds AVX-512 BW.
    unsafe {
        match SHIFT {
            9 => _mm512_slli_epi16::<7>(x),
            10 => _mm512_slli_epi16::<6>(x),
            11 => _mm512_slli_epi16::<5>(x),
            12 => _mm512_slli_epi16::<4>(x),
            13 => _mm512_slli_epi16::<3>(x),
            14 => _mm512_slli_epi16::<2>(x),
            15 => _mm512_slli_epi16::<1>(x),
            _ => unreachable!("a truncated pairwise shift is 9 to 15 (`LayeredArch::validate`)"),
        }
    }
}

/// `x << (16 - SHIFT)`, so that `mulhi` of it and `b` is `x * b >> SHIFT` (exact while the
/// shifted `x` fits int16: `x <= 255`, `SHIFT >= 9`).
#[inline(always)]
unsafe fn pre_mulhi<const SHIFT: u32>(x: __m256i) -> __m256i {
    // Shifts 7 and 8 are the rounded transform's (`pre_mulhrs`), never truncated here.
    const { assert!(7 <= SHIFT && SHIFT <= 15, "the pairwise shift must be 7 to 15 (9 to 15 truncated)") };
    // SAFETY: AVX2 shifts of a register; the caller holds AVX2.
    unsafe {
        match SHIFT {
            9 => _mm256_slli_epi16::<7>(x),
            10 => _mm256_slli_epi16::<6>(x),
            11 => _mm256_slli_epi16::<5>(x),
            12 => _mm256_slli_epi16::<4>(x),
            13 => _mm256_slli_epi16::<3>(x),
            14 => _mm256_slli_epi16::<2>(x),
            15 => _mm256_slli_epi16::<1>(x),
            _ => unreachable!("a truncated pairwise shift is 9 to 15 (`LayeredArch::validate`)"),
        }
    }
}

impl<D: Dot> super::sealed::Sealed for X86<D> {}

// SAFETY: every function below only touches memory inside its array arguments (the const
// asserts pin the shapes the pointer arithmetic relies on) and uses AVX2 plus `D`'s dot.
unsafe impl<D: Dot> Kernels for X86<D> {
    const ROWS: super::rows::RowKernels = D::ROWS;
    const ISA: super::Isa = D::ISA;

    #[inline(always)]
    unsafe fn dense_i32<const IN: usize, const OUT: usize>(
        x: &[i32; IN],
        w: &[[i32; OUT]; IN],
        b: &[i32; OUT],
    ) -> [i32; OUT] {
        // SAFETY: the caller holds a `KernelPath` for this instantiation's target features (the `Kernels` contract); every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            const { assert!(OUT.is_multiple_of(8) && OUT <= 128) };
            if D::ZMM && OUT.is_multiple_of(16) {
                return dense_i32_zmm(x, w, b);
            }
            // One broadcast input times a weight row across the outputs, accumulators in registers.
            let mut acc = [_mm256_setzero_si256(); 16];
            let bp = b.as_ptr() as *const __m256i;
            for (r, a) in acc.iter_mut().enumerate().take(OUT / 8) {
                *a = load(bp.add(r));
            }
            for (&x, row) in x.iter().zip(w) {
                let (xv, wp) = (_mm256_set1_epi32(x), row.as_ptr() as *const __m256i);
                for (r, a) in acc.iter_mut().enumerate().take(OUT / 8) {
                    *a = _mm256_add_epi32(*a, _mm256_mullo_epi32(xv, load(wp.add(r))));
                }
            }
            let mut out = [0i32; OUT];
            let op = out.as_mut_ptr() as *mut __m256i;
            for (r, a) in acc.iter().enumerate().take(OUT / 8) {
                _mm256_storeu_si256(op.add(r), *a);
            }
            out
        }
    }

    #[inline(always)]
    unsafe fn clamped_dot_i32<const IN: usize>(x: &[i32; IN], max: i32, w: &[i32; IN], b: i32) -> i32 {
        // SAFETY: the caller holds a `KernelPath` for this instantiation's target features (the `Kernels` contract); every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            const { assert!(IN.is_multiple_of(8)) };
            let (xp, wp) = (x.as_ptr() as *const __m256i, w.as_ptr() as *const __m256i);
            let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi32(max));
            let mut sum = _mm256_setzero_si256();
            for r in 0..IN / 8 {
                let c = _mm256_min_epi32(_mm256_max_epi32(load(xp.add(r)), zero), top);
                sum = _mm256_add_epi32(sum, _mm256_mullo_epi32(c, load(wp.add(r))));
            }
            let lanes: [i32; 8] = std::mem::transmute(sum);
            lanes.iter().fold(b, |s, &v| s.wrapping_add(v))
        }
    }

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
            // In zmm from 256 columns a half: below that (Stockfish's small nets), a forward
            // pass with 512-bit kernels measured slower than the same path's ymm kernels (17.1
            // small: 53 against 34 ns with both zmm kernels, 44 with this one off).
            if D::ZMM && HALF.is_multiple_of(64) && HALF >= ZMM_MIN_HALF {
                if has_vbmi2() {
                    // SAFETY: the CPU has AVX512-VBMI2 (detected), and this path's features.
                    return ft_pairwise_zmm_vbmi2::<L1, HALF, CHUNKS, MAX, SHIFT, ROUND>(us, them, out, nnz);
                }
                return ft_pairwise_zmm::<L1, HALF, CHUNKS, MAX, SHIFT, ROUND, false>(us, them, out, nnz);
            }
            let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(MAX));
            let mut list = NonZero::new(nnz);
            let out_base = out.as_mut_ptr() as *mut __m256i;
            for (p, acc) in [us, them].into_iter().enumerate() {
                let (a, o) = (acc.as_ptr() as *const __m256i, out_base.add(p * HALF / 32));
                for k in 0..HALF / 32 {
                    // Registers of 16: k-th block of 32 in the first half, and its partner in the second.
                    let (lo, hi) = (2 * k, HALF / 16 + 2 * k);
                    let a0 = _mm256_max_epi16(_mm256_min_epi16(load(a.add(lo)), top), zero);
                    let a1 = _mm256_max_epi16(_mm256_min_epi16(load(a.add(lo + 1)), top), zero);
                    // No lower clamp on b: a negative product packs to 0, as a clamped b would give.
                    let b0 = _mm256_min_epi16(load(a.add(hi)), top);
                    let b1 = _mm256_min_epi16(load(a.add(hi + 1)), top);
                    // `ROUND`: `mulhrs` of a << (15 - SHIFT) by b is (a * b + 2^(SHIFT - 1)) >> SHIFT.
                    let product = |a: __m256i, b: __m256i| {
                        if ROUND {
                            _mm256_mulhrs_epi16(pre_mulhrs::<SHIFT>(a), b)
                        } else {
                            _mm256_mulhi_epi16(pre_mulhi::<SHIFT>(a), b)
                        }
                    };
                    let packed = _mm256_packus_epi16(product(a0, b0), product(a1, b1));
                    _mm256_storeu_si256(o.add(k), packed);
                    // The 8 chunks just written, listed while still in a register.
                    list.push_group(packed);
                }
            }
            // SAFETY: the loops stored all 2 * HALF / 32 registers of `out`.
            (out.assume_init_ref(), list.indices())
        }
    }

    #[inline(always)]
    unsafe fn sfnn_fc0_act(fc0: &[i32; 16]) -> [u8; 32] {
        // SAFETY: the caller holds a `KernelPath` for this instantiation's target features (the `Kernels` contract); every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            let x = fc0.as_ptr() as *const __m256i;
            // Saturated to int16: any value it changes squares (or shifts) past 127 anyway.
            let words = _mm256_packs_epi32(load(x), load(x.add(1)));
            // x * x >> 19 = (x * x >> 16) >> 3, the square being non-negative.
            let sqr = _mm256_srli_epi16::<3>(_mm256_mulhi_epi16(words, words));
            let plain = _mm256_srai_epi16::<6>(words);
            // packs clamps to 127 from above; the max to 0 from below (only `plain` can be negative).
            let bytes = _mm256_max_epi8(_mm256_packs_epi16(sqr, plain), _mm256_setzero_si256());
            std::mem::transmute::<__m256i, [u8; 32]>(bytes)
        }
    }

    #[inline(always)]
    unsafe fn sfnn_fc1_act(fc1: &[i32; 32]) -> [u8; 32] {
        // SAFETY: the caller holds a `KernelPath` for this instantiation's target features (the `Kernels` contract); every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            let x = fc1.as_ptr() as *const __m256i;
            let w0 = _mm256_srai_epi16::<6>(_mm256_packs_epi32(load(x), load(x.add(1))));
            let w1 = _mm256_srai_epi16::<6>(_mm256_packs_epi32(load(x.add(2)), load(x.add(3))));
            let bytes = _mm256_max_epi8(_mm256_packs_epi16(w0, w1), _mm256_setzero_si256());
            std::mem::transmute::<__m256i, [u8; 32]>(bytes)
        }
    }

    #[inline(always)]
    unsafe fn ft_clamp<const L1: usize>(acc: &[i16; L1], out: &mut [u8; L1]) {
        // SAFETY: the caller holds a `KernelPath` for this instantiation's target features (the `Kernels` contract); every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            const { assert!(L1.is_multiple_of(32)) };
            let zero = _mm256_setzero_si256();
            let (a, o) = (acc.as_ptr() as *const __m256i, out.as_mut_ptr() as *mut __m256i);
            for k in 0..L1 / 32 {
                let packed = _mm256_packs_epi16(load(a.add(2 * k)), load(a.add(2 * k + 1)));
                _mm256_storeu_si256(o.add(k), _mm256_max_epi8(packed, zero));
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
            const { assert!(CHUNKS.is_multiple_of(8) && CHUNKS <= 65536 && OUT.is_multiple_of(8) && OUT <= 32) };
            let mut nnz = MaybeUninit::<[u16; CHUNKS]>::uninit();
            let mut list = NonZero::new(&mut nnz);
            let chunks = input.as_ptr() as *const __m256i;
            for g in 0..CHUNKS / 8 {
                list.push_group(load(chunks.add(g)));
            }
            Self::affine_sparse_listed(input, weights, biases, out, list.indices());
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
        // SAFETY: the caller holds a `KernelPath` for this instantiation's target features (the `Kernels` contract; every x86 path has AVX2's `maddubs`, the 512-bit one AVX512BW's); every index in `nnz` is below CHUNKS (the contract), so each chunk's OUT / 8 weight registers and its 4 input bytes lie inside the arrays.
        unsafe {
            const { assert!(OUT.is_multiple_of(8) && OUT <= 32) };
            let x = input.as_ptr() as *const i32;
            if D::ZMM && OUT == 16 {
                let w = weights.as_ptr() as *const i32;
                return affine_pairs16_zmm(x, w, biases.as_ptr(), out.as_mut_ptr(), nnz);
            }
            let (ones, w, b) =
                (_mm256_set1_epi16(1), weights.as_ptr() as *const __m256i, biases.as_ptr() as *const __m256i);
            let regs = OUT / 8;
            // Two accumulator sets, alternate pairs, so that the adds don't chain.
            let mut acc = [[_mm256_setzero_si256(); 4]; 2];
            for r in 0..regs {
                acc[0][r] = load(b.add(r));
            }
            // A macro, not a closure: closures don't inherit the caller's target features.
            macro_rules! lanes {
                ($i:expr, $r:expr) => {{
                    let i = $i as usize;
                    _mm256_maddubs_epi16(_mm256_set1_epi32(x.add(i).read_unaligned()), load(w.add(i * regs + $r)))
                }};
            }
            macro_rules! pair {
                ($set:literal, $a:expr, $b:expr) => {{
                    for r in 0..regs {
                        // The two chunks' lanes meet in int16 (`vpaddw`, wrapping), then widen.
                        let s = _mm256_add_epi16(lanes!($a, r), lanes!($b, r));
                        acc[$set][r] = _mm256_add_epi32(acc[$set][r], _mm256_madd_epi16(s, ones));
                    }
                }};
            }
            let mut quads = nnz.chunks_exact(4);
            for g in &mut quads {
                pair!(0, g[0], g[1]);
                pair!(1, g[2], g[3]);
            }
            let rest = quads.remainder();
            if rest.len() >= 2 {
                pair!(0, rest[0], rest[1]);
            }
            if rest.len() % 2 == 1 {
                for r in 0..regs {
                    let s = lanes!(rest[rest.len() - 1], r);
                    acc[1][r] = _mm256_add_epi32(acc[1][r], _mm256_madd_epi16(s, ones));
                }
            }
            let o = out.as_mut_ptr() as *mut __m256i;
            for r in 0..regs {
                _mm256_storeu_si256(o.add(r), _mm256_add_epi32(acc[0][r], acc[1][r]));
            }
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
        // SAFETY: the caller holds a `KernelPath` for this instantiation's target features (the
        // `Kernels` contract), which are those of `D` and of the kernels called below. The input
        // and weight offsets come from the run-time `nnz` list, and the contract has every index
        // in it below CHUNKS: chunk `i`'s 4 input bytes and its OUT / 8 weight registers (OUT <=
        // 32, asserted) are inside `input` and `weights`, which is what `accumulate` and the
        // zmm kernels require of their indices. Bias loads and output stores are the OUT /
        // 8 registers of the OUT-value arrays.
        unsafe {
            const { assert!(OUT.is_multiple_of(8) && OUT <= 32) };
            if D::ZMM && OUT == 32 {
                let (x, w) = (input.as_ptr() as *const i32, weights.as_ptr() as *const i32);
                return affine_sparse32_zmm(x, w, biases.as_ptr(), out.as_mut_ptr(), nnz);
            }
            if D::ZMM && OUT == 16 && CHUNKS >= ZMM_MIN_CHUNKS {
                let (x, w) = (input.as_ptr() as *const i32, weights.as_ptr() as *const i32);
                return affine_sparse16_zmm(x, w, biases.as_ptr(), out.as_mut_ptr(), nnz);
            }
            // Independent accumulator sets, one per chunk in flight, so that `vpdpbusd`'s latency
            // doesn't chain from one chunk to the next (integer sums: the order doesn't matter).
            // AVX2 too takes this form, `maddubs` + `madd` per register as Stockfish does:
            // widening half the products with an xor and a shift instead of `madd` (one multiply
            // less a chunk) costs three adds more, and with two ports that multiply (Zen 3,
            // Intel) llvm-mca puts it at 2.85 against 2.03 cycles a chunk on znver3, 3.83
            // against 2.64 on Ice Lake.
            // Four sets while they fit the registers (OUT <= 16), else two; the first starts from
            // the biases.
            let mut acc = [[_mm256_setzero_si256(); 4]; 4];
            let b = biases.as_ptr() as *const __m256i;
            for r in 0..OUT / 8 {
                acc[0][r] = load(b.add(r));
            }
            let (w, x) = (weights.as_ptr() as *const __m256i, input.as_ptr() as *const i32);
            let rest = if OUT <= 16 {
                let mut groups = nnz.chunks_exact(4);
                for g in &mut groups {
                    accumulate::<D, OUT>(&mut acc[0], x, w, g[0]);
                    accumulate::<D, OUT>(&mut acc[1], x, w, g[1]);
                    accumulate::<D, OUT>(&mut acc[2], x, w, g[2]);
                    accumulate::<D, OUT>(&mut acc[3], x, w, g[3]);
                }
                groups.remainder()
            } else {
                let mut groups = nnz.chunks_exact(2);
                for g in &mut groups {
                    accumulate::<D, OUT>(&mut acc[0], x, w, g[0]);
                    accumulate::<D, OUT>(&mut acc[1], x, w, g[1]);
                }
                groups.remainder()
            };
            for &i in rest {
                accumulate::<D, OUT>(&mut acc[0], x, w, i);
            }
            for r in 0..OUT / 8 {
                let pairs = [_mm256_add_epi32(acc[0][r], acc[1][r]), _mm256_add_epi32(acc[2][r], acc[3][r])];
                _mm256_storeu_si256((out.as_mut_ptr() as *mut __m256i).add(r), _mm256_add_epi32(pairs[0], pairs[1]));
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
            const { assert!(OUT.is_multiple_of(8) && OUT <= 32 && CHUNKS.is_multiple_of(2)) };
            // Stockfish 19's fc_1 (64 inputs, 32 outputs) in zmm; the 15.1-18 nets' (32
            // inputs) stay 256-bit, as their other small layers.
            if D::ZMM && OUT == 32 && CHUNKS >= 16 {
                let (x, w) = (input.as_ptr() as *const i32, weights.as_ptr() as *const i32);
                return affine_dense32_zmm::<CHUNKS>(x, w, biases.as_ptr(), out.as_mut_ptr());
            }
            // Two accumulator sets (even and odd chunks) halve the dependency chains.
            let mut acc = [[_mm256_setzero_si256(); 4]; 2];
            let (w, x) = (weights.as_ptr() as *const __m256i, input.as_ptr() as *const i32);
            for i in (0..CHUNKS).step_by(2) {
                accumulate::<D, OUT>(&mut acc[0], x, w, i as u16);
                accumulate::<D, OUT>(&mut acc[1], x, w, i as u16 + 1);
            }
            for r in 0..OUT / 8 {
                acc[0][r] = _mm256_add_epi32(acc[0][r], acc[1][r]);
            }
            store_with_biases(&acc[0], biases, out);
        }
    }

    #[inline(always)]
    unsafe fn affine_one<const IN: usize>(input: &[u8; IN], weights: &[i8; IN], bias: i32) -> i32 {
        // SAFETY: the caller holds a `KernelPath` for this instantiation's target features (the `Kernels` contract); every pointer below comes from a reference to an array whose const dimensions bound the offsets used.
        unsafe {
            const { assert!(IN.is_multiple_of(32)) };
            let (x, w) = (input.as_ptr() as *const __m256i, weights.as_ptr() as *const __m256i);
            let mut acc = _mm256_setzero_si256();
            for k in 0..IN / 32 {
                acc = D::dpbusd(acc, load(x.add(k)), load(w.add(k)));
            }
            bias.wrapping_add(hsum(acc))
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
            const { assert!(N.is_multiple_of(32)) };
            if screlu && !screlu_in_i16 {
                // v * w may overflow int16 for this net: take the exact portable form.
                return super::scalar::Scalar::chess768_output(us, them, weights, qa, screlu, screlu_in_i16);
            }
            if D::ZMM && N.is_multiple_of(64) {
                return chess768_output_zmm(us, them, weights, qa, screlu);
            }
            let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(qa));
            // Four sums where N allows (two otherwise): with VNNI the compiler fuses each
            // madd + add into one `vpdpwssd`, whose latency fewer chains would wait on (two
            // took a 1024-wide output 48 ns on AVX-VNNI, slower than AVX2's 42; four 34, AMD
            // Zen 5, 2026-11-28). AVX2 measured the same either way.
            let mut s = [_mm256_setzero_si256(); 4];
            let chains = if N.is_multiple_of(64) { 4 } else { 2 };
            for (side, w) in [us, them].into_iter().zip(weights) {
                let (x, w) = (side.as_ptr() as *const __m256i, w.as_ptr() as *const __m256i);
                let term = |k: usize| {
                    let v = _mm256_min_epi16(_mm256_max_epi16(load(x.add(k)), zero), top);
                    let w = load(w.add(k));
                    // SCReLU: v * (v * w), with v * w exact in int16 (the caller proved it).
                    let rhs = if screlu { _mm256_mullo_epi16(v, w) } else { w };
                    _mm256_madd_epi16(v, rhs)
                };
                for k in (0..N / 16).step_by(chains) {
                    for c in 0..chains {
                        s[c] = _mm256_add_epi32(s[c], term(k + c));
                    }
                }
            }
            // Wrapping int32 adds: the order doesn't change the sum.
            hsum(_mm256_add_epi32(_mm256_add_epi32(s[0], s[1]), _mm256_add_epi32(s[2], s[3])))
        }
    }
}
