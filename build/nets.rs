//! The build script of the packages whose tests and benches compile nets with `nnue_net!`
//! (the root package and `checks/`): writes the synthetic nets and tells the code where the
//! real Stockfish nets are (if anywhere):
//!
//! - `NNUE_SYNTH_<NAME>` (and `NNUE_SYNTH_<NAME>_ARCH` for headerless nets): synthetic files;
//! - `NNUE_REAL_<NAME>` and `cfg(nnue_real_<name>)`: a real net from `../shared/nets/` or
//!   `nets/fetched/`; without one the variable points at a synthetic stand-in of the same
//!   family and the cfg is unset, so tests can skip with a message. Real headerless nets also
//!   get `NNUE_REAL_<NAME>_ARCH` (their stand-ins have the same description).

use std::path::{Path, PathBuf};

use nnue_format::{synth, Architecture, Encoding, Model, Net, Padding, Sf19Inputs};

/// The engine-layout nets' table (`EngineNet`s, see `testkit/src/engine_nets.rs`).
mod engine_nets {
    #[allow(dead_code)]
    pub struct EngineNet {
        pub name: &'static str,
        pub engine: &'static str,
        pub arch: &'static str,
        pub seed: u64,
        pub oracle: &'static str,
    }
    include!("../testkit/src/engine_nets_table.rs");
}

/// The descriptions of the real bullet-trained nets of `../shared/nets/bullet/`.
const AKIMBO_ARCH: &str = "(768 -> 512)x2 -> 1x8, crelu, qa=255, qb=64, scale=400";
const PAWNOCCHIO_ARCH: &str = "(768hm -> 1024)x2 -> 1x8, screlu, qa=255, qb=64, scale=400";

/// (name, description or net) of every synthetic net.
fn synthetic() -> Vec<(&'static str, Net)> {
    let chess768 = |text: &str, seed| {
        let Ok(Architecture::Chess768(arch)) = text.parse() else { panic!("bad description {text}") };
        synth::chess768(&arch, seed)
    };
    let kings4: Vec<String> = (0..32).map(|i| ((i / 4) % 4).to_string()).collect();
    // 16 buckets over the mirrored half board: one per square on ranks 1-2, coarser above.
    let kings16: Vec<String> = (0..32usize)
        .map(|i| {
            let (rank, file) = (i / 4, i % 4);
            match rank {
                0 | 1 => i,
                2 => 8 + file / 2,
                3 => 10 + file / 2,
                4 | 5 => 12 + file / 2,
                _ => 14 + file / 2,
            }
            .to_string()
        })
        .collect();
    // Output weights `[2N][B]` and bullet's `bulletbullet…` padding, as bullet writes by default.
    let mut transposed = chess768("(768hm -> 64)x2 -> 1x8, screlu, qa=255, qb=64, scale=400, out=[2N][B]", 122);
    if let Model::Chess768(_, p) = &mut transposed.model {
        p.padding = Padding::Bullet;
    }
    let layered = |text: &str, seed| {
        let Ok(Architecture::Layered(arch)) = text.parse() else { panic!("bad description {text}") };
        synth::layered(&arch, seed)
    };
    let kings2 = "kings=[0,0,1,1,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
    let kings3 = "kings=[0,0,0,0,1,1,1,1,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2]";
    vec![
        ("ALEXANDRIA_SYNTH", layered(engine_nets::ALEXANDRIA.arch, engine_nets::ALEXANDRIA.seed)),
        ("STORMPHRAX_SYNTH", layered(engine_nets::STORMPHRAX.arch, engine_nets::STORMPHRAX.seed)),
        ("INTEGRAL_SYNTH", layered(engine_nets::INTEGRAL.arch, engine_nets::INTEGRAL.seed)),
        ("OBSIDIAN_SYNTH", layered(engine_nets::OBSIDIAN.arch, engine_nets::OBSIDIAN.seed)),
        ("RECKLESS_SYNTH", layered(engine_nets::RECKLESS.arch, engine_nets::RECKLESS.seed)),
        ("RECKLESS_PAIRS_SYNTH", layered(engine_nets::RECKLESS_PAIRS.arch, engine_nets::RECKLESS_PAIRS.seed)),
        ("PLENTYCHESS_SYNTH", layered(engine_nets::PLENTYCHESS.arch, engine_nets::PLENTYCHESS.seed)),
        ("VIRIDITHAS_SYNTH", layered(engine_nets::VIRIDITHAS.arch, engine_nets::VIRIDITHAS.seed)),
        ("VIRIDITHAS_AVX2_SYNTH", layered(engine_nets::VIRIDITHAS_AVX2.arch, engine_nets::VIRIDITHAS_AVX2.seed)),
        (
            "STORMPHRAX8_NO_THREATS_SYNTH",
            layered(engine_nets::STORMPHRAX8_NO_THREATS.arch, engine_nets::STORMPHRAX8_NO_THREATS.seed),
        ),
        ("STORMPHRAX8_SYNTH", layered(engine_nets::STORMPHRAX8.arch, engine_nets::STORMPHRAX8.seed)),
        ("CAISSA_SYNTH", chess768(engine_nets::CAISSA.arch, engine_nets::CAISSA.seed)),
        ("CINDER_SYNTH", layered(engine_nets::CINDER.arch, engine_nets::CINDER.seed)),
        (
            "LAYERED_F32_64",
            layered(&format!("(768x2hm -> 64)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x8, f32, dual, l1mul=1024/4161600, scale=362, buckets=(63-p)(32-p)/225, file=alexandria, {kings2}"), 130),
        ),
        (
            "LAYERED_I32_128_WRAP",
            synth::with_wrapping_first_layer(
                layered("(768hm -> 128)x2 -> pairwise>>9 -> (32 -> 32 -> 1)x8, i32, dual, q=64, l1shift=10, scale=400, file=cbnf", 131),
                7,
            ),
        ),
        // Threat inputs beside 3 king buckets (back rank, second rank, the rest: random games
        // cross them often), output buckets by table.
        (
            "LAYERED_THREATS_64",
            layered(&format!("(768x3hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x4, f32, l1act=crelu, l2act=crelu, l1mul=512/4161600, scale=380, buckets=[0,0,0,0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,2,2,2,2,2,2,2,3,3,3,3,3,3,3,3], threats=reckless, file=reckless, {kings3}"), 132),
        ),
        (
            "LAYERED_THREATS_128_WRAP",
            synth::with_wrapping_first_layer(
                layered(&format!("(768x3hm -> 128)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, dual, l1mul=512/4161600, scale=400, l1sums=i16pairs, threats=reckless, file=reckless, {kings3}"), 133),
                8,
            ),
        ),
        // PlentyChess's shape: pawn pairs and Stockfish 19's threats, a skip connection into
        // the output layer, one varint per value.
        (
            "LAYERED_PAIRS_THREATS_64",
            layered(&format!("(768x3hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, dual, skip, l1mul=512/4161600, scale=287, threats=pawnpairs+sf19, file=plentychess, {kings3}"), 134),
        ),
        // Viridithas's AVX2 sums (its neuron order, int16 pairs within runs of four) at its
        // L1 of 1024, over plain chess-768 inputs; sparse weights drawn wide, so the int16
        // sums wrap on ordinary positions.
        (
            "LAYERED_VIRIDITHAS_AVX2_1024",
            layered("(768 -> 1024)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x2, f32, l1act=crelu, l1mul=512/4161600, scale=240, l1sums=viridithas-avx2, file=bullet", 142),
        ),
        // An engine-defined input block (testkit's `PawnFilesBishopPairs`, 18 features) beside 3
        // king buckets, in Reckless's file.
        (
            "LAYERED_CUSTOM_64",
            layered(&format!("(768x3hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x4, f32, l1act=crelu, l2act=crelu, l1mul=512/4161600, scale=380, buckets=[0,0,0,0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,2,2,2,2,2,2,2,3,3,3,3,3,3,3,3], threats=custom:18, file=reckless, {kings3}"), 141),
        ),
        // The engine's block after the library's (pawn pairs and Stockfish 19's threats): its
        // rows at an offset, beside a threat log, in PlentyChess's file.
        (
            "LAYERED_PAIRS_THREATS_CUSTOM_64",
            layered(&format!("(768x3hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, dual, skip, l1mul=512/4161600, scale=287, threats=pawnpairs+sf19+custom:18, file=plentychess, {kings3}"), 143),
        ),
        // Merged king planes (Stormphrax 8's) with pawn pairs and threats.
        (
            "LAYERED_MERGED_PAIRS_THREATS_64",
            layered(&format!("(704x3hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, dual, skip, l1mul=512/4161600, scale=287, threats=pawnpairs+sf19, file=plentychess, {kings3}"), 136),
        ),
        (
            "LAYERED_PAIRS_THREATS_128_WRAP",
            synth::with_wrapping_first_layer(
                layered(&format!("(768x3hm -> 128)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, dual, skip, l1mul=512/4161600, scale=287, l1sums=i16pairs, threats=pawnpairs+sf19, file=plentychess, {kings3}"), 135),
                9,
            ),
        ),
        ("SFNN64", synth::sfnn(64, 101, Encoding::Leb128)),
        // First layers whose accumulators wrap (int16), in every family.
        ("SFNN64_WRAP", synth::with_wrapping_first_layer(synth::sfnn(64, 111, Encoding::Leb128), 1)),
        ("SFNN192_WRAP", synth::with_wrapping_first_layer(synth::sfnn(192, 112, Encoding::Raw), 2)),
        ("HALFKP64_WRAP", synth::with_wrapping_first_layer(synth::halfkp(64, 113), 3)),
        (
            "CHESS768_64_WRAP",
            synth::with_wrapping_first_layer(chess768("(768 -> 64)x2 -> 1, crelu, qa=255, qb=64, scale=400", 114), 4),
        ),
        (
            "CHESS768_128_WRAP",
            synth::with_wrapping_first_layer(
                chess768("(768 -> 128)x2 -> 1x8, screlu, qa=255, qb=64, scale=400", 115),
                5,
            ),
        ),
        ("SFNN128", synth::sfnn(128, 102, Encoding::Raw)),
        ("SFNN256", synth::sfnn(256, 103, Encoding::Leb128)),
        ("HALFKP64", synth::halfkp(64, 104)),
        ("HALFKP256", synth::halfkp(256, 105)),
        ("THREATS64", synth::threats(64, 110, Encoding::Leb128)),
        ("THREATS128", synth::threats(128, 111, Encoding::Raw)),
        ("SF19_64", synth::sf19(64, Sf19Inputs::Full, 120, Encoding::Leb128)),
        ("SF19_LITE_128", synth::sf19(128, Sf19Inputs::Lite, 121, Encoding::Raw)),
        // Stockfish master's SFNNv17: Stockfish 19's nets without the PSQT blocks.
        ("SF19_V17_64", synth::without_psqt(synth::sf19(64, Sf19Inputs::Full, 123, Encoding::Leb128))),
        ("SF19_V17_LITE_128", synth::without_psqt(synth::sf19(128, Sf19Inputs::Lite, 124, Encoding::Raw))),
        (
            "SF19_LITE_64_WRAP",
            synth::with_wrapping_first_layer(synth::sf19(64, Sf19Inputs::Lite, 122, Encoding::Leb128), 6),
        ),
        ("CHESS768_64", chess768("(768 -> 64)x2 -> 1, crelu, qa=255, qb=64, scale=400", 106)),
        ("CHESS768_128", chess768("(768 -> 128)x2 -> 1x8, screlu, qa=255, qb=64, scale=400", 107)),
        // 40 columns no position makes positive (the macro leaves 32 of them out) and 40 that
        // some positions do.
        (
            "CHESS768_128_DEAD",
            synth::with_dead_columns(chess768("(768 -> 128)x2 -> 1x8, crelu, qa=255, qb=64, scale=400", 116), 40, 1),
        ),
        (
            "CHESS768_96",
            chess768(
                &format!("(768x4hm -> 96)x2 -> 1x4, screlu, qa=181, qb=64, scale=400, kings=[{}]", kings4.join(",")),
                108,
            ),
        ),
        (
            "CHESS768_1024",
            chess768(
                &format!(
                    "(768x16hm -> 1024)x2 -> 1x8, screlu, qa=255, qb=64, scale=400, kings=[{}]",
                    kings16.join(",")
                ),
                109,
            ),
        ),
        ("CHESS768_64X8_T", transposed),
        ("BULLET_AKIMBO_STAND_IN", chess768(AKIMBO_ARCH, 120)),
        ("BULLET_PAWNOCCHIO_STAND_IN", chess768(PAWNOCCHIO_ARCH, 121)),
    ]
}

const REAL: [(&str, &str, &str); 10] = [
    ("SF19_BIG", "nn-1a298aa575a0.nnue", "SF19_64"),
    ("SF19_LITE", "nn-61e7af4bb97d.nnue", "SF19_LITE_128"),
    ("OVERFLOW_SMALL", "overflow-small.nnue", "SFNN64_WRAP"),
    ("SF17_BIG", "nn-1c0000000000.nnue", "SFNN256"),
    ("SF17_SMALL", "nn-37f18f62d772.nnue", "SFNN128"),
    ("SF17_LITE", "nn-9067e33176e8.nnue", "SFNN256"),
    ("SF13_HALFKP", "nn-62ef826d1a6d.nnue", "HALFKP256"),
    ("SF18_BIG", "nn-c288c895ea92.nnue", "THREATS64"),
    ("BULLET_AKIMBO", "bullet/akimbo-0.7.0-giuseppe.bin", "BULLET_AKIMBO_STAND_IN"),
    ("BULLET_PAWNOCCHIO", "bullet/pawnocchio-net20_04_1024_400_8_mirrored.nnue", "BULLET_PAWNOCCHIO_STAND_IN"),
];

/// The folder holding the workspace's `Cargo.toml` (`../shared` lies beside it).
fn workspace_root() -> PathBuf {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    manifest.ancestors().find(|d| d.join("nnue-runtime").is_dir()).expect("inside the workspace").to_path_buf()
}

fn write_if_changed(path: &Path, bytes: &[u8]) {
    if std::fs::read(path).ok().as_deref() != Some(bytes) {
        std::fs::write(path, bytes).expect("write synthetic net");
    }
}

pub fn run() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={}", workspace_root().join("build/nets.rs").display());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let mut paths = std::collections::HashMap::new();
    let mut archs = std::collections::HashMap::new();
    for (name, net) in synthetic() {
        let path = out.join(format!("{}.nnue", name.to_lowercase()));
        write_if_changed(&path, &net.to_bytes());
        println!("cargo:rustc-env=NNUE_SYNTH_{name}={}", path.display());
        if let Architecture::Chess768(_) | Architecture::Layered(_) = net.arch() {
            println!("cargo:rustc-env=NNUE_SYNTH_{name}_ARCH={}", net.arch());
            archs.insert(name, net.arch().to_string());
        }
        paths.insert(name, path);
    }
    // A CBNF net zstd-compressed in two frames, as Stormphrax ships its nets (the macro and the
    // reader decompress it).
    let (_, wrap) = synthetic().into_iter().find(|(n, _)| *n == "LAYERED_I32_128_WRAP").expect("listed above");
    let path = out.join("layered_i32_128_zstd.nnue");
    write_if_changed(&path, &synth::cbnf_zstd(&wrap, 2));
    println!("cargo:rustc-env=NNUE_SYNTH_LAYERED_I32_128_ZSTD={}", path.display());
    println!("cargo:rustc-env=NNUE_SYNTH_LAYERED_I32_128_ZSTD_ARCH={}", wrap.arch());
    let root = workspace_root();
    // Nets again, each named by a variable with its neuron order beside it
    // (`<VAR>_NEURON_ORDER`), as an engine's build names its net.
    for (name, order) in [("SFNN128", "shuffle-64"), ("SF19_64", "shuffle-32"), ("LAYERED_F32_64", "shuffle-32")] {
        let order = root.join(format!("tests/fixtures/neuron-orders/{order}.order"));
        println!("cargo:rerun-if-changed={}", order.display());
        println!("cargo:rustc-env=NNUE_SYNTH_{name}_ORDERED={}", paths[name].display());
        println!("cargo:rustc-env=NNUE_SYNTH_{name}_ORDERED_NEURON_ORDER={}", order.display());
        if let Some(arch) = archs.get(name) {
            println!("cargo:rustc-env=NNUE_SYNTH_{name}_ORDERED_ARCH={arch}");
        }
    }
    let dirs = [root.join("../shared/nets"), root.join("nets/fetched")];
    for dir in &dirs {
        println!("cargo:rerun-if-changed={}", dir.display());
    }
    for (name, file, stand_in) in REAL {
        let cfg = format!("nnue_real_{}", name.to_lowercase());
        println!("cargo::rustc-check-cfg=cfg({cfg})");
        let found = dirs.iter().map(|d| d.join(file)).find(|p| p.is_file());
        let path = match &found {
            Some(p) => {
                println!("cargo:rustc-cfg={cfg}");
                p.clone()
            }
            None => paths[stand_in].clone(),
        };
        println!("cargo:rustc-env=NNUE_REAL_{name}={}", path.display());
        // A headerless stand-in is described as the real net is.
        if let Some(arch) = archs.get(stand_in) {
            println!("cargo:rustc-env=NNUE_REAL_{name}_ARCH={arch}");
        }
    }
    // No SFNNv17 net can be had: Stockfish 19's big net with its PSQT blocks cut out is one,
    // whose values are the positional column of Stockfish 19's oracles.
    println!("cargo::rustc-check-cfg=cfg(nnue_real_sf19_v17_big)");
    let (_, sf19, _) = REAL.iter().find(|(name, ..)| *name == "SF19_BIG").expect("listed");
    let sf19 = dirs.iter().map(|d| d.join(sf19)).find(|p| p.is_file());
    let v17 = match sf19.and_then(|p| std::fs::read(p).ok()) {
        Some(bytes) => {
            let net = Net::from_bytes(&bytes, None).expect("Stockfish 19's big net reads");
            let path = out.join("sf19_v17_big.nnue");
            write_if_changed(&path, &synth::without_psqt(net).to_bytes());
            println!("cargo:rustc-cfg=nnue_real_sf19_v17_big");
            path
        }
        None => paths["SF19_V17_64"].clone(),
    };
    println!("cargo:rustc-env=NNUE_REAL_SF19_V17_BIG={}", v17.display());
}
