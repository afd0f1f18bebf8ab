//! The one error type of the reader: where (offset, section) and what (expected vs found).

use std::fmt;

/// A net file that can't be used, with the byte offset and section where reading stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{section} at offset {offset}: {kind}")]
pub struct FormatError {
    pub offset: usize,
    pub section: String,
    pub kind: ErrorKind,
}

impl FormatError {
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
            ErrorKind::Invalid(_) => "Invalid",
        }
    }
}

/// What went wrong; every variant says what was expected and what was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ErrorKind {
    #[error("the file is empty")]
    Empty,
    #[error("unexpected end of file: expected {expected} ({needed} bytes) but only {available} bytes are left")]
    Truncated { expected: String, needed: usize, available: usize },
    #[error("unknown version {found:#010x}: expected 0x7af32f20 (Stockfish 15.1-17.1) or 0x7af32f16 (Stockfish 12-13 HalfKP); a headerless net needs an architecture description")]
    UnknownVersion { found: u32 },
    #[error("unsupported net: {name}. Supported: Stockfish SFNNv5-v9 (HalfKAv2_hm, 15.1 to 17.1), Stockfish 18 threat-input nets (HalfKAv2_hm+Threats), Stockfish 12-13 HalfKP 256x2-32-32, and headerless (768 -> N)x2 -> 1 nets with a description")]
    Unsupported { name: String },
    #[error("hash mismatch: expected {expected:#010x}, found {found:#010x}")]
    HashMismatch { expected: u32, found: u32 },
    #[error("the description says {described}, but the hash is that of {actual}")]
    DescriptionMismatch { described: String, actual: String },
    #[error("bad LEB128 data: {0}")]
    Leb128(String),
    #[error("{count} trailing bytes after the last section")]
    Trailing { count: usize },
    #[error("the file has {found} bytes but the description {arch} needs {expected}")]
    SizeMismatch { arch: String, expected: usize, found: usize },
    #[error("{0}")]
    Invalid(String),
}
