//! A net's file, derived from its architecture: the parts in file order (section hashes, and
//! arrays with their element type, length, storage and axis order), and which of the net's
//! parameters each array is. The one reader (`read.rs`) and the one writer (`write.rs`) walk
//! this list. What differs between files is stated in their records: Stockfish's (which
//! arrays, in which order, LEB128 or raw, the network's shape: `stockfish_format.rs`) and the
//! multi-layer engines' (`layered/format.rs`, their arrays in `layered/file.rs`); here the
//! records become parts, and the parts the parameters. (Headers and what follows the arrays,
//! `bullet` padding and `CBNF`'s, are the frame around the list: `read.rs`, `write.rs`,
//! `headerless.rs` and `layered/header.rs`.)

use std::collections::HashMap;

use crate::arch::{Architecture, HalfKpArch, OutputOrder, Sf19Arch, Sf19Inputs, SfnnArch};
pub(crate) use crate::elem::Elem;
use crate::layered::file::FileArray;
use crate::layered::Numbers;
use crate::net::{
    Chess768Params, Dense, Encoding, FeatureTransformer, HalfKpParams, LayeredParams, Model, Padding, Sf19Params,
    SfnnParams, Stack, ThreatsParams,
};
use crate::stockfish_format::{self, Network, StockfishFormat};

/// How an array is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Storage {
    /// Little-endian values back to back.
    Raw,
    /// Raw or LEB128-compressed (Stockfish's `COMPRESSED_LEB128` magic tells them apart).
    RawOrLeb128,
    /// One LEB128 varint per value, back to back (PlentyChess's files): signed, or (f32
    /// arrays) unsigned of the bits.
    Varint,
}

/// One array of a file.
#[derive(Debug, Clone)]
pub(crate) struct ArrayPart {
    /// Where an error in it is reported.
    pub section: String,
    /// What it is, in error messages.
    pub what: String,
    pub elem: Elem,
    pub len: usize,
    pub storage: Storage,
    /// The file's axis order, where it is not the parameters' (canonical) one.
    pub order: Option<FileArray>,
    /// float32 bits that must be finite (a NaN or an infinity would evaluate to garbage).
    pub finite: bool,
    /// Zeros after it up to a multiple of this (1: none): Stormphrax's uncompressed arrays.
    pub align: usize,
}

/// One part of a file, in file order.
#[derive(Debug, Clone)]
pub(crate) enum Part {
    /// A u32 section hash that must have this value.
    Hash {
        section: String,
        value: u32,
    },
    Array(ArrayPart),
}

/// An array's values, owned (read) or borrowed (to write).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Values {
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
}

/// An array's values as the parameters hold them.
#[derive(Debug, Clone, Copy)]
pub(crate) enum ValuesRef<'a> {
    I8(&'a [i8]),
    I16(&'a [i16]),
    I32(&'a [i32]),
}

/// An array as read, or to write: its values (canonical order) and how it is stored.
pub(crate) type Stored<V> = (V, Encoding);

/// The parts of `arch`'s file after its header, in order.
pub(crate) fn parts(arch: &Architecture) -> Vec<Part> {
    let mut p = Plan::default();
    if let (Some(f), Some([ft_hash, network_hash])) = (StockfishFormat::of(arch), stockfish_format::hashes(arch)) {
        // A Stockfish file, as its record says: the transformer behind its hash, then the network.
        let l1 = arch.l1();
        p.hash("feature transformer", ft_hash);
        for a in f.ft {
            let storage = if a.leb128 { Storage::RawOrLeb128 } else { Storage::Raw };
            p.array("feature transformer", a.what, a.elem, a.rows * a.width.of(l1), storage, None);
        }
        match f.network {
            Network::Stacks(shape) => p.stacks(l1, network_hash, shape),
            Network::Chain([l2, l3]) => {
                p.hash("network", network_hash);
                p.dense("network", "fc_0", 2 * l1, l2);
                p.dense("network", "fc_1", l2, l3);
                p.dense("network", "fc_2", l3, 1);
            }
        }
        return p.0;
    }
    match *arch {
        Architecture::Chess768(a) => {
            let (n, b) = (a.hidden, a.output_buckets);
            p.named("l0 weights", Elem::I16, a.inputs() * n, None);
            p.named("l0 biases", Elem::I16, n, None);
            // `[bucket][2N]` in the parameters; bullet's 2024 default stores `[2N][bucket]`.
            let order = (a.output_order == OutputOrder::NeuronMajor)
                .then(|| FileArray::new("l1 weights", Elem::I16, &[b, 2 * n], &[1, 0]));
            p.named("l1 weights", Elem::I16, b * 2 * n, order);
            p.named("l1 biases", Elem::I16, b, None);
        }
        Architecture::Layered(a) => {
            // Each engine's own order (`layered::file`); Stormphrax and Obsidian align each
            // array (the frame checks the last one's padding, which the file may leave out).
            let align = a.file.array_align();
            let float = matches!(a.numbers, Numbers::F32 { .. });
            for f in crate::layered::file::arrays(&a) {
                let elem = f.elem;
                let finite = float && elem == Elem::I32;
                let order = (!f.is_canonical()).then(|| f.clone());
                p.0.push(Part::Array(ArrayPart {
                    section: f.name.into(),
                    what: f.name.into(),
                    elem,
                    len: f.len(),
                    storage: if a.file.varints() { Storage::Varint } else { Storage::Raw },
                    order,
                    finite,
                    align,
                }));
            }
        }
        Architecture::Sfnn(_) | Architecture::Threats(_) | Architecture::Sf19(_) | Architecture::HalfKp(_) => {
            unreachable!("every Stockfish architecture has its record")
        }
    }
    p.0
}

/// Builds a part list.
#[derive(Default)]
struct Plan(Vec<Part>);

impl Plan {
    fn hash(&mut self, section: &str, value: u32) {
        self.0.push(Part::Hash { section: section.into(), value });
    }

    fn array(&mut self, section: &str, what: &str, elem: Elem, len: usize, storage: Storage, order: Option<FileArray>) {
        let (section, what) = (section.into(), what.into());
        self.0.push(Part::Array(ArrayPart { section, what, elem, len, storage, order, finite: false, align: 1 }));
    }

    /// A headerless net's array, its own section.
    fn named(&mut self, name: &str, elem: Elem, len: usize, order: Option<FileArray>) {
        self.array(name, name, elem, len, Storage::Raw, order);
    }

    /// An int8 affine layer as Stockfish stores it: int32 biases, then int8 weights
    /// `[outputs][inputs rounded up to 32]`, both raw.
    fn dense(&mut self, section: &str, name: &str, inputs: usize, outputs: usize) {
        let section = format!("{section} {name}");
        self.array(&section, &format!("{name} biases"), Elem::I32, outputs, Storage::Raw, None);
        let len = outputs * inputs.next_multiple_of(32);
        self.array(&section, &format!("{name} weights"), Elem::I8, len, Storage::Raw, None);
    }

    /// The 8 layer stacks, each behind its hash.
    fn stacks(&mut self, l1: usize, hash: u32, [fc0_out, fc1_in, fc1_out, fc2_in]: [usize; 4]) {
        for i in 0..SfnnArch::STACKS {
            let section = format!("stack[{i}]");
            self.hash(&section, hash);
            self.dense(&section, "fc_0", l1, fc0_out);
            self.dense(&section, "fc_1", fc1_in, fc1_out);
            self.dense(&section, "fc_2", fc2_in, 1);
        }
    }
}

/// The net's arrays in file order (as [`parts`] lists them), canonical order.
pub(crate) fn arrays(model: &Model) -> Vec<Stored<ValuesRef<'_>>> {
    use ValuesRef::{I16, I32, I8};
    let raw = Encoding::Raw;
    let mut out = Vec::new();
    match model {
        Model::Sfnn(_, p) => {
            ft_arrays(&mut out, &p.ft);
            stack_arrays(&mut out, &p.stacks);
        }
        Model::Threats(_, p) => {
            let e = p.ft.encoding;
            out.extend([(I16(&p.ft.biases), e[0]), (I8(&p.threat_weights), raw)]);
            out.extend([(I16(&p.ft.weights), e[1]), (I32(&p.ft.psqt), e[2])]);
            stack_arrays(&mut out, &p.stacks);
        }
        Model::Sf19(a, p) => {
            let e = p.ft.encoding;
            out.push((I16(&p.ft.biases), e[0]));
            let (mut int8, mut psqt) = (&p.int8_weights[..], &p.ft.psqt[..]);
            if a.inputs == Sf19Inputs::Full {
                for (rows, encoding) in
                    [Sf19Arch::THREAT_INPUTS, Sf19Arch::PAIR_INPUTS].into_iter().zip(p.int8_psqt_encoding)
                {
                    let (weights, rest) = int8.split_at(rows * a.l1);
                    let (block, rest_psqt) = psqt.split_at(rows * Sf19Arch::PSQT_BUCKETS);
                    out.push((I8(weights), raw));
                    if a.psqt {
                        out.push((I32(block), encoding));
                    }
                    (int8, psqt) = (rest, rest_psqt);
                }
            }
            out.push((I16(&p.ft.weights), e[1]));
            if a.psqt {
                out.push((I32(psqt), e[2]));
            }
            stack_arrays(&mut out, &p.stacks);
        }
        Model::HalfKp(_, p) => {
            ft_arrays(&mut out, &p.ft);
            for layer in [&p.fc0, &p.fc1, &p.fc2] {
                out.extend([(I32(&layer.biases), raw), (I8(&layer.weights), raw)]);
            }
        }
        Model::Chess768(_, p) => {
            out.extend([&p.l0w, &p.l0b, &p.l1w, &p.l1b].map(|v| (I16(v), raw)));
        }
        Model::Layered(a, p) => {
            // In the file's order (`layered::file`), by name.
            for f in crate::layered::file::arrays(a) {
                out.push(match f.name {
                    "threat weights" => (I8(&p.threat_weights), raw),
                    "ft weights" => (I16(&p.ft_weights), raw),
                    "ft biases" => (I16(&p.ft_biases), raw),
                    "l1 weights" => (I8(&p.l1_weights), raw),
                    "l1 biases" => (I32(&p.l1_biases), raw),
                    "l2 weights" => (I32(&p.l2_weights), raw),
                    "l2 biases" => (I32(&p.l2_biases), raw),
                    "l3 weights" => (I32(&p.l3_weights), raw),
                    "l3 biases" => (I32(&p.l3_biases), raw),
                    other => unreachable!("no multi-layer array is named {other}"),
                });
            }
        }
    }
    out
}

fn ft_arrays<'a>(out: &mut Vec<Stored<ValuesRef<'a>>>, ft: &'a FeatureTransformer) {
    let e = ft.encoding;
    out.extend([(ValuesRef::I16(&ft.biases), e[0]), (ValuesRef::I16(&ft.weights), e[1])]);
    if !ft.psqt.is_empty() {
        out.push((ValuesRef::I32(&ft.psqt), e[2]));
    }
}

fn stack_arrays<'a>(out: &mut Vec<Stored<ValuesRef<'a>>>, stacks: &'a [Stack]) {
    for stack in stacks {
        for layer in [&stack.fc0, &stack.fc1, &stack.fc2] {
            out.extend([
                (ValuesRef::I32(&layer.biases), Encoding::Raw),
                (ValuesRef::I8(&layer.weights), Encoding::Raw),
            ]);
        }
    }
}

/// The arrays [`parts`] lists, read in file order, made into `arch`'s parameters (`padding`:
/// what the frame found after a headerless net's arrays).
pub(crate) fn assemble(arch: &Architecture, arrays: Vec<Stored<Values>>, padding: Padding) -> Model {
    let mut next = Arrays(arrays.into_iter());
    let model = match *arch {
        Architecture::Sfnn(a) => {
            let ft = next.ft(true);
            Model::Sfnn(a, SfnnParams { ft, stacks: next.stacks(a.l1, stack_shape(arch)) })
        }
        Architecture::Threats(a) => {
            let (biases, e0) = next.i16();
            let (threat_weights, _) = next.i8();
            let (weights, e1) = next.i16();
            let (psqt, e2) = next.i32();
            let ft = FeatureTransformer { biases, weights, psqt, encoding: [e0, e1, e2] };
            Model::Threats(a, ThreatsParams { ft, threat_weights, stacks: next.stacks(a.l1, stack_shape(arch)) })
        }
        Architecture::Sf19(a) => {
            let (biases, e0) = next.i16();
            let (mut int8_weights, mut psqt) = (Vec::new(), Vec::new());
            let mut int8_psqt_encoding = [Encoding::Leb128; 2];
            // SFNNv17's file has no PSQT blocks: its parameters hold zeros, which evaluate to
            // the positional value alone, as Stockfish master does.
            let psqt_block = |next: &mut Arrays, rows: usize| match a.psqt {
                true => next.i32(),
                false => (vec![0; rows * Sf19Arch::PSQT_BUCKETS], Encoding::Leb128),
            };
            if a.inputs == Sf19Inputs::Full {
                for (encoding, rows) in
                    int8_psqt_encoding.iter_mut().zip([Sf19Arch::THREAT_INPUTS, Sf19Arch::PAIR_INPUTS])
                {
                    int8_weights.extend(next.i8().0);
                    let (block, e) = psqt_block(&mut next, rows);
                    psqt.extend(block);
                    *encoding = e;
                }
            }
            let (weights, e1) = next.i16();
            let (block, e2) = psqt_block(&mut next, a.int16_inputs());
            psqt.extend(block);
            let ft = FeatureTransformer { biases, weights, psqt, encoding: [e0, e1, e2] };
            let stacks = next.stacks(a.l1, stack_shape(arch));
            Model::Sf19(a, Sf19Params { ft, int8_weights, int8_psqt_encoding, stacks })
        }
        Architecture::HalfKp(a) => {
            let ft = next.ft(false);
            let fc0 = next.dense(2 * a.l1, HalfKpArch::L2);
            let fc1 = next.dense(HalfKpArch::L2, HalfKpArch::L3);
            let fc2 = next.dense(HalfKpArch::L3, 1);
            Model::HalfKp(a, HalfKpParams { ft, fc0, fc1, fc2 })
        }
        Architecture::Chess768(a) => {
            let [l0w, l0b, l1w, l1b] = [(); 4].map(|()| next.i16().0);
            Model::Chess768(a, Chess768Params { l0w, l0b, l1w, l1b, padding })
        }
        Architecture::Layered(a) => {
            // By name: each engine orders the arrays its own way (`layered::file`).
            let mut by_name: HashMap<&str, Values> =
                crate::layered::file::arrays(&a).iter().map(|f| f.name).zip(next.0.by_ref().map(|(v, _)| v)).collect();
            let mut take = |name| by_name.remove(name);
            let i8s = |v: Option<Values>| match v {
                Some(Values::I8(v)) => v,
                None => Vec::new(),
                _ => unreachable!("the plan lists int8 arrays here"),
            };
            let i16s = |v: Option<Values>| match v {
                Some(Values::I16(v)) => v,
                _ => unreachable!("the plan lists int16 arrays here"),
            };
            let i32s = |v: Option<Values>| match v {
                Some(Values::I32(v)) => v,
                _ => unreachable!("the plan lists int32 arrays here"),
            };
            let threat_weights = i8s(take("threat weights"));
            let (ft_weights, ft_biases, l1_weights) =
                (i16s(take("ft weights")), i16s(take("ft biases")), i8s(take("l1 weights")));
            let [l1_biases, l2_weights, l2_biases, l3_weights, l3_biases] =
                ["l1 biases", "l2 weights", "l2 biases", "l3 weights", "l3 biases"].map(|n| i32s(take(n)));
            let params = LayeredParams {
                threat_weights,
                ft_weights,
                ft_biases,
                l1_weights,
                l1_biases,
                l2_weights,
                l2_biases,
                l3_weights,
                l3_biases,
                padding,
            };
            Model::Layered(a, params)
        }
    };
    debug_assert!(next.0.next().is_none(), "every array of the plan is used");
    model
}

/// The layer stacks' shape of a Stockfish architecture with stacks (its record's).
fn stack_shape(arch: &Architecture) -> [usize; 4] {
    match StockfishFormat::of(arch).map(|f| f.network) {
        Some(Network::Stacks(shape)) => shape,
        _ => unreachable!("{arch} has no layer stacks"),
    }
}

/// The arrays read, taken in order (their types are the plan's, so a mismatch is a bug here).
struct Arrays(std::vec::IntoIter<Stored<Values>>);

impl Arrays {
    fn i8(&mut self) -> Stored<Vec<i8>> {
        match self.0.next() {
            Some((Values::I8(v), e)) => (v, e),
            _ => unreachable!("the plan lists an int8 array here"),
        }
    }
    fn i16(&mut self) -> Stored<Vec<i16>> {
        match self.0.next() {
            Some((Values::I16(v), e)) => (v, e),
            _ => unreachable!("the plan lists an int16 array here"),
        }
    }
    fn i32(&mut self) -> Stored<Vec<i32>> {
        match self.0.next() {
            Some((Values::I32(v), e)) => (v, e),
            _ => unreachable!("the plan lists an int32 array here"),
        }
    }

    fn ft(&mut self, psqt: bool) -> FeatureTransformer {
        let (biases, e0) = self.i16();
        let (weights, e1) = self.i16();
        let (psqt, e2) = if psqt { self.i32() } else { (Vec::new(), Encoding::Raw) };
        FeatureTransformer { biases, weights, psqt, encoding: [e0, e1, e2] }
    }

    fn dense(&mut self, inputs: usize, outputs: usize) -> Dense {
        let mut layer = Dense::zeroed(inputs, outputs);
        layer.biases = self.i32().0;
        layer.weights = self.i8().0;
        layer
    }

    fn stacks(&mut self, l1: usize, [fc0_out, fc1_in, fc1_out, fc2_in]: [usize; 4]) -> Vec<Stack> {
        (0..SfnnArch::STACKS)
            .map(|_| Stack {
                fc0: self.dense(l1, fc0_out),
                fc1: self.dense(fc1_in, fc1_out),
                fc2: self.dense(fc2_in, 1),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{synth, Net};

    /// Every family's plan lists exactly the arrays its parameters hold, in types and sizes.
    #[test]
    fn plans_and_parameters_agree() {
        let nets = [
            synth::sfnn(128, 1, Encoding::Leb128),
            synth::threats(64, 2, Encoding::Raw),
            synth::sf19(64, Sf19Inputs::Full, 3, Encoding::Leb128),
            synth::sf19(64, Sf19Inputs::Lite, 4, Encoding::Raw),
            synth::halfkp(64, 5),
        ];
        let more: Vec<Net> = [
            "(768hm -> 64)x2 -> 1x8, screlu, qa=255, qb=64, scale=400, out=[2N][B]",
            "(768 -> 64)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x8, f32, dual, l1mul=1024/4161600, scale=362, file=alexandria",
            "(768 -> 64)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x8, i32, q=64, l1shift=8, scale=400, file=cbnf",
            "(768 -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, l1mul=512/4161600, scale=400, file=bullet",
        ]
        .iter()
        .map(|t| match t.parse().unwrap() {
            Architecture::Chess768(a) => synth::chess768(&a, 6),
            Architecture::Layered(a) => synth::layered(&a, 7),
            _ => unreachable!(),
        })
        .collect();
        for net in nets.iter().chain(&more) {
            let listed: Vec<(Elem, usize)> = parts(&net.arch())
                .into_iter()
                .filter_map(|p| match p {
                    Part::Array(a) => Some((a.elem, a.len)),
                    Part::Hash { .. } => None,
                })
                .collect();
            let held: Vec<(Elem, usize)> = arrays(&net.model)
                .into_iter()
                .map(|(v, _)| match v {
                    ValuesRef::I8(v) => (Elem::I8, v.len()),
                    ValuesRef::I16(v) => (Elem::I16, v.len()),
                    ValuesRef::I32(v) => (Elem::I32, v.len()),
                })
                .collect();
            assert_eq!(listed, held, "{}", net.arch());
        }
    }
}
