//! The layers after the accumulators of a net loaded at run time: the description's steps
//! ([`Architecture::layers`](nnue_format::Architecture::layers)) resolved once, when the net is
//! loaded, into calls of the same layer kernels `nnue_net!` emits for a net it compiles. Each
//! layer's arrays are found by their layout names, each activation is written in the byte
//! order the next layer's stored weights read (as the macro does), and every size is checked
//! against the kernels compiled for run-time use, so that an evaluation only runs the calls.
//!
//! The kernels are const-dimensioned: a size no kernel here is compiled for is an error when
//! the net is loaded (`nnue_net!` compiles any size).

use std::collections::HashMap;

use bytemuck::Pod;
use nnue_format::layers::{Bucket, Layers, Param, Reg, Transform};
use nnue_format::layout::{param_arrays, Elem, InputOrder};
use nnue_format::lower::{lower, Call, Kind, ListedSums, Part};

use super::{LayersError, LoadError};
use crate::layers::MAX_CHAINS;
use crate::layers::{
    add_f32, affine_chains_f32, affine_dense, affine_f32, affine_i32, affine_listed, affine_listed_fours,
    affine_listed_pairs, affine_one, affine_sparse, clamp_square, clamped_dot_i32, clipped, clipped_both, crelu_f32,
    crelu_output, dequant, dot_f32, dual_f32, dual_i32, dual_wide_i32, f32_bits, f32_to_int, hard_swish_f32, lanes_f32,
    psqt, screlu_f32, screlu_output, shift_bias, signed_square_f32, skip_output_wide_i32, sqr_clipped_and_clipped,
    swiglu_f32, unpack_sfnn_fc0_act, unpack_sfnn_fc1_act, Forward, On, Pairwise, PairwiseScratch, SfnnFc0Act,
    SfnnFc1Act, Sparse,
};
use crate::network::{Accumulator, Evaluation, Trace};
use crate::position::Color;
use crate::simd::scalar::Scalar;
use crate::simd::{Isa, Kernels};

/// Values a program's registers hold, per kind (sums, floats, bytes): each register is a
/// range of one of these, placed when the program is built (Stormphrax 8's stack holds some
/// 270 int32 values).
const ARENA: usize = 512;

/// Runs `$body` with `$n` as the const `$N`, for each size listed (the sizes the kernels are
/// compiled for at run time; [`Program::new`] refuses the others).
macro_rules! sized {
    ($n:expr; $($size:literal)|+ => |$N:ident| $body:expr) => {
        match $n {
            $($size => {
                const $N: usize = $size;
                $body
            })+
            _ => unreachable!("sizes are checked when the program is built"),
        }
    };
}

/// The sizes [`sized!`] dispatches over, per kind of kernel (kept beside each use).
const LISTED_OUT: &[usize] = &[16, 32];
const SPARSE_OUT: &[usize] = &[32];
const DENSE_IN_OUT: &[(usize, usize)] = &[(32, 32), (64, 32)];
const ONE_IN: &[usize] = &[32, 64, 128];
const VECTOR: &[usize] = &[16, 32, 64];

/// How the accumulators become `r0`, and the type that carries the transform's dimensions:
/// the kernels of each transform are instantiated only for the views that read it.
pub trait Input {
    /// The four-byte chunks the first layer reads (0: it reads the accumulators).
    const CHUNKS: usize;
    /// The accumulator columns per perspective the first layer reads itself (a single-layer
    /// net's output layer; 0 for the others).
    const COLUMNS: usize = 0;
    /// Whether this input runs `transform`.
    fn runs(transform: Transform) -> bool;
    /// Whether this input's first layer has a kernel for `n` outputs (`pairs`: summed in
    /// int16 pairs).
    fn listed(n: usize, pairs: bool) -> bool {
        let _ = pairs;
        LISTED_OUT.contains(&n)
    }
}

/// A pairwise transform of `HALF` products per perspective (`CHUNKS` = HALF / 2 four-byte
/// chunks in all), clamped at 255 and shifted by 9 to 15 (or cinder's: clamped at 127, rounded,
/// shifted by 7), read by a listed sparse layer of 16 or 32 outputs: the multi-layer nets.
#[derive(Debug, Clone, Copy)]
pub struct PairwiseInput<const HALF: usize, const CHUNKS: usize>;
impl<const HALF: usize, const CHUNKS: usize> Input for PairwiseInput<HALF, CHUNKS> {
    const CHUNKS: usize = CHUNKS;
    fn runs(transform: Transform) -> bool {
        matches!(
            transform,
            Transform::Pairwise { max: 255, shift: 9..=15, round: false }
                | Transform::Pairwise { max: 127, shift: 7, round: true }
        )
    }
}

/// Stockfish's pairwise transform (clamped at `MAX`, 254 on 15.1–17.1's doubled accumulators,
/// 255 after; shifted by 9) read by its fc_0 of `OUT` outputs: Stockfish 15.1–19. (Its own
/// kind, so that each view compiles only its own transform and first layer.)
#[derive(Debug, Clone, Copy)]
pub struct StockfishInput<const HALF: usize, const CHUNKS: usize, const MAX: i16, const OUT: usize>;
impl<const HALF: usize, const CHUNKS: usize, const MAX: i16, const OUT: usize> Input
    for StockfishInput<HALF, CHUNKS, MAX, OUT>
{
    const CHUNKS: usize = CHUNKS;
    fn runs(transform: Transform) -> bool {
        transform == Transform::Pairwise { max: i32::from(MAX), shift: 9, round: false }
    }
    fn listed(n: usize, pairs: bool) -> bool {
        n == OUT && !pairs
    }
}

/// Both perspectives' accumulators clipped to bytes (`CHUNKS` = L1 / 2 chunks) read by a
/// sparse layer: HalfKP.
#[derive(Debug, Clone, Copy)]
pub struct ClippedInput<const CHUNKS: usize>;
impl<const CHUNKS: usize> Input for ClippedInput<CHUNKS> {
    const CHUNKS: usize = CHUNKS;
    fn runs(transform: Transform) -> bool {
        matches!(transform, Transform::Clipped { bytes: true, .. })
    }
}

/// The accumulators (`N` columns per perspective) read by the output layer itself: the
/// single-layer nets.
#[derive(Debug, Clone, Copy)]
pub struct AccumulatorInput<const N: usize>;
impl<const N: usize> Input for AccumulatorInput<N> {
    const CHUNKS: usize = 0;
    const COLUMNS: usize = N;
    fn runs(transform: Transform) -> bool {
        matches!(transform, Transform::Clipped { bytes: false, .. })
    }
}

/// One array of the fast layout, as the program reads it.
#[derive(Clone, Copy)]
pub(crate) struct ArrayRef<'w> {
    pub elem: Elem,
    pub dims: &'w [usize],
    pub bytes: &'w [u8],
}

/// A register's place: an offset into the arena of its kind.
type At = usize;

/// The layer reading `r0`.
#[derive(Debug, Clone)]
enum First<'w> {
    /// `affine_listed` (or `_pairs`) of a pairwise transform, `n` outputs.
    Listed { w: &'w [i8], b: Option<&'w [i32]>, n: usize, sums: ListedSums, out: At },
    /// `affine_sparse` of both clipped perspectives.
    Sparse { w: &'w [i8], b: &'w [i32], n: usize, out: At },
    /// A single-layer net's output sum, CReLU or SCReLU.
    Output { w: &'w [i16], qa: i16, screlu: Option<bool>, out: At },
}

/// One step after the first layer, its arrays and registers resolved.
#[derive(Debug, Clone)]
enum Op<'w> {
    Dense { w: &'w [i8], b: &'w [i32], x: At, inputs: usize, n: usize, out: At },
    One { w: &'w [i8], b: &'w [i32], x: At, inputs: usize, out: At },
    SfnnFc0Act { x: At, out: At },
    SfnnFc1Act { x: At, out: At },
    Clipped { x: At, n: usize, shift: u32, out: At },
    SqrClipped { x: At, n: usize, sqr: u32, shift: u32, out: At },
    CopyBytes { x: At, n: usize, out: At },
    Mul { x: At, k: i32, out: At },
    Div { x: At, k: i32, out: At },
    Add { a: At, b: At, out: At },
    Sub { a: At, b: At, out: At },
    AddBiasI16 { x: At, b: &'w [i16], out: At },
    Dequant { x: At, n: usize, num: u32, den: u32, b: &'w [i32], out: At },
    DualF32 { x: At, n: usize, out: At },
    CopyF32 { x: At, n: usize, out: At },
    ScreluF32 { x: At, n: usize, out: At },
    ClampF32 { x: At, n: usize, out: At },
    HardSwishF32 { x: At, n: usize, out: At },
    SwigluF32 { x: At, n: usize, out: At },
    AddF32 { a: At, b: At, n: usize, out: At },
    AffineF32 { x: At, inputs: usize, w: &'w [i32], b: &'w [i32], n: usize, out: At },
    DotF32 { x: At, inputs: usize, w: &'w [i32], b: &'w [i32], out: At },
    SignedSquareF32 { x: At, n: usize, out: At },
    AffineChainsF32 { x: At, inputs: usize, w: &'w [i32], b: &'w [i32], n: usize, chains: usize, out: At },
    LanesF32 { x: At, inputs: usize, w: &'w [i32], b: &'w [i32], lanes: usize, skip: usize, out: At },
    F32ToInt { x: At, scale: i32, clamp: Option<i32>, out: At },
    ShiftBias { x: At, n: usize, shift: u32, b: &'w [i32], out: At },
    DualI32 { x: At, n: usize, q_bits: u32, out: At },
    ClampSquare { x: At, n: usize, q_bits: u32, out: At },
    AffineI32 { x: At, inputs: usize, w: &'w [i32], b: &'w [i32], n: usize, out: At },
    ClampedDotI32 { x: At, inputs: usize, max: i32, w: &'w [i32], b: &'w [i32], out: At },
    DualWideI32 { x: At, n: usize, q_bits: u32, shift: u32, out: At },
    SkipOutput { x: At, s: At, inputs: usize, max: i32, w: &'w [i32], b: &'w [i32], scale: i32, bits: u32, out: At },
}

/// A traced register, as the trace records it.
#[derive(Debug, Clone, Copy)]
enum Traced {
    I32 { at: At, len: usize },
    F32 { at: At, len: usize },
    Bytes { at: At, len: usize, order: InputOrder },
}

/// The layers after the accumulators of one net, ready to run on any path.
#[derive(Debug, Clone)]
pub struct Program<'w, I> {
    input: std::marker::PhantomData<fn() -> I>,
    bucket: Bucket,
    transform: Transform,
    first: First<'w>,
    steps: Steps<'w>,
    /// [`Layers::int8_inputs_fit_7_bits`] of the layers: whether the relaxed-SIMD path runs
    /// its own kernels for this net.
    int8_fit_7_bits: bool,
}

/// The registers of one evaluation.
struct Arena {
    i: [i32; ARENA],
    f: [f32; ARENA],
    b: [u8; ARENA],
}

thread_local! {
    /// This thread's registers, kept between evaluations (clearing them would cost more than
    /// a small layer): every register is written before it is read.
    static ARENA_OF_THREAD: std::cell::Cell<Option<Box<Arena>>> = const { std::cell::Cell::new(None) };
}

/// The thread's registers while an evaluation runs (given back when dropped). Not a closure
/// API: a closure would not inherit the kernels' target features.
struct Held(Option<Box<Arena>>);

impl Held {
    #[inline(always)]
    fn take() -> Held {
        let arena = ARENA_OF_THREAD.with(std::cell::Cell::take);
        Held(Some(arena.unwrap_or_else(|| Box::new(Arena { i: [0; ARENA], f: [0.0; ARENA], b: [0; ARENA] }))))
    }
}

impl std::ops::Deref for Held {
    type Target = Arena;
    #[inline(always)]
    fn deref(&self) -> &Arena {
        self.0.as_deref().expect("held until dropped")
    }
}

impl std::ops::DerefMut for Held {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut Arena {
        self.0.as_deref_mut().expect("held until dropped")
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let arena = self.0.take();
        ARENA_OF_THREAD.with(|cell| cell.set(arena));
    }
}

/// `all`'s part for `bucket`, as `U` (its size a multiple of `T`'s; the program checked the
/// array holds every bucket's part).
#[inline(always)]
fn part<T: Pod, U: Pod>(all: &[T], bucket: usize) -> &U {
    let n = std::mem::size_of::<U>() / std::mem::size_of::<T>();
    bytemuck::from_bytes(bytemuck::cast_slice(&all[bucket * n..][..n]))
}

/// `N` values of an arena from `at`.
#[inline(always)]
fn get<T: Pod, const N: usize>(arena: &[T], at: At) -> &[T; N] {
    arena[at..at + N].try_into().expect("registers are placed inside the arena")
}

#[inline(always)]
fn put<T: Pod, const N: usize>(arena: &mut [T], at: At, x: [T; N]) {
    arena[at..at + N].copy_from_slice(&x);
}

impl<'w, I: Input> Program<'w, I> {
    /// The program of `layers` over `arrays` (by layout name), whose layers read their input
    /// in `order`; `screlu_in_i16` as the layout's single-layer config says.
    pub(crate) fn new(
        layers: &Layers,
        arrays: &HashMap<&'static str, ArrayRef<'w>>,
        order: &dyn Fn(Param) -> InputOrder,
        screlu_in_i16: bool,
    ) -> Result<Self, LoadError> {
        let buckets = layers.bucket.count();
        let max_bucket = crate::network::PIECES.map(|p| layers.bucket.of(p)).max().unwrap_or(0);
        if max_bucket >= buckets {
            return Err(LayersError::Bucket { bucket: max_bucket, buckets }.into());
        }
        if !I::runs(layers.transform) {
            return Err(LayersError::Transform(layers.transform).into());
        }
        let input = InputShape { chunks: I::CHUNKS, columns: I::COLUMNS, listed: I::listed };
        let (first, steps) = build(layers, arrays, order, screlu_in_i16, buckets, input)?;
        Ok(Program {
            input: std::marker::PhantomData,
            bucket: layers.bucket,
            transform: layers.transform,
            first,
            steps,
            int8_fit_7_bits: layers.int8_inputs_fit_7_bits(),
        })
    }
}

/// What the builder needs of the input kind (a value, so that the builder is compiled once).
struct InputShape {
    chunks: usize,
    columns: usize,
    listed: fn(usize, bool) -> bool,
}

/// The first layer and the steps after it (see [`Program::new`]), from the one lowering the
/// macro shares ([`lower`]): here each call gets its arrays, its registers' places and the
/// run-time kernels' size checks.
fn build<'w>(
    layers: &Layers,
    arrays: &HashMap<&'static str, ArrayRef<'w>>,
    order: &dyn Fn(Param) -> InputOrder,
    screlu_in_i16: bool,
    buckets: usize,
    input: InputShape,
) -> Result<(First<'w>, Steps<'w>), LoadError> {
    let outputs = |param: Param| {
        let a = arrays.get(format!("{}_biases", param_arrays(param)).as_str())?;
        Some(a.dims.iter().product::<usize>() / buckets.max(1))
    };
    let lowered = lower(layers, &outputs, order)?;
    let mut b = Builder {
        input,
        arrays,
        buckets,
        at: HashMap::new(),
        next: [0; 3],
        first: None,
        ops: Vec::new(),
        screlu_in_i16,
    };
    for call in &lowered.calls {
        b.call(call)?;
    }
    let positional = b.at(lowered.positional)?;
    let traced = lowered
        .traced
        .iter()
        .map(|&(reg, _)| {
            let at = b.at(reg)?;
            Ok(match lowered.kinds[&reg] {
                Kind::Int => Traced::I32 { at, len: 1 },
                Kind::Ints(len) => Traced::I32 { at, len },
                Kind::Float => Traced::F32 { at, len: 1 },
                Kind::Floats(len) => Traced::F32 { at, len },
                Kind::Bytes(len, order) => Traced::Bytes { at, len, order },
            })
        })
        .collect::<Result<_, LoadError>>()?;
    let first = b.first.ok_or(LayersError::NoFirstLayer)?;
    Ok((first, Steps { ops: b.ops, positional, psqt_div: layers.psqt_div, traced }))
}

/// The steps after the first layer (they read registers only): compiled once per path, here,
/// rather than in every net's forward pass, whose first layer alone depends on its width.
#[derive(Debug, Clone)]
struct Steps<'w> {
    ops: Vec<Op<'w>>,
    positional: At,
    psqt_div: Option<i32>,
    traced: Vec<Traced>,
}

impl Steps<'_> {
    /// Every step, then the evaluation (and the trace).
    ///
    /// # Safety
    /// The caller holds `K`'s path.
    #[inline(always)]
    unsafe fn finish_k<K: Kernels>(
        &self,
        a: &mut Arena,
        bucket: usize,
        psqt: i32,
        trace: Option<&mut Trace>,
    ) -> Evaluation {
        // SAFETY: the caller holds `K`'s path.
        let k = unsafe { On::<K>::new() };
        for op in &self.ops {
            run(k, op, a, bucket);
        }
        if let Some(t) = trace {
            for &traced in &self.traced {
                match traced {
                    Traced::I32 { at, len } => t.dense.push(a.i[at..at + len].to_vec()),
                    Traced::F32 { at, len } => t.dense.push(f32_bits(&a.f[at..at + len])),
                    Traced::Bytes { at, len, order } => t.activations.push(match order {
                        InputOrder::Canonical => a.b[at..at + len].to_vec(),
                        InputOrder::SfnnFc0Act => unpack_sfnn_fc0_act(get(&a.b, at)),
                        InputOrder::SfnnFc1Act => unpack_sfnn_fc1_act(get(&a.b, at)),
                    }),
                }
            }
        }
        let psqt = match self.psqt_div {
            Some(d) => psqt / d,
            None => 0,
        };
        Evaluation { bucket, psqt, positional: a.i[self.positional] }
    }

    #[inline(never)]
    fn finish_scalar(&self, a: &mut Arena, bucket: usize, psqt: i32, trace: Option<&mut Trace>) -> Evaluation {
        // SAFETY: the portable kernels need no target features.
        unsafe { self.finish_k::<Scalar>(a, bucket, psqt, trace) }
    }

    crate::simd::entry_points!(fn finish_k [finish_avx2, finish_avxvnni, finish_avx512vnni, finish_neon, finish_dotprod, finish_simd128]
        (&self, a: &mut Arena, bucket: usize, psqt: i32, trace: Option<&mut Trace>) -> Evaluation);

    /// The end of a pairwise transform's forward pass, its first layer's sums in `a`: the
    /// transform's bytes to the trace, the PSQT part, the steps.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn after_pairwise<K: Kernels, const L1: usize, const P: usize, const HALF: usize, const CHUNKS: usize>(
        &self,
        k: On<K>,
        acc: &Accumulator<L1, P>,
        stm: Color,
        bucket: usize,
        ft: &Sparse<'_, HALF, CHUNKS>,
        a: &mut Arena,
        mut trace: Option<&mut Trace>,
    ) -> Evaluation {
        if let Some(t) = trace.as_deref_mut() {
            t.ft_out = ft.bytes().to_vec();
        }
        let psqt = if P > 0 { psqt(acc, stm, bucket) } else { 0 };
        self.finish(k, a, bucket, psqt, trace)
    }

    /// [`Steps::finish_k`] on `K`'s path, through the function compiled for it.
    #[inline(always)]
    fn finish<K: Kernels>(
        &self,
        _: On<K>,
        a: &mut Arena,
        bucket: usize,
        psqt: i32,
        trace: Option<&mut Trace>,
    ) -> Evaluation {
        match K::ISA {
            Isa::Scalar => self.finish_scalar(a, bucket, psqt, trace),
            // SAFETY: an `On<K>` exists only where this CPU has `K`'s features, and `K::ISA`
            // names the path of `K`, whose function needs those features.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { self.finish_avx2(a, bucket, psqt, trace) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Isa::AvxVnni => unsafe { self.finish_avxvnni(a, bucket, psqt, trace) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512Vnni => unsafe { self.finish_avx512vnni(a, bucket, psqt, trace) },
            // SAFETY: as above.
            #[cfg(target_arch = "aarch64")]
            Isa::Neon => unsafe { self.finish_neon(a, bucket, psqt, trace) },
            // SAFETY: as above.
            #[cfg(target_arch = "aarch64")]
            Isa::Dotprod => unsafe { self.finish_dotprod(a, bucket, psqt, trace) },
            // SAFETY: as above (on wasm32, the build's target features).
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Isa::Simd128 => unsafe { self.finish_simd128(a, bucket, psqt, trace) },
            // SAFETY: as above: the build's target features (SIMD128 and relaxed SIMD), which
            // need no entry point of their own.
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128", target_feature = "relaxed-simd"))]
            Isa::RelaxedSimd => unsafe { self.finish_k::<K>(a, bucket, psqt, trace) },
            _ => unreachable!("a kernel set exists only for paths of this target"),
        }
    }
}

impl<const L1: usize, const P: usize, const HALF: usize, const CHUNKS: usize> Forward<Accumulator<L1, P>>
    for Program<'_, PairwiseInput<HALF, CHUNKS>>
{
    fn int8_inputs_fit_7_bits(&self) -> bool {
        self.int8_fit_7_bits
    }

    #[inline(always)]
    fn forward<K: Kernels>(
        &self,
        k: On<K>,
        acc: &Accumulator<L1, P>,
        stm: Color,
        pieces: usize,
        trace: Option<&mut Trace>,
    ) -> Evaluation {
        let bucket = self.bucket.of(pieces);
        let mut scratch = PairwiseScratch::<HALF, CHUNKS>::new();
        let Transform::Pairwise { shift, round, .. } = self.transform else { unreachable!("a pairwise program") };
        let ft: Sparse<'_, HALF, CHUNKS> = match shift {
            // cinder's (`runs` admits no other rounded transform).
            _ if round => Pairwise::<127, 7, true>::apply(k, acc, stm, &mut scratch),
            9 => Pairwise::<255, 9>::apply(k, acc, stm, &mut scratch),
            10 => Pairwise::<255, 10>::apply(k, acc, stm, &mut scratch),
            11 => Pairwise::<255, 11>::apply(k, acc, stm, &mut scratch),
            12 => Pairwise::<255, 12>::apply(k, acc, stm, &mut scratch),
            13 => Pairwise::<255, 13>::apply(k, acc, stm, &mut scratch),
            14 => Pairwise::<255, 14>::apply(k, acc, stm, &mut scratch),
            _ => Pairwise::<255, 15>::apply(k, acc, stm, &mut scratch),
        };
        let mut held = Held::take();
        let a = &mut *held;
        let First::Listed { w, b, n, sums, out } = self.first else { unreachable!("a listed first layer") };
        sized!(n; 16 | 32 => |N| {
            let w = part::<i8, [[[i8; 4]; N]; CHUNKS]>(w, bucket);
            let b = b.map_or(&[0; N], |b| part::<i32, [i32; N]>(b, bucket));
            let y = match sums {
                ListedSums::Exact => affine_listed(k, &ft, w, b),
                ListedSums::Pairs => affine_listed_pairs(k, &ft, w, b),
                ListedSums::Fours => affine_listed_fours(k, &ft, w, b),
            };
            put(&mut a.i, out, y);
        });
        self.steps.after_pairwise(k, acc, stm, bucket, &ft, a, trace)
    }
}

impl<const L1: usize, const P: usize, const HALF: usize, const CHUNKS: usize, const MAX: i16, const OUT: usize>
    Forward<Accumulator<L1, P>> for Program<'_, StockfishInput<HALF, CHUNKS, MAX, OUT>>
{
    fn int8_inputs_fit_7_bits(&self) -> bool {
        self.int8_fit_7_bits
    }

    #[inline(always)]
    fn forward<K: Kernels>(
        &self,
        k: On<K>,
        acc: &Accumulator<L1, P>,
        stm: Color,
        pieces: usize,
        trace: Option<&mut Trace>,
    ) -> Evaluation {
        let bucket = self.bucket.of(pieces);
        let mut scratch = PairwiseScratch::<HALF, CHUNKS>::new();
        let ft = Pairwise::<MAX, 9>::apply(k, acc, stm, &mut scratch);
        let mut held = Held::take();
        let a = &mut *held;
        let First::Listed { w, b, out, .. } = self.first else { unreachable!("a listed first layer") };
        let b = b.map_or(&[0; OUT], |b| part::<i32, [i32; OUT]>(b, bucket));
        put(&mut a.i, out, affine_listed(k, &ft, part::<i8, [[[i8; 4]; OUT]; CHUNKS]>(w, bucket), b));
        self.steps.after_pairwise(k, acc, stm, bucket, &ft, a, trace)
    }
}

impl<const L1: usize, const P: usize, const CHUNKS: usize> Forward<Accumulator<L1, P>>
    for Program<'_, ClippedInput<CHUNKS>>
{
    fn int8_inputs_fit_7_bits(&self) -> bool {
        self.int8_fit_7_bits
    }

    #[inline(always)]
    fn forward<K: Kernels>(
        &self,
        k: On<K>,
        acc: &Accumulator<L1, P>,
        stm: Color,
        pieces: usize,
        mut trace: Option<&mut Trace>,
    ) -> Evaluation {
        let bucket = self.bucket.of(pieces);
        let ft = clipped_both(k, acc, stm);
        let mut held = Held::take();
        let a = &mut *held;
        let First::Sparse { w, b, n, out } = self.first else { unreachable!("a sparse first layer") };
        sized!(n; 32 => |N| {
            let y = affine_sparse(k, &ft, part::<i8, [[[i8; 4]; N]; CHUNKS]>(w, bucket), part(b, bucket));
            put::<i32, N>(&mut a.i, out, y);
        });
        if let Some(t) = trace.as_deref_mut() {
            t.ft_out = ft.concat();
        }
        let psqt = if P > 0 { psqt(acc, stm, bucket) } else { 0 };
        self.steps.finish(k, a, bucket, psqt, trace)
    }
}

impl<const N: usize> Forward<Accumulator<N, 0>> for Program<'_, AccumulatorInput<N>> {
    fn int8_inputs_fit_7_bits(&self) -> bool {
        self.int8_fit_7_bits
    }

    #[inline(always)]
    fn forward<K: Kernels>(
        &self,
        k: On<K>,
        acc: &Accumulator<N, 0>,
        stm: Color,
        pieces: usize,
        trace: Option<&mut Trace>,
    ) -> Evaluation {
        let bucket = self.bucket.of(pieces);
        let mut held = Held::take();
        let a = &mut *held;
        let First::Output { w, qa, screlu, out } = self.first else { unreachable!("an output layer first") };
        let w = part::<i16, [[i16; N]; 2]>(w, bucket);
        a.i[out] = match screlu {
            None => crelu_output(k, acc, stm, w, qa),
            Some(in_i16) => screlu_output(k, acc, stm, w, qa, in_i16),
        };
        self.steps.finish(k, a, bucket, 0, trace)
    }
}

/// One step.
#[inline(always)]
fn run<K: Kernels>(k: On<K>, op: &Op<'_>, a: &mut Arena, bucket: usize) {
    match *op {
        Op::Dense { w, b, x, inputs, n, out } => match (inputs, n) {
            (32, 32) => put(
                &mut a.i,
                out,
                affine_dense(k, get::<u8, 32>(&a.b, x), part::<i8, [[[i8; 4]; 32]; 8]>(w, bucket), part(b, bucket)),
            ),
            (64, 32) => put(
                &mut a.i,
                out,
                affine_dense(k, get::<u8, 64>(&a.b, x), part::<i8, [[[i8; 4]; 32]; 16]>(w, bucket), part(b, bucket)),
            ),
            _ => unreachable!("sizes are checked when the program is built"),
        },
        Op::One { w, b, x, inputs, out } => {
            let b = b[bucket];
            a.i[out] = sized!(inputs; 32 | 64 | 128 => |IN| affine_one(k, get::<u8, IN>(&a.b, x), part(w, bucket), b));
        }
        Op::SfnnFc0Act { x, out } => put(&mut a.b, out, SfnnFc0Act::apply(k, get(&a.i, x))),
        Op::SfnnFc1Act { x, out } => put(&mut a.b, out, SfnnFc1Act::apply(k, get(&a.i, x))),
        Op::Clipped { x, n, shift, out } => {
            sized!(n; 16 | 32 | 64 => |N| put::<u8, N>(&mut a.b, out, clipped(get(&a.i, x), shift)))
        }
        Op::SqrClipped { x, n, sqr, shift, out } => sized!(n; 16 | 32 | 64 => |N| {
            let x: [i32; N] = *get(&a.i, x);
            sqr_clipped_and_clipped(&x, sqr, shift, &mut a.b[out..out + 2 * N]);
        }),
        Op::CopyBytes { x, n, out } => a.b.copy_within(x..x + n, out),
        Op::Mul { x, k, out } => a.i[out] = a.i[x].wrapping_mul(k),
        Op::Div { x, k, out } => a.i[out] = a.i[x] / k,
        Op::Add { a: x, b: y, out } => a.i[out] = a.i[x].wrapping_add(a.i[y]),
        Op::Sub { a: x, b: y, out } => a.i[out] = a.i[x].wrapping_sub(a.i[y]),
        Op::AddBiasI16 { x, b, out } => a.i[out] = a.i[x].wrapping_add(i32::from(b[bucket])),
        Op::Dequant { x, n, num, den, b, out } => sized!(n; 16 | 32 | 64 => |N| {
            put::<f32, N>(&mut a.f, out, dequant(get(&a.i, x), num, den, part(b, bucket)))
        }),
        Op::DualF32 { x, n, out } => sized!(n; 16 | 32 | 64 => |N| {
            let y: [f32; N] = *get(&a.f, x);
            put::<f32, { 2 * N }>(&mut a.f, out, dual_f32::<N, { 2 * N }>(&y));
        }),
        // One part of a concatenation of f32 values (a skip connection).
        Op::CopyF32 { x, n, out } => a.f.copy_within(x..x + n, out),
        Op::ScreluF32 { x, n, out } => {
            sized!(n; 16 | 32 | 64 => |N| { let y: [f32; N] = screlu_f32(get(&a.f, x)); put(&mut a.f, out, y) })
        }
        Op::ClampF32 { x, n, out } => {
            sized!(n; 16 | 32 | 64 => |N| { let y: [f32; N] = crelu_f32(get(&a.f, x)); put(&mut a.f, out, y) })
        }
        Op::HardSwishF32 { x, n, out } => {
            sized!(n; 16 | 32 | 64 => |N| { let y: [f32; N] = hard_swish_f32(get(&a.f, x)); put(&mut a.f, out, y) })
        }
        Op::SwigluF32 { x, n, out } => sized!(n; 16 | 32 | 64 => |N| {
            let y: [f32; 2 * N] = *get(&a.f, x);
            put::<f32, N>(&mut a.f, out, swiglu_f32::<{ 2 * N }, N>(&y));
        }),
        Op::AddF32 { a: x, b: y, n, out } => sized!(n; 16 | 32 | 64 => |N| {
            let z: [f32; N] = add_f32(get(&a.f, x), get(&a.f, y));
            put(&mut a.f, out, z)
        }),
        Op::AffineF32 { x, inputs, w, b, n, out } => {
            sized!(inputs; 16 | 32 | 64 => |IN| sized!(n; 16 | 32 | 64 => |OUT| {
                let y = affine_f32::<IN, OUT>(get(&a.f, x), part(w, bucket), part(b, bucket));
                put(&mut a.f, out, y)
            }))
        }
        Op::DotF32 { x, inputs, w, b, out } => sized!(inputs; 16 | 32 | 64 => |IN| {
            a.f[out] = dot_f32::<IN>(get(&a.f, x), part(w, bucket), b[bucket]);
        }),
        Op::SignedSquareF32 { x, n, out } => sized!(n; 16 | 32 | 64 => |N| {
            let y: [f32; N] = *get(&a.f, x);
            put::<f32, { 2 * N }>(&mut a.f, out, signed_square_f32::<N, { 2 * N }>(&y));
        }),
        Op::AffineChainsF32 { x, inputs, w, b, n, chains, out } => {
            sized!(inputs; 16 | 32 | 64 => |IN| sized!(n; 16 | 32 | 64 => |OUT| {
                let y = affine_chains_f32::<IN, OUT>(get(&a.f, x), part(w, bucket), part(b, bucket), chains);
                put(&mut a.f, out, y)
            }))
        }
        Op::LanesF32 { x, inputs, w, b, lanes, skip, out } => sized!(inputs; 16 | 32 | 64 => |IN| {
            a.f[out] = lanes_f32::<IN>(get(&a.f, x), part(w, bucket), b[bucket], lanes, skip);
        }),
        Op::F32ToInt { x, scale, clamp, out } => a.i[out] = f32_to_int(a.f[x], scale, clamp),
        Op::ShiftBias { x, n, shift, b, out } => sized!(n; 16 | 32 | 64 => |N| {
            let y: [i32; N] = shift_bias(get(&a.i, x), shift, part(b, bucket));
            put(&mut a.i, out, y)
        }),
        Op::DualI32 { x, n, q_bits, out } => sized!(n; 16 | 32 | 64 => |N| {
            let y: [i32; N] = *get(&a.i, x);
            put::<i32, { 2 * N }>(&mut a.i, out, dual_i32::<N, { 2 * N }>(&y, q_bits));
        }),
        Op::ClampSquare { x, n, q_bits, out } => {
            sized!(n; 16 | 32 | 64 => |N| { let y: [i32; N] = clamp_square(get(&a.i, x), q_bits); put(&mut a.i, out, y) })
        }
        Op::AffineI32 { x, inputs, w, b, n, out } => {
            sized!(inputs; 16 | 32 | 64 => |IN| sized!(n; 16 | 32 | 64 => |OUT| {
                let y = affine_i32::<K, IN, OUT>(k, get(&a.i, x), part(w, bucket), part(b, bucket));
                put(&mut a.i, out, y)
            }))
        }
        Op::ClampedDotI32 { x, inputs, max, w, b, out } => sized!(inputs; 16 | 32 | 64 => |IN| {
            a.i[out] = clamped_dot_i32::<K, IN>(k, get(&a.i, x), max, part(w, bucket), b[bucket]);
        }),
        Op::DualWideI32 { x, n, q_bits, shift, out } => sized!(n; 16 | 32 | 64 => |N| {
            let y: [i32; N] = *get(&a.i, x);
            put::<i32, { 2 * N }>(&mut a.i, out, dual_wide_i32::<N, { 2 * N }>(&y, q_bits, shift));
        }),
        Op::SkipOutput { x, s, inputs, max, w, b, scale, bits, out } => sized!(inputs; 16 | 32 | 64 => |IN| {
            let (x, s) = (get(&a.i, x), get(&a.i, s));
            a.i[out] = skip_output_wide_i32::<IN>(x, max, s, part(w, bucket), b[bucket], scale, bits);
        }),
    }
}

struct Builder<'a, 'w> {
    input: InputShape,
    arrays: &'a HashMap<&'static str, ArrayRef<'w>>,
    buckets: usize,
    /// Each written register's place in the arena of its kind.
    at: HashMap<Reg, At>,
    /// The next free place per arena: int32, f32, bytes.
    next: [usize; 3],
    first: Option<First<'w>>,
    ops: Vec<Op<'w>>,
    screlu_in_i16: bool,
}

/// The arenas, by the kind of value they hold.
const INT: usize = 0;
const FLOAT: usize = 1;
const BYTE: usize = 2;

impl<'w> Builder<'_, 'w> {
    fn at(&self, reg: Reg) -> Result<At, LoadError> {
        self.at.get(&reg).copied().ok_or(LayersError::Unwritten(reg).into())
    }

    /// `len` places in arena `kind`.
    fn place(&mut self, kind: usize, len: usize) -> Result<At, LoadError> {
        let at = self.next[kind];
        if at + len > ARENA {
            return Err(LayersError::Arena { limit: ARENA }.into());
        }
        self.next[kind] += len;
        Ok(at)
    }

    /// `param`'s `what` (`weights`, `biases`): its values as `T`, holding `per_bucket`
    /// values per bucket.
    fn array<T: Pod>(&self, param: Param, what: &str, elem: Elem, per_bucket: usize) -> Result<&'w [T], LoadError> {
        let name = format!("{}_{what}", param_arrays(param));
        let a = self.arrays.get(name.as_str()).ok_or_else(|| LayersError::NoArray(name.clone()))?;
        let want = per_bucket * self.buckets;
        if a.elem != elem || a.dims.iter().product::<usize>() != want {
            return Err(LayersError::ArrayShape {
                array: name,
                dims: a.dims.to_vec(),
                elem: a.elem.rust_name(),
                buckets: self.buckets,
                per_bucket,
                wanted: elem.rust_name(),
            }
            .into());
        }
        bytemuck::try_cast_slice(&a.bytes[..want * std::mem::size_of::<T>()])
            .map_err(|e| LayersError::Cast { array: name, reason: e.to_string() }.into())
    }

    fn weights<T: Pod>(&self, param: Param, elem: Elem, per_bucket: usize) -> Result<&'w [T], LoadError> {
        self.array(param, "weights", elem, per_bucket)
    }

    fn biases(&self, param: Param, per_bucket: usize) -> Result<&'w [i32], LoadError> {
        self.array(param, "biases", Elem::I32, per_bucket)
    }

    fn sized(&self, what: &'static str, n: usize, sizes: &[usize]) -> Result<(), LoadError> {
        if sizes.contains(&n) {
            Ok(())
        } else {
            Err(LayersError::Size { what, n, sizes: sizes.to_vec() }.into())
        }
    }

    /// One call's op: its arrays, its input's place, a place for its output.
    fn call(&mut self, call: &Call) -> Result<(), LoadError> {
        use Call::*;
        let (out, kind, len) = match *call {
            Listed { n, out, .. } | Sparse { n, out, .. } | Dense { n, out, .. } | ShiftBias { n, out, .. } => {
                (out, INT, n)
            }
            AffineI32 { n, out, .. } | ClampSquare { n, out, .. } => (out, INT, n),
            DualI32 { n, out, .. } | DualWideI32 { n, out, .. } => (out, INT, 2 * n),
            SkipOutputWideI32 { out, .. } => (out, INT, 1),
            Output { out, .. } | One { out, .. } | Mul { out, .. } | Div { out, .. } | Add { out, .. } => (out, INT, 1),
            Sub { out, .. } | AddBiasI16 { out, .. } | F32ToInt { out, .. } | ClampedDotI32 { out, .. } => {
                (out, INT, 1)
            }
            // A single value of a register already placed.
            Element { x, i, out } => {
                let at = self.at(x)? + i;
                self.at.insert(out, at);
                return Ok(());
            }
            Dequant { n, out, .. } | ScreluF32 { n, out, .. } | ClampF32 { n, out, .. } => (out, FLOAT, n),
            HardSwishF32 { n, out, .. } | SwigluF32 { n, out, .. } | AddF32 { n, out, .. } => (out, FLOAT, n),
            ConcatF32 { n, out, .. } | AffineF32 { n, out, .. } => (out, FLOAT, n),
            DualF32 { n, out, .. } => (out, FLOAT, 2 * n),
            DotF32 { out, .. } | LanesF32 { out, .. } => (out, FLOAT, 1),
            SignedSquareF32 { n, out, .. } => (out, FLOAT, 2 * n),
            AffineChainsF32 { n, out, .. } => (out, FLOAT, n),
            Fc0Act { out, .. } | Fc1Act { out, .. } => (out, BYTE, 32),
            Clipped { n, out, .. } | Concat { n, out, .. } => (out, BYTE, n),
        };
        let at = self.place(kind, len)?;
        self.op(call, at)?;
        self.at.insert(out, at);
        Ok(())
    }

    fn op(&mut self, call: &Call, out: At) -> Result<(), LoadError> {
        use Call::*;
        let op = match *call {
            Listed { param, n, sums, bias, out: reg } => {
                let w = self.weights::<i8>(param, Elem::I8, 4 * self.input.chunks * n)?;
                let b = if bias { Some(self.biases(param, n)?) } else { None };
                let pairs = sums != ListedSums::Exact;
                if !(self.input.listed)(n, pairs) {
                    return Err(LayersError::Sparse { reg, n, pairs }.into());
                }
                self.first = Some(First::Listed { w, b, n, sums, out });
                return Ok(());
            }
            Sparse { param, n, bias, out: reg } => {
                self.sized("a sparse layer", n, SPARSE_OUT)?;
                let w = self.weights::<i8>(param, Elem::I8, 4 * self.input.chunks * n)?;
                if !bias {
                    return Err(LayersError::SparseWithoutBiases(reg).into());
                }
                self.first = Some(First::Sparse { w, b: self.biases(param, n)?, n, out });
                return Ok(());
            }
            Output { param, max, screlu, .. } => {
                let w = self.weights::<i16>(param, Elem::I16, 2 * self.input.columns)?;
                let screlu = screlu.then_some(self.screlu_in_i16);
                self.first = Some(First::Output { w, qa: max as i16, screlu, out });
                return Ok(());
            }
            Dense { param, x, inputs, n, .. } => {
                if !DENSE_IN_OUT.contains(&(inputs, n)) {
                    return Err(LayersError::Dense { inputs, n, sizes: DENSE_IN_OUT.to_vec() }.into());
                }
                let (w, b) = (self.weights::<i8>(param, Elem::I8, inputs * n)?, self.biases(param, n)?);
                Op::Dense { w, b, x: self.at(x)?, inputs, n, out }
            }
            One { param, x, inputs, .. } => {
                self.sized("an int8 output layer", inputs, ONE_IN)?;
                let (w, b) = (self.weights::<i8>(param, Elem::I8, inputs)?, self.biases(param, 1)?);
                Op::One { w, b, x: self.at(x)?, inputs, out }
            }
            Fc0Act { x, .. } => Op::SfnnFc0Act { x: self.at(x)?, out },
            Fc1Act { x, .. } => Op::SfnnFc1Act { x: self.at(x)?, out },
            Clipped { x, n, shift, .. } => {
                self.sized("a clipped activation", n, VECTOR)?;
                Op::Clipped { x: self.at(x)?, n, shift, out }
            }
            Concat { ref parts, .. } => {
                // Each part written in its place: one run of bytes.
                let mut to = out;
                for part in parts {
                    match *part {
                        Part::Dual { x, n, sqr, shift } => {
                            self.sized("a dual activation", n, VECTOR)?;
                            self.ops.push(Op::SqrClipped { x: self.at(x)?, n, sqr, shift, out: to });
                            to += 2 * n;
                        }
                        Part::Bytes { x, n } => {
                            self.ops.push(Op::CopyBytes { x: self.at(x)?, n, out: to });
                            to += n;
                        }
                    }
                }
                return Ok(());
            }
            ConcatF32 { ref parts, .. } => {
                let mut to = out;
                for &(x, n) in parts {
                    self.ops.push(Op::CopyF32 { x: self.at(x)?, n, out: to });
                    to += n;
                }
                return Ok(());
            }
            Element { .. } => unreachable!("placed by `call`"),
            Mul { x, k, .. } => Op::Mul { x: self.at(x)?, k, out },
            Div { x, k, .. } => Op::Div { x: self.at(x)?, k, out },
            Add { a, b, .. } => Op::Add { a: self.at(a)?, b: self.at(b)?, out },
            Sub { a, b, .. } => Op::Sub { a: self.at(a)?, b: self.at(b)?, out },
            AddBiasI16 { param, x, .. } => {
                Op::AddBiasI16 { x: self.at(x)?, b: self.array::<i16>(param, "biases", Elem::I16, 1)?, out }
            }
            Dequant { param, x, n, num, den, .. } => {
                self.sized("a dequantisation", n, VECTOR)?;
                Op::Dequant { x: self.at(x)?, n, num, den, b: self.biases(param, n)?, out }
            }
            DualF32 { x, n, .. }
            | ScreluF32 { x, n, .. }
            | ClampF32 { x, n, .. }
            | HardSwishF32 { x, n, .. }
            | SwigluF32 { x, n, .. } => {
                self.sized("an f32 activation", n, VECTOR)?;
                let x = self.at(x)?;
                match call {
                    DualF32 { .. } => Op::DualF32 { x, n, out },
                    ScreluF32 { .. } => Op::ScreluF32 { x, n, out },
                    HardSwishF32 { .. } => Op::HardSwishF32 { x, n, out },
                    SwigluF32 { .. } => Op::SwigluF32 { x, n, out },
                    _ => Op::ClampF32 { x, n, out },
                }
            }
            AddF32 { a, b, n, .. } => {
                self.sized("an f32 sum", n, VECTOR)?;
                Op::AddF32 { a: self.at(a)?, b: self.at(b)?, n, out }
            }
            AffineF32 { param, x, inputs, n, .. } | AffineI32 { param, x, inputs, n, .. } => {
                self.sized("a dense layer's input", inputs, VECTOR)?;
                self.sized("a dense layer", n, VECTOR)?;
                let (w, b) = (self.weights::<i32>(param, Elem::I32, inputs * n)?, self.biases(param, n)?);
                let x = self.at(x)?;
                if matches!(call, AffineF32 { .. }) {
                    Op::AffineF32 { x, inputs, w, b, n, out }
                } else {
                    Op::AffineI32 { x, inputs, w, b, n, out }
                }
            }
            DotF32 { param, x, inputs, .. } => {
                self.sized("an f32 output layer", inputs, VECTOR)?;
                let (w, b) = (self.weights::<i32>(param, Elem::I32, inputs)?, self.biases(param, 1)?);
                Op::DotF32 { x: self.at(x)?, inputs, w, b, out }
            }
            SignedSquareF32 { x, n, .. } => {
                self.sized("an f32 activation", n, VECTOR)?;
                Op::SignedSquareF32 { x: self.at(x)?, n, out }
            }
            AffineChainsF32 { param, x, inputs, n, chains, .. } => {
                self.sized("a dense layer's input", inputs, VECTOR)?;
                self.sized("a dense layer", n, VECTOR)?;
                let chains = chains as usize;
                if !(1..=MAX_CHAINS).contains(&chains) || !inputs.is_multiple_of(chains) {
                    return Err(LayersError::Size {
                        what: "a dense layer's fma chains",
                        n: chains,
                        sizes: vec![2, 4, 8, 16],
                    }
                    .into());
                }
                let (w, b) = (self.weights::<i32>(param, Elem::I32, inputs * n)?, self.biases(param, n)?);
                Op::AffineChainsF32 { x: self.at(x)?, inputs, w, b, n, chains, out }
            }
            LanesF32 { param, x, inputs, lanes, skip, .. } => {
                self.sized("an f32 output layer", inputs, VECTOR)?;
                if !nnue_format::layers::step::LanesF32::fits(lanes, inputs, skip) {
                    return Err(LayersError::Size {
                        what: "an f32 output layer's lanes",
                        n: lanes as usize,
                        sizes: vec![4, 8, 16],
                    }
                    .into());
                }
                let (w, b) = (self.weights::<i32>(param, Elem::I32, inputs)?, self.biases(param, 1)?);
                Op::LanesF32 { x: self.at(x)?, inputs, w, b, lanes: lanes as usize, skip, out }
            }
            F32ToInt { x, scale, clamp, .. } => Op::F32ToInt { x: self.at(x)?, scale, clamp, out },
            ShiftBias { param, x, n, shift, .. } => {
                self.sized("a rescaling", n, VECTOR)?;
                Op::ShiftBias { x: self.at(x)?, n, shift, b: self.biases(param, n)?, out }
            }
            DualI32 { x, n, q_bits, .. } | ClampSquare { x, n, q_bits, .. } => {
                self.sized("an int32 activation", n, VECTOR)?;
                let x = self.at(x)?;
                if matches!(call, DualI32 { .. }) {
                    Op::DualI32 { x, n, q_bits, out }
                } else {
                    Op::ClampSquare { x, n, q_bits, out }
                }
            }
            DualWideI32 { x, n, q_bits, shift, .. } => {
                self.sized("an int32 activation", n, VECTOR)?;
                Op::DualWideI32 { x: self.at(x)?, n, q_bits, shift, out }
            }
            SkipOutputWideI32 { param, x, s, inputs, max, scale, bits, .. } => {
                self.sized("an int32 output layer", inputs, VECTOR)?;
                let (w, b) = (self.weights::<i32>(param, Elem::I32, inputs)?, self.biases(param, 1)?);
                Op::SkipOutput { x: self.at(x)?, s: self.at(s)?, inputs, max, w, b, scale, bits, out }
            }
            ClampedDotI32 { param, x, inputs, max, .. } => {
                self.sized("an int32 output layer", inputs, VECTOR)?;
                let (w, b) = (self.weights::<i32>(param, Elem::I32, inputs)?, self.biases(param, 1)?);
                Op::ClampedDotI32 { x: self.at(x)?, inputs, max, w, b, out }
            }
        };
        self.ops.push(op);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use nnue_format::{synth, Architecture};

    use crate::loaded::FastWeights;
    use crate::network::Network;
    use crate::position::Position;
    use crate::reference::Evaluator;
    use crate::simd::KernelPath;

    fn layered(text: &str) -> nnue_format::Net {
        let arch = match text.parse() {
            Ok(Architecture::Layered(arch)) => arch,
            other => panic!("{text}: {other:?}"),
        };
        synth::layered(&arch, 7)
    }

    /// A size the run-time kernels aren't compiled for is refused when the net is loaded,
    /// naming the layer, not evaluated wrong or panicking later.
    #[test]
    fn a_layer_size_without_a_run_time_kernel_is_a_load_error() {
        let net = layered(
            "(768 -> 64)x2 -> pairwise>>9 -> (16 -> 48 -> 1)x8, f32, l1mul=512/4161600, scale=400, file=bullet",
        );
        let w = FastWeights::new(&net).unwrap();
        let e = w.layered::<64, 32, 16, 768, 16, 16, 48, 8>().map(|_| ()).unwrap_err().to_string();
        assert!(e.contains("a dense layer of 48 values") && e.contains("nnue_net! compiles any size"), "{e}");
    }

    /// A skip connection (`skip`: the output layer also reads the sparse layer's activation) in
    /// layouts other than PlentyChess's: the output weights take `L3 + L2 (x2)` in the layout's
    /// own order; the file round-trips, and every path equals the reference.
    #[test]
    fn a_skip_connection_in_any_layout_runs_as_the_reference() {
        let pos = Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4").unwrap();
        for file in ["bullet", "alexandria", "obsidian"] {
            let text = format!(
                "(768 -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, dual, skip, l1mul=512/4161600, scale=287, file={file}"
            );
            let net = layered(&text);
            assert_eq!(nnue_format::Net::from_bytes(&net.to_bytes(), Some(&net.arch())).unwrap(), net, "{file}");
            let reference = Evaluator::new(&net).evaluate(&pos);
            let w = FastWeights::new(&net).unwrap();
            let fast = w.layered::<64, 32, 16, 768, 16, 32, 32, 8>().unwrap();
            for path in KernelPath::all() {
                assert_eq!(fast.evaluate_on(path, &pos), reference, "{file} {path}");
            }
        }
    }

    /// int32 stacks with every Q the description grammar takes (2 to 1024) load and run as the
    /// reference: run-time loading once refused Q ≥ 256, which the parser, the macro and the
    /// reference accept (one rule now, `Numbers::MAX_Q_BITS`).
    #[test]
    fn every_q_the_grammar_takes_loads_and_runs_as_the_reference() {
        let pos = Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4").unwrap();
        for q_bits in 1..=nnue_format::Numbers::MAX_Q_BITS {
            let text = format!(
                "(768 -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q={}, l1shift=8, scale=400, file=cbnf",
                1u32 << q_bits
            );
            let net = layered(&text);
            let reference = Evaluator::new(&net).evaluate(&pos);
            let w = FastWeights::new(&net).unwrap();
            let fast = w.layered::<64, 32, 16, 768, 16, 32, 32, 8>().unwrap_or_else(|e| panic!("{text}: {e}"));
            for path in KernelPath::all() {
                assert_eq!(fast.evaluate_on(path, &pos), reference, "{text} {path}");
            }
        }
        // One past the rule: refused by the grammar.
        let past =
            "(768 -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=2048, l1shift=8, scale=400, file=cbnf";
        assert!(past.parse::<Architecture>().is_err());
    }

    /// The same description with sizes the kernels have runs, equal to the reference on every
    /// path (what `tests/` checks for every family, here for the f32 and int32 stacks' sizes
    /// at the ends of what the program dispatches over).
    #[test]
    fn the_sizes_at_the_ends_of_the_dispatch_run_as_the_reference() {
        let pos = Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4").unwrap();
        for text in [
            "(768 -> 64)x2 -> pairwise>>9 -> (16 -> 64 -> 1)x8, f32, dual, l1mul=512/4161600, scale=400, file=bullet",
            "(768 -> 64)x2 -> pairwise>>9 -> (32 -> 16 -> 1)x8, f32, l1mul=512/4161600, scale=400, file=bullet",
            "(768 -> 64)x2 -> pairwise>>9 -> (32 -> 64 -> 1)x8, i32, dual, q=64, l1shift=8, scale=400, file=cbnf",
        ] {
            let net = layered(text);
            let reference = Evaluator::new(&net).evaluate(&pos);
            let w = FastWeights::new(&net).unwrap();
            let evals: Vec<_> = match text {
                t if t.contains("(16 -> 64") => {
                    let fast = w.layered::<64, 32, 16, 768, 16, 32, 64, 8>().unwrap();
                    KernelPath::all().into_iter().map(|p| fast.evaluate_on(p, &pos)).collect()
                }
                t if t.contains("(32 -> 16") => {
                    let fast = w.layered::<64, 32, 16, 768, 32, 32, 16, 8>().unwrap();
                    KernelPath::all().into_iter().map(|p| fast.evaluate_on(p, &pos)).collect()
                }
                _ => {
                    let fast = w.layered::<64, 32, 16, 768, 32, 64, 64, 8>().unwrap();
                    KernelPath::all().into_iter().map(|p| fast.evaluate_on(p, &pos)).collect()
                }
            };
            for e in evals {
                assert_eq!(e, reference, "{text}");
            }
        }
    }
}
