//! Named descriptions: a preset is an engine's (or a Stockfish release's) description by name,
//! so that `arch = "reckless"` reads Reckless's nets. Options after the name replace the
//! preset's option that sets the same thing, or are added: `plentychess, l1sums=i16pairs` is
//! PlentyChess's layout as its AVX2 build sums it. A preset parses to exactly the
//! [`Architecture`](crate::Architecture) its description does, and prints as that description.

use crate::known;

/// Every preset: its name and the description it stands for.
pub const PRESETS: [(&str, &str); 16] = [
    ("akimbo", known::HEADERLESS[0].1),
    ("pawnocchio", known::HEADERLESS[1].1),
    ("alexandria", known::ALEXANDRIA),
    ("integral", known::INTEGRAL),
    ("obsidian", known::OBSIDIAN),
    ("reckless", known::RECKLESS),
    ("plentychess", known::PLENTYCHESS),
    ("stormphrax7", known::STORMPHRAX),
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
        let base: LayeredArch = layered(known::RECKLESS);
        let scaled = layered("reckless, scale=400");
        assert_eq!((scaled.scale, LayeredArch { scale: base.scale, ..scaled }), (400, base));
        let plenty = layered("PlentyChess, l1sums=i16pairs");
        assert_eq!(plenty, layered(&format!("{}, l1sums=i16pairs", known::PLENTYCHESS)));
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
