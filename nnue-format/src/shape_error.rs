//! The error of the shape checks ([`Architecture::validate`](crate::Architecture::validate),
//! [`LayeredArch::validate`](crate::LayeredArch::validate),
//! [`KingBuckets::validate`](crate::KingBuckets::validate) and
//! [`KingBuckets::from_map`](crate::KingBuckets::from_map)): which check failed, with the
//! numbers it found and allows.

use crate::layered::{FileLayout, ThreatInputs};

/// A size or option the kernels don't take: one variant per check, with the value found
/// (`got`) and what is allowed. Its message is the text the description parser reports.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// The first layer's width (a Stockfish net's or a multi-layer net's L1).
    #[error("L1 = {got}: must be a positive multiple of {multiple}, at most {max}")]
    L1 {
        /// The width found.
        got: usize,
        /// The width must be a multiple of this.
        multiple: usize,
        /// The largest width allowed.
        max: usize,
    },
    /// A chess-768 net's hidden layer.
    #[error("hidden size {got}: must be a positive multiple of {multiple}, at most {max}")]
    Hidden {
        /// The size found.
        got: usize,
        /// The size must be a multiple of this.
        multiple: usize,
        /// The largest size allowed.
        max: usize,
    },
    /// The number of output buckets.
    #[error("{got} output buckets: must be 1 to {max}")]
    OutputBuckets {
        /// The number found.
        got: usize,
        /// The largest number allowed.
        max: usize,
    },
    /// A chess-768 net's quantisation: `qa`, `qb` and `scale` positive, `qa` and `qb` at most `max`.
    #[error("qa, qb and scale must be positive (qa, qb at most {max})")]
    Quantisation {
        /// The `qa` found.
        qa: i32,
        /// The `qb` found.
        qb: i32,
        /// The `scale` found.
        scale: i32,
        /// The largest `qa` and `qb` allowed.
        max: i32,
    },
    /// A multi-layer net's L2 (the dense layer's inputs).
    #[error("L2 = {got}: must be 16 or 32")]
    L2 {
        /// The width found.
        got: usize,
    },
    /// A multi-layer net's L3 (the dense layer's outputs).
    #[error("L3 = {got}: must be a positive multiple of {multiple}, at most {max}")]
    L3 {
        /// The width found.
        got: usize,
        /// The width must be a multiple of this.
        multiple: usize,
        /// The largest width allowed.
        max: usize,
    },
    /// Alexandria's bucket rule with a number of output buckets other than the one it chooses among.
    #[error("buckets=(63-p)(32-p)/225 chooses among {expected} output buckets")]
    AlexandriaBuckets {
        /// The number of output buckets found.
        got: usize,
        /// The number the rule chooses among.
        expected: usize,
    },
    /// A `buckets=[...]` table naming a bucket the net doesn't have.
    #[error("buckets=[...] names bucket {bucket} (for {pieces} pieces) of {buckets} output buckets")]
    BucketTable {
        /// The bucket named.
        bucket: u8,
        /// The piece count whose entry names it.
        pieces: usize,
        /// The net's number of output buckets.
        buckets: usize,
    },
    /// Threat inputs with king buckets that are not mirrored.
    #[error("threats= take inputs mirrored by the king (768xKhm or 704xKhm)")]
    ThreatsNeedMirroredKings,
    /// Threat inputs in a file layout other than the one that stores them.
    #[error("threats={} are stored by {} only", .threats, .threats.file_names())]
    ThreatsFile {
        /// The threat inputs.
        threats: ThreatInputs,
        /// The file layout found.
        file: FileLayout,
    },
    /// A file layout that stores threat inputs, without `threats=`.
    #[error("file={} stores threat inputs: say which (threats=...)", .file.name())]
    FileNeedsThreats {
        /// The file layout found.
        file: FileLayout,
    },
    /// A single-layer file that stores the output weights per bucket, with `out=[2N][B]`.
    #[error("file={}: its output weights are stored per bucket, out=[2N][B] doesn't apply", .file.format().name)]
    OutputOrderFile {
        /// The file found.
        file: crate::chess768_format::Chess768File,
    },
    /// The skip connection in a stack that can't take it.
    #[error("skip: f32 stacks, or wide dual i32 stacks whose dense layer has as many outputs as inputs")]
    SkipNeedsF32,
    /// A residual connection between layers of different widths, or in an i32 stack.
    #[error("residual: the dense layer's activation ({to} values) adds its input ({from}) in f32 stacks only")]
    Residual {
        /// The dense layer's input width.
        from: usize,
        /// Its activation's width.
        to: usize,
    },
    /// A multi-layer net's option its arithmetic doesn't take (cinder's options outside
    /// cinder's stack): which and why.
    #[error("{reason}")]
    Stack {
        /// Which option, and why.
        reason: &'static str,
    },
    /// The shift after the pairwise product (`pairwise>>N`).
    #[error("pairwise>>{got}: the shift must be {min} to {max}")]
    FtShift {
        /// The shift found.
        got: u32,
        /// The smallest shift allowed.
        min: u32,
        /// The largest shift allowed.
        max: u32,
    },
    /// An f32 stack's `l1mul=N/D` with a zero.
    #[error("l1mul=N/D: both must be positive")]
    L1Mul {
        /// The numerator found.
        num: u32,
        /// The denominator found.
        den: u32,
    },
    /// An i32 stack's `q=` or `l1shift=` out of range.
    #[error("q=2^{q_bits}, l1shift={l1_shift}: q must be 2 to 1024, the shift below 32")]
    IntNumbers {
        /// log2 of the `q` found.
        q_bits: u32,
        /// The shift found.
        l1_shift: u32,
    },
    /// A multi-layer net's output scale.
    #[error("scale must be positive")]
    Scale {
        /// The scale found.
        got: i32,
    },
    /// Activations the stack's numbers don't take (see
    /// [`LayeredArch::acts_valid`](crate::LayeredArch::acts_valid), whose reason this is).
    #[error("{reason}")]
    Activations {
        /// Which activation and why.
        reason: &'static str,
    },
    /// A `kings=[...]` map with the wrong number of entries.
    #[error("kings=[...] has {got} entries, expected {expected}")]
    KingMapLength {
        /// The entries found.
        got: usize,
        /// 32 when mirrored, else 64.
        expected: usize,
    },
    /// A `kings=[...]` map naming a bucket beyond the most there can be.
    #[error("king bucket {got} is out of range: at most {max} buckets")]
    KingMapBucket {
        /// The largest bucket found.
        got: u8,
        /// The most buckets there can be.
        max: usize,
    },
    /// A king bucket count out of range.
    #[error("{got} king buckets: must be 1 to {max}")]
    KingCount {
        /// The count found.
        got: u8,
        /// The most buckets there can be.
        max: u8,
    },
    /// A king table entry at or beyond the bucket count.
    #[error("king bucket {bucket} is out of range: {count} buckets")]
    KingBucket {
        /// The entry found.
        bucket: u8,
        /// The bucket count.
        count: u8,
    },
    /// A king bucket below the count that no square selects.
    #[error("kings=[...] must use every bucket from 0 to its maximum")]
    UnusedKingBucket {
        /// The first bucket not used.
        bucket: u8,
    },
    /// A mirrored king table that differs between a square and its mirror image.
    #[error("a mirrored king table must be the same on files e-h as on d-a")]
    AsymmetricKings {
        /// The first square (0 = a1, 63 = h8) whose bucket differs from its mirror's.
        square: usize,
    },
}
