//! The text form of [`Layers`]: what `Display` prints, read back. One line per stage: the
//! bucket rule, the transform, one step per line, then the output. `·`, `²` and `++` may be
//! written `*`, `^2` and `++`; runs of spaces count as one. The trace steps (what
//! `trace_on` records) are not part of the text. Each step kind reads and prints its own
//! line ([`super::step`]) with the helpers here.

use std::str::FromStr;

use super::{Bucket, Layers, Param, Reg, Step, Transform};
use crate::layered::BucketRule;

/// A line of the text that is not a stage of a net, with its number (from 1) and what was
/// expected there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("layers, line {line}: {message}")]
pub struct LayersError {
    /// The line, counting from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// `s` against `pattern`, whose `{}` each capture the shortest text before the literal that
/// follows (or the rest): the captures, if it matches.
pub(crate) fn captures<'a>(s: &'a str, pattern: &str) -> Option<Vec<&'a str>> {
    let mut parts = pattern.split("{}");
    let first = parts.next().unwrap_or("");
    let mut rest = s.strip_prefix(first)?;
    let mut out = Vec::new();
    let parts: Vec<&str> = parts.collect();
    for (k, lit) in parts.iter().enumerate() {
        let last = k + 1 == parts.len();
        let end = if lit.is_empty() {
            if last {
                rest.len()
            } else {
                return None;
            }
        } else if last {
            // The final literal ends the line.
            rest.strip_suffix(lit).map(str::len)?
        } else {
            rest.find(lit)?
        };
        out.push(rest[..end].trim());
        rest = &rest[end + lit.len()..];
    }
    rest.is_empty().then_some(out)
}

/// `s` in the form `pattern` (see [`captures`]): `None` if it is not; else what `read` makes
/// of the captures (`None`: not a step of the form's kind).
pub(crate) fn form<T>(s: &str, pattern: &str, read: impl FnOnce(&[&str]) -> Option<T>) -> Option<Option<T>> {
    captures(s, pattern).map(|v| read(&v))
}

/// `2^bits` as the text form writes it: the number (any exponent a step can hold prints, even
/// one no net has and `check_fits` refuses).
pub(crate) fn pow2(bits: u32) -> String {
    1u128.checked_shl(bits).map_or_else(|| format!("2^{bits}"), |v| v.to_string())
}

/// A register, `rN`.
pub(crate) fn reg(s: &str) -> Option<Reg> {
    s.strip_prefix('r')?.parse().ok()
}

/// A layer's weights by name (`fc0`, `l1`, `out`, …).
pub(crate) fn param(s: &str) -> Option<Param> {
    Some(match s {
        "fc0" => Param::Fc0,
        "fc1" => Param::Fc1,
        "fc2" => Param::Fc2,
        "l1" => Param::L1,
        "l2" => Param::L2,
        "l3" => Param::L3,
        "l3b" => Param::L3b,
        "out" => Param::Out,
        _ => return None,
    })
}

/// A number.
pub(crate) fn num<T: FromStr>(s: &str) -> Option<T> {
    s.parse().ok()
}

/// `2^bits` as written (a power of two), its exponent.
pub(crate) fn log2(s: &str) -> Option<u32> {
    let q: u32 = num(s)?;
    q.is_power_of_two().then(|| q.trailing_zeros())
}

/// ASCII forms to the printed ones, runs of spaces to one.
fn normalise(line: &str) -> String {
    let line = line.replace('*', "·").replace("^2", "²");
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl FromStr for Layers {
    type Err = LayersError;

    fn from_str(text: &str) -> Result<Layers, LayersError> {
        let lines: Vec<(usize, String)> =
            text.lines().enumerate().map(|(i, l)| (i + 1, normalise(l))).filter(|(_, l)| !l.is_empty()).collect();
        let err = |line: usize, message: String| LayersError { line, message };
        // Lines are quoted cut (a 20 MB line once came back whole).
        let shown = crate::error::shown;
        let mut it = lines.iter();
        let (n, first) = it.next().ok_or_else(|| err(1, "empty: expected `bucket …`".into()))?;
        let bucket = match first.as_str() {
            "bucket 0" => Bucket::Single,
            "bucket (pieces - 1) / 4" => Bucket::Stockfish,
            "bucket min((63 - pieces)(32 - pieces) / 225, 7)" => Bucket::Rule(BucketRule::Alexandria, 8),
            other if other.starts_with("bucket [") => {
                let table = other
                    .strip_prefix("bucket ")
                    .and_then(|t| t.strip_suffix("[pieces]"))
                    .map(|t| t.replace(' ', ""))
                    .and_then(|t| crate::layered::parse_bucket_table(&t).ok())
                    .ok_or_else(|| {
                        err(*n, format!("expected `bucket [b0, b1, ..., b32][pieces]`, found `{}`", shown(other)))
                    })?;
                let buckets = usize::from(table[2..].iter().copied().max().unwrap_or(0)) + 1;
                Bucket::Rule(BucketRule::Table(table), buckets)
            }
            other => match captures(other, "bucket (pieces - 2) / ceil(32 / {})").and_then(|v| num(v[0])) {
                Some(b) if (1..=32).contains(&b) => Bucket::Rule(BucketRule::Material, b),
                _ => {
                    let expected = "`bucket 0`, `bucket (pieces - 1) / 4`, `bucket (pieces - 2) / ceil(32 / B)` or \
                                    `bucket min((63 - pieces)(32 - pieces) / 225, 7)`";
                    return Err(err(*n, format!("expected {expected}, found `{}`", shown(other))));
                }
            },
        };
        let (n, second) = it.next().ok_or_else(|| err(n + 1, "expected the transform `r0 = …`".into()))?;
        let rounded =
            captures(second, "r0 = (clamp(a, 0, {}) · clamp(a', 0, {}) + {}) >> {}, per half, side to move first");
        let transform = if let Some(v) = rounded {
            match (num::<i32>(v[0]), num::<u32>(v[3])) {
                (Some(max), Some(shift)) if v[0] == v[1] && shift > 0 && v[2] == pow2(shift - 1) => {
                    Transform::Pairwise { max, shift, round: true }
                }
                _ => {
                    return Err(err(
                        *n,
                        format!(
                            "a rounded pairwise transform clamps both halves alike and adds half the shift's unit, found `{}`",
                            shown(second)
                        ),
                    ))
                }
            }
        } else if let Some(v) =
            captures(second, "r0 = clamp(a, 0, {}) · clamp(a', 0, {}) >> {}, per half, side to move first")
        {
            match (num::<i32>(v[0]), num::<u32>(v[2])) {
                (Some(max), Some(shift)) if v[0] == v[1] => Transform::Pairwise { max, shift, round: false },
                _ => {
                    return Err(err(
                        *n,
                        format!("a pairwise transform clamps both halves alike, found `{}`", shown(second)),
                    ))
                }
            }
        } else if let Some(v) = captures(second, "r0 = clamp(acc, 0, {}), side to move first{}") {
            let bytes = match v[1] {
                "" => false,
                "(bytes)" => true,
                _ => return Err(err(*n, format!("unexpected `{}` after the transform", shown(v[1])))),
            };
            match num(v[0]) {
                Some(max) => Transform::Clipped { max, bytes },
                None => return Err(err(*n, format!("expected a number, found `{}`", shown(v[0])))),
            }
        } else {
            return Err(err(
                *n,
                format!("expected `r0 = clamp(a, 0, M) · clamp(a', 0, M) >> S, per half, side to move first` or `r0 = clamp(acc, 0, M), side to move first`, found `{}`", shown(second)),
            ));
        };
        let mut steps = Vec::new();
        for (n, line) in it {
            if let Some(v) = captures(line, "positional = {}") {
                let (positional, psqt_div) = match captures(v[0], "{}; psqt = (us - them) / 2 / {}") {
                    Some(w) => (reg(w[0]), num(w[1]).map(Some)),
                    None => (reg(v[0]), Some(None)),
                };
                let (Some(positional), Some(psqt_div)) = (positional, psqt_div) else {
                    return Err(err(
                        *n,
                        format!("expected `positional = rN[; psqt = (us - them) / 2 / D]`, found `{}`", shown(line)),
                    ));
                };
                if let Some(extra) = lines.iter().find(|(m, _)| m > n) {
                    return Err(err(extra.0, format!("nothing follows the output line, found `{}`", shown(&extra.1))));
                }
                return Ok(Layers { bucket, transform, steps, positional, psqt_div });
            }
            let parsed = captures(line, "{} = {}").and_then(|v| Step::parse(v[1], reg(v[0])?));
            match parsed {
                Some(s) => steps.push(s),
                None => {
                    return Err(err(
                        *n,
                        format!(
                            "not a step: `{}` (the forms are in `nnue_format::layers`' documentation)",
                            shown(line)
                        ),
                    ))
                }
            }
        }
        Err(err(lines.last().map_or(1, |l| l.0 + 1), "expected the output line `positional = rN`".into()))
    }
}

impl Layers {
    /// The steps that compute, without the trace steps.
    pub fn computing_steps(&self) -> impl Iterator<Item = &Step> {
        self.steps.iter().filter(|s| !matches!(s, Step::Trace { .. }))
    }

    /// Whether `self` and `other` compute the same (their trace steps aside).
    pub fn computes_as(&self, other: &Layers) -> bool {
        (self.bucket, self.transform, self.positional, self.psqt_div)
            == (other.bucket, other.transform, other.positional, other.psqt_div)
            && self.computing_steps().eq(other.computing_steps())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layers::step::*;
    use crate::Architecture;

    /// A 20 MB line came back whole in the error: it is cut now, with its size.
    #[test]
    fn a_huge_line_is_quoted_cut() {
        let own = Architecture::Sfnn(crate::SfnnArch { l1: 128 }).layers().to_string();
        let huge = format!("r99 = {}", "x".repeat(20 << 20));
        for (from, to) in [("r1 = ", &format!("{huge}\nr1 = ")[..]), ("bucket", &huge[..])] {
            let text = own.replacen(from, to, 1);
            let e = text.parse::<Layers>().unwrap_err().to_string();
            assert!(e.len() < 1000 && e.contains("… ("), "{} bytes: {}", e.len(), &e[..e.len().min(300)]);
        }
    }

    /// HalfKP's layers written by hand, in ASCII and with spaces of one's own.
    #[test]
    fn a_hand_written_text_reads() {
        let text = "
            bucket 0
            r0 = clamp(acc, 0, 127), side to move first (bytes)
            r1 = fc0 * r0 + b (int8)
            r2 = clamp(r1 >> 6, 0, 127)
            r3 = fc1 * r2 + b (int8)
            r4 = clamp(r3 >> 6, 0, 127)
            r5 = fc2 * r4 + b (int8)
            r6 = r5 / 16
            positional = r6
        ";
        let layers: Layers = text.parse().unwrap();
        let arch: Architecture = "HalfKP -> 256x2 -> 32 -> 32 -> 1".parse().unwrap();
        assert!(layers.computes_as(&arch.layers()));
        // One shift changed is another net.
        let other: Layers = text.replace("r3 >> 6", "r3 >> 7").parse().unwrap();
        assert!(!other.computes_as(&arch.layers()));
    }

    /// The f32 activations read as they print (`0.0, 1.0`) and as they printed before; the
    /// int32 clamp at 1 stays an int32 clamp.
    #[test]
    fn f32_clamps_read_in_both_forms() {
        for (rhs, want) in [
            ("clamp(r2, 0.0, 1.0)²", Step::ScreluF32(ScreluF32 { input: 2, out: 3 })),
            ("clamp(r2, 0, 1)²", Step::ScreluF32(ScreluF32 { input: 2, out: 3 })),
            ("clamp(r2, 0.0, 1.0) ++ min(r2², 1.0)", Step::DualF32(DualF32 { input: 2, out: 3 })),
            ("clamp(r2, 0, 1) ++ min(r2², 1)", Step::DualF32(DualF32 { input: 2, out: 3 })),
            ("clamp(r2, 0.0, 1.0)", Step::ClampF32(ClampF32 { input: 2, out: 3 })),
            ("clamp(r2, 0, 1)", Step::Clamp(Clamp { input: 2, max: 1, out: 3 })),
        ] {
            assert_eq!(Step::parse(rhs, 3), Some(want), "{rhs}");
        }
    }

    #[test]
    fn a_line_that_is_no_stage_is_named() {
        let arch: Architecture = "HalfKP -> 256x2 -> 32 -> 32 -> 1".parse().unwrap();
        let text = arch.layers().to_string();
        let cases = [
            (text.replace("bucket 0", "bucket 1"), 1, "expected `bucket 0`"),
            (text.replace("clamp(acc, 0, 127)", "clamp(acc, 0, x)"), 2, "expected a number"),
            (text.replace("r2 = clamp(r1 >> 6, 0, 127)", "r2 = clip(r1)"), 4, "not a step: `r2 = clip(r1)`"),
            (text.replace("positional = r6", "positional = six"), 9, "expected `positional = rN"),
            (text.replace("positional = r6", ""), 9, "expected the output line"),
            (format!("{text}\nr7 = r6 / 2"), 10, "nothing follows the output line"),
            (String::new(), 1, "empty"),
        ];
        for (text, line, message) in cases {
            let e = text.parse::<Layers>().unwrap_err();
            assert_eq!(e.line, line, "{e}");
            assert!(e.to_string().contains(message), "{e}");
        }
    }

    /// A backwards or empty slice is not a step (it panicked on the length's subtraction,
    /// found by `own_layers`' mutated texts).
    #[test]
    fn a_backwards_slice_is_no_step() {
        assert_eq!(Step::parse("r1[0..15]", 2), Some(Step::Slice(Slice { input: 1, start: 0, len: 15, out: 2 })));
        for rhs in ["r1[15..0]", "r1[3..3]", "r1[18446744073709551615..0]"] {
            assert_eq!(Step::parse(rhs, 2), None, "{rhs}");
        }
    }

    #[test]
    fn captures_take_the_shortest_text_before_each_literal() {
        assert_eq!(captures("r1[0..15]", "{}[{}..{}]"), Some(vec!["r1", "0", "15"]));
        assert_eq!(captures("clamp(r2, 0, 1)²", "clamp({}, 0, {})²"), Some(vec!["r2", "1"]));
        assert_eq!(captures("clamp(r2, 0, 1)", "clamp({}, 0, {})²"), None);
        assert_eq!(captures("r1 = x", "{} = {}"), Some(vec!["r1", "x"]));
    }
}
