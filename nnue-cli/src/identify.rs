//! What a file without a description may be: a headerless file has only its size to tell,
//! a Stormphrax `CBNF` file its header's shape. Known engines' layouts come first (from
//! `nnue_format::known`), then the engines' layouts at other widths and king-bucket counts,
//! then the generic bullet form `(768xK -> N)x2 -> 1xB`; exact sizes before padded ones.

use nnue_runtime::format::known;
use nnue_runtime::format::{Architecture, Chess768Arch, KingBuckets, LayeredArch, Net};

/// How sure a candidate is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tier {
    /// An engine's shipped layout, as it ships.
    Known,
    /// An engine's layout at another L1 width or number of king buckets.
    EngineShape,
    /// bullet's generic single-layer form.
    Generic,
}

/// One layout the file may have.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Whose layout, and at which shape.
    pub who: String,
    /// The description: complete when [`Candidate::complete`], else with `?` where the file
    /// can't tell (the king table, the activation).
    pub description: String,
    /// The description reads as it is.
    pub complete: bool,
    /// How sure.
    pub tier: Tier,
    /// The size is the padded one.
    pub padded: bool,
    /// The architecture the size was matched with (a made-up king table where not known).
    arch: Architecture,
    /// Whether the bytes read with the architecture: `None` until [`verify`]ed.
    pub reads: Option<Result<(), String>>,
}

impl Candidate {
    /// A known engine's layout, complete and unpadded, not read yet.
    fn known(who: &str, arch: Architecture) -> Candidate {
        let description = arch.to_string();
        Candidate { who: who.into(), description, complete: true, tier: Tier::Known, padded: false, arch, reads: None }
    }
}

/// At most this many candidates are listed (the rest are counted).
pub const MAX_LISTED: usize = 12;

/// A king table of `count` buckets (the squares taken in turn), for sizes and reading checks.
fn made_up_kings(mirrored: bool, count: usize) -> KingBuckets {
    let n = if mirrored { 32 } else { 64 };
    let map: Vec<u8> = (0..n).map(|i| (i * count / n) as u8).collect();
    KingBuckets::from_map(mirrored, &map).unwrap_or(KingBuckets::SINGLE)
}

/// The text of `arch` with its king table replaced by `kings=[?]`.
fn without_table(arch: &Architecture) -> String {
    let text = arch.to_string();
    match text.find("kings=[") {
        Some(at) => {
            let end = text[at..].find(']').map_or(text.len(), |e| at + e + 1);
            format!("{}kings=[?]{}", &text[..at], &text[end..])
        }
        None => text,
    }
}

fn layered(text: &str) -> Option<LayeredArch> {
    match text.parse() {
        Ok(Architecture::Layered(a)) => Some(a),
        _ => None,
    }
}

fn chess768(text: &str) -> Option<Chess768Arch> {
    match text.parse() {
        Ok(Architecture::Chess768(a)) => Some(a),
        _ => None,
    }
}

/// The sizes a file of `arch` may have: exact, padded.
fn sizes(arch: &Architecture) -> (usize, usize) {
    match arch {
        Architecture::Layered(a) => (a.param_bytes(), a.file_bytes()),
        Architecture::Chess768(a) => (a.param_bytes(), a.file_bytes()),
        _ => (0, 0),
    }
}

/// `Some(padded)` if a file of `size` bytes fits `arch`.
fn fits(arch: &Architecture, size: usize) -> Option<bool> {
    let (exact, padded) = sizes(arch);
    if size == exact {
        Some(false)
    } else if size == padded {
        Some(true)
    } else {
        None
    }
}

/// The candidates for a file's bytes (not yet read with any of them), ranked; empty for a file
/// with a Stockfish header.
pub fn candidates(bytes: &[u8]) -> Vec<Candidate> {
    if bytes.starts_with(b"CBNF") {
        return cbnf(bytes).into_iter().collect();
    }
    let size = bytes.len();
    let mut out: Vec<Candidate> = known::by_size(size)
        .into_iter()
        .filter_map(|m| {
            let arch: Architecture = m.description.parse().ok()?;
            Some(Candidate {
                who: format!("{} layout", m.whose),
                description: m.description.split_whitespace().collect::<Vec<_>>().join(" "),
                complete: true,
                tier: Tier::Known,
                padded: m.padded,
                arch,
                reads: None,
            })
        })
        .collect();
    // PlentyChess's varints: the size follows from the values, which are one to three bytes
    // each; whether the file is one only reading tells (done by `verify`).
    if let Some(a) = layered(known::PLENTYCHESS) {
        let (raw, values) = (a.param_bytes(), a.inputs() * a.l1);
        if (values..=raw * 2).contains(&size) {
            let who = "PlentyChess's layout (one varint per value: the size is the values', reading tells)";
            out.push(Candidate::known(who, Architecture::Layered(a)));
        }
    }
    // Viridithas's `struct QuantisedNetwork` and cinder's `Nnue`: their size raw;
    // zstd-compressed (as they ship) any size, reading tells.
    for (whose, text) in [("Viridithas's", known::VIRIDITHAS), ("cinder's", known::CINDER)] {
        let Some(a) = layered(text) else { continue };
        // A zstd frame, or a skippable one (metadata) before it.
        let magic = bytes.first_chunk().map(|m| u32::from_le_bytes(*m));
        let zstd = magic.is_some_and(|m| m == 0xFD2F_B528 || (0x184D_2A50..=0x184D_2A5F).contains(&m));
        if zstd || size == a.param_bytes() {
            let who = if zstd {
                format!("{whose} layout (zstd-compressed, as it ships: reading tells)")
            } else {
                format!("{whose} layout")
            };
            out.push(Candidate::known(&who, Architecture::Layered(a)));
        }
    }
    out.extend(engine_shapes(size));
    out.extend(generic(size, &out));
    out.sort_by_key(|c| (c.tier, c.padded, !c.complete));
    out
}

/// The fixed-size engine layouts at every L1 width (multiples of 32 up to 8192) and number of
/// king buckets (1 to 32), but the engines' own shapes.
fn engine_shapes(size: usize) -> Vec<Candidate> {
    let mut out = Vec::new();
    for (whose, text) in known::HEADERLESS {
        let Some(base) = layered(text) else { continue };
        for kings in 1..=32usize {
            for l1 in (32..=8192).step_by(32) {
                if (l1, kings) == (base.l1, base.kings.count()) {
                    continue;
                }
                let mut a = base;
                a.l1 = l1;
                let table_known = kings == base.kings.count();
                if !table_known {
                    a.kings = made_up_kings(base.kings.mirrored, kings);
                }
                let arch = Architecture::Layered(a);
                let Some(padded) = fits(&arch, size) else { continue };
                if arch.validate().is_err() {
                    continue;
                }
                out.push(Candidate {
                    who: format!(
                        "{whose} layout at L1 {l1} with {kings} king bucket{}",
                        if kings == 1 { "" } else { "s" }
                    ),
                    description: if table_known || kings == 1 { arch.to_string() } else { without_table(&arch) },
                    complete: table_known || kings == 1,
                    tier: Tier::EngineShape,
                    padded,
                    arch,
                    reads: None,
                });
            }
        }
    }
    out
}

/// bullet's single-layer form `(768xK -> N)x2 -> 1xB` (N a multiple of 32 up to 16384, K and
/// B 1 to 32) where the size fits, but the shapes of candidates already found.
fn generic(size: usize, found: &[Candidate]) -> Vec<Candidate> {
    let Some(base) = chess768("(768 -> 32)x2 -> 1, screlu, qa=255, qb=64, scale=400") else { return Vec::new() };
    let known: Vec<(usize, usize, usize)> = found
        .iter()
        .filter_map(|c| match c.arch {
            Architecture::Chess768(a) => Some((a.kings.count(), a.hidden, a.output_buckets)),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    for kings in 1..=32usize {
        for hidden in (32..=16384).step_by(32) {
            // 2·(768·K·N + N + 2·N·B + B) grows with B: skip N whose range can't reach the size.
            let least = 2 * (768 * kings * hidden + hidden + 2 * hidden + 1);
            if least > size {
                break;
            }
            for buckets in 1..=32usize {
                let mut a = base;
                (a.hidden, a.output_buckets, a.kings) = (hidden, buckets, made_up_kings(false, kings));
                let arch = Architecture::Chess768(a);
                let Some(padded) = fits(&arch, size) else { continue };
                if known.contains(&(kings, hidden, buckets)) {
                    continue;
                }
                let inputs = if kings == 1 { "768".to_string() } else { format!("768x{kings}") };
                let outputs = if buckets == 1 { String::new() } else { format!("x{buckets}") };
                out.push(Candidate {
                    who: format!("bullet's single-layer form, {kings} king bucket(s), {hidden} hidden, {buckets} output bucket(s)"),
                    description: format!(
                        "({inputs}[hm] -> {hidden})x2 -> 1{outputs}, crelu|screlu, qa=?, qb=?, scale=?[, out=[2N][B]]{}",
                        if kings > 1 { ", kings=[?]" } else { "" }
                    ),
                    complete: false,
                    tier: Tier::Generic,
                    padded,
                    arch,
                    reads: None,
                });
            }
        }
    }
    out
}

/// A `CBNF` file: Stormphrax's description with the header's shape (L1, king buckets, output
/// buckets, mirroring, merged kings, dual activation); Stormphrax 8's when the header has its
/// skip over L2 (arch id 4 or 5) or threat inputs (input buckets + 128).
fn cbnf(bytes: &[u8]) -> Option<Candidate> {
    let field = |at: usize, width: usize| -> Option<usize> {
        Some(bytes.get(at..at + width)?.iter().rev().fold(0, |v, &b| (v << 8) | usize::from(b)))
    };
    let (flags, arch_id, l1, kings, buckets) =
        (field(6, 2)?, field(9, 1)?, field(11, 2)?, field(13, 1)?, field(14, 1)?);
    let (threats, kings) = (kings & 0x80 != 0, kings & 0x7f);
    let eight = threats || arch_id >= 4;
    let base = layered(if eight { known::STORMPHRAX8 } else { known::STORMPHRAX })?;
    let mut a = base;
    if eight {
        a.skip = arch_id >= 4;
        if !threats {
            a.threats = None;
        }
    }
    a.l1 = l1;
    a.buckets = buckets;
    a.merged_kings = flags & 4 != 0;
    let mirrored = flags & 2 != 0;
    if arch_id == 2 || arch_id == 4 {
        a.l1_act = nnue_runtime::format::Act::Screlu;
    }
    let table_known = (kings, mirrored) == (base.kings.count(), base.kings.mirrored) || kings == 1;
    if kings == 1 {
        a.kings = KingBuckets { mirrored, ..KingBuckets::SINGLE };
    } else if !table_known {
        a.kings = made_up_kings(mirrored, kings);
    }
    let arch = Architecture::Layered(a);
    let exact = a == base;
    let zstd = if flags & 1 != 0 { ", zstd-compressed" } else { "" };
    let whose = if eight { "Stormphrax 8's" } else { "Stormphrax's" };
    Some(Candidate {
        who: if exact {
            format!("{whose} layout (its CBNF header{zstd})")
        } else {
            format!("{whose} layout at the CBNF header's shape{zstd}")
        },
        description: if table_known { arch.to_string() } else { without_table(&arch) },
        complete: table_known,
        tier: if exact { Tier::Known } else { Tier::EngineShape },
        padded: false,
        arch,
        reads: None,
    })
}

/// Reads the file with each of the first [`MAX_LISTED`] candidates (a made-up king table
/// where the real one is unknown: the table doesn't change what is read), and moves those
/// that read ahead of those that don't, keeping the order otherwise. Returns the net read with
/// the first complete candidate that reads (then first in the list), if any.
pub fn verify(bytes: &[u8], candidates: &mut [Candidate]) -> Option<Net> {
    let mut first = None;
    for c in candidates.iter_mut().take(MAX_LISTED) {
        match Net::from_bytes(bytes, Some(&c.arch)) {
            Ok(net) => {
                if c.complete && first.is_none() {
                    first = Some(net);
                }
                c.reads = Some(Ok(()));
            }
            Err(e) => c.reads = Some(Err(e.to_string())),
        }
    }
    candidates.sort_by_key(|c| matches!(c.reads, Some(Err(_))));
    first
}

/// The candidates in a few lines, for an error message about a file read without a description.
pub fn hint(bytes: &[u8]) -> String {
    let found = candidates(bytes);
    if found.is_empty() {
        return String::new();
    }
    let mut text = String::from("\nby its size (or CBNF header) it may be (`nnue inspect` reads each):");
    for (i, c) in found.iter().take(5).enumerate() {
        text += &format!("\n  {}. {}: --arch \"{}\"", i + 1, c.who, c.description);
    }
    if found.len() > 5 {
        text += &format!("\n  ... and {} more", found.len() - 5);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::candidates;

    /// A file that starts as zstd does, with a data frame or a skippable one (metadata before
    /// it), lists Viridithas's and cinder's layouts, which ship compressed; other bytes of a
    /// size neither has don't.
    #[test]
    fn a_zstd_file_lists_the_layouts_shipped_compressed() {
        let listed = |bytes: &[u8]| {
            let all = candidates(bytes);
            ["Viridithas's", "cinder's"].map(|whose| all.iter().any(|c| c.who.starts_with(whose)))
        };
        let mut data = vec![0x28, 0xb5, 0x2f, 0xfd];
        data.resize(1000, 0);
        let mut skippable = 0x184D_2A53u32.to_le_bytes().to_vec();
        skippable.resize(1000, 0);
        assert_eq!(listed(&data), [true; 2]);
        assert_eq!(listed(&skippable), [true; 2]);
        assert_eq!(listed(&[1; 1000]), [false; 2]);
    }
}
