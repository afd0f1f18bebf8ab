//! The one error type of the reader: where (offset, section) and what (expected vs found).

use std::fmt;

/// A net file that can't be used, with the byte offset and section where reading stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{section} at offset {offset}: {kind}")]
pub struct FormatError {
    /// Byte offset in the file where the problem was found.
    pub offset: usize,
    /// The part of the file being read (header, a layer, ...).
    pub section: String,
    /// What was expected and what was found.
    pub kind: ErrorKind,
}

/// How much of a text from a file (a net's description) a message shows.
pub const SHOWN_TEXT_CHARS: usize = 200;

/// A text from a file as messages show it: escaped (`escape_debug`: no terminal escape
/// sequences, newlines or other control characters get through) and cut after
/// [`SHOWN_TEXT_CHARS`] characters, with the full length in bytes: `abc… (20000000 bytes)`.
pub fn shown(text: &str) -> String {
    let (head, cut) = cut_text(text);
    // Apostrophes as they are (`clamp(a', 0, 255)` in a layer line), as `{:?}` shows them.
    let escaped = head.split('\'').map(|part| part.escape_debug().to_string()).collect::<Vec<_>>().join("'");
    if cut {
        format!("{escaped}… ({} bytes)", text.len())
    } else {
        escaped
    }
}

/// The first [`SHOWN_TEXT_CHARS`] characters of `text`, and whether that is less than all.
pub(crate) fn cut_text(text: &str) -> (&str, bool) {
    match text.char_indices().nth(SHOWN_TEXT_CHARS) {
        Some((end, _)) => (&text[..end], true),
        None => (text, false),
    }
}

impl FormatError {
    /// An error at `offset` in `section`.
    pub fn new(offset: usize, section: impl fmt::Display, kind: ErrorKind) -> Self {
        Self { offset, section: section.to_string(), kind }
    }
}

impl ErrorKind {
    /// The variant's name, for tests and tools that match on the class of error.
    pub fn name(&self) -> &'static str {
        match self {
            ErrorKind::Empty => "Empty",
            ErrorKind::Truncated { .. } => "Truncated",
            ErrorKind::UnknownVersion { .. } => "UnknownVersion",
            ErrorKind::Unsupported { .. } => "Unsupported",
            ErrorKind::HashMismatch { .. } => "HashMismatch",
            ErrorKind::DescriptionMismatch { .. } => "DescriptionMismatch",
            ErrorKind::Leb128(_) => "Leb128",
            ErrorKind::Trailing { .. } => "Trailing",
            ErrorKind::SizeMismatch { .. } => "SizeMismatch",
            ErrorKind::HeaderWithArchitecture { .. } => "HeaderWithArchitecture",
            ErrorKind::Invalid(_) => "Invalid",
        }
    }
}

/// What went wrong; every variant says what was expected and what was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ErrorKind {
    /// The file has no bytes.
    #[error("the file is empty")]
    Empty,
    /// The file ends before `expected` (`needed` bytes; only `available` are left).
    #[error("unexpected end of file: expected {expected} ({needed} bytes) but only {available} bytes are left")]
    Truncated {
        /// What was being read.
        expected: String,
        /// Bytes it needs.
        needed: usize,
        /// Bytes left in the file.
        available: usize,
    },
    /// The header's version is none this crate reads (the message names the ones it knows).
    #[error("{}", unknown_version(*found, *size))]
    UnknownVersion {
        /// The header's version.
        found: u32,
        /// The file's size (a headerless net of an engine's is named by it).
        size: usize,
    },
    /// A known family with an architecture this crate does not evaluate, by name.
    #[error("unsupported net: {name}. Supported: Stockfish SFNNv5-v9 (HalfKAv2_hm, 15.1 to 17.1), Stockfish 18 threat-input nets (HalfKAv2_hm+Threats), Stockfish 19 nets (big and lite) and Stockfish master's SFNNv17, Stockfish 12-13 HalfKP 256x2-32-32, headerless (768 -> N)x2 -> 1 nets and multi-layer nets (Alexandria's, Integral's, Obsidian's, Stormphrax's and bullet's layouts) with a description")]
    Unsupported {
        /// The architecture, by name.
        name: String,
    },
    /// A file or section hash differs from the one the architecture implies.
    #[error("hash mismatch: expected {expected:#010x}, found {found:#010x}")]
    HashMismatch {
        /// The hash the architecture implies.
        expected: u32,
        /// The hash in the file.
        found: u32,
    },
    /// A given description names another architecture than the header's hash.
    #[error("the description says {}, but the hash is that of {actual}", shown(described))]
    DescriptionMismatch {
        /// The given description.
        described: String,
        /// The architecture of the header's hash.
        actual: String,
    },
    /// A malformed `COMPRESSED_LEB128` array, with the reason.
    #[error("bad LEB128 data: {0}")]
    Leb128(String),
    /// Bytes left after the last section.
    #[error("{count} trailing bytes after the last section")]
    Trailing {
        /// Number of trailing bytes.
        count: usize,
    },
    /// A headerless file whose size doesn't fit its description.
    #[error("the file has {found} bytes but the description {arch} needs {expected}")]
    SizeMismatch {
        /// The description.
        arch: String,
        /// Bytes it needs (with or without padding).
        expected: usize,
        /// The file's size in bytes.
        found: usize,
    },
    /// A headerless architecture was given for a file that starts with a Stockfish header.
    #[error("the file starts with a Stockfish header (version {version:#010x}), which describes the net: give no architecture description for it (the description {arch} is for headerless nets)")]
    HeaderWithArchitecture {
        /// The header's version.
        version: u32,
        /// The headerless description that was given.
        arch: String,
    },
    /// Any other inconsistency, described.
    #[error("{0}")]
    Invalid(String),
}

/// The header versions this crate reads and the Stockfish releases that write them: what the
/// reader accepts ([`crate::is_known_version`]) and what an unknown version's message names.
pub(crate) const KNOWN_VERSIONS: &[(u32, &str)] = &[
    (crate::VERSION_SFNN, "Stockfish 15.1-18"),
    (crate::VERSION_HALFKP, "Stockfish 12-13 HalfKP"),
    (crate::VERSION_SF19, "Stockfish 19 and master (SFNNv17)"),
];

fn unknown_version(found: u32, size: usize) -> String {
    let read: Vec<String> = KNOWN_VERSIONS.iter().map(|(v, name)| format!("{v:#010x} ({name})")).collect();
    format!(
        "unknown version {found:#010x}: expected {}; a headerless net is read with a headerless description \
         ((768 -> N)x2 -> 1, ...){}",
        read.join(" or "),
        crate::known::headerless_hint(size).unwrap_or_default()
    )
}

/// The error for a headerless net of `len` bytes that `arch` (needing `expected`, or
/// `expected` with its padding) doesn't fit; `head` is the file's start: when it is a
/// Stockfish header, the user gave an architecture for a file that has its own.
/// A Stormphrax `CBNF` file read without a description: its header names the shape but not the
/// arithmetic.
pub(crate) fn cbnf_without_description() -> FormatError {
    let why = "a Stormphrax `CBNF` net: its header doesn't state the arithmetic, so it needs a multi-layer \
               description, e.g. `(704x16hm -> 1792)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, \
               l1shift=8, scale=400, file=cbnf, kings=[...]`";
    FormatError::new(0, "header", ErrorKind::Invalid(why.into()))
}

pub(crate) fn headerless_size_error(head: &[u8], len: usize, arch: String, expected: usize) -> FormatError {
    let version = head.get(..4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    match version {
        Some(version) if crate::is_known_version(version) => {
            FormatError::new(0, "header", ErrorKind::HeaderWithArchitecture { version, arch })
        }
        _ => {
            let section = match crate::chess768_format::by_magic(head) {
                _ if head.starts_with(b"CBNF") => "CBNF net".to_string(),
                Some(f) => format!("`{}` net", f.name),
                None => "headerless net".to_string(),
            };
            FormatError::new(0, &section, ErrorKind::SizeMismatch { arch, expected, found: len })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_text_is_escaped_and_cut() {
        assert_eq!(shown("Features=HalfKP(Friend)[41024->256x2]"), "Features=HalfKP(Friend)[41024->256x2]");
        assert_eq!(shown("a\x1b[2J\nb\u{7}"), "a\\u{1b}[2J\\nb\\u{7}");
        assert_eq!(shown("clamp(a', 0, 255)"), "clamp(a', 0, 255)");
        let long = "é".repeat(10_000_000);
        let s = shown(&long);
        assert_eq!(s, format!("{}… (20000000 bytes)", "é".repeat(200)));
    }

    /// A Stockfish 19 file was once told "expected 0x7af32f20 (Stockfish 15.1-17.1) or ...":
    /// no 18, no 19, and a description asked for even when one was given.
    #[test]
    fn an_unknown_version_names_the_known_ones() {
        let expected =
            "expected 0x7af32f20 (Stockfish 15.1-18) or 0x7af32f16 (Stockfish 12-13 HalfKP) or 0x6a448afa (Stockfish 19 and master (SFNNv17))";
        let other = ErrorKind::UnknownVersion { found: 0xdead_beef, size: 100 }.to_string();
        assert!(other.starts_with("unknown version 0xdeadbeef: "), "{other}");
        assert!(other.contains(expected) && !other.contains("needs"), "{other}");
    }

    #[test]
    fn a_description_mismatch_shows_the_description_escaped_and_cut() {
        let described = format!("\x1b]0;pwned\x07{}", "x".repeat(20_000_000));
        let e = FormatError::new(4, "header", ErrorKind::DescriptionMismatch { described, actual: "HalfKP".into() });
        let text = e.to_string();
        assert!(text.len() < 400, "{} bytes", text.len());
        assert!(!text.chars().any(char::is_control), "{text}");
        assert!(text.starts_with("header at offset 4: the description says \\u{1b}]0;pwned\\u{7}xxx"), "{text}");
        assert!(text.ends_with("… (20000010 bytes), but the hash is that of HalfKP"), "{text}");
    }
}
