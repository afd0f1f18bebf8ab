//! Named descriptions: a preset is an engine's (or a Stockfish release's) description by name,
//! so that `arch = "reckless"` reads Reckless's nets. Options after the name replace the
//! preset's option that sets the same thing, or are added: `plentychess, l1sums=i16pairs` is
//! PlentyChess's layout as its AVX2 build sums it. A preset parses to exactly the
//! [`Architecture`](crate::Architecture) its description does, and prints as that description.

/// akimbo 0.7.0's net (bullet, `(768 -> 512)x2 -> 1x8`).
pub const AKIMBO: &str = "(768 -> 512)x2 -> 1x8, crelu, qa=255, qb=64, scale=400";

/// pawnocchio's net20 (bullet, king-mirrored, SCReLU).
pub const PAWNOCCHIO: &str = "(768hm -> 1024)x2 -> 1x8, screlu, qa=255, qb=64, scale=400";

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
/// zstd-compressed. Its size depends on the compression, so [`by_size`](crate::known::by_size) doesn't list it.
pub const STORMPHRAX: &str = "(704x16hm -> 1792)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, l1shift=8, \
    scale=400, file=cbnf, \
    kings=[0,1,2,3,4,5,6,7,8,9,10,11,8,9,10,11,12,12,13,13,12,12,13,13,14,14,15,15,14,14,15,15]";

/// Viridithas's nets (cosmobobak/viridithas 8bc0706, 2026-08-08: `struct QuantisedNetwork`,
/// shipped zstd-compressed): merged-king piece-square inputs beside pawn-pair and threat
/// inputs, a hard-swish after the sparse layer, SwiGLU and a residual connection after the
/// dense one. Its builds with VNNI sum the sparse layer exactly; its AVX2 build adds two
/// groups' `maddubs` products in int16 (four groups at a time, in its permuted neuron order),
/// which only large sparse weights can make differ.
pub const VIRIDITHAS: &str = "(704x16hm -> 1024)x2 -> pairwise>>9 -> (32 -> 64 -> 1)x8, f32, l1act=hardswish, \
    l2act=swiglu, residual, l1mul=512/4161600, scale=240, threats=pawnpairs+sf19, file=viridithas, \
    kings=[0,1,2,3,4,5,6,7,8,9,10,11,8,9,10,11,12,12,13,13,12,12,13,13,14,14,15,15,14,14,15,15]";

/// Stormphrax 8's nets (Ciekce/Stormphrax 2402cae, 2026-07-29): Stockfish 19's pawn-pair and
/// threat inputs (its PR #341) after merged-king piece-square ones, L1 1024, a dual activation
/// in its PR #342's quantisation (`wide`) whose values are added to the dense layer's clamped
/// output (`skip`: its skip over L2), `CBNF` header.
pub const STORMPHRAX8: &str = "(704x16hm -> 1024)x2 -> pairwise>>9 -> (32 -> 64 -> 1)x8, i32, dual, wide, skip, q=64, \
    l1shift=2, scale=400, threats=pawnpairs+sf19, file=cbnf, \
    kings=[0,1,2,3,4,5,6,7,8,9,10,11,8,9,10,11,12,12,13,13,12,12,13,13,14,14,15,15,14,14,15,15]";

/// Caissa's nets (Witek902/Caissa ff86922, 2026-08-22: `PackedNeuralNetwork` version 12, its
/// `CSNN` file): 32 mirrored king buckets (one per square of the king's half), 1024 SCReLU
/// neurons, 8 output buckets; the output is the network's own (`bias + Σ/255`, in 1/16384 of
/// a trained unit), before the engine's evaluation divides it and adds its own terms.
pub const CAISSA: &str = "(768x32hm -> 1024)x2 -> 1x8, screlu, qa=255, scale=none, file=caissa, \
    kings=[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31]";

/// cinder's nets (brunocodutra/cinder c72467a, v0.6.1, 2026-08-21: `lib/nnue.rs`, shipped
/// zstd-compressed): piece-square inputs with kings on their own planes beside Stockfish 19's
/// pawn pairs and threats (mirrored with the king on files a–d: the file's rows are put in our
/// order at load), a rounded pairwise product of halves clamped at 127, signed squares after
/// the sparse layer and two f32 dense layers each summed in four fma chains, an output over 8
/// lanes with a residual from the first activation, times 75, converted to int16 and clamped
/// to ±7871 (its `Value`, before its search's own rescaling). The f32 orders are its AVX2
/// build's (`target-cpu=x86-64-v3`).
pub const CINDER: &str = "(768x16hm -> 1024)x2 -> pairwise>>7 -> (16 -> 16 -> 16 -> 1)x8, f32, l1act=signedsquare, \
    l2act=signedsquare, skip, l1mul=128/1209675, ftmax=127, ftround, l2chains=4, outlanes=8, scale=75, outclamp=7871, \
    buckets=[0,0,0,0,0,1,1,1,1,2,2,2,2,3,3,3,3,4,4,4,4,5,5,5,5,6,6,6,6,7,7,7,7], threats=pawnpairs+sf19, file=cinder, \
    kings=[0,1,2,3,4,5,6,7,8,9,10,11,8,9,10,11,12,13,14,15,12,13,14,15,12,13,14,15,12,13,14,15]";

/// Every preset: its name and the description it stands for.
pub const PRESETS: [(&str, &str); 20] = [
    ("akimbo", AKIMBO),
    ("pawnocchio", PAWNOCCHIO),
    ("caissa", CAISSA),
    ("alexandria", ALEXANDRIA),
    ("integral", INTEGRAL),
    ("obsidian", OBSIDIAN),
    ("reckless", RECKLESS),
    ("plentychess", PLENTYCHESS),
    ("viridithas", VIRIDITHAS),
    ("cinder", CINDER),
    ("stormphrax7", STORMPHRAX),
    ("stormphrax", STORMPHRAX8),
    ("stockfish13", "HalfKP -> 256x2 -> 32 -> 32 -> 1"),
    ("stockfish17.1-big", "HalfKAv2_hm -> 3072x2 -> (15+1 -> 32 -> 1)x8, psqt=8"),
    ("stockfish17.1-small", "HalfKAv2_hm -> 128x2 -> (15+1 -> 32 -> 1)x8, psqt=8"),
    ("stockfish18-big", "HalfKAv2_hm+Threats -> 1024x2 -> (15+1 -> 32 -> 1)x8, psqt=8"),
    ("stockfish18-small", "HalfKAv2_hm -> 128x2 -> (15+1 -> 32 -> 1)x8, psqt=8"),
    ("stockfish19-big", "HalfKAv2_hm+Threats19+PawnPairs -> 1024x2 -> (32 -> 32 -> 1)x8, psqt=8"),
    ("stockfish19-lite", "PSQ768hm -> 1024x2 -> (32 -> 32 -> 1)x8, psqt=8"),
    ("sfnnv17", "HalfKAv2_hm+Threats19+PawnPairs -> 1024x2 -> (32 -> 32 -> 1)x8, psqt=0"),
];

/// The description of preset `name` (compared without case), if it is one.
pub fn preset(name: &str) -> Option<&'static str> {
    PRESETS.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|&(_, d)| d)
}

/// The preset names, for messages.
pub(crate) fn names() -> String {
    PRESETS.map(|(n, _)| n).join(", ")
}

/// `preset`'s options (lowercased, without whitespace, split at the top level) with each of
/// `given` replacing the preset option that sets the same thing (`same`), or appended.
pub(crate) fn merge(preset: &[String], given: &[String], same: impl Fn(&str) -> &str) -> Vec<String> {
    let mut merged = preset.to_vec();
    for opt in given {
        match merged.iter_mut().skip(1).find(|p| same(p) == same(opt)) {
            Some(p) => p.clone_from(opt),
            None => merged.push(opt.clone()),
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Architecture, LayeredArch};

    #[test]
    fn every_preset_is_its_description() {
        for (name, description) in PRESETS {
            let by_name: Architecture = name.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(by_name, description.parse::<Architecture>().unwrap(), "{name}");
            assert_eq!(name.to_uppercase().parse::<Architecture>().unwrap(), by_name, "{name}: case");
            // It prints as the description, which parses back to it.
            assert_eq!(by_name.to_string().parse::<Architecture>().unwrap(), by_name, "{name}");
        }
    }

    #[test]
    fn options_after_a_preset_replace_or_add() {
        let layered = |text: &str| match text.parse::<Architecture>() {
            Ok(Architecture::Layered(a)) => a,
            other => panic!("{text}: {other:?}"),
        };
        let base: LayeredArch = layered(RECKLESS);
        let scaled = layered("reckless, scale=400");
        assert_eq!((scaled.scale, LayeredArch { scale: base.scale, ..scaled }), (400, base));
        let plenty = layered("PlentyChess, l1sums=i16pairs");
        assert_eq!(plenty, layered(&format!("{PLENTYCHESS}, l1sums=i16pairs")));
        let viri = layered("viridithas, l1sums=viridithas-avx2");
        assert_eq!(viri.l1_sums, crate::L1Sums::ViridithasAvx2);
        assert_eq!(viri, layered(&format!("{VIRIDITHAS}, l1sums=viridithas-avx2")));
        // An option the preset's shape doesn't take is the description's error.
        let err = "stockfish17.1-big, scale=400".parse::<Architecture>().unwrap_err();
        assert!(err.reason.contains("preset stockfish17.1-big"), "{err}");
        // The same option twice after the name is an error naming both, as anywhere.
        let err = "reckless, scale=1, scale=2".parse::<Architecture>().unwrap_err();
        assert!(err.reason.contains("`scale=1` and `scale=2`"), "{err}");
    }

    #[test]
    fn an_unknown_name_lists_the_presets() {
        let err = "recklesss".parse::<Architecture>().unwrap_err();
        assert!(err.reason.contains("reckless, plentychess"), "{err}");
    }
}
