//! Real Stockfish values: `../shared/oracle/` holds what Stockfish 17.1 (big and small nets)
//! and Stockfish 13 (HalfKP) compute, and what Stockfish 17.1 computes with a synthetic net
//! whose doubled accumulators wrap (`overflow-small.nnue`). The reference, every generated path
//! and every path of the run-time loaded network must reproduce each value exactly. Skips,
//! saying so, when a net or the oracle is missing (in CI with `../shared`: fails).

use nnue_runtime::{Evaluation, Evaluator, KernelPath, Net, Network, Position};
use nnue_testkit::{net_or_skip, oracle_or_skip, OracleRow};

nnue_runtime::nnue_net!(name = big, env = "NNUE_REAL_SF17_BIG");
nnue_runtime::nnue_net!(name = small, env = "NNUE_REAL_SF17_SMALL");
nnue_runtime::nnue_net!(name = halfkp, env = "NNUE_REAL_SF13_HALFKP");
nnue_runtime::nnue_net!(name = overflow, env = "NNUE_REAL_OVERFLOW_SMALL");

/// What the oracle says a net returns for a row.
fn expected(which: &str, row: &OracleRow) -> (usize, i32, i32) {
    match which {
        "big" => (row.bucket, row.big.0, row.big.1),
        "small" | "overflow" => (row.bucket, row.small.0, row.small.1),
        _ => (0, 0, row.halfkp),
    }
}

fn rows(which: &str) -> Option<Vec<OracleRow>> {
    let what = format!("oracle test of the {which} net");
    let mut rows = oracle_or_skip("stockfish-eval.tsv", &what)?;
    rows.extend(oracle_or_skip("games.tsv", &what)?);
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

fn run<N: Network>(which: &str, file: &str, generated: Option<&N>) {
    let Some(rows) = rows(which) else { return };
    let Some(path) = net_or_skip(file, &format!("oracle test of the {which} net")) else { return };
    let net = Net::from_bytes(&std::fs::read(path).unwrap(), None).unwrap();
    let reference = Evaluator::new(&net);
    check(which, &rows, |pos| reference.evaluate(pos));
    if let Some(fast) = generated {
        for path in KernelPath::all() {
            check(which, &rows, |pos| fast.evaluate_on(path, pos));
        }
    }
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
