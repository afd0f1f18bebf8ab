//! Every relative link of the READMEs and the guide in `docs/` leads somewhere: the file exists,
//! and an anchor (`file.md#anchor`, or `#anchor` within the page) is a heading of the target,
//! slugged as GitHub slugs them. Links to `http(s)://` and `mailto:` are not followed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The workspace root (the folder above this package's manifest directory, `tests/`).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ lies in the workspace root").to_path_buf()
}

/// The markdown pages checked: the two READMEs and every `docs/*.md`.
fn pages() -> Vec<PathBuf> {
    let root = root();
    let mut pages = vec![root.join("README.md"), root.join("nnue-runtime/README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("a docs/ folder")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    assert!(!docs.is_empty(), "docs/ has no .md files");
    pages.extend(docs);
    pages
}

/// The text outside fenced code blocks, line by line (fenced lines become empty, so that line
/// numbers stay right).
fn prose_lines(text: &str) -> Vec<String> {
    let mut fence: Option<String> = None;
    let mut lines = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        let marker: String = trimmed.chars().take_while(|&c| c == '`' || c == '~').collect();
        match &fence {
            Some(open) if trimmed.starts_with(open.as_str()) && trimmed.trim_end() == marker => {
                fence = None;
                lines.push(String::new());
            }
            Some(_) => lines.push(String::new()),
            None if marker.len() >= 3 => {
                fence = Some(marker);
                lines.push(String::new());
            }
            None => lines.push(line.to_string()),
        }
    }
    lines
}

/// `line` without its inline code spans (`` `…` ``, any number of backticks).
fn without_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let ticks = rest[start..].chars().take_while(|&c| c == '`').count();
        let after = &rest[start + ticks..];
        let closing = "`".repeat(ticks);
        match after.find(&closing) {
            Some(end) => rest = &after[end + ticks..],
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// GitHub's anchor for a heading: lowercase, every character but letters, digits, spaces, `-`
/// and `_` dropped, spaces turned into `-`.
fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|&c| c.is_alphanumeric() || c == '-' || c == '_' || c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a page's headings, a repeated slug numbered as GitHub numbers it (`x`, `x-1`).
fn anchors(text: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut anchors = Vec::new();
    for line in prose_lines(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let heading = line[hashes..].trim().trim_end_matches('#').trim();
        let base = slug(heading);
        let n = seen.entry(base.clone()).or_insert(0);
        anchors.push(if *n == 0 { base.clone() } else { format!("{base}-{n}") });
        *n += 1;
    }
    anchors
}

/// The destinations of the inline links `[text](destination)` on a line of prose.
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code_spans(line);
    let mut targets = Vec::new();
    let mut rest = line.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        // The destination ends at the parenthesis that closes the one opened by "](".
        let mut depth = 1;
        let mut end = None;
        for (i, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else { break };
        let dest = after[..end].trim();
        // A title (`[t](path "title")`) and angle brackets are not part of the path.
        let dest = dest.split_whitespace().next().unwrap_or("");
        targets.push(dest.trim_start_matches('<').trim_end_matches('>').to_string());
        rest = &after[end + 1..];
    }
    targets
}

/// What is wrong with `dest`, a link on `page`, if anything.
fn check(page: &Path, dest: &str, cache: &mut HashMap<PathBuf, Vec<String>>) -> Option<String> {
    if dest.starts_with("http://") || dest.starts_with("https://") || dest.starts_with("mailto:") {
        return None;
    }
    if dest.is_empty() {
        return Some("an empty link".to_string());
    }
    let (path, anchor) = match dest.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (dest, None),
    };
    let target = if path.is_empty() { page.to_path_buf() } else { page.parent().unwrap().join(path) };
    if !target.exists() {
        return Some(format!("{} does not exist", target.display()));
    }
    let anchor = anchor?;
    if target.extension().is_none_or(|ext| ext != "md") {
        return Some(format!("an anchor into {}, which is not markdown", target.display()));
    }
    let key = target.canonicalize().unwrap();
    let known = cache.entry(key).or_insert_with(|| anchors(&std::fs::read_to_string(&target).unwrap()));
    if known.iter().any(|a| a == anchor) {
        None
    } else {
        Some(format!("{} has no heading with the anchor #{anchor}", target.display()))
    }
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let root = root();
    let mut cache = HashMap::new();
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (n, line) in prose_lines(&text).iter().enumerate() {
            for dest in link_targets(line) {
                checked += 1;
                if let Some(why) = check(&page, &dest, &mut cache) {
                    let shown = page.strip_prefix(&root).unwrap_or(&page).display().to_string();
                    broken.push(format!("{shown}:{}: ({dest}): {why}", n + 1));
                }
            }
        }
    }
    assert!(checked > 0, "no links found");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn slugs_follow_github() {
    assert_eq!(slug("The two commands"), "the-two-commands");
    assert_eq!(slug("Criterion: generated vs generic, every path"), "criterion-generated-vs-generic-every-path");
    assert_eq!(slug("Skips, and what `.ci/run` adds"), "skips-and-what-cirun-adds");
    assert_eq!(slug("The macro's forms"), "the-macros-forms");
    assert_eq!(slug("aarch64 under emulation"), "aarch64-under-emulation");
    let page = "# A\n## B c\n```\n# not a heading\n```\n## B c\n";
    assert_eq!(anchors(page), ["a", "b-c", "b-c-1"]);
    assert_eq!(link_targets("see [x](a.md#b) and `[y](no.md)` and [z](#c) (not a link)"), ["a.md#b", "#c"]);
}

/// `tests/` is a package whose test targets are listed in its `Cargo.toml` (autotests off: its
/// subfolders are data): every `tests/*.rs` but the build script must be one, or it would
/// silently never run.
#[test]
fn every_test_file_is_a_test_target() {
    let dir = root().join("tests");
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".rs") && name != "build.rs" && !manifest.contains(&format!("path = \"{name}\"")) {
            missing.push(name);
        }
    }
    assert!(missing.is_empty(), "not listed as [[test]] in tests/Cargo.toml: {missing:?}");
}
