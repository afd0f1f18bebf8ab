//! The small pieces of the description grammar that every form shares: numbers and top-level
//! comma lists.

/// A decimal number; a value past `usize` is an error, not truncated.
pub(crate) fn parse_num(s: &str) -> Result<usize, String> {
    s.parse().map_err(|e: std::num::ParseIntError| match e.kind() {
        std::num::IntErrorKind::PosOverflow => format!("`{s}` is out of range: expected at most {}", usize::MAX),
        _ => format!("`{s}` is not a number"),
    })
}

/// A number that must fit an `i32` (qa, qb, scale): larger values are errors, not truncated.
pub(crate) fn parse_i32(name: &str, s: &str) -> Result<i32, String> {
    let n = parse_num(s)?;
    i32::try_from(n).map_err(|_| format!("{name}={n} is out of range: expected at most {}", i32::MAX))
}

/// Splits at commas that are not inside brackets.
pub(crate) fn split_top_level(s: &str) -> Vec<String> {
    let (mut parts, mut depth, mut cur) = (Vec::new(), 0i32, String::new());
    for c in s.chars() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.is_empty() || !parts.is_empty() {
        parts.push(cur);
    }
    parts
}
