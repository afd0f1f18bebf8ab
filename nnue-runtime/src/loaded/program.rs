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
use nnue_format::layers::{Bucket, Layers, Param, Reg, Step, Transform};
use nnue_format::layout::{param_arrays, Elem, InputOrder};

use super::LoadError;
use crate::layers::{
    affine_dense, affine_f32, affine_i32, affine_listed, affine_listed_pairs, affine_one, affine_sparse, clamp_square,
    clamped_dot_i32, clipped, clipped_both, crelu_f32, crelu_output, dequant, dot_f32, dual_f32, dual_i32,
    dual_wide_i32, f32_bits, f32_to_int, psqt, screlu_f32, screlu_output, shift_bias, skip_output_wide_i32,
    sqr_clipped_and_clipped, unpack_sfnn_fc0_act, unpack_sfnn_fc1_act, Forward, On, Pairwise, PairwiseScratch,
    SfnnFc0Act, SfnnFc1Act, Sparse,
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
/// chunks in all), clamped at 255 and shifted by 9 to 15, read by a listed sparse layer of 16
/// or 32 outputs: the multi-layer nets.
#[derive(Debug, Clone, Copy)]
pub struct PairwiseInput<const HALF: usize, const CHUNKS: usize>;
impl<const HALF: usize, const CHUNKS: usize> Input for PairwiseInput<HALF, CHUNKS> {
    const CHUNKS: usize = CHUNKS;
    fn runs(transform: Transform) -> bool {
        matches!(transform, Transform::Pairwise { max: 255, shift: 9..=15 })
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
        transform == Transform::Pairwise { max: i32::from(MAX), shift: 9 }
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
    Listed { w: &'w [i8], b: Option<&'w [i32]>, n: usize, pairs: bool, out: At },
    /// `affine_sparse` of both clipped perspectives.
    Sparse { w: &'w [i8], b: &'w [i32], n: usize, out: At },
    /// A single-layer net's output sum, CReLU or SCReLU.
    Output { w: &'w [i16], qa: i16, screlu: Option<bool>, out: At },
}

/// One step after the first layer, its arrays and registers resolved.
#[derive(Debug, Clone)]
enum Op<'w> {
    Dense {
        w: &'w [i8],
        b: &'w [i32],
        x: At,
        inputs: usize,
        n: usize,
        out: At,
    },
    One {
        w: &'w [i8],
        b: &'w [i32],
        x: At,
        inputs: usize,
        out: At,
    },
    SfnnFc0Act {
        x: At,
        out: At,
    },
    SfnnFc1Act {
        x: At,
        out: At,
    },
    Clipped {
        x: At,
        n: usize,
        shift: u32,
        out: At,
    },
    SqrClipped {
        x: At,
        n: usize,
        sqr: u32,
        shift: u32,
        out: At,
    },
    CopyBytes {
        x: At,
        n: usize,
        out: At,
    },
    Mul {
        x: At,
        k: i32,
        out: At,
    },
    Div {
        x: At,
        k: i32,
        out: At,
    },
    Add {
        a: At,
        b: At,
        out: At,
    },
    Sub {
        a: At,
        b: At,
        out: At,
    },
    AddBiasI16 {
        x: At,
        b: &'w [i16],
        out: At,
    },
    Dequant {
        x: At,
        n: usize,
        num: u32,
        den: u32,
        b: &'w [i32],
        out: At,
    },
    DualF32 {
        x: At,
        n: usize,
        out: At,
    },
    CopyF32 {
        x: At,
        n: usize,
        out: At,
    },
    ScreluF32 {
        x: At,
        n: usize,
        out: At,
    },
    ClampF32 {
        x: At,
        n: usize,
        out: At,
    },
    AffineF32 {
        x: At,
        inputs: usize,
        w: &'w [i32],
        b: &'w [i32],
        n: usize,
        out: At,
    },
    DotF32 {
        x: At,
        inputs: usize,
        w: &'w [i32],
        b: &'w [i32],
        out: At,
    },
    F32ToInt {
        x: At,
        scale: i32,
        out: At,
    },
    ShiftBias {
        x: At,
        n: usize,
        shift: u32,
        b: &'w [i32],
        out: At,
    },
    DualI32 {
        x: At,
        n: usize,
        q_bits: u32,
        out: At,
    },
    ClampSquare {
        x: At,
        n: usize,
        q_bits: u32,
        out: At,
    },
    AffineI32 {
        x: At,
        inputs: usize,
        w: &'w [i32],
        b: &'w [i32],
        n: usize,
        out: At,
    },
    ClampedDotI32 {
        x: At,
        inputs: usize,
        max: i32,
        w: &'w [i32],
        b: &'w [i32],
        out: At,
    },
    DualWideI32 {
        x: At,
        n: usize,
        q_bits: u32,
        shift: u32,
        out: At,
    },
    SkipOutputWideI32 {
        x: At,
        s: At,
        inputs: usize,
        max: i32,
        w: &'w [i32],
        b: &'w [i32],
        scale: i32,
        bits: u32,
        out: At,
    },
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
            return Err(err(format!("the bucket rule reaches bucket {max_bucket} of {buckets}")));
        }
        if !I::runs(layers.transform) {
            return Err(err(format!("the view's input kind doesn't run the transform {:?}", layers.transform)));
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

/// The first layer and the steps after it (see [`Program::new`]).
fn build<'w>(
    layers: &Layers,
    arrays: &HashMap<&'static str, ArrayRef<'w>>,
    order: &dyn Fn(Param) -> InputOrder,
    screlu_in_i16: bool,
    buckets: usize,
    input: InputShape,
) -> Result<(First<'w>, Steps<'w>), LoadError> {
    {
        let mut b = Builder {
            input,
            arrays,
            order,
            buckets,
            regs: HashMap::new(),
            next: [0; 3],
            first: None,
            ops: Vec::new(),
            screlu_in_i16,
        };
        let r0 = match layers.transform {
            Transform::Pairwise { .. } => Val::Ft { listed: true },
            Transform::Clipped { max: 127, bytes: true } => Val::Ft { listed: false },
            Transform::Clipped { max, bytes: false } => {
                i16::try_from(max).map_err(|_| err(format!("a clamp at {max} past int16")))?;
                Val::Acc { max }
            }
            Transform::Clipped { max, .. } => return Err(err(format!("a byte transform clamped at {max}"))),
        };
        b.regs.insert(0, r0);
        let mut traced = Vec::new();
        for step in &layers.steps {
            if let Step::Trace { reg, activation } = *step {
                traced.push((reg, activation));
            } else {
                b.step(step)?;
            }
        }
        let positional = b.scalar(layers.positional)?;
        let traced = traced
            .into_iter()
            .map(|(reg, activation)| {
                let t = match (b.get(reg)?, activation) {
                    (Val::I32 { at, len }, false) => Traced::I32 { at: *at, len: *len },
                    (Val::F32 { at, len }, false) => Traced::F32 { at: *at, len: *len },
                    (Val::Bytes { at, len, order }, true) => Traced::Bytes { at: *at, len: *len, order: *order },
                    _ => return Err(err(format!("r{reg} is traced but holds no values of its kind"))),
                };
                Ok(t)
            })
            .collect::<Result<_, _>>()?;
        let first = b.first.ok_or_else(|| err("no layer reads the transform".into()))?;
        Ok((first, Steps { ops: b.ops, positional, psqt_div: layers.psqt_div, traced }))
    }
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
        let Transform::Pairwise { shift, .. } = self.transform else { unreachable!("a pairwise program") };
        let ft: Sparse<'_, HALF, CHUNKS> = match shift {
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
        let First::Listed { w, b, n, pairs, out } = self.first else { unreachable!("a listed first layer") };
        sized!(n; 16 | 32 => |N| {
            let w = part::<i8, [[[i8; 4]; N]; CHUNKS]>(w, bucket);
            let b = b.map_or(&[0; N], |b| part::<i32, [i32; N]>(b, bucket));
            let y = if pairs { affine_listed_pairs(k, &ft, w, b) } else { affine_listed(k, &ft, w, b) };
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
        Op::AffineF32 { x, inputs, w, b, n, out } => {
            sized!(inputs; 16 | 32 | 64 => |IN| sized!(n; 16 | 32 | 64 => |OUT| {
                let y = affine_f32::<IN, OUT>(get(&a.f, x), part(w, bucket), part(b, bucket));
                put(&mut a.f, out, y)
            }))
        }
        Op::DotF32 { x, inputs, w, b, out } => sized!(inputs; 16 | 32 | 64 => |IN| {
            a.f[out] = dot_f32::<IN>(get(&a.f, x), part(w, bucket), b[bucket]);
        }),
        Op::F32ToInt { x, scale, out } => a.i[out] = f32_to_int(a.f[x], scale),
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
        Op::SkipOutputWideI32 { x, s, inputs, max, w, b, scale, bits, out } => sized!(inputs; 16 | 32 | 64 => |IN| {
            let (x, s) = (get(&a.i, x), get(&a.i, s));
            a.i[out] = skip_output_wide_i32::<IN>(x, max, s, part(w, bucket), b[bucket], scale, bits);
        }),
    }
}

fn err(msg: String) -> LoadError {
    LoadError::Layers(msg)
}

/// A register's value while building.
#[derive(Debug, Clone)]
enum Val {
    /// `r0`: the transform's bytes (`listed`: pairwise, with its non-zero chunks).
    Ft {
        listed: bool,
    },
    /// `r0` of a single-layer net: the accumulators, clamped to `0..=max` by the output kernel.
    Acc {
        max: i32,
    },
    I32 {
        at: At,
        len: usize,
    },
    F32 {
        at: At,
        len: usize,
    },
    Bytes {
        at: At,
        len: usize,
        order: InputOrder,
    },
    /// A byte-shaping step placed when a layer reads it (its order then known).
    Pending(Step),
}

struct Builder<'a, 'w> {
    input: InputShape,
    arrays: &'a HashMap<&'static str, ArrayRef<'w>>,
    order: &'a dyn Fn(Param) -> InputOrder,
    buckets: usize,
    regs: HashMap<Reg, Val>,
    /// The next free place per arena: int32, f32, bytes.
    next: [usize; 3],
    first: Option<First<'w>>,
    ops: Vec<Op<'w>>,
    screlu_in_i16: bool,
}

impl<'w> Builder<'_, 'w> {
    fn get(&self, reg: Reg) -> Result<&Val, LoadError> {
        self.regs.get(&reg).ok_or_else(|| err(format!("r{reg} is read before it is written")))
    }

    /// `len` places in arena `kind` (0 int32, 1 f32, 2 bytes).
    fn place(&mut self, kind: usize, len: usize) -> Result<At, LoadError> {
        let at = self.next[kind];
        if at + len > ARENA {
            return Err(err(format!("more than {ARENA} values of one kind between layers")));
        }
        self.next[kind] += len;
        Ok(at)
    }

    /// `param`'s `what` (`weights`, `biases`): its values as `T`, holding `per_bucket`
    /// values per bucket.
    fn array<T: Pod>(&self, param: Param, what: &str, elem: Elem, per_bucket: usize) -> Result<&'w [T], LoadError> {
        let name = format!("{}_{what}", param_arrays(param));
        let a = self.arrays.get(name.as_str()).ok_or_else(|| err(format!("the layout has no array {name}")))?;
        let want = per_bucket * self.buckets;
        if a.elem != elem || a.dims.iter().product::<usize>() != want {
            return Err(err(format!(
                "{name} has shape {:?} of {}, not {} × {per_bucket} of {}",
                a.dims,
                a.elem.rust_name(),
                self.buckets,
                elem.rust_name()
            )));
        }
        bytemuck::try_cast_slice(&a.bytes[..want * std::mem::size_of::<T>()]).map_err(|e| err(format!("{name}: {e}")))
    }

    /// The outputs of `param`'s layer: its biases' values per bucket.
    fn outputs(&self, param: Param) -> Result<usize, LoadError> {
        let name = format!("{}_biases", param_arrays(param));
        let a = self.arrays.get(name.as_str()).ok_or_else(|| err(format!("the layout has no array {name}")))?;
        Ok(a.dims.iter().product::<usize>() / self.buckets.max(1))
    }

    fn sized(&self, what: &str, n: usize, sizes: &[usize]) -> Result<(), LoadError> {
        if sizes.contains(&n) {
            Ok(())
        } else {
            Err(err(format!("{what} of {n} values (run-time kernels take {sizes:?}; nnue_net! compiles any size)")))
        }
    }

    fn i32s(&self, reg: Reg) -> Result<(At, usize), LoadError> {
        match self.get(reg)? {
            Val::I32 { at, len } => Ok((*at, *len)),
            _ => Err(err(format!("r{reg} is not int32 sums"))),
        }
    }

    fn f32s(&self, reg: Reg) -> Result<(At, usize), LoadError> {
        match self.get(reg)? {
            Val::F32 { at, len } => Ok((*at, *len)),
            _ => Err(err(format!("r{reg} is not f32 values"))),
        }
    }

    fn scalar(&self, reg: Reg) -> Result<At, LoadError> {
        match self.get(reg)? {
            Val::I32 { at, len: 1 } => Ok(*at),
            _ => Err(err(format!("r{reg} is not a single int32 value"))),
        }
    }

    fn float(&self, reg: Reg) -> Result<At, LoadError> {
        match self.get(reg)? {
            Val::F32 { at, len: 1 } => Ok(*at),
            _ => Err(err(format!("r{reg} is not a single f32 value"))),
        }
    }

    fn new_i32(&mut self, len: usize) -> Result<(At, Val), LoadError> {
        let at = self.place(0, len)?;
        Ok((at, Val::I32 { at, len }))
    }

    fn new_f32(&mut self, len: usize) -> Result<(At, Val), LoadError> {
        let at = self.place(1, len)?;
        Ok((at, Val::F32 { at, len }))
    }

    fn step(&mut self, step: &Step) -> Result<(), LoadError> {
        use Step::*;
        let (out, val) = match step {
            AffineI8 { param, input, out } | AffineI8Pairs { param, input, out } => {
                let pairs = matches!(step, AffineI8Pairs { .. });
                let n = self.outputs(*param)?;
                let read = self.get(*input)?.clone();
                if pairs && !matches!(read, Val::Ft { listed: true }) {
                    return Err(err(format!("r{out}: int16 pair sums read the pairwise transform")));
                }
                match read {
                    Val::Ft { listed } => {
                        if *input != 0 || self.first.is_some() {
                            return Err(err(format!("r{out}: a second layer reads the transform")));
                        }
                        let chunks = self.input.chunks;
                        let w = self.array::<i8>(*param, "weights", Elem::I8, 4 * chunks * n)?;
                        // The multi-layer nets' sparse layer adds its bias after rescaling the sums.
                        let b = if *param == Param::L1 {
                            None
                        } else {
                            Some(self.array::<i32>(*param, "biases", Elem::I32, n)?)
                        };
                        let (at, val) = self.new_i32(n)?;
                        self.first = Some(if listed {
                            if !(self.input.listed)(n, pairs) {
                                return Err(err(format!(
                                    "r{out}: no run-time kernel for a sparse layer of {n} outputs{} here (nnue_net! compiles any size)",
                                    if pairs { " in int16 pairs" } else { "" }
                                )));
                            }
                            First::Listed { w, b, n, pairs, out: at }
                        } else {
                            self.sized("a sparse layer", n, SPARSE_OUT)?;
                            let b = b.ok_or_else(|| err(format!("r{out}: a sparse layer without biases")))?;
                            First::Sparse { w, b, n, out: at }
                        });
                        (*out, val)
                    }
                    _ => {
                        let (x, inputs) = self.bytes(*input, (self.order)(*param))?;
                        if n == 1 {
                            self.sized("an int8 output layer", inputs, ONE_IN)?;
                            let w = self.array::<i8>(*param, "weights", Elem::I8, inputs)?;
                            let b = self.array::<i32>(*param, "biases", Elem::I32, 1)?;
                            let (at, val) = self.new_i32(1)?;
                            self.ops.push(Op::One { w, b, x, inputs, out: at });
                            (*out, val)
                        } else {
                            if !DENSE_IN_OUT.contains(&(inputs, n)) {
                                return Err(err(format!(
                                    "an int8 layer of {inputs} → {n} (run-time kernels take {DENSE_IN_OUT:?}; nnue_net! compiles any size)"
                                )));
                            }
                            let w = self.array::<i8>(*param, "weights", Elem::I8, inputs * n)?;
                            let b = self.array::<i32>(*param, "biases", Elem::I32, n)?;
                            let (at, val) = self.new_i32(n)?;
                            self.ops.push(Op::Dense { w, b, x, inputs, n, out: at });
                            (*out, val)
                        }
                    }
                }
            }
            Slice { input, start, len: 1, out } => {
                let (x, len) = self.i32s(*input)?;
                if *start >= len {
                    return Err(err(format!("r{out}: r{input}[{start}] is past its {len} values")));
                }
                (*out, Val::I32 { at: x + start, len: 1 })
            }
            // f32 values joined at once (a skip connection); bytes wait for the kernel that
            // makes them in the order the reading layer wants.
            Concat { inputs, out } if inputs.iter().all(|&r| matches!(self.regs.get(&r), Some(Val::F32 { .. }))) => {
                let parts = inputs.iter().map(|&r| self.f32s(r)).collect::<Result<Vec<_>, _>>()?;
                let (at, val) = self.new_f32(parts.iter().map(|p| p.1).sum())?;
                let mut to = at;
                for (x, n) in parts {
                    self.ops.push(Op::CopyF32 { x, n, out: to });
                    to += n;
                }
                (*out, val)
            }
            Slice { out, .. } | ClippedShift { out, .. } | SqrClippedShift { out, .. } | Concat { out, .. } => {
                (*out, Val::Pending(step.clone()))
            }
            Square { out, .. } | Clamp { out, .. } => (*out, Val::Pending(step.clone())),
            Mul { input, k, out } => {
                let x = self.scalar(*input)?;
                let (at, val) = self.new_i32(1)?;
                self.ops.push(Op::Mul { x, k: *k, out: at });
                (*out, val)
            }
            Div { input, k, out } => {
                if *k == 0 || *k == -1 {
                    return Err(err(format!("r{out}: a division by {k}")));
                }
                let x = self.scalar(*input)?;
                let (at, val) = self.new_i32(1)?;
                self.ops.push(Op::Div { x, k: *k, out: at });
                (*out, val)
            }
            // Stormphrax 8's skip: clamped values plus the activation, read by the output layer.
            Add { a, out, .. } if matches!(self.regs.get(a), Some(Val::Pending(Clamp { .. }))) => {
                (*out, Val::Pending(step.clone()))
            }
            Add { a, b, out } | Sub { a, b, out } => {
                let (x, y) = (self.scalar(*a)?, self.scalar(*b)?);
                let (at, val) = self.new_i32(1)?;
                self.ops.push(if matches!(step, Add { .. }) {
                    Op::Add { a: x, b: y, out: at }
                } else {
                    Op::Sub { a: x, b: y, out: at }
                });
                (*out, val)
            }
            DotI16 { param, input, out } => {
                let screlu = match (self.get(*input)?, self.regs.get(&0)) {
                    (Val::Acc { max }, _) => (None, *max),
                    (Val::Pending(Square { input: 0, .. }), Some(Val::Acc { max })) => (Some(self.screlu_in_i16), *max),
                    _ => {
                        return Err(err(format!(
                            "r{out}: an int16 output layer reads the accumulators or their squares"
                        )))
                    }
                };
                if self.first.is_some() {
                    return Err(err(format!("r{out}: a second layer reads the accumulators")));
                }
                let w = self.array::<i16>(*param, "weights", Elem::I16, 2 * self.input.columns)?;
                let (at, val) = self.new_i32(1)?;
                self.first = Some(First::Output { w, qa: screlu.1 as i16, screlu: screlu.0, out: at });
                (*out, val)
            }
            AddBiasI16 { param, input, out } => {
                let x = self.scalar(*input)?;
                let b = self.array::<i16>(*param, "biases", Elem::I16, 1)?;
                let (at, val) = self.new_i32(1)?;
                self.ops.push(Op::AddBiasI16 { x, b, out: at });
                (*out, val)
            }
            DequantF32 { param, input, num, den, out } => {
                let (x, n) = self.i32s(*input)?;
                self.sized("a dequantisation", n, VECTOR)?;
                let b = self.array::<i32>(*param, "biases", Elem::I32, n)?;
                let (at, val) = self.new_f32(n)?;
                self.ops.push(Op::Dequant { x, n, num: *num, den: *den, b, out: at });
                (*out, val)
            }
            DualF32 { input, out } | ScreluF32 { input, out } | ClampF32 { input, out } => {
                let (x, n) = self.f32s(*input)?;
                self.sized("an f32 activation", n, VECTOR)?;
                let dual = matches!(step, DualF32 { .. });
                let (at, val) = self.new_f32(if dual { 2 * n } else { n })?;
                self.ops.push(match step {
                    DualF32 { .. } => Op::DualF32 { x, n, out: at },
                    ScreluF32 { .. } => Op::ScreluF32 { x, n, out: at },
                    _ => Op::ClampF32 { x, n, out: at },
                });
                (*out, val)
            }
            AffineF32 { param, input, out } | AffineI32 { param, input, out } => {
                let float = matches!(step, AffineF32 { .. });
                let n = self.outputs(*param)?;
                if !float && n == 1 {
                    // The output layer reads its input clamped: one kernel.
                    let Val::Pending(Clamp { input: y, max, .. }) = self.get(*input)?.clone() else {
                        return Err(err(format!("r{out}: an int32 output layer reads clamped values")));
                    };
                    let (x, inputs) = self.i32s(y)?;
                    self.sized("an int32 output layer", inputs, VECTOR)?;
                    let w = self.array::<i32>(*param, "weights", Elem::I32, inputs)?;
                    let b = self.array::<i32>(*param, "biases", Elem::I32, 1)?;
                    let (at, val) = self.new_i32(1)?;
                    self.ops.push(Op::ClampedDotI32 { x, inputs, max, w, b, out: at });
                    (*out, val)
                } else {
                    let (x, inputs) = if float { self.f32s(*input)? } else { self.i32s(*input)? };
                    self.sized("a dense layer's input", inputs, VECTOR)?;
                    self.sized("a dense layer", n, VECTOR)?;
                    let w = self.array::<i32>(*param, "weights", Elem::I32, inputs * n)?;
                    let b = self.array::<i32>(*param, "biases", Elem::I32, n)?;
                    if float {
                        let (at, val) = self.new_f32(n)?;
                        self.ops.push(Op::AffineF32 { x, inputs, w, b, n, out: at });
                        (*out, val)
                    } else {
                        let (at, val) = self.new_i32(n)?;
                        self.ops.push(Op::AffineI32 { x, inputs, w, b, n, out: at });
                        (*out, val)
                    }
                }
            }
            DotF32 { param, input, out } => {
                let (x, inputs) = self.f32s(*input)?;
                self.sized("an f32 output layer", inputs, VECTOR)?;
                let w = self.array::<i32>(*param, "weights", Elem::I32, inputs)?;
                let b = self.array::<i32>(*param, "biases", Elem::I32, 1)?;
                let (at, val) = self.new_f32(1)?;
                self.ops.push(Op::DotF32 { x, inputs, w, b, out: at });
                (*out, val)
            }
            F32ToInt { input, scale, out } => {
                let x = self.float(*input)?;
                let (at, val) = self.new_i32(1)?;
                self.ops.push(Op::F32ToInt { x, scale: *scale, out: at });
                (*out, val)
            }
            ShiftBias { param, input, shift, out } => {
                let (x, n) = self.i32s(*input)?;
                self.sized("a rescaling", n, VECTOR)?;
                if *shift >= 32 {
                    return Err(err(format!("r{out}: a shift by {shift}")));
                }
                let b = self.array::<i32>(*param, "biases", Elem::I32, n)?;
                let (at, val) = self.new_i32(n)?;
                self.ops.push(Op::ShiftBias { x, n, shift: *shift, b, out: at });
                (*out, val)
            }
            DualWideI32 { input, q_bits, shift, out } => {
                let (x, n) = self.i32s(*input)?;
                self.sized("an int32 activation", n, VECTOR)?;
                // `check_fits`'s rule: Q⁴ fits an i32, the shifts stay below 32.
                if *q_bits > 7 || q_bits + shift >= 32 {
                    return Err(err(format!("r{out}: Q = 2^{q_bits}, a shift by {shift}")));
                }
                let (at, val) = self.new_i32(2 * n)?;
                self.ops.push(Op::DualWideI32 { x, n, q_bits: *q_bits, shift: *shift, out: at });
                (*out, val)
            }
            OutputWideI32 { param, input, scale, q_bits, out } => {
                // Stormphrax 8's output layer: its input clamped plus the skip.
                let Val::Pending(Add { a, b: s, .. }) = self.get(*input)?.clone() else {
                    return Err(err(format!("r{out}: Stormphrax 8's output layer reads clamped values plus the skip")));
                };
                let Val::Pending(Clamp { input: y, max, .. }) = self.get(a)?.clone() else {
                    return Err(err(format!("r{out}: Stormphrax 8's output layer reads clamped values plus the skip")));
                };
                let ((x, inputs), (s, n_s)) = (self.i32s(y)?, self.i32s(s)?);
                if n_s != inputs || *q_bits > 7 {
                    return Err(err(format!("r{out}: {n_s} skip values for {inputs} inputs, Q = 2^{q_bits}")));
                }
                self.sized("an int32 output layer", inputs, VECTOR)?;
                let w = self.array::<i32>(*param, "weights", Elem::I32, inputs)?;
                let b = self.array::<i32>(*param, "biases", Elem::I32, 1)?;
                let (at, val) = self.new_i32(1)?;
                let (scale, bits) = (*scale, 4 * q_bits);
                self.ops.push(Op::SkipOutputWideI32 { x, s, inputs, max, w, b, scale, bits, out: at });
                (*out, val)
            }
            DualI32 { input, q_bits, out } | ClampSquare { input, q_bits, out } => {
                let (x, n) = self.i32s(*input)?;
                self.sized("an int32 activation", n, VECTOR)?;
                // The rule of the grammar and of `check_fits` (the arithmetic wraps as the
                // reference's does).
                if *q_bits > nnue_format::Numbers::MAX_Q_BITS {
                    let max = nnue_format::Numbers::MAX_Q_BITS;
                    return Err(err(format!("r{out}: Q = 2^{q_bits}, above 2^{max}")));
                }
                let dual = matches!(step, DualI32 { .. });
                let (at, val) = self.new_i32(if dual { 2 * n } else { n })?;
                self.ops.push(if dual {
                    Op::DualI32 { x, n, q_bits: *q_bits, out: at }
                } else {
                    Op::ClampSquare { x, n, q_bits: *q_bits, out: at }
                });
                (*out, val)
            }
            Trace { .. } => return Ok(()),
        };
        self.regs.insert(out, val);
        Ok(())
    }

    /// Register `reg` as bytes in `order`, placing the steps that write them.
    fn bytes(&mut self, reg: Reg, order: InputOrder) -> Result<(At, usize), LoadError> {
        let step = match self.get(reg)?.clone() {
            Val::Bytes { at, len, order: o } if o == order => return Ok((at, len)),
            Val::Bytes { order: o, .. } => {
                return Err(err(format!("r{reg} is in {o:?} order, a layer wants {order:?}")))
            }
            Val::Pending(step) => step,
            _ => return Err(err(format!("r{reg} is not bytes"))),
        };
        let (at, len) = match (&step, order) {
            (Step::Concat { inputs, .. }, _) => self.concat(inputs, order)?,
            (Step::ClippedShift { input, shift, .. }, InputOrder::SfnnFc1Act) => {
                let (x, len) = self.i32s(*input)?;
                if (len, *shift) != (32, 6) {
                    return Err(err(format!("r{reg}: Stockfish's fc_1 activation is clamp(x >> 6) of 32 sums")));
                }
                let at = self.place(2, 32)?;
                self.ops.push(Op::SfnnFc1Act { x, out: at });
                (at, 32)
            }
            (Step::ClippedShift { input, shift, .. }, InputOrder::Canonical) => {
                let (x, n) = self.i32s(*input)?;
                self.sized("a clipped activation", n, VECTOR)?;
                if *shift >= 32 {
                    return Err(err(format!("r{reg}: a shift by {shift}")));
                }
                let at = self.place(2, n)?;
                self.ops.push(Op::Clipped { x, n, shift: *shift, out: at });
                (at, n)
            }
            _ => return Err(err(format!("no kernel writes r{reg} ({step:?}) in {order:?} order"))),
        };
        self.regs.insert(reg, Val::Bytes { at, len, order });
        Ok((at, len))
    }

    /// A concatenation, placed in one run of bytes: each pair `min(127, x² >> a), clamp(x >>
    /// b, 0, 127)` of one source is one dual activation; other parts are copied.
    fn concat(&mut self, inputs: &[Reg], order: InputOrder) -> Result<(At, usize), LoadError> {
        let pending = |b: &Self, r: Reg| match b.regs.get(&r) {
            Some(Val::Pending(s)) => Some(s.clone()),
            _ => None,
        };
        if order == InputOrder::SfnnFc0Act {
            // Stockfish 15.1–18: fc_0's first 15 outputs; the 16th skips to the output.
            let (
                Some(Step::SqrClippedShift { input: a, shift: 19, .. }),
                Some(Step::ClippedShift { input: b, shift: 6, .. }),
            ) = (inputs.first().and_then(|&r| pending(self, r)), inputs.get(1).and_then(|&r| pending(self, r)))
            else {
                return Err(err("Stockfish's fc_0 activation is x² >> 19 and x >> 6 of 16 sums".into()));
            };
            let Some(Val::Pending(Step::Slice { input, start: 0, len: 15, .. })) = self.regs.get(&a).cloned() else {
                return Err(err(format!("Stockfish's fc_0 activation reads fc_0's first 15 sums, not r{a}")));
            };
            let (x, len) = self.i32s(input)?;
            if inputs.len() != 2 || a != b || len != 16 {
                return Err(err("Stockfish's fc_0 activation is x² >> 19 and x >> 6 of 16 sums".into()));
            }
            let at = self.place(2, 32)?;
            self.ops.push(Op::SfnnFc0Act { x, out: at });
            return Ok((at, 32));
        }
        if order != InputOrder::Canonical {
            return Err(err(format!("{order:?} is one activation kernel's order, not a concatenation's")));
        }
        // Sizes first, then one run of bytes.
        let mut parts = Vec::new();
        let mut i = 0;
        while i < inputs.len() {
            let pair = (pending(self, inputs[i]), inputs.get(i + 1).and_then(|&r| pending(self, r)));
            if let (
                Some(Step::SqrClippedShift { input: a, shift: sqr, .. }),
                Some(Step::ClippedShift { input: b, shift, .. }),
            ) = pair
            {
                if a != b {
                    return Err(err(format!("r{} and r{} activate different sums", inputs[i], inputs[i + 1])));
                }
                let (x, n) = self.i32s(a)?;
                self.sized("a dual activation", n, VECTOR)?;
                if sqr > 23 || shift >= 32 {
                    return Err(err(format!("r{}: shifts {sqr} and {shift}", inputs[i])));
                }
                parts.push((Some((x, sqr, shift)), None, 2 * n));
                i += 2;
            } else {
                let (x, n) = self.bytes(inputs[i], InputOrder::Canonical)?;
                parts.push((None, Some(x), n));
                i += 1;
            }
        }
        let len = parts.iter().map(|p| p.2).sum();
        let at = self.place(2, len)?;
        let mut to = at;
        for (dual, copy, n) in parts {
            match (dual, copy) {
                (Some((x, sqr, shift)), _) => self.ops.push(Op::SqrClipped { x, n: n / 2, sqr, shift, out: to }),
                (_, Some(x)) => self.ops.push(Op::CopyBytes { x, n, out: to }),
                _ => unreachable!(),
            }
            to += n;
        }
        if len == 0 {
            return Err(err("an empty concatenation".into()));
        }
        Ok((at, len))
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
