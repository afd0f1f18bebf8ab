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

use crate::net::{Dense, FeatureTransformer, Net, Params};

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

/// Element type of a [`Blob`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Elem {
    /// `i8`.
    I8,
    /// `i16`.
    I16,
    /// `i32`.
    I32,
}

impl Elem {
    /// The Rust type's name (`"i8"`, `"i16"`, `"i32"`), for generated code.
    pub fn rust_name(self) -> &'static str {
        match self {
            Elem::I8 => "i8",
            Elem::I16 => "i16",
            Elem::I32 => "i32",
        }
    }
}

/// One array of the fast layout: a name, a nested array shape (outermost first) and its
/// little-endian bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blob {
    /// The array's name (the macro's static of that name).
    pub name: &'static str,
    /// Element type.
    pub elem: Elem,
    /// Shape, outermost dimension first.
    pub dims: Vec<usize>,
    /// The elements, little-endian, in row-major order.
    pub bytes: Vec<u8>,
}

fn blob<T: Copy>(name: &'static str, elem: Elem, dims: Vec<usize>, values: &[T], le: impl Fn(T) -> Vec<u8>) -> Blob {
    debug_assert_eq!(dims.iter().product::<usize>(), values.len());
    // Sized up front: collecting the flat_map would grow (and copy) the vector by doubling.
    let mut bytes = Vec::with_capacity(std::mem::size_of_val(values));
    values.iter().for_each(|&v| bytes.extend_from_slice(&le(v)));
    Blob { name, elem, dims, bytes }
}

fn i8s(name: &'static str, dims: Vec<usize>, v: &[i8]) -> Blob {
    blob(name, Elem::I8, dims, v, |x| x.to_le_bytes().to_vec())
}
fn i16s(name: &'static str, dims: Vec<usize>, v: &[i16]) -> Blob {
    blob(name, Elem::I16, dims, v, |x| x.to_le_bytes().to_vec())
}
fn i32s(name: &'static str, dims: Vec<usize>, v: &[i32]) -> Blob {
    blob(name, Elem::I32, dims, v, |x| x.to_le_bytes().to_vec())
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

fn ft_blobs(ft: &FeatureTransformer, double: bool) -> [Blob; 2] {
    let l1 = ft.l1();
    let inputs = ft.weights.len() / l1;
    // Straight to bytes, row by row: no second copy of the largest array.
    let mut weights = Vec::with_capacity(ft.weights.len() * 2);
    for f in 0..inputs {
        ft_columns(ft.row(f), double).iter().for_each(|v| weights.extend_from_slice(&v.to_le_bytes()));
    }
    let weights = Blob { name: "FT_WEIGHTS", elem: Elem::I16, dims: vec![inputs, l1], bytes: weights };
    [i16s("FT_BIASES", vec![l1], &ft_columns(&ft.biases, double)), weights]
}

/// `[chunk][output][4]` over the padded inputs.
pub fn scramble(layer: &Dense) -> Vec<i8> {
    let (p, o) = (layer.padded_inputs, layer.outputs);
    let mut out = vec![0i8; p * o];
    for (i, &w) in layer.weights.iter().enumerate() {
        let (row, col) = (i / p, i % p);
        out[(col / 4) * o * 4 + row * 4 + col % 4] = w;
    }
    out
}

/// Scrambled layers of several stacks as one `[stack][chunk][output][4]` blob.
fn stacked_scrambled(name: &'static str, layers: &[&Dense]) -> Blob {
    let l = layers[0];
    let v: Vec<i8> = layers.iter().flat_map(|d| scramble(d)).collect();
    i8s(name, vec![layers.len(), l.padded_inputs / 4, l.outputs, 4], &v)
}

fn stacked_biases(name: &'static str, layers: &[&Dense]) -> Blob {
    let v: Vec<i32> = layers.iter().flat_map(|d| d.biases.iter().copied()).collect();
    i32s(name, vec![layers.len(), layers[0].outputs], &v)
}

fn stacked_rows(name: &'static str, layers: &[&Dense]) -> Blob {
    let l = layers[0];
    let v: Vec<i8> = layers.iter().flat_map(|d| d.weights.iter().copied()).collect();
    i8s(name, vec![layers.len(), l.padded_inputs], &v)
}

/// The 8 layer stacks of the SFNN families: fc_0 scrambled for the sparse kernel; fc_1 and fc_2
/// with their inputs in the order the SIMD activations leave them (pack order).
fn sfnn_stacks(stacks: &[crate::Stack]) -> Vec<Blob> {
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
    vec![
        stacked_biases("FC0_BIASES", &fc0),
        stacked_scrambled("FC0_WEIGHTS", &fc0),
        stacked_biases("FC1_BIASES", &fc1),
        stacked_scrambled("FC1_WEIGHTS", &fc1),
        stacked_biases("FC2_BIASES", &fc2),
        stacked_rows("FC2_WEIGHTS", &fc2),
    ]
}

/// Every array the fast path of `net` reads, in the order the runtime's constructors take them.
pub fn fast_layout(net: &Net) -> Vec<Blob> {
    match &net.params {
        Params::Sfnn(p) => {
            let [b, w] = ft_blobs(&p.ft, true);
            let psqt = i32s("PSQT_WEIGHTS", vec![p.ft.weights.len() / p.ft.l1(), 8], &p.ft.psqt);
            [vec![b, w, psqt], sfnn_stacks(&p.stacks)].concat()
        }
        Params::Threats(p) => {
            // The same column order as SFNN's (so the same kernels run), but not doubled: the
            // transform clamps to 0..=255 instead.
            let l1 = p.ft.l1();
            let [b, w] = ft_blobs(&p.ft, false);
            let mut threats = Vec::with_capacity(p.threat_weights.len());
            for row in p.threat_weights.chunks_exact(l1) {
                let mut packed = vec![0u8; l1];
                for (j, &v) in row.iter().enumerate() {
                    packed[pack_slot(j)] = v as u8;
                }
                threats.extend_from_slice(&packed);
            }
            let threats = Blob {
                name: "THREAT_WEIGHTS",
                elem: Elem::I8,
                dims: vec![p.threat_weights.len() / l1, l1],
                bytes: threats,
            };
            let psqt = i32s("PSQT_WEIGHTS", vec![p.ft.psqt.len() / 8, 8], &p.ft.psqt);
            [vec![b, threats, w, psqt], sfnn_stacks(&p.stacks)].concat()
        }
        Params::HalfKp(p) => {
            let [b, w] = ft_blobs(&p.ft, false);
            vec![
                b,
                w,
                stacked_biases("FC0_BIASES", &[&p.fc0]),
                stacked_scrambled("FC0_WEIGHTS", &[&p.fc0]),
                stacked_biases("FC1_BIASES", &[&p.fc1]),
                stacked_scrambled("FC1_WEIGHTS", &[&p.fc1]),
                stacked_biases("FC2_BIASES", &[&p.fc2]),
                stacked_rows("FC2_WEIGHTS", &[&p.fc2]),
            ]
        }
        Params::Chess768(p) => {
            let n = p.hidden();
            let buckets = p.l1b.len();
            vec![
                i16s("L0_BIASES", vec![n], &p.l0b),
                i16s("L0_WEIGHTS", vec![p.l0w.len() / n, n], &p.l0w),
                i16s("L1_WEIGHTS", vec![buckets, 2, n], &p.l1w),
                i16s("L1_BIASES", vec![buckets], &p.l1b),
            ]
        }
    }
}

/// Whether a headerless SCReLU net may compute `v * (v * w)` with `v * w` in int16
/// (`qa * max |output weight| <= 32767`); otherwise the exact int32 form is used.
pub fn screlu_fits_i16(l1w: &[i16], qa: i32) -> bool {
    l1w.iter().all(|&w| i32::from(w).abs() * qa <= i32::from(i16::MAX))
}

/// Checks that the net can be evaluated exactly as Stockfish does. Stockfish doubles an SFNN
/// transformer's biases and weights when it loads the net; a value outside -16384..16384 does
/// not fit int16 once doubled, and what Stockfish's code makes of it is not defined, so such a
/// net is refused rather than evaluated one way or another. (Sums of doubled values that leave
/// int16 are fine: they wrap, in Stockfish's accumulators and in ours alike.)
pub fn check(net: &Net) -> Result<(), String> {
    if let Params::Sfnn(p) = &net.params {
        let too_big = |v: &[i16]| v.iter().position(|&x| !(-16384..16384).contains(&x));
        let why = "Stockfish doubles the transformer when it loads a net, and the doubled value does \
                   not fit int16, so no exact evaluation exists";
        if let Some(i) = too_big(&p.ft.biases) {
            return Err(format!("feature-transformer bias {i} is {}: {why}", p.ft.biases[i]));
        }
        if let Some(i) = too_big(&p.ft.weights) {
            return Err(format!("feature-transformer weight {i} is {}: {why}", p.ft.weights[i]));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
