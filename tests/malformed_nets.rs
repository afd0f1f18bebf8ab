//! The reader on malformed nets:
//!
//! - every case of the corpus (`tests/corpus/manifest.tsv`, built by `nnue_testkit::corpus`): the typed
//!   error of the expected kind, at the expected section and byte offset, with a message that
//!   names the offset, the section, and what was expected and found;
//! - sweeps over the structure of the base nets: a truncation inside every region (header
//!   fields, every array, every stack's hash and layers), a corrupted hash in every section,
//!   trailing bytes, every headerless padding byte. The expected error follows from the layout
//!   alone (`nnue_testkit::corpus::layout`), not from the reader.
//!
//! `NNUE_CORPUS_DUMP=1 cargo test --test malformed_nets -- --nocapture` prints each case's
//! message; `NNUE_SLOW_TESTS=1` makes the truncation sweep cut every region at four places
//! (about 3x the reads, ~40 s in debug).

use nnue_runtime::format::FormatError;
use nnue_runtime::{Architecture, Net};
use nnue_testkit::corpus::{self, Base, Case, RegionKind};

fn slow() -> bool {
    std::env::var_os("NNUE_SLOW_TESTS").is_some_and(|v| v == "1")
}

fn read(bytes: &[u8], arch: Option<&Architecture>) -> Result<Net, FormatError> {
    Net::from_bytes(bytes, arch)
}

fn check_cases(select: impl Fn(&Case) -> bool) -> usize {
    let dump = std::env::var_os("NNUE_CORPUS_DUMP").is_some();
    let mut failures = Vec::new();
    let cases: Vec<Case> = corpus::cases().into_iter().filter(|c| select(c)).collect();
    for case in &cases {
        let bytes = corpus::materialize(case);
        match read(&bytes, case.architecture().as_ref()) {
            Ok(_) => failures.push(format!("{}: read without error", case.name)),
            Err(err) => {
                if dump {
                    eprintln!("{}\t{err}", case.name);
                }
                if let Err(why) = case.check(&err) {
                    failures.push(why);
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} corpus cases fail:\n{}", failures.len(), cases.len(), failures.join("\n"));
    cases.len()
}

const SFNN_LEB128: &str = "sfnn:64:leb128:seed=1";

#[test]
fn corpus_cases_on_the_leb128_sfnn_net() {
    assert!(check_cases(|c| c.base == SFNN_LEB128) >= 60);
}

#[test]
fn corpus_cases_on_the_other_nets() {
    assert!(check_cases(|c| c.base != SFNN_LEB128) >= 30);
}

#[test]
fn corpus_covers_every_error_kind_and_family() {
    let cases = corpus::cases();
    for kind in [
        "Empty",
        "Truncated",
        "UnknownVersion",
        "Unsupported",
        "HashMismatch",
        "DescriptionMismatch",
        "Leb128",
        "Trailing",
        "SizeMismatch",
        "Invalid",
    ] {
        assert!(cases.iter().any(|c| c.expected.kind == kind), "no corpus case expects {kind}");
    }
    for family in ["sfnn:64:leb128", "sfnn:64:raw", "halfkp:", "chess768:", "layered:"] {
        assert!(cases.iter().any(|c| c.base.starts_with(family)), "no corpus case on a {family} net");
    }
    // Every message is pinned to what was expected and found.
    let unpinned: Vec<&str> = cases.iter().filter(|c| c.message_contains.is_empty()).map(|c| c.name.as_str()).collect();
    assert!(unpinned.is_empty(), "cases without message pieces: {unpinned:?}");
}

#[test]
fn write_all_is_deterministic() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("nnue-corpus-test");
    let paths = corpus::write_all(&dir).unwrap();
    let cases = corpus::cases();
    assert_eq!(paths.len(), cases.len());
    for (case, path) in cases.iter().zip(&paths) {
        assert_eq!(path.file_name().unwrap().to_str().unwrap(), case.file_name());
        assert!(std::fs::read(path).unwrap() == corpus::materialize(case), "{}", case.name);
    }
    // Written again, nothing changes.
    assert_eq!(corpus::write_all(&dir).unwrap(), paths);
}

/// The bases themselves are well-formed, and the walker agrees with the reader.
#[test]
fn corpus_bases_read() {
    let mut recipes: Vec<String> = corpus::cases().into_iter().map(|c| c.base).collect();
    recipes.sort();
    recipes.dedup();
    for recipe in recipes {
        let base = corpus::base(&recipe);
        let arch = matches!(base.arch, Architecture::Chess768(_) | Architecture::Layered(_)).then_some(&base.arch);
        let net = read(&base.bytes, arch).unwrap_or_else(|e| panic!("{recipe}: {e}"));
        assert_eq!(net.arch(), base.arch);
        assert!(net.to_bytes() == base.bytes, "{recipe}");
    }
}

/// What the reader must say when the file ends at `cut`, from the layout alone.
fn truncation_error(base: &Base, cut: usize) -> (&'static str, String, usize) {
    if cut == 0 {
        return ("Empty", "header".into(), 0);
    }
    let r = base.regions.iter().find(|r| r.start <= cut && cut < r.end).expect("cut inside the file");
    let section = r.section.clone();
    match r.kind {
        RegionKind::Leb128 { count, .. } if cut >= count + 4 => ("Leb128", section, count),
        RegionKind::Leb128 { count, .. } if cut >= count => ("Truncated", section, count),
        RegionKind::Padding => unreachable!("headerless nets are swept separately"),
        _ => ("Truncated", section, r.start),
    }
}

fn sweep_truncations(recipe: &str, cuts_in: impl Fn(&corpus::Region) -> Vec<usize>) -> usize {
    let base = corpus::base(recipe);
    let mut cuts: Vec<usize> = base.regions.iter().flat_map(&cuts_in).collect();
    cuts.sort();
    cuts.dedup();
    for &cut in &cuts {
        let err = read(&base.bytes[..cut], None).err().unwrap_or_else(|| panic!("{recipe} cut at {cut} reads"));
        let (kind, section, offset) = truncation_error(&base, cut);
        assert_eq!(
            (err.kind.name(), err.section.as_str(), err.offset),
            (kind, section.as_str(), offset),
            "{recipe} cut at {cut}: {err}"
        );
        let message = err.to_string();
        assert!(message.starts_with(&format!("{section} at offset {offset}: ")), "{message}");
        if kind == "Truncated" {
            let left = format!("only {} bytes are left", cut - offset);
            assert!(message.contains(&left), "{message} lacks {left}");
        }
    }
    cuts.len()
}

/// Where to cut a region: its start, second byte, middle and last byte, and the byte count
/// and first value of a LEB128 array. Past the feature transformer every cut costs a whole
/// transformer read, so there (stacks, HalfKP layers) only the start of every region and the
/// middle and last byte of those of the first and last stack are cut, unless NNUE_SLOW_TESTS=1
/// (the corpus has cuts inside every HalfKP layer).
fn cuts(r: &corpus::Region) -> Vec<usize> {
    let deep = r.name.starts_with("stack") || r.name.starts_with("net.");
    let interior = !deep || slow() || ["stack0.", "stack7."].iter().any(|p| r.name.starts_with(p));
    let mut cuts = vec![r.start];
    if interior {
        cuts.extend([(r.start + r.end) / 2, r.end - 1]);
    }
    if !deep || slow() {
        cuts.push(r.start + 1);
    }
    if let RegionKind::Leb128 { count, data } = r.kind {
        cuts.extend([r.start + 16, count, count + 3, data, data + 1]);
    }
    cuts.retain(|&c| r.start <= c && c < r.end);
    cuts
}

#[test]
fn truncated_anywhere_in_the_leb128_sfnn_net() {
    assert!(sweep_truncations(SFNN_LEB128, cuts) > 80);
}

#[test]
fn truncated_anywhere_in_the_raw_sfnn_net() {
    // Past the transformer the raw net reads as the LEB128 one: its stacks are cut in slow runs.
    let ft = |r: &corpus::Region| if r.name.starts_with("stack") && !slow() { Vec::new() } else { cuts(r) };
    assert!(sweep_truncations("sfnn:64:raw:seed=4", ft) > 20);
}

#[test]
fn truncated_anywhere_in_halfkp_nets() {
    assert!(sweep_truncations("halfkp:64:seed=2", cuts) > 15);
    if slow() {
        sweep_truncations("halfkp:64:leb128:seed=7", cuts);
    }
}

#[test]
fn every_section_hash_is_checked() {
    for recipe in [SFNN_LEB128, "halfkp:64:seed=2"] {
        let base = corpus::base(recipe);
        let hashes = base.regions.iter().filter(|r| r.name.ends_with(".hash") && r.name != "header.hash");
        let mut count = 0;
        for r in hashes {
            let mut bytes = base.bytes.clone();
            let expected = u32::from_le_bytes(bytes[r.start..r.end].try_into().unwrap());
            let found = expected ^ 0x0100_0000;
            bytes[r.start..r.end].copy_from_slice(&found.to_le_bytes());
            let err = read(&bytes, None).unwrap_err();
            assert_eq!(
                (err.kind.name(), err.section.as_str(), err.offset),
                ("HashMismatch", r.section.as_str(), r.start)
            );
            let pieces = format!("expected {expected:#010x}, found {found:#010x}");
            assert!(err.to_string().contains(&pieces), "{err}");
            count += 1;
        }
        assert_eq!(count, if recipe == SFNN_LEB128 { 9 } else { 2 });
    }
}

#[test]
fn trailing_bytes_after_any_net() {
    for recipe in [SFNN_LEB128, "halfkp:64:seed=2"] {
        let base = corpus::base(recipe);
        for extra in [&[0u8][..], b"COMPRESSED_LEB128", &[0xff; 100]] {
            let bytes = [&base.bytes[..], extra].concat();
            let err = read(&bytes, None).unwrap_err();
            assert_eq!(
                (err.kind.name(), err.section.as_str(), err.offset),
                ("Trailing", "end of file", base.bytes.len())
            );
            assert!(err.to_string().contains(&format!("{} trailing bytes", extra.len())), "{err}");
        }
    }
}

#[test]
fn headerless_sizes_and_padding() {
    let recipe = "chess768:(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400:seed=3";
    let base = corpus::base(recipe);
    let arch = Some(&base.arch);
    let padding = base.region("padding");
    assert!(padding.end - padding.start > 0 && base.bytes.len().is_multiple_of(64));
    // Every length but the exact and the padded one is refused by size.
    for len in (0..base.bytes.len() + 130).step_by(61).chain([padding.start - 1, padding.start + 1]) {
        let bytes: Vec<u8> = base.bytes.iter().copied().chain(std::iter::repeat(0)).take(len).collect();
        let result = read(&bytes, arch);
        if len == padding.start || len == base.bytes.len() {
            assert!(result.is_ok(), "{len} bytes: {result:?}");
            continue;
        }
        let err = result.unwrap_err();
        let want = if len == 0 { ("Empty", "header", 0) } else { ("SizeMismatch", "headerless net", 0) };
        assert_eq!((err.kind.name(), err.section.as_str(), err.offset), want, "{len} bytes: {err}");
        if len > 0 {
            let pieces =
                format!("the file has {len} bytes but the description {} needs {}", base.arch, base.bytes.len());
            assert!(err.to_string().contains(&pieces), "{err}");
        }
    }
    // The unpadded file round-trips too.
    let exact = read(&base.bytes[..padding.start], arch).unwrap();
    assert!(exact.to_bytes() == base.bytes[..padding.start]);
    // Every padding byte must be zero.
    for at in padding.start..padding.end {
        let mut bytes = base.bytes.clone();
        bytes[at] = 0x40;
        let err = read(&bytes, arch).unwrap_err();
        assert_eq!((err.kind.name(), err.section.as_str(), err.offset), ("Invalid", "padding", at));
    }
}
