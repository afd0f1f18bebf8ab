//! Engines' headerless multi-layer nets, described: the descriptions that read their shipped
//! nets, and by size a hint for a file read without a description (which has nothing else to
//! say what it is: the error names the engine whose nets have its size, with the description;
//! another net may have the same size). [`by_size`] lists every known layout a size fits.

use crate::Architecture;

/// Alexandria's nets (`nn.net` since 2026-02; PGG106/Alexandria 2ebf114).
pub const ALEXANDRIA: &str = "(768x16hm -> 1536)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x8, f32, dual, \
    l1mul=1024/4161600, scale=362, buckets=(63-p)(32-p)/225, file=alexandria, \
    kings=[0,1,2,3,4,5,6,7,8,9,10,11,8,9,10,11,12,12,13,13,12,12,13,13,14,14,15,15,14,14,15,15]";

/// Integral's nets (`zekrom-v7`; aronpetko/integral 3f15ba6).
pub const INTEGRAL: &str = "(768x12hm -> 1536)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, l1act=crelu, \
    l2act=crelu, l1mul=512/8323200, scale=200, l1sums=i16pairs, file=bullet, \
    kings=[0,1,2,3,4,5,6,7,8,8,9,9,10,10,10,10,10,10,10,10,11,11,11,11,11,11,11,11,11,11,11,11]";

/// Obsidian's nets (`net89perm.bin`; gab8192/Obsidian 44239cc).
pub const OBSIDIAN: &str = "(768x13hm -> 1536)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, dual, l2act=crelu, \
    l1mul=1/16256, scale=400, file=obsidian, \
    kings=[0,1,2,3,4,5,6,7,8,8,9,9,10,10,10,10,11,11,11,11,11,11,11,11,12,12,12,12,12,12,12,12]";

/// Reckless's nets (codedeliveryservice/Reckless 789de89, 2026-08-18: `struct Parameters`,
/// threat inputs, L1 768, 10 king buckets).
pub const RECKLESS: &str = "(768x10hm -> 768)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, l1act=crelu, \
    l2act=crelu, l1mul=512/4161600, scale=380, \
    buckets=[0,0,0,0,0,0,0,0,0,1,1,1,1,2,2,2,2,3,3,3,4,4,4,5,5,5,6,6,6,7,7,7,7], threats=reckless, \
    file=reckless, kings=[0,1,2,3,4,5,6,7,8,8,8,8,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9]";

/// PlentyChess's nets (Yoshie2000/PlentyChess 20878a8, 2026-06-28: `0179r.bin`, one LEB128
/// varint per value, pawn-pair and threat inputs, a skip connection into the output layer).
/// Its build for AVX-512 VBMI2 sums the sparse layer exactly; its AVX2 build in int16 pairs
/// (add `, l1sums=i16pairs`).
pub const PLENTYCHESS: &str = "(768x12hm -> 1024)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, dual, skip, \
    l1mul=512/4161600, scale=287, threats=pawnpairs+sf19, file=plentychess, \
    kings=[0,1,2,3,4,5,6,7,8,8,9,9,10,10,10,10,11,11,11,11,11,11,11,11,11,11,11,11,11,11,11,11]";

/// Stormphrax's nets (Ciekce/Stormphrax 70e84c1, 7.0.56, the last multi-layer version before
/// threat inputs): a `CBNF` header (which states the shape, not the arithmetic), shipped
/// zstd-compressed. Its size depends on the compression, so [`by_size`] doesn't list it.
pub const STORMPHRAX: &str = "(704x16hm -> 1792)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, l1shift=8, \
    scale=400, file=cbnf, \
    kings=[0,1,2,3,4,5,6,7,8,9,10,11,8,9,10,11,12,12,13,13,12,12,13,13,14,14,15,15,14,14,15,15]";

/// The engines' shipped headerless nets whose size follows from the description: whose, and
/// the description. (PlentyChess's varint files and Stormphrax's `CBNF` files are not among
/// them: see [`PLENTYCHESS`] and [`STORMPHRAX`].)
pub const HEADERLESS: [(&str, &str); 6] = [
    ("akimbo 0.7.0's", "(768 -> 512)x2 -> 1x8, crelu, qa=255, qb=64, scale=400"),
    ("pawnocchio's net20", "(768hm -> 1024)x2 -> 1x8, screlu, qa=255, qb=64, scale=400"),
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
