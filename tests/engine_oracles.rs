//! Multi-layer nets against the engines that ship them: each synthetic net of
//! `nnue_testkit::engine_nets` (regenerated from its seed, in the engine's own file layout)
//! evaluates the 500 oracle positions and the 1206 positions of 12 games as the engine's own
//! code did (`tests/oracles/`, made by building the engine from its source outside this
//! repository; see `tests/oracles/README.md`): on the reference, on every path of the run-time
//! loaded network and of `nnue_net!`'s, and along the games incrementally through the
//! accumulator stack on every path.

use nnue_runtime::{Evaluator, KernelPath, Net, Network, Position};
use nnue_testkit::chess;
use nnue_testkit::engine_nets::{
    EngineNet, ALEXANDRIA, CAISSA, CINDER, INTEGRAL, OBSIDIAN, PLENTYCHESS, RECKLESS, RECKLESS_PAIRS, STORMPHRAX,
    STORMPHRAX8, STORMPHRAX8_NO_THREATS, VIRIDITHAS, VIRIDITHAS_AVX2,
};

nnue_runtime::nnue_net!(name = alexandria, env = "NNUE_SYNTH_ALEXANDRIA_SYNTH");
nnue_runtime::nnue_net!(name = stormphrax, env = "NNUE_SYNTH_STORMPHRAX_SYNTH");
nnue_runtime::nnue_net!(name = integral, env = "NNUE_SYNTH_INTEGRAL_SYNTH");
nnue_runtime::nnue_net!(name = obsidian, env = "NNUE_SYNTH_OBSIDIAN_SYNTH");
nnue_runtime::nnue_net!(name = reckless, env = "NNUE_SYNTH_RECKLESS_SYNTH");
nnue_runtime::nnue_net!(name = reckless_pairs, env = "NNUE_SYNTH_RECKLESS_PAIRS_SYNTH");
nnue_runtime::nnue_net!(name = plentychess, env = "NNUE_SYNTH_PLENTYCHESS_SYNTH");
nnue_runtime::nnue_net!(name = viridithas, env = "NNUE_SYNTH_VIRIDITHAS_SYNTH");
nnue_runtime::nnue_net!(name = viridithas_avx2, env = "NNUE_SYNTH_VIRIDITHAS_AVX2_SYNTH");
nnue_runtime::nnue_net!(name = stormphrax8_no_threats, env = "NNUE_SYNTH_STORMPHRAX8_NO_THREATS_SYNTH");
nnue_runtime::nnue_net!(name = stormphrax8, env = "NNUE_SYNTH_STORMPHRAX8_SYNTH");
nnue_runtime::nnue_net!(name = caissa, env = "NNUE_SYNTH_CAISSA_SYNTH");
nnue_runtime::nnue_net!(name = cinder, env = "NNUE_SYNTH_CINDER_SYNTH");

/// One oracle row: the moves from the start position (games only), the FEN and the value.
struct Row {
    moves: Vec<String>,
    fen: String,
    eval: i32,
}

fn rows(file: &std::path::Path) -> Vec<Row> {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header line").split('\t').collect();
    lines
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            let col = |name: &str| cols[header.iter().position(|h| *h == name).expect(name)];
            let moves = header.contains(&"moves").then(|| col("moves").split(' ').map(String::from).collect());
            Row { moves: moves.unwrap_or_default(), fen: col("fen").into(), eval: col("eval").parse().unwrap() }
        })
        .collect()
}

/// Every row's value by refresh through `eval`, or the rows that differ.
fn check(what: &str, rows: &[Row], eval: impl Fn(&Position) -> i32) {
    let bad: Vec<String> = rows
        .iter()
        .filter_map(|r| {
            let got = eval(&Position::from_fen(&r.fen).unwrap());
            (got != r.eval).then(|| format!("{}: got {got}, the engine {}", r.fen, r.eval))
        })
        .collect();
    assert!(bad.is_empty(), "{what}: {} of {} differ:\n{}", bad.len(), rows.len(), bad.join("\n"));
}

/// The games of `rows` played through an accumulator stack on `path`, evaluating at each row.
fn check_games<N: Network>(what: &str, net: &N, path: KernelPath, rows: &[Row]) {
    let games: Vec<(&[String], &str)> = rows.iter().map(|r| (r.moves.as_slice(), r.fen.as_str())).collect();
    let evals = chess::evaluate_along_games(net, path, &games);
    let bad: Vec<String> = rows
        .iter()
        .zip(&evals)
        .filter(|(r, e)| e.positional != r.eval)
        .map(|(r, e)| format!("{}: got {}, the engine {}", r.fen, e.positional, r.eval))
        .collect();
    assert!(bad.is_empty(), "{what} on {path}: {} of {} differ:\n{}", bad.len(), rows.len(), bad.join("\n"));
}

/// The net regenerated, the file `nnue_net!` compiled in (written by build.rs from the same
/// table) and the oracle rows: positions, then games.
fn setup(engine: &EngineNet, compiled: &str) -> (Net, Vec<Row>, Vec<Row>) {
    let (net, positions, games) = net_and_rows(engine);
    assert!(std::fs::read(compiled).unwrap() == net.to_bytes(), "build.rs wrote another {} net", engine.name);
    (net, positions, games)
}

/// The net regenerated (and read back from its bytes) and the oracle rows: positions, then games.
fn net_and_rows(engine: &EngineNet) -> (Net, Vec<Row>, Vec<Row>) {
    let net = engine.net();
    let bytes = net.to_bytes();
    assert_eq!(Net::from_bytes(&bytes, Some(&net.arch())).unwrap(), net);
    let positions = rows(&engine.oracle_path());
    let games = rows(&engine.oracle_path().with_file_name(engine.oracle.replace(".tsv", "-games.tsv")));
    assert_eq!((positions.len(), games.len()), (500, 1206), "{}", engine.name);
    (net, positions, games)
}

/// The engine's values on the reference (by refresh), and on every path of the run-time loaded
/// and the generated network (by refresh, and along the games through the accumulator stack).
fn compare<L: Network, G: Network>(name: &str, net: &Net, positions: &[Row], games: &[Row], loaded: &L, generated: &G) {
    let reference = Evaluator::new(net);
    check(&format!("{name}, reference"), positions, |pos| reference.evaluate(pos).positional);
    check(&format!("{name}, reference, games by refresh"), games, |pos| reference.evaluate(pos).positional);
    for path in KernelPath::all() {
        check(&format!("{name}, loaded, {path}"), positions, |pos| loaded.evaluate_on(path, pos).positional);
        check(&format!("{name}, generated, {path}"), positions, |pos| generated.evaluate_on(path, pos).positional);
        check_games(&format!("{name}, generated, games"), generated, path, games);
    }
    check_games(&format!("{name}, reference, games"), &reference, KernelPath::SCALAR, games);
}

/// Alexandria: `(768x16hm -> 1536)x2`, pairwise `>> 10`, sparse int8 16, dual activation, f32
/// 32, f32 1, Alexandria's output buckets; file `nn.net`.
#[test]
fn alexandria() {
    let (net, positions, games) = setup(&ALEXANDRIA, env!("NNUE_SYNTH_ALEXANDRIA_SYNTH"));
    assert_eq!(net.arch().to_string(), alexandria::ARCHITECTURE);
    let weights = nnue_runtime::loaded::FastWeights::new(&net).unwrap();
    let loaded = weights.layered::<1536, 768, 384, 12288, 16, 32, 32, 8>().unwrap();
    compare("alexandria", &net, &positions, &games, &loaded, &alexandria::NETWORK);
}

/// Stormphrax: `(704x16hm -> 1792)x2` (merged kings), pairwise `>> 9`, sparse int8 16 `>> 8`,
/// dual activation, int32 32, int32 1; file `CBNF`.
#[test]
fn stormphrax() {
    let (net, positions, games) = setup(&STORMPHRAX, env!("NNUE_SYNTH_STORMPHRAX_SYNTH"));
    assert_eq!(net.arch().to_string(), stormphrax::ARCHITECTURE);
    assert_eq!(net.description, "synthetic 2027", "the CBNF header's name");
    let weights = nnue_runtime::loaded::FastWeights::new(&net).unwrap();
    let loaded = weights.layered::<1792, 896, 448, 11264, 16, 32, 32, 8>().unwrap();
    compare("stormphrax", &net, &positions, &games, &loaded, &stormphrax::NETWORK);
}

/// Integral: `(768x12hm -> 1536)x2`, pairwise `>> 9`, sparse int8 16, clipped, f32 32,
/// clipped, f32 1; bullet's order.
#[test]
fn integral() {
    let (net, positions, games) = setup(&INTEGRAL, env!("NNUE_SYNTH_INTEGRAL_SYNTH"));
    assert_eq!(net.arch().to_string(), integral::ARCHITECTURE);
    let weights = nnue_runtime::loaded::FastWeights::new(&net).unwrap();
    let loaded = weights.layered::<1536, 768, 384, 9216, 16, 16, 32, 8>().unwrap();
    compare("integral", &net, &positions, &games, &loaded, &integral::NETWORK);
}

/// Obsidian: `(768x13hm -> 1536)x2`, pairwise `>> 9`, sparse int8 16, dual activation, f32
/// 32, clipped, f32 1; Obsidian's order, arrays 64-byte aligned.
#[test]
fn obsidian() {
    let (net, positions, games) = setup(&OBSIDIAN, env!("NNUE_SYNTH_OBSIDIAN_SYNTH"));
    assert_eq!(net.arch().to_string(), obsidian::ARCHITECTURE);
    let weights = nnue_runtime::loaded::FastWeights::new(&net).unwrap();
    let loaded = weights.layered::<1536, 768, 384, 9984, 16, 32, 32, 8>().unwrap();
    compare("obsidian", &net, &positions, &games, &loaded, &obsidian::NETWORK);
}

/// Reckless: threat inputs (int8 rows) beside `768x10hm` piece-square ones, `-> 768)x2`,
/// pairwise `>> 9`, sparse int8 16, clipped, f32 32, clipped, f32 1, output buckets by its
/// table; file `struct Parameters`. Along the games the threats change incrementally (the
/// stack's board and move logs) and king moves across buckets swap the piece sums.
#[test]
fn reckless() {
    let (net, positions, games) = setup(&RECKLESS, env!("NNUE_SYNTH_RECKLESS_SYNTH"));
    assert_eq!(net.arch().to_string(), reckless::ARCHITECTURE);
    let weights = nnue_runtime::loaded::FastWeights::new(&net).unwrap();
    let loaded = weights.layered_threats::<768, 384, 192, 66864, 7680, 16, 16, 32, 8>().unwrap();
    compare("reckless", &net, &positions, &games, &loaded, &reckless::NETWORK);
}

/// Reckless's AVX2 build: its sparse layer's int16 pair sums (`l1sums=i16pairs`), on a net
/// whose sums wrap (its VNNI build, exact, gives other values on 2 of the 500 positions).
#[test]
fn reckless_pairs() {
    let (net, positions, games) = setup(&RECKLESS_PAIRS, env!("NNUE_SYNTH_RECKLESS_PAIRS_SYNTH"));
    assert_eq!(net.arch().to_string(), reckless_pairs::ARCHITECTURE);
    let weights = nnue_runtime::loaded::FastWeights::new(&net).unwrap();
    let loaded = weights.layered_threats::<768, 384, 192, 66864, 7680, 16, 16, 32, 8>().unwrap();
    compare("reckless, pair sums", &net, &positions, &games, &loaded, &reckless_pairs::NETWORK);
}

/// PlentyChess: Stockfish 19's pawn-pair and threat inputs (int8 rows) beside `768x12hm`
/// piece-square ones, `-> 1024)x2`, pairwise `>> 9`, sparse int8 16, dual activation, f32 32,
/// squared, then the output layer over the dense layer's 32 values and the sparse layer's 32
/// activations (a skip connection); one LEB128 varint per value in the file.
#[test]
fn plentychess() {
    let (net, positions, games) = setup(&PLENTYCHESS, env!("NNUE_SYNTH_PLENTYCHESS_SYNTH"));
    assert_eq!(net.arch().to_string(), plentychess::ARCHITECTURE);
    let weights = nnue_runtime::loaded::FastWeights::new(&net).unwrap();
    let loaded = weights.layered_threats::<1024, 512, 256, 64368, 9216, 16, 32, 32, 8>().unwrap();
    compare("plentychess", &net, &positions, &games, &loaded, &plentychess::NETWORK);
}

/// Viridithas: Stockfish 19's pawn-pair and threat inputs (int8 rows) beside `704x16hm`
/// piece-square ones (both kings on one plane), `-> 1024)x2`, pairwise `>> 9`, sparse int8 32,
/// hard-swish, f32 64, SwiGLU (32) plus the dense layer's input, f32 1; `struct
/// QuantisedNetwork`, which the engine reads zstd-compressed (as the file it ran).
#[test]
fn viridithas() {
    let (net, positions, games) = setup(&VIRIDITHAS, env!("NNUE_SYNTH_VIRIDITHAS_SYNTH"));
    assert_eq!(net.arch().to_string(), viridithas::ARCHITECTURE);
    let shipped = nnue_runtime::format::synth::viridithas_zstd(&net);
    assert_eq!(Net::from_bytes(&shipped, Some(&net.arch())).unwrap(), net, "the zstd-compressed file");
    let weights = nnue_runtime::loaded::FastWeights::new(&net).unwrap();
    let loaded = weights.layered_threats::<1024, 512, 256, 64368, 11264, 32, 32, 64, 8>().unwrap();
    compare("viridithas", &net, &positions, &games, &loaded, &viridithas::NETWORK);
}

/// Viridithas's AVX2 build (`l1sums=viridithas-avx2`: its neuron order, int16 sums in fours)
/// on a net whose sparse weights span the int8 range, where its sums wrap. The file is the one
/// the engine ran: the same bytes as the draw read with `l1sums=i16pairs` (the option is not
/// stored; the reader puts the neurons in Viridithas's order, the writer back).
#[test]
fn viridithas_avx2() {
    let (net, positions, games) = setup(&VIRIDITHAS_AVX2, env!("NNUE_SYNTH_VIRIDITHAS_AVX2_SYNTH"));
    assert_eq!(net.arch().to_string(), viridithas_avx2::ARCHITECTURE);
    let pairs = VIRIDITHAS_AVX2.arch.replace("l1sums=viridithas-avx2", "l1sums=i16pairs");
    let Ok(nnue_runtime::Architecture::Layered(pairs)) = pairs.parse() else { panic!("{pairs}") };
    let drawn = nnue_runtime::format::synth::layered(&pairs, VIRIDITHAS_AVX2.seed).to_bytes();
    assert!(drawn == net.to_bytes(), "the file of the draw the engine ran");
    let weights = nnue_runtime::loaded::FastWeights::new(&net).unwrap();
    let loaded = weights.layered_threats::<1024, 512, 256, 64368, 11264, 32, 32, 64, 8>().unwrap();
    compare("viridithas, avx2", &net, &positions, &games, &loaded, &viridithas_avx2::NETWORK);
}

/// Stormphrax 8: Stockfish 19's pawn-pair and threat inputs (int8 rows) after `704x16hm`
/// piece-square ones, `-> 1024)x2`, pairwise `>> 9`, sparse int8 32 `>> 2`, dual activation
/// in Q² units, int32 64 clamped plus the activation (its skip over L2), int32 1, `(out · 400)
/// / Q⁴`; file `CBNF`.
#[test]
fn stormphrax8() {
    let (net, positions, games) = setup(&STORMPHRAX8, env!("NNUE_SYNTH_STORMPHRAX8_SYNTH"));
    assert_eq!(net.arch().to_string(), stormphrax8::ARCHITECTURE);
    assert_eq!(net.arch().to_string().parse::<nnue_runtime::Architecture>(), "stormphrax".parse());
    assert_eq!(net.description, "synthetic 2033", "the CBNF header's name");
    let weights = nnue_runtime::loaded::FastWeights::new(&net).unwrap();
    let loaded = weights.layered_threats::<1024, 512, 256, 64368, 11264, 32, 64, 64, 8>().unwrap();
    compare("stormphrax8", &net, &positions, &games, &loaded, &stormphrax8::NETWORK);
}

/// Stormphrax 8 without threat inputs (its `arch.h` configured with the piece-square set
/// alone): `704x16hm` rows, the rest as Stormphrax 8's; `CBNF` without the threat flag.
#[test]
fn stormphrax8_no_threats() {
    let (net, positions, games) = setup(&STORMPHRAX8_NO_THREATS, env!("NNUE_SYNTH_STORMPHRAX8_NO_THREATS_SYNTH"));
    assert_eq!(net.arch().to_string(), stormphrax8_no_threats::ARCHITECTURE);
    assert_eq!(net.description, "synthetic 2034", "the CBNF header's name");
    let weights = nnue_runtime::loaded::FastWeights::new(&net).unwrap();
    let loaded = weights.layered::<1024, 512, 256, 11264, 32, 64, 64, 8>().unwrap();
    compare("stormphrax8, no threats", &net, &positions, &games, &loaded, &stormphrax8_no_threats::NETWORK);
}

/// Caissa: `(768x32hm -> 1024)x2 -> 1x8`, SCReLU, `bias + Σ/255` not rescaled (its
/// `PackedNeuralNetwork::Run`); file `CSNN`. The one single-layer engine here: its values
/// reach ±500,000, where a rescale by `scale/(qa·qb)` would be the identity only until the
/// int32 product wraps.
#[test]
fn caissa() {
    let (net, positions, games) = setup(&CAISSA, env!("NNUE_SYNTH_CAISSA_SYNTH"));
    assert_eq!(net.arch().to_string(), caissa::ARCHITECTURE);
    assert_eq!(net.arch().to_string().parse::<nnue_runtime::Architecture>(), "caissa".parse());
    let weights = nnue_runtime::loaded::FastWeights::new(&net).unwrap();
    let loaded = weights.chess768::<1024, 24576, 8>().unwrap();
    compare("caissa", &net, &positions, &games, &loaded, &caissa::NETWORK);
}

/// cinder: Stockfish 19's pawn-pair and threat inputs (int8 rows) beside `768x16hm`
/// piece-square ones, all mirrored with the king on files a–d (the reader puts the file's rows
/// in our order), `-> 1024)x2`, `(clamp(l, 0, 127) · clamp(h, 0, 127) + 64) >> 7`, sparse int8
/// 16, signed square, f32 16 in four fma chains and signed square (twice), an output over 8
/// lanes with a residual from the first signed square, times 75, int16 clamped to ±7871; the
/// file zstd-compressed (the bytes cinder's build embedded).
#[test]
fn cinder() {
    let (net, positions, games) = setup(&CINDER, env!("NNUE_SYNTH_CINDER_SYNTH"));
    assert_eq!(net.arch().to_string(), cinder::ARCHITECTURE);
    assert_eq!(net.arch().to_string().parse::<nnue_runtime::Architecture>(), "cinder".parse());
    let shipped = net.to_zstd(1).unwrap();
    assert_eq!(Net::from_bytes(&shipped, Some(&net.arch())).unwrap(), net, "the zstd-compressed file");
    let weights = nnue_runtime::loaded::FastWeights::new(&net).unwrap();
    let loaded = weights.layered_threats::<1024, 512, 256, 64368, 12288, 16, 32, 16, 8>().unwrap();
    compare("cinder", &net, &positions, &games, &loaded, &cinder::NETWORK);
}
