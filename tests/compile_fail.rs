//! Bad nets and bad macro arguments are compile errors that name the file, the section, the
//! offset and what was expected; trybuild pins the messages (`tests/ui/**/*.stderr`).
//!
//! Every case of the malformed-net corpus (`tests/corpus/manifest.tsv`) has its compile-fail
//! case in `tests/ui/corpus/`. The nets are written to `target/tests/nnue-corpus/`, which the
//! cases reach as `../../nnue-corpus/…` from trybuild's crate in `target/tests/trybuild/`.

use nnue_runtime::format::{synth, Encoding};

#[test]
fn compile_errors() {
    let dir = nnue::root().join("target/tests/nnue-corpus");
    nnue::corpus::write_all(&dir).unwrap();
    let valid = synth::sfnn(64, 1, Encoding::Leb128).to_bytes();
    if std::fs::read(dir.join("valid.nnue")).ok() != Some(valid.clone()) {
        std::fs::write(dir.join("valid.nnue"), valid).unwrap();
    }
    for case in nnue::corpus::cases() {
        let ui = nnue::root().join(format!("tests/ui/corpus/{}.rs", case.name));
        assert!(ui.is_file(), "corpus case {} has no compile-fail case {}", case.name, ui.display());
    }
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.compile_fail("tests/ui/corpus/*.rs");
}
