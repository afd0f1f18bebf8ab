//! The reader: every size is checked against the bytes present before anything is allocated.

use crate::arch::Architecture;
use crate::error::{ErrorKind, FormatError};
use crate::hash;
use crate::headerless::Framed;
use crate::leb128::{self, Element};
use crate::net::{Encoding, Net, Padding};
use crate::plan::{self, ArrayPart, Elem, Part, Storage, Stored, Values};
use crate::stockfish_format::StockfishFormat;

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    section: String,
}

impl<'a> Reader<'a> {
    fn err(&self, kind: ErrorKind) -> FormatError {
        FormatError::new(self.pos, &self.section, kind)
    }

    fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    fn take(&mut self, n: usize, expected: &str) -> Result<&'a [u8], FormatError> {
        if n > self.remaining() {
            return Err(self.err(ErrorKind::Truncated {
                expected: expected.to_string(),
                needed: n,
                available: self.remaining(),
            }));
        }
        let bytes = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(bytes)
    }

    /// Zeros up to the next multiple of `align` (none at the end of the data).
    fn zero_padding(&mut self, align: usize) -> Result<(), FormatError> {
        let n = (self.pos.next_multiple_of(align) - self.pos).min(self.remaining());
        let at = self.pos;
        if let Some(i) = self.take(n, "padding")?.iter().position(|&b| b != 0) {
            let kind = ErrorKind::Invalid(format!("non-zero byte in the padding after {}", self.section));
            return Err(FormatError::new(at + i, &self.section, kind));
        }
        Ok(())
    }

    fn u32(&mut self, expected: &str) -> Result<u32, FormatError> {
        Ok(u32::from_le_bytes(self.take(4, expected)?.try_into().unwrap()))
    }

    fn hash(&mut self, expected: u32) -> Result<(), FormatError> {
        let at = self.pos;
        let found = self.u32("the section hash")?;
        if found != expected {
            return Err(FormatError::new(at, &self.section, ErrorKind::HashMismatch { expected, found }));
        }
        Ok(())
    }

    fn raw<T: Element>(&mut self, count: usize, what: &str) -> Result<Vec<T>, FormatError> {
        let bytes = self.take(count * T::BYTES, &format!("{count} {} {what}", T::NAME))?;
        Ok(bytes.chunks_exact(T::BYTES).map(T::from_le).collect())
    }

    /// `count` int16 values stored as int32: one outside int16 is refused at its offset.
    fn wide(&mut self, count: usize, what: &str) -> Result<Vec<i16>, FormatError> {
        let at = self.pos;
        let words: Vec<i32> = self.raw(count, what)?;
        words
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                i16::try_from(v).map_err(|_| {
                    let kind = ErrorKind::Invalid(format!(
                        "{what} is {v}: expected a value within int16 (this library holds it as int16)"
                    ));
                    FormatError::new(at + 4 * i, &self.section, kind)
                })
            })
            .collect()
    }

    /// `count` values, one LEB128 varint each (`unsigned`: f32 bits).
    fn varints<T: Element>(&mut self, count: usize, what: &str, unsigned: bool) -> Result<Vec<T>, FormatError> {
        // Every value takes at least one byte: this bounds the allocation by the file size.
        if count > self.remaining() {
            return Err(self.err(ErrorKind::Truncated {
                expected: format!("{count} varints of {what} (at least a byte each)"),
                needed: count,
                available: self.remaining(),
            }));
        }
        let mut values = vec![T::default(); count];
        let used = leb128::decode_varints(&self.data[self.pos..], &mut values, unsigned).map_err(|e| {
            FormatError::new(self.pos + e.at, &self.section, ErrorKind::Leb128(format!("{what}: {}", e.reason)))
        })?;
        self.pos += used;
        Ok(values)
    }

    /// An array stored either raw or LEB128-compressed (told apart by the magic).
    fn array<T: Element>(&mut self, count: usize, what: &str) -> Result<(Vec<T>, Encoding), FormatError> {
        if !self.data[self.pos..].starts_with(leb128::MAGIC) {
            return Ok((self.raw(count, what)?, Encoding::Raw));
        }
        self.pos += leb128::MAGIC.len();
        let count_at = self.pos;
        let byte_count = self.u32("the LEB128 byte count")? as usize;
        if byte_count > self.remaining() {
            return Err(FormatError::new(
                count_at,
                &self.section,
                ErrorKind::Leb128(format!(
                    "byte count {byte_count} for {what} but only {} bytes are left",
                    self.remaining()
                )),
            ));
        }
        // Every value takes at least one byte: this bounds the allocation by the file size.
        if byte_count < count {
            return Err(FormatError::new(
                count_at,
                &self.section,
                ErrorKind::Leb128(format!("byte count {byte_count} is too small for {count} {what}")),
            ));
        }
        let start = self.pos;
        let mut values = vec![T::default(); count];
        leb128::decode(&self.data[start..start + byte_count], &mut values).map_err(|e| {
            FormatError::new(start + e.at, &self.section, ErrorKind::Leb128(format!("{what}: {}", e.reason)))
        })?;
        self.pos += byte_count;
        Ok((values, Encoding::Leb128))
    }

    /// The arrays (and section hashes) `parts` lists, in order.
    fn parts(&mut self, parts: &[Part]) -> Result<Vec<Stored<Values>>, FormatError> {
        let mut arrays = Vec::new();
        for part in parts {
            match part {
                Part::Hash { section, value } => {
                    self.section.clone_from(section);
                    self.hash(*value)?;
                }
                Part::Array(a) => {
                    self.section.clone_from(&a.section);
                    arrays.push(self.array_part(a)?);
                }
                Part::Word { section, what, value } => {
                    self.section.clone_from(section);
                    let at = self.pos;
                    let found = self.u32(what)?;
                    if found != *value {
                        let kind = ErrorKind::Invalid(format!(
                            "{what}: expected {value} ({value:#x}), found {found} ({found:#x})"
                        ));
                        return Err(FormatError::new(at, section, kind));
                    }
                }
                Part::Skip { section, bytes } => {
                    self.section.clone_from(section);
                    self.take(*bytes, "the bytes the engine doesn't read")?;
                }
            }
        }
        Ok(arrays)
    }

    fn array_part(&mut self, a: &ArrayPart) -> Result<Stored<Values>, FormatError> {
        let at = self.pos;
        let (values, encoding) = match (a.elem, a.storage) {
            (Elem::I16, Storage::Raw) if a.wide => (Values::I16(self.wide(a.len, &a.what)?), Encoding::Raw),
            (Elem::I8, Storage::Raw) => (Values::I8(self.raw(a.len, &a.what)?), Encoding::Raw),
            (Elem::I16, Storage::Raw) => (Values::I16(self.raw(a.len, &a.what)?), Encoding::Raw),
            (Elem::I32, Storage::Raw) => (Values::I32(self.raw(a.len, &a.what)?), Encoding::Raw),
            (Elem::I8, Storage::RawOrLeb128) => self.array(a.len, &a.what).map(|(v, e)| (Values::I8(v), e))?,
            (Elem::I16, Storage::RawOrLeb128) => self.array(a.len, &a.what).map(|(v, e)| (Values::I16(v), e))?,
            (Elem::I32, Storage::RawOrLeb128) => self.array(a.len, &a.what).map(|(v, e)| (Values::I32(v), e))?,
            (Elem::I8, Storage::Varint) => (Values::I8(self.varints(a.len, &a.what, false)?), Encoding::Raw),
            (Elem::I16, Storage::Varint) => (Values::I16(self.varints(a.len, &a.what, false)?), Encoding::Raw),
            (Elem::I32, Storage::Varint) => (Values::I32(self.varints(a.len, &a.what, true)?), Encoding::Raw),
        };
        if let (true, Values::I32(words)) = (a.finite, &values) {
            // A NaN or an infinity would evaluate to garbage (0 on every path): refused.
            if let Some(i) = words.iter().position(|&v| !f32::from_bits(v as u32).is_finite()) {
                let kind = ErrorKind::Invalid(format!(
                    "{} {i} is {}: expected a finite float",
                    a.what,
                    f32::from_bits(words[i] as u32)
                ));
                // A varint array's values have no fixed offset: its start, and the index says which.
                let off = if a.storage == Storage::Varint { at } else { at + 4 * i };
                return Err(FormatError::new(off, &self.section, kind));
            }
        }
        if let (Some((bound, why)), Values::I16(v)) = (a.within, &values) {
            if let Some(i) = v.iter().position(|x| x.unsigned_abs() > bound.unsigned_abs()) {
                let kind =
                    ErrorKind::Invalid(format!("{} {i} is {}: expected a value within ±{bound} ({why})", a.what, v[i]));
                return Err(FormatError::new(at + 2 * i, &self.section, kind));
            }
        }
        if a.align > 1 {
            self.zero_padding(a.align)?;
        }
        let values = match (values, &a.order) {
            (Values::I8(v), Some(order)) => Values::I8(order.canonical(&v)),
            (Values::I16(v), Some(order)) => Values::I16(order.canonical(&v)),
            (Values::I32(v), Some(order)) => Values::I32(order.canonical(&v)),
            (values, None) => values,
        };
        Ok((values, encoding))
    }

    fn end(&self) -> Result<(), FormatError> {
        match self.remaining() {
            0 => Ok(()),
            count => Err(FormatError::new(self.pos, "end of file", ErrorKind::Trailing { count })),
        }
    }
}

pub(crate) fn read_net(data: &[u8], given: Option<&Architecture>) -> Result<Net, FormatError> {
    // The fields are public, so a description may not have come through `parse`: its sizes
    // could overflow.
    if let Some(reason) = given.and_then(|a| a.validate().err()) {
        return Err(FormatError::new(0, "architecture description", ErrorKind::Invalid(reason.to_string())));
    }
    if data.is_empty() {
        return Err(FormatError::new(0, "header", ErrorKind::Empty));
    }
    if let Some(framed) = given.and_then(crate::headerless::frame) {
        return read_framed(data, given.unwrap(), framed);
    }
    if data.starts_with(b"CBNF") {
        return Err(crate::error::cbnf_without_description());
    }
    if let Some(why) = crate::chess768_format::without_description(data) {
        return Err(FormatError::new(0, "header", ErrorKind::Invalid(why)));
    }
    let mut r = Reader { data, pos: 0, section: "header".into() };
    let version = r.u32("the version")?;
    if !crate::is_known_version(version) {
        return Err(FormatError::new(0, "header", ErrorKind::UnknownVersion { found: version, size: data.len() }));
    }
    let hash_at = r.pos;
    let hash = r.u32("the file hash")?;
    let desc_len = r.u32("the description length")? as usize;
    let desc_at = r.pos;
    // Lossy decoding would not write back byte for byte.
    let description = std::str::from_utf8(r.take(desc_len, "the description")?)
        .map_err(|e| {
            FormatError::new(
                desc_at + e.valid_up_to(),
                "header",
                ErrorKind::Invalid(format!(
                    "the description is not UTF-8: expected text, found byte {:#04x}",
                    data[desc_at + e.valid_up_to()]
                )),
            )
        })?
        .to_string();
    let named = identify(version, hash, &description).map_err(|kind| FormatError::new(hash_at, "header", kind))?;
    // Formats may share a header (Stockfish 19's and SFNNv17's: the version word and the
    // hashes): a given description says which; without one, the format whose arrays end
    // exactly at the end of the file.
    let candidates = match given {
        Some(given) => match named.iter().find(|(_, a)| a == given) {
            Some(&one) => vec![one],
            None => {
                return Err(FormatError::new(
                    hash_at,
                    "header",
                    ErrorKind::DescriptionMismatch { described: given.to_string(), actual: named[0].1.to_string() },
                ))
            }
        },
        None => named,
    };
    let body = r.pos;
    let mut failed = Vec::new();
    for (format, arch) in candidates {
        let mut r = Reader { data, pos: body, section: String::new() };
        match r.parts(&plan::parts(&arch)).and_then(|arrays| r.end().map(|()| arrays)) {
            Ok(arrays) => {
                return Ok(engine_order(Net { description, model: plan::assemble(&arch, arrays, Padding::None) }))
            }
            Err(e) => failed.push((format, e)),
        }
    }
    match <[_; 2]>::try_from(failed) {
        Ok([first, second]) => Err(neither(version, data.len(), first, second)),
        Err(mut one) => Err(one.pop().expect("one candidate at least").1),
    }
}

/// A header two formats share over a body that fits neither: both reasons, at the offset of
/// the format that read further.
fn neither(version: u32, size: usize, first: Failed, second: Failed) -> FormatError {
    let ((f, e), (g, d)) = (first, second);
    let further = if d.offset >= e.offset { &d } else { &e };
    let what = format!(
        "a Stockfish {version:#010x} file of {size} bytes that is neither {} (at offset {}, {}: {}) nor {} \
         (at offset {}, {}: {})",
        f.name, e.offset, e.section, e.kind, g.name, d.offset, d.section, d.kind
    );
    FormatError::new(further.offset, further.section.clone(), ErrorKind::Invalid(what))
}

/// A format tried, and why it did not read.
type Failed = (&'static StockfishFormat, FormatError);

/// The formats (with their architectures) the version and hash name, in the records' order;
/// checks the description agrees.
fn identify(
    version: u32,
    hash: u32,
    description: &str,
) -> Result<Vec<(&'static StockfishFormat, Architecture)>, ErrorKind> {
    if !crate::is_known_version(version) {
        // Checked before: no file reaches this (no size to tell).
        return Err(ErrorKind::UnknownVersion { found: version, size: 0 });
    }
    let named = StockfishFormat::named_by(version, hash);
    let Some(&(format, arch)) = named.first() else {
        let sf14 = (1..=256)
            .map(|k| k * 64)
            .find(|&l1| hash::feature_transformer(hash::HALFKA_V2, l1) ^ hash::network(l1, 16, 32) == hash);
        let name = if let Some(l1) = sf14 {
            format!("Stockfish 14-era HalfKAv2 {l1}x2-16-32-1 net (no king mirroring, no pairwise product)")
        } else if description.contains("HalfKAv2(") {
            "Stockfish 14-era HalfKAv2 net (no horizontal mirroring)".to_string()
        } else if description.to_ascii_lowercase().contains("threat") {
            "threat-input net".to_string()
        } else {
            format!("version {version:#010x} net with hash {hash:#010x}, which no supported architecture has")
        };
        return Err(ErrorKind::Unsupported { name });
    };
    // Released nets mostly carry a trainer's note; when the description does name an
    // architecture ("...[22528->3072x2]..."), it must be the one the hash says.
    if let Some(l1) = described_l1(description) {
        if l1 != arch.l1() || description.contains(format.other_family) {
            return Err(ErrorKind::DescriptionMismatch {
                described: description.to_string(),
                actual: arch.to_string(),
            });
        }
    }
    Ok(named)
}

/// The L1 in a description such as `Features=HalfKP(Friend)[41024->256x2]`.
fn described_l1(description: &str) -> Option<usize> {
    let start = description.find("Features=")?;
    let rest = &description[start..];
    let arrow = rest.find("->")? + 2;
    let digits: String = rest[arrow..].chars().take_while(char::is_ascii_digit).collect();
    rest[arrow + digits.len()..].starts_with("x2").then(|| digits.parse().ok())?
}

/// A net read with its description (a headerless net, or a `CBNF` one): as its frame says,
/// the header if it has one, then its arrays (see `layered::file` for the multi-layer
/// engines' orders), then what may follow them.
fn read_framed(data: &[u8], full: &Architecture, framed: Framed) -> Result<Net, FormatError> {
    use crate::layered::format::{End, Storage, Zstd};
    use crate::layered::header;
    let Framed { frame, sizes: [short, padded], params } = framed;
    // A CBNF header says how the arrays are stored; the other frames have none.
    let head = match full {
        Architecture::Layered(arch) => header::read(data, arch)?,
        _ => header::Header { name: String::new(), start: 0, zstd: false },
    };
    let decompressed;
    // Where the zstd stream starts in the file, when the arrays were decompressed from one.
    let mut stream_at = None;
    let (body, start, padding, aligned) = if frame.storage == Storage::Varints {
        // One varint per value: the size follows from the values; nothing may trail them.
        (data, 0, Padding::None, false)
    } else if head.zstd {
        decompressed = header::decompress(&data[head.start..], head.start, params)?;
        stream_at = Some(head.start);
        (&decompressed[..], 0, Padding::None, false)
    } else if frame.zstd == Zstd::WholeFile && ![short, padded].contains(&data.len()) {
        // As Viridithas ships (and embeds) its nets: the struct's bytes, zstd-compressed.
        decompressed = header::decompress(data, 0, params)?;
        stream_at = Some(0);
        (&decompressed[..], 0, Padding::None, false)
    } else {
        // The size first: a truncated file is one error.
        if data.len() != short && data.len() != padded {
            return Err(crate::error::headerless_size_error(data, data.len(), full.to_string(), padded));
        }
        let padding = match frame.end {
            End::Bullet => crate::headerless::read_padding(data, params)?,
            // An aligned layout's file with its last array padded too.
            End::Aligned if data.len() == padded && padded != short => Padding::Zeros,
            _ => Padding::None,
        };
        (data, head.start, padding, frame.align > 1)
    };
    let mut parts = plan::parts(full);
    if !aligned {
        for part in &mut parts {
            if let Part::Array(a) = part {
                a.align = 1;
            }
        }
    }
    let mut r = Reader { data: body, pos: start, section: String::new() };
    let arrays = r.parts(&parts).map_err(|e| match stream_at {
        Some(at) => in_zstd_stream(e, at),
        None => e,
    })?;
    if frame.storage == Storage::Varints {
        r.end()?;
    }
    Ok(engine_order(Net { description: head.name, model: plan::assemble(full, arrays, padding) }))
}

/// `e`, found in arrays decompressed from the zstd stream at file offset `at`: its offset
/// becomes the stream's (an offset in the file, as every error's is), its section says where
/// in the decompressed arrays it was found.
fn in_zstd_stream(mut e: FormatError, at: usize) -> FormatError {
    e.section = format!("{} (byte {} of the zstd-compressed arrays, decompressed)", e.section, e.offset);
    e.offset = at;
    e
}

impl Net {
    /// Reads a net file. `arch` is required for headerless nets; for Stockfish nets it is
    /// optional and, when given, must agree with what the header implies.
    ///
    /// ```
    /// use nnue_format::{synth, Encoding, ErrorKind, Net};
    ///
    /// let net = synth::sfnn(128, 1, Encoding::Leb128); // a synthetic Stockfish net, L1 128
    /// let bytes = net.to_bytes();
    /// let read = Net::from_bytes(&bytes, None).unwrap();
    /// assert_eq!(read, net);
    /// assert_eq!(read.to_bytes(), bytes);
    ///
    /// // Every error names the offset and the section where reading stopped.
    /// let err = Net::from_bytes(&bytes[..bytes.len() - 1], None).unwrap_err();
    /// assert!(matches!(err.kind, ErrorKind::Truncated { .. } | ErrorKind::Leb128(_)), "{err}");
    /// ```
    pub fn from_bytes(bytes: &[u8], arch: Option<&Architecture>) -> Result<Net, FormatError> {
        crate::read::read_net(bytes, arch)
    }
}

/// `net` as its engine holds it after loading: Viridithas's sums' neurons in its order (see
/// [`crate::L1Sums::ViridithasAvx2`]); every other net as read.
fn engine_order(mut net: Net) -> Net {
    net.viridithas_order(true);
    net
}

#[cfg(test)]
mod tests {
    use crate::{Architecture, Model, Net};

    /// A bad value inside zstd-compressed arrays (found by the `viridithas` fuzz target): the
    /// error's offset is the stream's, within the file, not the value's offset in the
    /// decompressed bytes (past the end of a small file); its section says where that was.
    #[test]
    fn an_error_in_decompressed_arrays_is_at_the_streams_offset() {
        let text = "(704x2hm -> 64)x2 -> pairwise>>9 -> (32 -> 64 -> 1)x8, f32, l1act=hardswish, l2act=swiglu, \
                    residual, l1mul=512/4161600, scale=240, threats=pawnpairs+sf19, file=viridithas, \
                    kings=[0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
        let arch: Architecture = text.parse().unwrap();
        let Architecture::Layered(a) = &arch else { unreachable!() };
        let mut net = crate::synth::layered(a, 4);
        let Model::Layered(_, p) = &mut net.model else { unreachable!() };
        p.l2_biases[5] = f32::NAN.to_bits() as i32;
        let raw = Net::from_bytes(&net.to_bytes(), Some(&arch)).unwrap_err();
        assert!(raw.to_string().contains("is NaN"), "{raw}");
        let shipped = net.to_zstd(1).unwrap();
        assert!(raw.offset > shipped.len());
        let e = Net::from_bytes(&shipped, Some(&arch)).unwrap_err();
        assert_eq!((e.offset, e.kind.clone()), (0, raw.kind.clone()), "{e}");
        let where_ =
            format!("{} (byte {} of the zstd-compressed arrays, decompressed) at offset 0: ", raw.section, raw.offset);
        assert!(e.to_string().starts_with(&where_), "{e}");
    }
}
