//! `nnue check`: every row of an oracle file, evaluated and compared.
//!
//! Two forms: the engines' (`tests/oracles/*.tsv`, `../shared/oracle/bullet-*.tsv`): columns
//! `fen`, `eval` (and `moves`, the UCI moves from the start position reaching the FEN: then
//! the games are also played through an accumulator stack, checking every row incrementally):
//! the evaluation's total; Stockfish's (`stockfish*-eval.tsv`, `games*.tsv`, `overflow-eval.tsv`):
//! `fen`, `bucket` and a pair `X_psqt`, `X_positional` per net (`big`, `small`, `sf18_big`,
//! ...): the bucket, the PSQT and the positional value, each exactly (Stockfish 13's
//! `halfkp` column: the total).

use nnue_runtime::format::{Architecture, Sf19Inputs};
use nnue_runtime::{AccumulatorStack, Evaluation, Evaluator, KernelPath, Network, Position};

use crate::fast::Visit;
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

/// One row of the oracle.
struct Row {
    /// Its line in the file.
    number: usize,
    fen: String,
    pos: Position,
    /// The UCI moves from the start position that reach it (the `moves` column).
    moves: Option<Vec<String>>,
    expected: Expected,
}

/// Checks `file` against the oracle; fails naming the first row that differs. With `all_paths`,
/// the run-time loaded fast network too, on every kernel path (when this build has its shape).
pub fn run(
    file: &str,
    arch: Option<&str>,
    oracle: Option<&str>,
    expect: &[String],
    column: Option<&str>,
    all_paths: bool,
) -> Outcome {
    let net = load::evaluable_net(file, arch)?;
    if !expect.is_empty() {
        let pairs = expect.iter().map(|e| parse_expect(e)).collect::<Result<Vec<_>, _>>()?;
        let checked = Evaluator::new(&net)
            .check_expected(pairs.iter().map(|(fen, v)| (*fen, *v)))
            .map_err(|e| Failure(format!("{file} as `{}`: {e}", net.arch())))?;
        say!("{checked} expected evaluations, all exact");
    }
    let Some(oracle) = oracle else { return Ok(()) };
    let rows = read(oracle, &net.arch(), column)?;
    let mut check = Check { oracle, rows: &rows, prefix: false };
    check.visit("generic", &Evaluator::new(&net), &[KernelPath::SCALAR])?;
    if all_paths {
        check.prefix = true;
        if !crate::fast::visit(&net, false, &mut check)? {
            say!("(no fast network for this shape in this build: the reference only)");
        }
    }
    Ok(())
}

/// `FEN=VALUE` (split at the last `=`: a FEN has none).
fn parse_expect(text: &str) -> Result<(&str, i32), Failure> {
    let bad =
        || Failure(format!("--expect {}: expected FEN=VALUE, the value an integer", nnue_runtime::format::shown(text)));
    let (fen, value) = text.rsplit_once('=').ok_or_else(bad)?;
    Ok((fen.trim(), value.trim().parse().map_err(|_| bad())?))
}

/// The rows of an oracle file, with the value columns that suit the net (or `column`).
fn read(oracle: &str, arch: &Architecture, column: Option<&str>) -> Result<Vec<Row>, Failure> {
    let text = std::fs::read_to_string(oracle).map_err(|e| Failure(format!("{oracle}: {e}")))?;
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let header: Vec<&str> = lines.next().map(|(_, h)| h.split('\t').collect()).unwrap_or_default();
    let col = |name: &str| header.iter().position(|h| *h == name);
    let fen = col("fen").ok_or_else(|| Failure(format!("{oracle}: no `fen` column in the header line")))?;
    let moves = col("moves");
    // The prefixes of the `X_psqt`/`X_positional` pairs, then the single-value columns.
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
        None => match (prefixes.len(), default_column(arch, &prefixes)) {
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
    let mut rows = Vec::new();
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
        let moves = match moves {
            Some(c) => Some(field(c)?.split_whitespace().map(str::to_string).collect()),
            None => None,
        };
        rows.push(Row { number, fen: fen_text.to_string(), pos, moves, expected });
    }
    if rows.is_empty() {
        return Err(Failure(format!("{oracle}: no rows")));
    }
    Ok(rows)
}

/// Checks a network on its paths: by refresh, and along the games when the rows have moves.
struct Check<'a> {
    oracle: &'a str,
    rows: &'a [Row],
    /// Name the network and path in the summary lines.
    prefix: bool,
}

impl Check<'_> {
    fn mismatch(&self, row: &Row, got: &Evaluation, exact: usize, how: &str) -> Failure {
        Failure(format!(
            "{}:{}: {}: {how}the net gives {got}, the oracle {} ({exact} rows before it were exact)",
            self.oracle,
            row.number,
            row.fen,
            row.expected.show()
        ))
    }
}

impl Visit for Check<'_> {
    fn visit<N: Network>(&mut self, name: &str, net: &N, paths: &[KernelPath]) -> Outcome {
        for &path in paths {
            let who = if self.prefix { format!("{name} {}: ", path.isa().name()) } else { String::new() };
            for (exact, row) in self.rows.iter().enumerate() {
                let got = net.evaluate_on(path, &row.pos);
                if !row.expected.matches(&got) {
                    return Err(self.mismatch(row, &got, exact, &who));
                }
            }
            say!("{who}{} positions, all exact", self.rows.len());
            if self.rows.iter().all(|r| r.moves.is_some()) {
                let games = along_games(self, net, path, &who)?;
                say!("{who}{} positions along {games} games, all exact incrementally", self.rows.len());
            }
        }
        Ok(())
    }
}

/// Plays the rows' moves through an accumulator stack on `path` (a row whose moves extend the
/// previous row's continues its game; another starts a new one) and compares at each row.
/// The number of games.
fn along_games<N: Network>(check: &Check<'_>, net: &N, path: KernelPath, who: &str) -> Result<usize, Failure> {
    use nnue_runtime::shakmaty::{dirty, position};
    use shakmaty::uci::UciMove;
    use shakmaty::{Chess, Position as _};
    let start = position(&Chess::default());
    let mut stack = AccumulatorStack::with_path(net, &start, path);
    let (mut board, mut line, mut games) = (Chess::default(), Vec::<String>::new(), 0);
    for (exact, row) in check.rows.iter().enumerate() {
        let moves = row.moves.as_deref().unwrap_or_default();
        if games == 0 || !moves.starts_with(&line) {
            (board, line) = (Chess::default(), Vec::new());
            stack.reset(net, &start);
            games += 1;
        }
        for uci in &moves[line.len()..] {
            let at = || format!("{}:{}: move {uci}", check.oracle, row.number);
            let parsed: UciMove = uci.parse().map_err(|e| Failure(format!("{}: not a UCI move: {e}", at())))?;
            let mv = parsed.to_move(&board).map_err(|e| Failure(format!("{}: illegal: {e}", at())))?;
            stack.push(dirty(&board, &mv));
            board = board.clone().play(mv).map_err(|e| Failure(format!("{}: illegal: {e}", at())))?;
            line.push(uci.clone());
        }
        let reached = position(&board);
        if reached != row.pos {
            return Err(Failure(format!("{}:{}: the moves don't reach the FEN {}", check.oracle, row.number, row.fen)));
        }
        let got = stack.evaluate(net, &reached);
        if !row.expected.matches(&got) {
            return Err(check.mismatch(row, &got, exact, &format!("{who}along the game, incrementally, ")));
        }
    }
    Ok(games)
}
