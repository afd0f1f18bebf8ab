//! The example engine driven as a UCI engine: by python-chess, a real UCI client
//! (`tests/uci/play.py`: clocked games, `go infinite` + `stop`, `go ponder` + `ponderhit`,
//! positions without moves, MultiPV), and with hostile input (a very long `position` line,
//! a line that is not UTF-8, bad positions, a closed stdout).
//!
//! python-chess comes from PyPI into a venv under `target/tmp/`; without python3, venv or
//! pip the client test says `SKIPPED uci client: <reason>` and passes, except under CI=true,
//! where it fails.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use nnue_testkit::root;
use shakmaty::uci::UciMove;
use shakmaty::Chess;

/// The engine with the committed default net, built once by cargo and copied out of cargo's
/// way (tests/engine.rs rebuilds the same example with other nets).
fn engine_exe() -> &'static Path {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| built_engine(None, "uci-engine"))
}

/// The engine built with `evalfile` (the default net or a copy of it) compiled in, copied to
/// `<CARGO_TARGET_TMPDIR>/<name>`.
fn built_engine(evalfile: Option<&Path>, name: &str) -> PathBuf {
    // One build and copy at a time: another test's build (with another net) must not replace
    // the executable between this one's build and its copy.
    static BUILD: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one = BUILD.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut cmd = Command::new(env!("CARGO"));
    cmd.current_dir(root()).args(["build", "--quiet", "--release", "--example", "engine", "--message-format=json"]);
    // The default net is headerless: its description comes along.
    match evalfile {
        Some(f) => cmd.env("EVALFILE", f).env("EVALFILE_ARCH", "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400"),
        None => cmd.env_remove("EVALFILE").env_remove("EVALFILE_ARCH"),
    };
    let out = cmd.stderr(Stdio::inherit()).output().expect("cargo runs");
    assert!(out.status.success(), "cargo build --release --example engine failed");
    let text = String::from_utf8(out.stdout).unwrap();
    let built = text
        .lines()
        .filter(|l| l.contains(r#""reason":"compiler-artifact""#) && l.contains(r#""name":"engine""#))
        .find_map(|l| {
            let rest = &l[l.find(r#""executable":""#)? + r#""executable":""#.len()..];
            Some(PathBuf::from(rest[..rest.find('"')?].replace("\\\\", "\\")))
        })
        .expect("cargo names the engine executable");
    // Copied, then renamed into place: an engine still running from an earlier copy keeps
    // its file.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let (tmp, copy) = (dir.join(format!("{name}.{}.tmp", std::process::id())), dir.join(name));
    std::fs::copy(&built, &tmp).expect("copy the engine");
    std::fs::rename(&tmp, &copy).expect("rename the engine copy");
    copy
}

/// A running engine; its output lines arrive through a channel (so reads can time out).
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        Engine::start_exe(engine_exe())
    }

    fn start_exe(exe: &Path) -> Engine {
        let mut child = Command::new(exe).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("engine starts");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines }
    }

    fn send(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// The next output line within `timeout`, if any.
    fn line(&self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => Some(line),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => panic!("engine exited"),
        }
    }

    /// Output lines up to and including the first that starts with `prefix` (60 s at most).
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.line(Duration::from_secs(60)).unwrap_or_else(|| panic!("no {prefix} in {lines:?}"));
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Peak resident memory so far, in kB (Linux only).
    fn peak_rss_kb(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// Closes stdin; returns the rest of the output and checks the exit status.
    fn close(mut self) -> Vec<String> {
        drop(self.stdin.take());
        let rest = self.lines.iter().collect();
        assert!(self.child.wait().unwrap().success(), "engine exit status");
        rest
    }

    fn quit(mut self) {
        self.send(b"quit\n");
        self.close();
    }
}

/// Why the client test cannot run here, or the venv's python with python-chess.
fn python_chess() -> Result<PathBuf, String> {
    let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("uci-venv");
    let python = venv.join("bin/python");
    let has_chess =
        |py: &Path| Command::new(py).args(["-c", "import chess.engine"]).output().is_ok_and(|o| o.status.success());
    if has_chess(&python) {
        return Ok(python);
    }
    let run = |cmd: &mut Command, what: &str| match cmd.output() {
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => Err(format!("{what} failed: {}", String::from_utf8_lossy(&o.stderr).trim())),
        Err(e) => Err(format!("{what}: {e}")),
    };
    run(Command::new("python3").arg("--version"), "python3 --version")?;
    run(Command::new("python3").args(["-m", "venv", "--clear"]).arg(&venv), "python3 -m venv")?;
    run(
        Command::new(venv.join("bin/pip")).args(["install", "--quiet", "--disable-pip-version-check", "chess==1.11.2"]),
        "pip install chess (python-chess)",
    )?;
    if has_chess(&python) {
        Ok(python)
    } else {
        Err("python-chess installed but `import chess.engine` fails".to_string())
    }
}

#[test]
fn uci_client_python_chess_games_infinite_ponder_mate_multipv() {
    let python = match python_chess() {
        Ok(p) => p,
        Err(reason) if std::env::var("CI").as_deref() != Ok("true") => {
            nnue_testkit::skip("uci client", &reason, false);
            return;
        }
        Err(reason) => panic!("uci client: {reason} (CI=true: not skipped)"),
    };
    let start = Instant::now();
    let out = Command::new(python)
        .arg(root().join("tests/uci/play.py"))
        .arg(engine_exe())
        .args(["--games", "2", "--plies", "60", "--base", "3", "--inc", "0.05"])
        .stderr(Stdio::inherit())
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    print!("{stdout}");
    assert!(out.status.success(), "tests/uci/play.py failed:\n{stdout}");
    assert!(stdout.contains("uci client: all checks passed"), "{stdout}");
    eprintln!("uci client checks took {:.1} s", start.elapsed().as_secs_f64());
}

/// 100000 plies of knight moves on one line: memory must not grow with them (beyond the
/// line itself), and the engine still evaluates and searches the position.
#[test]
fn uci_long_position_line_keeps_memory_bounded() {
    let mut e = Engine::start();
    e.send(b"uci\nposition startpos moves g1f3 g8f6\neval\ngo depth 2\n");
    e.until("bestmove");
    e.send(b"isready\n");
    e.until("readyok");
    let before = e.peak_rss_kb();
    let shuffle = " g1f3 g8f6 f3g1 f6g8";
    let plies = 100_000;
    let line = format!("position startpos moves{}\n", shuffle.repeat(plies / 4));
    let t = Instant::now();
    e.send(line.as_bytes());
    e.send(b"eval\ngo depth 3\n");
    let lines = e.until("bestmove");
    assert!(lines.iter().any(|l| l.starts_with("bucket=")), "eval answers: {lines:?}");
    // The start position again after the shuffles: a repetition, so a draw by the search.
    e.send(b"isready\n");
    e.until("readyok");
    let took = t.elapsed();
    if let (Some(before), Some(after)) = (before, e.peak_rss_kb()) {
        eprintln!("{plies} plies ({} bytes): peak RSS {before} kB before, {after} kB after, {took:?}", line.len());
        // The line is 500 kB; the old engine kept ~9 bytes a move and ~200 bytes an
        // accumulator entry per ply (12 kB with Stockfish's big net).
        assert!(after < before + 4096, "peak RSS grew from {before} kB to {after} kB");
    } else {
        eprintln!("no /proc/<pid>/status here: memory not measured");
    }
    assert!(took < Duration::from_secs(20), "{took:?}");
    e.quit();
}

/// Lines that are not UTF-8 are ignored; bad positions are answered with `info string`.
#[test]
fn uci_bad_input_is_answered_not_fatal() {
    let mut e = Engine::start();
    e.send(b"uci\n");
    e.until("uciok");
    e.send(b"\xff\xfe position \xc3\x28\nisready\n");
    assert_eq!(e.until("readyok"), ["readyok"]);
    // Longer than the engine keeps (16 MiB): skipped with a message.
    let mut long = b"position startpos moves ".to_vec();
    long.resize(17 << 20, b'a');
    long.extend_from_slice(b"\nisready\n");
    e.send(&long);
    let lines = e.until("readyok");
    assert!(lines.len() == 2 && lines[0].starts_with("info string line longer than"), "{lines:?}");
    for bad in [
        "position startpos moves e2e4 e7e5 e1e3",
        "position startpos moves e2e4 zzzz",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra words here",
        "position fen not a fen",
        "position sideways",
        "position",
    ] {
        e.send(format!("{bad}\nisready\n").as_bytes());
        let lines = e.until("readyok");
        assert!(lines.len() == 2 && lines[0].starts_with("info string "), "{bad}: {lines:?}");
    }
    // After a refused position, `go` and `eval` say so (they once answered for the last good
    // one), until a good position comes.
    e.send(b"go depth 1\n");
    let lines = e.until("bestmove");
    assert!(lines.len() == 2 && lines[0].starts_with("info string no position: "), "{lines:?}");
    assert_eq!(lines[1], "bestmove (none)");
    e.send(b"eval\nisready\n");
    let lines = e.until("readyok");
    assert!(lines.len() == 2 && lines[0].starts_with("info string no position: "), "{lines:?}");
    e.send(b"position startpos\ngo depth 1\n");
    let best = e.until("bestmove").pop().unwrap();
    let mv = best.strip_prefix("bestmove ").and_then(|m| m.split(' ').next()).unwrap();
    let legal = mv.parse::<UciMove>().is_ok_and(|u| u.to_move(&Chess::default()).is_ok());
    assert!(legal, "{best}");
    // A line without a newline at the end of the input is still read.
    e.send(b"isready");
    assert_eq!(e.close(), ["readyok"]);
}

/// With nobody reading its answers (EPIPE on every write), the engine leaves with status 0
/// and without a panic message.
#[test]
fn uci_closed_stdout_exits_cleanly() {
    let mut child = Command::new(engine_exe())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("engine starts");
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    // The engine may be gone before all of this is written: ignore write errors.
    let _ = stdin.write_all(b"uci\nisready\nposition startpos\ngo depth 4\n");
    let _ = stdin.flush();
    std::thread::sleep(Duration::from_millis(200));
    let _ = stdin.write_all(b"quit\n");
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out.status.success(), "exit status {:?}, stderr: {stderr}", out.status);
}

/// Without a client library: the clock and movetime are kept, `go infinite` waits for `stop`,
/// positions without moves answer `bestmove (none)`, MultiPV gives N lines per depth.
#[test]
fn uci_limits_infinite_no_moves_multipv() {
    let mut e = Engine::start();
    e.send(b"uci\nisready\n");
    e.until("readyok");
    // (go, least, most): the engine may not use more than it has (less the move overhead),
    // and with a generous clock it takes some time.
    for (go, least, most) in [
        ("go wtime 400 btime 400", 0, 400),
        ("go movetime 300", 200, 400),
        ("go btime 50 wtime 50 winc 10", 0, 50),
        ("go wtime 20000 btime 20000 winc 200 binc 200", 200, 6000),
    ] {
        e.send(format!("position startpos moves e2e4\n{go}\n").as_bytes());
        let t = Instant::now();
        e.until("bestmove");
        let took = t.elapsed();
        assert!(took >= Duration::from_millis(least) && took < Duration::from_millis(most), "{go}: {took:?}");
        eprintln!("{go}: bestmove after {took:?}");
    }
    e.send(b"position startpos\ngo nodes 3000\n");
    let lines = e.until("bestmove");
    let nodes: Vec<u64> =
        lines.iter().filter_map(|l| l.split(" nodes ").nth(1)?.split(' ').next()?.parse().ok()).collect();
    assert!(nodes.iter().all(|&n| n <= 3000 + 300), "{lines:?}");

    // go infinite: nothing but info until stop, even when the search ends (a mate in 1 found
    // at every depth, or no legal move at all).
    for (pos, best) in [
        ("startpos", None),
        ("fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", Some("bestmove d1d8")),
        ("fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", Some("bestmove (none)")),
    ] {
        e.send(format!("position {pos}\ngo infinite\n").as_bytes());
        let until = Instant::now() + Duration::from_millis(700);
        while let Some(line) = e.line(until.saturating_duration_since(Instant::now())) {
            assert!(!line.starts_with("bestmove"), "{pos}: {line} before stop");
        }
        e.send(b"stop\n");
        let last = e.until("bestmove").pop().unwrap();
        if let Some(best) = best {
            assert!(last.starts_with(best), "{pos}: {last}");
        }
    }

    // Mated and stalemated sides.
    for (fen, score) in [
        ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "mate 0"),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "cp 0"),
    ] {
        e.send(format!("position fen {fen}\ngo wtime 1000 btime 1000\n").as_bytes());
        assert_eq!(e.until("bestmove"), [format!("info depth 0 score {score}"), "bestmove (none)".to_string()]);
    }

    // A mate in one is reported as such.
    e.send(b"position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\ngo depth 3\n");
    let lines = e.until("bestmove");
    assert!(lines.iter().any(|l| l.contains(" score mate 1 ")), "{lines:?}");

    // MultiPV 3: three lines per depth, distinct first moves, best first.
    e.send(b"setoption name MultiPV value 3\nposition startpos\ngo depth 3\n");
    let lines = e.until("bestmove");
    for depth in 1..=3 {
        let at: Vec<&String> = lines.iter().filter(|l| l.starts_with(&format!("info depth {depth} "))).collect();
        let k: Vec<&str> = at.iter().filter_map(|l| l.split(" multipv ").nth(1)?.split(' ').next()).collect();
        assert_eq!(k, ["1", "2", "3"], "depth {depth}: {lines:?}");
        let firsts: Vec<&str> = at.iter().filter_map(|l| l.split(" pv ").nth(1)?.split(' ').next()).collect();
        assert!(firsts.len() == 3 && firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    }
    e.quit();
}

/// The generic evaluator reads the net file the engine was built from at run time: with that
/// file gone, selecting it once panicked mid-protocol; replaced by another net with an older
/// modification time (not rebuilt by cargo), it was read as if it were the compiled one. An
/// `info string` now, and the compiled net answers `go` and `eval`.
#[test]
fn uci_generic_evaluator_without_its_net_file_keeps_the_compiled_net() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("moved-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let net = dir.join("moved.nnue");
    std::fs::copy(root().join("nets/default.nnue"), &net).unwrap();
    let exe = built_engine(Some(&net), "uci-engine-moved-net");
    // Replaced by another net with an older modification time (as `cp -p` does): cargo would
    // not rebuild; the engine sees the file is not the one compiled in.
    let mut other = std::fs::read(&net).unwrap();
    other[100] ^= 1;
    std::fs::write(&net, &other).unwrap();
    let old = std::time::SystemTime::now() - Duration::from_secs(365 * 24 * 3600);
    std::fs::File::options().write(true).open(&net).unwrap().set_modified(old).unwrap();
    let mut e = Engine::start_exe(&exe);
    e.send(b"uci\nsetoption name Evaluator value generic\nisready\n");
    let lines = e.until("readyok");
    assert!(
        lines.iter().any(|l| l.starts_with("info string ") && l.contains("is not the file compiled in")),
        "{lines:?}"
    );
    e.send(b"position startpos\ngo depth 1\n");
    assert!(e.until("bestmove").last().is_some_and(|l| l.starts_with("bestmove ")));
    e.quit();
    // Gone.
    std::fs::remove_file(&net).unwrap();
    let mut e = Engine::start_exe(&exe);
    e.send(b"uci\nisready\n");
    e.until("readyok");
    e.send(b"setoption name Evaluator value generic\nisready\n");
    let lines = e.until("readyok");
    assert!(lines.len() == 2 && lines[0].starts_with("info string ") && lines[0].contains("moved.nnue"), "{lines:?}");
    e.send(b"position startpos moves e2e4\ngo depth 2\n");
    assert!(e.until("bestmove").last().is_some_and(|l| l.starts_with("bestmove ") && l != "bestmove (none)"));
    e.send(b"eval\n");
    assert!(e.line(Duration::from_secs(10)).is_some_and(|l| l.starts_with("bucket=")));
    e.quit();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A clock already run out, no time or no nodes: the engine once answered the first move it
/// generated without searching; it searches depth 1 at least.
#[test]
fn uci_zero_limits_still_search_depth_one() {
    let mut e = Engine::start();
    e.send(b"uci\nisready\n");
    e.until("readyok");
    for go in ["go wtime -5 btime -5", "go wtime 0 btime 0", "go movetime 0", "go nodes 0"] {
        e.send(format!("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\n{go}\n").as_bytes());
        let lines = e.until("bestmove");
        assert!(lines.iter().any(|l| l.starts_with("info depth 1 ")), "{go}: {lines:?}");
        // The mate in one, which depth 1 finds.
        assert_eq!(lines.last().map(String::as_str), Some("bestmove d1d8"), "{go}: {lines:?}");
    }
    e.quit();
}

/// Numbers past what the engine once computed with: a clock near u64::MAX / 3 made the time
/// plan wrap (a move at once in release builds, a panic in debug ones), and a depth past i64
/// was taken as no depth (6). `bench` over UCI once ignored `stop`, `quit` and the end of the
/// input.
#[test]
fn uci_huge_numbers_and_a_stoppable_bench() {
    let mut e = Engine::start();
    e.send(b"uci\nisready\n");
    e.until("readyok");
    for go in [
        "go wtime 6148914691236517236 btime 6148914691236517236 movestogo 1",
        "go wtime 18446744073709551615 btime 18446744073709551615 winc 18446744073709551615 binc 1",
        "go depth 18446744073709551615",
        "go depth 99999999999999999999999999999999999999999",
    ] {
        // Depth 7 takes about half a second here: past the few ms the wrapped plan left.
        e.send(format!("position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1\n{go}\n").as_bytes());
        // Searching past depth 6, for as long as it takes: nothing but info lines.
        let until = Instant::now() + Duration::from_secs(60);
        loop {
            let line =
                e.line(until.saturating_duration_since(Instant::now())).unwrap_or_else(|| panic!("{go}: no depth 7"));
            assert!(!line.starts_with("bestmove"), "{go}: {line}");
            if line.starts_with("info depth 7 ") {
                break;
            }
        }
        e.send(b"stop\n");
        e.until("bestmove");
    }
    // `bench` to the engine's maximum depth, stopped by `stop`, by `quit` and by the end of
    // the input: each within seconds.
    e.send(b"bench 1000\n");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    e.send(b"stop\n");
    let last = e.until("nodes ").pop().unwrap();
    assert!(last.contains(" nps ") && t.elapsed() < Duration::from_secs(10), "{last} after {:?}", t.elapsed());
    e.send(b"isready\n");
    assert_eq!(e.until("readyok"), ["readyok"]);
    for end in [&b"quit\n"[..], b""] {
        e.send(b"bench 1000\n");
        std::thread::sleep(Duration::from_millis(300));
        e.send(end);
        drop(e.stdin.take());
        let t = Instant::now();
        while e.child.try_wait().unwrap().is_none() {
            if t.elapsed() > Duration::from_secs(20) {
                let _ = e.child.kill();
                panic!("bench went on after {:?}", String::from_utf8_lossy(end));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(e.child.wait().unwrap().success());
        e = Engine::start();
    }
    e.quit();
}

/// `setoption name EvalFile` switches nets without a rebuild, through run-time loading: the
/// default net read from its file evaluates as the compiled one, a Stockfish net (when here)
/// as the reference evaluator does, a bad path keeps the net in use, and `<compiled>` goes back.
#[test]
fn uci_evalfile_switches_nets_at_run_time() {
    let eval = |e: &mut Engine| {
        e.send(b"eval\n");
        e.line(Duration::from_secs(30)).expect("an eval line")
    };
    let mut e = Engine::start();
    e.send(b"uci\nisready\n");
    let options = e.until("readyok");
    assert!(options.iter().any(|l| l.starts_with("option name EvalFile type string")), "{options:?}");
    e.send(b"position startpos moves e2e4 e7e5 g1f3\n");
    let compiled = eval(&mut e);
    assert!(compiled.starts_with("bucket="), "{compiled}");
    let default = root().join("nets/default.nnue");
    let set = format!(
        "setoption name EvalArch value (768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400\n\
         setoption name EvalFile value {}\nisready\n",
        default.display()
    );
    e.send(set.as_bytes());
    let said = e.until("readyok");
    assert!(said.iter().any(|l| l.starts_with("info string EvalFile: ") && l.contains("fast network")), "{said:?}");
    assert_eq!(eval(&mut e), compiled);
    e.send(b"setoption name EvalFile value /nonexistent/net.nnue\nisready\n");
    let said = e.until("readyok");
    assert!(said.iter().any(|l| l.starts_with("info string EvalFile ") && l.contains("not used")), "{said:?}");
    assert_eq!(eval(&mut e), compiled);
    if let Some(path) = nnue_testkit::net_or_skip(nnue_testkit::SF17_SMALL, "EvalFile with a Stockfish net") {
        e.send(
            format!(
                "setoption name EvalArch value <none>\nsetoption name EvalFile value {}\nisready\n",
                path.display()
            )
            .as_bytes(),
        );
        let said = e.until("readyok");
        assert!(said.iter().any(|l| l.contains("fast network")), "{said:?}");
        let net = nnue_runtime::Net::from_bytes(&std::fs::read(&path).unwrap(), None).unwrap();
        let pos =
            nnue_runtime::Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2").unwrap();
        assert_eq!(eval(&mut e), nnue_runtime::Evaluator::new(&net).evaluate(&pos).to_string());
        e.send(b"go depth 3\n");
        assert!(e.until("bestmove").last().is_some_and(|l| l.starts_with("bestmove ") && l != "bestmove (none)"));
    }
    e.send(b"setoption name EvalFile value <compiled>\nisready\n");
    e.until("readyok");
    assert_eq!(eval(&mut e), compiled);
    e.quit();
}
