//! Mutated nets (synthetic of every family, and the real Stockfish 17.1 small net when present,
//! read once) fed to the reader, with and without an architecture description: it returns Ok or
//! Err, never panics, and never allocates more than 4x the input's size + 64 KiB (the peak of
//! live heap bytes during the call, measured with a counting allocator in this test binary).
//!
//! Mutations: byte flips, truncations, insertions anywhere, and u32 overwrites at section
//! boundaries (hashes, lengths, LEB128 byte counts, the first bytes of every array), found with
//! `nnue_testkit::corpus::layout`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use nnue_runtime::{Architecture, Net};
use nnue_testkit::corpus::{self, RegionKind};
use proptest::prelude::*;

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

struct Base {
    bytes: Vec<u8>,
    /// The architecture that reads it (needed for headerless nets).
    arch: Architecture,
    /// A description it does not match.
    other: Architecture,
    /// Section boundaries: where every region, LEB128 byte count and LEB128 value stream starts.
    boundaries: Vec<usize>,
}

fn base(bytes: Vec<u8>, arch: Architecture, other: &str) -> Base {
    let boundaries = corpus::layout(&bytes, &arch)
        .iter()
        .flat_map(|r| match r.kind {
            RegionKind::Leb128 { count, data } => vec![r.start, count, data],
            _ => vec![r.start],
        })
        .collect();
    Base { bytes, arch, other: other.parse().unwrap(), boundaries }
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
        use nnue_runtime::format::{synth, Encoding, Sf19Inputs};
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

/// 64 cases (about 3 s unoptimised); 2000 with NNUE_SLOW_TESTS=1.
fn case_count() -> u32 {
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
    ) {
        // Everything under the lock: another test's allocations must not land in this peak.
        let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let base = which.get(bases());
        let mut bytes = base.bytes.clone();
        for m in &mutations {
            apply(&mut bytes, &base.boundaries, m);
        }
        let arch = match arch_choice {
            0 => None,
            1 => Some(&base.arch),
            _ => Some(&base.other),
        };
        let before = LIVE.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        let result = std::panic::catch_unwind(|| Net::from_bytes(&bytes, arch).map(drop));
        let peak = PEAK.load(Ordering::Relaxed) - before;
        prop_assert!(result.is_ok(), "the reader panicked");
        let bound = 4 * bytes.len() + (64 << 10);
        prop_assert!(peak <= bound, "{peak} bytes allocated for a {}-byte file (bound {bound})", bytes.len());
    }
}

/// The bound is tight enough to mean something: a LEB128 PSQT array (1 byte per value decoded
/// to 4) is the worst case, and a valid net stays within it too.
#[test]
fn valid_nets_stay_within_the_bound() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    for base in bases() {
        let before = LIVE.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        let net = Net::from_bytes(&base.bytes, Some(&base.arch)).unwrap();
        let peak = PEAK.load(Ordering::Relaxed) - before;
        drop(net);
        eprintln!("{} bytes read with a peak of {peak} bytes allocated", base.bytes.len());
        assert!(peak <= 4 * base.bytes.len() + (64 << 10), "{peak} bytes for a {}-byte net", base.bytes.len());
    }
}
