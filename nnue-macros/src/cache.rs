//! The transformed weights, written once per distinct net to a cache folder and pulled into the
//! crate with `.incbin` or `include_bytes!` (rustc reads a file far faster than it lexes a
//! literal).
//!
//! Entries are keyed by a 128-bit hash of the net's bytes, its architecture text and the layout
//! version, so a rebuild that doesn't touch the net only hashes the file and the entry.
//!
//! Folder: `$NNUE_CACHE_DIR`, else `<target dir>/nnue-cache`, where the target directory is
//! that of the build running the macro: the nearest ancestor of rustc's `--out-dir` (cargo
//! passes `<target>/<profile>/deps`) holding cargo's `CACHEDIR.TAG` (or, in a target folder
//! made before cargo's first build, which cargo doesn't tag, its `.rustc_info.json`), so `cargo clean` removes
//! the cache. Proc macros see no `OUT_DIR`, and `CARGO_TARGET_DIR` only when the user set it.
//! Else an absolute `$CARGO_TARGET_DIR/nnue-cache`. Without any (rustc run by hand, an IDE
//! expanding the macro) nothing is cached: the weights are transformed in memory and emitted as
//! literals. Never a shared temp folder.
//!
//! An entry is trusted only if it checks out: its manifest ends with a hash of its own text,
//! names the key and the net's content hash it was written for (so a copy of, or a symlink
//! to, another net's entry is not taken for this net's), and lists each array's length and a
//! 128-bit hash of its bytes, which [`lookup`] compares with the files (a corrupt or truncated
//! entry is transformed again and rewritten). Symlinked entries, manifests or arrays are never
//! read: such an entry is rewritten.
//!
//! A cache folder that can't be written (read-only, no permission) is not an error: the
//! weights are emitted from memory instead. One that is not a folder is an error naming it and
//! where it came from; a write that fails midway removes what it wrote, and the folders of
//! builds killed midway are swept by the next build that writes an entry ([`sweep_abandoned`]).

use std::fs;
use std::hash::{Hash, Hasher};
use std::io::Read;
use std::path::{Path, PathBuf};

use nnue_format::layout::{Array, Elem, FastLayout};
use nnue_format::Architecture;

/// Bump when the fast layout (or the entry format) changes, so stale entries are never used.
const LAYOUT_VERSION: u32 = 7;

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

/// The cache folder for this build and where its path came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheDir {
    pub path: PathBuf,
    /// For messages: `$NNUE_CACHE_DIR`, `$CARGO_TARGET_DIR` or the build's target directory.
    pub origin: &'static str,
}

impl CacheDir {
    /// The folder and where it came from, for messages.
    pub fn shown(&self) -> String {
        format!("{} (the weight cache, from {})", self.path.display(), self.origin)
    }
}

/// The cache folder for this build, if there is one (see the module docs).
pub fn dir() -> Result<Option<CacheDir>, String> {
    dir_from(std::env::var_os("NNUE_CACHE_DIR"), std::env::args(), std::env::var_os("CARGO_TARGET_DIR"))
}

/// [`dir`] from `$NNUE_CACHE_DIR`, rustc's arguments and `$CARGO_TARGET_DIR`. The path ends up
/// in assembler text, which takes UTF-8 only: a `NNUE_CACHE_DIR` that isn't is an error, a
/// target directory that isn't means no cache.
pub fn dir_from(
    cache_env: Option<std::ffi::OsString>,
    args: impl IntoIterator<Item = String>,
    target_env: Option<std::ffi::OsString>,
) -> Result<Option<CacheDir>, String> {
    if let Some(d) = cache_env.filter(|d| !d.is_empty()) {
        if d.to_str().is_none() {
            return Err(format!(
                "NNUE_CACHE_DIR is not valid UTF-8 ({}): the weights are included by path, and paths \
                 in assembler text must be UTF-8; set it to a UTF-8 path, or unset it",
                d.to_string_lossy()
            ));
        }
        return Ok(Some(CacheDir { path: PathBuf::from(d), origin: "$NNUE_CACHE_DIR" }));
    }
    let found = match target_dir(args) {
        Some(t) => Some((t, "the build's target directory")),
        None => target_env.map(PathBuf::from).filter(|t| t.is_absolute()).map(|t| (t, "$CARGO_TARGET_DIR")),
    };
    Ok(found.map(|(t, origin)| CacheDir { path: t.join("nnue-cache"), origin }).filter(|d| d.path.to_str().is_some()))
}

/// The target directory of the rustc invocation whose arguments are `args`: the nearest
/// ancestor of `--out-dir` that holds cargo's `CACHEDIR.TAG`, or its `.rustc_info.json` (cargo
/// tags only a target directory it creates: one that existed before its first build, made by a
/// script, has no tag).
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
    out_dir
        .ancestors()
        .find(|a| a.join("CACHEDIR.TAG").is_file() || a.join(".rustc_info.json").is_file())
        .map(Path::to_path_buf)
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

/// The net's content hash, recorded in its entry: a [`ContentHasher`] hash (not the key's hash
/// function) of the layout version, the description given and the file's bytes.
pub fn net_hash(bytes: &[u8], arch: Option<&str>) -> String {
    let mut h = ContentHasher::default();
    h.update(&LAYOUT_VERSION.to_le_bytes());
    match arch {
        Some(a) => {
            h.update(&(a.len() as u64 + 1).to_le_bytes());
            h.update(a.as_bytes());
        }
        None => h.update(&0u64.to_le_bytes()),
    }
    h.update(bytes);
    h.finish()
}

pub fn content_hash(bytes: &[u8]) -> String {
    let mut h = ContentHasher::default();
    h.update(bytes);
    h.finish()
}

/// Whether `path` is a real folder (a symlink is not).
fn is_real_dir(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
}

/// Whether `path` is a regular file (a symlink is not).
fn is_real_file(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
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

/// The entry for `key` (the net whose [`net_hash`] is `net`) in the folder `root`, if a complete
/// one written for that key and net is cached, none of it symlinked, and every byte of it
/// checks out.
pub fn lookup(root: &Path, key: &str, net: &str) -> Option<Entry> {
    let folder = root.join(key);
    let manifest = folder.join("manifest");
    if !is_real_dir(&folder) || !is_real_file(&manifest) {
        return None;
    }
    let text = fs::read_to_string(manifest).ok()?;
    let (body, check) = text.strip_suffix('\n')?.rsplit_once('\n')?;
    if check != format!("check\t{}", content_hash(format!("{body}\n").as_bytes())) {
        return None;
    }
    // The entry was written for this key and this net, not copied from another's.
    if !body.starts_with(&format!("key\t{key}\nnet\t{net}\n")) {
        return None;
    }
    let (mut arch, mut description, mut screlu_in_i16) = (None, String::new(), false);
    let mut files = std::collections::HashMap::new();
    for line in body.lines().skip(2) {
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
                if !is_real_file(&path)
                    || fs::metadata(&path).ok()?.len() != size as u64
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

/// The file operations [`begin`] and [`Pending::finish`] write through (tests inject failures).
pub struct Fs {
    pub create_dir: fn(&Path) -> std::io::Result<()>,
    pub write: fn(&Path, &[u8]) -> std::io::Result<()>,
}

pub const REAL_FS: Fs = Fs { create_dir: |p| fs::create_dir_all(p), write: |p, b| fs::write(p, b) };

/// A folder that can't be written at all: the weights go to memory instead.
fn unwritable(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::{PermissionDenied, ReadOnlyFilesystem};
    matches!(e.kind(), PermissionDenied | ReadOnlyFilesystem)
}

/// Why `path` can't be the cache folder, if it can't: it is a file, a dangling symlink or a
/// symlink loop. (A missing folder is created.)
fn not_a_folder(path: &Path) -> Option<String> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => return Some(e.to_string()),
    };
    if meta.is_dir() {
        return None;
    }
    if !meta.file_type().is_symlink() {
        return Some("it is a file, not a folder".into());
    }
    match fs::metadata(path) {
        Ok(m) if m.is_dir() => None,
        Ok(_) => Some("it is a symlink to a file, not to a folder".into()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some("it is a dangling symlink".into()),
        Err(e) => Some(format!("it is a symlink that can't be followed ({e})")),
    }
}

/// How long an entry being written may go untouched before a sweep takes it for abandoned:
/// on Linux only once its process is gone too (a build in another PID namespace sharing the
/// folder, whose process this one can't see, writes its files well within this); elsewhere,
/// where this is all there is to go by, a day.
const ABANDONED_AFTER: std::time::Duration =
    std::time::Duration::from_secs(if cfg!(target_os = "linux") { 10 * 60 } else { 24 * 60 * 60 });

/// Removes the `<key>.tmp-<pid>` folders of builds that were killed while writing an entry (a
/// big net's is tens of MB): on Linux those whose process is gone (no `/proc/<pid>`) and
/// untouched for [`ABANDONED_AFTER`]; elsewhere those untouched that long. Best effort: a
/// folder that can't be read or removed stays.
fn sweep_abandoned(root: &Path) {
    let Ok(entries) = fs::read_dir(root) else { return };
    let linux = cfg!(target_os = "linux") && Path::new("/proc/self").exists();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.rsplit_once(".tmp-")).and_then(|(_, p)| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == std::process::id() {
            continue;
        }
        // Folders only, never followed through a symlink.
        let Ok(meta) = fs::symlink_metadata(entry.path()) else { continue };
        let idle = meta.modified().ok().and_then(|m| m.elapsed().ok());
        let gone = !linux || !Path::new("/proc").join(pid.to_string()).exists();
        if meta.is_dir() && gone && idle.is_some_and(|i| i >= ABANDONED_AFTER) {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// An entry being written: a fresh temporary folder in the cache folder, removed unless
/// [`Pending::finish`] renames it into place.
pub struct Pending {
    root: PathBuf,
    tmp: PathBuf,
    key: String,
    net: String,
}

impl Drop for Pending {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.tmp);
    }
}

/// Starts writing the entry for `key` (net hash `net`) in `dir`: `Ok(None)` when the folder
/// can't be written (the caller keeps the weights in memory), an error naming the folder and
/// where it came from when it is not a folder or can't be created.
pub fn begin(dir: &CacheDir, key: &str, net: &str, fs_ops: &Fs) -> Result<Option<Pending>, String> {
    let fail = |why: String| {
        let hint = if dir.origin == "$NNUE_CACHE_DIR" {
            "point NNUE_CACHE_DIR at a folder, or unset it"
        } else {
            "set NNUE_CACHE_DIR to a folder"
        };
        Err(format!("can't use {} as the cache folder: {why} ({hint})", dir.shown()))
    };
    if let Some(why) = not_a_folder(&dir.path) {
        return fail(why);
    }
    let tmp = dir.path.join(format!("{key}.tmp-{}", std::process::id()));
    let created = (fs_ops.create_dir)(&dir.path).and_then(|()| {
        let _ = fs::remove_dir_all(&tmp);
        (fs_ops.create_dir)(&tmp)
    });
    match created {
        Ok(()) => {}
        Err(e) if unwritable(&e) => return Ok(None),
        Err(e) => return fail(e.to_string()),
    }
    sweep_abandoned(&dir.path);
    Ok(Some(Pending { root: dir.path.clone(), tmp, key: key.to_string(), net: net.to_string() }))
}

impl Pending {
    /// Writes the entry (atomically: the complete folder is renamed into place, replacing one
    /// that didn't check out) and returns it; on an error nothing of it is left behind. Each
    /// array is dropped once written.
    pub fn finish(self, description: &str, layout: FastLayout, fs_ops: &Fs) -> std::io::Result<Entry> {
        let (root, tmp, key, net) = (&self.root, &self.tmp, &self.key, &self.net);
        // Escaped and cut: it only reaches the generated docs.
        let description = nnue_format::shown(description);
        let screlu_in_i16 = matches!(&layout, FastLayout::Chess768(_, l) if l.config.screlu_in_i16);
        let mut manifest = format!(
            "key\t{key}\nnet\t{net}\narch\t{}\ndescription\t{description}\nscrelu_in_i16\t{screlu_in_i16}\n",
            layout.arch()
        );
        let mut written = Ok(());
        layout.map(|name, array| {
            if written.is_ok() {
                written = (fs_ops.write)(&tmp.join(format!("{name}.bin")), &array.bytes);
            }
            let dims: Vec<String> = array.dims.iter().map(usize::to_string).collect();
            let hash = content_hash(&array.bytes);
            manifest += &format!("blob\t{name}\t{}\t{}\t{hash}\n", array.elem.rust_name(), dims.join(","));
        });
        written?;
        manifest += &format!("check\t{}\n", content_hash(manifest.as_bytes()));
        (fs_ops.write)(&tmp.join("manifest"), manifest.as_bytes())?;
        let folder = root.join(key);
        if fs::rename(tmp, &folder).is_err() {
            if let Some(entry) = lookup(root, key, net) {
                // Another build got there first (and may be reading it): keep theirs.
                return Ok(entry);
            }
            // An entry that didn't check out (or a symlink) is in the way; a symlink itself
            // is removed, not what it points to.
            let _ = fs::remove_dir_all(&folder);
            let _ = fs::remove_file(&folder);
            let _ = fs::rename(tmp, &folder);
        }
        lookup(root, key, net)
            .ok_or_else(|| std::io::Error::other(format!("cache entry {} is unreadable", folder.display())))
    }
}

/// Writes an entry to the folder `dir` with the real file system (see [`begin`]).
#[cfg(test)]
pub fn store(root: &Path, key: &str, net: &str, description: &str, layout: FastLayout) -> std::io::Result<Entry> {
    let dir = CacheDir { path: root.to_path_buf(), origin: "a test" };
    let pending = begin(&dir, key, net, &REAL_FS).map_err(std::io::Error::other)?;
    pending.ok_or_else(|| std::io::Error::other("unwritable"))?.finish(description, layout, &REAL_FS)
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
        layout_of(1)
    }

    fn layout_of(seed: u64) -> FastLayout {
        let arch: Architecture = "(768 -> 32)x2 -> 1, screlu, qa=255, qb=64, scale=400".parse().unwrap();
        let Architecture::Chess768(arch) = arch else { unreachable!() };
        nnue_format::layout::fast_layout(&nnue_format::synth::chess768(&arch, seed))
    }

    fn copy_dir(from: &Path, to: &Path) {
        fs::create_dir_all(to).unwrap();
        for f in fs::read_dir(from).unwrap() {
            let f = f.unwrap();
            fs::copy(f.path(), to.join(f.file_name())).unwrap();
        }
    }

    fn names_in(root: &Path) -> Vec<String> {
        let mut v: Vec<String> =
            fs::read_dir(root).unwrap().map(|f| f.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    }

    /// Another net's entry copied, or symlinked, under this net's key was once compiled in.
    #[test]
    fn an_entry_is_used_only_for_its_own_key_and_net() {
        let root = scratch("tied");
        store(&root, "a", "net-a", "", layout_of(1)).unwrap();
        store(&root, "b", "net-b", "", layout_of(2)).unwrap();
        assert!(lookup(&root, "a", "net-a").is_some());
        // The right key with another net's hash (or the reverse) is not this entry.
        assert!(lookup(&root, "a", "net-b").is_none());
        // b's entry copied into a's folder.
        fs::remove_dir_all(root.join("a")).unwrap();
        copy_dir(&root.join("b"), &root.join("a"));
        assert!(lookup(&root, "a", "net-a").is_none());
        // A symlink to b's entry, and a symlink to a true copy of a's own entry.
        fs::remove_dir_all(root.join("a")).unwrap();
        std::os::unix::fs::symlink(root.join("b"), root.join("a")).unwrap();
        assert!(lookup(&root, "a", "net-a").is_none());
        let e = store(&root, "a", "net-a", "", layout_of(1)).unwrap();
        assert_eq!(bytes_of(&e.layout), expected());
        assert!(is_real_dir(&root.join("a")), "the symlink is replaced by an entry");
        assert!(lookup(&root, "b", "net-b").is_some(), "what the symlink pointed to is left alone");
        fs::rename(root.join("a"), root.join("a-real")).unwrap();
        std::os::unix::fs::symlink(root.join("a-real"), root.join("a")).unwrap();
        assert!(lookup(&root, "a", "net-a").is_none());
        // A symlinked array inside a real folder.
        fs::remove_file(root.join("a")).unwrap();
        copy_dir(&root.join("a-real"), &root.join("a"));
        assert!(lookup(&root, "a", "net-a").is_some());
        fs::remove_file(root.join("a/l0_biases.bin")).unwrap();
        std::os::unix::fs::symlink(root.join("a-real/l0_biases.bin"), root.join("a/l0_biases.bin")).unwrap();
        assert!(lookup(&root, "a", "net-a").is_none());
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn the_net_hash_sees_the_bytes_and_the_description() {
        let h = net_hash(b"abc", None);
        assert_eq!(h, net_hash(b"abc", None));
        assert_ne!(h, net_hash(b"abd", None));
        assert_ne!(h, net_hash(b"abc", Some("")));
        assert_ne!(net_hash(b"abc", Some("x")), net_hash(b"abc", Some("y")));
    }

    /// A full disk once left `<key>.tmp-<pid>` folders behind.
    #[test]
    fn a_failed_write_leaves_nothing_behind() {
        let root = scratch("full");
        let dir = CacheDir { path: root.clone(), origin: "a test" };
        let full = Fs {
            create_dir: REAL_FS.create_dir,
            write: |p, b| {
                if p.ends_with("l0_weights.bin") {
                    return Err(std::io::Error::from_raw_os_error(28)); // ENOSPC
                }
                fs::write(p, b)
            },
        };
        let pending = begin(&dir, "k", "n", &full).unwrap().unwrap();
        assert!(pending.finish("", layout(), &full).is_err());
        assert_eq!(names_in(&root), Vec::<String>::new());
        // Nor does an entry begun and then abandoned (the transform failed).
        drop(begin(&dir, "k", "n", &REAL_FS).unwrap().unwrap());
        assert_eq!(names_in(&root), Vec::<String>::new());
        fs::remove_dir_all(&root).unwrap();
    }

    /// Builds killed while writing an entry left their `<key>.tmp-<pid>` folders forever: the
    /// next entry begun sweeps those whose process is gone (and that are idle), and nothing else.
    #[test]
    fn abandoned_temporary_folders_are_swept() {
        let root = scratch("sweep");
        let dir = CacheDir { path: root.clone(), origin: "a test" };
        let old = std::time::SystemTime::now() - ABANDONED_AFTER - std::time::Duration::from_secs(60);
        // No process has this id (Linux's pid_max is at most 2^22); process 1 always exists.
        let (dead, alive) = (u32::MAX - 1, 1);
        let folders = [
            (format!("a.tmp-{dead}"), true, false), // killed long ago: swept
            (format!("b.tmp-{dead}"), false, true), // just written: kept
            (format!("c.tmp-{alive}"), true, cfg!(target_os = "linux")), // running: kept on Linux
            ("d".to_string(), true, true),          // an entry: kept
            (format!("e.tmp-{dead}-x"), true, true), // not ours: kept
        ];
        for (name, backdate, _) in &folders {
            fs::create_dir_all(root.join(name)).unwrap();
            fs::write(root.join(name).join("l0_weights.bin"), [0u8; 16]).unwrap();
            if *backdate {
                fs::File::open(root.join(name)).unwrap().set_modified(old).unwrap();
            }
        }
        drop(begin(&dir, "k", "n", &REAL_FS).unwrap().unwrap());
        let mut kept: Vec<String> = folders.iter().filter(|f| f.2).map(|f| f.0.clone()).collect();
        kept.sort();
        assert_eq!(names_in(&root), kept);
        fs::remove_dir_all(&root).unwrap();
    }

    /// An empty read-only cache folder once failed the build.
    #[test]
    fn a_folder_that_cant_be_written_means_no_cache() {
        let root = scratch("readonly");
        fs::create_dir_all(&root).unwrap();
        let dir = CacheDir { path: root.clone(), origin: "a test" };
        // (Tests may run as root, whom permissions don't stop: the errors are injected.)
        for errno in [13, 30] {
            let ops = Fs {
                create_dir: if errno == 13 {
                    |_| Err(std::io::Error::from_raw_os_error(13)) // EACCES
                } else {
                    |_| Err(std::io::Error::from_raw_os_error(30)) // EROFS
                },
                write: REAL_FS.write,
            };
            assert!(begin(&dir, "k", "n", &ops).unwrap().is_none(), "errno {errno}");
        }
        fs::remove_dir_all(&root).unwrap();
    }

    /// A file, a dangling symlink or a loop as the cache folder once said only "File exists
    /// (os error 17) (set NNUE_CACHE_DIR)".
    #[test]
    fn a_cache_folder_that_is_not_one_is_named_with_its_origin() {
        let root = scratch("notdir");
        fs::create_dir_all(&root).unwrap();
        let (file, dangling, looped) = (root.join("file"), root.join("dangling"), root.join("loop"));
        fs::write(&file, "x").unwrap();
        std::os::unix::fs::symlink(root.join("missing"), &dangling).unwrap();
        std::os::unix::fs::symlink(&looped, &looped).unwrap();
        for (path, why) in [(&file, "is a file"), (&dangling, "dangling symlink"), (&looped, "can't be followed")] {
            let dir = CacheDir { path: path.clone(), origin: "$NNUE_CACHE_DIR" };
            let e = begin(&dir, "k", "n", &REAL_FS).err().unwrap();
            assert!(e.contains(&path.display().to_string()), "{e}");
            assert!(e.contains("from $NNUE_CACHE_DIR") && e.contains(why), "{e}");
        }
        // Below a file: the OS's words, with the folder and its origin.
        let dir = CacheDir { path: file.join("sub"), origin: "the build's target directory" };
        let e = begin(&dir, "k", "n", &REAL_FS).err().unwrap();
        assert!(e.contains("file/sub") && e.contains("from the build's target directory"), "{e}");
        fs::remove_dir_all(&root).unwrap();
    }

    /// A non-UTF-8 NNUE_CACHE_DIR once ended in an assembler error.
    #[test]
    fn the_cache_folder_comes_with_its_origin_and_is_utf8() {
        use std::os::unix::ffi::OsStringExt;
        let none = || std::iter::empty::<String>();
        let bad = std::ffi::OsString::from_vec(b"/tmp/\xff".to_vec());
        let e = dir_from(Some(bad.clone()), none(), None).unwrap_err();
        assert!(e.contains("NNUE_CACHE_DIR is not valid UTF-8"), "{e}");
        assert_eq!(dir_from(None, none(), Some(bad)), Ok(None));
        assert_eq!(
            dir_from(Some("/c".into()), none(), Some("/t".into())),
            Ok(Some(CacheDir { path: "/c".into(), origin: "$NNUE_CACHE_DIR" }))
        );
        assert_eq!(
            dir_from(Some("".into()), none(), Some("/t".into())),
            Ok(Some(CacheDir { path: "/t/nnue-cache".into(), origin: "$CARGO_TARGET_DIR" }))
        );
        assert_eq!(dir_from(None, none(), Some("relative".into())), Ok(None));
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
        let e = store(&root, "k", "n", "desc\u{1b}", layout()).unwrap();
        assert_eq!(bytes_of(&e.layout), expected());
        let again = lookup(&root, "k", "n").unwrap();
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
        store(&root, "k", "n", "", layout()).unwrap();
        let file = root.join("k/l0_weights.bin");
        let mut bytes = fs::read(&file).unwrap();
        bytes[20] ^= 1;
        fs::write(&file, &bytes).unwrap();
        assert!(lookup(&root, "k", "n").is_none());
        // Rewritten over the corrupt one.
        let e = store(&root, "k", "n", "", layout()).unwrap();
        assert_eq!(bytes_of(&e.layout), expected());
        assert!(lookup(&root, "k", "n").is_some());
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_short_or_tampered_entry_is_not_used() {
        let root = scratch("short");
        store(&root, "k", "n", "", layout()).unwrap();
        let file = root.join("k/l0_biases.bin");
        fs::write(&file, [1u8, 2, 3]).unwrap();
        assert!(lookup(&root, "k", "n").is_none());
        store(&root, "k", "n", "", layout()).unwrap();
        let manifest = root.join("k/manifest");
        let text = fs::read_to_string(&manifest).unwrap();
        fs::write(&manifest, text.replace("scale=400", "scale=401")).unwrap();
        assert!(lookup(&root, "k", "n").is_none());
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
        // A target directory made before cargo's first build has no tag, but cargo's rustc
        // information file.
        fs::remove_file(target.join("CACHEDIR.TAG")).unwrap();
        assert_eq!(target_dir(args(&["rustc", "--out-dir", &out])), None);
        fs::write(target.join(".rustc_info.json"), "{}").unwrap();
        assert_eq!(target_dir(args(&["rustc", "--out-dir", &out])), Some(target.clone()));
        fs::remove_dir_all(&target).unwrap();
    }
}
