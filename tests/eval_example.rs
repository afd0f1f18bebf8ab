//! The eval example is how anyone checks us against Stockfish: run it exactly as the README
//! says, in both modes and on every path, and compare its lines with the oracle.

use std::process::Command;

use nnue_testkit::{net_or_skip, oracle_or_skip, root, OracleRow};

fn cargo_eval(evalfile: Option<&std::path::Path>, args: &[&str]) -> String {
    let mut cmd = Command::new(env!("CARGO"));
    cmd.current_dir(root()).args(["run", "--quiet", "--release", "--example", "eval", "--"]).args(args);
    match evalfile {
        Some(f) => cmd.env("EVALFILE", f),
        None => cmd.env_remove("EVALFILE"),
    };
    let out = cmd.output().expect("cargo runs");
    assert!(out.status.success(), "eval {args:?} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn eval_example_reproduces_stockfish() {
    let Some(rows) = oracle_or_skip("stockfish-eval.tsv", "eval example oracle test") else { return };
    let fens_file = root().join("target/tests/oracle-fens.txt");
    std::fs::create_dir_all(fens_file.parent().unwrap()).unwrap();
    std::fs::write(&fens_file, rows.iter().map(|r| format!("{}\n", r.fen)).collect::<String>()).unwrap();
    let fens = fens_file.to_str().unwrap();
    let nets =
        [(nnue_testkit::SF17_BIG, "big"), (nnue_testkit::SF17_SMALL, "small"), (nnue_testkit::SF13_HALFKP, "halfkp")];
    for (file, which) in nets {
        let Some(net) = net_or_skip(file, "eval example oracle test") else { continue };
        let want: String = rows
            .iter()
            .map(|r| {
                let (psqt, positional, bucket) = match which {
                    "big" => (r.big.0, r.big.1, r.bucket),
                    "small" => (r.small.0, r.small.1, r.bucket),
                    _ => (0, r.halfkp, 0),
                };
                format!("bucket={bucket} psqt={psqt} positional={positional} total={}\n", psqt + positional)
            })
            .collect();
        let generic = cargo_eval(None, &["--net", net.to_str().unwrap(), "--fens", fens]);
        assert!(generic == want, "generic eval of {file} differs from Stockfish");
        for path in nnue_runtime::KernelPath::all() {
            let got = cargo_eval(Some(&net), &["--generated", "--path", path.isa().name(), "--fens", fens]);
            assert!(got == want, "generated eval of {file} on {path} differs from Stockfish");
        }
    }
    stockfish_18_and_19();
    // Back to the committed default, so later builds don't keep a real net compiled in.
    cargo_eval(None, &["--generated", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]);
    bad_input_is_reported();
}

/// Part of the test above: Stockfish 18's threat-input net and Stockfish 19's big and lite
/// nets on their oracle files, generic and compiled in on every path.
fn stockfish_18_and_19() {
    type Column = fn(&OracleRow) -> (i32, i32);
    let cases: [(&str, &str, &str, Column); 3] = [
        (nnue_testkit::SF18_BIG, "stockfish18-eval.tsv", "Stockfish 18", |r| r.sf18_big),
        (nnue_testkit::SF19_BIG, "stockfish19-eval.tsv", "Stockfish 19", |r| r.sf19_big),
        (nnue_testkit::SF19_LITE, "stockfish19-eval.tsv", "Stockfish 19 (lite net)", |r| r.sf19_lite),
    ];
    for (file, oracle, engine, column) in cases {
        let what = format!("eval example oracle test ({file})");
        let Some(rows) = oracle_or_skip(oracle, &what) else { continue };
        let Some(net) = net_or_skip(file, &what) else { continue };
        let fens_file = root().join(format!("target/tests/{oracle}-fens.txt"));
        std::fs::write(&fens_file, rows.iter().map(|r| format!("{}\n", r.fen)).collect::<String>()).unwrap();
        let fens = fens_file.to_str().unwrap();
        let want: String = rows
            .iter()
            .map(|r| {
                let (psqt, positional) = column(r);
                format!("bucket={} psqt={psqt} positional={positional} total={}\n", r.bucket, psqt + positional)
            })
            .collect();
        let generic = cargo_eval(None, &["--net", net.to_str().unwrap(), "--fens", fens]);
        assert!(generic == want, "generic eval of {file} differs from {engine}");
        for path in nnue_runtime::KernelPath::all() {
            let got = cargo_eval(Some(&net), &["--generated", "--path", path.isa().name(), "--fens", fens]);
            assert!(got == want, "generated eval of {file} on {path} differs from {engine}");
        }
    }
}

/// Part of the test above: concurrent `cargo run`s with different EVALFILEs would rebuild the
/// example under each other.
fn bad_input_is_reported() {
    let out = Command::new(env!("CARGO"))
        .current_dir(root())
        .args(["run", "--quiet", "--release", "--example", "eval", "--", "--net", "Cargo.toml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("Cargo.toml: header at offset 0: unknown version 0x726f775b"), "{stderr}");
    // A FIFO once blocked the example forever, /dev/zero ate its memory.
    #[cfg(unix)]
    {
        let fifo = root().join("target/tests/eval-example-fifo.nnue");
        let _ = std::fs::remove_file(&fifo);
        assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        for (net, found) in [(fifo.to_str().unwrap(), "a FIFO"), ("/dev/zero", "a character device")] {
            let out = Command::new(env!("CARGO"))
                .current_dir(root())
                .args(["run", "--quiet", "--release", "--example", "eval", "--", "--net", net, "startpos"])
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(2));
            let stderr = String::from_utf8_lossy(&out.stderr);
            let want = format!("error: {net}: not a net file: expected a regular file, found {found}");
            assert!(stderr.contains(&want), "{stderr}");
        }
    }
    let out = cargo_eval_status(&[
        "--net",
        "nets/default.nnue",
        "--arch",
        nnue_testkit::default_net::ARCH,
        "8/8/8/8/8/8/8/8 w",
        "k7/8/8/8/8/8/8/K7 w",
    ]);
    assert_eq!(out.0, Some(1));
    assert_eq!(out.1, "error: White has 0 kings; exactly one is needed\nbucket=0 psqt=0 positional=0 total=0\n");
}

fn cargo_eval_status(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO"))
        .current_dir(root())
        .args(["run", "--quiet", "--release", "--example", "eval", "--"])
        .args(args)
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}
