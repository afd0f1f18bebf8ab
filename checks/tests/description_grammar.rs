//! The description grammar as a property: every description prints to a text that parses back
//! to the same value (and prints the same again), and any option stated twice, the same or
//! contradicting, is refused with a message naming both.

use nnue_runtime::format::Architecture;
use proptest::prelude::*;

/// A king-bucket map: `count` buckets over 32 squares (mirrored) or 64, every bucket used.
fn kings(mirrored: bool, count: usize) -> impl Strategy<Value = Vec<usize>> {
    let squares = if mirrored { 32 } else { 64 };
    prop::collection::vec(0..count, squares).prop_map(move |mut map| {
        // Every bucket below the count appears: the first squares take one each.
        for (b, sq) in map.iter_mut().take(count).enumerate() {
            *sq = b;
        }
        map
    })
}

/// The `(768[xK][hm] -> …` part and the `kings=[…]` option of a description.
fn inputs() -> impl Strategy<Value = (String, Option<String>)> {
    (any::<bool>(), 1usize..=6).prop_flat_map(|(mirrored, count)| {
        kings(mirrored, count).prop_map(move |map| {
            let hm = if mirrored { "hm" } else { "" };
            if count == 1 {
                (format!("768{hm}"), None)
            } else {
                let list: Vec<String> = map.iter().map(usize::to_string).collect();
                (format!("768x{count}{hm}"), Some(format!("kings=[{}]", list.join(","))))
            }
        })
    })
}

/// Single-layer chess-768 descriptions, as bullet trains them.
fn chess768() -> impl Strategy<Value = String> {
    (inputs(), 1usize..=8, 1usize..=8, any::<bool>(), 1i32..=32767, 1i32..=32767, 1i32..=100_000, any::<bool>())
        .prop_map(|((input, kings), hidden, buckets, screlu, qa, qb, scale, transposed)| {
            let out = if buckets == 1 { String::new() } else { format!("x{buckets}") };
            let act = if screlu { "screlu" } else { "crelu" };
            let mut text = format!("({input} -> {})x2 -> 1{out}, {act}, qa={qa}, qb={qb}, scale={scale}", 32 * hidden);
            if transposed {
                text.push_str(", out=[2N][B]");
            }
            if let Some(k) = kings {
                text = format!("{text}, {k}");
            }
            text
        })
}

/// Multi-layer descriptions in every file layout without threat inputs.
fn layered() -> impl Strategy<Value = String> {
    let file = prop::sample::select(vec!["alexandria", "obsidian", "bullet"]);
    (inputs(), 1usize..=4, 1usize..=8, file, any::<bool>(), 9u32..=15).prop_map(
        |((input, kings), width, buckets, file, dual, shift)| {
            let act = if dual { "dual" } else { "l1act=crelu" };
            let mut text = format!(
                "({input} -> {})x2 -> pairwise>>{shift} -> (16 -> 32 -> 1)x{buckets}, f32, {act}, \
                 l1mul=1024/4161600, scale=400, file={file}",
                64 * width
            );
            if let Some(k) = kings {
                text = format!("{text}, {k}");
            }
            text
        },
    )
}

/// Stockfish's families, every L1 width their grammar takes.
fn stockfish() -> impl Strategy<Value = String> {
    (1usize..=48, 0usize..6).prop_map(|(k, family)| {
        let l1 = 64 * k;
        match family {
            0 => format!("HalfKAv2_hm -> {l1}x2 -> (15+1 -> 32 -> 1)x8, psqt=8"),
            1 => format!("HalfKAv2_hm+Threats -> {l1}x2 -> (15+1 -> 32 -> 1)x8, psqt=8"),
            2 => format!("HalfKAv2_hm+Threats19+PawnPairs -> {l1}x2 -> (32 -> 32 -> 1)x8, psqt=8"),
            3 => format!("HalfKAv2_hm+Threats19+PawnPairs -> {l1}x2 -> (32 -> 32 -> 1)x8, psqt=0"),
            4 => format!("PSQ768hm -> {l1}x2 -> (32 -> 32 -> 1)x8, psqt=8"),
            _ => format!("HalfKP -> {l1}x2 -> 32 -> 32 -> 1"),
        }
    })
}

fn description() -> impl Strategy<Value = String> {
    prop_oneof![chess768(), layered(), stockfish()]
}

/// Pairs of options that set the same thing, for the descriptions they fit.
const CHESS768_PAIRS: [(&str, &str); 6] = [
    ("crelu", "screlu"),
    ("crelu", "crelu"),
    ("qa=255", "qa=181"),
    ("qb=64", "qb=64"),
    ("scale=400", "scale=300"),
    ("out=[2N][B]", "out=[B][2N]"),
];
const LAYERED_PAIRS: [(&str, &str); 6] = [
    ("f32", "i32"),
    ("file=bullet", "file=cbnf"),
    ("l1sums=i16pairs", "l1sums=exact"),
    ("scale=400", "scale=362"),
    ("l1act=crelu", "dual"),
    ("buckets=material", "buckets=(63-p)(32-p)/225"),
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_description_prints_to_a_text_that_parses_back(text in description()) {
        let arch: Architecture = text.parse().map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        let printed = arch.to_string();
        let again: Architecture = printed.parse().map_err(|e| TestCaseError::fail(format!("{printed}: {e}")))?;
        prop_assert_eq!(&again, &arch, "{} printed as {}", text, printed);
        prop_assert_eq!(again.to_string(), printed);
    }

    #[test]
    fn an_option_stated_twice_is_refused_naming_both(
        base in prop_oneof![chess768().prop_map(|t| (t, false)), layered().prop_map(|t| (t, true))],
        pair in 0usize..6,
        swap in any::<bool>(),
    ) {
        let (text, layered) = base;
        let (a, b) = if layered { LAYERED_PAIRS[pair] } else { CHESS768_PAIRS[pair] };
        let (a, b) = if swap { (b, a) } else { (a, b) };
        let doubled = format!("{text}, {a}, {b}");
        let e = doubled.parse::<Architecture>().map(|a| a.to_string());
        let message = match e {
            Ok(parsed) => return Err(TestCaseError::fail(format!("{doubled} was accepted as {parsed}"))),
            Err(e) => e.to_string(),
        };
        // The first option added is named: beside the base's own option of its kind, if the
        // base has one, else beside the second.
        // (Options are matched, and quoted, lower-cased.)
        prop_assert!(message.contains(&format!("`{}`", a.to_lowercase())), "{doubled}: {message}");
        prop_assert!(message.contains("both set"), "{doubled}: {message}");
    }
}
