//! `read_file`: things that are not net files are errors naming the path, at once (a FIFO
//! once hung the reader, `/dev/zero` ate memory, a 2 GB file was read whole).

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use nnue_format::{read_file, synth, Encoding, ErrorKind, FileError, FileErrorKind, FileKind, Net};

/// A path under the target folder's scratch space (Cargo's `CARGO_TARGET_TMPDIR`), reused by
/// every run: files left in the system's temporary folder once piled up, one folder per run.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("nnue-format-file-test");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Reads on another thread, so that a hang fails the test instead of blocking it forever.
fn read_soon(path: &Path) -> Result<Net, FileError> {
    let (tx, rx) = mpsc::channel();
    let p = path.to_path_buf();
    std::thread::spawn(move || {
        let _ = tx.send(read_file(&p, None));
    });
    rx.recv_timeout(Duration::from_secs(20)).unwrap_or_else(|_| panic!("reading {} hangs", path.display()))
}

#[test]
fn a_valid_file_reads_like_its_bytes() {
    let net = synth::sfnn(64, 3, Encoding::Leb128);
    let path = scratch("valid.nnue");
    std::fs::write(&path, net.to_bytes()).unwrap();
    assert_eq!(read_soon(&path).unwrap(), net);
    assert_eq!(Net::from_file(&path, None).unwrap(), net);
}

#[test]
fn a_directory_is_not_a_net() {
    let dir = scratch("a-directory");
    std::fs::create_dir_all(&dir).unwrap();
    let e = read_soon(&dir).unwrap_err();
    assert!(matches!(e.kind, FileErrorKind::NotAFile(FileKind::Directory)), "{e}");
    assert_eq!(e.to_string(), format!("{}: not a net file: expected a regular file, found a directory", dir.display()));
}

#[test]
fn a_missing_file_names_the_path() {
    let path = scratch("missing.nnue");
    let e = read_soon(&path).unwrap_err();
    assert!(matches!(e.kind, FileErrorKind::Open(_)), "{e}");
    assert!(e.to_string().starts_with(&format!("{}: can't open: ", path.display())), "{e}");
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_blocking() {
    let path = scratch("fifo.nnue");
    let status = std::process::Command::new("mkfifo").arg(&path).status().expect("mkfifo runs");
    assert!(status.success());
    let e = read_soon(&path).unwrap_err();
    assert!(matches!(e.kind, FileErrorKind::NotAFile(FileKind::Fifo)), "{e}");
    assert!(e.to_string().contains("found a FIFO"), "{e}");
    let _ = std::fs::remove_file(&path);
}

#[cfg(unix)]
#[test]
fn dev_zero_is_refused_without_reading() {
    let e = read_soon(Path::new("/dev/zero")).unwrap_err();
    assert!(matches!(e.kind, FileErrorKind::NotAFile(FileKind::CharDevice)), "{e}");
    assert_eq!(e.to_string(), "/dev/zero: not a net file: expected a regular file, found a character device");
}

#[test]
fn a_huge_sparse_file_is_refused_by_its_size() {
    let path = scratch("huge.nnue");
    let f = std::fs::File::create(&path).unwrap();
    f.set_len(2 << 30).unwrap(); // 2 GiB of holes: version 0
    drop(f);
    let e = read_soon(&path).unwrap_err();
    assert!(matches!(e.kind, FileErrorKind::TooLarge { found: 0x8000_0000, .. }), "{e}");
    assert!(e.to_string().ends_with("the file has 2147483648 bytes: expected at most 1073741824"), "{e}");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_bad_version_is_found_before_the_rest_is_read() {
    // 512 MiB of holes after a bad version: refused from the first 12 bytes.
    let path = scratch("bad-version.nnue");
    std::fs::write(&path, b"[workspace]\n").unwrap();
    std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(512 << 20).unwrap();
    let e = read_soon(&path).unwrap_err();
    let FileErrorKind::Format(f) = &e.kind else { panic!("{e}") };
    assert_eq!((f.offset, f.kind.name()), (0, "UnknownVersion"), "{e}");
    assert!(e.to_string().contains("header at offset 0: unknown version 0x726f775b"), "{e}");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn an_absurd_description_length_is_found_from_the_header() {
    let mut bytes = synth::sfnn(64, 3, Encoding::Raw).to_bytes();
    bytes[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    let path = scratch("absurd-description.nnue");
    std::fs::write(&path, &bytes).unwrap();
    let from_file = read_soon(&path).unwrap_err();
    let FileErrorKind::Format(f) = from_file.kind else { panic!() };
    // The same error as the reader's.
    assert_eq!(f, Net::from_bytes(&bytes, None).unwrap_err());
    assert!(matches!(f.kind, ErrorKind::Truncated { .. }));
}

#[test]
fn a_headerless_file_of_the_wrong_size_is_refused_with_the_readers_error() {
    let arch: nnue_format::Architecture = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400".parse().unwrap();
    let path = scratch("headerless.nnue");
    let bytes = vec![0u8; 1000];
    std::fs::write(&path, &bytes).unwrap();
    let e = read_file(&path, Some(&arch)).unwrap_err();
    let FileErrorKind::Format(f) = e.kind else { panic!() };
    assert_eq!(f, Net::from_bytes(&bytes, Some(&arch)).unwrap_err());
    let nnue_format::Architecture::Chess768(simple) = &arch else { panic!() };
    let net = synth::chess768(simple, 1);
    std::fs::write(&path, net.to_bytes()).unwrap();
    assert_eq!(read_file(&path, Some(&arch)).unwrap(), net);
}
