//! The `nnue` binary as a user runs it: `inspect` identifies every real net of `../shared/nets`
//! and the synthetic engine nets (headerless ones by size, the right layout first), `check`
//! passes on each oracle there is a net for, `convert` round-trips byte for byte, `eval` and
//! `bench` run, and bad input is exit code 1 (2 for usage) with a message, never a panic.
//! Nets missing from `../shared/nets` are skipped, saying so (in CI with `../shared`: fail).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

use nnue_runtime::format::{synth, Architecture, Encoding, Net};
use nnue_testkit::engine_nets::{self, EngineNet};
use nnue_testkit::{net_or_skip, root, skip};

/// Runs `nnue` with `args`.
fn nnue(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nnue")).args(args).output().expect("the nnue binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `nnue args` succeeds; its standard output.
fn ok(args: &[&str]) -> String {
    let o = nnue(args);
    assert!(o.status.success(), "nnue {args:?}: {}\n{}{}", o.status, stdout(&o), stderr(&o));
    stdout(&o)
}

/// `nnue args` fails with `code` and a message on stderr that contains `says`; no panic.
fn fails(args: &[&str], code: i32, says: &str) -> String {
    let o = nnue(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(code), "nnue {args:?}: {}\n{err}", stdout(&o));
    assert!(err.contains(says), "nnue {args:?}: expected {says:?} in:\n{err}");
    assert!(!err.contains("panicked"), "nnue {args:?} panicked:\n{err}");
    err
}

/// Runs `f` with the file of an engine's synthetic net, written once for the two tests that
/// use it (and removed after the second).
fn with_engine_net(engine: &EngineNet, f: impl FnOnce(&str)) {
    static USES: Mutex<Vec<(&str, usize)>> = Mutex::new(Vec::new());
    let path = scratch(&format!("{}.nnue", engine.name));
    {
        let mut uses = USES.lock().unwrap();
        if !uses.iter().any(|u| u.0 == engine.name) {
            std::fs::write(&path, engine.net().to_bytes()).unwrap();
            uses.push((engine.name, 0));
        }
    }
    f(s(&path));
    let mut uses = USES.lock().unwrap();
    let done = uses.iter_mut().find(|u| u.0 == engine.name).unwrap();
    done.1 += 1;
    if done.1 == 2 {
        std::fs::remove_file(&path).unwrap();
    }
}

/// A scratch file path for this test binary.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("nnue-cli");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn write(name: &str, bytes: &[u8]) -> String {
    let path = scratch(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Words separated by single spaces.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The ranked candidates `inspect` lists: who, and the description line's quoted text.
fn candidates(out: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = out.lines().collect();
    lines
        .windows(2)
        .filter(|w| w[0].trim_start().starts_with(|c: char| c.is_ascii_digit()) && w[0].starts_with("  "))
        .map(|w| (w[0].trim().to_string(), w[1].split('"').nth(1).unwrap_or("").to_string()))
        .collect()
}

/// `architecture (...): TEXT` of inspect's output.
fn architecture(out: &str) -> String {
    let line = out.lines().find(|l| l.starts_with("architecture")).unwrap_or_else(|| panic!("no architecture:\n{out}"));
    line.split_once("): ").unwrap().1.to_string()
}

const AKIMBO: &str = "(768 -> 512)x2 -> 1x8, crelu, qa=255, qb=64, scale=400";
const PAWNOCCHIO: &str = "(768hm -> 1024)x2 -> 1x8, screlu, qa=255, qb=64, scale=400";

/// Every real net: its header (or for the bullet nets, the size) says what it is.
#[test]
fn inspect_identifies_the_shared_nets() {
    let expected = [
        (nnue_testkit::SF17_BIG, "HalfKAv2_hm -> 3072x2 -> (15+1 -> 32 -> 1)x8, psqt=8"),
        (nnue_testkit::SF17_SMALL, "HalfKAv2_hm -> 128x2 -> (15+1 -> 32 -> 1)x8, psqt=8"),
        (nnue_testkit::SF17_LITE, "HalfKAv2_hm -> 256x2 -> (15+1 -> 32 -> 1)x8, psqt=8"),
        (nnue_testkit::SF13_HALFKP, "HalfKP -> 256x2 -> 32 -> 32 -> 1"),
        (nnue_testkit::SF18_BIG, "HalfKAv2_hm+Threats -> 1024x2 -> (15+1 -> 32 -> 1)x8, psqt=8"),
        (nnue_testkit::SF19_BIG, "HalfKAv2_hm+Threats19+PawnPairs -> 1024x2 -> (32 -> 32 -> 1)x8, psqt=8"),
        (nnue_testkit::SF19_LITE, "PSQ768hm -> 1024x2 -> (32 -> 32 -> 1)x8, psqt=8"),
        (nnue_testkit::OVERFLOW_SMALL, "HalfKAv2_hm -> 128x2 -> (15+1 -> 32 -> 1)x8, psqt=8"),
        (nnue_testkit::BULLET_AKIMBO, AKIMBO),
        (nnue_testkit::BULLET_PAWNOCCHIO, PAWNOCCHIO),
    ];
    assert_eq!(expected.len(), nnue_testkit::SHARED_NETS.len());
    for (name, arch) in expected {
        let Some(path) = net_or_skip(name, &format!("nnue inspect {name}")) else { continue };
        // The sparsity statistics on the small nets only (they read every position).
        let small = std::fs::metadata(&path).unwrap().len() < 8 << 20;
        let out = if small { ok(&["inspect", s(&path)]) } else { ok(&["inspect", s(&path), "--no-stats"]) };
        assert_eq!(architecture(&out), arch, "{name}:\n{out}");
        if !name.starts_with("bullet/") {
            // Stockfish names its nets by their sha256.
            if name.starts_with("nn-") {
                assert!(
                    out.contains(&format!("({name} in Stockfish's naming)")),
                    "{name}: the sha256 names it:\n{out}"
                );
            }
            assert!(out.contains("format: Stockfish NNUE, version 0x"), "{out}");
            assert!(out.contains("transformer weights"), "{out}");
        } else {
            // Headerless: identified by size, the engine's layout first.
            let first = &candidates(&out)[0];
            assert!(first.0.starts_with("1. ") && first.0.ends_with("padded size: reads"), "{name}:\n{out}");
            assert_eq!(first.1, arch, "{name}:\n{out}");
        }
        if small {
            assert!(out.contains("L1 sparsity: "), "{name}:\n{out}");
        }
        // With the description given, the same.
        if small {
            assert_eq!(architecture(&ok(&["inspect", s(&path), "--arch", arch, "--no-stats"])), arch);
        }
    }
}

/// The engines' synthetic nets (`tests/oracles/`'s), regenerated from their seeds: the
/// headerless ones by size (PlentyChess's varints by reading), Stormphrax's by its `CBNF`
/// header, each engine's layout ranked first.
#[test]
fn inspect_identifies_the_synthetic_engine_nets() {
    for engine in engine_nets::ALL {
        with_engine_net(&engine, |file| inspect_engine_net(&engine, file));
    }
}

fn inspect_engine_net(engine: &EngineNet, file: &str) {
    {
        let out = ok(&["inspect", file, "--no-stats"]);
        let found = candidates(&out);
        let (first, description) = &found[0];
        let engine_word = match engine.name {
            "reckless-pairs" => "Reckless".to_string(),
            "viridithas-avx2" => "Viridithas".to_string(),
            "plentychess" => "PlentyChess".to_string(),
            "cinder" => "cinder".to_string(),
            "stormphrax8" | "stormphrax8-nothreats" => "Stormphrax 8".to_string(),
            n => format!("{}{}", n[..1].to_uppercase(), &n[1..]),
        };
        assert!(first.starts_with("1. ") && first.contains(&engine_word), "{}:\n{out}", engine.name);
        assert!(first.ends_with(": reads"), "{}:\n{out}", engine.name);
        if engine.name == "reckless-pairs" {
            // The same file layout as Reckless's: the size can't tell how the AVX2 build sums.
            assert_eq!(words(description), words(nnue_runtime::format::known::RECKLESS));
        } else if engine.name == "viridithas-avx2" {
            assert_eq!(words(description), words(nnue_runtime::format::known::VIRIDITHAS));
        } else {
            assert_eq!(words(description), words(engine.arch), "{}:\n{out}", engine.name);
            assert_eq!(words(&architecture(&out)), words(engine.arch), "{}", engine.name);
        }
    }
}

/// A net with an engine-defined input block (`threats=custom:N`): inspected and converted, but
/// not evaluated (its block is the engine's code), with a message rather than a panic.
#[test]
fn a_net_with_an_engine_defined_block_is_inspected_not_evaluated() {
    let text = "(768x2hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x4, f32, l1mul=1/64, scale=200, threats=custom:18, \
                file=reckless, kings=[0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
    let Ok(Architecture::Layered(arch)) = text.parse() else { panic!("{text}") };
    let file = write("custom-block.nnue", &synth::layered(&arch, 2).to_bytes());
    let out = ok(&["inspect", &file, "--arch", text]);
    assert!(out.contains("threats=custom:18") && out.contains("no sparsity"), "{out}");
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for args in [
        vec!["eval", &file, "--arch", text, fen],
        vec!["bench", &file, "--arch", text, "--forward", "--reps", "1"],
        vec!["check", &file, "--arch", text, "--expect", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1=0"],
    ] {
        fails(&args, 1, "engine-defined block (threats=custom:N)");
    }
}

/// A file of Alexandria's layout at other shapes is named with the shape: L1 1024 with its
/// 16 king buckets (the table known), and L1 512 with 4 (the table not).
#[test]
fn inspect_searches_widths_and_king_buckets() {
    let Ok(Architecture::Layered(base)) = nnue_runtime::format::known::ALEXANDRIA.parse() else { panic!() };
    let mut wide = base;
    wide.l1 = 1024;
    let file = write("alexandria-1024.nnue", &synth::layered(&wide, 1).to_bytes());
    let out = ok(&["inspect", &file, "--no-stats"]);
    let (first, description) = &candidates(&out)[0];
    assert!(first.contains("Alexandria's layout at L1 1024 with 16 king buckets") && first.ends_with("reads"), "{out}");
    assert_eq!(description, &Architecture::Layered(wide).to_string());
    assert_eq!(architecture(&out), Architecture::Layered(wide).to_string());
    // Four buckets: the shape is told, the table left to the user.
    let map: Vec<u8> = (0..32).map(|i| (i / 8) as u8).collect();
    let mut four = base;
    (four.l1, four.kings) = (512, nnue_runtime::format::KingBuckets::from_map(true, &map).unwrap());
    let file = write("alexandria-512x4.nnue", &synth::layered(&four, 1).to_bytes());
    let out = ok(&["inspect", &file, "--no-stats"]);
    let found = candidates(&out);
    let alexandria = found.iter().position(|c| c.0.contains("Alexandria's layout at L1 512 with 4 king buckets"));
    assert!(alexandria.is_some_and(|i| found[i].1.contains("kings=[?]")), "{out}");
    // Without a complete description none is assumed: no architecture line.
    assert!(!out.contains("architecture (") && out.contains("give one with --arch"), "{out}");
    // The generic bullet form: (768x2 -> 64)x2 -> 1x4, exact size.
    let Ok(Architecture::Chess768(mut small)) = AKIMBO.parse() else { panic!() };
    (small.hidden, small.output_buckets) = (64, 4);
    let bytes = synth::chess768(&small, 3).to_bytes();
    let file = write("generic.nnue", &bytes[..small.param_bytes()]);
    let found = candidates(&ok(&["inspect", &file, "--no-stats"]));
    assert!(
        found.iter().any(|c| c.0.contains("1 king bucket(s), 64 hidden, 4 output bucket(s), exact size")),
        "{found:?}"
    );
}

/// Every line of `check`'s output says all exact.
fn all_exact(out: &str) -> bool {
    !out.is_empty() && out.lines().all(|l| l.ends_with("all exact") || l.ends_with("all exact incrementally"))
}

/// Every oracle there is a net for: the bullet engines' real nets, Stockfish's nets, the
/// engines' synthetic nets; a wrong description is named at its first row.
#[test]
fn check_passes_on_each_oracle() {
    let shared_oracle = |file: &str| -> Option<String> {
        let path = root().join("../shared/oracle").join(file);
        if path.is_file() {
            return Some(path.to_str().unwrap().to_string());
        }
        skip(&format!("nnue check with {file}"), &format!("../shared/oracle/{file} is missing"), true);
        None
    };
    let real: [(&str, Option<&str>, &[&str]); 10] = [
        (nnue_testkit::BULLET_AKIMBO, Some(AKIMBO), &["bullet-akimbo.tsv"]),
        (nnue_testkit::BULLET_PAWNOCCHIO, Some(PAWNOCCHIO), &["bullet-pawnocchio-net20.tsv"]),
        (nnue_testkit::SF17_SMALL, None, &["stockfish-eval.tsv", "games.tsv"]),
        (nnue_testkit::SF13_HALFKP, None, &["games.tsv"]),
        (nnue_testkit::SF17_BIG, None, &["stockfish-eval.tsv"]),
        (nnue_testkit::SF13_HALFKP, None, &["stockfish-eval.tsv"]),
        (nnue_testkit::OVERFLOW_SMALL, None, &["overflow-eval.tsv"]),
        (nnue_testkit::SF18_BIG, None, &["stockfish18-eval.tsv"]),
        (nnue_testkit::SF19_BIG, None, &["stockfish19-eval.tsv"]),
        (nnue_testkit::SF19_LITE, None, &["stockfish19-eval.tsv", "games19.tsv"]),
    ];
    for (name, arch, oracles) in real {
        let Some(net) = net_or_skip(name, &format!("nnue check {name}")) else { continue };
        for oracle in oracles {
            let Some(oracle) = shared_oracle(oracle) else { continue };
            let mut args = vec!["check", s(&net), "--oracle", &oracle, "--all-paths"];
            if let Some(a) = arch {
                args.extend(["--arch", a]);
            }
            let out = ok(&args);
            assert!(all_exact(&out), "{name} {oracle}: {out}");
            if oracle.contains("games") {
                assert!(out.contains("positions along 12 games, all exact incrementally"), "{name} {oracle}: {out}");
            }
        }
    }
    // pawnocchio's net described with crelu instead of screlu: the first row differs.
    if let (Some(net), Some(oracle)) = (
        net_or_skip(nnue_testkit::BULLET_PAWNOCCHIO, "nnue check, a wrong description"),
        shared_oracle("bullet-pawnocchio-net20.tsv"),
    ) {
        let wrong = PAWNOCCHIO.replace("screlu", "crelu");
        fails(&["check", s(&net), "--arch", &wrong, "--oracle", &oracle], 1, "bullet-pawnocchio-net20.tsv:2: ");
        // `--expect FEN=VALUE`: pawnocchio's 1078 on its oracle's second row; the crelu
        // mistake gives 529 there, the missing `hm` 922, the right description 1078.
        let fen = "3k1b1r/3ppp2/2p5/7p/3P1npP/2P1P3/1P3N2/2B1KBNR w K - 0 18";
        let expect = format!("{fen}=1078");
        let out = ok(&["check", s(&net), "--arch", PAWNOCCHIO, "--expect", &expect]);
        assert_eq!(out, "1 expected evaluations, all exact\n");
        fails(
            &["check", s(&net), "--arch", &wrong, "--expect", &expect],
            1,
            "the description gives 529, expected 1078",
        );
        let no_hm = PAWNOCCHIO.replace("768hm", "768");
        fails(
            &["check", s(&net), "--arch", &no_hm, "--expect", &expect],
            1,
            "the description gives 922, expected 1078",
        );
        fails(&["check", s(&net), "--arch", PAWNOCCHIO, "--expect", fen], 1, "expected FEN=VALUE");
    }
    // The engines' synthetic nets: positions and (Alexandria's) games.
    for engine in engine_nets::ALL {
        with_engine_net(&engine, |file| {
            let oracle = engine.oracle_path();
            let out = ok(&["check", file, "--arch", engine.arch, "--oracle", s(&oracle), "--all-paths"]);
            // The reference, then the loaded network on every path of this CPU.
            let paths = nnue_runtime::KernelPath::all().len();
            assert!(out.starts_with("500 positions, all exact\n") && all_exact(&out), "{}: {out}", engine.name);
            assert_eq!(out.lines().filter(|l| l.starts_with("loaded ")).count(), paths, "{}: {out}", engine.name);
            if engine.name == "alexandria" {
                let games = oracle.with_file_name("alexandria-synth-games.tsv");
                let out = ok(&["check", file, "--arch", engine.arch, "--oracle", s(&games)]);
                assert_eq!(out, "1206 positions, all exact\n1206 positions along 12 games, all exact incrementally\n");
            }
        });
    }
}

/// `convert` A -> B -> A gives A's bytes: bullet's output orders and paddings, a CBNF net
/// zstd-compressed and not, a multi-layer net in other engines' layouts, a Stockfish net's
/// LEB128 and raw transformer. The converted net evaluates as the original.
#[test]
fn convert_round_trips() {
    let round_trip = |name: &str, input: &str, arch: Option<&str>, to: &str, back: &str| -> Vec<u8> {
        let (mid, end) = (scratch(&format!("{name}.mid")), scratch(&format!("{name}.end")));
        let mut args = vec!["convert", input, "--to", to, s(&mid), "--force"];
        if let Some(a) = arch {
            args.extend(["--arch", a]);
        }
        let out = ok(&args);
        let mid_arch =
            out.lines().find_map(|l| l.strip_prefix("read it with --arch \"")).map(|l| l.trim_end_matches('"'));
        let mut args = vec!["convert", s(&mid), "--to", back, s(&end), "--force"];
        if let Some(a) = mid_arch {
            args.extend(["--arch", a]);
        }
        ok(&args);
        let (a, b, m) = (std::fs::read(input).unwrap(), std::fs::read(&end).unwrap(), std::fs::read(&mid).unwrap());
        assert!(a == b, "{name}: {to} then {back} changed the bytes");
        assert!(a != m, "{name}: {to} changed nothing");
        // The middle form evaluates as the original.
        let fen = "3k1b1r/3ppp2/2p5/7p/3P1npP/2P1P3/1P3N2/2B1KBNR w K - 0 18";
        let eval = |file: &str, arch: Option<&str>| {
            let mut args = vec!["eval", file, fen];
            if let Some(a) = arch {
                args.extend(["--arch", a]);
            }
            ok(&args)
        };
        assert_eq!(eval(s(&mid), mid_arch), eval(input, arch), "{name}");
        m
    };
    // bullet's single-layer form, synthetic: both output orders, the three paddings.
    let Ok(Architecture::Chess768(small)) = "(768hm -> 64)x2 -> 1x8, screlu, qa=255, qb=64, scale=400".parse() else {
        panic!()
    };
    let text = Architecture::Chess768(small).to_string();
    let file = write("small768.nnue", &synth::chess768(&small, 7).to_bytes());
    let mid = round_trip("small768-order", &file, Some(&text), "out=[2N][B]", "out=[B][2N]");
    assert_eq!(mid.len(), std::fs::read(&file).unwrap().len());
    let mid = round_trip("small768-pad", &file, Some(&text), "pad=bullet", "pad=zeros");
    assert!(mid.ends_with(b"bullet") || mid.windows(6).any(|w| w == b"bullet"));
    round_trip("small768-both", &file, Some(&text), "out=[2N][B],pad=none", "out=[B][2N],pad=zeros");
    // Between single-layer records: bullet's arrays and Caissa's header and per-bucket structs
    // (from either output order; Caissa's files have one, and no padding).
    let caissa_like =
        nnue_runtime::format::known::CAISSA.replace("-> 1024)x2", "-> 64)x2").replace(", file=caissa", "");
    let Ok(Architecture::Chess768(caissa_like)) = caissa_like.parse() else { panic!("{caissa_like}") };
    let text = Architecture::Chess768(caissa_like).to_string();
    let file = write("caissa-like.nnue", &synth::chess768(&caissa_like, 8).to_bytes());
    let mid = round_trip("caissa-like", &file, Some(&text), "file=caissa", "file=bullet,pad=zeros");
    assert!(mid.starts_with(b"NNSC"), "Caissa's magic");
    let neuron_major = scratch("caissa-like-2n.nnue");
    ok(&["convert", &file, "--arch", &text, "--to", "out=[2N][B]", s(&neuron_major), "--force"]);
    let to_caissa = scratch("caissa-like-2n.caissa");
    let out = ok(&[
        "convert",
        s(&neuron_major),
        "--arch",
        &format!("{text}, out=[2N][B]"),
        "--to",
        "file=caissa",
        s(&to_caissa),
        "--force",
    ]);
    assert!(out.contains(", file=caissa"), "{out}");
    assert_eq!(std::fs::read(&to_caissa).unwrap(), mid, "the same Caissa file from either order");
    // The real ones, if here.
    if let Some(akimbo) = net_or_skip(nnue_testkit::BULLET_AKIMBO, "nnue convert akimbo") {
        round_trip("akimbo", s(&akimbo), Some(AKIMBO), "out=[2N][B]", "out=[B][2N]");
    }
    if let Some(pawnocchio) = net_or_skip(nnue_testkit::BULLET_PAWNOCCHIO, "nnue convert pawnocchio") {
        round_trip("pawnocchio", s(&pawnocchio), Some(PAWNOCCHIO), "pad=zeros,out=[2N][B]", "pad=bullet,out=[B][2N]");
    }
    // Multi-layer: Stormphrax's CBNF, zstd on and off; Alexandria's in bullet's and Obsidian's.
    let cbnf_text = "(704x2hm -> 128)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, l1shift=8, scale=400, \
                     file=cbnf, kings=[0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
    let Ok(Architecture::Layered(cbnf)) = cbnf_text.parse() else { panic!() };
    let mut net = synth::layered(&cbnf, 5);
    net.description = "a synthetic net".into();
    let plain = write("cbnf.nnue", &net.to_bytes());
    let zstd = round_trip("cbnf", &plain, Some(cbnf_text), "zstd=on", "zstd=off");
    assert!(zstd.len() < std::fs::read(&plain).unwrap().len());
    let zstd = write("cbnf-zstd.nnue", &zstd);
    round_trip("cbnf-zstd", &zstd, Some(cbnf_text), "zstd=off", "zstd=on");
    let alexandria_text = "(768x2hm -> 128)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x8, f32, dual, l1mul=1024/4161600, \
                           scale=362, buckets=(63-p)(32-p)/225, file=alexandria, \
                           kings=[0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
    let Ok(Architecture::Layered(alexandria)) = alexandria_text.parse() else { panic!() };
    let file = write("alexandria-small.nnue", &synth::layered(&alexandria, 6).to_bytes());
    round_trip("alexandria-bullet", &file, Some(alexandria_text), "file=bullet,pad=bullet", "file=alexandria");
    round_trip("alexandria-obsidian", &file, Some(alexandria_text), "file=obsidian", "file=alexandria");
    // A Stockfish net: LEB128 to raw and back.
    let sfnn = write("sfnn.nnue", &synth::sfnn(128, 3, Encoding::Leb128).to_bytes());
    let raw = round_trip("sfnn", &sfnn, None, "encoding=raw", "encoding=leb128");
    assert!(Net::from_bytes(&raw, None).is_ok());
    if let Some(small) = net_or_skip(nnue_testkit::SF17_SMALL, "nnue convert of Stockfish's small net") {
        round_trip("sf17-small", s(&small), None, "encoding=raw", "encoding=leb128");
    }
    // What doesn't apply is refused, and nothing is written.
    let never = scratch("never.nnue");
    let _ = std::fs::remove_file(&never);
    fails(&["convert", &sfnn, "--to", "out=[2N][B]", s(&never)], 1, "doesn't apply to a HalfKAv2_hm net");
    fails(&["convert", &file, "--arch", alexandria_text, "--to", "zstd=on", s(&never)], 1, "zstd= applies to");
    fails(&["convert", &file, "--arch", alexandria_text, "--to", "file=reckless", s(&never)], 1, "threats");
    fails(&["convert", &sfnn, "--to", "sideways", s(&never)], 1, "--to: `sideways`");
    let err = fails(&["convert", &sfnn, "--to", "file=obsidan", s(&never)], 1, "file= one of alexandria, bullet");
    assert!(err.contains(", caissa") && err.matches("bullet").count() == 1, "every layout once: {err}");
    let small768 = scratch("small768.nnue");
    let small_text = Architecture::Chess768(small).to_string();
    fails(
        &["convert", s(&small768), "--arch", &small_text, "--to", "file=obsidian", s(&never)],
        1,
        "isn't a single-layer file",
    );
    fails(
        &["convert", s(&small768), "--arch", &small_text, "--to", "file=caissa,pad=bullet", s(&never)],
        1,
        "pad= doesn't apply to file=caissa",
    );
    fails(
        &["convert", s(&small768), "--arch", &small_text, "--to", "file=caissa,out=[2N][B]", s(&never)],
        1,
        "out=[2N][B] doesn't apply to file=caissa",
    );
    fails(
        &["convert", &file, "--arch", alexandria_text, "--to", "file=caissa", s(&never)],
        1,
        "isn't a multi-layer file",
    );
    fails(&["convert", &sfnn, "--to", "encoding=raw", &sfnn], 1, "exists: give --force");
    assert!(!never.exists());
}

/// `eval` prints one line per FEN, from the arguments and from a file.
#[test]
fn eval_prints_a_line_per_position() {
    let file = write("eval-sfnn.nnue", &synth::sfnn(128, 4, Encoding::Raw).to_bytes());
    let fens = write(
        "eval.fens",
        b"# two positions\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n8/p2k4/8/3n4/8/N5K1/8/8 w - - 4 43\n",
    );
    let out = ok(&["eval", &file, "--fens", &fens, "8/6N1/7P/4K3/8/8/2k5/8 b - - 3 72"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines.iter().all(|l| l.starts_with("bucket=") && l.contains(" total=")), "{out}");
    assert!(lines[2].ends_with("\t8/6N1/7P/4K3/8/8/2k5/8 b - - 3 72"), "{out}");
    // The same values as the library's reference.
    let net = Net::from_bytes(&std::fs::read(&file).unwrap(), None).unwrap();
    let pos = nnue_runtime::Position::from_fen("8/p2k4/8/3n4/8/N5K1/8/8 w - - 4 43").unwrap();
    assert!(lines[1].starts_with(&nnue_runtime::Evaluator::new(&net).evaluate(&pos).to_string()), "{out}");
}

/// `bench` in each mode, briefly, on a small net (the reference, and the fast network where
/// the shape is built in).
#[test]
fn bench_runs_in_each_mode() {
    let text = "(768 -> 512)x2 -> 1x8, crelu, qa=255, qb=64, scale=400";
    let Ok(Architecture::Chess768(a)) = text.parse() else { panic!() };
    let file = write("bench.nnue", &synth::chess768(&a, 2).to_bytes());
    let fens = write("bench.fens", b"8/p2k4/8/3n4/8/N5K1/8/8 w - - 4 43\n");
    let out = ok(&["bench", &file, "--arch", text, "--fens", &fens, "--seconds", "0.02", "--quiet"]);
    assert!(out.lines().next().is_some_and(|l| l.starts_with("generic refresh+eval=")), "{out}");
    let out = ok(&["bench", &file, "--arch", text, "--forward", "--fens", &fens, "--reps", "2"]);
    assert!(out.starts_with("forward generic median_ns="), "{out}");
    let games = write("bench.games", b"e2e4 e7e5 g1f3 b8c6\nd2d4 d7d5\n");
    let out = ok(&["bench", &file, "--arch", text, "--ply", "--games", &games, "--reps", "2"]);
    assert!(out.starts_with("ply generic median_ns=") && out.contains("(2 games, 6 plies)"), "{out}");
    let bad = write("bad.games", b"e2e4 e2e4\n");
    fails(&["bench", &file, "--arch", text, "--ply", "--games", &bad], 1, "game 1, ply 2 (e2e4): illegal");
    // The tree one ply below one position: the root and each legal move's node.
    let out = ok(&["bench", &file, "--arch", text, "--tree", "--depth", "1", "--fens", &fens, "--reps", "2"]);
    assert!(out.starts_with("tree generic median_ns=") && out.contains("(1 roots, "), "{out}");
    let walk = nnue_testkit::tree::trees("8/p2k4/8/3n4/8/N5K1/8/8 w - - 4 43", 1).unwrap();
    assert!(out.contains(&format!("{} nodes)", walk[0].nodes())), "{out}");
    fails(&["bench", &file, "--arch", text, "--tree", "--fens", &bad], 1, "not a legal position");
}

/// `bench --forward --large-pages` times the fast network's copy: the first line says so, then
/// the reference's row and each path's, as without it. (The copy evaluates as the original:
/// `fast`'s unit test and the runtime's.)
#[test]
fn bench_times_a_copy_in_large_pages() {
    let file = write("bench-lp.nnue", &synth::sfnn(128, 5, Encoding::Leb128).to_bytes());
    let fens = write("bench-lp.fens", b"8/p2k4/8/3n4/8/N5K1/8/8 w - - 4 43\n");
    let out = ok(&["bench", &file, "--forward", "--fens", &fens, "--reps", "2", "--large-pages", "--quiet"]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("large pages: the fast network's transformer (6337 kB) copied"), "{out}");
    if cfg!(target_os = "linux") {
        assert!(lines[0].contains("advised MADV_HUGEPAGE"), "{out}");
    }
    assert!(lines[1].starts_with("forward generic median_ns="), "{out}");
    assert_eq!(lines.len(), 2 + nnue_runtime::KernelPath::all().len(), "{out}");
    assert!(lines[2..].iter().all(|l| l.starts_with("forward loaded ")), "{out}");
    // A shape without a fast network: nothing to copy, the reference alone.
    let text = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400";
    let Ok(Architecture::Chess768(a)) = text.parse() else { panic!() };
    let other = write("bench-lp-other.nnue", &synth::chess768(&a, 2).to_bytes());
    let out = ok(&["bench", &other, "--arch", text, "--forward", "--fens", &fens, "--reps", "1", "--large-pages"]);
    assert!(out.starts_with("large pages: asked for, but there is no fast network to copy\nforward generic"), "{out}");
}

/// Bad input: exit code 1 and the reader's message (file, offset, section), or 2 for usage;
/// never a panic.
#[test]
fn bad_input_is_an_error_not_a_panic() {
    let sfnn = synth::sfnn(128, 5, Encoding::Leb128).to_bytes();
    let good = write("bad-good.nnue", &sfnn);
    let cut = write("bad-truncated.nnue", &sfnn[..sfnn.len() / 2]);
    let e = fails(&["inspect", &cut], 1, "bad-truncated.nnue: ");
    assert!(e.contains("offset"), "{e}");
    fails(&["eval", &cut, "8/8/8/8/8/8/8/K1k5 w - - 0 1"], 1, "bad-truncated.nnue: ");
    fails(&["inspect", "/nonexistent/net.nnue"], 1, "can't open");
    fails(&["inspect", s(&root().join("data"))], 1, "not a net file");
    fails(&["inspect", &good, "--arch", "(768 -> 3)x2"], 1, "--arch: bad architecture description");
    fails(&["inspect", &good, "--arch", "HalfKP -> 256x2 -> 32 -> 32 -> 1"], 1, "header at offset 4");
    let junk = write("bad-junk.bin", &[7u8; 1000]);
    fails(&["inspect", &junk], 1, "describe it with --arch");
    fails(&["eval", &junk, "8/8/8/8/8/8/8/K1k5 w - - 0 1"], 1, "unknown version");
    fails(&["eval", &good, "not a fen"], 1, "FEN 1");
    fails(&["eval", &good], 1, "no positions");
    let oracle = write("bad-oracle.tsv", b"fen\teval\n8/8/8/8/8/8/8/K1k5 w - - 0 1\tx\n");
    fails(&["check", &good, "--oracle", &oracle], 1, "bad-oracle.tsv:2: `x`");
    let oracle = write("bad-oracle2.tsv", b"fen\teval\n8/8/8/8/8/8/8/K1k5 w - - 0 1\t123456\n");
    fails(&["check", &good, "--oracle", &oracle], 1, "bad-oracle2.tsv:2: 8/8/8/8/8/8/8/K1k5 w - - 0 1: the net gives");
    fails(&["check", &good, "--oracle", "/nonexistent.tsv"], 1, "/nonexistent.tsv");
    fails(&["inspect"], 2, "FILE");
    fails(&["frobnicate"], 2, "frobnicate");
    fails(&["bench", &good, "--forward", "--ply"], 2, "cannot be used with");
}
