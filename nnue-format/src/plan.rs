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

use crate::arch::{Architecture, OutputOrder, Sf19Arch, SfnnArch};
use crate::chess768_format::{Chess768Format, OutputStore};
pub(crate) use crate::elem::Elem;
use crate::layered::file::FileArray;
use crate::layered::Numbers;
use crate::net::{
    Chess768Params, Dense, Encoding, FeatureTransformer, HalfKpParams, LayeredParams, Model, Padding, Sf19Params,
    SfnnParams, Stack, ThreatsParams,
};
use crate::stockfish_format::{FtParam, Network, StockfishFormat};

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
    /// int16 values stored as int32 (Caissa's output biases): each must fit int16.
    pub wide: bool,
    /// int16 values that must lie within ±this, and why (the record's
    /// [`Chess768Format::output_weights_within`]).
    pub within: Option<(i16, &'static str)>,
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
    /// A u32 header word that must have this value (`what` names it in errors).
    Word {
        section: String,
        what: String,
        value: u32,
    },
    /// Bytes the engine doesn't read (its writer leaves them uninitialised): any value is
    /// read, zeros are written.
    Skip {
        section: String,
        bytes: usize,
    },
}

/// An array's values, owned (read) or borrowed (to write).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Values {
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
}

/// An array's values as the parameters hold them.
#[derive(Debug, Clone)]
pub(crate) enum ValuesRef<'a> {
    I8(&'a [i8]),
    I16(&'a [i16]),
    I32(&'a [i32]),
    /// Values the file holds in another arrangement than the parameters (cinder's rows and
    /// split output weights), made for the writer.
    Made(Values),
}

/// An array as read, or to write: its values (canonical order) and how it is stored.
pub(crate) type Stored<V> = (V, Encoding);

/// The parts of `arch`'s file after its header, in order.
pub(crate) fn parts(arch: &Architecture) -> Vec<Part> {
    let mut p = Plan::default();
    if let (Some(f), Some([ft_hash, network_hash])) = (StockfishFormat::of(arch), arch.stockfish_hashes()) {
        // A Stockfish file, as its record says: the transformer behind its hash, then the network.
        let l1 = arch.l1();
        p.hash("feature transformer", ft_hash);
        for a in f.ft {
            let storage = if a.param.leb128() { Storage::RawOrLeb128 } else { Storage::Raw };
            p.array("feature transformer", a.what, a.param.elem(), a.rows * a.param.width(l1), storage, None);
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
            let format = a.file.format();
            if let Some(header) = format.header {
                for &word in header.words {
                    let value = Chess768Format::word(word, a.sizes());
                    p.0.push(Part::Word { section: "header".into(), what: word.what().into(), value });
                }
                p.0.push(Part::Skip { section: "header".into(), bytes: header.ignored });
            }
            p.named("l0 weights", Elem::I16, a.inputs() * n, None);
            p.named("l0 biases", Elem::I16, n, None);
            match format.output {
                OutputStore::Arrays => {
                    // `[bucket][2N]` in the parameters; bullet's 2024 default stores `[2N][bucket]`.
                    let order = (a.output_order == OutputOrder::NeuronMajor)
                        .then(|| FileArray::new("l1 weights", Elem::I16, &[b, 2 * n], &[1, 0]));
                    p.named("l1 weights", Elem::I16, b * 2 * n, order).within = format.output_weights_within;
                    p.named("l1 biases", Elem::I16, b, None);
                }
                OutputStore::Structs { bias, .. } => {
                    for bucket in 0..b {
                        let section = format!("output bucket {bucket}");
                        let weights = p.array(&section, "l1 weights", Elem::I16, 2 * n, Storage::Raw, None);
                        weights.within = format.output_weights_within;
                        p.array(&section, "l1 bias", Elem::I16, 1, Storage::Raw, None).wide = bias == Elem::I32;
                        p.0.push(Part::Skip { section, bytes: format.output.padding(n) });
                    }
                }
            }
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
                    wide: false,
                    within: None,
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

    /// Appends an array; the part, to set what else it needs.
    fn array(
        &mut self,
        section: &str,
        what: &str,
        elem: Elem,
        len: usize,
        storage: Storage,
        order: Option<FileArray>,
    ) -> &mut ArrayPart {
        let (section, what) = (section.into(), what.into());
        self.0.push(Part::Array(ArrayPart {
            section,
            what,
            elem,
            len,
            storage,
            order,
            finite: false,
            align: 1,
            wide: false,
            within: None,
        }));
        let Some(Part::Array(part)) = self.0.last_mut() else { unreachable!("an array was just pushed") };
        part
    }

    /// A headerless net's array, its own section.
    fn named(&mut self, name: &str, elem: Elem, len: usize, order: Option<FileArray>) -> &mut ArrayPart {
        self.array(name, name, elem, len, Storage::Raw, order)
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
pub(crate) fn arrays<'a>(model: &'a Model) -> Vec<Stored<ValuesRef<'a>>> {
    use ValuesRef::{I16, I32, I8};
    let raw = Encoding::Raw;
    let mut out = Vec::new();
    match model {
        Model::Sfnn(..) | Model::Threats(..) | Model::Sf19(..) | Model::HalfKp(..) => {
            // The parameters as the record names them, and the network's layers in order.
            let stacked = |stacks: &'a [Stack]| stacks.iter().flat_map(|s| [&s.fc0, &s.fc1, &s.fc2]).collect();
            let (arch, ft, int8, int8_psqt_encoding, layers): (_, _, &[i8], _, Vec<&Dense>) = match model {
                Model::Sfnn(a, p) => (Architecture::Sfnn(*a), &p.ft, &[], [raw; 2], stacked(&p.stacks)),
                Model::Threats(a, p) => {
                    (Architecture::Threats(*a), &p.ft, &p.threat_weights, [raw; 2], stacked(&p.stacks))
                }
                Model::Sf19(a, p) => {
                    (Architecture::Sf19(*a), &p.ft, &p.int8_weights, p.int8_psqt_encoding, stacked(&p.stacks))
                }
                Model::HalfKp(a, p) => (Architecture::HalfKp(*a), &p.ft, &[], [raw; 2], vec![&p.fc0, &p.fc1, &p.fc2]),
                _ => unreachable!("a Stockfish net"),
            };
            let f = StockfishFormat::of(&arch).expect("every Stockfish architecture has its record");
            // The record's arrays in file order; the int8 sets and the PSQT blocks are each
            // back to back in the parameters.
            let (mut int8, mut psqt, mut int8_psqt_encoding) = (int8, &ft.psqt[..], int8_psqt_encoding.iter());
            for a in f.ft {
                let len = a.rows * a.param.width(arch.l1());
                let mut take_psqt = || {
                    let (block, rest) = psqt.split_at(len);
                    psqt = rest;
                    block
                };
                out.push(match a.param {
                    FtParam::Biases => (I16(&ft.biases), ft.encoding[0]),
                    FtParam::Weights => (I16(&ft.weights), ft.encoding[1]),
                    FtParam::Psqt => (I32(take_psqt()), ft.encoding[2]),
                    FtParam::Int8Psqt => (I32(take_psqt()), *int8_psqt_encoding.next().expect("two int8 sets at most")),
                    FtParam::Int8 => {
                        let (block, rest) = int8.split_at(len);
                        int8 = rest;
                        (I8(block), raw)
                    }
                });
            }
            for layer in layers {
                out.extend([(I32(&layer.biases), raw), (I8(&layer.weights), raw)]);
            }
        }
        Model::Chess768(a, p) => {
            out.extend([&p.l0w, &p.l0b].map(|v| (I16(v), raw)));
            match a.file.format().output {
                OutputStore::Arrays => out.extend([&p.l1w, &p.l1b].map(|v| (I16(v), raw))),
                OutputStore::Structs { .. } => {
                    for (w, b) in p.l1w.chunks_exact(2 * a.hidden).zip(p.l1b.chunks_exact(1)) {
                        out.extend([(I16(w), raw), (I16(b), raw)]);
                    }
                }
            }
        }
        Model::Layered(a, p) => {
            let format = a.file.format();
            // `split_skip`: the output weights as the file's two arrays, split once.
            let (mut main_weights, mut skip_weights) = if format.split_skip {
                let main = a.l3_inputs() - crate::layered::file::skip_inputs(a);
                crate::layered::mirror::split_output(a, &p.l3_weights, main)
            } else {
                (Vec::new(), Vec::new())
            };
            // In the file's order (`layered::file`), by name.
            for f in crate::layered::file::arrays(a) {
                out.push(match f.name {
                    "threat weights" if format.mirrored_a_to_d => (
                        ValuesRef::Made(Values::I8(crate::layered::mirror::threat_rows(a, &p.threat_weights, false))),
                        raw,
                    ),
                    "ft weights" if format.mirrored_a_to_d => {
                        (ValuesRef::Made(Values::I16(crate::layered::mirror::piece_rows(a, &p.ft_weights, false))), raw)
                    }
                    "l3 weights" if format.split_skip => {
                        (ValuesRef::Made(Values::I32(std::mem::take(&mut main_weights))), raw)
                    }
                    "skip weights" => (ValuesRef::Made(Values::I32(std::mem::take(&mut skip_weights))), raw),
                    "l3b weights" => (I32(&p.l3b_weights), raw),
                    "l3b biases" => (I32(&p.l3b_biases), raw),
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

/// The arrays [`parts`] lists, read in file order, made into `arch`'s parameters (`padding`:
/// what the frame found after a headerless net's arrays).
pub(crate) fn assemble(arch: &Architecture, arrays: Vec<Stored<Values>>, padding: Padding) -> Model {
    let mut next = Arrays(arrays.into_iter());
    if let Some(f) = StockfishFormat::of(arch) {
        let model = stockfish_model(arch, f, &mut next);
        debug_assert!(next.0.next().is_none(), "every array of the plan is used");
        return model;
    }
    let model = match *arch {
        Architecture::Chess768(a) => {
            let [l0w, l0b] = [(); 2].map(|()| next.i16().0);
            let (l1w, l1b) = match a.file.format().output {
                OutputStore::Arrays => (next.i16().0, next.i16().0),
                OutputStore::Structs { .. } => {
                    let (mut l1w, mut l1b) = (Vec::new(), Vec::new());
                    for _ in 0..a.output_buckets {
                        l1w.extend(next.i16().0);
                        l1b.extend(next.i16().0);
                    }
                    (l1w, l1b)
                }
            };
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
            let mut threat_weights = i8s(take("threat weights"));
            let (mut ft_weights, ft_biases, l1_weights) =
                (i16s(take("ft weights")), i16s(take("ft biases")), i8s(take("l1 weights")));
            let [l1_biases, l2_weights, l2_biases, mut l3_weights, l3_biases] =
                ["l1 biases", "l2 weights", "l2 biases", "l3 weights", "l3 biases"].map(|n| i32s(take(n)));
            let i32s_or_none = |v: Option<Values>| v.map(|v| i32s(Some(v))).unwrap_or_default();
            let (l3b_weights, l3b_biases) = (i32s_or_none(take("l3b weights")), i32s_or_none(take("l3b biases")));
            if let Some(skip) = take("skip weights") {
                l3_weights = crate::layered::mirror::join_output(&a, &l3_weights, &i32s(Some(skip)));
            }
            if a.file.format().mirrored_a_to_d {
                threat_weights = crate::layered::mirror::threat_rows(&a, &threat_weights, true);
                ft_weights = crate::layered::mirror::piece_rows(&a, &ft_weights, true);
            }
            let params = LayeredParams {
                threat_weights,
                ft_weights,
                ft_biases,
                l1_weights,
                l1_biases,
                l2_weights,
                l2_biases,
                l3b_weights,
                l3b_biases,
                l3_weights,
                l3_biases,
                padding,
            };
            Model::Layered(a, params)
        }
        Architecture::Sfnn(_) | Architecture::Threats(_) | Architecture::Sf19(_) | Architecture::HalfKp(_) => {
            unreachable!("every Stockfish architecture has its record")
        }
    };
    debug_assert!(next.0.next().is_none(), "every array of the plan is used");
    model
}

/// A Stockfish net's parameters from the arrays its record `f` lists.
fn stockfish_model(arch: &Architecture, f: &StockfishFormat, next: &mut Arrays) -> Model {
    // The transformer: the int8 sets and the PSQT blocks each back to back, in file order.
    let mut ft =
        FeatureTransformer { biases: Vec::new(), weights: Vec::new(), psqt: Vec::new(), encoding: [Encoding::Raw; 3] };
    let (mut int8, mut int8_psqt_encoding, mut sets) = (Vec::new(), [Encoding::Leb128; 2], 0);
    for a in f.ft {
        match a.param {
            FtParam::Biases => (ft.biases, ft.encoding[0]) = next.i16(),
            FtParam::Weights => (ft.weights, ft.encoding[1]) = next.i16(),
            FtParam::Int8 => int8.extend(next.i8().0),
            FtParam::Int8Psqt => {
                let (block, encoding) = next.i32();
                ft.psqt.extend(block);
                int8_psqt_encoding[sets] = encoding;
                sets += 1;
            }
            FtParam::Psqt => {
                let (block, encoding) = next.i32();
                ft.psqt.extend(block);
                ft.encoding[2] = encoding;
            }
        }
    }
    if f.psqt_zeros {
        // SFNNv17's file has no PSQT blocks: its parameters hold zeros, which evaluate to the
        // positional value alone, as Stockfish master does.
        ft.psqt = vec![0; arch.inputs() * Sf19Arch::PSQT_BUCKETS];
        ft.encoding[2] = Encoding::Leb128;
    }
    let l1 = arch.l1();
    match (*arch, f.network) {
        (Architecture::Sfnn(a), Network::Stacks(shape)) => {
            Model::Sfnn(a, SfnnParams { ft, stacks: next.stacks(l1, shape) })
        }
        (Architecture::Threats(a), Network::Stacks(shape)) => {
            Model::Threats(a, ThreatsParams { ft, threat_weights: int8, stacks: next.stacks(l1, shape) })
        }
        (Architecture::Sf19(a), Network::Stacks(shape)) => {
            let stacks = next.stacks(l1, shape);
            Model::Sf19(a, Sf19Params { ft, int8_weights: int8, int8_psqt_encoding, stacks })
        }
        (Architecture::HalfKp(a), Network::Chain([l2, l3])) => {
            let fc0 = next.dense(2 * l1, l2);
            let fc1 = next.dense(l2, l3);
            let fc2 = next.dense(l3, 1);
            Model::HalfKp(a, HalfKpParams { ft, fc0, fc1, fc2 })
        }
        _ => unreachable!("{arch}: its record's network is its family's"),
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
    use crate::arch::Sf19Inputs;
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
            "(768 -> 64)x2 -> 1x8, screlu, qa=255, scale=none",
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
                    Part::Hash { .. } | Part::Word { .. } | Part::Skip { .. } => None,
                })
                .collect();
            let held: Vec<(Elem, usize)> = arrays(&net.model)
                .into_iter()
                .map(|(v, _)| match v {
                    ValuesRef::I8(v) => (Elem::I8, v.len()),
                    ValuesRef::I16(v) => (Elem::I16, v.len()),
                    ValuesRef::I32(v) => (Elem::I32, v.len()),
                    ValuesRef::Made(Values::I8(v)) => (Elem::I8, v.len()),
                    ValuesRef::Made(Values::I16(v)) => (Elem::I16, v.len()),
                    ValuesRef::Made(Values::I32(v)) => (Elem::I32, v.len()),
                })
                .collect();
            assert_eq!(listed, held, "{}", net.arch());
        }
    }
}
