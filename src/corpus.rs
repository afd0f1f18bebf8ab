//! The malformed-net corpus (`tests/corpus/manifest.tsv`): each case is a seeded synthetic net
//! and one mutation, built here byte for byte the same way every time. The reader test
//! (`tests/malformed_nets.rs`) and the compile-fail test (`tests/compile_fail.rs`) share it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use nnue_runtime::format::{synth, Architecture, Encoding};

/// One corpus case, as the manifest states it.
#[derive(Debug, Clone)]
pub struct Case {
    pub name: String,
    pub base: String,
    pub mutation: String,
    /// The architecture description to pass, if any.
    pub arch: Option<String>,
    /// Expected `ErrorKind::name()`, section and byte offset.
    pub kind: String,
    pub section: String,
    pub offset: usize,
}

/// Every case of the manifest, with offsets resolved against its base net.
pub fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(crate::root().join("tests/corpus/manifest.tsv")).expect("corpus manifest");
    let mut bases = HashMap::new();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 7, "manifest line: {line}");
            let places = bases.entry(f[1].to_string()).or_insert_with(|| base(f[1]).1);
            Case {
                name: f[0].into(),
                base: f[1].into(),
                mutation: f[2].into(),
                arch: (f[3] != "-").then(|| f[3].to_string()),
                kind: f[4].into(),
                section: f[5].into(),
                offset: resolve(places, f[6]),
            }
        })
        .collect()
}

/// A base net's bytes and the offsets of its places.
fn base(name: &str) -> (Vec<u8>, HashMap<String, usize>) {
    let net = match name {
        "sfnn" => synth::sfnn(64, 1, Encoding::Leb128),
        "halfkp" => synth::halfkp(64, 2),
        "simple" => {
            let Ok(Architecture::Simple(arch)) = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400".parse() else {
                unreachable!()
            };
            synth::simple(&arch, 3)
        }
        other => panic!("unknown corpus base {other}"),
    };
    let bytes = net.to_bytes();
    let places = places(&bytes, name);
    (bytes, places)
}

/// Walks a well-formed file the way the reader does, naming each place.
fn places(b: &[u8], base: &str) -> HashMap<String, usize> {
    let mut at = HashMap::new();
    let u32_at = |p: usize| u32::from_le_bytes(b[p..p + 4].try_into().unwrap()) as usize;
    let mut pos = 0;
    let array = |at: &mut HashMap<String, usize>, name: &str, pos: &mut usize, raw_bytes: usize| {
        at.insert(name.to_string(), *pos);
        if b[*pos..].starts_with(b"COMPRESSED_LEB128") {
            let count = *pos + 17;
            at.insert(format!("{name}.count"), count);
            at.insert(format!("{name}.data"), count + 4);
            *pos = count + 4 + u32_at(count);
        } else {
            *pos += raw_bytes;
        }
        at.insert(format!("{name}.end"), *pos);
    };
    if base == "simple" {
        let n = 32;
        for (name, bytes) in [("l0w", 768 * n * 2), ("l0b", n * 2), ("l1w", 2 * n * 2), ("l1b", 2)] {
            array(&mut at, name, &mut pos, bytes);
        }
        at.insert("end".into(), b.len());
        return at;
    }
    let l1 = 64;
    pos = 12 + u32_at(8);
    at.insert("ft.hash".into(), pos);
    pos += 4;
    let inputs = if base == "sfnn" { 22528 } else { 41024 };
    array(&mut at, "ft.biases", &mut pos, l1 * 2);
    array(&mut at, "ft.weights", &mut pos, inputs * l1 * 2);
    let dense = |at: &mut HashMap<String, usize>, prefix: &str, pos: &mut usize, layers: &[(usize, usize)]| {
        for (k, &(inputs, outputs)) in layers.iter().enumerate() {
            at.insert(format!("{prefix}.fc{k}.biases"), *pos);
            *pos += outputs * 4;
            at.insert(format!("{prefix}.fc{k}.weights"), *pos);
            *pos += outputs * inputs.next_multiple_of(32);
        }
    };
    if base == "sfnn" {
        array(&mut at, "ft.psqt", &mut pos, inputs * 8 * 4);
        for s in 0..8 {
            at.insert(format!("stack{s}.hash"), pos);
            pos += 4;
            dense(&mut at, &format!("stack{s}"), &mut pos, &[(l1, 16), (30, 32), (32, 1)]);
        }
    } else {
        at.insert("net.hash".into(), pos);
        pos += 4;
        dense(&mut at, "net", &mut pos, &[(2 * l1, 32), (32, 32), (32, 1)]);
    }
    assert_eq!(pos, b.len(), "corpus walker disagrees with the writer for {base}");
    at.insert("end".into(), pos);
    at
}

/// `name`, `name+N`, `name-N` or a number.
fn resolve(places: &HashMap<String, usize>, expr: &str) -> usize {
    let (name, delta) = match expr.rfind(['+', '-']) {
        Some(i) if i > 0 => (&expr[..i], expr[i..].parse::<i64>().expect("offset delta")),
        _ => (expr, 0),
    };
    let base = match name.parse::<usize>() {
        Ok(n) => n,
        Err(_) => *places.get(name).unwrap_or_else(|| panic!("unknown corpus place {name}")),
    };
    (base as i64 + delta) as usize
}

fn hex(s: &str) -> u32 {
    u32::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex number")
}

/// Replaces the first LEB128 value of the array at `at` with `encoding`, fixing the byte count.
fn replace_first_value(
    b: &mut Vec<u8>,
    places: &HashMap<String, usize>,
    array: &str,
    encoding: impl Fn(&[u8]) -> Vec<u8>,
) {
    let (count, data) = (places[&format!("{array}.count")], places[&format!("{array}.data")]);
    let len = b[data..].iter().position(|&x| x & 0x80 == 0).unwrap() + 1;
    let new = encoding(&b[data..data + len]);
    let bytes = u32::from_le_bytes(b[count..count + 4].try_into().unwrap()) as usize + new.len() - len;
    b[count..count + 4].copy_from_slice(&(bytes as u32).to_le_bytes());
    b.splice(data..data + len, new);
}

/// The bytes of a case.
pub fn materialize(case: &Case) -> Vec<u8> {
    let (mut b, places) = base(&case.base);
    let m = case.mutation.as_str();
    let (op, arg) = m.split_once('@').map_or((m, ""), |(o, a)| (o, a));
    let (place, value) = arg.split_once('=').map_or((arg, ""), |(p, v)| (p, v));
    let at = || resolve(&places, place);
    match op {
        "none" => {}
        "empty" => b.clear(),
        "truncate" => b.truncate(at()),
        "set_u32" => b[at()..at() + 4].copy_from_slice(&hex(value).to_le_bytes()),
        "add_u32" => {
            let v = u32::from_le_bytes(b[at()..at() + 4].try_into().unwrap()) + hex(value);
            b[at()..at() + 4].copy_from_slice(&v.to_le_bytes());
        }
        "xor" => b[at()] ^= hex(value) as u8,
        "overlong" => replace_first_value(&mut b, &places, place, |v| {
            // Same value, one byte longer: the last byte only repeats the sign.
            let mut v = v.to_vec();
            let sign = if v[v.len() - 1] & 0x40 != 0 { 0x7f } else { 0x00 };
            *v.last_mut().unwrap() |= 0x80;
            v.push(sign);
            v
        }),
        "too_long" => replace_first_value(&mut b, &places, place, |_| vec![0x80, 0x80, 0x80, 0x00]),
        // 40000 does not fit an int16.
        "out_of_range" => replace_first_value(&mut b, &places, place, |_| vec![0xC0, 0xB8, 0x02]),
        _ if m.starts_with("append=") => {
            let h = &m["append=".len()..];
            b.extend((0..h.len()).step_by(2).map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap()));
        }
        _ if m.starts_with("description=") => {
            let desc = &m["description=".len()..];
            let old = u32::from_le_bytes(b[8..12].try_into().unwrap()) as usize;
            b.splice(8..12 + old, (desc.len() as u32).to_le_bytes().into_iter().chain(desc.bytes()));
        }
        _ => panic!("unknown corpus mutation {m}"),
    }
    b
}

/// Writes every case to `dir/<name>.nnue` (only when changed) and returns the paths.
pub fn write_all(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    cases()
        .iter()
        .map(|case| {
            let path = dir.join(format!("{}.nnue", case.name));
            let bytes = materialize(case);
            if std::fs::read(&path).ok().as_deref() != Some(&bytes[..]) {
                std::fs::write(&path, &bytes)?;
            }
            Ok(path)
        })
        .collect()
}
