//! Every SIMD kernel equals its scalar counterpart on random inputs, extremes included:
//! accumulators over the whole int16 range (every clamp and saturation), the full int8 weight
//! range, sparse and dense activations, int32 biases near the wrapping edge.

use std::mem::MaybeUninit;

use proptest::prelude::*;

use super::scalar::Scalar;
use super::{Isa, Kernels};

/// Runs `$body` with `K` bound to the kernels of each SIMD path of this target that this CPU
/// has, checking it against the scalar result `$want`.
macro_rules! each_path {
    (|$k:ident| $body:expr, $want:expr) => {{
        let want = {
            type $k = Scalar;
            // SAFETY: the portable kernels need no target features.
            unsafe { $body }
        };
        prop_assert_eq!(&want, &$want(want.clone()));
        #[cfg(target_arch = "x86_64")]
        {
            use super::x86::{Avx2, Avx512Vnni, AvxVnni};
            if Isa::Avx2.is_available() {
                type $k = Avx2;
                // SAFETY: AVX2 is available.
                prop_assert_eq!(&unsafe { $body }, &want, "avx2");
            }
            if Isa::AvxVnni.is_available() {
                type $k = AvxVnni;
                // SAFETY: AVX-VNNI is available.
                prop_assert_eq!(&unsafe { $body }, &want, "avxvnni");
            }
            if Isa::Avx512Vnni.is_available() {
                type $k = Avx512Vnni;
                // SAFETY: AVX512-VNNI and VL are available.
                prop_assert_eq!(&unsafe { $body }, &want, "avx512vnni");
            }
        }
        #[cfg(target_arch = "aarch64")]
        {
            use super::aarch64::{Dotprod, Neon};
            if Isa::Neon.is_available() {
                type $k = Neon;
                // SAFETY: NEON is available.
                prop_assert_eq!(&unsafe { $body }, &want, "neon");
            }
            if Isa::Dotprod.is_available() {
                type $k = Dotprod;
                // SAFETY: NEON and dotprod are available.
                prop_assert_eq!(&unsafe { $body }, &want, "dotprod");
            }
        }
    }};
}

fn same<T>(x: T) -> T {
    x
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn ft_pairwise(us in array::<i16, 128>(any::<i16>()), them in array::<i16, 128>(any::<i16>())) {
        each_path!(|K| {
            let (mut out, mut nnz) = (MaybeUninit::uninit(), MaybeUninit::uninit());
            let (out, nnz) = K::ft_pairwise_both::<128, 64, 32, 254>(&us, &them, &mut out, &mut nnz);
            (*out, nnz.to_vec())
        }, same);
    }

    #[test]
    fn ft_pairwise_near_the_window(us in array::<i16, 256>(-300i16..600), them in array::<i16, 256>(-300i16..600)) {
        each_path!(|K| {
            let (mut out, mut nnz) = (MaybeUninit::uninit(), MaybeUninit::uninit());
            let (out, nnz) = K::ft_pairwise_both::<256, 128, 64, 255>(&us, &them, &mut out, &mut nnz);
            (*out, nnz.to_vec())
        }, same);
    }

    #[test]
    fn sfnn_fc0_act(x in array::<i32, 16>(act_input())) {
        each_path!(|K| K::sfnn_fc0_act(&x), same);
    }

    #[test]
    fn sfnn_fc1_act(x in array::<i32, 32>(act_input())) {
        each_path!(|K| K::sfnn_fc1_act(&x), same);
    }

    #[test]
    fn ft_clamp(acc in array::<i16, 64>(any::<i16>())) {
        each_path!(|K| { let mut out = [0u8; 64]; K::ft_clamp::<64>(&acc, &mut out); out }, same);
    }

    #[test]
    fn affine_sparse_16(input in chunks::<64>(), w in weights::<64, 16>(), b in array::<i32, 16>(bias())) {
        each_path!(|K| { let mut out = [0i32; 16]; K::affine_sparse::<64, 16>(&input, &w, &b, &mut out); out }, same);
    }

    #[test]
    fn affine_sparse_16_wide(
        input in prop_oneof![chunks::<768>(), Just([[127u8; 4]; 768])],
        w in prop_oneof![weights::<768, 16>(), Just(Box::new([[[-128i8; 4]; 16]; 768])), Just(Box::new([[[127i8; 4]; 16]; 768]))],
        b in array::<i32, 16>(bias()),
    ) {
        // As wide as Stockfish's big net: the most chunks any one sum collects.
        each_path!(|K| { let mut out = [0i32; 16]; K::affine_sparse::<768, 16>(&input, &w, &b, &mut out); out }, same);
    }

    #[test]
    fn affine_sparse_32(input in chunks::<32>(), w in weights::<32, 32>(), b in array::<i32, 32>(bias())) {
        each_path!(|K| { let mut out = [0i32; 32]; K::affine_sparse::<32, 32>(&input, &w, &b, &mut out); out }, same);
    }

    #[test]
    fn affine_dense(input in chunks::<8>(), w in weights::<8, 32>(), b in array::<i32, 32>(bias())) {
        each_path!(|K| { let mut out = [0i32; 32]; K::affine_dense::<8, 32>(&input, &w, &b, &mut out); out }, same);
    }

    #[test]
    fn affine_one(input in array::<u8, 32>(activation()), w in array::<i8, 32>(any::<i8>()), b in bias()) {
        each_path!(|K| K::affine_one::<32>(&input, &w, b), same);
    }

    #[test]
    fn chess768_output(
        us in array::<i16, 64>(any::<i16>()),
        them in array::<i16, 64>(any::<i16>()),
        w in array::<i16, 128>(any::<i16>()),
        qa in prop_oneof![Just(255i16), Just(181i16), Just(127i16), 1i16..=32767],
        screlu in any::<bool>(),
    ) {
        let mut weights = [[0i16; 64]; 2];
        weights[0].copy_from_slice(&w[..64]);
        weights[1].copy_from_slice(&w[64..]);
        // `screlu_in_i16` is what the loader proves: qa * max |w| fits int16.
        let screlu_in_i16 = w.iter().all(|&x| i32::from(x).abs() * i32::from(qa) <= 32767);
        each_path!(|K| K::chess768_output::<64>(&us, &them, &weights, qa, screlu, screlu_in_i16), same);
    }
}
