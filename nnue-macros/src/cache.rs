//! The transformed weights, written once per distinct net to a cache folder and pulled into the
//! crate with `.incbin` or `include_bytes!` (rustc reads a file far faster than it lexes a
//! literal).
//!
//! Entries are keyed by a 128-bit hash of the net's bytes, its architecture text and the layout
//! version, so a rebuild that doesn't touch the net only hashes the file and the entry.
//!
//! Folder: `$NNUE_CACHE_DIR`, else `<target dir>/nnue-cache`, where the target directory is
//! that of the build running the macro: the nearest ancestor of rustc's `--out-dir` (cargo
//! passes `<target>/<profile>/deps`) holding cargo's `CACHEDIR.TAG`, so `cargo clean` removes
//! the cache. Proc macros see no `OUT_DIR`, and `CARGO_TARGET_DIR` only when the user set it.
//! Else an absolute `$CARGO_TARGET_DIR/nnue-cache`. Without any (rustc run by hand, an IDE
//! expanding the macro) nothing is cached: the weights are transformed in memory and emitted as
//! literals. Never a shared temp folder.
//!
//! An entry is trusted only if it checks out: its manifest ends with a hash of its own text,
//! and lists each array's length and a 128-bit hash of its bytes, which [`lookup`] compares
//! with the files (a corrupt or truncated entry is transformed again and rewritten).

use std::fs;
use std::hash::{Hash, Hasher};
use std::io::Read;
use std::path::{Path, PathBuf};

use nnue_format::layout::{Array, Elem, FastLayout};
use nnue_format::Architecture;

/// Bump when the fast layout (or the entry format) changes, so stale entries are never used.
const LAYOUT_VERSION: u32 = 5;

/// Where one array's bytes are.
pub enum Source {
    /// A checked cache file of exactly the array's size, and the hash of its bytes.
    File(PathBuf, String),
    /// No cache folder: the bytes themselves.
    Bytes(Vec<u8>),
}

/// One array: its name in the layout, its shape and its bytes (or their file).
pub struct BlobFile {
    pub name: &'static str,
    pub elem: Elem,
    pub dims: Vec<usize>,
    pub source: Source,
}

/// A complete cache entry.
pub struct Entry {
    pub description: String,
    pub layout: FastLayout<BlobFile>,
}

/// The cache folder for this build, if there is one (see the module docs).
pub fn dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("NNUE_CACHE_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d));
    }
    target_dir(std::env::args())
        .or_else(|| std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).filter(|t| t.is_absolute()))
        .map(|t| t.join("nnue-cache"))
}

/// The target directory of the rustc invocation whose arguments are `args`: the nearest
/// ancestor of `--out-dir` that holds cargo's `CACHEDIR.TAG`.
pub fn target_dir(args: impl IntoIterator<Item = String>) -> Option<PathBuf> {
    let mut args = args.into_iter();
    let mut out_dir = None;
    while let Some(a) = args.next() {
        if a == "--out-dir" {
            out_dir = args.next();
        } else if let Some(d) = a.strip_prefix("--out-dir=") {
            out_dir = Some(d.to_string());
        }
    }
    let out_dir = PathBuf::from(out_dir?);
    let out_dir = if out_dir.is_absolute() { out_dir } else { std::env::current_dir().ok()?.join(out_dir) };
    out_dir.ancestors().find(|a| a.join("CACHEDIR.TAG").is_file()).map(Path::to_path_buf)
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

/// A 128-bit hash of a byte stream, to tell a cache file's bytes from corrupt ones: two
/// 64-bit lanes, each step a bijection of the lane for a given input word, so any change
/// confined to one 8-byte word always changes the hash.
#[derive(Clone)]
pub struct ContentHasher {
    lanes: [u64; 2],
    len: u64,
    tail: Vec<u8>,
}

impl Default for ContentHasher {
    fn default() -> Self {
        Self { lanes: [0x6a09_e667_f3bc_c908, 0xbb67_ae85_84ca_a73b], len: 0, tail: Vec::new() }
    }
}

impl ContentHasher {
    const K: [u64; 2] = [0x9e37_79b9_7f4a_7c15, 0xc2b2_ae3d_27d4_eb4f];

    fn word(&mut self, w: u64) {
        let [a, b] = &mut self.lanes;
        *a = (*a ^ w).wrapping_mul(Self::K[0]).rotate_left(29);
        *b = (*b ^ w.rotate_left(32)).wrapping_mul(Self::K[1]).rotate_left(31);
    }

    pub fn update(&mut self, mut bytes: &[u8]) {
        self.len += bytes.len() as u64;
        if !self.tail.is_empty() {
            let need = (8 - self.tail.len()).min(bytes.len());
            self.tail.extend_from_slice(&bytes[..need]);
            bytes = &bytes[need..];
            if self.tail.len() < 8 {
                return;
            }
            let w = u64::from_le_bytes(self.tail[..].try_into().unwrap());
            self.tail.clear();
            self.word(w);
        }
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.word(u64::from_le_bytes(w.try_into().unwrap()));
        }
        self.tail.extend_from_slice(words.remainder());
    }

    pub fn finish(mut self) -> String {
        let mut last = [0u8; 8];
        last[..self.tail.len()].copy_from_slice(&self.tail);
        let tail = std::mem::take(&mut self.tail);
        if !tail.is_empty() {
            self.word(u64::from_le_bytes(last));
        }
        self.word(self.len);
        let mix = |mut x: u64| {
            x ^= x >> 33;
            x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
            x ^= x >> 33;
            x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
            x ^ (x >> 33)
        };
        let [a, b] = self.lanes;
        format!("{:016x}{:016x}", mix(a ^ b.rotate_left(17)), mix(b ^ a.rotate_left(41)))
    }
}

pub fn content_hash(bytes: &[u8]) -> String {
    let mut h = ContentHasher::default();
    h.update(bytes);
    h.finish()
}

/// The length and hash of a file's bytes, read in pieces.
fn file_hash(path: &Path) -> Option<(u64, String)> {
    let mut file = fs::File::open(path).ok()?;
    let mut h = ContentHasher::default();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => h.update(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    let len = h.len;
    Some((len, h.finish()))
}

fn parse_elem(s: &str) -> Option<Elem> {
    [Elem::I8, Elem::I16, Elem::I32].into_iter().find(|e| e.rust_name() == s)
}

/// The entry for `key` in the folder `root`, if a complete one is cached and every byte of it
/// checks out.
pub fn lookup(root: &Path, key: &str) -> Option<Entry> {
    let folder = root.join(key);
    let text = fs::read_to_string(folder.join("manifest")).ok()?;
    let (body, check) = text.strip_suffix('\n')?.rsplit_once('\n')?;
    if check != format!("check\t{}", content_hash(format!("{body}\n").as_bytes())) {
        return None;
    }
    let (mut arch, mut description, mut screlu_in_i16) = (None, String::new(), false);
    let mut files = std::collections::HashMap::new();
    for line in body.lines() {
        let mut f = line.split('\t');
        match (f.next()?, f.next()?) {
            ("arch", v) => arch = Some(v.parse::<Architecture>().ok()?),
            ("description", v) => description = v.to_string(),
            ("screlu_in_i16", v) => screlu_in_i16 = v == "true",
            ("blob", name) => {
                let elem = parse_elem(f.next()?)?;
                let dims = f.next()?.split(',').map(|d| d.parse().ok()).collect::<Option<Vec<usize>>>()?;
                let hash = f.next()?;
                let path = folder.join(format!("{name}.bin"));
                let size = Array::size(elem, &dims)?;
                if fs::metadata(&path).ok()?.len() != size as u64
                    || file_hash(&path)? != (size as u64, hash.to_string())
                {
                    return None;
                }
                files.insert(name.to_string(), (elem, dims, Source::File(path, hash.to_string())));
            }
            _ => return None,
        }
    }
    let layout = FastLayout::assemble(&arch?, screlu_in_i16, |name| {
        let (elem, dims, source) = files.remove(name)?;
        Some(BlobFile { name, elem, dims, source })
    })?;
    // Exactly the layout's arrays: an entry with more is not one this version wrote.
    files.is_empty().then_some(Entry { description, layout })
}

/// Writes an entry to the folder `root` (atomically: a complete folder is renamed into place,
/// replacing one that didn't check out) and returns it. Each array is dropped once written.
pub fn store(root: &Path, key: &str, description: &str, layout: FastLayout) -> std::io::Result<Entry> {
    fs::create_dir_all(root)?;
    let tmp = root.join(format!("{key}.tmp-{}", std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp)?;
    // Escaped and cut: it only reaches the generated docs.
    let description = nnue_format::shown(description);
    let screlu_in_i16 = matches!(&layout, FastLayout::Chess768(_, l) if l.config.screlu_in_i16);
    let mut manifest = format!("arch\t{}\ndescription\t{description}\nscrelu_in_i16\t{screlu_in_i16}\n", layout.arch());
    let mut written = Ok(());
    layout.map(|name, array| {
        if written.is_ok() {
            written = fs::write(tmp.join(format!("{name}.bin")), &array.bytes);
        }
        let dims: Vec<String> = array.dims.iter().map(usize::to_string).collect();
        let hash = content_hash(&array.bytes);
        manifest += &format!("blob\t{name}\t{}\t{}\t{hash}\n", array.elem.rust_name(), dims.join(","));
    });
    written?;
    manifest += &format!("check\t{}\n", content_hash(manifest.as_bytes()));
    fs::write(tmp.join("manifest"), manifest)?;
    let folder = root.join(key);
    if fs::rename(&tmp, &folder).is_err() {
        if let Some(entry) = lookup(root, key) {
            // Another build got there first (and may be reading it): keep theirs.
            let _ = fs::remove_dir_all(&tmp);
            return Ok(entry);
        }
        // An entry that didn't check out is in the way.
        let _ = fs::remove_dir_all(&folder);
        if fs::rename(&tmp, &folder).is_err() {
            let _ = fs::remove_dir_all(&tmp);
        }
    }
    lookup(root, key).ok_or_else(|| std::io::Error::other(format!("cache entry {} is unreadable", folder.display())))
}

/// An entry that lives only in memory (no cache folder).
pub fn in_memory(description: &str, layout: FastLayout) -> Entry {
    let layout = layout.map(|name, a| BlobFile { name, elem: a.elem, dims: a.dims, source: Source::Bytes(a.bytes) });
    Entry { description: nnue_format::shown(description), layout }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("nnue-macros-cache-test-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    /// A small real layout: a headerless net of 32 hidden neurons.
    fn layout() -> FastLayout {
        let arch: Architecture = "(768 -> 32)x2 -> 1, screlu, qa=255, qb=64, scale=400".parse().unwrap();
        let Architecture::Chess768(arch) = arch else { unreachable!() };
        nnue_format::layout::fast_layout(&nnue_format::synth::chess768(&arch, 1))
    }

    fn bytes_of(layout: &FastLayout<BlobFile>) -> Vec<(&'static str, Vec<u8>)> {
        let read = |b: &BlobFile| match &b.source {
            Source::File(p, _) => fs::read(p).unwrap(),
            Source::Bytes(v) => v.clone(),
        };
        layout.arrays().into_iter().map(|(name, b)| (name, read(b))).collect()
    }

    fn expected() -> Vec<(&'static str, Vec<u8>)> {
        layout().arrays().into_iter().map(|(name, a)| (name, a.bytes.clone())).collect()
    }

    #[test]
    fn a_stored_entry_is_found_with_its_bytes() {
        let root = scratch("stored");
        let e = store(&root, "k", "desc\u{1b}", layout()).unwrap();
        assert_eq!(bytes_of(&e.layout), expected());
        let again = lookup(&root, "k").unwrap();
        assert_eq!(again.layout.arch(), layout().arch());
        assert_eq!(again.description, "desc\\u{1b}");
        assert!(matches!(&again.layout, FastLayout::Chess768(_, l) if l.config.screlu_in_i16));
        assert_eq!(bytes_of(&again.layout), bytes_of(&e.layout));
        let memory = in_memory("", layout());
        assert_eq!(bytes_of(&memory.layout), expected());
        fs::remove_dir_all(&root).unwrap();
    }

    /// A cache file corrupted without changing its size was once used as is.
    #[test]
    fn a_corrupt_entry_of_the_same_size_is_not_used() {
        let root = scratch("corrupt");
        store(&root, "k", "", layout()).unwrap();
        let file = root.join("k/l0_weights.bin");
        let mut bytes = fs::read(&file).unwrap();
        bytes[20] ^= 1;
        fs::write(&file, &bytes).unwrap();
        assert!(lookup(&root, "k").is_none());
        // Rewritten over the corrupt one.
        let e = store(&root, "k", "", layout()).unwrap();
        assert_eq!(bytes_of(&e.layout), expected());
        assert!(lookup(&root, "k").is_some());
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_short_or_tampered_entry_is_not_used() {
        let root = scratch("short");
        store(&root, "k", "", layout()).unwrap();
        let file = root.join("k/l0_biases.bin");
        fs::write(&file, [1u8, 2, 3]).unwrap();
        assert!(lookup(&root, "k").is_none());
        store(&root, "k", "", layout()).unwrap();
        let manifest = root.join("k/manifest");
        let text = fs::read_to_string(&manifest).unwrap();
        fs::write(&manifest, text.replace("scale=400", "scale=401")).unwrap();
        assert!(lookup(&root, "k").is_none());
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn the_hash_sees_every_byte_and_ignores_how_it_is_fed() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 + 3) as u8).collect();
        let whole = content_hash(&data);
        let mut pieces = ContentHasher::default();
        for chunk in data.chunks(13) {
            pieces.update(chunk);
        }
        assert_eq!(pieces.finish(), whole);
        for i in [0, 7, 8, 500, 999] {
            let mut d = data.clone();
            d[i] ^= 0x80;
            assert_ne!(content_hash(&d), whole, "byte {i}");
        }
        assert_ne!(content_hash(&data[..999]), whole);
        assert_ne!(content_hash(&[0]), content_hash(&[0, 0]));
    }

    #[test]
    fn the_target_dir_is_found_from_rustcs_out_dir() {
        let target = scratch("target");
        fs::create_dir_all(target.join("release/deps")).unwrap();
        fs::write(target.join("CACHEDIR.TAG"), "Signature: 8a477f597d28d172789f06886806bc55").unwrap();
        let out = target.join("release/deps").to_string_lossy().into_owned();
        let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            target_dir(args(&["rustc", "--crate-name", "x", "--out-dir", &out, "-C", "opt-level=3"])),
            Some(target.clone())
        );
        assert_eq!(target_dir(args(&["rustc", &format!("--out-dir={out}")])), Some(target.clone()));
        // No --out-dir (an IDE, rustc by hand) or no cargo target dir above it: no cache.
        assert_eq!(target_dir(args(&["rust-analyzer-proc-macro-srv"])), None);
        assert_eq!(target_dir(args(&["rustc", "--out-dir", "/"])), None);
        fs::remove_dir_all(&target).unwrap();
    }
}
