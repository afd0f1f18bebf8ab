//! Real Stockfish values: `../shared/oracle/` holds what Stockfish 17.1 (big and small nets),
//! Stockfish 13 (HalfKP) and Stockfish 18 (big net, threat inputs) compute, and what Stockfish
//! 17.1 computes with a synthetic net whose doubled accumulators wrap (`overflow-small.nnue`).
//! The reference, every generated path and (for the overflow net) every path of the run-time
//! loaded network must reproduce each value exactly. Skips, saying so, when a net or the oracle
//! is missing (in CI with `../shared`: fails). Stockfish master's SFNNv17 is checked on
//! Stockfish 19's nets with their PSQT blocks cut out: its value is their positional part.

use nnue_runtime::format::synth;
use nnue_runtime::{Architecture, Evaluation, Evaluator, KernelPath, Net, Network, Position};
use nnue_testkit::{chess, net_or_skip, oracle_or_skip, OracleRow};

nnue_runtime::nnue_net!(name = big, env = "NNUE_REAL_SF17_BIG");
nnue_runtime::nnue_net!(name = small, env = "NNUE_REAL_SF17_SMALL");
nnue_runtime::nnue_net!(name = halfkp, env = "NNUE_REAL_SF13_HALFKP");
nnue_runtime::nnue_net!(name = overflow, env = "NNUE_REAL_OVERFLOW_SMALL");
nnue_runtime::nnue_net!(name = sf18, env = "NNUE_REAL_SF18_BIG");
nnue_runtime::nnue_net!(name = sf19, env = "NNUE_REAL_SF19_BIG");
nnue_runtime::nnue_net!(name = sf19_lite, env = "NNUE_REAL_SF19_LITE");
nnue_runtime::nnue_net!(name = sf19_v17, env = "NNUE_REAL_SF19_V17_BIG");

/// What the oracle says a net returns for a row.
fn expected(which: &str, row: &OracleRow) -> (usize, i32, i32) {
    match which {
        "big" => (row.bucket, row.big.0, row.big.1),
        "small" | "overflow" => (row.bucket, row.small.0, row.small.1),
        "sf18" => (row.bucket, row.sf18_big.0, row.sf18_big.1),
        "sf19" => (row.bucket, row.sf19_big.0, row.sf19_big.1),
        "sf19_lite" => (row.bucket, row.sf19_lite.0, row.sf19_lite.1),
        // SFNNv17: no PSQT term, Stockfish 19's positional value.
        "sf19_v17" => (row.bucket, 0, row.sf19_big.1),
        "sf19_lite_v17" => (row.bucket, 0, row.sf19_lite.1),
        _ => (0, 0, row.halfkp),
    }
}

fn rows(which: &str) -> Option<Vec<OracleRow>> {
    let what = format!("oracle test of the {which} net");
    let (evals, games) = match which {
        "sf18" => ("stockfish18-eval.tsv", "games18.tsv"),
        "sf19" | "sf19_lite" | "sf19_v17" | "sf19_lite_v17" => ("stockfish19-eval.tsv", "games19.tsv"),
        _ => ("stockfish-eval.tsv", "games.tsv"),
    };
    let mut rows = oracle_or_skip(evals, &what)?;
    rows.extend(oracle_or_skip(games, &what)?);
    Some(rows)
}

fn check(which: &str, rows: &[OracleRow], eval: impl Fn(&Position) -> Evaluation) {
    let mut mismatches = Vec::new();
    for row in rows {
        let e = eval(&Position::from_fen(&row.fen).unwrap());
        if (e.bucket, e.psqt, e.positional) != expected(which, row) {
            mismatches.push(format!("{}: got {e}, Stockfish {:?}", row.fen, expected(which, row)));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{which}: {} of {} differ:\n{}",
        mismatches.len(),
        rows.len(),
        mismatches.join("\n")
    );
}

/// The real net `file`, as the test `which` reads it: the SFNNv17 ones are Stockfish 19's with
/// the PSQT blocks cut out by our writer, read back without a description.
fn read(which: &str, file: &str, what: &str) -> Option<Net> {
    let path = net_or_skip(file, what)?;
    let net = Net::from_bytes(&std::fs::read(path).unwrap(), None).unwrap();
    if !which.ends_with("_v17") {
        return Some(net);
    }
    let v17 = Net::from_bytes(&synth::without_psqt(net).to_bytes(), None).unwrap();
    assert!(matches!(v17.arch(), Architecture::Sf19(a) if !a.psqt), "{}: not read as SFNNv17", v17.arch());
    Some(v17)
}

fn run<N: Network>(which: &str, file: &str, generated: Option<&N>) {
    let Some(rows) = rows(which) else { return };
    let Some(net) = read(which, file, &format!("oracle test of the {which} net")) else { return };
    let reference = Evaluator::new(&net);
    check(which, &rows, |pos| reference.evaluate(pos));
    eprintln!("{which}: the reference reproduces all {} rows", rows.len());
    if let Some(fast) = generated {
        for path in KernelPath::all() {
            check(which, &rows, |pos| fast.evaluate_on(path, pos));
            eprintln!("{which}: the generated net on {path} reproduces all {} rows", rows.len());
        }
    }
}

/// Stockfish 19's big net (HalfKAv2_hm + threats + pawn pairs) and lite net: the 500 positions
/// of `stockfish19-eval.tsv` and the 1206 of `games19.tsv`, by refresh, on the reference and
/// every generated path; then along the games through the accumulator stack; then run-time
/// loaded, on every path.
fn run_sf19<N: Network>(which: &str, file: &str, generated: Option<&N>) {
    run(which, file, generated);
    let what = format!("incremental oracle test of the {which} net");
    let Some(rows) = oracle_or_skip("games19.tsv", &what) else { return };
    let Some(net) = read(which, file, &what) else { return };
    let n = check_games(which, &Evaluator::new(&net), KernelPath::SCALAR, &rows);
    eprintln!("{which}: the reference's accumulator stack reproduces all {n} game rows");
    if let Some(fast) = generated {
        for path in KernelPath::all() {
            let n = check_games(which, fast, path, &rows);
            eprintln!("{which}: the generated net's accumulator stack on {path} reproduces all {n} game rows");
        }
    }
    let weights = nnue_runtime::loaded::FastWeights::new(&net).unwrap();
    let mut all = rows;
    all.extend(oracle_or_skip("stockfish19-eval.tsv", &what).unwrap_or_default());
    for path in KernelPath::all() {
        // SFNNv17's view has no PSQT buckets.
        match which {
            "sf19" => {
                let loaded = weights.sf19::<1024, 512, 256, 8, 64368, 22528, 86896>().unwrap();
                check(which, &all, |pos| loaded.evaluate_on(path, pos));
            }
            "sf19_v17" => {
                let loaded = weights.sf19::<1024, 512, 256, 0, 64368, 22528, 86896>().unwrap();
                check(which, &all, |pos| loaded.evaluate_on(path, pos));
            }
            "sf19_lite_v17" => {
                let loaded = weights.sf19::<1024, 512, 256, 0, 0, 768, 768>().unwrap();
                check(which, &all, |pos| loaded.evaluate_on(path, pos));
            }
            _ => {
                let loaded = weights.sf19::<1024, 512, 256, 8, 0, 768, 768>().unwrap();
                check(which, &all, |pos| loaded.evaluate_on(path, pos));
            }
        }
        eprintln!("{which}: the run-time loaded net on {path} reproduces all {} rows", all.len());
    }
}

#[test]
fn sf19_big() {
    run_sf19("sf19", nnue_testkit::SF19_BIG, cfg!(nnue_real_sf19_big).then_some(&sf19::NETWORK));
}

#[test]
fn sf19_lite() {
    run_sf19("sf19_lite", nnue_testkit::SF19_LITE, cfg!(nnue_real_sf19_lite).then_some(&sf19_lite::NETWORK));
}

/// Stockfish master's SFNNv17 (Stockfish 19's big net without the PSQT blocks): Stockfish 19's
/// positional values, with no PSQT term, as the rest.
#[test]
fn sfnn_v17_big() {
    run_sf19("sf19_v17", nnue_testkit::SF19_BIG, cfg!(nnue_real_sf19_v17_big).then_some(&sf19_v17::NETWORK));
}

/// The lite net's shape without PSQT blocks: reference and run-time loaded.
#[test]
fn sfnn_v17_lite() {
    run_sf19("sf19_lite_v17", nnue_testkit::SF19_LITE, None::<&sf19_lite::Network>);
}

#[test]
fn sf17_big() {
    run("big", nnue_testkit::SF17_BIG, cfg!(nnue_real_sf17_big).then_some(&big::NETWORK));
}

#[test]
fn sf17_small() {
    run("small", nnue_testkit::SF17_SMALL, cfg!(nnue_real_sf17_small).then_some(&small::NETWORK));
}

#[test]
fn sf13_halfkp() {
    run("halfkp", nnue_testkit::SF13_HALFKP, cfg!(nnue_real_sf13_halfkp).then_some(&halfkp::NETWORK));
}

#[test]
fn overflow_small_wraps_as_stockfish() {
    let what = "oracle test of overflow-small.nnue";
    let Some(rows) = oracle_or_skip("overflow-eval.tsv", what) else { return };
    let Some(path) = net_or_skip(nnue_testkit::OVERFLOW_SMALL, what) else { return };
    let net = Net::from_bytes(&std::fs::read(path).unwrap(), None).unwrap();
    let wrapping =
        rows.iter().filter(|r| nnue_testkit::first_layer_wraps(&net, &Position::from_fen(&r.fen).unwrap())).count();
    assert!(wrapping > 100, "only {wrapping} positions wrap: not the overflow net?");
    check("overflow", &rows, |pos| Evaluator::new(&net).evaluate(pos));
    if cfg!(nnue_real_overflow_small) {
        for path in KernelPath::all() {
            check("overflow", &rows, |pos| overflow::NETWORK.evaluate_on(path, pos));
        }
    }
    let weights = nnue_runtime::loaded::FastWeights::new(&net).unwrap();
    let loaded = weights.sfnn::<128, 64, 32>().unwrap();
    for path in KernelPath::all() {
        check("overflow", &rows, |pos| loaded.evaluate_on(path, pos));
    }
}

/// Stockfish 18's big net (HalfKAv2_hm + FullThreats): the 500 positions of
/// `stockfish18-eval.tsv` and the 1206 game positions of `games18.tsv`, by refresh.
#[test]
fn sf18_big() {
    run("sf18", nnue_testkit::SF18_BIG, cfg!(nnue_real_sf18_big).then_some(&sf18::NETWORK));
}

/// Plays the games of `rows` (each row's UCI moves from the start position; a row that extends
/// the previous one continues it) through an [`AccumulatorStack`], evaluating incrementally
/// at each row.
fn check_games<N: Network>(which: &str, net: &N, path: KernelPath, rows: &[OracleRow]) -> usize {
    let games: Vec<(&[String], &str)> = rows.iter().map(|r| (r.moves.as_slice(), r.fen.as_str())).collect();
    let evals = chess::evaluate_along_games(net, path, &games);
    let mismatches: Vec<String> = rows
        .iter()
        .zip(&evals)
        .filter(|(row, e)| (e.bucket, e.psqt, e.positional) != expected(which, row))
        .map(|(row, e)| format!("{}: got {e}, Stockfish {:?}", row.fen, expected(which, row)))
        .collect();
    assert!(
        mismatches.is_empty(),
        "{which} on {path}: {} of {} differ:\n{}",
        mismatches.len(),
        rows.len(),
        mismatches.join("\n")
    );
    rows.len()
}

/// Stockfish 18's big net along the 12 games of `games18.tsv`, incrementally through the
/// accumulator stack (threat deltas from each ply's board; refresh when a king moves).
#[test]
fn sf18_big_games_incremental() {
    let Some(rows) = oracle_or_skip("games18.tsv", "incremental oracle test of the sf18 net") else { return };
    let Some(path) = net_or_skip(nnue_testkit::SF18_BIG, "incremental oracle test of the sf18 net") else { return };
    let net = Net::from_bytes(&std::fs::read(path).unwrap(), None).unwrap();
    let n = check_games("sf18", &Evaluator::new(&net), KernelPath::SCALAR, &rows);
    eprintln!("sf18: the reference's accumulator stack reproduces all {n} game rows");
    if cfg!(nnue_real_sf18_big) {
        for path in KernelPath::all() {
            let n = check_games("sf18", &sf18::NETWORK, path, &rows);
            eprintln!("sf18: the generated net's accumulator stack on {path} reproduces all {n} game rows");
        }
    }
}

/// The oracle files committed in `tests/oracles/stockfish/` (so that a clone without
/// `../shared` runs these checks on the nets `scripts/fetch-nets.py` brings) are byte for byte
/// `../shared/oracle/`'s.
#[test]
fn committed_oracles_are_the_shared_ones() {
    let root = nnue_testkit::root();
    for file in nnue_testkit::COMMITTED_ORACLES {
        let committed = std::fs::read(root.join("tests/oracles/stockfish").join(file)).unwrap();
        let Ok(shared) = std::fs::read(root.join("../shared/oracle").join(file)) else {
            nnue_testkit::skip("committed oracle copy check", &format!("../shared/oracle/{file} is missing"), true);
            continue;
        };
        assert!(committed == shared, "tests/oracles/stockfish/{file} differs from ../shared/oracle/{file}");
    }
}
