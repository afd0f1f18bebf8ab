//! `nnue check`: every row of an oracle file, evaluated and compared.
//!
//! Two forms: the engines' (`tests/oracles/*.tsv`, `../shared/oracle/bullet-*.tsv`): columns
//! `fen`, `eval` (and `moves`, the UCI moves reaching the FEN, not needed here): the
//! evaluation's total; Stockfish's (`stockfish*-eval.tsv`, `games*.tsv`, `overflow-eval.tsv`):
//! `fen`, `bucket` and a pair `X_psqt`, `X_positional` per net (`big`, `small`, `sf18_big`,
//! ...): the bucket, the PSQT and the positional value, each exactly (Stockfish 13's
//! `halfkp` column: the total).

use nnue_runtime::format::{Architecture, Sf19Inputs};
use nnue_runtime::{Evaluation, Evaluator, Position};

use crate::{load, Failure, Outcome};

/// What a row expects.
enum Expected {
    /// The total.
    Eval(i32),
    /// Stockfish's bucket, PSQT and positional values.
    Stockfish { bucket: usize, psqt: i32, positional: i32 },
}

impl Expected {
    fn matches(&self, e: &Evaluation) -> bool {
        match *self {
            Expected::Eval(v) => e.total() == v,
            Expected::Stockfish { bucket, psqt, positional } => {
                (e.bucket, e.psqt, e.positional) == (bucket, psqt, positional)
            }
        }
    }

    fn show(&self) -> String {
        match self {
            Expected::Eval(v) => format!("{v}"),
            Expected::Stockfish { bucket, psqt, positional } => {
                format!("bucket={bucket} psqt={psqt} positional={positional} total={}", psqt + positional)
            }
        }
    }
}

/// The columns that hold a whole evaluation (its total).
const SINGLE: [&str; 2] = ["eval", "halfkp"];

/// The value columns of a Stockfish oracle that suit the net, when the file has several.
fn default_column(arch: &Architecture, prefixes: &[String]) -> Option<String> {
    let wanted: &[&str] = match arch {
        Architecture::Sfnn(a) if a.l1 >= 1024 => &["big"],
        Architecture::Sfnn(_) => &["small"],
        Architecture::HalfKp(_) => &["halfkp"],
        Architecture::Threats(_) => &["sf18_big"],
        Architecture::Sf19(a) if a.inputs == Sf19Inputs::Lite => &["sf19_lite"],
        Architecture::Sf19(_) => &["sf19_big"],
        _ => &["eval"],
    };
    wanted.iter().find(|w| prefixes.iter().any(|p| p == *w)).map(|w| w.to_string())
}

/// Checks `file` against the oracle; fails naming the first row that differs.
pub fn run(file: &str, arch: Option<&str>, oracle: &str, column: Option<&str>) -> Outcome {
    let net = load::net(file, arch)?;
    let text = std::fs::read_to_string(oracle).map_err(|e| Failure(format!("{oracle}: {e}")))?;
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let header: Vec<&str> = lines.next().map(|(_, h)| h.split('\t').collect()).unwrap_or_default();
    let col = |name: &str| header.iter().position(|h| *h == name);
    let fen = col("fen").ok_or_else(|| Failure(format!("{oracle}: no `fen` column in the header line")))?;
    // `eval`, or the prefixes of the `X_psqt`/`X_positional` pairs.
    let mut prefixes: Vec<String> = header
        .iter()
        .filter_map(|h| h.strip_suffix("_positional"))
        .filter(|p| col(&format!("{p}_psqt")).is_some())
        .map(str::to_string)
        .collect();
    // Single-value columns: the engines' `eval`, Stockfish 13's `halfkp` (no PSQT, bucket 0).
    prefixes.extend(SINGLE.iter().filter(|c| col(c).is_some()).map(|c| c.to_string()));
    let which = match column {
        Some(c) if prefixes.iter().any(|p| p == c) => c.to_string(),
        Some(c) => {
            return Err(Failure(format!("{oracle}: no `{c}` value columns; it has: {}", prefixes.join(", "))));
        }
        None => match (prefixes.len(), default_column(&net.arch(), &prefixes)) {
            (_, Some(c)) => c,
            (1, None) => prefixes[0].clone(),
            _ => {
                return Err(Failure(format!(
                    "{oracle}: which values are this net's? choose with --column one of: {}",
                    if prefixes.is_empty() {
                        "(none: no `eval` or `X_psqt`/`X_positional` columns)".into()
                    } else {
                        prefixes.join(", ")
                    }
                )))
            }
        },
    };
    let single = SINGLE.contains(&which.as_str());
    let columns: Vec<usize> = if single {
        vec![col(&which).unwrap_or(0)]
    } else {
        let bucket = col("bucket").ok_or_else(|| Failure(format!("{oracle}: no `bucket` column")))?;
        vec![bucket, col(&format!("{which}_psqt")).unwrap_or(0), col(&format!("{which}_positional")).unwrap_or(0)]
    };
    let eval = Evaluator::new(&net);
    let mut count = 0;
    for (i, line) in lines {
        let number = i + 1;
        let fields: Vec<&str> = line.split('\t').collect();
        let field = |c: usize| -> Result<&str, Failure> {
            fields
                .get(c)
                .copied()
                .ok_or_else(|| Failure(format!("{oracle}:{number}: {} fields, no column {}", fields.len(), c + 1)))
        };
        let int = |c: usize| -> Result<i64, Failure> {
            let v = field(c)?;
            v.trim()
                .parse::<i64>()
                .map_err(|_| Failure(format!("{oracle}:{number}: `{v}` in column `{}` is not an integer", header[c])))
        };
        let fen_text = field(fen)?;
        let pos = Position::from_fen(fen_text).map_err(|e| Failure(format!("{oracle}:{number}: {fen_text:?}: {e}")))?;
        let narrow = |v: i64| i32::try_from(v).map_err(|_| Failure(format!("{oracle}:{number}: {v} is out of range")));
        let expected = if single {
            Expected::Eval(narrow(int(columns[0])?)?)
        } else {
            Expected::Stockfish {
                bucket: usize::try_from(int(columns[0])?)
                    .map_err(|_| Failure(format!("{oracle}:{number}: a negative bucket")))?,
                psqt: narrow(int(columns[1])?)?,
                positional: narrow(int(columns[2])?)?,
            }
        };
        let got = eval.evaluate(&pos);
        if !expected.matches(&got) {
            return Err(Failure(format!(
                "{oracle}:{number}: {fen_text}: the net gives {got}, the oracle {} ({count} rows before it were exact)",
                expected.show()
            )));
        }
        count += 1;
    }
    if count == 0 {
        return Err(Failure(format!("{oracle}: no rows")));
    }
    say!("{count} positions, all exact");
    Ok(())
}
