//! Support shared by the workspace's examples, benches and cross-crate tests: finding real
//! nets, reading the Stockfish oracle files, the shakmaty bridge ([`chess`]), the malformed-net
//! corpus ([`corpus`]) and the committed default net ([`default_net`]). Not part of the
//! library users depend on.

pub mod chess;
pub mod corpus;
pub mod default_net;

use std::path::{Path, PathBuf};

/// Stockfish 17.1's default big net (L1 3072).
pub const SF17_BIG: &str = "nn-1c0000000000.nnue";
/// Stockfish 17.1's default small net (L1 128).
pub const SF17_SMALL: &str = "nn-37f18f62d772.nnue";
/// Stockfish 17.1's "lite" net (L1 256).
pub const SF17_LITE: &str = "nn-9067e33176e8.nnue";
/// Stockfish 13's default HalfKP net.
pub const SF13_HALFKP: &str = "nn-62ef826d1a6d.nnue";

/// The workspace root (where this crate's manifest is).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
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

/// Like [`find_net`], but says on stderr that the caller is skipped when the net is missing.
pub fn net_or_skip(name: &str, what: &str) -> Option<PathBuf> {
    let found = find_net(name);
    if found.is_none() {
        eprintln!(
            "SKIPPED {what}: {name} is in neither ../shared/nets/ nor nets/fetched/ \
             (run `python3 scripts/fetch-nets.py {name}`)"
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
}

/// The rows of an oracle file (`stockfish-eval.tsv` or `games.tsv`), if it is there.
pub fn oracle(file: &str) -> Option<Vec<OracleRow>> {
    let text = std::fs::read_to_string(root().join("../shared/oracle").join(file)).ok()?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next()?.split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect("oracle column");
    let (fen, bucket) = (col("fen"), col("bucket"));
    let num = |fields: &[&str], name: &str| fields[col(name)].parse::<i32>().expect("oracle integer");
    let rows = lines
        .filter(|l| !l.is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            OracleRow {
                moves: header
                    .iter()
                    .position(|h| *h == "moves")
                    .map(|i| f[i].split_whitespace().map(str::to_string).collect())
                    .unwrap_or_default(),
                fen: f[fen].to_string(),
                bucket: f[bucket].parse().expect("oracle bucket"),
                big: (num(&f, "big_psqt"), num(&f, "big_positional")),
                small: (num(&f, "small_psqt"), num(&f, "small_positional")),
                halfkp: num(&f, "halfkp"),
            }
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

/// FENs, one per line (`#` lines are comments).
pub fn read_fens(path: impl AsRef<Path>) -> Vec<nnue_runtime::Position> {
    let text = std::fs::read_to_string(path.as_ref()).expect("FEN file");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| nnue_runtime::Position::from_fen(l).expect("FEN"))
        .collect()
}
