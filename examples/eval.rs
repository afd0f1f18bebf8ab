//! Evaluates positions and prints, per position, what Stockfish's own code returns:
//!
//! ```text
//! cargo run --release --example eval -- --net FILE [--arch DESC] [--fens FILE] [FEN...]
//! EVALFILE=FILE cargo run --release --example eval -- --generated [--path P] [--fens FILE] [FEN...]
//! ```
//!
//! One line per position, in input order: `bucket=B psqt=P positional=Q total=T`.
//! `--net` uses the generic (reference) evaluator on a file read at run time; `--generated`
//! uses the net compiled in by `nnue_net!` (`EVALFILE` at build time, else the committed
//! default), on the path measured fastest for it (`Network::best_path`) or the one `--path
//! scalar|avx2|avxvnni|avx512vnni` (x86-64), `--path scalar|neon|dotprod` (aarch64) or `--path
//! scalar|simd128|relaxed-simd` (wasm32; relaxed-simd runs SIMD128's kernels for a net whose
//! int8 layers aren't proven to read 7-bit values, `Network::paths`) forces.
use std::process::ExitCode;

use nnue_runtime::{Architecture, Evaluation, Evaluator, Isa, KernelPath, Net, Network, Position};

nnue_runtime::nnue_net! {
    name = generated,
    env = "EVALFILE",
    default = "nets/default.nnue",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
}

const USAGE: &str = "usage: eval (--net FILE [--arch DESC] | --generated [--path P]) [--fens FILE] [FEN...]";

#[derive(Default)]
struct Args {
    net: Option<String>,
    arch: Option<String>,
    generated: bool,
    path: Option<String>,
    fens: Vec<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args::default();
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value\n{USAGE}"));
        match a.as_str() {
            "--net" => args.net = Some(value("--net")?),
            "--arch" => args.arch = Some(value("--arch")?),
            "--generated" => args.generated = true,
            "--path" => args.path = Some(value("--path")?),
            "--fens" => {
                let file = value("--fens")?;
                let text = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
                args.fens.extend(text.lines().map(str::trim).filter(|l| !l.is_empty()).map(String::from));
            }
            "-h" | "--help" => return Err(USAGE.into()),
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}\n{USAGE}")),
            fen => args.fens.push(fen.to_string()),
        }
    }
    Ok(args)
}

/// Prints one line per FEN; a FEN that can't be evaluated gets an `error:` line.
fn print_all(fens: &[String], eval: impl Fn(&Position) -> Evaluation) -> bool {
    let mut all_ok = true;
    for fen in fens {
        match Position::from_fen(fen) {
            Ok(pos) => println!("{}", eval(&pos)),
            Err(e) => {
                println!("error: {e}");
                all_ok = false;
            }
        }
    }
    all_ok
}

fn run() -> Result<bool, String> {
    let args = parse_args()?;
    if args.generated {
        if args.net.is_some() || args.arch.is_some() {
            return Err("--generated evaluates the net compiled in through EVALFILE; --net/--arch are for the generic evaluator".into());
        }
        let path = match args.path.as_deref() {
            None => generated::NETWORK.best_path(),
            Some(name) => {
                let names: Vec<&str> = Isa::ALL.iter().map(|i| i.name()).collect();
                let isa = Isa::from_name(name).ok_or(format!("unknown path {name}: one of {}", names.join(", ")))?;
                // WebAssembly has no run-time detection: the build decides (`+simd128`,
                // `+relaxed-simd`).
                let who = if cfg!(target_arch = "wasm32") { "build" } else { "CPU" };
                KernelPath::new(isa).ok_or(format!("this {who} can't run the {name} path"))?
            }
        };
        return Ok(print_all(&args.fens, |pos| generated::NETWORK.evaluate_on(path, pos)));
    }
    if args.path.is_some() {
        return Err("--path selects a kernel of the generated net: use it with --generated".into());
    }
    let file = args.net.ok_or(format!("--net FILE or --generated is required\n{USAGE}"))?;
    let arch: Option<Architecture> = args.arch.as_deref().map(str::parse).transpose().map_err(|e| format!("{e}"))?;
    let net = Net::from_file(&file, arch.as_ref()).map_err(|e| e.to_string())?;
    let eval = Evaluator::new(&net);
    Ok(print_all(&args.fens, |pos| eval.evaluate(pos)))
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
