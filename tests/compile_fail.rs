//! Bad nets and bad macro arguments are compile errors that name the file, the section, the
//! offset and what was expected; trybuild pins the messages (`tests/ui/**/*.stderr`).
//!
//! Every case of the malformed-net corpus (`tests/corpus/manifest.tsv`) has its compile-fail
//! case in `tests/ui/corpus/`. The nets are written to `target/tests/nnue-corpus/`, which the
//! cases reach as `../../nnue-corpus/…` from trybuild's crate in `target/tests/trybuild/`.

use nnue_runtime::format::{synth, Encoding};

#[test]
fn compile_errors() {
    let dir = nnue_testkit::root().join("target/tests/nnue-corpus");
    nnue_testkit::corpus::write_all(&dir).unwrap();
    let valid = synth::sfnn(64, 1, Encoding::Leb128).to_bytes();
    if std::fs::read(dir.join("valid.nnue")).ok() != Some(valid.clone()) {
        std::fs::write(dir.join("valid.nnue"), valid).unwrap();
    }
    for case in nnue_testkit::corpus::cases() {
        let ui = nnue_testkit::root().join(format!("tests/ui/corpus/{}.rs", case.name));
        assert!(ui.is_file(), "corpus case {} has no compile-fail case {}", case.name, ui.display());
    }
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.compile_fail("tests/ui/corpus/*.rs");
}

/// Files that are not nets (a FIFO once blocked the build forever, /dev/zero ate memory, a
/// 2 GB file was read whole): each is an error at once, naming the file.
#[cfg(unix)]
#[test]
fn compile_errors_for_files_that_are_not_nets() {
    let dir = nnue_testkit::root().join("target/tests/nnue-corpus");
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo.nnue");
    if !std::fs::symlink_metadata(&fifo).is_ok_and(|m| std::os::unix::fs::FileTypeExt::is_fifo(&m.file_type())) {
        let _ = std::fs::remove_file(&fifo);
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs").success());
    }
    let huge = std::fs::File::create(dir.join("huge-sparse.nnue")).unwrap();
    huge.set_len(2 << 30).unwrap();
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/unix/*.rs");
}
