//! The README's engine snippet is the runtime README's, which `cargo test` runs as a doc test of
//! `nnue-runtime`: so the snippet a new user copies compiles and runs.

#[test]
fn readme_engine_snippet_is_the_doc_tested_one() {
    let root = nnue_testkit::root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let runtime = std::fs::read_to_string(root.join("nnue-runtime/README.md")).unwrap();
    let rust_block = |text: &str| {
        let start = text.find("```rust\n").expect("a ```rust block");
        let end = start + text[start..].find("\n```\n").expect("its end");
        text[start..end].to_string()
    };
    let engine = rust_block(&runtime);
    assert!(engine.contains("AccumulatorStack::new"), "the runtime README's first Rust block is the engine snippet");
    assert!(readme.contains(&engine), "README.md's engine snippet differs from nnue-runtime/README.md's");
}

/// The text between "```{lang}\n" (the first such block after `from`) and its closing fence.
fn block<'a>(text: &'a str, from: &str, lang: &str) -> &'a str {
    let section = &text[text.find(from).unwrap_or_else(|| panic!("no {from:?}"))..];
    let fence = format!("```{lang}\n");
    let start = section.find(&fence).unwrap_or_else(|| panic!("no ```{lang} block after {from:?}")) + fence.len();
    let len = section[start..].find("```\n").expect("its end");
    &section[start..start + len]
}

/// A new crate made as the README says (`cargo new`, the net copied into `nets/`, the `toml`
/// lines appended to the manifest `cargo new` writes, which ends in an empty `[dependencies]`,
/// the Rust block as `src/main.rs`) builds and runs: so the block pastes as it is, without a
/// second `[dependencies]` (which cargo refuses). Two changes, both because the crate sits in
/// this workspace's target folder rather than beside a clone: the path dependency points at
/// this workspace, and an empty `[workspace]` keeps the crate out of ours. It shares the
/// workspace's target folder, so only the crate itself compiles.
#[test]
fn readme_engine_crate_builds_and_runs() {
    let root = nnue_testkit::root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let toml = block(&readme, "## Using it in an engine", "toml");
    let main = block(&readme, "## Using it in an engine", "rust");
    let dependency = r#"nnue-runtime = { path = "../nnue/nnue-runtime" }"#;
    assert!(toml.contains(dependency), "the README's dependency line changed: {toml}");
    let here = format!("nnue-runtime = {{ path = {:?} }}", root.join("nnue-runtime").display().to_string());
    let manifest = format!(
        "[package]\nname = \"my-engine\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n{}\n[workspace]\n",
        toml.replace(dependency, &here)
    );

    let dir = root.join("target/tests/readme-crate");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::create_dir_all(dir.join("nets")).unwrap();
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(dir.join("src/main.rs"), main).unwrap();
    std::fs::copy(root.join("nets/default.nnue"), dir.join("nets/default.nnue")).unwrap();
    // The workspace's lock file, so that offline resolution picks the versions already built.
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();

    let release = cfg!(not(debug_assertions));
    let mut args = vec!["run", "--quiet", "--offline"];
    args.extend(release.then_some("--release"));
    let out = std::process::Command::new(env!("CARGO"))
        .current_dir(&dir)
        .args(&args)
        .env("CARGO_TARGET_DIR", root.join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "cargo {args:?} in {} failed:\n{stderr}", dir.display());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout, "bucket=0 psqt=0 positional=0 total=0\n");
}
