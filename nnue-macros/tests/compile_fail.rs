//! Bad nets and bad macro arguments are compile errors that name the file, the section, the
//! offset and what was expected; trybuild pins the messages (`tests/ui/*.stderr`). A few forms
//! that must compile and run are in `tests/ui-pass/`.
//!
//! Every case of the malformed-net corpus (`tests/corpus/manifest.tsv`) is one `nnue_net!` in
//! `tests/ui/corpus.rs`, generated from the manifest, so one build reports them all. The nets
//! are written to `<target dir>/tests/nnue-corpus/`, which the cases reach as `../../nnue-corpus/…`
//! from trybuild's crate in `target/tests/trybuild/`.
//!
//! After changing the manifest or a message: `NNUE_UI_REGENERATE=1 TRYBUILD=overwrite cargo
//! test --release -p nnue-macros --test compile_fail`.
//!
//! The expected output includes rustc's own wording around our messages, which changes between
//! compiler versions: with another rustc than the one the `.stderr` files were written with
//! ([`PINNED_RUSTC`]) the tests print `SKIPPED …` instead of failing (`NNUE_UI_TESTS=1` runs
//! them anyway).

use nnue_runtime::format::{synth, Encoding};
use nnue_testkit::{corpus, root};

/// The rustc release the `.stderr` files were written with (CI's).
const PINNED_RUSTC: &str = "rustc 1.95.";

/// Whether this rustc writes diagnostics as the pinned one does (or the run asks for the tests
/// anyway); otherwise reports `what` as skipped.
fn same_rustc(what: &str) -> bool {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = std::process::Command::new(rustc)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    if version.starts_with(PINNED_RUSTC) || std::env::var_os("NNUE_UI_TESTS").is_some_and(|v| v == "1") {
        return true;
    }
    let why =
        format!("the expected messages are {PINNED_RUSTC}x's wording, this is {version:?} (NNUE_UI_TESTS=1 runs them)");
    nnue_testkit::skip(what, &why, false);
    false
}

/// `<workspace>/target/tests/nnue-corpus`, beside trybuild's crate; `None` (and a skip) when
/// `CARGO_TARGET_DIR` puts the target folder elsewhere: the expected messages name paths
/// relative to the workspace's own target folder.
fn corpus_dir(what: &str) -> Option<std::path::PathBuf> {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), |d| root().join(d));
    if target != root().join("target") {
        let why = format!("CARGO_TARGET_DIR is {}, not the workspace's target/", target.display());
        nnue_testkit::skip(what, &why, false);
        return None;
    }
    Some(target.join("tests/nnue-corpus"))
}

#[test]
fn compile_errors() {
    if !same_rustc("compile-fail tests") {
        return;
    }
    let Some(dir) = corpus_dir("compile-fail tests") else { return };
    corpus::write_all(&dir).unwrap();
    let valid = synth::sfnn(64, 1, Encoding::Leb128).to_bytes();
    if std::fs::read(dir.join("valid.nnue")).ok() != Some(valid.clone()) {
        std::fs::write(dir.join("valid.nnue"), valid).unwrap();
    }
    // For `varints.rs`: a net of PlentyChess's layout (one varint per value) cut short, and
    // with a byte after its last value.
    let Ok(nnue_runtime::format::Architecture::Layered(layered)) = nnue_testkit::engine_nets::PLENTYCHESS_SMALL.parse()
    else {
        panic!("PLENTYCHESS_SMALL is a multi-layer description")
    };
    let plenty = synth::layered(&layered, 5).to_bytes();
    for (name, bytes) in [
        ("varints_cut_short.nnue", plenty[..plenty.len() - 1].to_vec()),
        ("varints_trailing_byte.nnue", [&plenty[..], &[0]].concat()),
    ] {
        if std::fs::read(dir.join(name)).ok() != Some(bytes.clone()) {
            std::fs::write(dir.join(name), bytes).unwrap();
        }
    }
    // For `custom_block.rs`: a net with an engine-defined input block of 18 features.
    let custom = "(768x2hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, l1act=crelu, l2act=crelu, \
                  l1mul=512/4161600, scale=380, threats=custom:18, file=reckless, kings=[0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
    let Ok(nnue_runtime::format::Architecture::Layered(custom)) = custom.parse() else {
        panic!("a multi-layer description")
    };
    let custom = synth::layered(&custom, 6).to_bytes();
    if std::fs::read(dir.join("custom_block.nnue")).ok() != Some(custom.clone()) {
        std::fs::write(dir.join("custom_block.nnue"), custom).unwrap();
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
    // For `env_missing_file.rs`: a path from the environment that names no file. (Edition 2021:
    // setting a variable is safe; no other thread of this binary reads it.)
    std::env::set_var("NNUE_TEST_NET_FROM_ENV", "/nonexistent/net.nnue");
    // For `env_empty.rs`, `env_headerless_without_arch.rs`, `env_expect_without_default.rs`
    // and `ui-pass/env_without_default.rs`.
    std::env::set_var("NNUE_TEST_EMPTY_ENV", "");
    std::env::set_var("NNUE_TEST_HEADERLESS_FROM_ENV", "../../../../nets/default.nnue");
    std::env::remove_var("NNUE_TEST_HEADERLESS_FROM_ENV_ARCH");
    std::env::remove_var("NNUE_TEST_HEADERLESS_FROM_ENV_NEURON_ORDER");
    std::env::set_var("NNUE_TEST_SFNN_FROM_ENV", "../../nnue-corpus/valid.nnue");
    std::env::remove_var("NNUE_TEST_SFNN_FROM_ENV_NEURON_ORDER");
    // For `neuron_order.rs`: a net from the environment with an order that doesn't fit it.
    std::env::set_var("NNUE_TEST_ORDERED_FROM_ENV", "../../nnue-corpus/valid.nnue");
    std::env::set_var("NNUE_TEST_ORDERED_FROM_ENV_NEURON_ORDER", "../../../../nnue-macros/tests/ui/orders/short.order");
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
    // In the same trybuild run, not a test of their own: trybuild builds the dependencies once
    // per run, and a run without passing cases only checks them, so a second run built them
    // all again (about 15 CPU seconds of 65).
    #[cfg(unix)]
    {
        files_that_are_not_nets(&dir);
        cases.compile_fail("tests/ui/unix/*.rs");
    }
    // What must compile and run: `tests/ui-pass/`.
    cases.pass("tests/ui-pass/*.rs");
}

/// For `tests/ui/unix/`: files that are not nets (a FIFO once blocked the build forever,
/// /dev/zero ate memory, a 2 GB file was read whole), each an error at once, naming the file.
#[cfg(unix)]
fn files_that_are_not_nets(dir: &std::path::Path) {
    let fifo = dir.join("fifo.nnue");
    if !std::fs::symlink_metadata(&fifo).is_ok_and(|m| std::os::unix::fs::FileTypeExt::is_fifo(&m.file_type())) {
        let _ = std::fs::remove_file(&fifo);
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs").success());
    }
    let huge = std::fs::File::create(dir.join("huge-sparse.nnue")).unwrap();
    huge.set_len(2 << 30).unwrap();
    // For `zstd_bomb.rs`: 49 KB of zstd that decodes to the 1.6 GB its description implies.
    let bomb = synth::zstd_bomb();
    if std::fs::read(dir.join("zstd-bomb.nnue")).ok() != Some(bomb.clone()) {
        std::fs::write(dir.join("zstd-bomb.nnue"), bomb).unwrap();
    }
}
