//! A package whose lib and bin compile in the same net (`tests/fixtures/two-nets/`), built with
//! cargo into its own target directory:
//!
//! - it links (both copies once defined the same `nnue_…_L0_BIASES` symbols);
//! - the weight cache is kept in that target directory, not in a shared temp folder, and a
//!   cache file corrupted without changing its size is not used: the binary
//!   checks both compiled-in nets against the net read at run time, on every path.

use std::path::Path;
use std::process::Command;

fn cargo(fixture: &Path, target: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO"))
        .current_dir(fixture)
        .args(args)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("NNUE_CACHE_DIR")
        .env_remove("RUSTFLAGS")
        // An incremental build could reuse the object assembled from the first build's bytes.
        .env("CARGO_INCREMENTAL", "0")
        .output()
        .expect("cargo runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "cargo {args:?} failed:\n{stderr}");
    String::from_utf8(out.stdout).unwrap()
}

fn touch(file: &Path) {
    let f = std::fs::File::options().append(true).open(file).unwrap();
    f.set_modified(std::time::SystemTime::now()).unwrap();
}

#[test]
fn lib_and_bin_with_the_same_net_link_and_a_corrupt_cache_is_not_used() {
    let fixture = nnue_testkit::root().join("tests/fixtures/two-nets");
    let target = nnue_testkit::root().join("target/tests/two-nets");
    let cache = target.join("nnue-cache");
    let _ = std::fs::remove_dir_all(&cache);
    // An up-to-date package would not expand the macro again, and the cache would stay empty.
    touch(&fixture.join("src/lib.rs"));
    touch(&fixture.join("src/main.rs"));
    let run = ["run", "--quiet", "--offline", "--locked"];
    let first = cargo(&fixture, &target, &run);
    assert_eq!(first.lines().count(), 4, "{first}");

    // One entry (both expansions share it), under the target directory.
    let entries: Vec<_> = std::fs::read_dir(&cache).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
    let mut corrupted = 0;
    for blob in std::fs::read_dir(&entries[0]).unwrap().map(|e| e.unwrap().path()) {
        if blob.extension().is_some_and(|e| e == "bin") {
            let mut bytes = std::fs::read(&blob).unwrap();
            bytes.iter_mut().for_each(|b| *b = b.wrapping_add(1));
            std::fs::write(&blob, &bytes).unwrap();
            corrupted += 1;
        }
    }
    assert!(corrupted >= 4);
    touch(&fixture.join("src/lib.rs"));
    touch(&fixture.join("src/main.rs"));
    let again = cargo(&fixture, &target, &run);
    assert_eq!(again, first);
}
