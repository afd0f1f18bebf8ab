//! Engines' headerless multi-layer nets, described: the descriptions that read their shipped
//! nets, and by size a hint for a file read without a description (which has nothing else to
//! say what it is: the error names the engine whose nets have its size, with the description;
//! another net may have the same size).

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

/// The engines' shipped headerless nets: whose, and the description.
const KNOWN: [(&str, &str); 6] = [
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

/// What to tell about a headerless file of `size` bytes read without a description.
pub(crate) fn headerless_hint(size: usize) -> Option<String> {
    KNOWN.iter().find_map(|(whose, text)| {
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
        let mut all: Vec<(usize, usize)> = KNOWN.iter().map(|(_, t)| sizes(&t.parse().unwrap()).unwrap()).collect();
        for (i, (exact, padded)) in all.iter().enumerate() {
            let hint = headerless_hint(*exact).unwrap();
            assert!(hint.contains(KNOWN[i].0) && hint.contains(KNOWN[i].1), "{hint}");
            assert_eq!(headerless_hint(*padded), Some(hint.replace(&exact.to_string(), &padded.to_string())));
        }
        all.sort();
        all.dedup_by(|a, b| a.0 == b.0 || a.1 == b.1 || a.0 == b.1 || a.1 == b.0);
        assert_eq!(all.len(), KNOWN.len());
        assert_eq!(headerless_hint(12345), None);
    }
}
