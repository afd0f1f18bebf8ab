//! Mutated nets (synthetic of every family, and the real Stockfish 17.1 small net when present)
//! fed to the reader: it returns Ok or Err, never panics, and never allocates more than a small
//! factor of the input's size (measured with a counting allocator in this test binary).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use nnue_runtime::format::{synth, Architecture, Encoding};
use nnue_runtime::Net;
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

const SIMPLE: &str = "(768 -> 32)x2 -> 1, screlu, qa=255, qb=64, scale=400";

fn bases() -> &'static [(Vec<u8>, Option<Architecture>)] {
    static BASES: OnceLock<Vec<(Vec<u8>, Option<Architecture>)>> = OnceLock::new();
    BASES.get_or_init(|| {
        let simple: Architecture = SIMPLE.parse().unwrap();
        let Architecture::Simple(s) = &simple else { unreachable!() };
        let mut bases = vec![
            (synth::sfnn(64, 5, Encoding::Leb128).to_bytes(), None),
            (synth::halfkp(64, 6).to_bytes(), None),
            (synth::simple(s, 7).to_bytes(), Some(simple.clone())),
        ];
        if let Some(path) = nnue::net_or_skip(nnue::SF17_SMALL, "mutations of the real small net") {
            bases.push((std::fs::read(path).unwrap(), None));
        }
        bases
    })
}

#[derive(Debug, Clone)]
enum Mutation {
    Flip {
        at: usize,
        bits: u8,
    },
    Truncate {
        at: usize,
    },
    Insert {
        at: usize,
        bytes: Vec<u8>,
    },
    /// Overwrite a u32 near the start (header, hashes, lengths, LEB128 counts).
    Word {
        at: usize,
        value: u32,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1u8..).prop_map(|(at, bits)| Mutation::Flip { at, bits }),
        any::<usize>().prop_map(|at| Mutation::Truncate { at }),
        (any::<usize>(), prop::collection::vec(any::<u8>(), 1..16))
            .prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
        (0usize..256, prop_oneof![any::<u32>(), Just(u32::MAX), Just(0), Just(0x7AF3_2F20)])
            .prop_map(|(at, value)| Mutation::Word { at, value }),
    ]
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    let len = bytes.len().max(1);
    match m {
        Mutation::Flip { at, bits } => {
            if !bytes.is_empty() {
                bytes[at % len] ^= bits;
            }
        }
        Mutation::Truncate { at } => bytes.truncate(at % len),
        Mutation::Insert { at, bytes: b } => {
            let at = at % len;
            bytes.splice(at..at, b.iter().copied());
        }
        Mutation::Word { at, value } => {
            if at + 4 <= bytes.len() {
                bytes[*at..at + 4].copy_from_slice(&value.to_le_bytes());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn mutated_nets_are_ok_or_err_within_bounded_memory(
        which in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 1..4),
        with_arch in any::<bool>(),
    ) {
        let (base, arch) = which.get(bases());
        let mut bytes = base.clone();
        for m in &mutations {
            apply(&mut bytes, m);
        }
        let arch = if with_arch { arch.clone() } else { None };
        let _serial = SERIAL.lock().unwrap();
        let before = LIVE.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        let result = std::panic::catch_unwind(|| Net::from_bytes(&bytes, arch.as_ref()).map(drop));
        let peak = PEAK.load(Ordering::Relaxed) - before;
        prop_assert!(result.is_ok(), "the reader panicked");
        prop_assert!(peak <= 4 * bytes.len() + (64 << 10), "{peak} bytes allocated for a {}-byte file", bytes.len());
    }
}
