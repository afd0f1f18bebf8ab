//! Support shared by the workspace's examples, benches and cross-crate tests: finding real
//! nets, reading the Stockfish oracle files, the shakmaty bridge ([`chess`]), the malformed-net
//! corpus ([`corpus`]) and the committed default net ([`default_net`]). Not part of the
//! library users depend on.

pub mod chess;
pub mod corpus;
pub mod custom_block;
pub mod default_net;
pub mod engine_nets;
pub mod tree;

use std::path::{Path, PathBuf};

/// Stockfish 17.1's default big net (L1 3072).
pub const SF17_BIG: &str = "nn-1c0000000000.nnue";
/// Stockfish 17.1's default small net (L1 128).
pub const SF17_SMALL: &str = "nn-37f18f62d772.nnue";
/// Stockfish 17.1's "lite" net (L1 256).
pub const SF17_LITE: &str = "nn-9067e33176e8.nnue";
/// Stockfish 13's default HalfKP net.
pub const SF13_HALFKP: &str = "nn-62ef826d1a6d.nnue";
/// Stockfish 18's default big net (threat inputs, L1 1024).
pub const SF18_BIG: &str = "nn-c288c895ea92.nnue";
/// Stockfish 19's default big net (threats, pawn pairs, HalfKAv2_hm; L1 1024).
pub const SF19_BIG: &str = "nn-1a298aa575a0.nnue";
/// The lite net lichess ships with Stockfish 19 (768 mirrored piece-square inputs, L1 1024).
pub const SF19_LITE: &str = "nn-61e7af4bb97d.nnue";
/// A synthetic SFNN L1-128 net whose doubled accumulators wrap (`../shared/nets/`, with
/// Stockfish 17.1's values in `../shared/oracle/overflow-eval.tsv`).
pub const OVERFLOW_SMALL: &str = "overflow-small.nnue";
/// akimbo 0.7.0's net, trained with bullet: `(768 -> 512)x2 -> 1x8`, CReLU, zero-padded
/// (`../shared/nets/bullet/`, with akimbo's values in `../shared/oracle/bullet-akimbo.tsv`).
pub const BULLET_AKIMBO: &str = "bullet/akimbo-0.7.0-giuseppe.bin";
/// pawnocchio's net20: `(768hm -> 1024)x2 -> 1x8`, SCReLU, padded with `bulletbullet…`
/// (`../shared/nets/bullet/`, with pawnocchio's values in `bullet-pawnocchio-net20.tsv`).
pub const BULLET_PAWNOCCHIO: &str = "bullet/pawnocchio-net20_04_1024_400_8_mirrored.nnue";

/// The workspace root (`../shared` lies beside it).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("testkit/ lies in the workspace root")
}

/// Where real nets are looked for: `../shared/nets/`, then `nets/fetched/`
/// (filled by `python3 scripts/fetch-nets.py`).
pub fn net_dirs() -> [PathBuf; 2] {
    [root().join("../shared/nets"), root().join("nets/fetched")]
}

/// A real net by file name, if either folder has it.
pub fn find_net(name: &str) -> Option<PathBuf> {
    net_dirs().into_iter().map(|d| d.join(name)).find(|p| p.is_file())
}

/// The nets `../shared/nets/` holds: in CI (see [`in_ci`]) a missing one is a failure.
pub const SHARED_NETS: [&str; 10] = [
    SF17_BIG,
    SF17_SMALL,
    SF17_LITE,
    SF13_HALFKP,
    SF18_BIG,
    SF19_BIG,
    SF19_LITE,
    OVERFLOW_SMALL,
    BULLET_AKIMBO,
    BULLET_PAWNOCCHIO,
];

/// Whether this is a CI run with `../shared` beside the workspace (`CI=true`): then a test
/// that needs a shared file fails instead of skipping.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true") && root().join("../shared").is_dir()
}

/// Reports a skipped check: one `SKIPPED <what>: <why>` line written straight to stderr, past
/// the test harness's capture, so it shows in `cargo test`'s output (and `.ci/run` counts it).
/// Panics instead when `shared` (the missing input is one of `../shared`'s) and [`in_ci`].
pub fn skip(what: &str, why: &str, shared: bool) {
    assert!(!(shared && in_ci()), "{what}: {why}, but CI=true and ../shared is present: that file must be there");
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED {what}: {why}");
}

/// Like [`find_net`], but reports the caller as skipped (see [`skip`]) when the net is missing.
pub fn net_or_skip(name: &str, what: &str) -> Option<PathBuf> {
    let found = find_net(name);
    if found.is_none() {
        // The bullet nets are on no registry: the fetch script can't bring them.
        let hint = if name.starts_with("bullet/") {
            "only ../shared/nets/ has it".to_string()
        } else {
            format!("run `python3 scripts/fetch-nets.py {name}`")
        };
        skip(
            what,
            &format!("{name} is in neither ../shared/nets/ nor nets/fetched/ ({hint})"),
            SHARED_NETS.contains(&name),
        );
    }
    found
}

/// One row of `../shared/oracle/stockfish-eval.tsv` or `games.tsv`.
#[derive(Debug, Clone)]
pub struct OracleRow {
    /// UCI moves from the start position (games.tsv only).
    pub moves: Vec<String>,
    pub fen: String,
    pub bucket: usize,
    pub big: (i32, i32),
    pub small: (i32, i32),
    pub halfkp: i32,
    /// Stockfish 18's big net (`stockfish18-eval.tsv`, `games18.tsv`).
    pub sf18_big: (i32, i32),
    /// Stockfish 19's big and lite nets (`stockfish19-eval.tsv`, `games19.tsv`).
    pub sf19_big: (i32, i32),
    pub sf19_lite: (i32, i32),
}

/// The Stockfish oracle files committed in `tests/oracles/stockfish/`: copies of
/// `../shared/oracle/`'s, so that a clone without `../shared` checks the real nets that
/// `scripts/fetch-nets.py` brings (a test keeps the copies equal to `../shared`'s).
pub const COMMITTED_ORACLES: [&str; 6] =
    ["stockfish-eval.tsv", "games.tsv", "stockfish18-eval.tsv", "games18.tsv", "stockfish19-eval.tsv", "games19.tsv"];

/// Where an oracle file is: `../shared/oracle/`, else the committed copy.
pub fn oracle_path(file: &str) -> Option<PathBuf> {
    [root().join("../shared/oracle").join(file), root().join("tests/oracles/stockfish").join(file)]
        .into_iter()
        .find(|p| p.is_file())
}

/// The rows of an oracle file (`stockfish-eval.tsv` or `games.tsv`); reports `what` as
/// skipped (see [`skip`]) when the file is missing.
pub fn oracle_or_skip(file: &str, what: &str) -> Option<Vec<OracleRow>> {
    let rows = oracle(file);
    if rows.is_none() {
        skip(what, &format!("../shared/oracle/{file} is missing (and no copy is committed)"), true);
    }
    rows
}

/// The rows of an oracle file, if it is there ([`oracle_path`]). Columns a file lacks read as 0.
pub fn oracle(file: &str) -> Option<Vec<OracleRow>> {
    let text = std::fs::read_to_string(oracle_path(file)?).ok()?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next()?.split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name);
    let (fen, bucket) = (col("fen").expect("oracle fen column"), col("bucket").expect("oracle bucket column"));
    let num = |fields: &[&str], name: &str| col(name).map_or(0, |i| fields[i].parse::<i32>().expect("oracle integer"));
    let pair = |fields: &[&str], prefix: &str| {
        (num(fields, &format!("{prefix}_psqt")), num(fields, &format!("{prefix}_positional")))
    };
    let rows = lines
        .filter(|l| !l.is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            OracleRow {
                moves: col("moves").map(|i| f[i].split_whitespace().map(str::to_string).collect()).unwrap_or_default(),
                fen: f[fen].to_string(),
                bucket: f[bucket].parse().expect("oracle bucket"),
                big: pair(&f, "big"),
                small: pair(&f, "small"),
                halfkp: num(&f, "halfkp"),
                sf18_big: pair(&f, "sf18_big"),
                sf19_big: pair(&f, "sf19_big"),
                sf19_lite: pair(&f, "sf19_lite"),
            }
        })
        .collect();
    Some(rows)
}

/// The rows (FEN, eval) of an engine's oracle file with the columns `fen` and `eval` (the
/// `../shared/oracle/bullet-*.tsv` files); reports `what` as skipped (see [`skip`]) when the
/// file is missing.
pub fn engine_oracle_or_skip(file: &str, what: &str) -> Option<Vec<(String, i32)>> {
    let Some(Ok(text)) = oracle_path(file).map(std::fs::read_to_string) else {
        skip(what, &format!("../shared/oracle/{file} is missing"), true);
        return None;
    };
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("oracle header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("{file}: no {name} column"));
    let (fen, eval) = (col("fen"), col("eval"));
    let rows = lines
        .filter(|l| !l.is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            (f[fen].to_string(), f[eval].parse().expect("oracle eval"))
        })
        .collect();
    Some(rows)
}

/// Random placements (see [`nnue_runtime::position::random_positions`]).
pub use nnue_runtime::position::random_positions;

/// [`nnue_runtime::reference::verify`], panicking with the first difference.
pub fn assert_matches_reference<N: nnue_runtime::Network>(
    net: &nnue_runtime::Net,
    fast: &N,
    positions: &[nnue_runtime::Position],
) -> usize {
    nnue_runtime::reference::verify(net, fast, positions).unwrap_or_else(|e| panic!("{e}"))
}

/// Reads a net file with an optional architecture description; panics with the reason (for
/// tests and benches, whose inputs are known good).
pub fn read_net(path: impl AsRef<Path>, arch: Option<&str>) -> nnue_runtime::Net {
    let path = path.as_ref();
    let arch: Option<nnue_runtime::Architecture> = arch.map(|a| a.parse().expect("architecture description"));
    nnue_runtime::Net::from_file(path, arch.as_ref()).unwrap_or_else(|e| panic!("{e}"))
}

/// Whether some first-layer sum of `pos` leaves int16 (and so wraps) in the engine's arithmetic:
/// the transformer doubled for SFNN nets, as Stockfish loads them.
pub fn first_layer_wraps(net: &nnue_runtime::Net, pos: &nnue_runtime::Position) -> bool {
    let ft = net.model.transformer();
    let features = nnue_runtime::features::FeatureSet::for_arch(&net.arch());
    let weight = |f: usize, j: usize| match ft.int8_row(f) {
        Some(row) => i32::from(row[j]),
        None => i32::from(ft.int16_row(f)[j]),
    };
    nnue_runtime::Color::BOTH.into_iter().any(|perspective| {
        let mut active = Vec::new();
        features.active(pos, perspective, &mut active);
        (0..ft.width()).any(|j| {
            let sum: i32 = i32::from(ft.biases[j]) + active.iter().map(|&f| weight(f, j)).sum::<i32>();
            !(i32::from(i16::MIN)..=i32::from(i16::MAX)).contains(&(sum * i32::from(ft.scale)))
        })
    })
}

/// The samples a neuron order is found from (`nnue_format::neuron_order::co_firing_order`):
/// each perspective's half of the pairwise transform's output, as the reference computes it,
/// side to move first, for every position.
pub fn transform_halves(net: &nnue_runtime::Net, positions: &[nnue_runtime::Position]) -> Vec<Vec<u8>> {
    let reference = nnue_runtime::Evaluator::new(net);
    positions
        .iter()
        .flat_map(|pos| {
            let (_, trace) = reference.forward(&reference.refresh(pos), pos.side_to_move(), pos.piece_count());
            let (us, them) = trace.ft_out.split_at(trace.ft_out.len() / 2);
            [us.to_vec(), them.to_vec()]
        })
        .collect()
}

/// FENs, one per line (`#` lines are comments), or the `fen` column of a TSV whose header
/// has one (the oracle files).
pub fn read_fens(path: impl AsRef<Path>) -> Vec<nnue_runtime::Position> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).peekable();
    let column = lines.peek().and_then(|header| header.split('\t').position(|h| h == "fen"));
    if column.is_some() {
        lines.next();
    }
    lines
        .map(|l| l.split('\t').nth(column.unwrap_or(0)).expect("a fen column"))
        .map(|fen| nnue_runtime::Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}")))
        .collect()
}
