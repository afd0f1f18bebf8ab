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
}

/// Every single-layer file, in the order descriptions list them.
pub const CHESS768_FORMATS: [Chess768Format; 1] = [Chess768Format {
    file: Chess768File::Bullet,
    name: "bullet",
    header: None,
    output: OutputStore::Arrays,
    end: End::Bullet,
}];

impl Chess768File {
    /// Its record.
    pub fn format(self) -> &'static Chess768Format {
        // The records' order (a test checks each record is its file's).
        let i = match self {
            Chess768File::Bullet => 0,
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
            OutputStore::Structs { bias, align } => b * (2 * 2 * n + bias.size()).next_multiple_of(align),
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

    #[test]
    fn each_record_is_its_files() {
        for f in CHESS768_FORMATS {
            assert_eq!(f.file.format(), &f);
            assert_eq!(Chess768File::by_name(f.name), Some(f.file));
        }
        assert_eq!(Chess768File::by_name("other"), None);
    }
}
