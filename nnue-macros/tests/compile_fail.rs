//! Bad nets and bad macro arguments are compile errors that name the file, the section, the
//! offset and what was expected; trybuild pins the messages (`tests/ui/*.stderr`).
//!
//! Every case of the malformed-net corpus (`tests/corpus/manifest.tsv`) is one `nnue_net!` in
//! `tests/ui/corpus.rs`, generated from the manifest, so one build reports them all. The nets
//! are written to `target/tests/nnue-corpus/`, which the cases reach as `../../nnue-corpus/…`
//! from trybuild's crate in `target/tests/trybuild/`.
//!
//! After changing the manifest or a message: `NNUE_UI_REGENERATE=1 TRYBUILD=overwrite cargo
//! test --release -p nnue-macros --test compile_fail`.

use nnue_runtime::format::{synth, Encoding};
use nnue_testkit::{corpus, root};

#[test]
fn compile_errors() {
    let dir = root().join("target/tests/nnue-corpus");
    corpus::write_all(&dir).unwrap();
    let valid = synth::sfnn(64, 1, Encoding::Leb128).to_bytes();
    if std::fs::read(dir.join("valid.nnue")).ok() != Some(valid.clone()) {
        std::fs::write(dir.join("valid.nnue"), valid).unwrap();
    }
    let ui = root().join("nnue-macros/tests/ui/corpus.rs");
    let source = corpus::ui_source(&corpus::cases());
    if std::env::var_os("NNUE_UI_REGENERATE").is_some() {
        std::fs::write(&ui, &source).unwrap();
    }
    assert!(
        std::fs::read_to_string(&ui).ok().as_deref() == Some(source.as_str()),
        "{} is not what the corpus manifest generates: rerun with NNUE_UI_REGENERATE=1",
        ui.display()
    );
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}
