//! Real nets read and write back byte for byte; nets of families we don't evaluate are refused
//! by name. Nets are looked for in `../shared/nets/` (next to the workspace) and `nets/fetched/`
//! (`python3 scripts/fetch-nets.py`); a missing one prints `SKIPPED ...` to stderr.
//!
//! The three nets over 30 MB take 4-7 s each unoptimised (~300 MB of memory for the biggest)
//! and the root crate's `tests/real_nets.rs` round-trips them too, so in debug builds they only
//! run with `NNUE_SLOW_TESTS=1` (release builds always run them).

use std::path::PathBuf;
use std::time::Instant;

use nnue_format::{Architecture, Encoding, Model, Net};

/// Nets bigger than this are slow tests in debug builds.
const SLOW_BYTES: u64 = 30 << 20;

fn slow_tests() -> bool {
    !cfg!(debug_assertions) || std::env::var_os("NNUE_SLOW_TESTS").is_some_and(|v| v == "1")
}

fn find(name: &str) -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let found = [root.join("../shared/nets"), root.join("nets/fetched")]
        .into_iter()
        .map(|dir| dir.join(name))
        .find(|p| p.is_file());
    if found.is_none() {
        // In CI with ../shared, a net it should hold is a failure, not a skip.
        let shared = root.join("../shared/nets");
        let in_ci = std::env::var("CI").is_ok_and(|v| v == "true") && shared.is_dir();
        assert!(!(in_ci && SHARED.contains(&name)), "{name} is missing from {} in CI", shared.display());
        skip(&format!(
            "{name}: in neither ../shared/nets/ nor nets/fetched/ (run `python3 scripts/fetch-nets.py {name}`)"
        ));
    }
    found
}

/// The nets `../shared/nets/` holds.
const SHARED: [&str; 7] = [
    "nn-1a298aa575a0.nnue",
    "nn-61e7af4bb97d.nnue",
    "nn-1c0000000000.nnue",
    "nn-37f18f62d772.nnue",
    "nn-9067e33176e8.nnue",
    "nn-62ef826d1a6d.nnue",
    "nn-c288c895ea92.nnue",
];

/// `SKIPPED <why>` straight to stderr, past the test harness's capture (as `nnue_testkit::skip`
/// does, which this crate can't depend on), so that `cargo test`'s output shows it.
fn skip(why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED {why}");
}

/// Reads a real net (unless it is slow here), checks its architecture and that writing it back
/// gives the same bytes.
/// The description of a preset (`nnue_format::preset`): the header of the release's net must
/// say the same.
fn preset(name: &str) -> &'static str {
    nnue_format::preset::preset(name).unwrap_or_else(|| panic!("no preset {name}"))
}

fn round_trip(name: &str, arch: &str, encoding: Encoding) {
    let Some(path) = find(name) else { return };
    let size = std::fs::metadata(&path).unwrap().len();
    if size > SLOW_BYTES && !slow_tests() {
        skip(&format!("{name}: {} MB, a slow test in debug builds (set NNUE_SLOW_TESTS=1)", size >> 20));
        return;
    }
    let start = Instant::now();
    let bytes = std::fs::read(&path).unwrap();
    let net = Net::from_bytes(&bytes, None).unwrap_or_else(|e| panic!("{name}: {e}"));
    let arch: Architecture = arch.parse().unwrap();
    assert_eq!(net.arch(), arch, "{name}");
    let ft = match &net.model {
        Model::Sfnn(_, p) => &p.ft,
        Model::HalfKp(_, p) => &p.ft,
        Model::Threats(_, p) => &p.ft,
        Model::Sf19(_, p) => &p.ft,
        Model::Chess768(..) | Model::Layered(..) => unreachable!("{name} is a Stockfish net"),
    };
    assert_eq!(ft.encoding[1], encoding, "{name}: transformer weights encoding");
    assert!(net.to_bytes() == bytes, "{name}: writing back changes the bytes");
    // Given the right description, the same.
    assert!(Net::from_bytes(&bytes, Some(&arch)).unwrap() == net, "{name}");
    eprintln!("{name}: {} bytes read and written back in {:.1?}", bytes.len(), start.elapsed());
}

#[test]
fn stockfish_17_1_small() {
    round_trip("nn-37f18f62d772.nnue", preset("stockfish17.1-small"), Encoding::Leb128);
}

#[test]
fn stockfish_17_1_lite() {
    round_trip("nn-9067e33176e8.nnue", "HalfKAv2_hm -> 256x2 -> (15+1 -> 32 -> 1)x8, psqt=8", Encoding::Leb128);
}

#[test]
fn stockfish_13_halfkp() {
    round_trip("nn-62ef826d1a6d.nnue", preset("stockfish13"), Encoding::Raw);
}

#[test]
fn stockfish_17_1_big() {
    round_trip("nn-1c0000000000.nnue", preset("stockfish17.1-big"), Encoding::Leb128);
}

#[test]
fn stockfish_16() {
    round_trip("nn-5af11540bbfe.nnue", "HalfKAv2_hm -> 1536x2 -> (15+1 -> 32 -> 1)x8, psqt=8", Encoding::Leb128);
}

#[test]
fn stockfish_15_1() {
    round_trip("nn-ad9b42354671.nnue", "HalfKAv2_hm -> 1024x2 -> (15+1 -> 32 -> 1)x8, psqt=8", Encoding::Raw);
}

/// Stockfish 18's big net: threat weights raw int8, everything else LEB128, one PSQT block.
#[test]
fn stockfish_18_big() {
    round_trip("nn-c288c895ea92.nnue", preset("stockfish18-big"), Encoding::Leb128);
}

/// Stockfish 19's big net: threat and pawn-pair weights raw int8, the rest LEB128, three PSQT
/// blocks.
#[test]
fn stockfish_19_big() {
    round_trip("nn-1a298aa575a0.nnue", preset("stockfish19-big"), Encoding::Leb128);
}

/// The lite net lichess ships with Stockfish 19: 768 mirrored piece-square inputs.
#[test]
fn stockfish_19_lite() {
    round_trip("nn-61e7af4bb97d.nnue", preset("stockfish19-lite"), Encoding::Leb128);
}

/// The layout the prototype measured: where each section of Stockfish 18's big net starts.
#[test]
fn stockfish_18_big_sections() {
    let Some(path) = find("nn-c288c895ea92.nnue") else { return };
    if !slow_tests() {
        eprintln!("SKIPPED nn-c288c895ea92.nnue sections: a slow test in debug builds (set NNUE_SLOW_TESTS=1)");
        return;
    }
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(bytes.len(), 108_919_594);
    let net = Net::from_bytes(&bytes, None).unwrap();
    let Model::Threats(_, p) = &net.model else { panic!("not a threat net: {}", net.arch()) };
    assert_eq!((p.ft.biases.len(), p.threat_weights.len()), (1024, 79856 * 1024));
    assert_eq!((p.ft.weights.len(), p.ft.psqt.len()), (22528 * 1024, (79856 + 22528) * 8));
    assert_eq!(p.ft.encoding, [Encoding::Leb128; 3]);
    // The raw threat weights start at byte 1366 (after the 1266-byte LEB128 bias block).
    assert_eq!(p.threat_weights[..64], bytes[1366..1366 + 64].iter().map(|&b| b as i8).collect::<Vec<_>>()[..]);
    // Any other description is refused; the first stack's hash sits at 108,778,474.
    assert_eq!(&bytes[108_778_474..108_778_478], &0x6333_6A4Au32.to_le_bytes());
    let wrong: Architecture = "HalfKAv2_hm -> 1024x2 -> (15+1 -> 32 -> 1)x8, psqt=8".parse().unwrap();
    let err = Net::from_bytes(&bytes[..4096], Some(&wrong)).unwrap_err();
    assert_eq!(err.kind.name(), "DescriptionMismatch", "{err}");
}

#[test]
fn stockfish_14_is_refused_by_name() {
    let Some(path) = find("nn-76a8a7ffb820.nnue") else { return };
    // The header is enough: the reader stops there.
    let mut head = vec![0; 4096];
    let n = std::io::Read::read(&mut std::fs::File::open(path).unwrap(), &mut head).unwrap();
    let err = Net::from_bytes(&head[..n], None).unwrap_err();
    assert_eq!((err.kind.name(), err.section.as_str(), err.offset), ("Unsupported", "header", 4), "{err}");
    assert!(err.to_string().contains("Stockfish 14-era HalfKAv2 512x2-16-32-1"), "{err}");
}

/// The committed headerless default net.
#[test]
fn default_headerless_net() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../nets/default.nnue");
    let bytes = std::fs::read(path).unwrap();
    let arch: Architecture = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400".parse().unwrap();
    let net = Net::from_bytes(&bytes, Some(&arch)).unwrap();
    assert!(net.to_bytes() == bytes);
}
