//! Evaluates positions with a net and prints, per position, what Stockfish's own code returns:
//!
//! ```text
//! cargo run --release --example eval -- --net FILE [--arch DESC] [--fens FILE] [FEN...]
//! bucket=B psqt=P positional=Q total=T
//! ```
use std::process::ExitCode;

use nnue_runtime::{Architecture, Evaluator, Net, Position};

struct Args {
    net: Option<String>,
    arch: Option<String>,
    fens: Vec<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        net: None,
        arch: None,
        fens: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--net" => args.net = Some(value("--net")?),
            "--arch" => args.arch = Some(value("--arch")?),
            "--fens" => {
                let file = value("--fens")?;
                let text = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
                args.fens.extend(
                    text.lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty())
                        .map(String::from),
                );
            }
            "-h" | "--help" => {
                return Err("usage: eval --net FILE [--arch DESC] [--fens FILE] [FEN...]".into());
            }
            fen => args.fens.push(fen.to_string()),
        }
    }
    Ok(args)
}

fn run() -> Result<bool, String> {
    let args = parse_args()?;
    let path = args.net.ok_or("--net FILE is required")?;
    let arch: Option<Architecture> = args
        .arch
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(|e| format!("{e}"))?;
    let bytes = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
    let net = Net::from_bytes(&bytes, arch.as_ref()).map_err(|e| format!("{path}: {e}"))?;
    let eval = Evaluator::new(&net);
    let mut all_ok = true;
    for fen in &args.fens {
        match Position::from_fen(fen) {
            Ok(pos) => println!("{}", eval.evaluate(&pos)),
            Err(e) => {
                println!("error: {e}");
                all_ok = false;
            }
        }
    }
    Ok(all_ok)
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
