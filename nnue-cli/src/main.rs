//! `nnue`: ask a net file what it is, evaluate positions with it, check it against an
//! oracle, convert it between file layouts and time it. See `nnue --help` and the crate's
//! README.
//!
//! Every failure is a message on stderr and exit code 1 (2 for a usage error); bad input never
//! panics.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// `println!` that ends the program quietly when stdout is closed (`nnue inspect FILE | head`)
/// instead of panicking.
macro_rules! say {
    () => {
        $crate::line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::line(format_args!($($arg)*))
    };
}

mod bench;
mod check;
mod convert;
mod fast;
mod identify;
mod inspect;
mod load;
mod pages;

/// Writes a line to stdout; a closed pipe ends the program (exit 0: the reader has what it
/// wanted), any other write error is exit 1.
pub fn line(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    if let Err(e) = writeln!(std::io::stdout().lock(), "{args}") {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: writing the output: {e}");
        std::process::exit(1);
    }
}

/// What went wrong, as the user is told.
#[derive(Debug)]
pub struct Failure(pub String);

impl<T: std::fmt::Display> From<T> for Failure {
    fn from(e: T) -> Self {
        Failure(e.to_string())
    }
}

/// What a command returns.
pub type Outcome = Result<(), Failure>;

#[derive(Parser)]
#[command(name = "nnue", version, about = "Ask an NNUE net file what it is, evaluate, check, convert and time it")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Format, version, hashes, description, layers, array sizes and L1 sparsity; for a
    /// headerless file without --arch, every known layout its size fits, ranked.
    Inspect {
        /// The net file.
        file: String,
        /// The architecture description (required to read a headerless file; optional, and
        /// checked, for a Stockfish file).
        #[arg(long)]
        arch: Option<String>,
        /// Positions for the sparsity statistics (FENs one a line, or a TSV with a `fen`
        /// column); default: the 1768 bench positions built in.
        #[arg(long)]
        fens: Option<String>,
        /// Skip the sparsity statistics.
        #[arg(long)]
        no_stats: bool,
    },
    /// Evaluates positions: one line per FEN, `bucket= psqt= positional= total=` and the FEN.
    Eval {
        /// The net file.
        file: String,
        /// The architecture description (see inspect).
        #[arg(long)]
        arch: Option<String>,
        /// Positions, one FEN a line (or a TSV with a `fen` column).
        #[arg(long)]
        fens: Option<String>,
        /// FENs.
        fen: Vec<String>,
    },
    /// Evaluates every row of an oracle file and compares: columns `fen` and `eval` (and
    /// `moves`: then along the games too, incrementally), or Stockfish's `fen`, `bucket`,
    /// `X_psqt`, `X_positional`.
    Check {
        /// The net file.
        file: String,
        /// The architecture description (see inspect).
        #[arg(long)]
        arch: Option<String>,
        /// The oracle TSV.
        #[arg(long, required_unless_present = "expect")]
        oracle: Option<String>,
        /// An evaluation the engine gives, `FEN=VALUE` (repeatable): the net as described must
        /// give each (the evaluation's total), as `nnue_net!`'s `expect = [...]` checks.
        #[arg(long, value_name = "FEN=VALUE")]
        expect: Vec<String>,
        /// Which value columns of a Stockfish oracle: `X` for `X_psqt`/`X_positional` (e.g.
        /// `big`, `small`, `sf19_lite`), or `eval`; chosen from the net's shape when left out.
        #[arg(long)]
        column: Option<String>,
        /// Also the run-time loaded fast network on every kernel path of this CPU (for the
        /// shapes this build has).
        #[arg(long)]
        all_paths: bool,
    },
    /// Writes the net in another file layout: a comma-separated list of changes, e.g.
    /// `out=[2N][B]`, `pad=bullet`, `zstd=on`, `encoding=raw`, `file=obsidian`.
    Convert {
        /// The net file.
        file: String,
        /// The architecture description (see inspect).
        #[arg(long)]
        arch: Option<String>,
        /// The changes, comma-separated: `out=[2N][B]|[B][2N]` (a headerless net's
        /// output weights), `pad=none|zeros|bullet` (what follows a headerless net's arrays),
        /// `zstd=on|off` (a CBNF net's arrays), `encoding=raw|leb128` (a Stockfish net's
        /// transformer), `file=alexandria|bullet|obsidian|cbnf|reckless|plentychess` (a
        /// multi-layer net's file layout), `file=bullet|caissa` (a single-layer net's).
        #[arg(long)]
        to: String,
        /// Where to write the converted net.
        out: String,
        /// Replace OUT if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Times the evaluator on this machine: refresh+eval, forward pass and update rates, or
    /// per-call latencies (`--forward`, `--ply`), per path.
    Bench {
        /// The net file.
        file: String,
        /// The architecture description (see inspect).
        #[arg(long)]
        arch: Option<String>,
        /// Per-call forward-pass latency over the positions.
        #[arg(long, conflicts_with_all = ["ply", "tree"])]
        forward: bool,
        /// Per-ply latency (push a move, evaluate) over games.
        #[arg(long, conflicts_with = "tree")]
        ply: bool,
        /// A search-shaped workload: from the first 16 positions, every legal move to --depth,
        /// push, evaluate, recurse, pop; time per evaluated node and nodes per second.
        #[arg(long)]
        tree: bool,
        /// The depth below each root for --tree.
        #[arg(long, default_value_t = 3, requires = "tree")]
        depth: usize,
        /// Positions (default: the 1768 bench positions built in).
        #[arg(long)]
        fens: Option<String>,
        /// Games for --ply: UCI moves from the start position, one game a line, or a TSV with
        /// a `moves` column (default: the 12 games built in).
        #[arg(long)]
        games: Option<String>,
        /// Repetitions for --forward, --ply and --tree (the median is reported).
        #[arg(long, default_value_t = 15)]
        reps: usize,
        /// Seconds per rate in the default mode.
        #[arg(long, default_value_t = 1.0)]
        seconds: f64,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
        /// Time a copy of the fast network whose transformer is in memory advised for huge
        /// pages (MADV_HUGEPAGE on Linux, an ordinary allocation elsewhere), as Stockfish
        /// allocates its net; the first line says how much the OS put in huge pages. The
        /// reference (`generic`) row is the same either way.
        #[arg(long)]
        large_pages: bool,
    },
}

fn run(cli: Cli) -> Outcome {
    match cli.command {
        Command::Inspect { file, arch, fens, no_stats } => {
            inspect::run(&file, arch.as_deref(), fens.as_deref(), !no_stats)
        }
        Command::Eval { file, arch, fens, fen } => {
            let net = load::evaluable_net(&file, arch.as_deref())?;
            let mut positions = Vec::new();
            if let Some(list) = fens {
                positions = load::fens_from_file(&list)?;
            }
            for (i, text) in fen.iter().enumerate() {
                let pos = nnue_runtime::Position::from_fen(text)
                    .map_err(|e| Failure(format!("FEN {} ({text:?}): {e}", i + 1)))?;
                positions.push((text.clone(), pos));
            }
            if positions.is_empty() {
                return Err(Failure("no positions: give FENs or --fens FILE".into()));
            }
            let eval = nnue_runtime::Evaluator::new(&net);
            for (text, pos) in &positions {
                say!("{}\t{text}", eval.evaluate(pos));
            }
            Ok(())
        }
        Command::Check { file, arch, oracle, expect, column, all_paths } => {
            check::run(&file, arch.as_deref(), oracle.as_deref(), &expect, column.as_deref(), all_paths)
        }
        Command::Convert { file, arch, to, out, force } => convert::run(&file, arch.as_deref(), &to, &out, force),
        Command::Bench { file, arch, forward, ply, tree, depth, fens, games, reps, seconds, quiet, large_pages } => {
            let mode = match (forward, ply, tree) {
                (true, _, _) => bench::Mode::Forward,
                (_, true, _) => bench::Mode::Ply,
                (_, _, true) => bench::Mode::Tree { depth },
                _ => bench::Mode::Rates,
            };
            let reps = reps.max(1);
            bench::run(&bench::Options { file, arch, mode, fens, games, reps, seconds, progress: !quiet, large_pages })
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(message)) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
