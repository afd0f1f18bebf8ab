//! Mutated nets (synthetic of every family, file layout and preset, zstd-compressed ones as
//! their engines ship them, and the real Stockfish 17.1 small net when present, read once) fed
//! to the reader, with and without an architecture description: it returns Ok or Err, never
//! panics, and never allocates more than 4x the input's size + 64 KiB, plus for a compressed
//! file that bound for the size its description implies decompressed (the peak of live heap
//! bytes during the call, measured with a counting allocator in this test binary, see
//! [`bound`]). A net it returns loads at run time or is refused, without a panic, and its fast
//! network evaluates a position as the reference does.
//!
//! Mutations: byte flips, truncations, insertions anywhere, and u32 overwrites at section
//! boundaries (hashes, lengths, LEB128 byte counts, the first bytes of every array, zstd frame
//! headers), found with `nnue_testkit::corpus::layout`; a compressed net's are also made to
//! its decompressed bytes, compressed again.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use nnue_runtime::loaded::FastWeights;
use nnue_runtime::{Architecture, Evaluator, KernelPath, Net, Network, Position};
use nnue_testkit::corpus::{self, RegionKind};
use proptest::prelude::*;
use ruzstd::encoding::{compress_to_vec, CompressionLevel};

/// Tracks the bytes live and the peak since the last reset.
struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: same layout contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: same layout contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` came from `alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// One read at a time, so the peak belongs to it.
static SERIAL: Mutex<()> = Mutex::new(());

/// `read()`'s result and the peak of heap bytes live during it, beyond those live before
/// (hold [`SERIAL`] around it, so that the peak is its own).
fn peak_of<T>(read: impl FnOnce() -> T) -> (T, usize) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let result = read();
    (result, PEAK.load(Ordering::Relaxed) - before)
}

struct Base {
    bytes: Vec<u8>,
    /// The architecture that reads it (needed for headerless nets).
    arch: Architecture,
    /// A description it does not match.
    other: Architecture,
    /// Section boundaries: where every region, LEB128 byte count and LEB128 value stream starts.
    boundaries: Vec<usize>,
    /// A zstd-compressed base's bytes decompressed (most flips of compressed bytes only break
    /// the frame): mutated, then compressed again.
    payload: Option<Payload>,
}

/// What a compressed file holds decompressed: its first `raw` bytes (a `CBNF` header) stay
/// as they are, the rest is compressed again after the mutations.
struct Payload {
    bytes: Vec<u8>,
    raw: usize,
    boundaries: Vec<usize>,
}

fn base(bytes: Vec<u8>, arch: Architecture, other: &str) -> Base {
    let boundaries = boundaries(&bytes, &arch);
    Base { bytes, arch, other: other.parse().unwrap(), boundaries, payload: None }
}

/// Where `corpus::layout` finds regions; it walks raw files of the canonical multi-layer order
/// and its aligned variants only, so a file of PlentyChess's varints or cinder's own order gets
/// evenly spaced offsets instead.
fn boundaries(bytes: &[u8], arch: &Architecture) -> Vec<usize> {
    let walkable = match arch {
        Architecture::Layered(a) => !a.file.varints() && !a.file.format().split_skip,
        _ => true,
    };
    if !walkable {
        return (0..bytes.len()).step_by(bytes.len() / 64 + 1).collect();
    }
    corpus::layout(bytes, arch)
        .iter()
        .flat_map(|r| match r.kind {
            RegionKind::Leb128 { count, data } => vec![r.start, count, data],
            _ => vec![r.start],
        })
        .collect()
}

/// `net` zstd-compressed as its engine ships it, in `frames` frames, and its payload: the
/// uncompressed file (`CBNF`: the header with the zstd flag, then the arrays back to back).
/// `level`: `None` for our writer's (`Net::to_zstd`); the nets with threat inputs are
/// compressed at `Uncompressed` (raw blocks), as compressing megabytes takes a quarter of a
/// second each time (the small Stormphrax 7 net has the writer's real compressed blocks).
fn compressed(net: &Net, frames: usize, level: Option<CompressionLevel>, other: &str) -> Base {
    let Architecture::Layered(a) = net.arch() else { unreachable!("only multi-layer nets ship compressed") };
    let raw = net.to_bytes();
    let prefix = if a.file.format().header == nnue_runtime::format::formats::Header::Cbnf { 64 } else { 0 };
    let mut payload = raw[..a.param_bytes()].to_vec();
    if prefix > 0 {
        // The header's flags (u16 at offset 6): 1, the arrays are zstd-compressed.
        payload[6] |= 1;
    }
    let bytes = match level {
        None => net.to_zstd(frames).expect("a layout shipped compressed"),
        Some(level) => zstd(&payload, prefix, frames, level),
    };
    assert_eq!(bytes[..prefix], payload[..prefix], "the CBNF header");
    let payload_boundaries = boundaries(&raw, &net.arch()).into_iter().filter(|&b| b < payload.len()).collect();
    // The frames' magic numbers, and the header and window bytes after each.
    let frames: Vec<usize> = (0..bytes.len().saturating_sub(3))
        .filter(|&i| bytes[i..i + 4] == [0x28, 0xb5, 0x2f, 0xfd])
        .flat_map(|i| [i, i + 4, i + 5])
        .collect();
    Base {
        bytes,
        arch: net.arch(),
        other: other.parse().unwrap(),
        boundaries: [0].into_iter().chain(frames).collect(),
        payload: Some(Payload { bytes: payload, raw: prefix, boundaries: payload_boundaries }),
    }
}

/// `payload`'s first `raw` bytes, then the rest (or none, if it is shorter) compressed in
/// `frames` frames.
fn zstd(payload: &[u8], raw: usize, frames: usize, level: CompressionLevel) -> Vec<u8> {
    let raw = raw.min(payload.len());
    let mut out = payload[..raw].to_vec();
    let stream = &payload[raw..];
    for part in stream.chunks(stream.len().div_ceil(frames).max(1)) {
        out.extend(compress_to_vec(part, level));
    }
    out
}

const CHESS768: &str = "(768 -> 32)x2 -> 1, screlu, qa=255, qb=64, scale=400";
const SFNN64: &str = "HalfKAv2_hm -> 64x2 -> (15+1 -> 32 -> 1)x8, psqt=8";

fn bases() -> &'static [Base] {
    static BASES: OnceLock<Vec<Base>> = OnceLock::new();
    BASES.get_or_init(|| {
        let synthetic = |recipe: &str, other: &str| {
            let b = corpus::base(recipe);
            base(b.bytes.clone(), b.arch, other)
        };
        let mut bases = vec![
            synthetic("sfnn:64:leb128:seed=5", CHESS768),
            synthetic("halfkp:64:seed=6", SFNN64),
            synthetic(&format!("chess768:{CHESS768}:seed=7"), "(768 -> 64)x2 -> 1, screlu, qa=255, qb=64, scale=400"),
            // Output weights `[2N][B]`, reordered by the reader.
            synthetic("chess768:(768 -> 32)x2 -> 1x4, crelu, qa=255, qb=64, scale=400, out=[2N][B]:seed=8", CHESS768),
        ];
        // The other file plans: Stockfish 18's and 19's (int8 rows, PSQT blocks per feature
        // set), and the multi-layer layouts (transposed arrays, `CBNF`'s header and padding,
        // Obsidian's aligned arrays; 3 output buckets so that arrays end off 64-byte lines).
        use nnue_runtime::format::{synth, Encoding, LayeredArch, Sf19Inputs};
        let made = |net: Net, other: &str| base(net.to_bytes(), net.arch(), other);
        bases.push(made(synth::threats(64, 9, Encoding::Leb128), SFNN64));
        bases.push(made(synth::sf19(64, Sf19Inputs::Full, 10, Encoding::Leb128), SFNN64));
        bases.push(made(synth::sf19(64, Sf19Inputs::Lite, 11, Encoding::Raw), SFNN64));
        for (i, layout) in ["alexandria", "cbnf", "bullet", "obsidian", "integral"].into_iter().enumerate() {
            let shape = format!(
                "(768 -> 64)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x3, {}, scale=400, file={}",
                match layout {
                    "cbnf" => "i32, q=64, l1shift=8",
                    // Integral's: clipped activations, the int16 pair-sum bound checked on read.
                    "integral" => "f32, l1act=crelu, l2act=crelu, l1mul=512/8323200, l1sums=i16pairs",
                    _ => "f32, dual, l1mul=1024/4161600",
                },
                if layout == "integral" { "bullet" } else { layout }
            );
            bases.push(synthetic(&format!("layered:{shape}:seed={}", 12 + i), CHESS768));
        }
        // Every preset's layout and record at a small width (L1 64, single-layer ones'
        // 32): the engines' king buckets and output buckets, their threat inputs, Caissa's
        // `CSNN` header, PlentyChess's varints, Reckless's and cinder's orders, SFNNv17.
        for (i, (_, description)) in nnue_runtime::format::preset::PRESETS.into_iter().enumerate() {
            let seed = 20 + i as u64;
            let net = match description.parse().unwrap() {
                Architecture::Layered(mut a) => {
                    a.l1 = 64;
                    synth::layered(&a, seed)
                }
                Architecture::Chess768(mut a) => {
                    a.hidden = 32;
                    synth::chess768(&a, seed)
                }
                Architecture::Sf19(a) if !a.psqt => {
                    synth::without_psqt(synth::sf19(64, a.inputs, seed, Encoding::Leb128))
                }
                // The other Stockfish nets are the bases above.
                _ => continue,
            };
            bases.push(made(net, CHESS768));
        }
        // As Stormphrax, Viridithas and cinder ship their nets: zstd-compressed (Stormphrax's
        // after its `CBNF` header), in one frame or several. Read with another description,
        // the stream is decoded against that one's size.
        let stored = Some(CompressionLevel::Uncompressed);
        for (name, frames, level) in
            [("stormphrax7", 3, None), ("stormphrax", 1, stored), ("viridithas", 1, stored), ("cinder", 2, stored)]
        {
            let Ok(Architecture::Layered(mut a)) = name.parse() else { unreachable!("{name}: a multi-layer preset") };
            a.l1 = 64;
            let other = Architecture::Layered(LayeredArch { l1: 128, ..a }).to_string();
            bases.push(compressed(&synth::layered(&a, 40 + frames as u64), frames, level, &other));
        }
        if let Some(path) = nnue_testkit::net_or_skip(nnue_testkit::SF17_SMALL, "mutations of the real small net") {
            let bytes = std::fs::read(path).unwrap();
            let arch = Net::from_bytes(&bytes, None).unwrap().arch();
            bases.push(base(bytes, arch, SFNN64));
        }
        bases
    })
}

#[derive(Debug, Clone)]
enum Mutation {
    Flip {
        at: prop::sample::Index,
        bits: u8,
    },
    Truncate {
        at: prop::sample::Index,
    },
    Insert {
        at: prop::sample::Index,
        bytes: Vec<u8>,
    },
    /// Overwrite the u32 at (or just after) a section boundary.
    Word {
        boundary: prop::sample::Index,
        skew: usize,
        value: u32,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let value = prop_oneof![any::<u32>(), Just(u32::MAX), Just(0), Just(0x8000_0000), Just(0x7AF3_2F20), 0u32..4096];
    prop_oneof![
        (any::<prop::sample::Index>(), 1u8..).prop_map(|(at, bits)| Mutation::Flip { at, bits }),
        any::<prop::sample::Index>().prop_map(|at| Mutation::Truncate { at }),
        (any::<prop::sample::Index>(), prop::collection::vec(any::<u8>(), 1..16))
            .prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
        (any::<prop::sample::Index>(), 0usize..4, value).prop_map(|(boundary, skew, value)| Mutation::Word {
            boundary,
            skew,
            value
        }),
    ]
}

fn apply(bytes: &mut Vec<u8>, boundaries: &[usize], m: &Mutation) {
    let len = bytes.len();
    match m {
        Mutation::Flip { at, bits } if len > 0 => bytes[at.index(len)] ^= bits,
        Mutation::Flip { .. } => {}
        Mutation::Truncate { at } => bytes.truncate(at.index(len + 1)),
        Mutation::Insert { at, bytes: b } => {
            let at = at.index(len + 1);
            bytes.splice(at..at, b.iter().copied());
        }
        Mutation::Word { boundary, skew, value } => {
            let at = boundary.get(boundaries) + skew;
            if at + 4 <= len {
                bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
            }
        }
    }
}

/// 64 cases (about 1 s unoptimised); 2000 with NNUE_SLOW_TESTS=1; `PROPTEST_CASES` for a
/// campaign (its seed: `PROPTEST_RNG_SEED`).
fn case_count() -> u32 {
    if let Some(n) = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()) {
        return n;
    }
    if std::env::var_os("NNUE_SLOW_TESTS").is_some_and(|v| v == "1") {
        2000
    } else {
        64
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(case_count()))]

    #[test]
    fn mutated_nets_are_ok_or_err_within_bounded_memory(
        which in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 1..4),
        arch_choice in 0u8..3,
        in_payload in any::<bool>(),
    ) {
        // Everything under the lock: another test's allocations must not land in this peak.
        let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let base = which.get(bases());
        let bytes = match (&base.payload, in_payload) {
            (Some(p), true) => {
                let mut bytes = p.bytes.clone();
                for m in &mutations {
                    apply(&mut bytes, &p.boundaries, m);
                }
                zstd(&bytes, p.raw, 1, CompressionLevel::Uncompressed)
            }
            _ => {
                let mut bytes = base.bytes.clone();
                for m in &mutations {
                    apply(&mut bytes, &base.boundaries, m);
                }
                bytes
            }
        };
        let arch = match arch_choice {
            0 => None,
            1 => Some(&base.arch),
            _ => Some(&base.other),
        };
        let (result, peak) = peak_of(|| std::panic::catch_unwind(|| Net::from_bytes(&bytes, arch)));
        prop_assert!(result.is_ok(), "the reader panicked");
        let bound = bound(&bytes, arch);
        prop_assert!(peak <= bound, "{peak} bytes allocated for a {}-byte file (bound {bound})", bytes.len());
        if let Ok(Ok(net)) = result {
            let loaded = std::panic::catch_unwind(|| check_loaded(&net));
            prop_assert!(loaded.is_ok(), "the run-time loader or its network panicked");
            if let Ok(Err(e)) = loaded {
                prop_assert!(false, "{e}");
            }
        }
    }
}

/// A read may allocate 4x the file's size + 64 KiB. A zstd-compressed file (as the
/// description's layout is shipped: `LayeredArch::is_zstd`) decodes to at most the arrays'
/// size the description implies, plus a byte (`layered::header::decompress`, which refuses
/// above `MAX_FILE_BYTES`): for it the bound of an uncompressed file of that size is added,
/// and [`ZSTD_DECODER_BYTES`].
fn bound(bytes: &[u8], arch: Option<&Architecture>) -> usize {
    let decoder = match arch {
        Some(Architecture::Layered(a)) if a.is_zstd(bytes) => 4 * (a.param_bytes() + 1) + ZSTD_DECODER_BYTES,
        _ => 0,
    };
    4 * bytes.len() + (64 << 10) + decoder
}

/// The zstd decoder's (ruzstd's) working memory, which a few bytes can make it take whatever
/// the file's and the arrays' sizes: a block's 3-byte sequence count reserves up to 98,047
/// sequences of 12 bytes (1.2 MB) before they are read, and a block (128 KiB) of content, of
/// literals and of output past what was asked.
const ZSTD_DECODER_BYTES: usize = 2 << 20;

/// A middlegame position with pieces of every type, both kings off their start squares.
const FEN: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QK2R w KQ - 0 9";

/// `net`'s run-time fast network, if the loader takes it (an error is fine) and it has one of
/// the bases' shapes: every path evaluates [`FEN`] as the reference does. Whether it was
/// checked, or what differs.
fn check_loaded(net: &Net) -> Result<bool, String> {
    let Ok(weights) = FastWeights::new(net) else { return Ok(false) };
    let pos = Position::from_fen(FEN).unwrap();
    let want = Evaluator::new(net).evaluate(&pos);
    macro_rules! views {
        ($($view:ident::<$($n:literal),*>),* $(,)?) => {$(
            if let Ok(view) = weights.$view::<$($n),*>() {
                for path in KernelPath::all() {
                    let got = view.evaluate_on(path, &pos);
                    if got != want {
                        return Err(format!(
                            "{}: {}::<{}> on {path} gives {got:?}, the reference {want:?}",
                            net.arch(), stringify!($view), stringify!($($n),*)
                        ));
                    }
                }
                return Ok(true);
            }
        )*};
    }
    views!(
        sfnn::<64, 32, 16>,
        sfnn::<128, 64, 32>,
        halfkp::<64, 32>,
        sfnn_threats::<64, 32, 16>,
        sf19::<64, 32, 16, 8, 64368, 22528, 86896>,
        sf19::<64, 32, 16, 8, 0, 768, 768>,
        sf19::<64, 32, 16, 0, 64368, 22528, 86896>,
        chess768::<32, 768, 1>,
        chess768::<32, 768, 4>,
        // akimbo's and pawnocchio's, Caissa's.
        chess768::<32, 768, 8>,
        chess768::<32, 24576, 8>,
        // The multi-layer bases above: dual and not.
        layered::<64, 32, 16, 768, 16, 32, 32, 3>,
        layered::<64, 32, 16, 768, 16, 16, 32, 3>,
        // Alexandria, Integral, Obsidian, Stormphrax 7; Reckless, PlentyChess, Viridithas,
        // cinder, Stormphrax 8.
        layered::<64, 32, 16, 12288, 16, 32, 32, 8>,
        layered::<64, 32, 16, 9216, 16, 16, 32, 8>,
        layered::<64, 32, 16, 9984, 16, 32, 32, 8>,
        layered::<64, 32, 16, 11264, 16, 32, 32, 8>,
        layered_threats::<64, 32, 16, 66864, 7680, 16, 16, 32, 8>,
        layered_threats::<64, 32, 16, 64368, 9216, 16, 32, 32, 8>,
        layered_threats::<64, 32, 16, 64368, 11264, 32, 32, 64, 8>,
        layered_threats::<64, 32, 16, 64368, 12288, 16, 32, 16, 8>,
        layered_threats::<64, 32, 16, 64368, 11264, 32, 64, 64, 8>,
    );
    Ok(false)
}

/// The bound is tight enough to mean something: a LEB128 PSQT array (1 byte per value decoded
/// to 4) is the worst case, and a valid net stays within it too. Every base (a compressed one
/// also as its payload compressed again) loads at run time and evaluates as the reference.
#[test]
fn valid_nets_stay_within_the_bound() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    for base in bases() {
        let mut files = vec![base.bytes.clone()];
        if let Some(p) = &base.payload {
            files.push(zstd(&p.bytes, p.raw, 1, CompressionLevel::Uncompressed));
        }
        for bytes in files {
            let (net, peak) = peak_of(|| Net::from_bytes(&bytes, Some(&base.arch)).unwrap());
            eprintln!("{} bytes read with a peak of {peak} bytes allocated", bytes.len());
            let loaded = check_loaded(&net);
            drop(net);
            assert_eq!(loaded, Ok(true), "{}: the run-time network of every base", base.arch);
            let bound = bound(&bytes, Some(&base.arch));
            assert!(peak <= bound, "{peak} bytes for a {}-byte net (bound {bound})", bytes.len());
        }
    }
}

/// A 4 KB `CBNF` file of a small net (1.4 MB of arrays) whose zstd frame declares a 128 MiB
/// window and decodes to 130 MiB of zeros: the decoder kept the whole window before it handed
/// out a byte (128 MiB allocated before the stream was found too long). Refused within the
/// bound, as any stream longer than the arrays.
#[test]
fn a_zstd_window_larger_than_the_arrays_is_not_buffered() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Ok(Architecture::Layered(mut a)) = "stormphrax7".parse() else { unreachable!("a multi-layer preset") };
    a.l1 = 64;
    let bytes = nnue_runtime::format::synth::cbnf_zstd_rle_window(&a, "window", 130 << 20, 27);
    let arch = Architecture::Layered(a);
    let (result, peak) = peak_of(|| Net::from_bytes(&bytes, Some(&arch)));
    let Err(e) = result else { panic!("a stream longer than the arrays was accepted") };
    assert!(e.to_string().contains("or more bytes"), "{e}");
    let bound = bound(&bytes, Some(&arch));
    assert!(peak <= bound, "{peak} bytes allocated for a {}-byte file (bound {bound})", bytes.len());
}

/// An 82-byte `CBNF` file of a net with 100 KB of arrays whose one zstd block claims 98,047
/// sequences in a 3-byte count: the decoder reserves them (1.2 MB) before it finds the bytes
/// missing. Refused, within the decoder's allowance of [`bound`].
#[test]
fn a_zstd_block_claiming_the_most_sequences_is_refused_within_the_bound() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let text = "(768 -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x1, i32, q=64, l1shift=8, scale=400, file=cbnf";
    let Ok(Architecture::Layered(a)) = text.parse() else { unreachable!("a multi-layer description") };
    // The header with the zstd flag (a stream of no blocks), then a frame of one block.
    let mut bytes = nnue_runtime::format::synth::cbnf_zstd_rle(&a, "sequences", 0);
    bytes.truncate(64);
    bytes.extend([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38]);
    // Raw literals of size 0, then the sequence count 0xff 0xff 0xff (0x7f00 + 0xffff) and the
    // predefined tables; the block header: compressed, last.
    let body = [0x00, 0xff, 0xff, 0xff, 0x00, 0xff, 0xff, 0xff, 0x80];
    let header = (body.len() as u32) << 3 | 2 << 1 | 1;
    bytes.extend_from_slice(&header.to_le_bytes()[..3]);
    bytes.extend(body);
    let arch = Architecture::Layered(a);
    let (result, peak) = peak_of(|| Net::from_bytes(&bytes, Some(&arch)));
    let Err(e) = result else { panic!("a block of missing sequences was accepted") };
    assert_eq!((e.offset, e.section.as_str()), (64, "zstd-compressed arrays"), "{e}");
    let bound = bound(&bytes, Some(&arch));
    assert!(peak <= bound, "{peak} bytes allocated for a {}-byte file (bound {bound})", bytes.len());
}
