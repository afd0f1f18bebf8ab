//! Kernel paths and the one place that picks among them.
//!
//! Every kernel is written once: `scalar` portably, `x86` over a `Dot` that is
//! `maddubs`+`madd` (AVX2) or `vpdpbusd` on ymm (AVX-VNNI, or AVX512-VNNI with VL), and
//! `aarch64` over a `Dot4` that is `vmull_s8`+`vpadalq_s16` (NEON) or `sdot` (dotprod), and
//! `wasm32` on SIMD128 (`i32x4_dot_i16x8` over widened int8) or relaxed SIMD (SIMD128's kernels
//! with the int8 dot products by `i32x4_relaxed_dot_i8x16_i7x16_add`, for the nets proven to
//! feed them 7-bit activations); loops that every path shares are in `portable`. The CPU is
//! probed once (on wasm32 nothing is probed: a build with the `simd128` target feature has that
//! path, with `relaxed-simd` too that one, one without has scalar only); a [`KernelPath`] value
//! is the proof that its instructions are available. Each path's target features and kernel set
//! are named in one table, `entry_points!` below, beside the probe.

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
pub(crate) mod portable;
pub(crate) mod rows;
pub(crate) mod scalar;
#[cfg(all(test, any(target_arch = "x86_64", target_arch = "aarch64", target_arch = "wasm32")))]
mod tests;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) mod wasm32;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

use std::fmt;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicU16, Ordering};

/// An instruction-set path, whether or not this CPU has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Isa {
    /// Portable Rust, no target features.
    Scalar,
    /// AVX2: `maddubs` + `madd` for the int8 dot products.
    Avx2,
    /// AVX-VNNI: `vpdpbusd` on ymm (VEX encoding).
    AvxVnni,
    /// AVX512-VNNI with AVX512VL: `vpdpbusd` on ymm (EVEX encoding).
    Avx512Vnni,
    /// aarch64 NEON: `vmull_s8` + `vpadalq_s16` for the int8 dot products.
    Neon,
    /// aarch64 NEON with the dot-product extension: `sdot`.
    Dotprod,
    /// WebAssembly SIMD128: `i32x4_dot_i16x8` over int8 widened to int16. Chosen when the build
    /// is compiled with `-C target-feature=+simd128` (WebAssembly has no run-time detection).
    Simd128,
    /// WebAssembly relaxed SIMD: SIMD128's kernels, with the int8 dot products (the affine
    /// layers' kernels) by `i32x4_relaxed_dot_i8x16_i7x16_add`, whose second operand must fit 7
    /// bits. Available when the build is compiled with `-C target-feature=+simd128,+relaxed-simd`;
    /// a network runs it only where its layers prove that every value its int8 layers read is
    /// at most 127 ([`nnue_format::Layers::int8_inputs_fit_7_bits`]): for the others, an `_on`
    /// method given this path runs SIMD128's kernels ([`Network::paths`](crate::Network::paths)
    /// leaves it out for them).
    RelaxedSimd,
}

impl Isa {
    /// Every path, scalar first.
    pub const ALL: [Isa; 8] = [
        Isa::Scalar,
        Isa::Avx2,
        Isa::AvxVnni,
        Isa::Avx512Vnni,
        Isa::Neon,
        Isa::Dotprod,
        Isa::Simd128,
        Isa::RelaxedSimd,
    ];

    /// The name used on command lines (`--path`) and in bench tables.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Scalar => "scalar",
            Isa::Avx2 => "avx2",
            Isa::AvxVnni => "avxvnni",
            Isa::Avx512Vnni => "avx512vnni",
            Isa::Neon => "neon",
            Isa::Dotprod => "dotprod",
            Isa::Simd128 => "simd128",
            Isa::RelaxedSimd => "relaxed-simd",
        }
    }

    /// The instruction set whose [`Isa::name`] is `name`, if any.
    pub fn from_name(name: &str) -> Option<Isa> {
        Isa::ALL.into_iter().find(|i| i.name() == name)
    }

    fn bit(self) -> u16 {
        1 << (self as u8)
    }

    /// Whether this CPU can run the path (probed once, then one atomic load).
    pub fn is_available(self) -> bool {
        available() & self.bit() != 0
    }
}

impl fmt::Display for Isa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Bit `1 << isa` set for each available path; bit 15 marks "probed".
static AVAILABLE: AtomicU16 = AtomicU16::new(0);
const PROBED: u16 = 0x8000;

fn available() -> u16 {
    let bits = AVAILABLE.load(Ordering::Relaxed);
    if bits & PROBED != 0 {
        return bits;
    }
    let bits = probe() | PROBED;
    AVAILABLE.store(bits, Ordering::Relaxed);
    bits
}

fn probe() -> u16 {
    #[allow(unused_mut)]
    let mut bits = Isa::Scalar.bit();
    #[cfg(target_arch = "x86_64")]
    {
        // Every AVX2 CPU has POPCNT and FMA; the kernels count non-zero chunks with the one,
        // and the multi-layer nets' float layers fuse their multiply-adds with the other.
        if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("popcnt") && is_x86_feature_detected!("fma") {
            bits |= Isa::Avx2.bit();
            if is_x86_feature_detected!("avxvnni") {
                bits |= Isa::AvxVnni.bit();
            }
            // The 512-bit path: VNNI for the dot products, F and BW for the loops LLVM widens.
            if is_x86_feature_detected!("avx512f")
                && is_x86_feature_detected!("avx512bw")
                && is_x86_feature_detected!("avx512vl")
                && is_x86_feature_detected!("avx512vnni")
            {
                bits |= Isa::Avx512Vnni.bit();
            }
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        if std::arch::is_aarch64_feature_detected!("neon") {
            bits |= Isa::Neon.bit();
            if std::arch::is_aarch64_feature_detected!("dotprod") {
                bits |= Isa::Dotprod.bit();
            }
        }
    }
    // A module that uses SIMD128 fails validation where it is missing, so the build decides.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        bits |= Isa::Simd128.bit();
    }
    // Relaxed SIMD likewise (a module with its instructions fails to compile where the engine
    // lacks them: Node 20 needs `--experimental-wasm-relaxed-simd`), if the engine's dot
    // product gives the exact sums on a few edge values (Node 20's baseline compiler doesn't).
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128", target_feature = "relaxed-simd"))]
    if wasm32::relaxed_dot_is_exact() {
        bits |= Isa::RelaxedSimd.bit();
    }
    bits
}

/// A path this CPU is known to run: holding one is what makes the dispatch sound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KernelPath(Isa);

impl KernelPath {
    /// The portable path, available everywhere.
    pub const SCALAR: KernelPath = KernelPath(Isa::Scalar);

    /// `Some` if this CPU has `isa`.
    pub fn new(isa: Isa) -> Option<KernelPath> {
        isa.is_available().then_some(KernelPath(isa))
    }

    /// The widest path this CPU has: AVX512-VNNI, then AVX-VNNI, then AVX2 (x86-64), or
    /// dotprod, then NEON (aarch64), or SIMD128 (wasm32 built with it), then scalar. Never
    /// relaxed SIMD, which runs its own kernels only for the nets proven to allow them. A network
    /// runs on the path it measured fastest here, [`Network::best_path`](crate::Network::best_path),
    /// which starts from this one.
    #[inline]
    pub fn best() -> KernelPath {
        let bits = available();
        let isa = [Isa::Avx512Vnni, Isa::AvxVnni, Isa::Avx2, Isa::Dotprod, Isa::Neon, Isa::Simd128]
            .into_iter()
            .find(|i| bits & i.bit() != 0)
            .unwrap_or(Isa::Scalar);
        KernelPath(isa)
    }

    /// Every path this CPU has, scalar first. (A network's own list, [`Network::paths`], leaves
    /// out relaxed SIMD where the net's int8 layers aren't proven to read 7-bit values.)
    ///
    /// [`Network::paths`]: crate::Network::paths
    pub fn all() -> Vec<KernelPath> {
        Isa::ALL.into_iter().filter_map(KernelPath::new).collect()
    }

    /// The path whose kernels run a net on this path: this one, except relaxed SIMD for a net
    /// whose int8 layers are not proven to read values in `0..=127` (`exact` false), which
    /// gets SIMD128 (a build with relaxed SIMD has SIMD128: the cfg of the probe).
    #[inline(always)]
    pub(crate) fn for_net(self, exact: bool) -> KernelPath {
        if self.0 == Isa::RelaxedSimd && !exact {
            KernelPath(Isa::Simd128)
        } else {
            self
        }
    }

    /// The instruction set of this path.
    pub fn isa(self) -> Isa {
        self.0
    }
}

impl fmt::Display for KernelPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The table of paths: for a method `$generic::<K: Kernels>` of a network type, defines one
/// entry point per SIMD path of the target (x86-64, aarch64 or wasm32 with SIMD128), compiled
/// under that path's target features with its kernel set. [`on_path!`](crate::simd::on_path)
/// calls the one a [`KernelPath`] names.
macro_rules! entry_points {
    (fn $generic:ident [$avx2:ident, $avxvnni:ident, $avx512:ident, $neon:ident, $dotprod:ident, $simd128:ident]
        (&self $(, $arg:ident: $ty:ty)*) $(-> $ret:ty)?) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,popcnt,fma")]
        unsafe fn $avx2(&self $(, $arg: $ty)*) $(-> $ret)? {
            // SAFETY: this function's features are the AVX2 kernels' requirement.
            unsafe { self.$generic::<crate::simd::x86::Avx2>($($arg),*) }
        }
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,popcnt,fma,avxvnni")]
        unsafe fn $avxvnni(&self $(, $arg: $ty)*) $(-> $ret)? {
            // SAFETY: this function's features are the AVX-VNNI kernels' requirement.
            unsafe { self.$generic::<crate::simd::x86::AvxVnni>($($arg),*) }
        }
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,popcnt,fma,avx512f,avx512bw,avx512vl,avx512vnni")]
        unsafe fn $avx512(&self $(, $arg: $ty)*) $(-> $ret)? {
            // SAFETY: this function's features are the AVX512-VNNI kernels' requirement.
            unsafe { self.$generic::<crate::simd::x86::Avx512Vnni>($($arg),*) }
        }
        #[cfg(target_arch = "aarch64")]
        #[target_feature(enable = "neon")]
        unsafe fn $neon(&self $(, $arg: $ty)*) $(-> $ret)? {
            // SAFETY: this function's features are the NEON kernels' requirement.
            unsafe { self.$generic::<crate::simd::aarch64::Neon>($($arg),*) }
        }
        #[cfg(target_arch = "aarch64")]
        #[target_feature(enable = "neon,dotprod")]
        unsafe fn $dotprod(&self $(, $arg: $ty)*) $(-> $ret)? {
            // SAFETY: this function's features are the dotprod kernels' requirement.
            unsafe { self.$generic::<crate::simd::aarch64::Dotprod>($($arg),*) }
        }
        // No `#[target_feature]`: the whole build has SIMD128 (the cfg), or this path is absent.
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        unsafe fn $simd128(&self $(, $arg: $ty)*) $(-> $ret)? {
            // SAFETY: the build's target features include SIMD128, the kernels' requirement.
            unsafe { self.$generic::<crate::simd::wasm32::Simd128>($($arg),*) }
        }
    };
}
pub(crate) use entry_points;

/// Runs `$generic` (or the entry point [`entry_points!`] made for it) on `$path`.
macro_rules! on_path {
    ($self:ident, $path:expr, $generic:ident [$avx2:ident, $avxvnni:ident, $avx512:ident, $neon:ident, $dotprod:ident, $simd128:ident]
        ($($arg:expr),*)) => {
        match $path.isa() {
            // SAFETY: the portable kernels need no target features.
            crate::simd::Isa::Scalar => unsafe { $self.$generic::<crate::simd::scalar::Scalar>($($arg),*) },
            // SAFETY: a KernelPath of this ISA exists only if the CPU has its features.
            #[cfg(target_arch = "x86_64")]
            crate::simd::Isa::Avx2 => unsafe { $self.$avx2($($arg),*) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            crate::simd::Isa::AvxVnni => unsafe { $self.$avxvnni($($arg),*) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            crate::simd::Isa::Avx512Vnni => unsafe { $self.$avx512($($arg),*) },
            // SAFETY: as above.
            #[cfg(target_arch = "aarch64")]
            crate::simd::Isa::Neon => unsafe { $self.$neon($($arg),*) },
            // SAFETY: as above.
            #[cfg(target_arch = "aarch64")]
            crate::simd::Isa::Dotprod => unsafe { $self.$dotprod($($arg),*) },
            // SAFETY: as above (on wasm32, the build's target features).
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            crate::simd::Isa::Simd128 => unsafe { $self.$simd128($($arg),*) },
            // SAFETY: the build's target features include SIMD128 and relaxed SIMD (the cfg),
            // the kernels' requirement; no entry point of its own, as no `#[target_feature]`
            // is needed.
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128", target_feature = "relaxed-simd"))]
            crate::simd::Isa::RelaxedSimd => unsafe { $self.$generic::<crate::simd::wasm32::RelaxedSimd>($($arg),*) },
            // Every target lacks some paths' features (x86-64 those of aarch64 and wasm32, etc.).
            _ => unreachable!("a KernelPath exists only for paths of this target"),
        }
    };
}
pub(crate) use on_path;

/// The kernels every path provides. Written once per path; the network types are generic
/// over it and each path's entry point is instantiated under its `#[target_feature]`.
///
/// # Safety
/// Implementations may use instructions of their path: callers must hold the [`KernelPath`].
/// Sealed: the paths' kernel sets are this crate's. (Public only as the bound of the layer
/// functions the generated code calls, [`crate::__private`].)
// Each method's requirement is the trait's: the caller holds the path.
#[allow(clippy::missing_safety_doc)]
pub unsafe trait Kernels: sealed::Sealed {
    /// The transformer's row sums on this path, compiled in this crate (see `simd/rows.rs`).
    const ROWS: rows::RowKernels;
    /// The path these kernels are (what a function compiled once per path dispatches on).
    const ISA: Isa;
    /// SFNNv5+ pairwise activation of both perspectives' doubled, pack-ordered accumulators:
    /// `out[p][j] = clamp(a, 0, MAX) * clamp(b, 0, MAX) >> SHIFT` for the two halves a, b (`MAX`:
    /// 254 for SFNNv5+'s doubled accumulators, 255 for Stockfish 18's threat nets and the
    /// multi-layer nets; at most 255; `SHIFT` 9 to 15: 9 for Stockfish's `/ 512`). With
    /// `ROUND`, `(clamp(a) * clamp(b) + 2^(SHIFT - 1)) >> SHIFT` (cinder's `mulhrs`: `MAX`
    /// 127, `SHIFT` 7; `MAX << (15 - SHIFT)` must fit an int16 and the result 127). Also
    /// lists the non-zero 4-byte chunks of `out` (as one `[[u8; 4]; CHUNKS]`) in `nnz`, for
    /// [`Kernels::affine_sparse_listed`]. Neither buffer needs clearing: the kernel writes all
    /// of `out` and returns it with the initialised front of `nnz`.
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
    ) -> (&'o [[u8; HALF]; 2], &'o [u16]);
    /// SFNNv5+ fc_0 -> fc_1 activations: SqrClippedReLU (`min(127, x * x >> 19)`) and
    /// ClippedReLU (`clamp(x >> 6, 0, 127)`) of each of the 16 outputs, in the byte order of
    /// [`nnue_format::layout::sfnn_fc0_act_source`] (which fc_1's stored weights follow).
    unsafe fn sfnn_fc0_act(fc0: &[i32; 16]) -> [u8; 32];
    /// SFNNv5+ fc_1 -> fc_2: ClippedReLU of the 32 outputs, in the byte order of
    /// [`nnue_format::layout::sfnn_fc1_act_source`] (which fc_2's stored weights follow).
    unsafe fn sfnn_fc1_act(fc1: &[i32; 32]) -> [u8; 32];
    /// HalfKP activation of one perspective: `clamp(x, 0, 127)`, pack-ordered.
    unsafe fn ft_clamp<const L1: usize>(acc: &[i16; L1], out: &mut [u8; L1]);
    /// int8 affine layer over `[chunk][output][4]` weights, skipping all-zero input chunks.
    unsafe fn affine_sparse<const CHUNKS: usize, const OUT: usize>(
        input: &[[u8; 4]; CHUNKS],
        weights: &[[[i8; 4]; OUT]; CHUNKS],
        biases: &[i32; OUT],
        out: &mut [i32; OUT],
    );
    /// Like [`Kernels::affine_sparse`], given the indices of the non-zero chunks (each must be
    /// below CHUNKS).
    unsafe fn affine_sparse_listed<const CHUNKS: usize, const OUT: usize>(
        input: &[[u8; 4]; CHUNKS],
        weights: &[[[i8; 4]; OUT]; CHUNKS],
        biases: &[i32; OUT],
        out: &mut [i32; OUT],
        nnz: &[u16],
    );
    /// Like [`Kernels::affine_sparse_listed`], but as Integral sums (`l1sums=i16pairs`): the
    /// listed chunks two at a time, each pair's `maddubs` lanes (two products, saturated to
    /// int16) added in int16, wrapping, before widening; a last unpaired chunk alone. The
    /// portable loop here is every path's unless the path has `maddubs`.
    #[inline(always)]
    unsafe fn affine_sparse_listed_pairs<const CHUNKS: usize, const OUT: usize>(
        input: &[[u8; 4]; CHUNKS],
        weights: &[[[i8; 4]; OUT]; CHUNKS],
        biases: &[i32; OUT],
        out: &mut [i32; OUT],
        nnz: &[u16],
    ) {
        portable::affine_listed_pairs(input, weights, biases, out, nnz)
    }
    /// int8 affine layer over `[chunk][output][4]` weights, every chunk.
    unsafe fn affine_dense<const CHUNKS: usize, const OUT: usize>(
        input: &[[u8; 4]; CHUNKS],
        weights: &[[[i8; 4]; OUT]; CHUNKS],
        biases: &[i32; OUT],
        out: &mut [i32; OUT],
    );
    /// One int8 output: `bias + sum in[i] * w[i]`.
    unsafe fn affine_one<const IN: usize>(input: &[u8; IN], weights: &[i8; IN], bias: i32) -> i32;
    /// A multi-layer net's int32 dense layer over input-major weights: `out[o] = b[o] + Σ
    /// x[i] · w[i][o]` (wrapping; the order doesn't matter).
    #[inline(always)]
    unsafe fn dense_i32<const IN: usize, const OUT: usize>(
        x: &[i32; IN],
        w: &[[i32; OUT]; IN],
        b: &[i32; OUT],
    ) -> [i32; OUT] {
        portable::dense_i32(x, w, b)
    }
    /// A multi-layer net's int32 output: `b + Σ clamp(x[i], 0, max) · w[i]` (wrapping).
    #[inline(always)]
    unsafe fn clamped_dot_i32<const IN: usize>(x: &[i32; IN], max: i32, w: &[i32; IN], b: i32) -> i32 {
        portable::clamped_dot_i32(x, max, w, b)
    }
    /// Headerless output layer: `sum act(us) * w[0] + act(them) * w[1]` (wrapping int32),
    /// with act = clamp(x, 0, qa) (CReLU) or its square (SCReLU). `screlu_in_i16`: SCReLU may
    /// compute `v * (v * w)` with `v * w` in int16, which the caller proved exact.
    unsafe fn chess768_output<const N: usize>(
        us: &[i16; N],
        them: &[i16; N],
        weights: &[[i16; N]; 2],
        qa: i16,
        screlu: bool,
        screlu_in_i16: bool,
    ) -> i32;
}

mod sealed {
    /// Only this crate's kernel sets are [`Kernels`](super::Kernels).
    pub trait Sealed {}
}
