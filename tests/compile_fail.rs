//! Bad nets and bad macro arguments are compile errors that name the file, the section, the
//! offset and what was expected; trybuild pins the messages (`tests/ui/*.stderr`).
//!
//! The nets are made here, from a seeded synthetic net, into `target/tests/nnue-corpus/`, which
//! the cases reach as `../../nnue-corpus/…` from trybuild's crate in `target/tests/trybuild/`.

use nnue_runtime::format::{synth, Architecture, Encoding};

fn corpus() -> Vec<(&'static str, Vec<u8>)> {
    let sfnn = synth::sfnn(64, 1, Encoding::Leb128).to_bytes();
    let desc_len = u32::from_le_bytes(sfnn[8..12].try_into().unwrap()) as usize;
    let ft = 12 + desc_len; // the feature transformer's hash
    let with = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut b = sfnn.clone();
        f(&mut b);
        b
    };
    let Ok(Architecture::Simple(simple)) = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400".parse() else {
        unreachable!()
    };
    vec![
        ("good", sfnn.clone()),
        ("truncated", sfnn[..100_000].to_vec()),
        ("empty", Vec::new()),
        ("unknown_version", with(&|b| b[0..4].copy_from_slice(&0xDEAD_BEEFu32.to_le_bytes()))),
        ("wrong_file_hash", with(&|b| b[4] ^= 1)),
        ("wrong_section_hash", with(&|b| b[ft] ^= 1)),
        ("trailing", with(&|b| b.push(0))),
        ("leb128_count", with(&|b| b[ft + 4 + 17] += 1)),
        ("headerless", synth::simple(&simple, 2).to_bytes()),
    ]
}

#[test]
fn compile_errors() {
    let dir = nnue::root().join("target/tests/nnue-corpus");
    std::fs::create_dir_all(&dir).unwrap();
    for (name, bytes) in corpus() {
        let path = dir.join(format!("{name}.nnue"));
        if std::fs::read(&path).ok() != Some(bytes.clone()) {
            std::fs::write(path, bytes).unwrap();
        }
    }
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
