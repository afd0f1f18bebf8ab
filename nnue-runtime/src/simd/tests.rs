//! Every kernel path equals a plain statement of what its kernel computes, written here apart
//! from the kernels (the byte orders from the 256-bit pack instructions' lane rule, the
//! arithmetic in i64 and then wrapped), on random inputs, extremes included: accumulators over
//! the whole int16 range (every clamp and saturation), the full int8 weight range, sparse and
//! dense activations, int32 biases near the wrapping edge. A path this CPU lacks prints
//! `SKIPPED` once.

use std::mem::MaybeUninit;
use std::sync::Once;

use proptest::prelude::*;

use super::scalar::Scalar;
use super::{Isa, Kernels};

/// Runs `$body` with `K` bound to the kernels of each path of this target that this CPU has,
/// scalar included, checking it against `$want`, the plain result.
macro_rules! each_path {
    (|$k:ident| $body:expr, $want:expr) => {{
        let want = $want;
        {
            type $k = Scalar;
            // SAFETY: the portable kernels need no target features.
            prop_assert_eq!(&unsafe { $body }, &want, "scalar");
        }
        #[cfg(target_arch = "x86_64")]
        {
            use super::x86::{Avx2, Avx512Vnni, AvxVnni};
            if runs(Isa::Avx2) {
                type $k = Avx2;
                // SAFETY: AVX2 is available.
                prop_assert_eq!(&unsafe { $body }, &want, "avx2");
            }
            if runs(Isa::AvxVnni) {
                type $k = AvxVnni;
                // SAFETY: AVX-VNNI is available.
                prop_assert_eq!(&unsafe { $body }, &want, "avxvnni");
            }
            if runs(Isa::Avx512Vnni) {
                type $k = Avx512Vnni;
                // SAFETY: AVX512-VNNI and VL are available.
                prop_assert_eq!(&unsafe { $body }, &want, "avx512vnni");
            }
        }
        #[cfg(target_arch = "aarch64")]
        {
            use super::aarch64::{Dotprod, Neon};
            if runs(Isa::Neon) {
                type $k = Neon;
                // SAFETY: NEON is available.
                prop_assert_eq!(&unsafe { $body }, &want, "neon");
            }
            if runs(Isa::Dotprod) {
                type $k = Dotprod;
                // SAFETY: NEON and dotprod are available.
                prop_assert_eq!(&unsafe { $body }, &want, "dotprod");
            }
        }
        #[cfg(target_arch = "wasm32")]
        if runs(Isa::Simd128) {
            // A build without SIMD128 has no such module: `runs` said SKIPPED instead.
            #[cfg(target_feature = "simd128")]
            {
                type $k = super::wasm32::Simd128;
                // SAFETY: the build has SIMD128 (the cfg).
                prop_assert_eq!(&unsafe { $body }, &want, "simd128");
            }
        }
        #[cfg(target_arch = "wasm32")]
        if runs(Isa::RelaxedSimd) {
            // A build without relaxed SIMD has no such kernels: `runs` said SKIPPED instead.
            // (The activations here are at most 127, as its kernels require, but for the
            // int16-pairs layer's, which is SIMD128's.)
            #[cfg(all(target_feature = "simd128", target_feature = "relaxed-simd"))]
            {
                type $k = super::wasm32::RelaxedSimd;
                // SAFETY: the build has SIMD128 and relaxed SIMD (the cfg).
                prop_assert_eq!(&unsafe { $body }, &want, "relaxed-simd");
            }
        }
    }};
}

/// Whether this CPU runs `isa`; if not, says so once (straight to stderr, past the harness's
/// capture, as `nnue_testkit::skip` does: the testkit depends on this crate).
fn runs(isa: Isa) -> bool {
    static SAID: [Once; Isa::ALL.len()] = [const { Once::new() }; Isa::ALL.len()];
    let available = isa.is_available();
    if !available {
        SAID[isa as usize].call_once(|| {
            use std::io::Write;
            // WebAssembly has no run-time detection: the build decides (and for relaxed SIMD,
            // the probe of the engine's dot product).
            let relaxed_build = cfg!(all(target_feature = "simd128", target_feature = "relaxed-simd"));
            let why = if isa == Isa::RelaxedSimd && relaxed_build {
                "this engine's relaxed dot product failed the probe (Node 20: run with --no-liftoff)".to_string()
            } else if cfg!(target_arch = "wasm32") {
                format!("this build lacks {isa} (compiled without -C target-feature=+{isa})")
            } else {
                format!("this CPU lacks {isa}")
            };
            let _ = writeln!(std::io::stderr(), "SKIPPED {isa} kernels against the plain results: {why}");
        });
    }
    available
}

/// Plain statements of the kernels: what each computes, in logical order, then put in the
/// order the 256-bit pack instructions leave bytes in.
mod plain {
    /// The order `packs`/`packus` of two 256-bit registers `a`, `b` leave their elements in:
    /// each 128-bit lane packs its half of `a`, then its half of `b`.
    pub fn pack_lanes<T: Copy>(a: &[T], b: &[T]) -> Vec<T> {
        assert_eq!(a.len(), b.len());
        let h = a.len() / 2;
        [&a[..h], &b[..h], &a[h..], &b[h..]].concat()
    }

    /// Logical per-column bytes, stored as the transformer's 256-bit `packus` of two registers
    /// of 16 columns leaves them, in blocks of 32.
    pub fn pack_ordered(logical: &[u8]) -> Vec<u8> {
        logical.chunks(32).flat_map(|block| pack_lanes(&block[..16], &block[16..])).collect()
    }

    pub fn clipped_relu(x: i32) -> u8 {
        (x.max(0) / 64).min(127) as u8
    }

    pub fn sqr_clipped_relu(x: i32) -> u8 {
        ((i64::from(x) * i64::from(x)) / (1 << 19)).min(127) as u8
    }

    /// `v` wrapped to int32, as the kernels' wrapping int32 sums end.
    pub fn wrap(v: i64) -> i32 {
        v.rem_euclid(1 << 32) as u32 as i32
    }

    /// The pairwise transform, `clamp(a, 0, max) · clamp(b, 0, max) >> shift` per perspective,
    /// pack-ordered, and its non-zero chunks; `round`: plus `2^(shift − 1)` before the shift
    /// (cinder's `(clamp(l, 0, 127) · clamp(h, 0, 127) + 64) >> 7`).
    pub fn ft_pairwise<const HALF: usize>(
        us: &[i16],
        them: &[i16],
        max: i16,
        shift: u32,
        round: bool,
    ) -> ([[u8; HALF]; 2], Vec<u16>) {
        let half = if round { 1u32 << (shift - 1) } else { 0 };
        let mut out = [[0u8; HALF]; 2];
        for (acc, out) in [us, them].into_iter().zip(&mut out) {
            let (a, b) = acc.split_at(HALF);
            let logical: Vec<u8> = a
                .iter()
                .zip(b)
                .map(|(&x, &y)| ((x.clamp(0, max) as u32 * y.clamp(0, max) as u32 + half) >> shift) as u8)
                .collect();
            out.copy_from_slice(&pack_ordered(&logical));
        }
        let bytes: Vec<u8> = out.iter().flatten().copied().collect();
        let nnz = bytes.chunks(4).enumerate().filter(|(_, c)| c.iter().any(|&x| x != 0)).map(|(i, _)| i as u16);
        (out, nnz.collect())
    }

    /// fc_0's 16 outputs: `packs_epi32` of its two registers, then `packs_epi16` of the
    /// squared and the plain activation of that.
    pub fn sfnn_fc0_act(fc0: &[i32; 16]) -> [u8; 32] {
        let words = pack_lanes(&fc0[..8], &fc0[8..]);
        let sqr: Vec<u8> = words.iter().map(|&x| sqr_clipped_relu(x)).collect();
        let clipped: Vec<u8> = words.iter().map(|&x| clipped_relu(x)).collect();
        pack_lanes(&sqr, &clipped).try_into().unwrap()
    }

    /// fc_1's 32 outputs: `packs_epi32` of its registers in pairs, then `packs_epi16`.
    pub fn sfnn_fc1_act(fc1: &[i32; 32]) -> [u8; 32] {
        let low = pack_lanes(&fc1[..8], &fc1[8..16]);
        let high = pack_lanes(&fc1[16..24], &fc1[24..]);
        let words = pack_lanes(&low, &high);
        words.iter().map(|&x| clipped_relu(x)).collect::<Vec<_>>().try_into().unwrap()
    }

    pub fn ft_clamp<const L1: usize>(acc: &[i16; L1]) -> [u8; L1] {
        let logical: Vec<u8> = acc.iter().map(|&x| x.clamp(0, 127) as u8).collect();
        pack_ordered(&logical).try_into().unwrap()
    }

    /// `out[o] = bias[o] + sum over chunks c and bytes k of input[c][k] * w[c][o][k]`.
    /// Integral's sums: listed chunks in pairs, each pair's `maddubs` lanes (saturated) added
    /// in int16 before widening.
    pub fn affine_pairs<const CHUNKS: usize, const OUT: usize>(
        input: &[[u8; 4]; CHUNKS],
        weights: &[[[i8; 4]; OUT]; CHUNKS],
        biases: &[i32; OUT],
        nnz: &[u16],
    ) -> [i32; OUT] {
        let lane = |c: usize, o: usize, h: usize| -> i16 {
            let p = |k: usize| i64::from(input[c][k]) * i64::from(weights[c][o][k]);
            (p(2 * h) + p(2 * h + 1)).clamp(-32768, 32767) as i16
        };
        std::array::from_fn(|o| {
            let mut sum = i64::from(biases[o]);
            for pair in nnz.chunks(2) {
                for h in 0..2 {
                    let l = pair.iter().map(|&c| lane(c as usize, o, h)).fold(0i16, i16::wrapping_add);
                    sum += i64::from(l);
                }
            }
            wrap(sum)
        })
    }

    pub fn affine<const CHUNKS: usize, const OUT: usize>(
        input: &[[u8; 4]; CHUNKS],
        weights: &[[[i8; 4]; OUT]; CHUNKS],
        biases: &[i32; OUT],
    ) -> [i32; OUT] {
        std::array::from_fn(|o| {
            let mut sum = i64::from(biases[o]);
            for c in 0..CHUNKS {
                for k in 0..4 {
                    sum += i64::from(input[c][k]) * i64::from(weights[c][o][k]);
                }
            }
            wrap(sum)
        })
    }

    pub fn affine_one(input: &[u8], weights: &[i8], bias: i32) -> i32 {
        wrap(input.iter().zip(weights).map(|(&x, &w)| i64::from(x) * i64::from(w)).sum::<i64>() + i64::from(bias))
    }

    /// In 64 bits, wrapped at the end: a different order of wrapping int32 adds gives the same.
    pub fn dense_i32(x: &[i32], w: &[[i32; 32]], b: &[i32; 32]) -> [i32; 32] {
        std::array::from_fn(|o| {
            wrap(
                x.iter().zip(w).map(|(&x, r)| i64::from(x) * i64::from(r[o])).map(|v| i64::from(wrap(v))).sum::<i64>()
                    + i64::from(b[o]),
            )
        })
    }

    pub fn clamped_dot_i32(x: &[i32], max: i32, w: &[i32], b: i32) -> i32 {
        let terms = x.iter().zip(w).map(|(&x, &w)| i64::from(wrap(i64::from(x.clamp(0, max)) * i64::from(w))));
        wrap(terms.sum::<i64>() + i64::from(b))
    }

    pub fn chess768_output<const N: usize>(
        us: &[i16],
        them: &[i16],
        weights: &[[i16; N]; 2],
        qa: i16,
        screlu: bool,
    ) -> i32 {
        let mut sum = 0i64;
        for (side, w) in [us, them].into_iter().zip(weights) {
            for (&x, &w) in side.iter().zip(w) {
                let v = i64::from(x.clamp(0, qa));
                sum += if screlu { v * v } else { v } * i64::from(w);
            }
        }
        wrap(sum)
    }
}

/// Activations as the layers see them: many zeros, the top value 127 often, anything between.
fn activation() -> impl Strategy<Value = u8> {
    prop_oneof![3 => Just(0u8), 1 => Just(127u8), 2 => 0u8..=127]
}

fn array<T: std::fmt::Debug + Copy + Default, const N: usize>(
    s: impl Strategy<Value = T>,
) -> impl Strategy<Value = [T; N]> {
    prop::collection::vec(s, N).prop_map(|v| {
        let mut a = [T::default(); N];
        a.copy_from_slice(&v);
        a
    })
}

fn chunks<const C: usize>() -> impl Strategy<Value = [[u8; 4]; C]> {
    prop::collection::vec(array::<u8, 4>(activation()), C).prop_map(|v| {
        let mut a = [[0u8; 4]; C];
        a.copy_from_slice(&v);
        a
    })
}

fn weights<const C: usize, const O: usize>() -> impl Strategy<Value = Box<[[[i8; 4]; O]; C]>> {
    prop::collection::vec(prop_oneof![Just(-128i8), Just(127i8), any::<i8>()], C * O * 4).prop_map(|v| {
        let mut w = Box::new([[[0i8; 4]; O]; C]);
        for (slot, x) in w.iter_mut().flatten().flatten().zip(v) {
            *slot = x;
        }
        w
    })
}

fn bias() -> impl Strategy<Value = i32> {
    prop_oneof![any::<i32>(), -(1 << 20)..(1 << 20)]
}

/// int32 layer outputs around every edge the (Sqr)ClippedReLU kernels saturate at: the int16
/// pack, 127 << 6, the square's 127 << 19 (x near 8128 and 32767), and anywhere.
fn act_input() -> impl Strategy<Value = i32> {
    let edges =
        [i32::MIN, i32::MAX, -32769, -32768, -32767, 32766, 32767, 32768, 8127, 8128, 8191, 8192, -64, -1, 0, 63, 64];
    prop_oneof![any::<i32>(), prop::sample::select(edges.to_vec()), -70000i32..70000, -200i32..9000,]
}

/// `SKIPPED` once per process for a listing this CPU can't run.
#[cfg(target_arch = "x86_64")]
fn skipped_once(way: &str) {
    static SAID: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut said = SAID.lock().unwrap_or_else(|e| e.into_inner());
    if !said.iter().any(|w| w == way) {
        said.push(way.to_string());
        eprintln!("SKIPPED the 512-bit transform's {way} listing: this CPU lacks its AVX-512 features");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn ft_pairwise(us in array::<i16, 128>(any::<i16>()), them in array::<i16, 128>(any::<i16>())) {
        each_path!(|K| {
            let (mut out, mut nnz) = (MaybeUninit::uninit(), MaybeUninit::uninit());
            let (out, nnz) = K::ft_pairwise_both::<128, 64, 32, 254, 9, false>(&us, &them, &mut out, &mut nnz);
            (*out, nnz.to_vec())
        }, plain::ft_pairwise::<64>(&us, &them, 254, 9, false));
    }

    #[test]
    fn ft_pairwise_near_the_window(us in array::<i16, 256>(-300i16..600), them in array::<i16, 256>(-300i16..600)) {
        each_path!(|K| {
            let (mut out, mut nnz) = (MaybeUninit::uninit(), MaybeUninit::uninit());
            let (out, nnz) = K::ft_pairwise_both::<256, 128, 64, 255, 9, false>(&us, &them, &mut out, &mut nnz);
            (*out, nnz.to_vec())
        }, plain::ft_pairwise::<128>(&us, &them, 255, 9, false));
    }

    /// From `x86::ZMM_MIN_HALF` columns a half, the AVX512-VNNI path's 512-bit transform.
    #[test]
    fn ft_pairwise_wide(us in array::<i16, 512>(-300i16..600), them in array::<i16, 512>(-300i16..600)) {
        each_path!(|K| {
            let (mut out, mut nnz) = (MaybeUninit::uninit(), MaybeUninit::uninit());
            let (out, nnz) = K::ft_pairwise_both::<512, 256, 128, 255, 9, false>(&us, &them, &mut out, &mut nnz);
            (*out, nnz.to_vec())
        }, plain::ft_pairwise::<256>(&us, &them, 255, 9, false));
    }

    /// The AVX512-VNNI path's transform lists its non-zero chunks with `vpcompressw` where the
    /// CPU has VBMI2, with table lookups where not: both ways, whichever this CPU runs.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn ft_pairwise_zmm_lists_alike_both_ways(us in array::<i16, 512>(-300i16..600), them in array::<i16, 512>(-300i16..600)) {
        let want = plain::ft_pairwise::<256>(&us, &them, 255, 9, false);
        let [lookup, compress] = super::x86::ft_pairwise_zmm_both_ways::<512, 256, 128>(&us, &them);
        for (way, got) in [("lookup", lookup), ("vpcompressw", compress)] {
            match got {
                Some(got) => prop_assert_eq!(&got, &want, "{}", way),
                None => skipped_once(way),
            }
        }
    }

    /// bullet-trained multi-layer nets shift the pairwise product by 9 to 15.
    #[test]
    fn ft_pairwise_shifted(us in array::<i16, 128>(-300i16..600), them in array::<i16, 128>(-300i16..600)) {
        each_path!(|K| {
            let (mut out, mut nnz) = (MaybeUninit::uninit(), MaybeUninit::uninit());
            let (out, nnz) = K::ft_pairwise_both::<128, 64, 32, 255, 10, false>(&us, &them, &mut out, &mut nnz);
            (*out, nnz.to_vec())
        }, plain::ft_pairwise::<64>(&us, &them, 255, 10, false));
        each_path!(|K| {
            let (mut out, mut nnz) = (MaybeUninit::uninit(), MaybeUninit::uninit());
            let (out, nnz) = K::ft_pairwise_both::<128, 64, 32, 255, 15, false>(&us, &them, &mut out, &mut nnz);
            (*out, nnz.to_vec())
        }, plain::ft_pairwise::<64>(&us, &them, 255, 15, false));
    }

    /// cinder's rounded transform, `(clamp(a, 0, 127) · clamp(b, 0, 127) + 64) >> 7`, on any
    /// int16 (negative halves included), in ymm and in zmm (from `x86::ZMM_MIN_HALF` columns).
    #[test]
    fn ft_pairwise_rounded(us in array::<i16, 512>(any::<i16>()), them in array::<i16, 512>(-300i16..600)) {
        each_path!(|K| {
            let (mut out, mut nnz) = (MaybeUninit::uninit(), MaybeUninit::uninit());
            let (out, nnz) = K::ft_pairwise_both::<512, 256, 128, 127, 7, true>(&us, &them, &mut out, &mut nnz);
            (*out, nnz.to_vec())
        }, plain::ft_pairwise::<256>(&us, &them, 127, 7, true));
        let (us, them): (&[i16; 128], &[i16; 128]) = (us[..128].try_into().unwrap(), them[..128].try_into().unwrap());
        each_path!(|K| {
            let (mut out, mut nnz) = (MaybeUninit::uninit(), MaybeUninit::uninit());
            let (out, nnz) = K::ft_pairwise_both::<128, 64, 32, 127, 7, true>(us, them, &mut out, &mut nnz);
            (*out, nnz.to_vec())
        }, plain::ft_pairwise::<64>(us, them, 127, 7, true));
    }

    #[test]
    fn sfnn_fc0_act(x in array::<i32, 16>(act_input())) {
        each_path!(|K| K::sfnn_fc0_act(&x), plain::sfnn_fc0_act(&x));
    }

    #[test]
    fn sfnn_fc1_act(x in array::<i32, 32>(act_input())) {
        each_path!(|K| K::sfnn_fc1_act(&x), plain::sfnn_fc1_act(&x));
    }

    #[test]
    fn ft_clamp(acc in array::<i16, 64>(any::<i16>())) {
        each_path!(|K| { let mut out = [0u8; 64]; K::ft_clamp::<64>(&acc, &mut out); out }, plain::ft_clamp(&acc));
    }

    #[test]
    fn affine_sparse_16(input in chunks::<64>(), w in weights::<64, 16>(), b in array::<i32, 16>(bias())) {
        each_path!(|K| { let mut out = [0i32; 16]; K::affine_sparse::<64, 16>(&input, &w, &b, &mut out); out }, plain::affine(&input, &w, &b));
    }

    #[test]
    fn affine_sparse_16_wide(
        input in prop_oneof![chunks::<768>(), Just([[127u8; 4]; 768])],
        w in prop_oneof![weights::<768, 16>(), Just(Box::new([[[-128i8; 4]; 16]; 768])), Just(Box::new([[[127i8; 4]; 16]; 768]))],
        b in array::<i32, 16>(bias()),
    ) {
        // As wide as Stockfish's big net: the most chunks any one sum collects.
        each_path!(|K| { let mut out = [0i32; 16]; K::affine_sparse::<768, 16>(&input, &w, &b, &mut out); out }, plain::affine(&input, &w, &b));
    }

    #[test]
    fn affine_sparse_32(input in chunks::<32>(), w in weights::<32, 32>(), b in array::<i32, 32>(bias())) {
        each_path!(|K| { let mut out = [0i32; 32]; K::affine_sparse::<32, 32>(&input, &w, &b, &mut out); out }, plain::affine(&input, &w, &b));
    }

    #[test]
    fn affine_sparse_listed(input in chunks::<64>(), w in weights::<64, 16>(), b in array::<i32, 16>(bias())) {
        let nnz: Vec<u16> = (0..64).filter(|&c| input[c] != [0; 4]).map(|c| c as u16).collect();
        each_path!(|K| {
            let mut out = [0i32; 16];
            K::affine_sparse_listed::<64, 16>(&input, &w, &b, &mut out, &nnz);
            out
        }, plain::affine(&input, &w, &b));
    }

    /// Integral's int16 pair sums, with any bytes (so that `maddubs` saturates too) and every
    /// weight: equal on every path, wrapping included.
    #[test]
    fn affine_sparse_listed_pairs(input in prop::collection::vec(array::<u8, 4>(any::<u8>()), 64),
                                  zeros in prop::collection::vec(any::<bool>(), 64),
                                  w in weights::<64, 16>(), w32 in weights::<64, 32>(), b in array::<i32, 32>(bias())) {
        let mut x = [[0u8; 4]; 64];
        for (c, (v, z)) in input.iter().zip(&zeros).enumerate() {
            x[c] = if *z { [0; 4] } else { *v };
        }
        let nnz: Vec<u16> = (0..64).filter(|&c| x[c] != [0; 4]).map(|c| c as u16).collect();
        let b16: [i32; 16] = std::array::from_fn(|o| b[o]);
        each_path!(|K| {
            let mut out = [0i32; 16];
            K::affine_sparse_listed_pairs::<64, 16>(&x, &w, &b16, &mut out, &nnz);
            out
        }, plain::affine_pairs(&x, &w, &b16, &nnz));
        each_path!(|K| {
            let mut out = [0i32; 32];
            K::affine_sparse_listed_pairs::<64, 32>(&x, &w32, &b, &mut out, &nnz);
            out
        }, plain::affine_pairs(&x, &w32, &b, &nnz));
    }

    /// From `x86::ZMM_MIN_CHUNKS` chunks, the AVX512-VNNI path's 512-bit 16-output layer.
    #[test]
    fn affine_sparse_listed_wide(input in chunks::<256>(), w in weights::<256, 16>(), b in array::<i32, 16>(bias())) {
        let nnz: Vec<u16> = (0..256).filter(|&c| input[c] != [0; 4]).map(|c| c as u16).collect();
        each_path!(|K| {
            let mut out = [0i32; 16];
            K::affine_sparse_listed::<256, 16>(&input, &w, &b, &mut out, &nnz);
            out
        }, plain::affine(&input, &w, &b));
    }

    /// 32 outputs: Stockfish 19's fc_0 (two zmm registers a chunk on AVX512-VNNI).
    #[test]
    fn affine_sparse_listed_32(input in chunks::<64>(), w in weights::<64, 32>(), b in array::<i32, 32>(bias())) {
        let nnz: Vec<u16> = (0..64).filter(|&c| input[c] != [0; 4]).map(|c| c as u16).collect();
        each_path!(|K| {
            let mut out = [0i32; 32];
            K::affine_sparse_listed::<64, 32>(&input, &w, &b, &mut out, &nnz);
            out
        }, plain::affine(&input, &w, &b));
    }

    #[test]
    fn affine_dense(input in chunks::<8>(), w in weights::<8, 32>(), b in array::<i32, 32>(bias())) {
        each_path!(|K| { let mut out = [0i32; 32]; K::affine_dense::<8, 32>(&input, &w, &b, &mut out); out }, plain::affine(&input, &w, &b));
    }

    /// Stockfish 19's fc_1 (16 chunks): 512-bit on the AVX512-VNNI path.
    #[test]
    fn affine_dense_16_chunks(input in chunks::<16>(), w in weights::<16, 32>(), b in array::<i32, 32>(bias())) {
        each_path!(|K| { let mut out = [0i32; 32]; K::affine_dense::<16, 32>(&input, &w, &b, &mut out); out }, plain::affine(&input, &w, &b));
    }

    /// The multi-layer nets' int32 layers, products and sums wrapping.
    #[test]
    fn dense_i32(x in array::<i32, 32>(any::<i32>()), w in array::<[i32; 32], 32>(array::<i32, 32>(any::<i32>())), b in array::<i32, 32>(any::<i32>())) {
        each_path!(|K| K::dense_i32::<32, 32>(&x, &w, &b), plain::dense_i32(&x, &w, &b));
    }

    #[test]
    fn clamped_dot_i32(x in array::<i32, 32>(any::<i32>()), w in array::<i32, 32>(any::<i32>()), max in 0i32..=1 << 30, b in any::<i32>()) {
        each_path!(|K| K::clamped_dot_i32::<32>(&x, max, &w, b), plain::clamped_dot_i32(&x, max, &w, b));
    }

    #[test]
    fn affine_one(input in array::<u8, 32>(activation()), w in array::<i8, 32>(any::<i8>()), b in bias()) {
        each_path!(|K| K::affine_one::<32>(&input, &w, b), plain::affine_one(&input, &w, b));
    }

    /// At 32, 64 and 256 columns: the kernels' two- and four-chain sums (AVX2 and AVX-VNNI
    /// take four chains from 64 columns, AVX-512 from 128).
    #[test]
    fn chess768_output(
        us in array::<i16, 256>(any::<i16>()),
        them in array::<i16, 256>(any::<i16>()),
        w in array::<i16, 512>(any::<i16>()),
        qa in prop_oneof![Just(255i16), Just(181i16), Just(127i16), 1i16..=32767],
        screlu in any::<bool>(),
    ) {
        chess768_output_of::<32>(&us, &them, &w, qa, screlu)?;
        chess768_output_of::<64>(&us, &them, &w, qa, screlu)?;
        chess768_output_of::<256>(&us, &them, &w, qa, screlu)?;
    }
}

/// [`chess768_output`] on the first `N` columns of each side and weight row.
fn chess768_output_of<const N: usize>(
    us: &[i16],
    them: &[i16],
    w: &[i16],
    qa: i16,
    screlu: bool,
) -> Result<(), proptest::test_runner::TestCaseError> {
    let us: [i16; N] = us[..N].try_into().unwrap();
    let them: [i16; N] = them[..N].try_into().unwrap();
    let mut weights = [[0i16; N]; 2];
    weights[0].copy_from_slice(&w[..N]);
    weights[1].copy_from_slice(&w[N..2 * N]);
    // `screlu_in_i16` is what the loader proves: qa * max |w| fits int16.
    let screlu_in_i16 = weights.as_flattened().iter().all(|&x| i32::from(x).abs() * i32::from(qa) <= 32767);
    each_path!(
        |K| K::chess768_output::<N>(&us, &them, &weights, qa, screlu, screlu_in_i16),
        plain::chess768_output(&us, &them, &weights, qa, screlu)
    );
    // A hand-built config may claim `screlu_in_i16` falsely: every path then wraps `v * w`
    // in int16 alike (wrong, but the same everywhere).
    let wrapped = {
        let mut sum = 0i64;
        for (side, w) in [&us, &them].into_iter().zip(&weights) {
            for (&x, &w) in side.iter().zip(w) {
                let v = x.clamp(0, qa);
                sum += i64::from(v) * i64::from(v.wrapping_mul(w));
            }
        }
        plain::wrap(sum)
    };
    each_path!(|K| K::chess768_output::<N>(&us, &them, &weights, qa, true, true), wrapped);
    Ok(())
}

/// The x86 kernels whose offsets come from a run-time `nnz` list once carried the pasted
/// "const dimensions bound the offsets used": each `// SAFETY:` of a function that takes an
/// index list (`nnz`) or an index (`i: u16`) states the list's bound instead.
#[test]
fn safety_comments_of_listed_kernels_state_the_run_time_bound() {
    let source = include_str!("x86.rs");
    let pasted = "whose const dimensions bound the offsets used";
    let mut checked = 0;
    for (at, _) in source.match_indices("unsafe fn ") {
        let signature = &source[at..at + source[at..].find('{').unwrap_or(0)];
        if !(signature.contains("nnz: &[u16]") || signature.contains("i: u16")) {
            continue;
        }
        // The function's first SAFETY comment (its body's).
        let body = &source[at + signature.len()..];
        let safety = body.find("// SAFETY:").map(|s| &body[s..s + body[s..].find("unsafe {").unwrap_or(0)]);
        let name = signature.split(['<', '(']).next().unwrap_or(signature);
        assert!(safety.is_some_and(|s| !s.contains(pasted)), "{name}: {safety:?}");
        checked += 1;
    }
    assert!(checked >= 4, "{checked} functions with index lists");
}

/// WebAssembly's paths are the build's: SIMD128 with `+simd128`, relaxed SIMD with
/// `+simd128,+relaxed-simd` (its kernels then run in the tests above), and `KernelPath::best`
/// never relaxed SIMD, which a network runs only where its layers allow. (Relaxed SIMD also
/// needs the engine's dot product to pass the probe: under Node 20 without `--no-liftoff` it
/// doesn't, and this test fails rather than let the kernel tests skip the path.)
#[test]
#[cfg(target_arch = "wasm32")]
fn the_build_decides_the_wasm_paths() {
    use super::KernelPath;
    let simd128 = cfg!(target_feature = "simd128");
    assert_eq!(Isa::Simd128.is_available(), simd128);
    assert_eq!(Isa::RelaxedSimd.is_available(), simd128 && cfg!(target_feature = "relaxed-simd"));
    let want = if simd128 { Isa::Simd128 } else { Isa::Scalar };
    assert_eq!(KernelPath::best().isa(), want);
}

/// Relaxed SIMD runs its own kernels for a net only where they are exact (`exact`), SIMD128's
/// otherwise; every other path is itself. (Values only: nothing runs on the paths here.)
#[test]
fn relaxed_simd_stands_in_for_simd128_only_where_exact() {
    use super::KernelPath;
    for isa in Isa::ALL {
        let path = KernelPath(isa);
        assert_eq!(path.for_net(true), path, "{isa}");
        let want = if isa == Isa::RelaxedSimd { Isa::Simd128 } else { isa };
        assert_eq!(path.for_net(false).isa(), want, "{isa}");
    }
    assert_eq!(Isa::from_name("relaxed-simd"), Some(Isa::RelaxedSimd));
}
