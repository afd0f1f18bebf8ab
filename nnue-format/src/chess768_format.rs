//! Single-layer (chess-768) files as records: what precedes the arrays, how the output layer is
//! stored, what may follow. The plan (`plan.rs`) turns a record into the file's parts, so the
//! one reader and the one writer read and write every record; a new engine's single-layer file
//! is a [`Chess768File`] and its record in [`CHESS768_FORMATS`].

use crate::elem::Elem;
use crate::frame::{End, Frame, Header, Storage, Zstd};

/// Which engine's single-layer file a net is (its record: [`Self::format`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Chess768File {
    /// bullet's: no header, the arrays back to back (`l0` weights and biases, `l1` weights and
    /// biases, all int16), then padding to 64 bytes (zeros or `bulletbullet…`) or none.
    #[default]
    Bullet,
    /// Caissa's `PackedNeuralNetwork` (Witek902/Caissa, `src/backend/PackedNeuralNetwork.hpp`,
    /// version 12) as the engine writes and reads it, one `fwrite` of the struct: a 64-byte
    /// `CSNN` header, the `l0` weights and biases, then per output bucket a 64-byte aligned
    /// struct of its `2N` weights and an int32 bias.
    Caissa,
}

/// One 32-bit little-endian word of a header: a constant, or a size the description gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Word {
    /// This value, named in errors.
    Is(u32, &'static str),
    /// The input features (768 per king bucket).
    Inputs,
    /// The output layer's inputs (twice the hidden size).
    OutputInputs,
    /// The output buckets.
    OutputBuckets,
}

impl Word {
    /// What it is, in errors.
    pub fn what(self) -> &'static str {
        match self {
            Word::Is(_, what) => what,
            Word::Inputs => "the input features",
            Word::OutputInputs => "the output layer's inputs (2N)",
            Word::OutputBuckets => "the output buckets",
        }
    }
}

/// A header: its words, then bytes nobody reads (the engine's writer leaves them
/// uninitialised, so the reader takes any value; the writer writes zeros).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WordHeader {
    /// The words, in file order.
    pub words: &'static [Word],
    /// The ignored bytes after them.
    pub ignored: usize,
}

/// How the output layer is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputStore {
    /// Every bucket's weights (in the description's `out=` order), then the int16 biases.
    Arrays,
    /// Per bucket one struct: its weights (`[2N]`, the side to move's first), its bias, then
    /// ignored bytes up to a multiple of `align`.
    Structs {
        /// How the bias is stored (int32: each must fit int16, as the model holds it).
        bias: Elem,
        /// The struct's alignment.
        align: usize,
    },
}

impl OutputStore {
    /// The ignored bytes after each bucket's bias, for `hidden` neurons per perspective (none
    /// when the layer is stored as arrays).
    pub fn padding(self, hidden: usize) -> usize {
        match self {
            OutputStore::Arrays => 0,
            OutputStore::Structs { bias, align } => {
                let used = 2 * 2 * hidden + bias.size();
                used.next_multiple_of(align) - used
            }
        }
    }
}

/// The sizes of a single-layer net that its file's size and header words follow from (the
/// description's: [`Chess768Arch::sizes`](crate::Chess768Arch::sizes)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sizes {
    /// Input features (768 per king bucket).
    pub inputs: usize,
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
}

/// One engine's single-layer file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chess768Format {
    /// The file this record describes.
    pub file: Chess768File,
    /// Its name in a description (`file=`).
    pub name: &'static str,
    /// What precedes the arrays, if anything.
    pub header: Option<WordHeader>,
    /// How the output layer is stored.
    pub output: OutputStore,
    /// What may follow the last array.
    pub end: End,
    /// A bound on the output weights beyond which the engine's own builds compute something
    /// else than the description (and than each other), and why: such a net is refused at the
    /// first weight past it.
    pub output_weights_within: Option<(i16, &'static str)>,
}

/// Caissa's header (`PackedNeuralNetwork::Header`): magic `'CSNN'` (a multi-character
/// constant, so the bytes read `NNSC`), version 12, the layer sizes `{inputs, 2N, 0, 0}` and
/// variants `{1, buckets, 0, 0}`, then six words of padding.
const CSNN: WordHeader = WordHeader {
    words: &[
        Word::Is(0x4353_4E4E, "the magic `CSNN`"),
        Word::Is(12, "the version"),
        Word::Inputs,
        Word::OutputInputs,
        Word::Is(0, "the third layer's size (none)"),
        Word::Is(0, "the fourth layer's size (none)"),
        Word::Is(1, "the input layer's variants"),
        Word::OutputBuckets,
        Word::Is(0, "the third layer's variants (none)"),
        Word::Is(0, "the fourth layer's variants (none)"),
    ],
    ignored: 24,
};

/// Every single-layer file, in the order descriptions list them.
pub const CHESS768_FORMATS: [Chess768Format; 2] = [
    Chess768Format {
        file: Chess768File::Bullet,
        name: "bullet",
        header: None,
        output: OutputStore::Arrays,
        end: End::Bullet,
        output_weights_within: None,
    },
    // `LastLayerVariant` is `alignas(64) { int16 weights[2N]; int32 bias; int32 padding[15]; }`;
    // the engine reads the file with one `fread` of the struct and checks nothing.
    Chess768Format {
        file: Chess768File::Caissa,
        name: "caissa",
        header: Some(CSNN),
        output: OutputStore::Structs { bias: Elem::I32, align: 64 },
        end: End::Exact,
        // Its SIMD builds square as `madd(mullo_epi16(w, c), c)`: `w·c` wraps in int16 once
        // |w|·255 passes 32767, where its scalar build (and ours) doesn't. Its trainer keeps
        // the weights within ±127 and its debug build asserts so.
        output_weights_within: Some((
            128,
            "Caissa's SIMD builds multiply a weight by its input in int16 lanes, which wraps beyond ±128, where its \
             scalar build doesn't: its builds disagree on such a net",
        )),
    },
];

impl Chess768File {
    /// Its record.
    pub fn format(self) -> &'static Chess768Format {
        // The records' order (a test checks each record is its file's).
        let i = match self {
            Chess768File::Bullet => 0,
            Chess768File::Caissa => 1,
        };
        &CHESS768_FORMATS[i]
    }

    /// By its name in a description.
    pub fn by_name(name: &str) -> Option<Chess768File> {
        CHESS768_FORMATS.iter().find(|f| f.name == name).map(|f| f.file)
    }
}

impl Chess768Format {
    /// How its files are framed (the header's words are parts of the plan, not of the frame).
    pub fn frame(&self) -> Frame {
        Frame { header: Header::None, storage: Storage::Raw, align: 1, end: self.end, zstd: Zstd::No }
    }

    /// A word's value for a net of these sizes.
    pub fn word(word: Word, sizes: Sizes) -> u32 {
        let value = match word {
            Word::Is(v, _) => return v,
            Word::Inputs => sizes.inputs,
            Word::OutputInputs => 2 * sizes.hidden,
            Word::OutputBuckets => sizes.buckets,
        };
        // A validated architecture's sizes are far below 2^32.
        value as u32
    }

    /// Bytes of a file of a net of these sizes without what may follow the last array.
    pub fn bytes(&self, sizes: Sizes) -> usize {
        let Sizes { inputs, hidden: n, buckets: b } = sizes;
        let header = self.header.map_or(0, |h| 4 * h.words.len() + h.ignored);
        let output = match self.output {
            OutputStore::Arrays => 2 * (b * 2 * n + b),
            OutputStore::Structs { bias, .. } => b * (2 * 2 * n + bias.size() + self.output.padding(n)),
        };
        header + 2 * (inputs * n + n) + output
    }
}

/// The record whose header starts with a constant word that `head` starts with.
pub(crate) fn by_magic(head: &[u8]) -> Option<&'static Chess768Format> {
    CHESS768_FORMATS.iter().find(|f| match f.header.map(|h| h.words.first()) {
        Some(Some(&Word::Is(magic, _))) => head.starts_with(&magic.to_le_bytes()),
        _ => false,
    })
}

/// A file that starts as a single-layer record's header does, read without a description: why
/// it can't be read so, naming the record (and a preset that reads it), since the header states
/// sizes but not the king buckets or the arithmetic.
pub(crate) fn without_description(head: &[u8]) -> Option<String> {
    let format = by_magic(head)?;
    let option = format!("file={}", format.name);
    let preset = crate::preset::PRESETS.iter().find(|(_, d)| d.split(", ").any(|o| o == option));
    let e_g = preset.map_or(String::new(), |(name, _)| format!(", e.g. the preset `{name}`"));
    Some(format!(
        "a `{}` single-layer net: its header states the sizes but not the king buckets or the arithmetic, so it \
         needs a description with `{option}`{e_g}",
        format.name
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Architecture, Chess768Arch};

    fn arch(text: &str) -> Chess768Arch {
        let Ok(Architecture::Chess768(a)) = text.parse() else { panic!("{text}") };
        a
    }

    #[test]
    fn each_record_is_its_files() {
        for f in CHESS768_FORMATS {
            assert_eq!(f.file.format(), &f);
            assert_eq!(Chess768File::by_name(f.name), Some(f.file));
        }
    }

    /// Caissa's `sizeof(PackedNeuralNetwork)` for its shape, 50,367,040 bytes.
    #[test]
    fn caissa_size_is_its_struct_size() {
        let a = arch("caissa");
        assert_eq!((a.param_bytes(), a.file_bytes()), (50_367_040, 50_367_040));
        assert_eq!(Chess768File::by_name("caissa"), Some(Chess768File::Caissa));
        assert_eq!(Chess768File::by_name("other"), None);
        assert_eq!(Architecture::Chess768(a).to_string(), crate::preset::CAISSA);
    }

    /// `file=caissa` prints and parses back; `out=[2N][B]` doesn't go with its per-bucket structs.
    #[test]
    fn caissa_descriptions() {
        let t: Architecture = "(768hm -> 64)x2 -> 1x8, crelu, qa=255, scale=none, file=caissa".parse().unwrap();
        assert_eq!(t.to_string(), "(768hm -> 64)x2 -> 1x8, crelu, qa=255, scale=none, file=caissa");
        assert_eq!(t.to_string().parse::<Architecture>().unwrap(), t);
        let e = "(768 -> 64)x2 -> 1x8, crelu, qa=255, scale=none, out=[2N][B], file=caissa"
            .parse::<Architecture>()
            .unwrap_err()
            .to_string();
        assert!(e.ends_with("file=caissa: its output weights are stored per bucket, out=[2N][B] doesn't apply"), "{e}");
    }

    /// A small net in Caissa's file: the header's words, each bucket's struct (weights, int32
    /// bias, 60 ignored bytes), read back to the same net; the bytes nobody reads may hold
    /// anything; a wrong word, a bias outside int16 and a short file are errors at their offset.
    #[test]
    fn caissa_files_read_write_and_refuse() {
        let a = arch("(768x2 -> 32)x2 -> 1x3, screlu, qa=255, scale=none, file=caissa, kings=[0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]");
        let net = crate::synth::chess768(&a, 11);
        let bytes = net.to_bytes();
        let (l0, per_bucket) = (64 + 2 * (1536 * 32 + 32), (4usize * 32 + 4).next_multiple_of(64));
        assert_eq!(bytes.len(), l0 + 3 * per_bucket);
        let word = |i: usize| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap());
        assert_eq!(&bytes[..4], b"NNSC");
        assert_eq!((0..10).map(word).collect::<Vec<_>>(), [0x4353_4E4E, 12, 1536, 64, 0, 0, 1, 3, 0, 0]);
        let crate::Model::Chess768(_, p) = &net.model else { unreachable!() };
        let bias_at = |b: usize| l0 + b * per_bucket + 4 * 32;
        for b in 0..3 {
            assert_eq!(i32::from_le_bytes(bytes[bias_at(b)..bias_at(b) + 4].try_into().unwrap()), i32::from(p.l1b[b]));
        }
        let given = Architecture::Chess768(a);
        assert!(crate::Net::from_bytes(&bytes, Some(&given)).unwrap() == net);

        let mut junk = bytes.clone();
        junk[40..64].fill(0xAB);
        junk[bias_at(1) + 4..bias_at(1) + 64].fill(0xCD);
        assert!(crate::Net::from_bytes(&junk, Some(&given)).unwrap() == net, "ignored bytes are ignored");

        let refused = |bytes: &[u8]| crate::Net::from_bytes(bytes, Some(&given)).unwrap_err();
        let mut version = bytes.clone();
        version[4] = 11;
        let e = refused(&version);
        assert_eq!((e.offset, e.to_string().contains("the version: expected 12 (0xc), found 11")), (4, true), "{e}");
        let mut buckets = bytes.clone();
        buckets[28] = 8;
        let e = refused(&buckets);
        assert_eq!((e.offset, e.to_string().contains("the output buckets: expected 3")), (28, true), "{e}");
        let mut wide = bytes.clone();
        wide[bias_at(2)..bias_at(2) + 4].copy_from_slice(&40_000i32.to_le_bytes());
        let e = refused(&wide);
        assert_eq!(e.offset, bias_at(2), "{e}");
        assert!(e.to_string().contains("l1 bias is 40000: expected a value within int16"), "{e}");
        let mut heavy = bytes.clone();
        let w_at = l0 + per_bucket + 2 * 5;
        heavy[w_at..w_at + 2].copy_from_slice(&(-129i16).to_le_bytes());
        let e = refused(&heavy);
        assert_eq!(e.offset, w_at, "{e}");
        assert!(e.to_string().contains("l1 weights 5 is -129: expected a value within ±128"), "{e}");
        heavy[w_at..w_at + 2].copy_from_slice(&(-128i16).to_le_bytes());
        assert!(crate::Net::from_bytes(&heavy, Some(&given)).is_ok());
        let e = refused(&bytes[..bytes.len() - 1]);
        assert!(e.to_string().contains("`caissa` net"), "{e}");
        let e = crate::Net::from_bytes(&bytes, None).unwrap_err().to_string();
        assert!(e.contains("a `caissa` single-layer net") && e.contains("e.g. the preset `caissa`"), "{e}");
    }
}
