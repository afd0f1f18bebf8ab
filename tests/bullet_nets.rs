//! Real bullet-trained nets as their engines ship them (`../shared/nets/bullet/`): each reads
//! with its description, writes back byte for byte, and evaluates the 500 oracle positions
//! exactly as its engine's own code does (`../shared/oracle/bullet-*.tsv`, see
//! `../shared/nets/README.md`) on the reference, on every path of the run-time loaded network
//! and on every path of the network `nnue_net!` compiled in. Also: a synthetic net whose output
//! weights are stored `[2N][B]` with bullet's `bulletbullet…` padding evaluates as its
//! `[B][2N]` twin. Skips, saying so, when a net or an oracle file is missing (in CI with
//! `../shared`: fails).

use nnue_runtime::format::{Model, OutputOrder, Padding};
use nnue_runtime::loaded::FastWeights;
use nnue_runtime::{Architecture, Evaluator, KernelPath, Net, Network, Position};
use nnue_testkit::{engine_oracle_or_skip, net_or_skip};

nnue_runtime::nnue_net!(name = akimbo, env = "NNUE_REAL_BULLET_AKIMBO");
nnue_runtime::nnue_net!(name = pawnocchio, env = "NNUE_REAL_BULLET_PAWNOCCHIO");
nnue_runtime::nnue_net!(name = transposed, env = "NNUE_SYNTH_CHESS768_64X8_T");

/// The descriptions to write for the two nets (as the README's supported-nets table says).
const AKIMBO: &str = "(768 -> 512)x2 -> 1x8, crelu, qa=255, qb=64, scale=400";
const PAWNOCCHIO: &str = "(768hm -> 1024)x2 -> 1x8, screlu, qa=255, qb=64, scale=400";

/// Every row's eval through `eval`, or the list of rows that differ.
fn check(what: &str, rows: &[(String, i32)], eval: impl Fn(&Position) -> i32) {
    let mismatches: Vec<String> = rows
        .iter()
        .filter_map(|(fen, want)| {
            let got = eval(&Position::from_fen(fen).unwrap());
            (got != *want).then(|| format!("{fen}: got {got}, the engine {want}"))
        })
        .collect();
    assert!(mismatches.is_empty(), "{what}: {} of {} differ:\n{}", mismatches.len(), rows.len(), mismatches.join("\n"));
    eprintln!("{what}: all {} rows equal the engine's", rows.len());
}

/// The net `file` described by `arch` against the engine's values in `oracle`: the round trip,
/// the padding, the reference and every path of the run-time loaded network (`load`) and of
/// `generated` (when the real net was compiled in).
fn run<G: Network>(
    which: &str,
    file: &str,
    arch: &str,
    oracle: &str,
    padding: Padding,
    load: impl Fn(&FastWeights, &[(String, i32)]),
    generated: Option<(&str, &G)>,
) {
    let what = format!("oracle test of {which}'s bullet net");
    let Some(rows) = engine_oracle_or_skip(oracle, &what) else { return };
    let Some(path) = net_or_skip(file, &what) else { return };
    assert_eq!(rows.len(), 500, "{oracle}");
    let bytes = std::fs::read(path).unwrap();
    let arch: Architecture = arch.parse().unwrap();
    let net = Net::from_bytes(&bytes, Some(&arch)).unwrap_or_else(|e| panic!("{which}: {e}"));
    assert!(net.to_bytes() == bytes, "{which}: writing back changes the bytes");
    let Model::Chess768(_, params) = &net.model else { unreachable!() };
    assert_eq!(params.padding, padding, "{which}");
    let reference = Evaluator::new(&net);
    check(&format!("{which}, reference"), &rows, |pos| reference.evaluate(pos).positional);
    load(&FastWeights::new(&net).unwrap(), &rows);
    if let Some((description, fast)) = generated {
        assert_eq!(description, arch.to_string());
        for path in KernelPath::all() {
            check(&format!("{which}, generated, {path}"), &rows, |pos| fast.evaluate_on(path, pos).positional);
        }
    }
}

/// Every path of a run-time loaded network against the rows.
fn check_loaded<N: Network>(which: &str, fast: &N, rows: &[(String, i32)]) {
    for path in KernelPath::all() {
        check(&format!("{which}, loaded, {path}"), rows, |pos| fast.evaluate_on(path, pos).positional);
    }
}

/// akimbo 0.7.0: `(768 -> 512)x2 -> 1x8`, CReLU, zero padding.
#[test]
fn akimbo() {
    let generated = cfg!(nnue_real_bullet_akimbo).then_some((akimbo::ARCHITECTURE, &akimbo::NETWORK));
    let load = |w: &FastWeights, rows: &[(String, i32)]| {
        check_loaded("akimbo", &w.chess768::<512, 768, 8>().unwrap(), rows);
    };
    run("akimbo", nnue_testkit::BULLET_AKIMBO, AKIMBO, "bullet-akimbo.tsv", Padding::Zeros, load, generated);
    // The macro leaves out the columns no position makes positive: 65 of akimbo's 512, of
    // which 64 keep the width a multiple of 32 (`layout::chess768_dead_columns`).
    if generated.is_some() {
        assert_eq!(akimbo::L1, 448, "akimbo's dead columns");
        assert_eq!(akimbo::NETWORK.new_accumulator().values[0].len(), 448);
    }
}

/// pawnocchio's net20: `(768hm -> 1024)x2 -> 1x8`, SCReLU (divided by QA before the bias),
/// padded with `bulletbullet…`.
#[test]
fn pawnocchio() {
    let generated = cfg!(nnue_real_bullet_pawnocchio).then_some((pawnocchio::ARCHITECTURE, &pawnocchio::NETWORK));
    let load = |w: &FastWeights, rows: &[(String, i32)]| {
        check_loaded("pawnocchio", &w.chess768::<1024, 768, 8>().unwrap(), rows);
    };
    let file = nnue_testkit::BULLET_PAWNOCCHIO;
    let oracle = "bullet-pawnocchio-net20.tsv";
    run("pawnocchio", file, PAWNOCCHIO, oracle, Padding::Bullet, load, generated);
}

/// A synthetic `(768hm -> 64)x2 -> 1x8` SCReLU net stored as bullet saves by default (output
/// weights `[2N][B]`, `bulletbullet…` padding; written by build.rs) evaluates on the reference,
/// every loaded path and every path of `nnue_net!` exactly as the same parameters stored
/// `[B][2N]`.
#[test]
fn output_orders_evaluate_identically() {
    let file = env!("NNUE_SYNTH_CHESS768_64X8_T");
    let arch: Architecture = env!("NNUE_SYNTH_CHESS768_64X8_T_ARCH").parse().unwrap();
    assert_eq!(arch.to_string(), transposed::ARCHITECTURE);
    assert!(transposed::ARCHITECTURE.ends_with(", out=[2N][B]"), "{}", transposed::ARCHITECTURE);
    let bytes = std::fs::read(file).unwrap();
    let net = Net::from_bytes(&bytes, Some(&arch)).unwrap();
    assert!(net.to_bytes() == bytes);
    // The twin: the same parameters, described (and so written) `[B][2N]`.
    let Model::Chess768(mut plain_arch, params) = net.model.clone() else { unreachable!() };
    assert_eq!((plain_arch.output_order, params.padding), (OutputOrder::NeuronMajor, Padding::Bullet));
    plain_arch.output_order = OutputOrder::BucketMajor;
    let twin = Net { description: String::new(), model: Model::Chess768(plain_arch, params) };
    let twin_bytes = twin.to_bytes();
    assert_eq!(twin_bytes.len(), bytes.len());
    assert!(twin_bytes != bytes, "the two orders store different bytes");
    let read_twin = Net::from_bytes(&twin_bytes, Some(&Architecture::Chess768(plain_arch))).unwrap();
    assert_eq!(read_twin, twin);

    let mut positions = nnue_testkit::random_positions(20, 200);
    if let Some(rows) = nnue_testkit::oracle("stockfish-eval.tsv") {
        positions.extend(rows.iter().take(200).map(|r| Position::from_fen(&r.fen).unwrap()));
    }
    let (reference, twin_reference) = (Evaluator::new(&net), Evaluator::new(&twin));
    let weights = FastWeights::new(&net).unwrap();
    let loaded = weights.chess768::<64, 768, 8>().unwrap();
    let mut buckets = [0usize; 8];
    for pos in &positions {
        let want = twin_reference.evaluate(pos);
        buckets[want.bucket] += 1;
        assert_eq!(reference.evaluate(pos), want, "{pos:?}");
        for path in KernelPath::all() {
            assert_eq!(loaded.evaluate_on(path, pos), want, "loaded on {path}: {pos:?}");
            assert_eq!(transposed::NETWORK.evaluate_on(path, pos), want, "generated on {path}: {pos:?}");
        }
    }
    assert!(buckets.iter().all(|&n| n > 0), "every output bucket is used: {buckets:?}");
    nnue_testkit::assert_matches_reference(&net, &transposed::NETWORK, &positions);
}

/// `expect = [...]` (what `nnue_net!` and `nnue check --expect` run) on pawnocchio's real net:
/// the two mistakes a new user makes compile a net that evaluates the oracle's second
/// position as 529 (`crelu` for `screlu`) or 922 (no `hm`) where pawnocchio says 1078; with
/// them the check fails naming that position and the value, with the right description it
/// passes on every oracle row (the values: `ExpectError::Differs`).
#[test]
fn expect_catches_a_wrong_description_of_a_real_net() {
    let what = "expect on pawnocchio's bullet net";
    let Some(rows) = engine_oracle_or_skip("bullet-pawnocchio-net20.tsv", what) else { return };
    let Some(path) = net_or_skip(nnue_testkit::BULLET_PAWNOCCHIO, what) else { return };
    let bytes = std::fs::read(path).unwrap();
    let expected = |n: usize| rows[..n].iter().map(|(fen, v)| (fen.as_str(), *v)).collect::<Vec<_>>();
    let right = Net::from_bytes(&bytes, Some(&PAWNOCCHIO.parse().unwrap())).unwrap();
    assert_eq!(Evaluator::new(&right).check_expected(expected(rows.len())), Ok(500));
    assert_eq!(rows[1].1, 1078, "the oracle's second row");
    for (mistake, arch, got) in [
        ("crelu for screlu", PAWNOCCHIO.replace("screlu", "crelu"), 529),
        ("no hm", PAWNOCCHIO.replace("768hm", "768"), 922),
    ] {
        // A headerless file of the same size reads with the wrong description too.
        let net = Net::from_bytes(&bytes, Some(&arch.parse().unwrap())).unwrap();
        let err = Evaluator::new(&net).check_expected(expected(2)).unwrap_err();
        let msg = err.to_string();
        eprintln!("{mistake}: {msg}");
        // The first row already differs: the message names it, both values and the parts.
        let first = format!("expected position 1 ({:?}): the description gives ", rows[0].0);
        assert!(msg.starts_with(&first) && msg.contains(&format!(", expected {} (bucket=", rows[0].1)), "{msg}");
        let second = Evaluator::new(&net).check_expected(expected(2)[1..].iter().copied());
        assert!(
            matches!(second, Err(nnue_runtime::format::ExpectError::Differs { got: g, want: 1078, .. }) if g == got),
            "{mistake}: {second:?}"
        );
    }
}
