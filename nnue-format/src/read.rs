//! The reader: every size is checked against the bytes present before anything is allocated.

use crate::arch::{Architecture, Chess768Arch, HalfKpArch, Sf19Arch, Sf19Inputs, SfnnArch, ThreatsArch};
use crate::error::{ErrorKind, FormatError};
use crate::hash;
use crate::leb128::{self, Element};
use crate::net::{
    Chess768Params, Dense, Encoding, FeatureTransformer, HalfKpParams, Model, Net, Sf19Params, SfnnParams, Stack,
    ThreatsParams,
};
use crate::{VERSION_HALFKP, VERSION_SF19, VERSION_SFNN};

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

    fn dense(&mut self, name: &str, inputs: usize, outputs: usize) -> Result<Dense, FormatError> {
        let mut layer = Dense::zeroed(inputs, outputs);
        self.section = format!("{} {name}", self.section.split(' ').next().unwrap_or_default());
        layer.biases = self.raw(outputs, &format!("{name} biases"))?;
        layer.weights = self.raw(outputs * layer.padded_inputs, &format!("{name} weights"))?;
        Ok(layer)
    }

    fn feature_transformer(
        &mut self,
        inputs: usize,
        l1: usize,
        psqt_buckets: usize,
    ) -> Result<FeatureTransformer, FormatError> {
        let (biases, e0) = self.array(l1, "feature-transformer biases")?;
        let (weights, e1) = self.array(inputs * l1, "feature-transformer weights")?;
        let (psqt, e2) = if psqt_buckets > 0 {
            self.array(inputs * psqt_buckets, "PSQT weights")?
        } else {
            (Vec::new(), Encoding::Raw)
        };
        Ok(FeatureTransformer { biases, weights, psqt, encoding: [e0, e1, e2] })
    }

    /// The 8 layer stacks, each behind its hash: fc_0 `l1 -> fc0_out`, fc_1 `fc1_in -> fc1_out`,
    /// fc_2 `fc2_in -> 1`.
    fn stacks(
        &mut self,
        l1: usize,
        stack_hash: u32,
        [fc0_out, fc1_in, fc1_out, fc2_in]: [usize; 4],
    ) -> Result<Vec<Stack>, FormatError> {
        let mut stacks = Vec::with_capacity(SfnnArch::STACKS);
        for i in 0..SfnnArch::STACKS {
            self.section = format!("stack[{i}]");
            self.hash(stack_hash)?;
            stacks.push(Stack {
                fc0: self.dense("fc_0", l1, fc0_out)?,
                fc1: self.dense("fc_1", fc1_in, fc1_out)?,
                fc2: self.dense("fc_2", fc2_in, 1)?,
            });
            self.section = format!("stack[{i}]");
        }
        Ok(stacks)
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
        return Err(FormatError::new(0, "architecture description", ErrorKind::Invalid(reason)));
    }
    if data.is_empty() {
        return Err(FormatError::new(0, "header", ErrorKind::Empty));
    }
    if let Some(Architecture::Chess768(arch)) = given {
        return read_chess768(data, arch, given.unwrap());
    }
    if let Some(Architecture::Layered(arch)) = given {
        return read_layered(data, arch);
    }
    if data.starts_with(b"CBNF") {
        return Err(crate::error::cbnf_without_description());
    }
    let mut r = Reader { data, pos: 0, section: "header".into() };
    let version = r.u32("the version")?;
    if !crate::is_known_version(version) {
        return Err(FormatError::new(0, "header", ErrorKind::UnknownVersion { found: version }));
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
    let headered = identify(version, hash, &description).map_err(|kind| FormatError::new(hash_at, "header", kind))?;
    let arch = headered.arch();
    if let Some(given) = given {
        if *given != arch {
            return Err(FormatError::new(
                hash_at,
                "header",
                ErrorKind::DescriptionMismatch { described: given.to_string(), actual: arch.to_string() },
            ));
        }
    }
    let model = match headered {
        Headered::Sfnn(a) => {
            r.section = "feature transformer".into();
            r.hash(a.ft_hash())?;
            let ft = r.feature_transformer(SfnnArch::INPUTS, a.l1, SfnnArch::PSQT_BUCKETS)?;
            let stacks = r.stacks(a.l1, a.stack_hash(), SFNN_STACK)?;
            Model::Sfnn(a, SfnnParams { ft, stacks })
        }
        Headered::Threats(a) => {
            // Stockfish 18: biases, threat weights (raw int8), HalfKAv2_hm weights, then one
            // PSQT block for both tables (threat rows first).
            r.section = "feature transformer".into();
            r.hash(a.ft_hash())?;
            let (biases, e0) = r.array(a.l1, "feature-transformer biases")?;
            let threat_weights = r.raw(ThreatsArch::THREAT_INPUTS * a.l1, "threat weights")?;
            let (weights, e1) = r.array(ThreatsArch::PIECE_INPUTS * a.l1, "HalfKAv2_hm weights")?;
            let (psqt, e2) = r.array(
                ThreatsArch::INPUTS * SfnnArch::PSQT_BUCKETS,
                "PSQT weights (threat rows, then HalfKAv2_hm rows)",
            )?;
            let ft = FeatureTransformer { biases, weights, psqt, encoding: [e0, e1, e2] };
            let stacks = r.stacks(a.l1, a.stack_hash(), SFNN_STACK)?;
            Model::Threats(a, ThreatsParams { ft, threat_weights, stacks })
        }
        Headered::Sf19(a) => {
            // Stockfish 19: biases, then per feature set its weights and its PSQT block: threats
            // (int8, raw), pawn pairs (int8, raw), then the int16 set.
            r.section = "feature transformer".into();
            r.hash(a.ft_hash())?;
            let (biases, e0) = r.array(a.l1, "feature-transformer biases")?;
            let (mut int8_weights, mut psqt) = (Vec::new(), Vec::new());
            let mut int8_psqt_encoding = [Encoding::Leb128; 2];
            if a.inputs == Sf19Inputs::Full {
                for (i, (rows, what)) in
                    [(Sf19Arch::THREAT_INPUTS, "threat"), (Sf19Arch::PAIR_INPUTS, "pawn-pair")].into_iter().enumerate()
                {
                    int8_weights.extend(r.raw::<i8>(rows * a.l1, &format!("{what} weights"))?);
                    let (block, e) = r.array::<i32>(rows * Sf19Arch::PSQT_BUCKETS, &format!("{what} PSQT weights"))?;
                    psqt.extend(block);
                    int8_psqt_encoding[i] = e;
                }
            }
            let (weights, e1) = r.array(a.int16_inputs() * a.l1, "piece-square weights")?;
            let (block, e2) = r.array::<i32>(a.int16_inputs() * Sf19Arch::PSQT_BUCKETS, "piece-square PSQT weights")?;
            psqt.extend(block);
            let ft = FeatureTransformer { biases, weights, psqt, encoding: [e0, e1, e2] };
            let dims = [Sf19Arch::FC0_OUT, Sf19Arch::FC1_IN, Sf19Arch::FC1_OUT, Sf19Arch::FC2_IN];
            let stacks = r.stacks(a.l1, a.stack_hash(), dims)?;
            Model::Sf19(a, Sf19Params { ft, int8_weights, int8_psqt_encoding, stacks })
        }
        Headered::HalfKp(a) => {
            r.section = "feature transformer".into();
            r.hash(a.ft_hash())?;
            let ft = r.feature_transformer(HalfKpArch::INPUTS, a.l1, 0)?;
            r.section = "network".into();
            r.hash(a.network_hash())?;
            let fc0 = r.dense("fc_0", 2 * a.l1, HalfKpArch::L2)?;
            let fc1 = r.dense("fc_1", HalfKpArch::L2, HalfKpArch::L3)?;
            let fc2 = r.dense("fc_2", HalfKpArch::L3, 1)?;
            Model::HalfKp(a, HalfKpParams { ft, fc0, fc1, fc2 })
        }
    };
    r.end()?;
    Ok(Net { description, model })
}

/// The layer stacks of Stockfish 15.1 to 18: fc_0 `L1 -> 15+1`, fc_1 `30 -> 32`, fc_2 `32 -> 1`.
const SFNN_STACK: [usize; 4] = [SfnnArch::FC0_OUT, SfnnArch::FC1_IN, SfnnArch::FC1_OUT, SfnnArch::FC1_OUT];

/// The families a Stockfish header names (headerless nets have none).
#[derive(Clone, Copy)]
enum Headered {
    Sfnn(SfnnArch),
    Threats(ThreatsArch),
    Sf19(Sf19Arch),
    HalfKp(HalfKpArch),
}

impl Headered {
    fn arch(self) -> Architecture {
        match self {
            Headered::Sfnn(a) => Architecture::Sfnn(a),
            Headered::Threats(a) => Architecture::Threats(a),
            Headered::Sf19(a) => Architecture::Sf19(a),
            Headered::HalfKp(a) => Architecture::HalfKp(a),
        }
    }
}

/// Works out the architecture from the version and hash, and checks the description agrees.
fn identify(version: u32, hash: u32, description: &str) -> Result<Headered, ErrorKind> {
    let widths = (1..=256).map(|k| k * 64);
    let arch = match version {
        VERSION_SFNN => widths
            .clone()
            .map(|l1| SfnnArch { l1 })
            .find(|a| a.file_hash() == hash)
            .map(Headered::Sfnn)
            .or_else(|| widths.map(|l1| ThreatsArch { l1 }).find(|a| a.file_hash() == hash).map(Headered::Threats)),
        VERSION_HALFKP => widths.map(|l1| HalfKpArch { l1 }).find(|a| a.file_hash() == hash).map(Headered::HalfKp),
        VERSION_SF19 => widths
            .flat_map(|l1| [Sf19Inputs::Full, Sf19Inputs::Lite].map(|inputs| Sf19Arch { l1, inputs }))
            .find(|a| a.file_hash() == hash)
            .map(Headered::Sf19),
        found => return Err(ErrorKind::UnknownVersion { found }),
    };
    let Some(arch) = arch else {
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
        let family_ok = match arch {
            Headered::Sfnn(_) | Headered::Threats(_) | Headered::Sf19(_) => !description.contains("HalfKP"),
            Headered::HalfKp(_) => !description.contains("HalfKAv2"),
        };
        if l1 != arch.arch().l1() || !family_ok {
            return Err(ErrorKind::DescriptionMismatch {
                described: description.to_string(),
                actual: arch.arch().to_string(),
            });
        }
    }
    Ok(arch)
}

/// The L1 in a description such as `Features=HalfKP(Friend)[41024->256x2]`.
fn described_l1(description: &str) -> Option<usize> {
    let start = description.find("Features=")?;
    let rest = &description[start..];
    let arrow = rest.find("->")? + 2;
    let digits: String = rest[arrow..].chars().take_while(char::is_ascii_digit).collect();
    rest[arrow + digits.len()..].starts_with("x2").then(|| digits.parse().ok())?
}

fn read_chess768(data: &[u8], arch: &Chess768Arch, full: &Architecture) -> Result<Net, FormatError> {
    let (exact, padded) = (arch.param_bytes(), arch.file_bytes());
    if data.len() != exact && data.len() != padded {
        return Err(crate::error::headerless_size_error(data, data.len(), full.to_string(), padded));
    }
    let padding = crate::headerless::read_padding(data, exact)?;
    let (n, b) = (arch.hidden, arch.output_buckets);
    let mut r = Reader { data, pos: 0, section: "l0 weights".into() };
    let l0w = r.raw(arch.inputs() * n, "l0 weights")?;
    r.section = "l0 biases".into();
    let l0b = r.raw(n, "l0 biases")?;
    r.section = "l1 weights".into();
    let l1w = crate::headerless::output_weights_from_file(r.raw(b * 2 * n, "l1 weights")?, arch);
    r.section = "l1 biases".into();
    let l1b = r.raw(b, "l1 biases")?;
    let params = Chess768Params { l0w, l0b, l1w, l1b, padding };
    Ok(Net { description: String::new(), model: Model::Chess768(*arch, params) })
}

/// A multi-layer net: the engine's header, if its layout has one, then its arrays in the
/// engine's order (see `layered::file`).
fn read_layered(data: &[u8], arch: &crate::LayeredArch) -> Result<Net, FormatError> {
    use crate::layered::file::{self, FileElem};
    use crate::layered::header::{self, CBNF_ALIGN};
    use crate::net::Padding;
    let cbnf = arch.file == crate::FileLayout::Cbnf;
    // A CBNF header says how the arrays are stored; the other layouts have none.
    let head = header::read(data, arch)?;
    let decompressed;
    let (body, start, padding, aligned) = if head.zstd {
        decompressed = header::decompress(&data[head.start..], head.start, file::param_bytes(arch))?;
        (&decompressed[..], 0, Padding::None, false)
    } else {
        // The size first, as for the other headerless nets: a truncated file is one error.
        let (exact, padded) = (arch.param_bytes(), arch.file_bytes());
        // Stormphrax pads each array; the last one's padding may be missing.
        let last = file::arrays(arch).last().map_or(0, |a| a.bytes());
        let short = if cbnf { padded - (last.next_multiple_of(CBNF_ALIGN) - last) } else { exact };
        if data.len() != short && data.len() != padded {
            return Err(crate::error::headerless_size_error(data, data.len(), arch.to_string(), padded));
        }
        let padding = match arch.file {
            crate::FileLayout::Bullet => crate::headerless::read_padding(data, exact)?,
            crate::FileLayout::Cbnf if data.len() == padded && padded != short => Padding::Zeros,
            crate::FileLayout::Alexandria | crate::FileLayout::Cbnf => Padding::None,
        };
        (data, head.start, padding, cbnf)
    };
    let description = head.name;
    let mut r = Reader { data: body, pos: start, section: String::new() };
    let mut words: Vec<Vec<i32>> = Vec::new();
    let (mut ft_weights, mut ft_biases, mut l1_weights) = (Vec::new(), Vec::new(), Vec::new());
    for a in file::arrays(arch) {
        r.section = a.name.into();
        match (a.name, a.elem) {
            ("ft weights", FileElem::I16) => ft_weights = a.canonical(&r.raw::<i16>(a.len(), a.name)?),
            ("ft biases", FileElem::I16) => ft_biases = a.canonical(&r.raw::<i16>(a.len(), a.name)?),
            ("l1 weights", FileElem::I8) => l1_weights = a.canonical(&r.raw::<i8>(a.len(), a.name)?),
            (_, FileElem::Word) => {
                let at = r.pos;
                let values = r.raw::<i32>(a.len(), a.name)?;
                // A NaN or an infinity would evaluate to garbage (0 on every path): refused.
                if let (crate::Numbers::F32 { .. }, Some(i)) =
                    (arch.numbers, values.iter().position(|&v| !f32::from_bits(v as u32).is_finite()))
                {
                    let kind = ErrorKind::Invalid(format!(
                        "{} {i} is {}: expected a finite float",
                        a.name,
                        f32::from_bits(values[i] as u32)
                    ));
                    return Err(FormatError::new(at + 4 * i, a.name, kind));
                }
                words.push(a.canonical(&values));
            }
            _ => unreachable!("the file table's element types"),
        }
        if aligned {
            r.zero_padding(CBNF_ALIGN)?;
        }
    }
    let [l1_biases, l2_weights, l2_biases, l3_weights, l3_biases]: [Vec<i32>; 5] =
        words.try_into().expect("five word arrays");
    let params = crate::LayeredParams {
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
    Ok(Net { description, model: Model::Layered(*arch, params) })
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
