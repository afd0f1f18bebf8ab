//! A small UCI engine on top of `nnue_net!` and the accumulator stack: principal variation
//! search with quiescence, iterative deepening, a transposition table that also keeps static
//! evaluations, and move ordering (the table's move, MVV-LVA captures, killers, history).
//! Nothing fancy: it shows how an engine keeps accumulators along make/unmake and lets the
//! two evaluators be compared end to end.
//!
//! ```text
//! cargo run --release --example engine            # UCI on stdin/stdout
//! cargo run --release --example engine bench [depth] [generated|generic]
//! ```
//!
//! UCI: `go` takes `wtime btime winc binc movestogo movetime depth nodes infinite ponder
//! searchmoves` (a bare `go` searches to depth 6); `ponderhit` and `stop`; the options
//! `Evaluator` (generated|generic), `EvalFile` and `EvalArch`, `MultiPV` and `Move Overhead`.
//! `setoption name EvalFile value PATH` switches to the net in PATH without a rebuild, read at
//! run time (a headerless net with the description set first by `EvalArch`): on its fast
//! network when its shape is one this engine was built with (the default net's, Stockfish
//! 17.1's small and big nets, 19's big net), else on the generic evaluator, as `info string`
//! says; `<compiled>` goes back to the net compiled in, which is also the default. Scores are in centipawns:
//! Stockfish nets output internal units, converted as Stockfish 12-15 did (`v * 100 /
//! PawnValueEg`, PawnValueEg = 208); headerless nets output centipawns already (their
//! `scale`). Besides the UCI commands: `eval` prints the current position's evaluation (in
//! the eval example's format), computed incrementally along the last moves of the last
//! `position` command; `bench [depth]` searches fixed positions and ends with `nodes N nps M`.
//!
//! Hostile input: a `position` line costs memory bounded independently of its length (beyond
//! the line itself): the engine keeps the current position, the hashes it needs for
//! repetitions and at most [`EVAL_CHUNK`] moves for `eval`. Lines that are not UTF-8 are
//! ignored, lines longer than [`MAX_LINE`] are skipped, errors in `position` are answered
//! with `info string` (and until the next good `position`, `go` and `eval` say there is no
//! position; `go` answers `bestmove (none)`), and the engine leaves quietly (status 0) when
//! its stdout is closed.

use std::io::{BufRead, ErrorKind, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use nnue_runtime::features::PieceSet;
use nnue_runtime::{AccumulatorStack, Evaluation, Evaluator, Network};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, Role};

nnue_runtime::nnue_net! {
    name = generated,
    env = "EVALFILE",
    default = "nets/default.nnue",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
}

/// The compiled net with its transformer copied, once, into memory advised for huge pages (as
/// Stockfish allocates its network): a move's update reads rows scattered over the whole
/// transformer, and the binary's read-only data comes in 4 KB pages.
static NETWORK: std::sync::LazyLock<generated::Network> =
    std::sync::LazyLock::new(|| generated::NETWORK.in_large_pages());

const MATE: i32 = 32_000;
const INF: i32 = 32_767;
const MAX_PLY: usize = 64;
/// Scores at least this far from zero are mates; evaluations stay below it.
const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;
/// How many nodes between two looks at the clock and the node limit.
const CHECK_EVERY: u64 = 256;
/// `eval` replays at most this many moves incrementally (from a refresh before them).
const EVAL_CHUNK: usize = 64;
/// Game positions kept for repetitions: a repetition needs no irreversible move in between,
/// and 100 reversible plies draw anyway.
const REPETITION_WINDOW: usize = 100;
/// Longer input lines are skipped (and not kept in memory).
const MAX_LINE: usize = 16 << 20;
const DEFAULT_OVERHEAD_MS: u64 = 30;
/// The depth of a `go` with neither limits nor a clock.
const DEFAULT_DEPTH: usize = 6;

const BENCH_FENS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
];

// --- The engine's only contact with the nnue-runtime API (besides `nnue_net!` above). ---

/// The accumulators along the moves from a root position.
struct Acc<N: Network> {
    stack: AccumulatorStack<N>,
}

impl<N: Network> Acc<N> {
    fn new(net: &N, root: &Chess) -> Self {
        Acc { stack: AccumulatorStack::new(net, &nnue_testkit::chess::position(root)) }
    }

    /// Make `mv` in `pos`.
    fn push(&mut self, pos: &Chess, mv: &Move) {
        self.stack.push(nnue_testkit::chess::dirty(pos, mv));
    }

    /// Unmake.
    fn pop(&mut self) {
        self.stack.pop();
    }

    /// Computes the current accumulators now (`pos`: the position the moves lead to).
    fn update(&mut self, net: &N, pos: &Chess) {
        self.stack.current(net, pos);
    }

    /// The stack reads shakmaty's board directly (an `EngineBoard`): its turn and piece
    /// count; a `Position` is built only in debug builds (to check the pushes against it).
    fn evaluate(&mut self, net: &N, pos: &Chess) -> Evaluation {
        self.stack.evaluate(net, pos)
    }
}

/// What the net's output calls a pawn: Stockfish's PawnValueEg (208) in internal units for
/// Stockfish nets, 100 for headerless nets (whose output is centipawns).
fn pawn_value<N: Network>(net: &N) -> i32 {
    match net.feature_set().piece_set() {
        PieceSet::Chess768(_) | PieceSet::Chess704(_) => 100,
        _ => 208,
    }
}

// --- End of the nnue-runtime API. ---

/// Which evaluator the search uses.
#[derive(Clone, Copy)]
enum Kind {
    Generated,
    Generic,
    /// A net read at run time (`setoption name EvalFile`).
    File(&'static FileNet),
}

/// [`search`] on one network: the principal variation and the nodes searched.
type SearchFn = dyn Fn(&Game, &Limits, &Control, bool) -> (Vec<Move>, u64) + Send + Sync;

/// What the search and `eval` need of a net read at run time: its network, whatever its type,
/// behind two functions.
struct FileNet {
    search: Box<SearchFn>,
    eval: Box<dyn Fn(&Game) -> Evaluation + Send + Sync>,
}

impl FileNet {
    /// `net` (kept for the rest of the process) behind the two functions.
    fn over<N: Network + Send + Sync + 'static>(net: N) -> &'static FileNet {
        let net: &'static N = Box::leak(Box::new(net));
        Box::leak(Box::new(FileNet {
            search: Box::new(move |game, limits, ctl, quiet| search(net, game, limits, ctl, quiet)),
            eval: Box::new(move |game| eval_incremental(net, game)),
        }))
    }
}

/// The net in `path` (described by `arch` if given), read at run time: on its fast network if
/// its shape is one of the views below, else on the generic evaluator; what it runs on, said
/// in words. Each switch keeps the net it read for the rest of the process (a GUI switches
/// a few times, not thousands).
fn read_file_net(path: &str, arch: Option<&str>) -> Result<(&'static FileNet, &'static str), String> {
    let arch = arch.map(str::parse::<nnue_runtime::Architecture>).transpose().map_err(|e| format!("EvalArch: {e}"))?;
    let net = nnue_runtime::Net::from_file(path, arch.as_ref()).map_err(|e| e.to_string())?;
    let net: &'static nnue_runtime::Net = Box::leak(Box::new(net));
    if let Ok(weights) = nnue_runtime::loaded::FastWeights::new(net) {
        let weights: &'static nnue_runtime::loaded::FastWeights = Box::leak(Box::new(weights));
        // Each view is one more instantiation of the search: the shapes users try most.
        macro_rules! views {
            ($($view:ident::<$($n:literal),*>),*) => {$(
                if let Ok(view) = weights.$view::<$($n),*>() {
                    return Ok((FileNet::over(view), "its fast network, loaded at run time"));
                }
            )*};
        }
        views!(
            chess768::<32, 768, 1>,
            sfnn::<128, 64, 32>,
            sfnn::<3072, 1536, 768>,
            sf19::<1024, 512, 256, 8, 64368, 22528, 86896>,
            sf19::<1024, 512, 256, 0, 64368, 22528, 86896>
        );
    }
    Ok((FileNet::over(Evaluator::new(net)), "the generic evaluator (no fast view of its shape in this engine)"))
}

/// The generic evaluator over the same file the macro compiled in (read once, kept forever),
/// or why it can't be had: that file is read at run time, from the path it had at build time,
/// and may have moved or changed since. The compiled net stays in use then.
fn generic() -> Result<&'static Evaluator<'static>, String> {
    static GENERIC: std::sync::OnceLock<Evaluator<'static>> = std::sync::OnceLock::new();
    if let Some(g) = GENERIC.get() {
        return Ok(g);
    }
    let arch = generated::ARCHITECTURE.parse::<nnue_runtime::Architecture>().map_err(|e| e.to_string())?;
    let unusable = |why: String| {
        format!("the generic evaluator reads the net file the engine was built from, at run time: {why}; the compiled net stays in use")
    };
    let bytes =
        nnue_runtime::format::read_file_bytes(generated::PATH, Some(&arch)).map_err(|e| unusable(e.to_string()))?;
    if nnue_runtime::format::hash::file_hash(&bytes) != generated::FILE_HASH {
        return Err(unusable(format!(
            "{} is not the file compiled in (replaced since the build, perhaps with an older modification time, which \
             cargo doesn't see: rebuild)",
            generated::PATH
        )));
    }
    let net = nnue_runtime::Net::from_bytes(&bytes, Some(&arch))
        .map_err(|e| unusable(format!("{}: {e}", generated::PATH)))?;
    Ok(GENERIC.get_or_init(|| Evaluator::new(Box::leak(Box::new(net)))))
}

/// Writes one line to stdout. When nobody reads any more (EPIPE: the GUI went away), the
/// engine exits quietly with status 0; on any other write error with status 1.
fn send(line: &str) {
    let mut out = std::io::stdout().lock();
    let written = out.write_all(line.as_bytes()).and_then(|()| out.write_all(b"\n")).and_then(|()| out.flush());
    if let Err(e) = written {
        drop(out);
        std::process::exit(if e.kind() == ErrorKind::BrokenPipe { 0 } else { 1 });
    }
}

/// Shared between the UCI loop and a running search.
struct Control {
    start: Instant,
    stop: AtomicBool,
    /// `go infinite` or `go ponder` before `ponderhit`: no `bestmove` until this is cleared
    /// or `stop` comes, even when the search has finished.
    hold: AtomicBool,
    /// After an iteration past this (ms from `start`), no new one starts (u64::MAX: none).
    soft_ms: AtomicU64,
    /// The search stops at this (ms from `start`), wherever it is (u64::MAX: none).
    hard_ms: AtomicU64,
}

impl Control {
    fn new(hold: bool) -> Control {
        Control {
            start: Instant::now(),
            stop: AtomicBool::new(false),
            hold: AtomicBool::new(hold),
            soft_ms: AtomicU64::new(u64::MAX),
            hard_ms: AtomicU64::new(u64::MAX),
        }
    }

    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Starts the clock of `plan` now.
    fn set_deadlines(&self, plan: Plan) {
        let now = self.elapsed_ms();
        let at = |d: Option<u64>| d.map_or(u64::MAX, |d| now.saturating_add(d));
        self.soft_ms.store(at(plan.soft_ms), Ordering::Relaxed);
        self.hard_ms.store(at(plan.hard_ms), Ordering::Relaxed);
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Time for one move, in ms from when the clock starts.
#[derive(Clone, Copy, Default, Debug)]
struct Plan {
    soft_ms: Option<u64>,
    hard_ms: Option<u64>,
}

/// The parameters of a `go` command.
#[derive(Clone, Default, Debug)]
struct Go {
    depth: Option<usize>,
    nodes: Option<u64>,
    movetime: Option<u64>,
    time: [Option<u64>; 2],
    inc: [u64; 2],
    movestogo: Option<u64>,
    infinite: bool,
    ponder: bool,
    searchmoves: Vec<String>,
}

impl Go {
    fn parse<'a>(mut words: impl Iterator<Item = &'a str>) -> Go {
        let mut go = Go::default();
        // Negative clock values (some GUIs send them when flagging) count as zero; numbers
        // past u64 (`depth 99999999999999999999`) as u64::MAX.
        let number = |w: Option<&str>| {
            let w = w?;
            let huge = !w.is_empty() && w.trim_start_matches('+').bytes().all(|b| b.is_ascii_digit());
            w.parse::<i128>().ok().map(|n| n.clamp(0, i128::from(u64::MAX)) as u64).or(huge.then_some(u64::MAX))
        };
        let mut pending = None;
        while let Some(word) = pending.take().or_else(|| words.next()) {
            match word {
                // The search clamps it to its maximum depth.
                "depth" => go.depth = number(words.next()).map(|d| usize::try_from(d).unwrap_or(usize::MAX)),
                "nodes" => go.nodes = number(words.next()),
                "movetime" => go.movetime = number(words.next()),
                "wtime" => go.time[0] = number(words.next()),
                "btime" => go.time[1] = number(words.next()),
                "winc" => go.inc[0] = number(words.next()).unwrap_or(0),
                "binc" => go.inc[1] = number(words.next()).unwrap_or(0),
                "movestogo" => go.movestogo = number(words.next()),
                "infinite" => go.infinite = true,
                "ponder" => go.ponder = true,
                "searchmoves" => {
                    for w in words.by_ref() {
                        if w.parse::<UciMove>().is_err() {
                            pending = Some(w);
                            break;
                        }
                        // More than there can be legal moves are ignored (hostile input).
                        if go.searchmoves.len() < 256 {
                            go.searchmoves.push(w.to_string());
                        }
                    }
                }
                _ => {}
            }
        }
        go
    }

    /// The time for this move of the side `stm` (0 white, 1 black), `overhead` ms kept back
    /// per move for communication: the remaining time over the moves to go (25 when not
    /// given) plus three quarters of the increment as a target, and a hard limit of three
    /// times that but at most a quarter of what remains (three quarters before a time
    /// control's last move). `movetime` is used whole, less the overhead.
    fn plan(&self, stm: usize, overhead: u64) -> Plan {
        if let Some(t) = self.movetime {
            return Plan { soft_ms: None, hard_ms: Some(t.saturating_sub(overhead).max(t / 2)) };
        }
        let Some(time) = self.time[stm] else { return Plan::default() };
        let avail = time.saturating_sub(overhead);
        let inc = self.inc[stm].min(avail);
        let mtg = self.movestogo.unwrap_or(25).clamp(1, 50);
        // In u128: a clock near u64::MAX must not wrap to a few ms.
        let three_quarters = |ms: u64| (u128::from(ms) * 3 / 4) as u64;
        let target = (avail / mtg).saturating_add(three_quarters(inc));
        let hard = if mtg == 1 { three_quarters(avail) } else { (avail / 4).min(target.saturating_mul(3)) };
        let soft = target.min(hard);
        Plan { soft_ms: Some(soft), hard_ms: Some(hard) }
    }
}

/// How a search ends besides the clock.
#[derive(Clone, Default)]
struct Limits {
    depth: Option<usize>,
    nodes: Option<u64>,
    multipv: usize,
    /// Root moves to search (empty: all).
    searchmoves: Vec<Move>,
}

/// The game as the engine keeps it: the current position, the hashes of the positions
/// before it that a repetition can still reach, and the last moves for `eval`.
#[derive(Clone)]
struct Game {
    /// Where `tail` starts.
    base: Chess,
    /// At most [`EVAL_CHUNK`] moves from `base` to `pos`.
    tail: Vec<Move>,
    pos: Chess,
    /// Hashes of positions before `pos`, oldest first, since the last irreversible move (at
    /// most the last 2 * [`REPETITION_WINDOW`]).
    hashes: Vec<u64>,
}

impl Game {
    fn new(pos: Chess) -> Game {
        Game { base: pos.clone(), tail: Vec::new(), pos, hashes: Vec::new() }
    }

    fn play(&mut self, mv: Move) {
        self.hashes.push(hash(&self.pos));
        self.pos.play_unchecked(mv);
        if self.pos.halfmoves() == 0 {
            self.hashes.clear();
        } else if self.hashes.len() >= 2 * REPETITION_WINDOW {
            self.hashes.drain(..REPETITION_WINDOW);
        }
        if self.tail.len() == EVAL_CHUNK {
            self.tail.clear();
            self.base = self.pos.clone();
        } else {
            self.tail.push(mv);
        }
    }
}

/// At most 60 characters of `s`, for quoting input in messages.
fn quote(s: &str) -> String {
    match s.char_indices().nth(60) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

/// `position startpos|fen <fen> [moves ...]` (the words after `position`).
fn parse_position<'a>(mut words: impl Iterator<Item = &'a str>) -> Result<Game, String> {
    let mut after = None;
    let start = match words.next() {
        Some("startpos") => Chess::default(),
        Some("fen") => {
            let mut fields = Vec::new();
            for w in words.by_ref() {
                if w == "moves" {
                    after = Some(w);
                    break;
                }
                if fields.len() == 6 {
                    return Err(format!("bad fen: more than 6 fields ({})", quote(w)));
                }
                fields.push(w);
            }
            let text = fields.join(" ");
            let fen: Fen = text.parse().map_err(|e| format!("bad fen {}: {e}", quote(&text)))?;
            fen.into_position(CastlingMode::Standard).map_err(|e| format!("bad fen {}: {e}", quote(&text)))?
        }
        Some(w) => return Err(format!("expected startpos or fen, not {}", quote(w))),
        None => return Err("expected startpos or fen".to_string()),
    };
    let mut game = Game::new(start);
    match after.or_else(|| words.next()) {
        None => return Ok(game),
        Some("moves") => {}
        Some(w) => return Err(format!("expected moves, not {}", quote(w))),
    }
    for (ply, w) in words.enumerate() {
        let mv = w
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&game.pos).ok())
            .ok_or_else(|| format!("illegal move {} at ply {}", quote(w), ply + 1))?;
        game.play(mv);
    }
    Ok(game)
}

fn hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// Most valuable victim, least valuable attacker: higher first; promotions count as captures.
fn mvv_lva(m: &Move) -> i32 {
    let value = |r: Role| match r {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    };
    let victim = m.capture().map_or(0, value) * 10 + m.promotion().map_or(0, value) * 8;
    victim * 16 - value(m.role())
}

/// Most valuable victim, least valuable attacker first; promotions among captures.
fn order(moves: &mut [Move]) {
    moves.sort_by_key(|m| -mvv_lva(m));
}

/// A move in 16 bits for the transposition table (0: none): from, to, promotion. Castling
/// is the king's square and the rook's, so no two moves of a position share a code.
fn move_code(m: &Move) -> u16 {
    let from = m.from().map_or(0, |s| s.to_usize() as u16);
    from | (m.to().to_usize() as u16) << 6 | m.promotion().map_or(0, |r| r as u16) << 12
}

/// How a stored score bounds the true one.
const BOUND_UPPER: u8 = 1;
const BOUND_LOWER: u8 = 2;
const BOUND_EXACT: u8 = 3;
/// No static evaluation stored.
const NO_EVAL: i16 = i16::MIN;

/// What the table knows of a position.
#[derive(Clone, Copy)]
struct TtEntry {
    mv: u16,
    score: i16,
    /// The net's evaluation ([`NO_EVAL`] if not computed yet).
    eval: i16,
    depth: u8,
    bound: u8,
}

impl TtEntry {
    /// Whether the stored score (`score`, made relative to the root) decides a node searched
    /// to `depth` in (alpha, beta).
    fn cuts(&self, score: i32, depth: usize, alpha: i32, beta: i32) -> bool {
        usize::from(self.depth) >= depth
            && match self.bound {
                BOUND_EXACT => true,
                BOUND_LOWER => score >= beta,
                BOUND_UPPER => score <= alpha,
                _ => false,
            }
    }

    fn eval(&self) -> Option<i32> {
        (self.eval != NO_EVAL).then_some(i32::from(self.eval))
    }
}

/// The transposition table: one entry per slot, indexed and checked by the Zobrist key, always
/// replaced (keeping the stored evaluation when the key is the same). Besides the best move
/// and a bounded score, it keeps the static evaluation, so that a position met again through
/// another move order, or searched again one iteration deeper, is not evaluated again: its
/// accumulators are then never computed (the stack computes them only on evaluation).
/// Zeroed memory is an empty table, so a new one costs no time until it is written.
struct Tt {
    /// Per slot: the key, then the entry packed into a u64.
    slots: Vec<[u64; 2]>,
}

impl Tt {
    /// 2^20 slots of 16 bytes: 16 MB.
    const BITS: u32 = 20;

    fn new() -> Tt {
        Tt { slots: vec![[0; 2]; 1 << Self::BITS] }
    }

    fn slot(&self, key: u64) -> usize {
        (key >> (64 - Self::BITS)) as usize
    }

    fn probe(&self, key: u64) -> Option<TtEntry> {
        let [k, v] = self.slots[self.slot(key)];
        (k == key && v != 0).then_some(TtEntry {
            mv: v as u16,
            score: (v >> 16) as u16 as i16,
            eval: (v >> 32) as u16 as i16,
            depth: (v >> 48) as u8,
            bound: (v >> 56) as u8,
        })
    }

    fn store(&mut self, key: u64, mut e: TtEntry) {
        let i = self.slot(key);
        if e.eval == NO_EVAL {
            e.eval = self.probe(key).map_or(NO_EVAL, |old| old.eval);
        }
        let packed = u64::from(e.mv)
            | u64::from(e.score as u16) << 16
            | u64::from(e.eval as u16) << 32
            | u64::from(e.depth) << 48
            | u64::from(e.bound) << 56;
        self.slots[i] = [key, packed];
    }
}

/// Mate scores count plies from the root; the table keeps them from the position instead.
fn score_to_tt(score: i32, ply: usize) -> i16 {
    let ply = ply as i32;
    (if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    }) as i16
}

fn score_from_tt(score: i16, ply: usize) -> i32 {
    let (score, ply) = (i32::from(score), ply as i32);
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

fn uci(mv: &Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}

struct Search<'a, N: Network> {
    net: &'a N,
    acc: Acc<N>,
    nodes: u64,
    ctl: &'a Control,
    node_limit: Option<u64>,
    /// When the clock and the node limit are looked at next.
    next_check: u64,
    /// Whether the clock and the node limit stop the search: not before depth 1 is done (a
    /// `go movetime 0`, `nodes 0` or `wtime -5` still searches one ply; `stop` stops it).
    limits_armed: bool,
    pv: Vec<Vec<Move>>,
    /// Root moves searched first, in this order (the previous iteration's lines).
    root_first: Vec<Move>,
    /// Root moves not searched: searchmoves' complement, the lines found so far (MultiPV).
    root_skip: Vec<Move>,
    /// Hashes of the positions before the current one: the game's, then the search path's.
    history: Vec<u64>,
    tt: Tt,
    /// Per ply, the last two quiet moves that caused a beta cutoff (move codes).
    killers: Vec<[u16; 2]>,
    /// Per side to move, from and to square: how often a quiet move caused a cutoff, weighted
    /// by depth squared.
    quiet_history: Box<[[[i32; 64]; 64]; 2]>,
}

impl<N: Network> Search<'_, N> {
    fn evaluate(&mut self, pos: &Chess) -> i32 {
        self.acc.evaluate(self.net, pos).total().clamp(1 - MATE_BOUND, MATE_BOUND - 1)
    }

    fn out_of_time(&mut self) -> bool {
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            let late = self.ctl.elapsed_ms() >= self.ctl.hard_ms.load(Ordering::Relaxed);
            let many = self.node_limit.is_some_and(|n| self.nodes >= n);
            if self.limits_armed && (late || many) {
                self.ctl.stop.store(true, Ordering::Relaxed);
            }
        }
        self.ctl.stopped()
    }

    fn make(&mut self, pos: &Chess, mv: &Move) -> Chess {
        self.acc.push(pos, mv);
        let mut child = pos.clone();
        child.play_unchecked(*mv);
        child
    }

    /// Captures only, from the static evaluation (the table's, when it has one). Scores here
    /// are never mates, so they go to the table unchanged, as depth 0.
    fn quiescence(&mut self, pos: &Chess, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        let key = hash(pos);
        let entry = self.tt.probe(key);
        if let Some(e) = entry.filter(|e| e.cuts(i32::from(e.score), 0, alpha, beta)) {
            return i32::from(e.score);
        }
        let stand_pat = match entry.and_then(|e| e.eval()) {
            Some(eval) => eval,
            None => self.evaluate(pos),
        };
        let (alpha_in, eval) = (alpha, stand_pat as i16);
        let mut best = (stand_pat, 0);
        if stand_pat < beta {
            alpha = alpha.max(stand_pat);
            let mut captures: Vec<Move> = pos.capture_moves().into_iter().collect();
            order(&mut captures);
            for mv in &captures {
                let child = self.make(pos, mv);
                let score = -self.quiescence(&child, -beta, -alpha);
                self.acc.pop();
                if self.ctl.stopped() {
                    return 0;
                }
                if score > best.0 {
                    best = (score, move_code(mv));
                }
                if score >= beta {
                    break;
                }
                alpha = alpha.max(score);
            }
        }
        let (score, mv) = best;
        let bound = if score >= beta {
            BOUND_LOWER
        } else if score > alpha_in {
            BOUND_EXACT
        } else {
            BOUND_UPPER
        };
        self.tt.store(key, TtEntry { mv, score: score as i16, eval, depth: 0, bound });
        if score >= beta {
            score
        } else {
            score.max(alpha_in)
        }
    }

    /// Negamax with a draw for a position repeated since the last irreversible move.
    fn negamax(&mut self, pos: &Chess, depth: usize, alpha: i32, beta: i32, ply: usize) -> i32 {
        let h = hash(pos);
        if ply > 0 && self.history.iter().rev().take(pos.halfmoves() as usize).any(|&old| old == h) {
            self.pv[ply].clear();
            return 0;
        }
        self.history.push(h);
        let score = self.alpha_beta(pos, h, depth, alpha, beta, ply);
        self.history.pop();
        score
    }

    /// The table's move first, then captures and promotions by MVV-LVA, the killers, and the
    /// other quiet moves by history.
    fn order_moves(&self, moves: &mut [Move], tt_move: u16, ply: usize, side: usize) {
        let killers = self.killers[ply];
        moves.sort_by_key(|m| {
            let code = move_code(m);
            if code == tt_move {
                i32::MIN
            } else if m.is_capture() || m.is_promotion() {
                -(1 << 24) - mvv_lva(m)
            } else if let Some(k) = killers.iter().position(|&k| k == code) {
                -(1 << 23) + k as i32
            } else {
                let from = m.from().map_or(0, |s| s.to_usize());
                -self.quiet_history[side][from][m.to().to_usize()]
            }
        });
    }

    /// The net's evaluation of `pos` (whose key is `key`), from the table when it has it;
    /// else computed and stored there, beside what the table knew of the position.
    fn static_eval(&mut self, pos: &Chess, key: u64, entry: Option<TtEntry>) -> i32 {
        if let Some(eval) = entry.and_then(|e| e.eval()) {
            return eval;
        }
        let eval = self.evaluate(pos);
        let known = entry.unwrap_or(TtEntry { mv: 0, score: 0, eval: NO_EVAL, depth: 0, bound: 0 });
        self.tt.store(key, TtEntry { eval: eval as i16, ..known });
        eval
    }

    /// A quiet move caused a cutoff at `ply` with `depth` to go: a killer, and history.
    fn reward_quiet(&mut self, mv: &Move, depth: usize, ply: usize, side: usize) {
        let code = move_code(mv);
        let killers = &mut self.killers[ply];
        if killers[0] != code {
            *killers = [code, killers[0]];
        }
        let from = mv.from().map_or(0, |s| s.to_usize());
        let h = &mut self.quiet_history[side][from][mv.to().to_usize()];
        *h += (depth * depth) as i32;
        // Kept below the killers' keys: halve all now and then.
        if *h >= 1 << 21 {
            self.quiet_history.iter_mut().flatten().flatten().for_each(|h| *h /= 2);
        }
    }

    /// Principal variation search: the first move with the full window, the others with a
    /// null window first (searched again in full if they beat alpha; late quiet moves one ply
    /// shallower first). Outside the principal variation a stored bound that is deep enough
    /// decides the node at once, and a null move may.
    fn alpha_beta(&mut self, pos: &Chess, key: u64, depth: usize, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        if self.out_of_time() {
            return 0;
        }
        let mut moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        if moves.is_empty() {
            return if pos.is_check() { -MATE + ply as i32 } else { 0 };
        }
        if ply > 0 && (pos.is_insufficient_material() || pos.halfmoves() >= 100) {
            return 0;
        }
        if depth == 0 || ply + 1 >= MAX_PLY {
            return self.quiescence(pos, alpha, beta);
        }
        self.nodes += 1;
        let entry = self.tt.probe(key);
        let null_window = beta - alpha == 1;
        if let Some(e) = entry {
            let score = score_from_tt(e.score, ply);
            if ply > 0 && null_window && e.cuts(score, depth, alpha, beta) {
                return score;
            }
        }
        let in_check = pos.is_check();
        // Null move: outside the principal variation, when the static evaluation is already
        // at least beta and the side to move has pieces (no zugzwang in pawn endings), let
        // the opponent move twice; if that still fails high, so will a real move.
        if ply > 0
            && null_window
            && depth >= 3
            && !in_check
            && (pos.us() & !pos.board().pawns() & !pos.board().kings()).any()
        {
            let eval = self.static_eval(pos, key, entry);
            if eval >= beta {
                if let Ok(null) = pos.clone().swap_turn() {
                    // The board is the same: nothing to push on the accumulator stack.
                    let score = -self.negamax(&null, depth - 3, -beta, -beta + 1, ply + 1);
                    if self.ctl.stopped() {
                        return 0;
                    }
                    if score >= beta {
                        return score.min(MATE_BOUND - 1);
                    }
                }
            }
        }
        let side = pos.turn().fold_wb(0, 1);
        self.order_moves(&mut moves, entry.map_or(0, |e| e.mv), ply, side);
        if ply == 0 {
            moves.retain(|m| !self.root_skip.contains(m));
            let first = &self.root_first;
            moves.sort_by_key(|m| first.iter().position(|f| f == m).unwrap_or(usize::MAX));
        }
        let (alpha_in, mut best, mut best_move) = (alpha, -INF, 0);
        for (i, mv) in moves.iter().enumerate() {
            let child = self.make(pos, mv);
            // Late quiet moves that don't give check: first searched one ply shallower.
            let quiet = !mv.is_capture() && !mv.is_promotion();
            let reduce = usize::from(depth >= 3 && i >= 3 && quiet && !in_check && !child.is_check());
            let mut score = INF;
            if i > 0 {
                score = -self.negamax(&child, depth - 1 - reduce, -alpha - 1, -alpha, ply + 1);
                if reduce > 0 && score > alpha && !self.ctl.stopped() {
                    score = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
            }
            if i == 0 || (score > alpha && score < beta && !self.ctl.stopped()) {
                score = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1);
            }
            self.acc.pop();
            if self.ctl.stopped() {
                return best.max(score);
            }
            if score > best {
                best = score;
                best_move = move_code(mv);
                let tail = std::mem::take(&mut self.pv[ply + 1]);
                self.pv[ply] = std::iter::once(*mv).chain(tail).collect();
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                if !mv.is_capture() && !mv.is_promotion() {
                    self.reward_quiet(mv, depth, ply, side);
                }
                break;
            }
        }
        // The root's best move depends on the moves MultiPV leaves out: not stored.
        if ply > 0 {
            let bound = if best >= beta {
                BOUND_LOWER
            } else if best > alpha_in {
                BOUND_EXACT
            } else {
                BOUND_UPPER
            };
            let entry =
                TtEntry { mv: best_move, score: score_to_tt(best, ply), eval: NO_EVAL, depth: depth as u8, bound };
            self.tt.store(key, entry);
        }
        best
    }
}

/// `score cp N` or `score mate N` (moves, negative when mated).
fn score_text(score: i32, pawn: i32) -> String {
    if score.abs() >= MATE_BOUND {
        let plies = MATE - score.abs();
        format!("mate {}", score.signum() * (plies + 1) / 2)
    } else {
        format!("cp {}", score * 100 / pawn)
    }
}

/// Iterative deepening from `game.pos`, `info` lines (MultiPV lines per depth) unless
/// `quiet`. Returns the best line (empty when there is no legal move) and the nodes searched.
fn search<N: Network>(net: &N, game: &Game, limits: &Limits, ctl: &Control, quiet: bool) -> (Vec<Move>, u64) {
    let root = &game.pos;
    let legal: Vec<Move> = root.legal_moves().into_iter().collect();
    let allowed: Vec<Move> = legal.iter().filter(|m| limits.searchmoves.contains(m)).copied().collect();
    let allowed = if allowed.is_empty() { legal } else { allowed };
    let skip_always: Vec<Move> = root.legal_moves().into_iter().filter(|m| !allowed.contains(m)).collect();
    let mut s = Search {
        net,
        acc: Acc::new(net, root),
        nodes: 0,
        ctl,
        node_limit: limits.nodes,
        next_check: 0,
        limits_armed: false,
        pv: vec![Vec::new(); MAX_PLY + 1],
        root_first: Vec::new(),
        root_skip: skip_always.clone(),
        history: game.hashes.clone(),
        tt: Tt::new(),
        killers: vec![[0; 2]; MAX_PLY + 1],
        quiet_history: Box::new([[[0; 64]; 64]; 2]),
    };
    let pawn = pawn_value(net);
    let lines_wanted = limits.multipv.clamp(1, allowed.len().max(1));
    let mut best: Vec<(i32, Vec<Move>)> = Vec::new();
    for depth in 1..=limits.depth.unwrap_or(MAX_PLY - 1).clamp(1, MAX_PLY - 1) {
        let mut lines = Vec::new();
        s.limits_armed = depth > 1;
        s.root_skip.clone_from(&skip_always);
        while lines.len() < lines_wanted {
            let score = s.negamax(root, depth, -INF, INF, 0);
            if (ctl.stopped() && depth > 1) || s.pv[0].is_empty() {
                break;
            }
            s.root_skip.push(s.pv[0][0]);
            lines.push((score, s.pv[0].clone()));
        }
        if ctl.stopped() && (depth > 1 || lines.is_empty()) {
            break;
        }
        if !quiet {
            let ms = ctl.elapsed_ms();
            for (k, (score, pv)) in lines.iter().enumerate() {
                let pv: Vec<String> = pv.iter().map(uci).collect();
                send(&format!(
                    "info depth {depth} multipv {} score {} nodes {} nps {} time {ms} pv {}",
                    k + 1,
                    score_text(*score, pawn),
                    s.nodes,
                    s.nodes * 1000 / ms.max(1),
                    pv.join(" ")
                ));
            }
        }
        s.root_first = lines.iter().map(|(_, pv)| pv[0]).collect();
        best = lines;
        // The next iteration takes several times this one: don't start it past a third of
        // the target time.
        if ctl.stopped() || ctl.elapsed_ms().saturating_mul(3) >= ctl.soft_ms.load(Ordering::Relaxed) {
            break;
        }
    }
    (best.into_iter().next().map(|(_, pv)| pv).unwrap_or_default(), s.nodes)
}

fn search_with(kind: Kind, game: &Game, limits: &Limits, ctl: &Control, quiet: bool) -> (Vec<Move>, u64) {
    match kind {
        Kind::Generated => search(&*NETWORK, game, limits, ctl, quiet),
        Kind::Generic => match generic() {
            Ok(g) => search(g, game, limits, ctl, quiet),
            // Only reached from `bench … generic`, which said why already.
            Err(_) => search(&*NETWORK, game, limits, ctl, quiet),
        },
        Kind::File(net) => (net.search)(game, limits, ctl, quiet),
    }
}

/// A `go` in the search thread: the search, then (after `stop` or `ponderhit` when held)
/// `bestmove`.
fn run_go(kind: Kind, game: Game, limits: Limits, ctl: &Control) {
    let best = if game.pos.legal_moves().is_empty() {
        let score = if game.pos.is_check() { "mate 0" } else { "cp 0" };
        send(&format!("info depth 0 score {score}"));
        Vec::new()
    } else {
        search_with(kind, &game, &limits, ctl, false).0
    };
    while ctl.hold.load(Ordering::Relaxed) && !ctl.stopped() {
        std::thread::sleep(Duration::from_millis(1));
    }
    send(&match best.as_slice() {
        [] if game.pos.legal_moves().is_empty() => "bestmove (none)".to_string(),
        // Stopped before a move of depth 1 was searched: the first in the search's order.
        [] => {
            let mut moves: Vec<Move> = game.pos.legal_moves().into_iter().collect();
            order(&mut moves);
            format!("bestmove {}", uci(&moves[0]))
        }
        [mv] => format!("bestmove {}", uci(mv)),
        [mv, reply, ..] => format!("bestmove {} ponder {}", uci(mv), uci(reply)),
    });
}

/// Searches the bench positions until done or `ctl` is stopped (over UCI: `stop`, `quit`, the
/// end of the input).
fn bench(depth: usize, kind: Kind, ctl: &Control) {
    let (start, mut nodes) = (Instant::now(), 0);
    for fen in BENCH_FENS {
        if ctl.stopped() {
            break;
        }
        let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        let limits = Limits { depth: Some(depth), multipv: 1, ..Limits::default() };
        nodes += search_with(kind, &Game::new(pos), &limits, ctl, true).1;
    }
    let elapsed = start.elapsed().as_secs_f64().max(1e-6);
    send(&format!("nodes {nodes} nps {}", (nodes as f64 / elapsed) as u64));
}

/// The evaluation of `game.pos` through the accumulator stack: a refresh at `game.base`, then
/// one push per move of `game.tail`, each ply's accumulator computed from the one below (left
/// lazy, a long line of moves would end in a refresh, which is cheaper than that many
/// updates but tests less).
fn eval_incremental<N: Network>(net: &N, game: &Game) -> Evaluation {
    let mut acc = Acc::new(net, &game.base);
    let mut pos = game.base.clone();
    for mv in &game.tail {
        acc.push(&pos, mv);
        pos.play_unchecked(*mv);
        acc.update(net, &pos);
    }
    acc.evaluate(net, &pos)
}

/// Reads one line into `buf` (without the newline). `None` at the end of the input;
/// `Some(false)` for a line longer than [`MAX_LINE`], which is consumed but not kept.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> Option<bool> {
    buf.clear();
    let (mut fits, mut any) = (true, false);
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if chunk.is_empty() {
            return any.then_some(fits);
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1),
            None => (chunk, chunk.len()),
        };
        let newline = done > part.len();
        if fits && buf.len() + part.len() <= MAX_LINE {
            buf.extend_from_slice(part);
        } else {
            (fits, *buf) = (false, Vec::new());
        }
        input.consume(done);
        if newline {
            return Some(fits);
        }
    }
}

/// A search running in its thread.
struct Running {
    handle: JoinHandle<()>,
    ctl: Arc<Control>,
    /// The time plan to start on `ponderhit` (`go ponder` only).
    ponder: Option<Plan>,
}

/// Stops the running search, if any, and waits for its `bestmove`.
fn finish(running: &mut Option<Running>) {
    if let Some(r) = running.take() {
        r.ctl.stop.store(true, Ordering::Relaxed);
        r.handle.join().expect("search thread");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind_arg = |s: Option<&String>| match s.map(String::as_str) {
        Some("generic") => Kind::Generic,
        _ => Kind::Generated,
    };
    if args.first().map(String::as_str) == Some("bench") {
        let depth = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(5);
        let kind = kind_arg(args.get(2));
        if let (Kind::Generic, Err(e)) = (kind, generic().map(|_| ())) {
            send(&format!("info string {e}"));
        }
        bench(depth, kind, &Control::new(false));
        return;
    }
    let (mut kind, mut multipv, mut overhead) = (Kind::Generated, 1usize, DEFAULT_OVERHEAD_MS);
    // `EvalArch`: the description `EvalFile` reads a headerless net with.
    let mut eval_arch: Option<String> = None;
    let mut game = Game::new(Chess::default());
    // Why the last `position` was refused: `go` and `eval` then answer for no position.
    let mut rejected: Option<String> = None;
    let mut running: Option<Running> = None;
    let mut input = std::io::stdin().lock();
    let mut buf = Vec::new();
    while let Some(fits) = read_line(&mut input, &mut buf) {
        if !fits {
            send(&format!("info string line longer than {MAX_LINE} bytes ignored"));
            continue;
        }
        // Not UTF-8: ignored.
        let Ok(line) = std::str::from_utf8(&buf) else { continue };
        let mut words = line.split_ascii_whitespace();
        match words.next() {
            Some("uci") => {
                send("id name nnue-example-engine");
                send("id author the nnue project");
                send("option name Evaluator type combo default generated var generated var generic");
                send("option name EvalFile type string default <compiled>");
                send("option name EvalArch type string default <none>");
                send("option name MultiPV type spin default 1 min 1 max 256");
                send(&format!("option name Move Overhead type spin default {DEFAULT_OVERHEAD_MS} min 0 max 5000"));
                send("uciok");
            }
            Some("isready") => send("readyok"),
            Some("ucinewgame") => {
                finish(&mut running);
                game = Game::new(Chess::default());
                rejected = None;
            }
            Some("setoption") => {
                // setoption name <name words> value <value>
                let rest: Vec<&str> = words.take(64).collect();
                let at = rest.iter().position(|w| *w == "value").unwrap_or(rest.len());
                let name = rest.get(1..at).unwrap_or_default().join(" ").to_ascii_lowercase();
                let value = rest.get(at + 1..).unwrap_or_default().join(" ");
                let known = match (name.as_str(), value.as_str()) {
                    ("evalfile", "<compiled>" | "") => {
                        finish(&mut running);
                        kind = Kind::Generated;
                        send(&format!("info string EvalFile: the net compiled in ({})", generated::ARCHITECTURE));
                        true
                    }
                    ("evalfile", path) => {
                        // After the running search: it holds the net it started with.
                        finish(&mut running);
                        match read_file_net(path, eval_arch.as_deref()) {
                            Ok((net, how)) => {
                                kind = Kind::File(net);
                                send(&format!("info string EvalFile: {} on {how}", quote(path)));
                            }
                            Err(e) => {
                                send(&format!("info string EvalFile {} not used, the net stays: {e}", quote(path)))
                            }
                        }
                        true
                    }
                    ("evalarch", "<none>" | "") => {
                        eval_arch = None;
                        true
                    }
                    ("evalarch", text) => {
                        eval_arch = Some(text.to_string());
                        true
                    }
                    ("evaluator", "generic") => {
                        match generic() {
                            Ok(_) => kind = Kind::Generic,
                            Err(e) => send(&format!("info string {e}")),
                        }
                        true
                    }
                    ("evaluator", "generated") => {
                        kind = Kind::Generated;
                        true
                    }
                    ("multipv", v) => v.parse::<usize>().map(|n| multipv = n.clamp(1, 256)).is_ok(),
                    ("move overhead", v) => v.parse::<u64>().map(|n| overhead = n.min(5000)).is_ok(),
                    _ => false,
                };
                if !known {
                    send(&format!("info string unknown option or value: {}", quote(line)));
                }
            }
            Some("position") => {
                finish(&mut running);
                match parse_position(words) {
                    Ok(g) => (game, rejected) = (g, None),
                    Err(e) => {
                        send(&format!("info string {e}"));
                        rejected = Some(e);
                    }
                }
            }
            Some(cmd @ ("eval" | "go")) if rejected.is_some() => {
                finish(&mut running);
                let why = rejected.as_deref().unwrap_or_default();
                send(&format!("info string no position: the last position command was refused ({why})"));
                if cmd == "go" {
                    send("bestmove (none)");
                }
            }
            Some("eval") => {
                let e = match kind {
                    Kind::Generated => eval_incremental(&generated::NETWORK, &game),
                    Kind::Generic => match generic() {
                        Ok(g) => eval_incremental(g, &game),
                        Err(_) => eval_incremental(&generated::NETWORK, &game),
                    },
                    Kind::File(net) => (net.eval)(&game),
                };
                send(&e.to_string());
            }
            Some("go") => {
                finish(&mut running);
                let go = Go::parse(words);
                let searchmoves =
                    go.searchmoves.iter().filter_map(|w| w.parse::<UciMove>().ok()?.to_move(&game.pos).ok()).collect();
                let mut limits = Limits { depth: go.depth, nodes: go.nodes, multipv, searchmoves };
                let plan = go.plan(game.pos.turn().fold_wb(0, 1), overhead);
                let timed = plan.hard_ms.is_some();
                if limits.depth.is_none() && limits.nodes.is_none() && !timed && !go.infinite && !go.ponder {
                    limits.depth = Some(DEFAULT_DEPTH);
                }
                // On the clock, a forced move is played at once.
                if timed && !go.infinite && !go.ponder && game.pos.legal_moves().len() == 1 {
                    limits.depth = Some(1);
                }
                let ctl = Arc::new(Control::new(go.infinite || go.ponder));
                if !go.ponder && !go.infinite {
                    ctl.set_deadlines(plan);
                }
                let (g, c) = (game.clone(), Arc::clone(&ctl));
                let handle = std::thread::spawn(move || run_go(kind, g, limits, &c));
                running = Some(Running { handle, ctl, ponder: go.ponder.then_some(plan) });
            }
            Some("ponderhit") => {
                if let Some((r, plan)) = running.as_mut().and_then(|r| Some((&r.ctl, r.ponder.take()?))) {
                    r.set_deadlines(plan);
                    r.hold.store(false, Ordering::Relaxed);
                }
            }
            Some("stop") => finish(&mut running),
            Some("bench") => {
                // In the search thread, as a `go`: `stop`, `quit` and the end of the input end it.
                finish(&mut running);
                let depth = words.next().and_then(|d| d.parse().ok()).unwrap_or(5);
                let ctl = Arc::new(Control::new(false));
                let c = Arc::clone(&ctl);
                let handle = std::thread::spawn(move || bench(depth, kind, &c));
                running = Some(Running { handle, ctl, ponder: None });
            }
            Some("quit") => break,
            _ => {}
        }
    }
    finish(&mut running);
}
