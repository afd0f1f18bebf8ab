//! Engines' headerless multi-layer nets, described: the descriptions that read their shipped
//! nets, and by size a hint for a file read without a description (which has nothing else to
//! say what it is: the error names the engine whose nets have its size, with the description;
//! another net may have the same size). [`by_size`] lists every known layout a size fits.

use crate::Architecture;

pub use crate::preset::{
    ALEXANDRIA, CAISSA, CINDER, INTEGRAL, OBSIDIAN, PLENTYCHESS, RECKLESS, STORMPHRAX, STORMPHRAX8, VIRIDITHAS,
};

/// The engines' shipped headerless nets whose size follows from the description: whose, and
/// the description. (PlentyChess's varint files, Stormphrax's `CBNF` files and Viridithas's
/// zstd-compressed ones are not among them: see [`PLENTYCHESS`], [`STORMPHRAX`] and
/// [`VIRIDITHAS`].)
pub const HEADERLESS: [(&str, &str); 7] = [
    ("akimbo 0.7.0's", crate::preset::AKIMBO),
    // A `CSNN` header, but one that states sizes, not the arithmetic: read with its description.
    ("Caissa's", CAISSA),
    ("pawnocchio's net20", crate::preset::PAWNOCCHIO),
    ("Alexandria's", ALEXANDRIA),
    ("Integral's", INTEGRAL),
    ("Obsidian's", OBSIDIAN),
    ("Reckless's", RECKLESS),
];

/// The sizes a file of `arch` may have (unpadded, padded).
fn sizes(arch: &Architecture) -> Option<(usize, usize)> {
    match arch {
        Architecture::Chess768(a) => Some((a.param_bytes(), a.file_bytes())),
        Architecture::Layered(a) => Some((a.param_bytes(), a.file_bytes())),
        _ => None,
    }
}

/// A known layout that a headerless file's size fits (see [`by_size`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeMatch {
    /// Whose nets have this layout (`"akimbo 0.7.0's"`).
    pub whose: &'static str,
    /// The description, one of [`HEADERLESS`]'s.
    pub description: &'static str,
    /// The size is the padded one (the parameters, then padding to a multiple of 64 bytes);
    /// else the parameters' own.
    pub padded: bool,
}

/// Every layout of [`HEADERLESS`] whose file size is `size` bytes, the exact (unpadded)
/// sizes first. No two of them share a size today, so this is at most one; a file of that
/// size may still be another net (the size is all a headerless file tells).
///
/// ```
/// use nnue_format::known;
///
/// let found = known::by_size(37_983_776);
/// assert_eq!((found[0].description, found[0].padded), (known::ALEXANDRIA, false));
/// assert!(known::by_size(12345).is_empty());
/// ```
pub fn by_size(size: usize) -> Vec<SizeMatch> {
    let mut found: Vec<SizeMatch> = HEADERLESS
        .iter()
        .filter_map(|&(whose, description)| {
            let (exact, padded) = sizes(&description.parse().ok()?)?;
            let padded = match size {
                _ if size == exact => false,
                _ if size == padded => true,
                _ => return None,
            };
            Some(SizeMatch { whose, description, padded })
        })
        .collect();
    found.sort_by_key(|m| m.padded);
    found
}

/// What to tell about a headerless file of `size` bytes read without a description.
pub(crate) fn headerless_hint(size: usize) -> Option<String> {
    HEADERLESS.iter().find_map(|(whose, text)| {
        let arch: Architecture = text.parse().ok()?;
        let (exact, padded) = sizes(&arch)?;
        (size == exact || size == padded)
            .then(|| format!("; {size} bytes is the size of {whose} nets: if it is one, describe it as `{text}`"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every description reads, and no two engines' nets share a size.
    #[test]
    fn the_known_nets_are_told_apart_by_size() {
        let mut all: Vec<(usize, usize)> =
            HEADERLESS.iter().map(|(_, t)| sizes(&t.parse().unwrap()).unwrap()).collect();
        for (i, (exact, padded)) in all.iter().enumerate() {
            let hint = headerless_hint(*exact).unwrap();
            assert!(hint.contains(HEADERLESS[i].0) && hint.contains(HEADERLESS[i].1), "{hint}");
            assert_eq!(
                by_size(*exact),
                [SizeMatch { whose: HEADERLESS[i].0, description: HEADERLESS[i].1, padded: false }]
            );
            if padded != exact {
                assert!(by_size(*padded)[0].padded);
            }
            assert_eq!(headerless_hint(*padded), Some(hint.replace(&exact.to_string(), &padded.to_string())));
        }
        all.sort();
        all.dedup_by(|a, b| a.0 == b.0 || a.1 == b.1 || a.0 == b.1 || a.1 == b.0);
        assert_eq!(all.len(), HEADERLESS.len());
        assert_eq!(headerless_hint(12345), None);
    }

    #[test]
    fn stormphraxs_description_is_a_cbnf_one() {
        let Ok(Architecture::Layered(a)) = STORMPHRAX.parse() else { panic!("{STORMPHRAX}") };
        assert_eq!((a.file, a.l1, a.kings.count(), a.merged_kings), (crate::FileLayout::Cbnf, 1792, 16, true));
    }
}
