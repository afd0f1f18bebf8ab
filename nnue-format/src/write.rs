//! The writer: the exact inverse of the reader.

use crate::headerless::Framed;
use crate::layered::format::{End, Storage};
use crate::leb128::{self, Element};
use crate::net::{Encoding, Model, Net, Padding};
use crate::plan::{self, ArrayPart, Part, ValuesRef};
use crate::stockfish_format::StockfishFormat;
use crate::Architecture;

pub(crate) fn write_net(net: &Net) -> Vec<u8> {
    if let Architecture::Layered(crate::LayeredArch { l1_sums: crate::L1Sums::ViridithasAvx2, .. }) = net.arch() {
        // Its file holds the neurons in the trainer's order, as Viridithas ships them.
        let mut file = net.clone();
        file.viridithas_order(false);
        let Model::Layered(arch, _) = &mut file.model else { unreachable!("a multi-layer net") };
        arch.l1_sums = crate::L1Sums::I16Pairs;
        return write_net(&file);
    }
    let mut out = Vec::new();
    let arch = net.arch();
    // A headerless net's frame: its raw size, and how its file ends (below).
    let framed = crate::headerless::frame(&arch);
    // A raw file's size, where its frame fixes it: reserved at once, so that writing a net of a
    // few MB takes one allocation of its size, not a doubled one.
    if let Some(f) = framed.as_ref().filter(|f| f.frame.storage == Storage::Raw) {
        out.reserve_exact(f.sizes[1]);
    }
    // The frame's head: Stockfish's header (its record's version word), a `CBNF` header, or
    // nothing.
    if let (Some(f), Some([ft_hash, network_hash])) = (StockfishFormat::of(&arch), arch.stockfish_hashes()) {
        header(&mut out, f.version, ft_hash ^ network_hash, &net.description);
    } else if let Architecture::Layered(a) = &arch {
        crate::layered::header::write(&mut out, a, &net.description);
    }
    // The parts, in the plan's order.
    let mut arrays = plan::arrays(&net.model).into_iter();
    for part in plan::parts(&arch) {
        match part {
            Part::Hash { value, .. } | Part::Word { value, .. } => put(&mut out, value),
            Part::Skip { bytes, .. } => out.resize(out.len() + bytes, 0),
            Part::Array(a) => {
                let (values, encoding) = arrays.next().expect("the parameters hold every array of the plan");
                match values {
                    ValuesRef::I16(v) if a.wide => raw(&mut out, &v.iter().map(|&x| i32::from(x)).collect::<Vec<_>>()),
                    ValuesRef::I8(v) => stored(&mut out, &a, v, encoding),
                    ValuesRef::I16(v) => stored(&mut out, &a, v, encoding),
                    ValuesRef::I32(v) => stored(&mut out, &a, v, encoding),
                    ValuesRef::Made(plan::Values::I8(v)) => stored(&mut out, &a, &v, encoding),
                    ValuesRef::Made(plan::Values::I16(v)) => stored(&mut out, &a, &v, encoding),
                    ValuesRef::Made(plan::Values::I32(v)) => stored(&mut out, &a, &v, encoding),
                }
                out.resize(out.len().next_multiple_of(a.align), 0);
            }
        }
    }
    // The frame's tail: what follows a headerless net's arrays, as its frame says.
    let padding = match &net.model {
        Model::Chess768(_, p) => p.padding,
        Model::Layered(_, p) => p.padding,
        _ => Padding::None,
    };
    // An aligned frame ends with the last array's padding or without it, another with bullet's.
    let aligned = framed.filter(|f| f.frame.end == End::Aligned);
    match aligned {
        // Written without the last array's padding.
        Some(Framed { sizes: [short, _], .. }) if padding == Padding::None => out.truncate(short),
        Some(_) => {}
        None if padding != Padding::None => {
            let len = out.len();
            out.extend((0..len.next_multiple_of(64) - len).map(|i| padding.byte(i)));
        }
        None => {}
    }
    out
}

/// An array as its part says: in the file's axis order, raw, LEB128 or one varint per value.
fn stored<T: Element>(out: &mut Vec<u8>, part: &ArrayPart, values: &[T], encoding: Encoding) {
    let ordered;
    let values = match &part.order {
        Some(order) => {
            ordered = order.file_order(values);
            &ordered[..]
        }
        None => values,
    };
    if part.storage == crate::plan::Storage::Varint {
        // int32 arrays of a varint file are f32 bits, stored unsigned.
        leb128::encode_varints(values, out, T::BYTES == 4);
    } else {
        array(out, values, encoding);
    }
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

impl Net {
    /// Writes the net back; `Net::from_bytes(&net.to_bytes(), ..)` gives the same net, and a
    /// file that was read is written back byte for byte.
    pub fn to_bytes(&self) -> Vec<u8> {
        crate::write::write_net(self)
    }

    /// The net zstd-compressed as its engine ships it, in `frames` zstd frames (one is what
    /// `zstd` writes; the engines read any number): Stormphrax's layout (`file=cbnf`) as the
    /// `CBNF` header with the zstd flag, then its arrays back to back (no padding);
    /// Viridithas's and cinder's (`file=viridithas`, `file=cinder`) as the whole file. `None`
    /// for layouts their engines don't ship compressed (their record:
    /// [`crate::layered::format::Format::zstd`]), or when `frames` is 0.
    pub fn to_zstd(&self, frames: usize) -> Option<Vec<u8>> {
        use crate::layered::format::Zstd;
        use crate::layered::{file, header};
        use ruzstd::encoding::{compress_to_vec, CompressionLevel};
        let Model::Layered(arch, _) = &self.model else { return None };
        let zstd = arch.file.format().zstd;
        if frames == 0 || zstd == Zstd::No {
            return None;
        }
        let bytes = self.to_bytes();
        let (mut out, stream) = match zstd {
            Zstd::No => return None,
            Zstd::WholeFile => (Vec::new(), &bytes[..]),
            Zstd::HeaderFlag => {
                let (start, len) = (header::bytes(arch), file::param_bytes(arch));
                let mut head = bytes[..start].to_vec();
                header::set_zstd_flag(&mut head);
                // Only the last array can end off its alignment (see `LayeredArch::validate`),
                // so the written arrays up to it are already back to back.
                (head, &bytes[start..start + len])
            }
        };
        for part in stream.chunks(stream.len().div_ceil(frames).max(1)) {
            out.extend(compress_to_vec(part, CompressionLevel::Fastest));
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Architecture, Net};

    /// A raw file of a few MB (Stormphrax 8's layout at L1 64: 4.4 MB, mostly threat rows) is
    /// written into one buffer of its size: doubling a growing one took 8.6 MB, past the
    /// `stormphrax` fuzz target's 8 MB allocation limit when it wrote a read net back.
    #[test]
    fn a_raw_file_is_written_into_one_buffer_of_its_size() {
        let text = "(704x2hm -> 64)x2 -> pairwise>>9 -> (32 -> 64 -> 1)x8, i32, dual, wide, skip, q=64, l1shift=2, \
                    scale=400, threats=pawnpairs+sf19, file=cbnf, \
                    kings=[0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
        let arch: Architecture = text.parse().unwrap();
        let Architecture::Layered(a) = &arch else { unreachable!() };
        let net = crate::synth::layered(a, 8);
        let bytes = net.to_bytes();
        // Written without the last array's padding, which the buffer had room for.
        let [short, padded] = a.raw_sizes();
        assert_eq!((bytes.len(), bytes.capacity()), (short, padded));
        assert!(Net::from_bytes(&bytes, Some(&arch)).unwrap() == net);
    }
}
