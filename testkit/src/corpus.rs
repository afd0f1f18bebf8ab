//! The malformed-net corpus (`tests/corpus/manifest.tsv`): each case is a seeded synthetic net
//! (a *recipe*) and a list of mutations, built here byte for byte the same way every time. The
//! reader test (`tests/malformed_nets.rs`) and the compile-fail test (`nnue-macros/tests/compile_fail.rs`)
//! share it.
//!
//! Offsets are not hard-coded: [`layout`] walks a well-formed net the way the reader does and
//! names every place in it (`ft.weights.count`, `stack3.fc1.biases`, `l1b.end`, ...), and the
//! manifest's mutations and expected offsets are written in those names.
//!
//! ```no_run
//! let dir = nnue_testkit::root().join("target/tests/nnue-corpus");
//! for (case, path) in nnue_testkit::corpus::cases().iter().zip(nnue_testkit::corpus::write_all(&dir).unwrap()) {
//!     // compile `nnue_net!` on `path` (with the description `case.arch`, if any), then check
//!     // the compiler's message with `case.check_message(&message)`
//! #   let _ = (case, path);
//! }
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use nnue_runtime::format::formats::OutputStore;
use nnue_runtime::format::{
    hash, synth, Architecture, Encoding, FormatError, HalfKpArch, Model, Net, Sf19Arch, Sf19Inputs, SfnnArch,
    ThreatsArch,
};

/// The manifest, relative to the workspace root.
pub const MANIFEST: &str = "tests/corpus/manifest.tsv";

/// The magic that starts a LEB128-compressed array.
const LEB128_MAGIC: &[u8] = b"COMPRESSED_LEB128";

/// The error a case must produce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expected {
    /// `ErrorKind::name()`: `Truncated`, `Leb128`, `HashMismatch`, ...
    pub kind: String,
    /// `FormatError::section`: `header`, `feature transformer`, `stack[3] fc_1`, ...
    pub section: String,
    /// `FormatError::offset`: the byte where reading stopped.
    pub offset: usize,
}

/// One corpus case, as the manifest states it (offsets resolved against its base net).
#[derive(Debug, Clone)]
pub struct Case {
    pub name: String,
    /// The base net's recipe, e.g. `sfnn:64:leb128:seed=1` (see [`base_net`]).
    pub base: String,
    /// The mutations, applied in order (`;`-separated; see [`materialize`]).
    pub mutation: String,
    /// The architecture description to pass along with the file, if any.
    pub arch: Option<String>,
    pub expected: Expected,
    /// Pieces the error message must contain besides the offset and section (what was expected
    /// and what was found).
    pub message_contains: Vec<String>,
}

impl Case {
    /// The file name [`write_all`] gives the case: `<name>.nnue`.
    pub fn file_name(&self) -> String {
        format!("{}.nnue", self.name)
    }

    /// The case's bytes ([`materialize`]).
    pub fn bytes(&self) -> Vec<u8> {
        materialize(self)
    }

    /// [`Case::arch`], parsed.
    pub fn architecture(&self) -> Option<Architecture> {
        self.arch.as_deref().map(|a| a.parse().unwrap_or_else(|e| panic!("corpus case {}: {e}", self.name)))
    }

    /// Checks a message that reports this case's error (the reader's `Display`, or a compile
    /// error that embeds it): it names the offset (`at offset N`), the section, and every piece
    /// of [`Case::message_contains`].
    pub fn check_message(&self, message: &str) -> Result<(), String> {
        let offset = format!("at offset {}:", self.expected.offset);
        let section = format!("{} {offset}", self.expected.section);
        let missing: Vec<&str> = std::iter::once(section.as_str())
            .chain(self.message_contains.iter().map(String::as_str))
            .filter(|piece| !message.contains(piece))
            .collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(format!("{}: the message {message:?} lacks {missing:?}", self.name))
        }
    }

    /// Checks the reader's error: its kind, section and offset, and its message.
    pub fn check(&self, err: &FormatError) -> Result<(), String> {
        let got = (err.kind.name(), err.section.as_str(), err.offset);
        let want = (self.expected.kind.as_str(), self.expected.section.as_str(), self.expected.offset);
        if got != want {
            return Err(format!("{}: expected {want:?}, got {got:?}: {err}", self.name));
        }
        self.check_message(&err.to_string())
    }
}

/// Every case of the manifest, in its order.
pub fn cases() -> Vec<Case> {
    let path = crate::root().join(MANIFEST);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let cases: Vec<Case> =
        text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).map(parse_row).collect();
    let mut names = std::collections::HashSet::new();
    for case in &cases {
        assert!(names.insert(case.name.as_str()), "corpus case {} is in the manifest twice", case.name);
    }
    cases
}

/// The case of that name.
pub fn find(name: &str) -> Option<Case> {
    cases().into_iter().find(|c| c.name == name)
}

fn parse_row(line: &str) -> Case {
    let f: Vec<&str> = line.split('\t').collect();
    assert_eq!(f.len(), 8, "manifest row needs 8 tab-separated fields: {line}");
    let base = base(f[1]);
    Case {
        name: f[0].into(),
        base: f[1].into(),
        mutation: f[2].into(),
        arch: (f[3] != "-").then(|| f[3].to_string()),
        expected: Expected { kind: f[4].into(), section: f[5].into(), offset: base.resolve(f[6]) },
        message_contains: match f[7] {
            "-" => Vec::new(),
            m => m.split(" | ").map(str::to_string).collect(),
        },
    }
}

/// The net a recipe names:
///
/// - `sfnn:L1:leb128:seed=N` or `sfnn:L1:raw:seed=N`: [`synth::sfnn`];
/// - `halfkp:L1:seed=N` (raw, as Stockfish 12-13 wrote them) or `halfkp:L1:leb128:seed=N`;
/// - `chess768:DESCRIPTION:seed=N`, e.g. `chess768:(768 -> 32)x2 -> 1, crelu, qa=255, qb=64,
///   scale=400:seed=3`: [`synth::chess768`];
/// - `layered:DESCRIPTION:seed=N`: [`synth::layered`].
pub fn base_net(recipe: &str) -> Net {
    let bad = || format!("bad corpus base recipe {recipe:?}");
    let (spec, seed) = recipe.rsplit_once(":seed=").unwrap_or_else(|| panic!("{}", bad()));
    let seed: u64 = seed.parse().unwrap_or_else(|_| panic!("{}", bad()));
    let (family, shape) = spec.split_once(':').unwrap_or_else(|| panic!("{}", bad()));
    let (l1, enc) = shape.split_once(':').map_or((shape, None), |(l, e)| (l, Some(e)));
    let encoding = match enc {
        None | Some("raw") => Encoding::Raw,
        Some("leb128") => Encoding::Leb128,
        Some(_) => panic!("{}", bad()),
    };
    match family {
        "sfnn" => {
            assert!(enc.is_some(), "{}: say leb128 or raw", bad());
            synth::sfnn(l1.parse().unwrap_or_else(|_| panic!("{}", bad())), seed, encoding)
        }
        "halfkp" => {
            let mut net = synth::halfkp(l1.parse().unwrap_or_else(|_| panic!("{}", bad())), seed);
            if let Model::HalfKp(_, p) = &mut net.model {
                // No PSQT: its slot stays Raw, as the reader reports it.
                p.ft.encoding = [encoding, encoding, Encoding::Raw];
            }
            net
        }
        "chess768" => match shape.parse() {
            Ok(Architecture::Chess768(arch)) => synth::chess768(&arch, seed),
            _ => panic!("{}", bad()),
        },
        "layered" => match shape.parse() {
            Ok(Architecture::Layered(arch)) => synth::layered(&arch, seed),
            _ => panic!("{}", bad()),
        },
        _ => panic!("{}", bad()),
    }
}

/// What a stretch of a well-formed file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegionKind {
    /// A u32: the version, the file hash, the description length, a section hash.
    Word,
    /// The header's description.
    Text,
    /// Little-endian values back to back.
    Raw,
    /// `COMPRESSED_LEB128` at the start, the u32 byte count at `count`, the values from `data`.
    Leb128 { count: usize, data: usize },
    /// A headerless net's zero padding.
    Padding,
}

/// A stretch of a well-formed file, in reading order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    /// `header.version`, `header.hash`, `header.length`, `description`, `ft.hash`, `ft.biases`,
    /// `ft.weights`, `ft.psqt`, `stackN.hash`, `stackN.fcK.biases|weights`, `net.hash`,
    /// `net.fcK.biases|weights`, `l0w`, `l0b`, `l1w`, `l1b`, `padding`.
    pub name: String,
    /// The section the reader names for an error inside it.
    pub section: String,
    pub start: usize,
    pub end: usize,
    pub kind: RegionKind,
}

/// Walks a well-formed file of architecture `arch` the way the reader does (sizes from the
/// architecture, LEB128 lengths from the byte counts), without the reader's code. Panics if the
/// walk does not end exactly at the end of the file.
pub fn layout(b: &[u8], arch: &Architecture) -> Vec<Region> {
    let mut w = Walker { b, pos: 0, regions: Vec::new() };
    match arch {
        Architecture::Sfnn(a) => {
            w.header();
            w.push("ft.hash", "feature transformer", 4, RegionKind::Word);
            w.array("ft.biases", "feature transformer", a.l1, 2);
            w.array("ft.weights", "feature transformer", SfnnArch::INPUTS * a.l1, 2);
            w.array("ft.psqt", "feature transformer", SfnnArch::INPUTS * SfnnArch::PSQT_BUCKETS, 4);
            w.sfnn_stacks(a.l1);
        }
        Architecture::Threats(a) => {
            w.header();
            w.push("ft.hash", "feature transformer", 4, RegionKind::Word);
            w.array("ft.biases", "feature transformer", a.l1, 2);
            w.push("ft.threat_weights", "feature transformer", ThreatsArch::THREAT_INPUTS * a.l1, RegionKind::Raw);
            w.array("ft.weights", "feature transformer", ThreatsArch::PIECE_INPUTS * a.l1, 2);
            w.array("ft.psqt", "feature transformer", ThreatsArch::INPUTS * SfnnArch::PSQT_BUCKETS, 4);
            w.sfnn_stacks(a.l1);
        }
        Architecture::Sf19(a) => {
            w.header();
            w.push("ft.hash", "feature transformer", 4, RegionKind::Word);
            w.array("ft.biases", "feature transformer", a.l1, 2);
            if a.inputs == Sf19Inputs::Full {
                w.push("ft.threat_weights", "feature transformer", Sf19Arch::THREAT_INPUTS * a.l1, RegionKind::Raw);
                // SFNNv17 (`psqt=0`) has no PSQT blocks.
                if a.psqt {
                    w.array(
                        "ft.threat_psqt",
                        "feature transformer",
                        Sf19Arch::THREAT_INPUTS * Sf19Arch::PSQT_BUCKETS,
                        4,
                    );
                }
                w.push("ft.pair_weights", "feature transformer", Sf19Arch::PAIR_INPUTS * a.l1, RegionKind::Raw);
                if a.psqt {
                    w.array("ft.pair_psqt", "feature transformer", Sf19Arch::PAIR_INPUTS * Sf19Arch::PSQT_BUCKETS, 4);
                }
            }
            w.array("ft.weights", "feature transformer", a.int16_inputs() * a.l1, 2);
            if a.psqt {
                w.array("ft.psqt", "feature transformer", a.int16_inputs() * Sf19Arch::PSQT_BUCKETS, 4);
            }
            w.stacks(a.l1, [Sf19Arch::FC0_OUT, Sf19Arch::FC1_IN, Sf19Arch::FC1_OUT, Sf19Arch::FC2_IN]);
        }
        Architecture::HalfKp(a) => {
            w.header();
            w.push("ft.hash", "feature transformer", 4, RegionKind::Word);
            w.array("ft.biases", "feature transformer", a.l1, 2);
            w.array("ft.weights", "feature transformer", HalfKpArch::INPUTS * a.l1, 2);
            w.push("net.hash", "network", 4, RegionKind::Word);
            w.dense("net", "network", 0, 2 * a.l1, HalfKpArch::L2);
            w.dense("net", "network", 1, HalfKpArch::L2, HalfKpArch::L3);
            w.dense("net", "network", 2, HalfKpArch::L3, 1);
        }
        Architecture::Chess768(a) => {
            let n = a.hidden;
            let format = a.file.format();
            if let Some(header) = format.header {
                w.push("header", "header", 4 * header.words.len() + header.ignored, RegionKind::Raw);
            }
            w.push("l0w", "l0 weights", 2 * a.inputs() * n, RegionKind::Raw);
            w.push("l0b", "l0 biases", 2 * n, RegionKind::Raw);
            match format.output {
                OutputStore::Arrays => {
                    w.push("l1w", "l1 weights", 2 * a.output_buckets * 2 * n, RegionKind::Raw);
                    w.push("l1b", "l1 biases", 2 * a.output_buckets, RegionKind::Raw);
                    w.push("padding", "padding", b.len().saturating_sub(a.param_bytes()), RegionKind::Padding);
                }
                // Caissa's: per bucket its weights, its bias, the struct's padding.
                OutputStore::Structs { bias, align } => {
                    for k in 0..a.output_buckets {
                        let section = format!("output bucket {k}");
                        w.push(&format!("bucket{k}.weights"), &section, 2 * 2 * n, RegionKind::Raw);
                        w.push(&format!("bucket{k}.bias"), &section, bias.size(), RegionKind::Raw);
                        let used = 2 * 2 * n + bias.size();
                        w.push(
                            &format!("bucket{k}.padding"),
                            &section,
                            used.next_multiple_of(align) - used,
                            RegionKind::Padding,
                        );
                    }
                }
            }
        }
        Architecture::Layered(a) => {
            if a.file == nnue_runtime::format::FileLayout::Cbnf {
                w.push("cbnf", "CBNF header", 64, RegionKind::Raw);
            }
            let (l1, l2, l3, l2f, nb) = (a.l1, a.l2, a.l3, a.l2_full(), a.buckets);
            let threats = [("threat.weights", "threat weights", a.int8_inputs() * l1)];
            let arrays = [
                ("ft.weights", "ft weights", 2 * a.int16_inputs() * l1),
                ("ft.biases", "ft biases", 2 * l1),
                ("l1.weights", "l1 weights", nb * l2 * l1),
                ("l1.biases", "l1 biases", 4 * nb * l2),
                ("l2.weights", "l2 weights", 4 * nb * l3 * l2f),
                ("l2.biases", "l2 biases", 4 * nb * l3),
                ("l3.weights", "l3 weights", 4 * nb * a.l3_inputs()),
                ("l3.biases", "l3 biases", 4 * nb),
            ];
            // Stormphrax and Obsidian align each array; the file may end without the last
            // one's padding.
            let align = a.file.array_align();
            let arrays: Vec<_> = threats.into_iter().filter(|_| a.threats.is_some()).chain(arrays).collect();
            for (k, &(name, section, len)) in arrays.iter().enumerate() {
                w.push(name, section, len, RegionKind::Raw);
                let pad = w.pos.next_multiple_of(align) - w.pos;
                if pad > 0 && (k + 1 < arrays.len() || w.pos + pad <= b.len()) {
                    w.push(&format!("{name}.padding"), section, pad, RegionKind::Padding);
                }
            }
            if a.file == nnue_runtime::format::FileLayout::Bullet {
                w.push("padding", "padding", b.len().saturating_sub(a.param_bytes()), RegionKind::Padding);
            }
        }
    }
    assert_eq!(w.pos, b.len(), "the corpus walker disagrees with the file's size ({arch})");
    w.regions
}

struct Walker<'a> {
    b: &'a [u8],
    pos: usize,
    regions: Vec<Region>,
}

impl Walker<'_> {
    fn push(&mut self, name: &str, section: &str, len: usize, kind: RegionKind) {
        let start = self.pos;
        self.pos += len;
        self.regions.push(Region { name: name.into(), section: section.into(), start, end: self.pos, kind });
    }

    fn u32_at(&self, at: usize) -> usize {
        u32::from_le_bytes(self.b[at..at + 4].try_into().unwrap()) as usize
    }

    fn header(&mut self) {
        self.push("header.version", "header", 4, RegionKind::Word);
        self.push("header.hash", "header", 4, RegionKind::Word);
        self.push("header.length", "header", 4, RegionKind::Word);
        self.push("description", "header", self.u32_at(8), RegionKind::Text);
    }

    /// An array stored raw or LEB128-compressed, as its first bytes say.
    fn array(&mut self, name: &str, section: &str, values: usize, size: usize) {
        if self.b[self.pos..].starts_with(LEB128_MAGIC) {
            let count = self.pos + LEB128_MAGIC.len();
            let len = count + 4 + self.u32_at(count) - self.pos;
            self.push(name, section, len, RegionKind::Leb128 { count, data: count + 4 });
        } else {
            self.push(name, section, values * size, RegionKind::Raw);
        }
    }

    /// An int8 layer: i32 biases, then rows of weights padded to 32 inputs.
    /// The 8 layer stacks of the SFNN families (17.1's and 18's threat nets alike).
    fn sfnn_stacks(&mut self, l1: usize) {
        self.stacks(l1, [SfnnArch::FC0_OUT, SfnnArch::FC1_IN, SfnnArch::FC1_OUT, SfnnArch::FC1_OUT]);
    }

    /// 8 stacks of fc_0 `l1 -> fc0_out`, fc_1 `fc1_in -> fc1_out`, fc_2 `fc2_in -> 1`.
    fn stacks(&mut self, l1: usize, [fc0_out, fc1_in, fc1_out, fc2_in]: [usize; 4]) {
        for s in 0..SfnnArch::STACKS {
            self.push(&format!("stack{s}.hash"), &format!("stack[{s}]"), 4, RegionKind::Word);
            let (prefix, section) = (format!("stack{s}"), format!("stack[{s}]"));
            self.dense(&prefix, &section, 0, l1, fc0_out);
            self.dense(&prefix, &section, 1, fc1_in, fc1_out);
            self.dense(&prefix, &section, 2, fc2_in, 1);
        }
    }

    fn dense(&mut self, prefix: &str, section: &str, k: usize, inputs: usize, outputs: usize) {
        let section = format!("{section} fc_{k}");
        self.push(&format!("{prefix}.fc{k}.biases"), &section, outputs * 4, RegionKind::Raw);
        self.push(&format!("{prefix}.fc{k}.weights"), &section, outputs * inputs.next_multiple_of(32), RegionKind::Raw);
    }
}

/// A base net: its bytes, architecture and places.
#[derive(Debug)]
pub struct Base {
    pub recipe: String,
    pub arch: Architecture,
    pub bytes: Vec<u8>,
    pub regions: Vec<Region>,
    places: HashMap<String, usize>,
}

impl Base {
    fn new(recipe: &str) -> Self {
        let net = base_net(recipe);
        let bytes = net.to_bytes();
        let regions = layout(&bytes, &net.arch());
        let mut places = HashMap::from([("end".to_string(), bytes.len())]);
        for r in &regions {
            places.insert(r.name.clone(), r.start);
            places.insert(format!("{}.end", r.name), r.end);
            if let RegionKind::Leb128 { count, data } = r.kind {
                places.insert(format!("{}.count", r.name), count);
                places.insert(format!("{}.data", r.name), data);
            }
        }
        Self { recipe: recipe.into(), arch: net.arch(), bytes, regions, places }
    }

    /// The offset of a place: a name of [`Base::places`], a number (`12`, `0x40`), either with
    /// `+N` or `-N`.
    pub fn resolve(&self, expr: &str) -> usize {
        let (name, delta) = match expr.rfind(['+', '-']) {
            Some(i) if i > 0 => (&expr[..i], expr[i..].parse::<i64>().expect("offset delta")),
            _ => (expr, 0),
        };
        let at = match number(name) {
            Some(n) => n as usize,
            None => *self
                .places
                .get(name)
                .unwrap_or_else(|| panic!("no place {name:?} in {}; places: {:?}", self.recipe, self.places())),
        };
        usize::try_from(at as i64 + delta).expect("offset before the file")
    }

    /// The names of every place: each region's start, `NAME.end`, `NAME.count` and `NAME.data`
    /// inside a LEB128 array, and `end`.
    pub fn places(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.places.keys().map(String::as_str).collect();
        names.sort_by_key(|n| (self.places[*n], *n));
        names
    }

    /// The region of that name.
    pub fn region(&self, name: &str) -> &Region {
        self.regions.iter().find(|r| r.name == name).unwrap_or_else(|| panic!("no region {name} in {}", self.recipe))
    }
}

/// The base net of a recipe, built once per process.
pub fn base(recipe: &str) -> Arc<Base> {
    /// One slot per recipe, so that building one base does not hold up the others.
    type Slot = Arc<OnceLock<Arc<Base>>>;
    static BASES: OnceLock<Mutex<HashMap<String, Slot>>> = OnceLock::new();
    let slot = BASES.get_or_init(Default::default).lock().unwrap().entry(recipe.to_string()).or_default().clone();
    slot.get_or_init(|| Arc::new(Base::new(recipe))).clone()
}

fn number(s: &str) -> Option<u64> {
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// A u32 value: `0x1234abcd`, `17`, or a structural hash such as `sfnn_file_hash(128)`
/// (`sfnn_ft_hash`, `sfnn_stack_hash`, `halfkp_file_hash`, `halfkp_ft_hash`,
/// `halfkp_network_hash`).
fn value(s: &str) -> u32 {
    if let Some(n) = number(s) {
        return u32::try_from(n).expect("value fits a u32");
    }
    let (f, arg) = s.strip_suffix(')').and_then(|s| s.split_once('(')).unwrap_or_else(|| panic!("bad value {s}"));
    let l1: usize = arg.parse().expect("L1");
    let (sfnn, halfkp) = (SfnnArch { l1 }, HalfKpArch { l1 });
    match f {
        "sfnn_file_hash" => sfnn.file_hash(),
        "sfnn_ft_hash" => sfnn.ft_hash(),
        "sfnn_stack_hash" => sfnn.stack_hash(),
        "halfkp_file_hash" => halfkp.file_hash(),
        "halfkp_ft_hash" => halfkp.ft_hash(),
        "halfkp_network_hash" => halfkp.network_hash(),
        "halfkav2_ft_hash" => hash::feature_transformer(hash::HALFKA_V2, l1),
        _ => panic!("unknown value function {f}"),
    }
}

/// Hex bytes, each pair optionally repeated: `00`, `c0b802`, `00*64`, `ff*3 00`.
fn hex_bytes(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .flat_map(|part| {
            let (h, times) = part.split_once('*').map_or((part, 1), |(h, n)| (h, n.parse().expect("repeat count")));
            assert!(h.len() % 2 == 0, "odd hex string {h}");
            let bytes: Vec<u8> =
                (0..h.len()).step_by(2).map(|i| u8::from_str_radix(&h[i..i + 2], 16).expect("hex byte")).collect();
            std::iter::repeat_n(bytes, times).flatten()
        })
        .collect()
}

/// Replaces the first value of the LEB128 array at `array` with `encoding`, fixing the count.
fn replace_first_value(b: &mut Vec<u8>, base: &Base, array: &str, encoding: impl Fn(&[u8]) -> Vec<u8>) {
    let RegionKind::Leb128 { count, data } = base.region(array).kind else {
        panic!("{array} is not a LEB128 array in {}", base.recipe)
    };
    let len = b[data..].iter().position(|&x| x & 0x80 == 0).unwrap() + 1;
    let new = encoding(&b[data..data + len]);
    let bytes = u32::from_le_bytes(b[count..count + 4].try_into().unwrap()) as usize + new.len() - len;
    b[count..count + 4].copy_from_slice(&(bytes as u32).to_le_bytes());
    b.splice(data..data + len, new);
}

/// The bytes of a case: its base net with its mutations applied in order. Places in the
/// mutations are those of the unmutated base. The mutations:
///
/// - `none`, `empty`, `truncate@P`, `append=HEX`, `insert@P=HEX`, `set@P=HEX` (overwrite);
/// - `set_u32@P=V`, `add_u32@P=V` (wrapping), `xor@P=V` (one byte), with V a number or a
///   structural hash (`sfnn_file_hash(128)`, ...);
/// - `description=TEXT`, `description_hex=HEX`: replaces the header's description (and length);
/// - `leb128_first@ARRAY=HEX`: replaces the first value of a LEB128 array by those bytes and
///   fixes the byte count; `overlong@ARRAY` (the same value one byte longer), `too_long@ARRAY`
///   (`80 80 80 00`), `out_of_range@ARRAY` (40000, `c0 b8 02`).
pub fn materialize(case: &Case) -> Vec<u8> {
    let base = base(&case.base);
    let mut b = base.bytes.clone();
    for m in case.mutation.split(';').map(str::trim) {
        mutate(&mut b, &base, m);
    }
    b
}

fn mutate(b: &mut Vec<u8>, base: &Base, m: &str) {
    let (op, rest) = m.split_once(['@', '=']).map_or((m, ""), |(o, _)| (o, &m[o.len() + 1..]));
    let (place, arg) = match m.as_bytes().get(op.len()) {
        Some(b'@') => rest.split_once('=').unwrap_or((rest, "")),
        _ => ("", rest),
    };
    let at = || base.resolve(place);
    let word = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    match op {
        "none" => {}
        "empty" => b.clear(),
        "truncate" => b.truncate(at()),
        "append" => b.extend(hex_bytes(arg)),
        "insert" => {
            b.splice(at()..at(), hex_bytes(arg));
        }
        "set" => {
            let new = hex_bytes(arg);
            b[at()..at() + new.len()].copy_from_slice(&new);
        }
        "set_u32" => b[at()..at() + 4].copy_from_slice(&value(arg).to_le_bytes()),
        "add_u32" => {
            let v = word(b, at()).wrapping_add(value(arg));
            b[at()..at() + 4].copy_from_slice(&v.to_le_bytes());
        }
        "xor" => b[at()] ^= u8::try_from(value(arg)).expect("xor takes a byte"),
        "description" | "description_hex" => {
            let desc = if op == "description" { arg.as_bytes().to_vec() } else { hex_bytes(arg) };
            let old = word(b, 8) as usize;
            b.splice(8..12 + old, (desc.len() as u32).to_le_bytes().into_iter().chain(desc));
        }
        "leb128_first" => replace_first_value(b, base, place, |_| hex_bytes(arg)),
        "overlong" => replace_first_value(b, base, place, |v| {
            // Same value, one byte longer: the last byte only repeats the sign.
            let mut v = v.to_vec();
            let sign = if v[v.len() - 1] & 0x40 != 0 { 0x7f } else { 0x00 };
            *v.last_mut().unwrap() |= 0x80;
            v.push(sign);
            v
        }),
        "too_long" => replace_first_value(b, base, place, |_| vec![0x80, 0x80, 0x80, 0x00]),
        // 40000 does not fit an int16.
        "out_of_range" => replace_first_value(b, base, place, |_| vec![0xC0, 0xB8, 0x02]),
        _ => panic!("unknown corpus mutation {m:?}"),
    }
}

/// The compile-fail source holding every case (`nnue-macros/tests/ui/corpus.rs`): one `nnue_net!`
/// per case, each reading the file [`write_all`] wrote to `target/tests/nnue-corpus/`
/// (`../../nnue-corpus/<name>.nnue` from trybuild's crate). One crate for all cases, so the
/// compiler reports every case's error in a single build.
pub fn ui_source(cases: &[Case]) -> String {
    let mut out = String::from(
        "// Generated from tests/corpus/manifest.tsv by `nnue_testkit::corpus::ui_source`:\n\
         // every malformed-net case as a compile error (checked by nnue-macros/tests/compile_fail.rs).\n",
    );
    for case in cases {
        let path = format!("../../nnue-corpus/{}", case.file_name());
        let arch = case.arch.as_ref().map(|a| format!("\n    arch = {a:?},")).unwrap_or_default();
        out += &format!("\nnnue_runtime::nnue_net! {{\n    name = {},\n    path = {path:?},{arch}\n}}\n", case.name);
    }
    out + "\nfn main() {}\n"
}

/// Writes every case to `dir/<name>.nnue` (rewriting only what changed) and returns the paths,
/// in the order of [`cases`].
pub fn write_all(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    cases()
        .iter()
        .map(|case| {
            let path = dir.join(case.file_name());
            let bytes = materialize(case);
            if std::fs::read(&path).ok().as_deref() != Some(&bytes[..]) {
                std::fs::write(&path, &bytes)?;
            }
            Ok(path)
        })
        .collect()
}
