//! Opening net files: only regular files of a sane size are read, and a Stockfish header is
//! checked (version, description length) before the rest of the file is read.
//!
//! A FIFO would block the reader (and the build) forever, `/dev/zero` never ends, and a 2 GB
//! file would be read whole before its 4-byte version is looked at; each is a [`FileError`]
//! naming the path, at once.

use std::fmt;
use std::fs::{File, Metadata};
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::arch::Architecture;
use crate::error::{ErrorKind, FormatError};
use crate::headerless::Framed;
use crate::layered::format::{Storage, Zstd};
use crate::net::Net;

/// The largest net file read: the largest real nets are a few hundred MB.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// Version, file hash and description length.
const HEADER_BYTES: usize = 12;

/// A net file that can't be used, naming the path.
#[derive(Debug, thiserror::Error)]
#[error("{}: {kind}", path.display())]
pub struct FileError {
    /// The file as given.
    pub path: PathBuf,
    /// What is wrong with it.
    pub kind: FileErrorKind,
}

/// What is wrong with the file.
#[derive(Debug, thiserror::Error)]
pub enum FileErrorKind {
    /// The file could not be opened.
    #[error("can't open: {0}")]
    Open(std::io::Error),
    /// The path is not a regular file (never opened when it is a FIFO).
    #[error("not a net file: expected a regular file, found {0}")]
    NotAFile(FileKind),
    /// The file is larger than [`MAX_FILE_BYTES`](crate::MAX_FILE_BYTES).
    #[error("the file has {found} bytes: expected at most {max}")]
    TooLarge {
        /// The file's size in bytes.
        found: u64,
        /// The limit in bytes.
        max: u64,
    },
    /// Reading the opened file failed.
    #[error("can't read: {0}")]
    Read(std::io::Error),
    /// The bytes are not a valid net (the same errors as [`Net::from_bytes`]).
    #[error(transparent)]
    Format(FormatError),
}

/// The kind of a file system entry that is not a regular file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A directory.
    Directory,
    /// A named pipe.
    Fifo,
    /// A character device such as `/dev/zero`.
    CharDevice,
    /// A block device.
    BlockDevice,
    /// A Unix domain socket.
    Socket,
    /// Anything else that is not a regular file.
    Other,
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileKind::Directory => "a directory",
            FileKind::Fifo => "a FIFO (named pipe)",
            FileKind::CharDevice => "a character device",
            FileKind::BlockDevice => "a block device",
            FileKind::Socket => "a socket",
            FileKind::Other => "something else",
        })
    }
}

fn kind_of(meta: &Metadata) -> Option<FileKind> {
    let t = meta.file_type();
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some(FileKind::Directory);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some(FileKind::Fifo);
        }
        if t.is_char_device() {
            return Some(FileKind::CharDevice);
        }
        if t.is_block_device() {
            return Some(FileKind::BlockDevice);
        }
        if t.is_socket() {
            return Some(FileKind::Socket);
        }
    }
    Some(FileKind::Other)
}

/// Opens without blocking (a FIFO with no writer would block `open` itself).
fn open(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// `path` opened for reading, with its size, if it is a regular file of at most `max` bytes:
/// checked before it is opened (so that a FIFO is never opened at all) and again on the opened
/// handle, which is what is read (the path may have changed).
pub(crate) fn open_regular(path: &Path, max: u64) -> Result<(File, u64), FileErrorKind> {
    if let Some(kind) = std::fs::metadata(path).ok().as_ref().and_then(kind_of) {
        return Err(FileErrorKind::NotAFile(kind));
    }
    let file = open(path).map_err(FileErrorKind::Open)?;
    let meta = file.metadata().map_err(FileErrorKind::Read)?;
    if let Some(kind) = kind_of(&meta) {
        return Err(FileErrorKind::NotAFile(kind));
    }
    if meta.len() > max {
        return Err(FileErrorKind::TooLarge { found: meta.len(), max });
    }
    Ok((file, meta.len()))
}

/// The bytes of the net file at `path`, checked to be a regular file of at most
/// [`MAX_FILE_BYTES`] whose header (or, for a headerless `arch`, size) can be that of a net.
/// The bytes still have to go through [`Net::from_bytes`].
pub fn read_file_bytes(path: impl AsRef<Path>, arch: Option<&Architecture>) -> Result<Vec<u8>, FileError> {
    let path = path.as_ref();
    let fail = |kind| FileError { path: path.to_path_buf(), kind };
    let (file, len) = open_regular(path, MAX_FILE_BYTES).map_err(fail)?;
    let len = len as usize;
    // Bounded even if the file grows (or, like those in /proc, has no size).
    let mut reader = file.take(MAX_FILE_BYTES + 1);
    let mut bytes = Vec::with_capacity(len);
    (&mut reader).take(HEADER_BYTES as u64).read_to_end(&mut bytes).map_err(|e| fail(FileErrorKind::Read(e)))?;
    check_start(&bytes, len, arch).map_err(|e| fail(FileErrorKind::Format(e)))?;
    reader.read_to_end(&mut bytes).map_err(|e| fail(FileErrorKind::Read(e)))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(fail(FileErrorKind::TooLarge { found: bytes.len() as u64, max: MAX_FILE_BYTES }));
    }
    Ok(bytes)
}

/// Reads and checks the net file at `path` (see [`read_file_bytes`] and [`Net::from_bytes`]).
pub fn read_file(path: impl AsRef<Path>, arch: Option<&Architecture>) -> Result<Net, FileError> {
    let path = path.as_ref();
    let bytes = read_file_bytes(path, arch)?;
    Net::from_bytes(&bytes, arch).map_err(|e| FileError { path: path.to_path_buf(), kind: FileErrorKind::Format(e) })
}

impl Net {
    /// Reads a net file: [`read_file`].
    pub fn from_file(path: impl AsRef<Path>, arch: Option<&Architecture>) -> Result<Net, FileError> {
        read_file(path, arch)
    }
}

/// What can be checked from the first bytes and the size, with the reader's own errors: the
/// version and the description length of a Stockfish header, the size of a headerless net.
/// Anything else (or a file too short to tell) is left to the reader.
fn check_start(head: &[u8], len: usize, given: Option<&Architecture>) -> Result<(), FormatError> {
    if let Some(given) = given {
        if given.validate().is_err() {
            return Ok(());
        }
    }
    if len == 0 {
        return Ok(());
    }
    if let Some(Framed { frame, sizes: [short, padded], .. }) = given.and_then(crate::headerless::frame) {
        // A CBNF file's size depends on its padding and compression, a varint file's on its
        // values, a compressed one's on its compression: the reader checks them.
        if head.starts_with(b"CBNF") || frame.storage == Storage::Varints || frame.zstd != Zstd::No {
            return Ok(());
        }
        if len != short && len != padded {
            return Err(crate::error::headerless_size_error(head, len, given.unwrap().to_string(), padded));
        }
        return Ok(());
    }
    if head.starts_with(b"CBNF") {
        return Err(crate::error::cbnf_without_description());
    }
    if let Some(why) = crate::chess768_format::without_description(head) {
        return Err(FormatError::new(0, "header", ErrorKind::Invalid(why)));
    }
    let word = |i: usize| head.get(i..i + 4).map(|b| u32::from_le_bytes(b.try_into().unwrap()));
    if let Some(version) = word(0) {
        if !crate::is_known_version(version) {
            return Err(FormatError::new(0, "header", ErrorKind::UnknownVersion { found: version, size: len }));
        }
    }
    if let Some(desc_len) = word(8) {
        let available = len.saturating_sub(HEADER_BYTES);
        if desc_len as usize > available {
            return Err(FormatError::new(
                HEADER_BYTES,
                "header",
                ErrorKind::Truncated { expected: "the description".into(), needed: desc_len as usize, available },
            ));
        }
    }
    Ok(())
}
