//! The fast paths' weight layout, computed once (by the macro at compile time, or by the
//! runtime for nets loaded at run time) from the canonical [`Net`].
//!
//! - Feature-transformer columns are stored in the order that 256-bit `packus`/`packs` leave
//!   them, so the activation needs no permute: in every block of 32, groups 1 and 2 of 8 swap.
//! - SFNNv5+ transformer weights and biases are doubled, as Stockfish does at load: the
//!   activation then computes `a * b / 128` as one `mulhi` of `(2a << 7)` and `2b`.
//! - int8 layers are stored `[input chunk of 4][output][4]`, so one broadcast input chunk
//!   multiplies a contiguous run of weights (Stockfish's `get_weight_index`).
//! - SFNNv5+ fc_1 and fc_2 take their inputs in the byte order that 256-bit `packs` leave the
//!   (Sqr)ClippedReLU activations in ([`sfnn_fc0_act_source`], [`sfnn_fc1_act_source`]): their
//!   weight columns are permuted to match, so the activations need no permute at run time.

use crate::arch::{
    Activation, Architecture, Chess768Arch, HalfKpArch, KingBuckets, Sf19Arch, Sf19Inputs, SfnnArch, ThreatsArch,
};
use crate::layers::Param;
use crate::net::{Chess768Params, Dense, FeatureTransformer, Model, Net};

/// Stored position of accumulator column `j` (and, the map being an involution, the logical
/// column of stored position `j`).
pub const fn pack_slot(j: usize) -> usize {
    match (j / 8) % 4 {
        1 => j + 8,
        2 => j - 8,
        _ => j,
    }
}

/// The fc_0 output and activation (`true`: SqrClippedReLU, `false`: ClippedReLU) that stored
/// fc_1 input byte `s` (0..32) holds: the order of `packs_epi16(sqr, plain)` over
/// `packs_epi32(fc0[0..8], fc0[8..16])`. Output 15 appears too; its fc_1 weights are 0.
pub const fn sfnn_fc0_act_source(s: usize) -> (usize, bool) {
    let (lane, t) = (s / 16, s % 16);
    let u = t % 8;
    (4 * lane + u % 4 + 8 * (u / 4), t < 8)
}

/// The canonical fc_1 input (0..15 squared, 15..30 plain) of stored fc_1 input byte `s`, or
/// `None` for the two bytes of fc_0's output 15, which only skips ahead to the output.
pub const fn sfnn_fc1_input(s: usize) -> Option<usize> {
    match sfnn_fc0_act_source(s) {
        (15, _) => None,
        (i, true) => Some(i),
        (i, false) => Some(15 + i),
    }
}

/// The fc_1 output whose ClippedReLU stored fc_2 input byte `s` (0..32) holds: the order of
/// `packs_epi16` over `packs_epi32` of fc_1's four registers of 8.
pub const fn sfnn_fc1_act_source(s: usize) -> usize {
    let (lane, t) = (s / 16, s % 16);
    8 * (t / 4) + 4 * lane + t % 4
}

pub use crate::elem::Elem;

/// One array of the fast layout: a nested array shape (outermost first) and its little-endian
/// bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Array {
    /// Element type.
    pub elem: Elem,
    /// Shape, outermost dimension first.
    pub dims: Vec<usize>,
    /// The elements, little-endian, in row-major order.
    pub bytes: Vec<u8>,
}

impl Array {
    /// Size in bytes of an array of this shape.
    pub fn size(elem: Elem, dims: &[usize]) -> Option<usize> {
        dims.iter().try_fold(elem.size(), |n, &d| n.checked_mul(d))
    }
}

/// A struct of named arrays, generic over what holds an array (`A`: [`Array`] here, a cache
/// file in the macro, an aligned buffer in the runtime), so that every crate moves the same
/// fields by name. The name of an array is its field's.
macro_rules! arrays {
    (
        $(#[$doc:meta])*
        pub struct $name:ident {
            $($(#[$fdoc:meta])* $field:ident,)*
        }
        $(nested { $($(#[$ndoc:meta])* $nested:ident: $nty:ident,)* })?
        $(scalars { $($(#[$sdoc:meta])* $scalar:ident: $sty:ty,)* })?
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct $name<A = Array> {
            $($(#[$fdoc])* pub $field: A,)*
            $($($(#[$ndoc])* pub $nested: $nty<A>,)*)?
            $($($(#[$sdoc])* pub $scalar: $sty,)*)?
        }

        impl<A> $name<A> {
            /// Every array with its name, in field order.
            pub fn arrays(&self) -> Vec<(&'static str, &A)> {
                #[allow(unused_mut)]
                let mut all = vec![$((stringify!($field), &self.$field)),*];
                $($(all.extend(self.$nested.arrays());)*)?
                all
            }

            /// The same fields, borrowed.
            pub fn as_ref(&self) -> $name<&A> {
                $name {
                    $($field: &self.$field,)*
                    $($($nested: self.$nested.as_ref(),)*)?
                    $($($scalar: self.$scalar,)*)?
                }
            }

            /// The same fields, each array replaced by `f(name, array)`.
            pub fn map<B>(self, f: &mut impl FnMut(&'static str, A) -> B) -> $name<B> {
                $name {
                    $($field: f(stringify!($field), self.$field),)*
                    $($($nested: self.$nested.map(f),)*)?
                    $($($scalar: self.$scalar,)*)?
                }
            }

            /// The struct from its arrays by name (`None` if `find` misses one) and its scalars.
            pub fn assemble(
                $($($scalar: $sty,)*)?
                find: &mut impl FnMut(&'static str) -> Option<A>,
            ) -> Option<Self> {
                Some($name {
                    $($field: find(stringify!($field))?,)*
                    $($($nested: $nty::assemble(find)?,)*)?
                    $($($scalar,)*)?
                })
            }
        }
    };
}

arrays! {
    /// The 8 layer stacks of the SFNN families and of Stockfish 19 (there fc_0 has 32 outputs,
    /// fc_1 64 inputs in their canonical order, fc_2 128).
    pub struct StacksLayout {
        /// `[stack][16]` i32.
        fc0_biases,
        /// `[stack][L1 / 4][16][4]` i8, scrambled for the sparse kernel.
        fc0_weights,
        /// `[stack][32]` i32.
        fc1_biases,
        /// `[stack][8][32][4]` i8, inputs in the order the fc_0 activation leaves them.
        fc1_weights,
        /// `[stack][1]` i32.
        fc2_biases,
        /// `[stack][32]` i8, inputs in the order the fc_1 activation leaves them.
        fc2_weights,
    }
}

arrays! {
    /// Stockfish 15.1-17.1.
    pub struct SfnnLayout {
        /// `[L1]` i16, doubled and pack-ordered.
        ft_biases,
        /// `[22528][L1]` i16, doubled and pack-ordered.
        ft_weights,
        /// `[22528][8]` i32.
        psqt_weights,
    }
    nested {
        /// fc_0, fc_1, fc_2 of the 8 stacks.
        stacks: StacksLayout,
    }
}

arrays! {
    /// Stockfish 18's threat nets.
    pub struct ThreatsLayout {
        /// `[L1]` i16, pack-ordered (not doubled).
        ft_biases,
        /// `[79856][L1]` i8, pack-ordered.
        threat_weights,
        /// `[22528][L1]` i16, pack-ordered.
        ft_weights,
        /// `[79856 + 22528][8]` i32: threat rows, then HalfKAv2_hm rows.
        psqt_weights,
    }
    nested {
        /// fc_0, fc_1, fc_2 of the 8 stacks.
        stacks: StacksLayout,
    }
}

arrays! {
    /// Stockfish 19's big net.
    pub struct Sf19Layout {
        /// `[L1]` i16, pack-ordered (not doubled).
        ft_biases,
        /// `[59808 + 4560][L1]` i8, pack-ordered: threat rows, then pawn-pair rows.
        int8_weights,
        /// `[22528][L1]` i16, pack-ordered.
        ft_weights,
        /// `[59808 + 4560 + 22528][8]` i32, in the order of the feature index.
        psqt_weights,
    }
    nested {
        /// fc_0, fc_1, fc_2 of the 8 stacks.
        stacks: StacksLayout,
    }
}

arrays! {
    /// Stockfish 19's lite net.
    pub struct Sf19LiteLayout {
        /// `[L1]` i16, pack-ordered (not doubled).
        ft_biases,
        /// `[768][L1]` i16, pack-ordered.
        ft_weights,
        /// `[768][8]` i32.
        psqt_weights,
    }
    nested {
        /// fc_0, fc_1, fc_2 of the 8 stacks.
        stacks: StacksLayout,
    }
}

arrays! {
    /// Stockfish 12-13. The int8 layers have a stack dimension of 1.
    pub struct HalfKpLayout {
        /// `[L1]` i16, pack-ordered.
        ft_biases,
        /// `[41024][L1]` i16, pack-ordered.
        ft_weights,
        /// `[1][32]` i32.
        fc0_biases,
        /// `[1][2 * L1 / 4][32][4]` i8.
        fc0_weights,
        /// `[1][32]` i32.
        fc1_biases,
        /// `[1][8][32][4]` i8.
        fc1_weights,
        /// `[1][1]` i32.
        fc2_biases,
        /// `[1][32]` i8.
        fc2_weights,
    }
}

arrays! {
    /// Headerless chess-768 nets.
    pub struct Chess768Layout {
        /// `[N]` i16.
        l0_biases,
        /// `[768 x king buckets][N]` i16.
        l0_weights,
        /// `[output bucket][2][N]` i16: the side to move's half first.
        l1_weights,
        /// `[output bucket]` i16.
        l1_biases,
    }
    scalars {
        /// The activation, quantisation and king buckets.
        config: Chess768Config,
    }
}

arrays! {
    /// A multi-layer net's arrays: the transformer pack-ordered (not doubled), the sparse
    /// layer scrambled per bucket (`[bucket][chunk][output][4]`), the dense layer's weights
    /// input-major (`[bucket][input][output]`, so that one input multiplies a run of outputs);
    /// f32 values as their bits.
    pub struct LayeredLayout {
        /// `[threat inputs][L1]` i8, pack-ordered (no rows without threat inputs).
        threat_weights,
        /// `[L1]` i16, pack-ordered.
        ft_biases,
        /// `[inputs][L1]` i16, pack-ordered.
        ft_weights,
        /// `[bucket][L1 / 4][L2][4]` i8.
        l1_weights,
        /// `[bucket][L2]` i32 or f32 bits.
        l1_biases,
        /// `[bucket][L2 (x2 when dual)][L3]` i32 or f32 bits.
        l2_weights,
        /// `[bucket][L3]` i32 or f32 bits.
        l2_biases,
        /// `[bucket][L3 (x2 by a signed square)][L3B]` f32 bits (no values without a second
        /// dense layer).
        l3b_weights,
        /// `[bucket][L3B]` f32 bits.
        l3b_biases,
        /// `[bucket][the output layer's inputs]` i32 or f32 bits.
        l3_weights,
        /// `[bucket]` i32 or f32 bits.
        l3_biases,
    }
    scalars {
        /// The architecture: every scalar of the arithmetic.
        arch: crate::LayeredArch,
    }
}

/// The scalars of a headerless net's fast path. The forward pass takes its arithmetic from the
/// architecture's layers ([`Architecture::layers`]); of these, the accumulators read `kings`
/// and the output kernel `screlu_in_i16`, the rest describe the layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chess768Config {
    /// SCReLU (else CReLU).
    pub screlu: bool,
    /// Quantisation of the input layer: the activation clamps to `0..=qa`. Positive, with
    /// `qa * qb` within `i32`, as in a validated architecture.
    pub qa: i16,
    /// Quantisation of the output layer (positive).
    pub qb: i32,
    /// The eval is the output times `scale / (qa * qb)`; `None`: the output as it is.
    pub scale: Option<i32>,
    /// `qa * max |output weight| <= 32767`, so SCReLU may compute `v * (v * w)` in int16; the
    /// one scalar that depends on the weights, not only on the architecture. Every path
    /// trusts it unchecked (and computes `v * w` in int16 when it is set): set it only as
    /// [`fast_layout`] computes it.
    pub screlu_in_i16: bool,
    /// King buckets and mirroring of the input layer.
    pub kings: KingBuckets,
}

impl Chess768Config {
    /// The scalars of a net of `arch`, given whether its output weights allow int16 SCReLU.
    pub fn new(arch: &Chess768Arch, screlu_in_i16: bool) -> Self {
        Chess768Config {
            screlu: arch.activation == Activation::SCReLU,
            // A validated architecture has qa <= 32767.
            qa: arch.qa as i16,
            qb: arch.qb,
            scale: arch.scale,
            screlu_in_i16,
            kings: arch.kings,
        }
    }
}

/// A net in the fast paths' layout: per file layout, its architecture and its named arrays; the
/// runtime's accumulators read the same [`FastLayout::transformer`] arrays of every one, its
/// layers find theirs by name ([`param_arrays`]).
// One per net, made once: the multi-layer variant's description (king and bucket tables, an
// engine-defined block's pointer) is not worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FastLayout<A = Array> {
    /// Stockfish 15.1-17.1.
    Sfnn(SfnnArch, SfnnLayout<A>),
    /// Stockfish 18's threat nets.
    Threats(ThreatsArch, ThreatsLayout<A>),
    /// Stockfish 19's big net.
    Sf19(Sf19Arch, Sf19Layout<A>),
    /// Stockfish 19's lite net.
    Sf19Lite(Sf19Arch, Sf19LiteLayout<A>),
    /// Stockfish 12-13.
    HalfKp(HalfKpArch, HalfKpLayout<A>),
    /// Headerless chess-768 nets.
    Chess768(Chess768Arch, Chess768Layout<A>),
    /// Multi-layer nets.
    Layered(crate::LayeredArch, LayeredLayout<A>),
}

/// The byte order in which a layer's stored weights read their input bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputOrder {
    /// As the description writes it.
    Canonical,
    /// Stockfish 15.1–18's fc_0 activations as its SIMD kernel packs them (fc_1's input).
    SfnnFc0Act,
    /// Stockfish 15.1–18's fc_1 activation as its SIMD kernel packs it (fc_2's input).
    SfnnFc1Act,
}

/// The name every layout gives `param`'s arrays, before `_weights` and `_biases` (`fc0`): a
/// single-layer net's output layer is `l1`.
pub fn param_arrays(param: Param) -> &'static str {
    match param {
        Param::Fc0 => "fc0",
        Param::Fc1 => "fc1",
        Param::Fc2 => "fc2",
        Param::L1 | Param::Out => "l1",
        Param::L2 => "l2",
        Param::L3 => "l3",
        Param::L3b => "l3b",
    }
}

/// The arrays of a layout's feature transformer, by name: what the runtime's accumulators
/// (`nets::Transformer`) read, whatever the layers after them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TransformerArrays<A> {
    /// `[L1]` i16.
    pub biases: A,
    /// `[features][L1]` i8, the features before the int16 rows' (Stockfish 18's threats,
    /// Stockfish 19's threats and pawn pairs), if the net has any.
    pub int8_rows: Option<A>,
    /// `[features][L1]` i16.
    pub int16_rows: A,
    /// `[int8 + int16 features][buckets]` i32, if the net has PSQT outputs.
    pub psqt: Option<A>,
}

impl<A> FastLayout<A> {
    /// The transformer's arrays.
    pub fn transformer(&self) -> TransformerArrays<&A> {
        let (biases, int8_rows, int16_rows, psqt) = match self {
            FastLayout::Sfnn(_, l) => (&l.ft_biases, None, &l.ft_weights, Some(&l.psqt_weights)),
            FastLayout::Threats(_, l) => (&l.ft_biases, Some(&l.threat_weights), &l.ft_weights, Some(&l.psqt_weights)),
            // SFNNv17 has no PSQT outputs: its (zero) PSQT rows are neither summed nor read.
            FastLayout::Sf19(a, l) => {
                (&l.ft_biases, Some(&l.int8_weights), &l.ft_weights, a.psqt.then_some(&l.psqt_weights))
            }
            FastLayout::Sf19Lite(a, l) => (&l.ft_biases, None, &l.ft_weights, a.psqt.then_some(&l.psqt_weights)),
            FastLayout::HalfKp(_, l) => (&l.ft_biases, None, &l.ft_weights, None),
            FastLayout::Chess768(_, l) => (&l.l0_biases, None, &l.l0_weights, None),
            FastLayout::Layered(a, l) => (&l.ft_biases, a.threats.map(|_| &l.threat_weights), &l.ft_weights, None),
        };
        TransformerArrays { biases, int8_rows, int16_rows, psqt }
    }

    /// The architecture.
    pub fn arch(&self) -> Architecture {
        match self {
            FastLayout::Sfnn(a, _) => Architecture::Sfnn(*a),
            FastLayout::Threats(a, _) => Architecture::Threats(*a),
            FastLayout::Sf19(a, _) | FastLayout::Sf19Lite(a, _) => Architecture::Sf19(*a),
            FastLayout::HalfKp(a, _) => Architecture::HalfKp(*a),
            FastLayout::Chess768(a, _) => Architecture::Chess768(*a),
            FastLayout::Layered(a, _) => Architecture::Layered(*a),
        }
    }

    /// Every array with its name (unique within a layout).
    pub fn arrays(&self) -> Vec<(&'static str, &A)> {
        match self {
            FastLayout::Sfnn(_, l) => l.arrays(),
            FastLayout::Threats(_, l) => l.arrays(),
            FastLayout::Sf19(_, l) => l.arrays(),
            FastLayout::Sf19Lite(_, l) => l.arrays(),
            FastLayout::HalfKp(_, l) => l.arrays(),
            FastLayout::Chess768(_, l) => l.arrays(),
            FastLayout::Layered(_, l) => l.arrays(),
        }
    }

    /// The byte order in which `param`'s stored weights read their input: Stockfish
    /// 15.1–18's fc_1 and fc_2 read theirs as the SIMD activation packs leave them (see
    /// [`sfnn_fc1_input`], [`sfnn_fc1_act_source`]); every other layer in the description's order.
    pub fn input_order(&self, param: Param) -> InputOrder {
        match (self, param) {
            (FastLayout::Sfnn(..) | FastLayout::Threats(..), Param::Fc1) => InputOrder::SfnnFc0Act,
            (FastLayout::Sfnn(..) | FastLayout::Threats(..), Param::Fc2) => InputOrder::SfnnFc1Act,
            _ => InputOrder::Canonical,
        }
    }

    /// Whether the output kernel may multiply in int16 ([`Chess768Config::screlu_in_i16`]; a
    /// single-layer net's, false for the others).
    pub fn screlu_in_i16(&self) -> bool {
        matches!(self, FastLayout::Chess768(_, l) if l.config.screlu_in_i16)
    }

    /// The same layout, borrowed.
    pub fn as_ref(&self) -> FastLayout<&A> {
        match self {
            FastLayout::Sfnn(a, l) => FastLayout::Sfnn(*a, l.as_ref()),
            FastLayout::Threats(a, l) => FastLayout::Threats(*a, l.as_ref()),
            FastLayout::Sf19(a, l) => FastLayout::Sf19(*a, l.as_ref()),
            FastLayout::Sf19Lite(a, l) => FastLayout::Sf19Lite(*a, l.as_ref()),
            FastLayout::HalfKp(a, l) => FastLayout::HalfKp(*a, l.as_ref()),
            FastLayout::Chess768(a, l) => FastLayout::Chess768(*a, l.as_ref()),
            FastLayout::Layered(a, l) => FastLayout::Layered(*a, l.as_ref()),
        }
    }

    /// The same layout, each array replaced by `f(name, array)`.
    pub fn map<B>(self, mut f: impl FnMut(&'static str, A) -> B) -> FastLayout<B> {
        match self {
            FastLayout::Sfnn(a, l) => FastLayout::Sfnn(a, l.map(&mut f)),
            FastLayout::Threats(a, l) => FastLayout::Threats(a, l.map(&mut f)),
            FastLayout::Sf19(a, l) => FastLayout::Sf19(a, l.map(&mut f)),
            FastLayout::Sf19Lite(a, l) => FastLayout::Sf19Lite(a, l.map(&mut f)),
            FastLayout::HalfKp(a, l) => FastLayout::HalfKp(a, l.map(&mut f)),
            FastLayout::Chess768(a, l) => FastLayout::Chess768(a, l.map(&mut f)),
            FastLayout::Layered(a, l) => FastLayout::Layered(a, l.map(&mut f)),
        }
    }

    /// The layout of a net of `arch` from its arrays by name (`None` if `find` misses one);
    /// `screlu_in_i16` as [`Chess768Config::screlu_in_i16`] (ignored by the other families).
    pub fn assemble(
        arch: &Architecture,
        screlu_in_i16: bool,
        mut find: impl FnMut(&'static str) -> Option<A>,
    ) -> Option<Self> {
        Some(match arch {
            Architecture::Sfnn(a) => FastLayout::Sfnn(*a, SfnnLayout::assemble(&mut find)?),
            Architecture::Threats(a) => FastLayout::Threats(*a, ThreatsLayout::assemble(&mut find)?),
            Architecture::Sf19(a) => match a.inputs {
                Sf19Inputs::Full => FastLayout::Sf19(*a, Sf19Layout::assemble(&mut find)?),
                Sf19Inputs::Lite => FastLayout::Sf19Lite(*a, Sf19LiteLayout::assemble(&mut find)?),
            },
            Architecture::HalfKp(a) => FastLayout::HalfKp(*a, HalfKpLayout::assemble(&mut find)?),
            Architecture::Chess768(a) => {
                FastLayout::Chess768(*a, Chess768Layout::assemble(Chess768Config::new(a, screlu_in_i16), &mut find)?)
            }
            Architecture::Layered(a) => FastLayout::Layered(*a, LayeredLayout::assemble(*a, &mut find)?),
        })
    }
}

fn blob<T: Copy>(dims: Vec<usize>, values: &[T], le: impl Fn(T, &mut Vec<u8>)) -> Array {
    debug_assert_eq!(dims.iter().product::<usize>(), values.len());
    // Sized up front: collecting the flat_map would grow (and copy) the vector by doubling.
    let mut bytes = Vec::with_capacity(std::mem::size_of_val(values));
    values.iter().for_each(|&v| le(v, &mut bytes));
    let elem = match std::mem::size_of::<T>() {
        1 => Elem::I8,
        2 => Elem::I16,
        _ => Elem::I32,
    };
    Array { elem, dims, bytes }
}

fn i8s(dims: Vec<usize>, v: &[i8]) -> Array {
    blob(dims, v, |x, out| out.extend_from_slice(&x.to_le_bytes()))
}
fn i16s(dims: Vec<usize>, v: &[i16]) -> Array {
    blob(dims, v, |x, out| out.extend_from_slice(&x.to_le_bytes()))
}
fn i32s(dims: Vec<usize>, v: &[i32]) -> Array {
    blob(dims, v, |x, out| out.extend_from_slice(&x.to_le_bytes()))
}

/// Transformer rows with columns in pack order within each `block` (a perspective's output
/// run: L1/2 for the SFNN pairwise halves, L1 for HalfKP), optionally doubled.
fn ft_columns(row: &[i16], double: bool) -> Vec<i16> {
    let mut out = vec![0i16; row.len()];
    for (j, &v) in row.iter().enumerate() {
        // Blocks of 32 never straddle a half: L1/2 is a multiple of 32.
        out[pack_slot(j)] = if double { v.wrapping_mul(2) } else { v };
    }
    out
}

/// The transformer's biases and weights, pack-ordered and optionally doubled.
fn ft_arrays(ft: &FeatureTransformer, double: bool) -> (Array, Array) {
    let l1 = ft.l1();
    let inputs = ft.weights.len() / l1;
    // Straight to bytes, row by row: no second copy of the largest array.
    let mut weights = Vec::with_capacity(ft.weights.len() * 2);
    for f in 0..inputs {
        ft_columns(ft.row(f), double).iter().for_each(|v| weights.extend_from_slice(&v.to_le_bytes()));
    }
    let weights = Array { elem: Elem::I16, dims: vec![inputs, l1], bytes: weights };
    (i16s(vec![l1], &ft_columns(&ft.biases, double)), weights)
}

/// `[chunk][output][4]` over the padded inputs.
fn scramble(layer: &Dense) -> Vec<i8> {
    let (p, o) = (layer.padded_inputs, layer.outputs);
    let mut out = vec![0i8; p * o];
    for (i, &w) in layer.weights.iter().enumerate() {
        let (row, col) = (i / p, i % p);
        out[(col / 4) * o * 4 + row * 4 + col % 4] = w;
    }
    out
}

/// Scrambled layers of several stacks as one `[stack][chunk][output][4]` array.
fn stacked_scrambled(layers: &[&Dense]) -> Array {
    let l = layers[0];
    let v: Vec<i8> = layers.iter().flat_map(|d| scramble(d)).collect();
    i8s(vec![layers.len(), l.padded_inputs / 4, l.outputs, 4], &v)
}

fn stacked_biases(layers: &[&Dense]) -> Array {
    let v: Vec<i32> = layers.iter().flat_map(|d| d.biases.iter().copied()).collect();
    i32s(vec![layers.len(), layers[0].outputs], &v)
}

fn stacked_rows(layers: &[&Dense]) -> Array {
    let l = layers[0];
    let v: Vec<i8> = layers.iter().flat_map(|d| d.weights.iter().copied()).collect();
    i8s(vec![layers.len(), l.padded_inputs], &v)
}

/// The 8 layer stacks of the SFNN families: fc_0 scrambled for the sparse kernel; fc_1 and fc_2
/// with their inputs in the order the SIMD activations leave them (pack order).
fn sfnn_stacks(stacks: &[crate::Stack]) -> StacksLayout {
    let pick = |f: fn(&crate::Stack) -> &Dense| stacks.iter().map(f).collect::<Vec<_>>();
    let (fc0, fc1, fc2) = (pick(|s| &s.fc0), pick(|s| &s.fc1), pick(|s| &s.fc2));
    let permuted = |d: &Dense, source: &dyn Fn(usize) -> Option<usize>| {
        let mut out = d.clone();
        for o in 0..d.outputs {
            for s in 0..d.padded_inputs {
                out.weights[o * d.padded_inputs + s] = source(s).map_or(0, |i| d.weights[o * d.padded_inputs + i]);
            }
        }
        out
    };
    let fc1: Vec<Dense> = fc1.iter().map(|d| permuted(d, &|s| sfnn_fc1_input(s))).collect();
    let fc2: Vec<Dense> = fc2.iter().map(|d| permuted(d, &|s| Some(sfnn_fc1_act_source(s)))).collect();
    let (fc1, fc2): (Vec<&Dense>, Vec<&Dense>) = (fc1.iter().collect(), fc2.iter().collect());
    stacks_layout(&fc0, &fc1, &fc2)
}

/// The stacks' arrays: fc_0 and fc_1 scrambled (`[stack][chunk][output][4]`), fc_2 as rows.
fn stacks_layout(fc0: &[&Dense], fc1: &[&Dense], fc2: &[&Dense]) -> StacksLayout {
    StacksLayout {
        fc0_biases: stacked_biases(fc0),
        fc0_weights: stacked_scrambled(fc0),
        fc1_biases: stacked_biases(fc1),
        fc1_weights: stacked_scrambled(fc1),
        fc2_biases: stacked_biases(fc2),
        fc2_weights: stacked_rows(fc2),
    }
}

/// Stockfish 19's layer stacks: fc_0 scrambled for the sparse kernel, fc_1 scrambled with its
/// inputs in canonical order (the activations are written in that order), fc_2 as rows.
fn sf19_stacks(stacks: &[crate::Stack]) -> StacksLayout {
    let pick = |f: fn(&crate::Stack) -> &Dense| stacks.iter().map(f).collect::<Vec<_>>();
    stacks_layout(&pick(|s| &s.fc0), &pick(|s| &s.fc1), &pick(|s| &s.fc2))
}

/// int8 transformer rows (`[rows][l1]`) with their columns in pack order.
fn int8_rows(weights: &[i8], l1: usize) -> Array {
    let mut bytes = Vec::with_capacity(weights.len());
    for row in weights.chunks_exact(l1) {
        let mut packed = vec![0u8; l1];
        for (j, &v) in row.iter().enumerate() {
            packed[pack_slot(j)] = v as u8;
        }
        bytes.extend_from_slice(&packed);
    }
    Array { elem: Elem::I8, dims: vec![weights.len() / l1, l1], bytes }
}

/// Every array the fast path of `net` reads, by name, and the scalars it needs.
pub fn fast_layout(net: &Net) -> FastLayout {
    match &net.model {
        Model::Sfnn(arch, p) => {
            let (ft_biases, ft_weights) = ft_arrays(&p.ft, true);
            let psqt_weights = i32s(vec![p.ft.weights.len() / p.ft.l1(), 8], &p.ft.psqt);
            FastLayout::Sfnn(*arch, SfnnLayout { ft_biases, ft_weights, psqt_weights, stacks: sfnn_stacks(&p.stacks) })
        }
        Model::Threats(arch, p) => {
            // The same column order as SFNN's (so the same kernels run), but not doubled: the
            // transform clamps to 0..=255 instead.
            let (ft_biases, ft_weights) = ft_arrays(&p.ft, false);
            let threat_weights = int8_rows(&p.threat_weights, p.ft.l1());
            let psqt_weights = i32s(vec![p.ft.psqt.len() / 8, 8], &p.ft.psqt);
            let stacks = sfnn_stacks(&p.stacks);
            FastLayout::Threats(*arch, ThreatsLayout { ft_biases, threat_weights, ft_weights, psqt_weights, stacks })
        }
        Model::Sf19(arch, p) => {
            // Pack-ordered, not doubled: the SFNN transform kernels with the clamp at 255.
            let (ft_biases, ft_weights) = ft_arrays(&p.ft, false);
            let psqt_weights = i32s(vec![arch.inputs(), Sf19Arch::PSQT_BUCKETS], &p.ft.psqt);
            let stacks = sf19_stacks(&p.stacks);
            match arch.inputs {
                Sf19Inputs::Full => {
                    let int8_weights = int8_rows(&p.int8_weights, arch.l1);
                    FastLayout::Sf19(*arch, Sf19Layout { ft_biases, int8_weights, ft_weights, psqt_weights, stacks })
                }
                Sf19Inputs::Lite => {
                    FastLayout::Sf19Lite(*arch, Sf19LiteLayout { ft_biases, ft_weights, psqt_weights, stacks })
                }
            }
        }
        Model::HalfKp(arch, p) => {
            let (ft_biases, ft_weights) = ft_arrays(&p.ft, false);
            let layout = HalfKpLayout {
                ft_biases,
                ft_weights,
                fc0_biases: stacked_biases(&[&p.fc0]),
                fc0_weights: stacked_scrambled(&[&p.fc0]),
                fc1_biases: stacked_biases(&[&p.fc1]),
                fc1_weights: stacked_scrambled(&[&p.fc1]),
                fc2_biases: stacked_biases(&[&p.fc2]),
                fc2_weights: stacked_rows(&[&p.fc2]),
            };
            FastLayout::HalfKp(*arch, layout)
        }
        Model::Chess768(arch, p) => FastLayout::Chess768(*arch, chess768_layout(arch, &p.l0w, &p.l0b, &p.l1w, &p.l1b)),
        Model::Layered(arch, p) => FastLayout::Layered(*arch, layered_layout(arch, p)),
    }
}

/// Per bucket, `[outputs][inputs]` weights as `[inputs][outputs]` (empty without outputs).
fn input_major(w: &[i32], outputs: usize, inputs: usize) -> Vec<i32> {
    let mut out = vec![0i32; w.len()];
    if outputs * inputs == 0 {
        return out;
    }
    for (k, bucket) in w.chunks_exact(outputs * inputs).enumerate() {
        for o in 0..outputs {
            for i in 0..inputs {
                out[(k * inputs + i) * outputs + o] = bucket[o * inputs + i];
            }
        }
    }
    out
}

/// A multi-layer net's arrays (see [`LayeredLayout`]).
fn layered_layout(arch: &crate::LayeredArch, p: &crate::LayeredParams) -> LayeredLayout {
    let (l1, l2, l3, l2f, b) = (arch.l1, arch.l2, arch.l3, arch.l2_full(), arch.buckets);
    let ft = FeatureTransformer {
        biases: p.ft_biases.clone(),
        weights: p.ft_weights.clone(),
        psqt: Vec::new(),
        encoding: [crate::Encoding::Raw; 3],
    };
    let (ft_biases, ft_weights) = ft_arrays(&ft, false);
    let sparse: Vec<Dense> = (0..b)
        .map(|k| Dense {
            inputs: l1,
            padded_inputs: l1,
            outputs: l2,
            biases: vec![0; l2],
            weights: p.l1_weights[k * l2 * l1..(k + 1) * l2 * l1].to_vec(),
        })
        .collect();
    let l2_weights = input_major(&p.l2_weights, l3, l2f);
    // The second dense layer (cinder's) input-major too.
    let (o3, n3) = (arch.l3b.unwrap_or(0), arch.dense_act_width());
    let l3b_weights = input_major(&p.l3b_weights, o3, n3);
    let l3b_dims = if o3 > 0 { vec![b, n3, o3] } else { vec![0] };
    LayeredLayout {
        threat_weights: int8_rows(&p.threat_weights, l1),
        ft_biases,
        ft_weights,
        l1_weights: stacked_scrambled(&sparse.iter().collect::<Vec<_>>()),
        l1_biases: i32s(vec![b, l2], &p.l1_biases),
        l2_weights: i32s(vec![b, l2f, l3], &l2_weights),
        l2_biases: i32s(vec![b, l3], &p.l2_biases),
        l3b_weights: i32s(l3b_dims, &l3b_weights),
        l3b_biases: i32s(if o3 > 0 { vec![b, o3] } else { vec![0] }, &p.l3b_biases),
        l3_weights: i32s(vec![b, arch.l3_inputs()], &p.l3_weights),
        l3_biases: i32s(vec![b], &p.l3_biases),
        arch: *arch,
    }
}

/// Whether a headerless SCReLU net may compute `v * (v * w)` with `v * w` in int16
/// (`qa * max |output weight| <= 32767`); otherwise the exact int32 form is used.
/// The most features a perspective has at once: a position's pieces, kings included.
const MAX_ACTIVE: usize = 32;

/// The accumulator columns of a single-layer net that can never be positive: the bias plus the
/// `MAX_ACTIVE` largest positive weights of the column is at most 0, and the bias plus its
/// `MAX_ACTIVE` most negative weights is not below `i16::MIN` (so the int16 sum never wraps
/// to a positive value). Their CReLU or SCReLU is 0 in every position: dropping them, with
/// their output weights, changes no integer of the evaluation.
pub fn chess768_dead_columns(p: &Chess768Params) -> Vec<usize> {
    let n = p.hidden();
    let rows = p.l0w.len() / n;
    let k = MAX_ACTIVE.min(rows);
    let mut col = vec![0i32; rows];
    (0..n)
        .filter(|&j| {
            for (c, row) in col.iter_mut().zip(p.l0w.chunks_exact(n)) {
                *c = i32::from(row[j]);
            }
            let bias = i32::from(p.l0b[j]);
            // The k smallest, then (among the rest) the k largest.
            col.select_nth_unstable(k - 1);
            let low: i32 = col[..k].iter().filter(|&&w| w < 0).sum();
            col.select_nth_unstable_by(k - 1, |a, b| b.cmp(a));
            let high: i32 = col[..k].iter().filter(|&&w| w > 0).sum();
            bias + high <= 0 && bias + low >= i32::from(i16::MIN)
        })
        .collect()
}

/// [`fast_layout`], with a single-layer net's dead columns ([`chess768_dead_columns`])
/// dropped, as many as leave the width a multiple of 32 (the kernels' step): what `nnue_net!`
/// compiles in (a net read at run time keeps every column). The layout's arrays then have
/// fewer columns than the architecture says.
pub fn fast_layout_pruned(net: &Net) -> FastLayout {
    let Model::Chess768(arch, p) = &net.model else { return fast_layout(net) };
    let dead = chess768_dead_columns(p);
    let drop = dead.len() / 32 * 32;
    if drop == 0 || drop == p.hidden() {
        return fast_layout(net);
    }
    let n = p.hidden();
    let gone: std::collections::HashSet<usize> = dead[..drop].iter().copied().collect();
    let kept: Vec<usize> = (0..n).filter(|j| !gone.contains(j)).collect();
    // The kept columns of each row of `n` (input rows, the biases, each output half).
    let pick =
        |v: &[i16]| -> Vec<i16> { v.chunks_exact(n).flat_map(|row| kept.iter().map(move |&j| row[j])).collect() };
    let (l0w, l0b, l1w) = (pick(&p.l0w), pick(&p.l0b), pick(&p.l1w));
    FastLayout::Chess768(*arch, chess768_layout(arch, &l0w, &l0b, &l1w, &p.l1b))
}

/// A single-layer net's arrays, as wide as `l0b` (`l0w` `[inputs][width]`, `l1w`
/// `[bucket][2][width]`).
fn chess768_layout(arch: &Chess768Arch, l0w: &[i16], l0b: &[i16], l1w: &[i16], l1b: &[i16]) -> Chess768Layout {
    let (n, buckets) = (l0b.len(), l1b.len());
    Chess768Layout {
        l0_biases: i16s(vec![n], l0b),
        l0_weights: i16s(vec![l0w.len() / n, n], l0w),
        l1_weights: i16s(vec![buckets, 2, n], l1w),
        l1_biases: i16s(vec![buckets], l1b),
        config: Chess768Config::new(arch, screlu_fits_i16(l1w, arch.qa)),
    }
}

fn screlu_fits_i16(l1w: &[i16], qa: i32) -> bool {
    l1w.iter().all(|&w| i32::from(w).abs() * qa <= i32::from(i16::MAX))
}

/// Checks that the net can be evaluated exactly as Stockfish does. Stockfish doubles an SFNN
/// transformer's biases and weights when it loads the net; a value outside -16384..16384 does
/// not fit int16 once doubled, and what Stockfish's code makes of it is not defined, so such a
/// net is refused rather than evaluated one way or another. (Sums of doubled values that leave
/// int16 are fine: they wrap, in Stockfish's accumulators and in ours alike.)
pub fn check(net: &Net) -> Result<(), NotExact> {
    if let Model::Sfnn(_, p) = &net.model {
        let too_big = |v: &[i16]| v.iter().position(|&x| !(-16384..16384).contains(&x));
        if let Some(index) = too_big(&p.ft.biases) {
            return Err(NotExact { what: "bias", index, value: p.ft.biases[index] });
        }
        if let Some(index) = too_big(&p.ft.weights) {
            return Err(NotExact { what: "weight", index, value: p.ft.weights[index] });
        }
    }
    Ok(())
}

/// Why [`check`] refuses a net: a feature-transformer value that Stockfish's doubling at load
/// takes out of int16.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "feature-transformer {what} {index} is {value}: Stockfish doubles the transformer when it loads a net, \
     and the doubled value does not fit int16, so no exact evaluation exists"
)]
pub struct NotExact {
    /// `"bias"` or `"weight"`.
    pub what: &'static str,
    /// Its index in the transformer's biases or weights.
    pub index: usize,
    /// The value.
    pub value: i16,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A column is dead only if no position lifts it above 0 and no sum can wrap: the bounds
    /// take a position's 32 features at most.
    #[test]
    fn dead_columns_are_the_ones_no_position_makes_positive() {
        let n = 32;
        let mut p = crate::Chess768Params {
            l0w: vec![0; 768 * n],
            l0b: vec![1; n],
            l1w: vec![1; 2 * n],
            l1b: vec![0],
            padding: crate::Padding::None,
        };
        // 0: bias 0, weights 0: dead. 1: bias -10, one weight 10: dead (the sum is at most 0).
        // 2: bias -10, one weight 11: alive. 3: bias 0, 33 weights of -1100: 32 of them
        // reach -35200 and would wrap, so not dead. 4: 31 weights of -1000 and a bias of
        // -1000: -32000, dead. 5 and the rest: bias 1: alive.
        p.l0b[..5].copy_from_slice(&[0, -10, -10, 0, -1000]);
        p.l0w[100 * n + 1] = 10;
        p.l0w[100 * n + 2] = 11;
        for r in 0..33 {
            p.l0w[r * n + 3] = -1100;
        }
        for r in 0..31 {
            p.l0w[r * n + 4] = -1000;
        }
        assert_eq!(chess768_dead_columns(&p), vec![0, 1, 4]);
    }

    fn every_family() -> Vec<Net> {
        let chess768 = |text: &str| match text.parse::<Architecture>().unwrap() {
            Architecture::Chess768(a) => crate::synth::chess768(&a, 3),
            _ => unreachable!(),
        };
        vec![
            crate::synth::sfnn(64, 1, crate::Encoding::Leb128),
            crate::synth::threats(64, 2, crate::Encoding::Leb128),
            crate::synth::sf19(64, Sf19Inputs::Full, 4, crate::Encoding::Leb128),
            crate::synth::sf19(64, Sf19Inputs::Lite, 5, crate::Encoding::Raw),
            crate::synth::halfkp(64, 3),
            chess768("(768x2hm -> 32)x2 -> 1x8, screlu, qa=255, qb=64, scale=400, kings=[0,0,1,1,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]"),
        ]
    }

    /// The names are what the macro's statics, the cache's files and the runtime's fields go
    /// by: unique within a layout, and enough to put the layout back together.
    #[test]
    fn a_layout_goes_by_its_names() {
        for net in every_family() {
            let layout = fast_layout(&net);
            assert_eq!(layout.arch(), net.arch());
            let mut names: Vec<&str> = layout.arrays().into_iter().map(|(name, _)| name).collect();
            let count = names.len();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), count, "{}: {names:?}", net.arch());
            for (name, array) in layout.arrays() {
                assert_eq!(Array::size(array.elem, &array.dims), Some(array.bytes.len()), "{name}");
            }
            let screlu_in_i16 = matches!(&layout, FastLayout::Chess768(_, l) if l.config.screlu_in_i16);
            let mut by_name: std::collections::HashMap<&str, Array> =
                layout.clone().map(|name, array| (name, array)).arrays().into_iter().map(|(_, p)| p.clone()).collect();
            let back = FastLayout::assemble(&net.arch(), screlu_in_i16, |name| by_name.remove(name)).unwrap();
            assert_eq!(back, layout);
            assert!(FastLayout::<Array>::assemble(&net.arch(), screlu_in_i16, |_| None).is_none());
        }
    }

    #[test]
    fn pack_slot_is_an_involution_swapping_middle_groups() {
        for j in 0..96 {
            assert_eq!(pack_slot(pack_slot(j)), j);
            assert_eq!(pack_slot(j) / 32, j / 32);
        }
        assert_eq!((pack_slot(8), pack_slot(16), pack_slot(31)), (16, 8, 31));
    }

    #[test]
    fn sfnn_act_orders_are_permutations() {
        let mut fc1: Vec<_> = (0..32).filter_map(sfnn_fc1_input).collect();
        fc1.sort();
        assert_eq!(fc1, (0..30).collect::<Vec<_>>());
        let mut fc0: Vec<_> = (0..32).map(sfnn_fc0_act_source).collect();
        fc0.sort();
        assert_eq!(fc0, (0..16).flat_map(|i| [(i, false), (i, true)]).collect::<Vec<_>>());
        let mut fc2: Vec<_> = (0..32).map(sfnn_fc1_act_source).collect();
        fc2.sort();
        assert_eq!(fc2, (0..32).collect::<Vec<_>>());
        // packs keep the first 4 of each register's lane together.
        assert_eq!(
            [sfnn_fc0_act_source(0), sfnn_fc0_act_source(4), sfnn_fc0_act_source(8)],
            [(0, true), (8, true), (0, false)]
        );
        assert_eq!([sfnn_fc1_act_source(4), sfnn_fc1_act_source(16)], [8, 4]);
    }

    #[test]
    fn scramble_matches_stockfish_weight_index() {
        let mut d = Dense::zeroed(30, 32);
        for (i, w) in d.weights.iter_mut().enumerate() {
            *w = (i % 251) as i8;
        }
        let s = scramble(&d);
        let (p, o) = (32, 32);
        for i in 0..p * o {
            // Stockfish: (i / 4) % (P / 4) * O * 4 + i / P * 4 + i % 4
            assert_eq!(s[(i / 4) % (p / 4) * o * 4 + i / p * 4 + i % 4], d.weights[i]);
        }
    }
}
