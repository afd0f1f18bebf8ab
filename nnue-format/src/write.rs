//! The writer: the exact inverse of the reader.

use crate::leb128::{self, Element};
use crate::net::{Dense, Encoding, FeatureTransformer, Model, Net};
use crate::{VERSION_HALFKP, VERSION_SF19, VERSION_SFNN};

pub(crate) fn write_net(net: &Net) -> Vec<u8> {
    let mut out = Vec::new();
    match &net.model {
        Model::Layered(a, p) => {
            use crate::layered::file::{self, FileElem};
            crate::layered::header::write(&mut out, a, &net.description);
            let words = [&p.l1_biases, &p.l2_weights, &p.l2_biases, &p.l3_weights, &p.l3_biases];
            let mut words = words.into_iter();
            for arr in file::arrays(a) {
                match (arr.name, arr.elem) {
                    ("ft weights", _) => raw(&mut out, &arr.file_order(&p.ft_weights)),
                    ("ft biases", _) => raw(&mut out, &arr.file_order(&p.ft_biases)),
                    ("l1 weights", _) => raw(&mut out, &arr.file_order(&p.l1_weights)),
                    (_, FileElem::Word) => raw(&mut out, &arr.file_order(words.next().expect("five word arrays"))),
                    _ => unreachable!("the file table's element types"),
                }
                // Stormphrax pads each array with zeros (the last one's padding is `p.padding`).
                if a.file == crate::FileLayout::Cbnf && out.len() < a.file_bytes() {
                    let align = crate::layered::header::CBNF_ALIGN;
                    out.resize(out.len().next_multiple_of(align), 0);
                }
            }
            if a.file == crate::FileLayout::Cbnf && p.padding == crate::net::Padding::None {
                // Written without the last array's padding.
                let last = file::arrays(a).last().map_or(0, |l| l.bytes());
                out.truncate(out.len() - (last.next_multiple_of(crate::layered::header::CBNF_ALIGN) - last));
            } else if p.padding != crate::net::Padding::None {
                let len = out.len();
                out.extend((0..len.next_multiple_of(64) - len).map(|i| p.padding.byte(i)));
            }
        }
        Model::Sfnn(a, p) => {
            header(&mut out, VERSION_SFNN, a.file_hash(), &net.description);
            put(&mut out, a.ft_hash());
            feature_transformer(&mut out, &p.ft);
            for stack in &p.stacks {
                put(&mut out, a.stack_hash());
                for layer in [&stack.fc0, &stack.fc1, &stack.fc2] {
                    dense(&mut out, layer);
                }
            }
        }
        Model::Threats(a, p) => {
            header(&mut out, VERSION_SFNN, a.file_hash(), &net.description);
            put(&mut out, a.ft_hash());
            array(&mut out, &p.ft.biases, p.ft.encoding[0]);
            raw(&mut out, &p.threat_weights);
            array(&mut out, &p.ft.weights, p.ft.encoding[1]);
            array(&mut out, &p.ft.psqt, p.ft.encoding[2]);
            for stack in &p.stacks {
                put(&mut out, a.stack_hash());
                for layer in [&stack.fc0, &stack.fc1, &stack.fc2] {
                    dense(&mut out, layer);
                }
            }
        }
        Model::Sf19(a, p) => {
            header(&mut out, VERSION_SF19, a.file_hash(), &net.description);
            put(&mut out, a.ft_hash());
            array(&mut out, &p.ft.biases, p.ft.encoding[0]);
            let l1 = a.l1;
            let mut psqt = p.ft.psqt.as_slice();
            let mut int8 = p.int8_weights.as_slice();
            if a.inputs == crate::Sf19Inputs::Full {
                for (rows, encoding) in
                    [crate::Sf19Arch::THREAT_INPUTS, crate::Sf19Arch::PAIR_INPUTS].into_iter().zip(p.int8_psqt_encoding)
                {
                    let (weights, rest) = int8.split_at(rows * l1);
                    raw(&mut out, weights);
                    int8 = rest;
                    let (block, rest) = psqt.split_at(rows * crate::Sf19Arch::PSQT_BUCKETS);
                    array(&mut out, block, encoding);
                    psqt = rest;
                }
            }
            array(&mut out, &p.ft.weights, p.ft.encoding[1]);
            array(&mut out, psqt, p.ft.encoding[2]);
            for stack in &p.stacks {
                put(&mut out, a.stack_hash());
                for layer in [&stack.fc0, &stack.fc1, &stack.fc2] {
                    dense(&mut out, layer);
                }
            }
        }
        Model::HalfKp(a, p) => {
            header(&mut out, VERSION_HALFKP, a.file_hash(), &net.description);
            put(&mut out, a.ft_hash());
            feature_transformer(&mut out, &p.ft);
            put(&mut out, a.network_hash());
            for layer in [&p.fc0, &p.fc1, &p.fc2] {
                dense(&mut out, layer);
            }
        }
        Model::Chess768(a, p) => {
            let l1w = crate::headerless::output_weights_to_file(&p.l1w, a);
            for part in [&p.l0w[..], &p.l0b, &l1w, &p.l1b] {
                raw(&mut out, part);
            }
            let end = out.len();
            if p.padding != crate::Padding::None {
                out.extend((0..end.next_multiple_of(64) - end).map(|i| p.padding.byte(i)));
            }
        }
    }
    out
}

fn put(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn header(out: &mut Vec<u8>, version: u32, hash: u32, description: &str) {
    put(out, version);
    put(out, hash);
    put(out, description.len() as u32);
    out.extend_from_slice(description.as_bytes());
}

fn raw<T: Element>(out: &mut Vec<u8>, values: &[T]) {
    out.reserve(values.len() * T::BYTES);
    values.iter().for_each(|v| v.write_le(out));
}

fn array<T: Element>(out: &mut Vec<u8>, values: &[T], encoding: Encoding) {
    match encoding {
        Encoding::Raw => raw(out, values),
        Encoding::Leb128 => {
            out.extend_from_slice(leb128::MAGIC);
            let count_at = out.len();
            put(out, 0);
            leb128::encode(values, out);
            let bytes = (out.len() - count_at - 4) as u32;
            out[count_at..count_at + 4].copy_from_slice(&bytes.to_le_bytes());
        }
    }
}

fn feature_transformer(out: &mut Vec<u8>, ft: &FeatureTransformer) {
    array(out, &ft.biases, ft.encoding[0]);
    array(out, &ft.weights, ft.encoding[1]);
    if !ft.psqt.is_empty() {
        array(out, &ft.psqt, ft.encoding[2]);
    }
}

fn dense(out: &mut Vec<u8>, layer: &Dense) {
    raw(out, &layer.biases);
    raw(out, &layer.weights);
}

impl Net {
    /// Writes the net back; `Net::from_bytes(&net.to_bytes(), ..)` gives the same net, and a
    /// file that was read is written back byte for byte.
    pub fn to_bytes(&self) -> Vec<u8> {
        crate::write::write_net(self)
    }
}
