//! Reading what the commands take: a net (with an optional description), positions, games.

use nnue_runtime::format::{read_file_bytes, FileError, FileErrorKind};
use nnue_runtime::{Architecture, Net, Position};

use crate::Failure;

/// The bench positions built in (`data/positions.txt`).
pub const POSITIONS: &str = include_str!("../../data/positions.txt");
/// The games built in (`data/games.txt`): UCI moves from the start position, a game a line.
pub const GAMES: &str = include_str!("../../data/games.txt");

/// A description given on the command line.
pub fn arch(text: Option<&str>) -> Result<Option<Architecture>, Failure> {
    text.map(|t| t.parse::<Architecture>().map_err(|e| Failure(format!("--arch: {e}")))).transpose()
}

/// The file's bytes, checked as the library checks a file before reading it.
pub fn bytes(file: &str, arch: Option<&Architecture>) -> Result<Vec<u8>, Failure> {
    read_file_bytes(file, arch).map_err(|e| explain(e, arch.is_none()))
}

/// The net in `file`, read with the description `arch` if given. The error is the reader's
/// (file, offset, section), and for a headerless file read without a description, the layouts
/// its size fits.
pub fn net(file: &str, arch: Option<&str>) -> Result<Net, Failure> {
    let arch = self::arch(arch)?;
    let bytes = bytes(file, arch.as_ref())?;
    Net::from_bytes(&bytes, arch.as_ref()).map_err(|e| {
        let hint = if arch.is_none() { crate::identify::hint(&bytes) } else { String::new() };
        Failure(format!("{file}: {e}{hint}"))
    })
}

/// The net in `file`, as [`net`] reads it, for a command that evaluates it: refused when its
/// description has an engine-defined input block (`threats=custom:N`), whose code is the
/// engine's.
pub fn evaluable_net(file: &str, arch: Option<&str>) -> Result<Net, Failure> {
    let net = net(file, arch)?;
    if net.has_unbound_block() {
        return Err(Failure(format!(
            "{file}: its inputs include an engine-defined block (threats=custom:N), computed by the engine's own code: \
             nnue can inspect and convert such a net, not evaluate it"
        )));
    }
    Ok(net)
}

/// A file error, with what to do about a headerless file read without a description.
fn explain(e: FileError, no_arch: bool) -> Failure {
    let hint = match (&e.kind, no_arch) {
        (FileErrorKind::Format(_), true) => match std::fs::read(&e.path) {
            Ok(bytes) => crate::identify::hint(&bytes),
            Err(_) => String::new(),
        },
        _ => String::new(),
    };
    Failure(format!("{e}{hint}"))
}

/// The FENs of a text: one a line (`#` lines are comments), or the `fen` column of a TSV
/// whose first line is a header with one. Each with its text; `name` is for messages.
pub fn fens(text: &str, name: &str) -> Result<Vec<(String, Position)>, Failure> {
    let mut lines =
        text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let mut first = lines.next();
    let column = match first {
        Some((_, header)) if header.contains('\t') => {
            let column = header.split('\t').position(|h| h == "fen");
            if column.is_some() {
                first = None;
            }
            column
        }
        _ => None,
    };
    let mut out = Vec::new();
    for (number, line) in first.into_iter().chain(lines) {
        let fen = line.split('\t').nth(column.unwrap_or(0)).unwrap_or("").trim();
        let pos = Position::from_fen(fen).map_err(|e| Failure(format!("{name}:{number}: {fen:?}: {e}")))?;
        out.push((fen.to_string(), pos));
    }
    Ok(out)
}

/// The FENs of a file (see [`fens`]).
pub fn fens_from_file(file: &str) -> Result<Vec<(String, Position)>, Failure> {
    let text = std::fs::read_to_string(file).map_err(|e| Failure(format!("{file}: {e}")))?;
    fens(&text, file)
}

/// The positions of `file`, or the built-in bench positions.
pub fn positions(file: Option<&str>) -> Result<Vec<Position>, Failure> {
    let rows = match file {
        Some(f) => fens_from_file(f)?,
        None => fens(POSITIONS, "data/positions.txt")?,
    };
    Ok(rows.into_iter().map(|(_, p)| p).collect())
}

/// The games of a text: UCI moves from the start position, one game a line, or the `moves`
/// column of a TSV (rows that are prefixes of the next row are the same game, and dropped).
pub fn games(text: &str, name: &str) -> Result<Vec<Vec<String>>, Failure> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).peekable();
    let column = match lines.peek() {
        Some(header) if header.contains('\t') => {
            let column = header.split('\t').position(|h| h == "moves");
            let column = column.ok_or_else(|| Failure(format!("{name}: a TSV without a `moves` column")))?;
            lines.next();
            Some(column)
        }
        _ => None,
    };
    let rows: Vec<Vec<String>> = lines
        .map(|l| match column {
            Some(c) => l.split('\t').nth(c).unwrap_or(""),
            None => l,
        })
        .map(|moves| moves.split_whitespace().map(str::to_string).collect())
        .collect();
    let extends = |a: &Vec<String>, b: &Vec<String>| b.len() > a.len() && b.starts_with(a);
    let games: Vec<Vec<String>> = (0..rows.len())
        .filter(|&i| rows.get(i + 1).is_none_or(|next| !extends(&rows[i], next)))
        .map(|i| rows[i].clone())
        .filter(|g| !g.is_empty())
        .collect();
    if games.is_empty() {
        return Err(Failure(format!("{name}: no games")));
    }
    Ok(games)
}
