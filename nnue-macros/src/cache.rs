//! The transformed weights, written once per distinct net to a cache folder and pulled into the
//! crate with `include_bytes!` (rustc reads a file far faster than it lexes a literal).
//!
//! Entries are keyed by a 128-bit hash of the net's bytes, its architecture text and the layout
//! version, so a rebuild that doesn't touch the net only hashes the file and reads a manifest.
//!
//! Folder: `$NNUE_CACHE_DIR`, else `$CARGO_TARGET_DIR/nnue-cache`, else `<temp>/nnue-macros-cache`.

use std::fs;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;

use nnue_format::layout::{Blob, Elem};

/// Bump when the fast layout changes, so stale entries are never used.
const LAYOUT_VERSION: u32 = 2;

/// One cached array: where its bytes are, and its shape.
pub struct BlobFile {
    pub name: String,
    pub elem: Elem,
    pub dims: Vec<usize>,
    pub path: PathBuf,
}

/// A complete cache entry.
pub struct Entry {
    pub arch: String,
    pub description: String,
    /// Headerless SCReLU nets whose `v * w` fits int16 (see `Chess768Config::screlu_in_i16`).
    pub screlu_in_i16: bool,
    pub blobs: Vec<BlobFile>,
}

fn dir() -> PathBuf {
    if let Some(d) = std::env::var_os("NNUE_CACHE_DIR") {
        return PathBuf::from(d);
    }
    if let Some(t) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(t).join("nnue-cache");
    }
    std::env::temp_dir().join("nnue-macros-cache")
}

pub fn key(bytes: &[u8], arch: Option<&str>) -> String {
    let half = |salt: u8| {
        // DefaultHasher::new() has fixed keys: the same input hashes the same in every build.
        #[allow(deprecated)]
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (salt, LAYOUT_VERSION, arch, bytes).hash(&mut h);
        h.finish()
    };
    format!("{:016x}{:016x}", half(1), half(2))
}

fn elem_name(e: Elem) -> &'static str {
    e.rust_name()
}

fn parse_elem(s: &str) -> Option<Elem> {
    [Elem::I8, Elem::I16, Elem::I32].into_iter().find(|e| e.rust_name() == s)
}

/// The entry for `key`, if a complete one is cached.
pub fn lookup(key: &str) -> Option<Entry> {
    let folder = dir().join(key);
    let text = fs::read_to_string(folder.join("manifest")).ok()?;
    let mut entry = Entry { arch: String::new(), description: String::new(), screlu_in_i16: false, blobs: Vec::new() };
    for line in text.lines() {
        let mut f = line.split('\t');
        match (f.next()?, f.next()?) {
            ("arch", v) => entry.arch = v.to_string(),
            ("description", v) => entry.description = v.to_string(),
            ("screlu_in_i16", v) => entry.screlu_in_i16 = v == "true",
            ("blob", name) => {
                let elem = parse_elem(f.next()?)?;
                let dims = f.next()?.split(',').map(|d| d.parse().ok()).collect::<Option<Vec<usize>>>()?;
                let path = folder.join(format!("{name}.bin"));
                let size = dims.iter().product::<usize>() * elem_size(elem);
                if fs::metadata(&path).ok()?.len() != size as u64 {
                    return None;
                }
                entry.blobs.push(BlobFile { name: name.to_string(), elem, dims, path });
            }
            _ => return None,
        }
    }
    Some(entry)
}

fn elem_size(e: Elem) -> usize {
    match e {
        Elem::I8 => 1,
        Elem::I16 => 2,
        Elem::I32 => 4,
    }
}

/// Writes an entry (atomically: a complete folder is renamed into place) and returns it.
pub fn store(key: &str, arch: String, description: &str, screlu_in_i16: bool, blobs: Vec<Blob>) -> std::io::Result<Entry> {
    let root = dir();
    fs::create_dir_all(&root)?;
    let tmp = root.join(format!("{key}.tmp-{}", std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp)?;
    let description: String = description.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let mut manifest = format!("arch\t{arch}\ndescription\t{description}\nlizard\t{screlu_in_i16}\n");
    for b in &blobs {
        fs::write(tmp.join(format!("{}.bin", b.name)), &b.bytes)?;
        let dims: Vec<String> = b.dims.iter().map(usize::to_string).collect();
        manifest += &format!("blob\t{}\t{}\t{}\n", b.name, elem_name(b.elem), dims.join(","));
    }
    fs::write(tmp.join("manifest"), manifest)?;
    let folder = root.join(key);
    if fs::rename(&tmp, &folder).is_err() {
        // Another build got there first (or a stale incomplete entry is in the way).
        let _ = fs::remove_dir_all(&folder);
        if fs::rename(&tmp, &folder).is_err() {
            let _ = fs::remove_dir_all(&tmp);
        }
    }
    lookup(key).ok_or_else(|| std::io::Error::other(format!("cache entry {} is unreadable", folder.display())))
}
