//! How a file is framed: what precedes its arrays, how values are stored and aligned, what may
//! follow the last one, how it may be compressed. Each file record gives its frame (a
//! multi-layer engine's [`Format`](crate::formats::Format), a single-layer engine's
//! [`Chess768Format`](crate::formats::Chess768Format)); the reader and the writer read it.

/// What precedes the arrays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Header {
    /// Nothing: the description says what the file holds.
    None,
    /// Stormphrax's 64-byte `CBNF` header (see `layered::header`), which names the net.
    Cbnf,
}

/// How each value is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Storage {
    /// Little-endian, at the value's own width.
    Raw,
    /// One LEB128 varint per value (signed; an f32 as the unsigned varint of its bits): the
    /// file's size follows from its values.
    Varints,
}

/// What may follow the last array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// Nothing.
    Exact,
    /// The last array's alignment padding, or not (a struct's `sizeof`, or a writer that
    /// stops at the last value).
    Aligned,
    /// Padding to a multiple of 64 bytes, zeros or bullet's `bulletbullet…`, or none.
    Bullet,
}

impl End {
    /// The size of a file whose arrays (and header) take `bytes`, with what may follow them:
    /// bullet's padding to a multiple of 64 bytes, or nothing.
    pub fn padded(self, bytes: usize) -> usize {
        match self {
            End::Bullet => bytes.next_multiple_of(64),
            End::Exact | End::Aligned => bytes,
        }
    }
}

/// How the engine ships its files compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Zstd {
    /// Never.
    No,
    /// The header's flag says the arrays, back to back, are one zstd stream (`CBNF` flag 1).
    HeaderFlag,
    /// The whole file is a zstd stream when it is not the raw size.
    WholeFile,
}

/// How a file is framed: what precedes its arrays, how values are stored and aligned, what
/// may follow the last one, how it may be compressed. A multi-layer file's is its record's
/// ([`Format::frame`](crate::formats::Format::frame)); a single-layer (chess-768) file's is its
/// [`Chess768Format`](crate::formats::Chess768Format)'s; Stockfish's files are
/// [`StockfishFormat`](crate::formats::StockfishFormat)s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame {
    /// What precedes the arrays.
    pub header: Header,
    /// How each value is stored.
    pub storage: Storage,
    /// Each array starts at a multiple of this, counted from the first array (1: packed).
    pub align: usize,
    /// What may follow the last array.
    pub end: End,
    /// How the engine ships it compressed.
    pub zstd: Zstd,
}
