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
